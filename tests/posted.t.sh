# posted: zero-copy posted receives in the NI (match by source and tag,
# completion counters, the ring for unexpected messages), the descriptors it
# refuses, and the collective library on that path: the checker bites.
source tests/lib.sh
FW=build/firmware
T=octagon

# happy path: one posted message lands in place, one unexpected in the ring
j=$($XNOC run --json --topo $T $FW/posted.elf 2>"$TMP/err")
jcheck posted-zero-copy "$j" '.ok==true'
grep -q "posted: ok (done 1, unexpected 1)" "$TMP/err" && ok posted-counts || fail posted-counts "$(cat "$TMP/err")"
j=$($XNOC_ASAN run --json --topo $T $FW/posted.elf 2>/dev/null)
jcheck posted-asan "$j" '.ok==true'

# refused descriptors: one line naming node, register, PC, cycle, reason
pf() { check_fail "refuse-post-$1" 1 "^xnoc run: node 0: $2 access fault at device register 0x$3 \(PC 0x[0-9a-f]{8}( <[^>]*>)?, instruction 0x[0-9a-f]{8}, cycle [0-9]+\): $4, no trap handler$" \
           $XNOC run --topo $T --arg case=$1 $FW/posted.elf; }
pf 1 store 10001c14 'NI posted receive: buffer 0x40000000 \+ 64 bytes is outside RAM'
pf 2 store 10001c14 'NI posted receive: buffer 0x8[0-9a-f]{7} \+ 64 bytes overlaps the receive ring at 0x8[0-9a-f]{7} \+ 1024 bytes'
pf 3 store 10001c14 'NI posted receive: buffer 0x8[0-9a-f]{7} \+ 64 bytes overlaps the guarded region at 0x8[0-9a-f]{7} \+ 64 bytes \(GUARD_LO..GUARD_HI\)'
pf 4 store 10001c14 'NI posted receive: counter 0x8[0-9a-f]{7} is not a 4-byte aligned word in RAM'
pf 5 store 10001c14 'NI posted receive: source 16 is not an address \(terminal 0..7 or unit 8..15, or 0xffff = any\)'
pf 7 store 10001c14 'NI posted receive: the match table is full \(4096 entries\)'
pf 8 load 10001c24 'NI CT_WAIT read before CT_ADDR names a counter'
# posted buffers overlap neither each other nor the ring nor the guard, in
# whichever order the two were written: the store that would make the
# overlap is refused (the addresses are posted.c's buffers, from its symbols)
sym() { printf '0x%08x' $((0x$(nm $FW/posted.elf | awk -v s="$1" '$3 == s { print $1 }') + $2)); }
pend() { echo "the buffer $1 \\+ $2 bytes of a pending posted receive \\(source $3, tag 7\\)"; }
pf 10 store 10001c14 "NI posted receive: buffer $(sym buf 32) \\+ 64 bytes overlaps $(pend $(sym buf 0) 64 1)"
pf 11 store 10001c14 "NI posted receive: buffer $(sym buf 0) \\+ 64 bytes overlaps $(pend $(sym buf 32) 64 1)"
pf 12 store 10001c14 "NI posted receive: buffer $(sym buf 0) \\+ 64 bytes overlaps $(pend $(sym buf 16) 16 any)"
pf 13 store 10001800 "NI receive ring $(sym buf 0) \\+ 1024 bytes overlaps $(pend $(sym buf 0) 64 1)"
pf 14 store 10001804 "NI receive ring $(sym area 0) \\+ 2048 bytes overlaps $(pend $(sym area 1088) 64 1)"
pf 15 store 10001c30 "NI guarded region $(sym buf 56)..$(sym buf 128) \\(GUARD_LO..GUARD_HI\\) overlaps $(pend $(sym buf 0) 64 1)"
pf 16 store 10001c2c "NI guarded region $(sym buf 0)..$(sym buf 8) \\(GUARD_LO..GUARD_HI\\) overlaps $(pend $(sym buf 0) 64 1)"
# just clear of each: adjacent buffers, ring and guard, a zero-length buffer
# inside another, a buffer posted again once its message has landed
j=$($XNOC run --json --topo $T --arg case=17 $FW/posted.elf 2>"$TMP/err")
jcheck posted-boundaries "$j" '.ok==true and (.nodes[0]|has("undelivered")|not)'
grep -qx "\[node 0\] posted: boundaries ok" "$TMP/err" && ok posted-boundaries-console || fail posted-boundaries-console "$(cat "$TMP/err")"
j=$($XNOC_ASAN run --json --topo $T --arg case=17 $FW/posted.elf 2>/dev/null)
jcheck posted-boundaries-asan "$j" '.ok==true'
# on arrival: the message does not match what was posted (receiver, sender, address)
check_fail refuse-post-length 1 "^xnoc run: network interface of node 0: a 100-byte message from terminal 1 \(tag 7\) does not match the 64-byte receive posted at 0x8[0-9a-f]{7} \(cycle [0-9]+\)$" \
    $XNOC run --topo $T --arg case=6 $FW/posted.elf
