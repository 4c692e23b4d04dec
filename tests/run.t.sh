# run: RISC-V nodes on the RTL network - ISA conformance, firmware images
# end to end, faults and bad input
source tests/lib.sh
FW=build/firmware
run() { $XNOC run --json "$@" 2>"$TMP/stderr"; }

# Instruction-level: M-extension corner cases, shifts, misaligned access,
# CSR rules, traps, fence.i self-modifying code (firmware/tests/isa.S)
j=$(run --topo mesh:1x1 $FW/tests/isa.elf)
jcheck isa-edge-cases "$j" '.tohost==1 and .ok==true'
j=$($XNOC_ASAN run --json --topo mesh:1x1 $FW/tests/isa.elf 2>/dev/null)
jcheck isa-edge-cases-asan "$j" '.tohost==1'

# hello: every node prints its id and the topology
for t in mesh:2x2 octagon fat-octagon; do
    $XNOC run --topo $t $FW/hello.elf >"$TMP/out" 2>&1
    n=$($XNOC topo --topo $t --json | jq .terminals)
    want=$(for i in $(seq 0 $((n-1))); do echo "[node $i] hello from node $i of $n on $t"; done)
    if [ "$(grep '^\[node' "$TMP/out")" = "$want" ]; then ok "hello-$t"; else fail "hello-$t" "$(head -3 "$TMP/out")"; fi
done
# per-node console files
$XNOC run --topo mesh:2x2 --console-dir "$TMP/con" $FW/hello.elf >/dev/null 2>&1
if [ "$(cat "$TMP/con/node3.txt")" = "hello from node 3 of 4 on mesh:2x2" ]; then ok console-dir; else fail console-dir "$(cat "$TMP/con/node3.txt")"; fi

# all-pairs: every node sends a distinct pattern to every other, byte-checked
for t in mesh:2x2 mesh:4x4 octagon fat-octagon; do
    j=$(run --topo $t $FW/all-pairs.elf)
    n=$($XNOC topo --topo $t --json | jq .terminals)
    jcheck "all-pairs-$t" "$j" ".ok==true and (.exit_codes|all(.==0)) and .packets==($n*($n-1))"
done
j=$(run --topo mesh:2x2 --ports 2 --arg 0=200 $FW/all-pairs.elf)
jcheck all-pairs-kport2 "$j" '.ok==true and .packets==12 and ([.links[]|select(.kind=="inject" and .channel==1).flits]|add)>0'
j=$(run --topo octagon $FW/token-ring.elf)
jcheck token-ring "$j" '.ok==true and .packets==24'
# flits the NIs sent = flits the routers' ejection counters saw
j=$(run --topo fat-octagon --arg 0=100 $FW/all-pairs.elf)
jcheck nis-and-routers-agree "$j" '.flits == ([.links[]|select(.kind=="eject").flits]|add)'

# ping-pong: one-way latency = NI + network model.  A 0-byte message is a
# head and a meta flit; over H routers it takes 3H + 1 network cycles from
# GO to the tail in the receiving NI; the firmware's own send/receive path
# adds a fixed software cost that the same image measures at H = 1.
pp() { $XNOC run --topo $1 --arg 0=$2 --arg 1=$3 $FW/ping-pong.elf 2>/dev/null | sed -n 's/.*one-way \([0-9]*\) cycles.*/\1/p'; }
base=$(pp fat-octagon 0 1)       # same router: H = 1
for pair in "0 2:2" "0 4:3" "0 6:3" "0 8:2" "0 10:3"; do
    set -- ${pair%%:*}; h=${pair##*:}
    got=$(pp fat-octagon $1 $2)
    want=$((base + 3 * (h - 1)))
    if [ -n "$got" ] && [ "$got" = "$want" ]; then ok "ping-pong-$1-$2"; else fail "ping-pong-$1-$2" "one-way $got cycles, model $want (base $base at H=1, H=$h)"; fi
done

# Faults: one line naming node, PC, instruction, cycle; exit 1
check_fail fault-illegal 1 "node 0: illegal instruction 0xffffffff at PC 0x80000004 \(cycle [0-9]+\)" $XNOC run --topo mesh:1x1 $FW/tests/illegal.elf
check_fail fault-bad-address 1 "node 0: load access fault at address 0x40000000 \(PC 0x80000004, instruction 0x0002a303" $XNOC run --topo mesh:1x1 $FW/tests/badload.elf
check_fail fault-no-handler 1 "node 0: environment call .* no trap handler" $XNOC run --topo mesh:1x1 $FW/tests/ecall.elf
check_fail max-cycles 1 "--max-cycles 5000 reached with 4 node\(s\) running: node 0 is waiting for a packet at PC 0x8" $XNOC run --topo mesh:2x2 --max-cycles 5000 $FW/tests/hang.elf
check_fail tohost-fail 1 "tohost: test 3 failed" $XNOC run --topo mesh:1x1 $FW/tests/tohost-fail.elf
printf 'int main(){return 0;}' > "$TMP/x.c"
clang --target=riscv64-unknown-elf -march=rv64im -nostdlib -fuse-ld=lld -Wl,-e,main -o "$TMP/rv64.elf" "$TMP/x.c" 2>/dev/null
check_fail elf-64bit 2 "a 64-bit ELF" $XNOC run --topo mesh:1x1 "$TMP/rv64.elf"
cc -o "$TMP/host.elf" "$TMP/x.c" 2>/dev/null
check_fail elf-foreign 2 "ELF for machine 62, not RISC-V" $XNOC run --topo mesh:1x1 "$TMP/host.elf"
check_fail elf-garbage 2 "not an ELF file" $XNOC run --topo mesh:1x1 tests/run.t.sh
check_fail elf-outside-ram 2 "segment .* lies outside RAM 0x80000000-0x80040000" $XNOC run --topo mesh:1x1 $FW/tests/outside-ram.elf
printf '\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\xf3\0\x01\0\0\0\0\0\0\x80\0\0\0\0\0\0\0\0\0\0\0\0\x34\0\x20\0\0\0\x28\0\0\0\0\0' > "$TMP/noseg.elf"
check_fail elf-no-segment 2 "no loadable segment" $XNOC run --topo mesh:1x1 "$TMP/noseg.elf"
check_fail missing-file 2 "No such file" $XNOC run --topo mesh:1x1 "$TMP/nope.elf"
check_fail bad-arg 2 "--arg 'x=1'" $XNOC run --topo mesh:1x1 --arg x=1 $FW/hello.elf
check_fail no-image 2 "no firmware image given" $XNOC run --topo mesh:1x1
check_fail bad-ram 2 "--ram: 1 is out of range" $XNOC run --topo mesh:1x1 --ram 1 $FW/hello.elf
check run-help $XNOC run --help
# a node's non-zero exit code fails the run and is named
j=$(run --topo mesh:2x2 --arg 0=7 --arg 1=7 $FW/ping-pong.elf)
jcheck exit-codes-listed "$j" '(.exit_codes|length)==4'
