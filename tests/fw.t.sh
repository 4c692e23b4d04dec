# fw: the node devices and the NI as firmware sees them - back-pressure into
# the network, refused DMA descriptors, device-register faults, what waiting
# nodes report at --max-cycles, named arguments, per-node exit cycles
source tests/lib.sh
FW=build/firmware
run() { $XNOC run --json "$@" 2>"$TMP/stderr"; }

# Back-pressure: node 0's ring holds one message and is not read for 3000
# cycles; the NI withholds credits instead of dropping, so every message
# arrives exactly once, byte-exact (the image checks), and the NI reports
# the cycles a complete packet waited for ring space.
for t in mesh:2x2 mesh:4x4 fat-octagon; do
    n=$($XNOC topo --topo $t --json | jq .terminals)
    j=$(run --topo $t --arg bytes=200 --arg count=3 --arg ring=256 --arg delay=3000 $FW/fan-in.elf)
    jcheck "backpressure-$t" "$j" ".ok==true and .packets==($n-1)*3 and .nodes[0].packets_received==($n-1)*3 and .nodes[0].ring_full_cycles>2000"
done
# a roomy ring, read at once: no back-pressure at all
j=$(run --topo mesh:2x2 --arg bytes=64 --arg count=2 --arg ring=4096 --arg delay=0 $FW/fan-in.elf)
jcheck roomy-ring-never-full "$j" '.ok==true and .nodes[0].ring_full_cycles==0'
j=$($XNOC_ASAN run --json --topo mesh:2x2 --arg bytes=200 --arg count=2 --arg delay=1000 $FW/fan-in.elf 2>/dev/null)
jcheck backpressure-asan "$j" '.ok==true and .packets==6'
# the receiving node's console proves it checked the bytes
$XNOC run --topo mesh:2x2 --arg bytes=64 --arg count=2 $FW/fan-in.elf >"$TMP/out" 2>&1
if grep -qx '\[node 0\] fan-in: 6 messages of 64 bytes from 3 nodes, 0 bad, ring full for [0-9]* cycles' "$TMP/out"
then ok fan-in-console; else fail fan-in-console "$(head -3 "$TMP/out")"; fi

# A message that can never fit the ring stops the run instead of hanging.
check_fail ring-too-small 1 "network interface of node 0: a 300-byte message from terminal [123] can never fit the 256-byte receive ring \(cycle [0-9]+\)" \
    $XNOC run --topo mesh:2x2 --arg bytes=300 $FW/fan-in.elf

# Refused DMA descriptor: the GO store faults with the NI's reason.
check_fail ni-refused-go 1 "^xnoc run: node 0: store access fault at device register 0x1000101c \(PC 0x80000014( <[^>]*>)?, instruction 0x0062ae23, cycle [0-9]+\): NI send channel 0: buffer 0x40000000 \+ 16 bytes is outside RAM, no trap handler$" \
    $XNOC run --topo mesh:1x1 $FW/tests/ni-badgo.elf
check_fail dev-bad-register 1 "^xnoc run: node 0: load access fault at device register 0x1000003c \(PC 0x80000004( <[^>]*>)?, instruction 0x03c2a303, cycle 1\): no such register" \
    $XNOC run --topo mesh:1x1 $FW/tests/dev-badreg.elf

# --max-cycles: what the nodes wait for, on one line even with 16 nodes (identical states grouped)
check_fail max-cycles-wfi 1 "^xnoc run: --max-cycles 3000 reached with 16 node\(s\) running: nodes 0-15 are waiting for a packet \(wfi\) at PC 0x80000030 <_start\+0x30>$" \
    $XNOC run --topo mesh:4x4 --max-cycles 3000 --watchdog 0 $FW/tests/wfi-wait.elf
# the watchdog: every node waits, nothing moves: a stall, named long before --max-cycles
check_fail watchdog-wfi 1 "^xnoc run: stall at cycle [0-9]+: every running node waits and nothing is in flight \(for [0-9]+ cycles\): nodes 0-15 are waiting for a packet \(wfi\) at PC 0x80000030 <_start\+0x30>$" \
    $XNOC run --topo mesh:4x4 $FW/tests/wfi-wait.elf
check_fail max-cycles-senders 1 "node 0 is running at PC 0x8[0-9a-f]+ <[a-z_]+\+0x[0-9a-f]+ [a-z]+\.c:[0-9]+> \(its NI holds 2 message\(s\) \(source [23], tag 0, 200 bytes\), \(source [23], tag 0, 200 bytes\) for room in its full 256-byte receive ring; its receive ring holds 1 unread message\(s\): \(source 1, tag 0, 200 bytes\)\); nodes 1-3 are waiting for its send channel \(0x10001024\) at PC 0x8[0-9a-f]+ <noc_send_wait\+0x[0-9a-f]+ noc.c:[0-9]+>$" \
    $XNOC run --topo mesh:2x2 --max-cycles 30000 --arg count=2 --arg delay=100000 $FW/fan-in.elf

# Per-node exit cycles: in fan-in the senders finish more than DELAY cycles
# before node 0, which exits in the last cycle of the run.
j=$(run --topo mesh:2x2 --arg bytes=64 --arg count=2 --arg delay=5000 $FW/fan-in.elf)
jcheck exit-cycles "$j" '.nodes[0].cycles == .cycles - 1 and ([.nodes[1:][].cycles]|max) < .nodes[0].cycles - 5000 and (.nodes|map(.exit_code)|all(.==0))'

# tohost pass on the official tests' layout: mesh:1x1, exit 0
j=$(run --topo mesh:1x1 $FW/tests/isa.elf)
jcheck tohost-pass "$j" '.ok==true and .tohost==1 and .exit_codes==[null]'

# the firmware SDK: docs/firmware.md's walk-through, followed literally
sed -n '/^```sh$/,/^```$/p' docs/firmware.md | sed -n '2,/^```$/p' | grep -v '^```' > "$TMP/walk.sh"
if HOME="$TMP" bash "$TMP/walk.sh" > "$TMP/walk.out" 2>&1 && grep -q "\[node 0\] token went round 16 nodes: 120" "$TMP/walk.out"; then
    ok sdk-walkthrough; else fail sdk-walkthrough "$(tail -3 "$TMP/walk.out" | tr '\n' ' ')"; fi
make -s image >/dev/null 2>"$TMP/err"; rc=$?
[ $rc != 0 ] && grep -q "usage: make image SRC=" "$TMP/err" && ok sdk-no-src || fail sdk-no-src "exit $rc: $(head -1 "$TMP/err")"
make -s image SRC=examples/bounce.c OUT="$TMP/bounce.elf" >/dev/null 2>&1
j=$($XNOC run --json --topo octagon --arg bytes=4096 "$TMP/bounce.elf" 2>"$TMP/err")
jcheck sdk-example-bounce "$j" '.ok==true'
