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
for t in mesh:2x2 mesh:4x4 octagon fat-octagon mesh:8 torus:2x2x2 mesh:2x2x2:c=2; do
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

# ping-pong: the NI-to-NI latency (GO accepted -> message in the receiving
# ring, from the NIs' timestamps) is exactly 3*H + F network cycles (docs/ni.md;
# H routers on the route from `xnoc topo --route`, F = 2 + ceil(L/8) flits),
# and the software's one-way time exceeds it by a constant that depends
# neither on the distance nor on the network.
pp() { $XNOC run --topo $1 --arg a=$2 --arg b=$3 --arg bytes=$4 $FW/ping-pong.elf 2>/dev/null; }
sw_over=
for c in "fat-octagon 0 1 0" "fat-octagon 0 2 0" "fat-octagon 0 10 0" "fat-octagon 3 12 17" \
         "mesh:4x4 0 15 64" "mesh:4x4 5 6 9" "mesh:2x2 1 2 1" "octagon 0 4 40"; do
    set -- $c
    out=$(pp "$@")
    h=$($XNOC topo --topo $1 --route $2:$3 --json | jq '.route|length')
    f=$((2 + ($4 + 7) / 8))
    want=$((3 * h + f))
    got=$(sed -n 's/.*NI to NI \([0-9+]*\) cycles.*/\1/p' <<<"$out")
    sw=$(sed -n 's/.*one-way \([0-9]*\) cycles.*/\1/p' <<<"$out")
    name="ping-pong-$1-$2-$3-${4}B"
    if [ "$got" != "$want" ]; then fail "$name" "NI to NI '$got' cycles, model 3*$h + $f = $want: $out"
    elif ! grep -q ': match' <<<"$out"; then fail "$name" "the firmware disagrees: $out"
    else ok "$name"; fi
    # software overhead, for messages that carry data (L > 0)
    if [ "$4" != 0 ]; then
        [ -z "$sw_over" ] && sw_over=$((sw - got))
        if [ $((sw - got)) = "$sw_over" ]; then ok "$name-software"; else fail "$name-software" "one-way $sw - NI $got != $sw_over"; fi
    fi
done
# the numbered registers are the same arguments
a=$($XNOC run --topo octagon --arg 0=0 --arg 1=4 --arg 2=40 $FW/ping-pong.elf 2>/dev/null | grep 'NI to NI')
b=$($XNOC run --topo octagon --arg a=0 --arg b=4 --arg bytes=40 $FW/ping-pong.elf 2>/dev/null | grep 'NI to NI')
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok ping-pong-numbered-args; else fail ping-pong-numbered-args "'$a' vs '$b'"; fi
# the network clock is the NI's clock: a faster core changes software time only
out=$($XNOC run --topo mesh:4x4 --clock-ratio 4 --arg a=0 --arg b=15 --arg bytes=64 $FW/ping-pong.elf 2>/dev/null)
if grep -q 'NI to NI 31 cycles.*match' <<<"$out" && [ "$(sed -n 's/.*one-way \([0-9]*\) cycles.*/\1/p' <<<"$out")" -lt 80 ]; then
    ok ping-pong-clock-ratio; else fail ping-pong-clock-ratio "$out"; fi

# Faults: one line naming node, PC, instruction, cycle; exit 1
check_fail fault-illegal 1 "node 0: illegal instruction 0xffffffff at PC 0x80000004( <[^>]*>)? \(cycle [0-9]+\)" $XNOC run --topo mesh:1x1 $FW/tests/illegal.elf
check_fail fault-bad-address 1 "node 0: load access fault at address 0x40000000 \(PC 0x80000004( <[^>]*>)?, instruction 0x0002a303" $XNOC run --topo mesh:1x1 $FW/tests/badload.elf
check_fail fault-no-handler 1 "node 0: environment call .* no trap handler" $XNOC run --topo mesh:1x1 $FW/tests/ecall.elf
check_fail max-cycles 1 "--max-cycles 5000 reached with 4 node\(s\) running: nodes 0-3 are waiting for a packet at PC 0x8" $XNOC run --topo mesh:2x2 --max-cycles 5000 --watchdog 0 $FW/tests/hang.elf
check_fail watchdog-hang 1 "^xnoc run: stall at cycle [0-9]+: every running node waits and nothing is in flight \(for [0-9]+ cycles\): nodes 0-3 are waiting for a packet at PC 0x8" $XNOC run --topo mesh:2x2 --watchdog 1000 $FW/tests/hang.elf
check_fail tohost-fail 1 "tohost: test 3 failed" $XNOC run --topo mesh:1x1 $FW/tests/tohost-fail.elf
printf 'int main(){return 0;}' > "$TMP/x.c"
clang --target=riscv64-unknown-elf -march=rv64im -nostdlib -fuse-ld=lld -Wl,-e,main -o "$TMP/rv64.elf" "$TMP/x.c" 2>/dev/null
check_fail elf-64bit 2 "a 64-bit ELF" $XNOC run --topo mesh:1x1 "$TMP/rv64.elf"
cc -o "$TMP/host.elf" "$TMP/x.c" 2>/dev/null
check_fail elf-foreign 2 "an ELF for x86-64 \(machine 62\), not RISC-V" $XNOC run --topo mesh:1x1 "$TMP/host.elf"
check_fail elf-garbage 2 "not an ELF file" $XNOC run --topo mesh:1x1 tests/run.t.sh
check_fail elf-outside-ram 2 "segment .* lies outside RAM 0x80000000-0x80040000" $XNOC run --topo mesh:1x1 $FW/tests/outside-ram.elf
printf '\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\xf3\0\x01\0\0\0\0\0\0\x80\0\0\0\0\0\0\0\0\0\0\0\0\x34\0\x20\0\0\0\x28\0\0\0\0\0' > "$TMP/noseg.elf"
check_fail elf-no-segment 2 "no loadable segment" $XNOC run --topo mesh:1x1 "$TMP/noseg.elf"
check_fail missing-file 2 "No such file" $XNOC run --topo mesh:1x1 "$TMP/nope.elf"
check_fail bad-arg 2 "--arg '9=1': numbered arguments are 0..7" $XNOC run --topo mesh:1x1 --arg 9=1 $FW/hello.elf
check_fail bad-arg-name 2 "--arg 'a-b=1': the name may hold only" $XNOC run --topo mesh:1x1 --arg a-b=1 $FW/hello.elf
check_fail bad-arg-value 2 "--arg 'a=1x': the value is not a 32-bit integer" $XNOC run --topo mesh:1x1 --arg a=1x $FW/hello.elf
check_fail no-image 2 "no firmware image given" $XNOC run --topo mesh:1x1
check_fail bad-ram 2 "--ram: 1 is out of range" $XNOC run --topo mesh:1x1 --ram 1 $FW/hello.elf
check run-help $XNOC run --help
# a node's non-zero exit code fails the run and is named
j=$(run --topo mesh:2x2 --arg a=7 --arg b=9 $FW/ping-pong.elf)
jcheck exit-codes-listed "$j" '.ok==false and .exit_codes==[2,2,2,2]'
check_fail exit-code-named 1 "^xnoc run: node 0 exited with 2$" $XNOC run --topo mesh:2x2 --arg a=7 --arg b=9 $FW/ping-pong.elf