# a receive that never completes: the time-out names the counter
check_fail post-never 1 "node 0 is waiting for posted receives \(counter at 0x8[0-9a-f]{7} is 0 of 1; 1 posted, not matched\)" \
    $XNOC run --topo $T --max-cycles 20000 --arg case=9 $FW/posted.elf

# XNOC_TEST_CORRUPT flips one payload byte in the NI: the checkers bite
XNOC_TEST_CORRUPT=0:3 $XNOC run --topo $T $FW/posted.elf >"$TMP/err" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "posted: MISMATCH" "$TMP/err" && ok corrupt-posted || fail corrupt-posted "exit $rc: $(tail -2 "$TMP/err")"
XNOC_TEST_CORRUPT=0:67 $XNOC run --topo $T $FW/posted.elf >"$TMP/err" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "posted: MISMATCH" "$TMP/err" && ok corrupt-ring || fail corrupt-ring "exit $rc: $(tail -2 "$TMP/err")"
# node 5's 101st payload byte is byte 36 of its second message
XNOC_TEST_CORRUPT=5:100 check_fail corrupt-collective 1 "^xnoc collective: node 5: message [0-9]+ \(from terminal [0-9], received from [0-9]\) byte 36: got 0x[0-9a-f]{2}, expected 0x[0-9a-f]{2}$" \
    $XNOC collective --topo $T --op alltoall --bytes 64
j=$(XNOC_TEST_CORRUPT=5:100 $XNOC collective --json --topo $T --op alltoall --bytes 64 2>/dev/null)
jcheck corrupt-collective-json "$j" '.verified==false and (.error | test("node 5: message"))'
XNOC_TEST_CORRUPT=0:8 check_fail corrupt-reduce 1 "^xnoc collective: node 0: reduce result \(sum\) byte 8: got" \
    $XNOC collective --topo $T --op reduce --bytes 64
# without the hook the same runs verify
j=$($XNOC collective --json --topo $T --op alltoall --bytes 64 2>/dev/null)
jcheck no-corrupt "$j" '.verified==true'

# the data path runs at the flit rate: 1024 more bytes cost 128 more cycles
jcheck t1-flit-rate "$j" '.t_1 == 0.125'
jcheck busiest "$j" '.busiest_channel_utilization > 0 and .busiest_channel_utilization <= 1 and (.busiest_channel|length) > 0'
# RAM: sized for the buffers; a --ram that is too small is refused
j=$($XNOC collective --json --topo $T --op alltoall --bytes 16384 2>/dev/null)
jcheck ram-auto "$j" '.verified==true and .ram_kib >= 384'
check_fail ram-too-small 2 "^xnoc collective: --ram 256: this collective needs 384 KiB per node" \
    $XNOC collective --topo $T --op alltoall --bytes 16384 --ram 256

