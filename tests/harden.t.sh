# harden: firmware that misuses the NI cannot crash or corrupt the emulator
source tests/lib.sh
FW=build/firmware
T=octagon
# ADDR and LEN rewritten while a packet streams: the NI latched them at GO
j=$($XNOC run --json --topo $T --arg case=0 $FW/ni-abuse.elf 2>"$TMP/err")
jcheck ni-rewrite-mid-send "$j" '.ok==true'
grep -q "ni-abuse: ok" "$TMP/err" && ok ni-rewrite-bytes || fail ni-rewrite-bytes "$(cat "$TMP/err")"
j=$($XNOC_ASAN run --json --topo $T --arg case=0 $FW/ni-abuse.elf 2>/dev/null)
jcheck ni-rewrite-asan "$j" '.ok==true'
# a sized ring moved (partly) outside RAM, or to an unaligned address: refused
check_fail ni-ring-moved-out 1 "^xnoc run: node 0: store access fault at device register 0x10001800 \(PC 0x[0-9a-f]{8}, instruction 0x[0-9a-f]{8}, cycle [0-9]+\): NI receive ring 0x8003fe00 \+ 1024 bytes: not 8-byte aligned or outside RAM, no trap handler$" \
    $XNOC run --topo $T --arg case=1 $FW/ni-abuse.elf
check_fail ni-ring-unaligned 1 "NI receive ring 0x8[0-9a-f]{7} \+ 1024 bytes: not 8-byte aligned or outside RAM" \
    $XNOC_ASAN run --topo $T --arg case=2 $FW/ni-abuse.elf