# the text report is the JSON report rendered (util/report.h): node states and counts agree
j=$($XNOC run --json --topo mesh:2x2 --max-cycles 30000 $FW/no-ring.elf 2>/dev/null)
h=$($XNOC run --topo mesh:2x2 --max-cycles 30000 $FW/no-ring.elf 2>/dev/null)
want=$(printf '%s' "$j" | jq -r '.nodes[] | "  node \(.node|tostring|if length<2 then " "+. else . end): \(if .state=="exited" then "exit \(.exit_code)" else .state end)"')
got=$(printf '%s\n' "$h" | grep '^  node ' | sed 's/^\(  node ..: exit [0-9-]*\).*/\1/;t;s/^\(  node ..: [a-z ]*[a-z]\) .*/\1/')
if [ "$want" = "$got" ] && printf '%s' "$j" | jq -e '.nodes[0].state=="still running" and .nodes[1].state=="exited"' >/dev/null; then
    ok run-text-from-json; else fail run-text-from-json "json: $(echo $want) text: $(echo $got)"; fi

# --config F (cmd/config_file.c): run's options from key = value lines, the
# same run as the flags; arg on several lines; the command line overrides the file
printf '// all-pairs, 64 bytes\ntopo = mesh:2x2\narg = a=5   # a named one too\narg = 0=64\nwatchdog = 4000\nmax_cycles = 100\n' > "$TMP/r.cfg"
a=$($XNOC run --config "$TMP/r.cfg" --max-cycles 10000000 $FW/all-pairs.elf 2>&1)
b=$($XNOC run --topo mesh:2x2 --arg a=5 --arg 0=64 --watchdog 4000 $FW/all-pairs.elf 2>&1)
if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$(head -1 <<<"$a")" = "[node 0] all-pairs: 4 nodes x 64 bytes exchanged in 5853 cycles" ]; then
    ok config-same-as-flags; else fail config-same-as-flags "$(head -2 <<<"$a")"; fi
j=$(run --config "$TMP/r.cfg" --arg 0=32 --max-cycles 10000000 $FW/all-pairs.elf)
jcheck config-flags-override "$j" '.ok==true and .packets==12 and .flits==72'
check_fail config-file-max-cycles 1 "^xnoc run: --max-cycles 100 reached with 4 node\(s\) running" $XNOC run --config "$TMP/r.cfg" $FW/all-pairs.elf
printf 'topo = mesh:2x2\nwatchdgo = 5\n' > "$TMP/e1.cfg"
check_fail config-unknown-key 2 "^xnoc run: $TMP/e1.cfg:2: unknown key 'watchdgo' \(did you mean watchdog\? see xnoc run --help\)$" $XNOC_ASAN run --config "$TMP/e1.cfg" $FW/hello.elf
printf 'topo = mesh:2x2\n\nram = 2\n' > "$TMP/e2.cfg"
check_fail config-bad-value 2 "^xnoc run: $TMP/e2.cfg:3: --ram: 2 is out of range \[4, 65536\]$" $XNOC_ASAN run --config "$TMP/e2.cfg" $FW/hello.elf
printf 'topo = mesh:2x2\nwatchdog = 1\nwatchdog = 2\n' > "$TMP/e3.cfg"
check_fail config-key-twice 2 "^xnoc run: $TMP/e3.cfg:3: 'watchdog' set twice \(first on line 2\)$" $XNOC_ASAN run --config "$TMP/e3.cfg" $FW/hello.elf
check_fail config-missing 2 "^xnoc run: --config $TMP/nope.cfg: No such file or directory$" $XNOC_ASAN run --config "$TMP/nope.cfg" $FW/hello.elf
# link bars: a firmware run's average utilization is near 0 (boot, computation), so the bars
# are relative to the busiest link (it was an empty column)
$XNOC run --topo mesh:2x2 $FW/all-pairs.elf 2>/dev/null | grep -A1 '^link utilization' >"$TMP/bars"
if grep -q '; bars relative to the busiest link):$' "$TMP/bars" && grep -q ' ########################################$' "$TMP/bars"; then ok run-link-bars
else fail run-link-bars "$(tr '\n' '|' <"$TMP/bars")"; fi