# --events: one line per message sent and delivered; every delivery pairs with a send to it
cj=$($XNOC collective --topo $T --op alltoall --bytes 64 --events "$TMP/ev.jsonl" --json 2>/dev/null)
j=$(jq -sc '{sends: [.[]|select(.event=="send")], dels: [.[]|select(.event=="deliver")]}' "$TMP/ev.jsonl")
jcheck events-count "$j" '(.sends|length)==56 and (.dels|length)==56 and all(.dels[]; .into=="posted")'
jcheck events-pair "$j" '. as $r | all($r.dels[] as $d | any($r.sends[]; .node==$d.src and .dst==$d.node and .tag==$d.tag and .cycle < $d.cycle); .)'
# hop-level events from the RTL's link taps: every packet's path, inject -> hops -> eject
j=$(jq -sc '{sends: [.[]|select(.event=="send")], inj: [.[]|select(.event=="inject")],
             hops: [.[]|select(.event=="hop")], ej: [.[]|select(.event=="eject")], dels: [.[]|select(.event=="deliver")]}' "$TMP/ev.jsonl")
jcheck events-hop-counts "$j" '(.inj|length)==56 and (.ej|length)==56 and all(.inj[]; .flits==10) and all(.ej[]; .flits==10)'
# the link counters of the routers carry exactly the flits the hop lines count, and the hops the report's
jcheck events-hop-flits-vs-counters "$(jq -c --argjson c "$cj" '{c: $c, s: ([.hops[].flits]|add), n: (.hops|length)}' <<<"$j")" \
    '.s == .c.link_flits and .n == .c.hops'
# each send is injected (after its GO) and ejected at its destination, then delivered
jcheck events-send-inject-eject-deliver "$j" '. as $r | all($r.sends[] as $s |
    ([$r.inj[] | select(.node==$s.node and .dst==$s.dst and .tag==$s.tag and .cycle >= $s.cycle)] | length == 1) and
    ([$r.ej[] | select(.node==$s.dst and .src==$s.node and .tag==$s.tag)][0] as $e |
      $e != null and ([$r.dels[] | select(.node==$s.dst and .src==$s.node and .tag==$s.tag and .cycle >= $e.tail_cycle)] | length == 1)); .)'
# a packet's lines form one path: each hop leaves the router the previous one reached, in time order
jcheck events-paths-connected "$j" '[.inj[], .hops[], .ej[]] | group_by([.src, .tag, .dst]) | all(.[];
    sort_by(.cycle) as $p | $p[0].event == "inject" and $p[-1].event == "eject" and
    all(range(1; $p|length) as $i | $p[$i].router == (if $p[$i-1].event == "inject" then $p[$i-1].router else $p[$i-1].next end)
        and $p[$i].cycle > $p[$i-1].cycle and $p[$i].vc >= 0; .))'
check events-no-incomplete [ "$(grep -c incomplete "$TMP/ev.jsonl")" = 0 ]
# coding units: contributions eject into a unit, results inject from it
cj=$($XNOC collective --topo mesh:4x4 --op allgather --algo hnc --bytes 64 --events "$TMP/evu.jsonl" --json 2>/dev/null)
j=$(jq -sc '{to_unit: [.[]|select(.event=="eject" and has("unit"))], from_unit: [.[]|select(.event=="inject" and has("unit"))],
             hops: [.[]|select(.event=="hop")]}' "$TMP/evu.jsonl")
jcheck events-unit "$(jq -c --argjson c "$cj" '. + {c: $c}' <<<"$j")" \
    '(.to_unit|length) > 0 and (.from_unit|length) > 0 and ([.hops[].flits]|add) == .c.link_flits and .c.verified == true'
# --events and --trace together (a model with both), on a firmware run
$XNOC run --topo mesh:2x2 --events "$TMP/evt.jsonl" --trace "$TMP/evt.vcd" $FW/posted.elf >/dev/null 2>&1
jcheck events-with-trace "$(jq -sc '{s: [.[]|select(.event=="send")]|length, i: [.[]|select(.event=="inject")]|length}' "$TMP/evt.jsonl")" \
    '.s > 0 and .s == .i'
check events-with-trace-vcd grep -q '^\$enddefinitions' "$TMP/evt.vcd"
check_fail events-bad-path 2 "--events /nonexistent/x.jsonl: No such file or directory" $XNOC run --topo mesh:2x2 --events /nonexistent/x.jsonl build/firmware/hello.elf
