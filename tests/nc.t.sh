# nc: network coding and hardware multicast from the firmware side - the NI's
# coding registers and head construction, refused descriptors, and the
# butterfly of Fig. 1 (docs/network-coding.md) in its three versions with
# byte-exact data, per-link flit counts and cycle models.
source tests/lib.sh
FW=build/firmware
T=mesh:3x2
run() { $XNOC run --json "$@" 2>"$TMP/stderr"; }
# Builds without the units' RTL know no --router xorlat: the tests that need
# units are then skipped, with a line saying so (never counted as passed).
UNITS=1
$XNOC run --topo $T --router xorlat=1 --max-cycles 1 $FW/hello.elf 2>&1 | grep -q "unknown parameter 'xorlat'" && UNITS=0
link() { jq "[.links[]|select(.kind==\"link\" and .src_router==$2 and .dst_router==$3).flits]|add" <<<"$1"; }

# ---- head construction, end to end to a plain terminal (no unit involved) ----
# 6 packets: 24 B plain (5 flits), 40 B MC (2+1+5), 0 B (2), 256 B MC (2+1+32),
# 17 B plain (5), 8 B (3) = 58 flits; the image checks every head field, the
# mask flits and every byte at both ends.
for k in 1 2; do
    j=$(run --topo mesh:2x2 --ports $k $FW/nc-head.elf)
    jcheck "head-fields-k$k" "$j" '.ok==true and .packets==6 and .flits==58 and .nodes[1].packets_received==6'
    jcheck "head-flits-ejected-k$k" "$j" '([.links[]|select(.kind=="eject" and .terminal==1).flits]|add)==58'
done
$XNOC run --topo mesh:2x2 $FW/nc-head.elf >"$TMP/out" 2>&1
if grep -qx '\[node 0\] nc-head: 6 sends, 0 bad heads' "$TMP/out" && grep -qx '\[node 1\] nc-head: received 6 messages, 0 bad' "$TMP/out"
then ok head-console; else fail head-console "$(head -3 "$TMP/out")"; fi

# ---- refused coding descriptors: one line naming node, register, PC, reason ----
nf() { check_fail "refuse-$1" 1 "^xnoc run: node 0: store access fault at device register 0x$2 \(PC 0x[0-9a-f]{8}( <[^>]*>)?, instruction 0x[0-9a-f]{8}, cycle [0-9]+\): NI send channel 0: $3, no trap handler$" \
           $XNOC run --topo $T --arg case=$1 $FW/nc-fault.elf; }
nf 1 10001404 'OP 2 is not REPLICATE \(0\) or ENCODE \(1\)'
nf 2 10001408 'COUNT 16 is out of range 0..15'
nf 3 1000140c 'OUT_DEST 12 is not an address \(terminal 0..5 or unit 6..11, or 0xfff = none\)'
nf 4 10001414 'OUT_OP 3 is not REPLICATE \(0\) or ENCODE \(1\)'
nf 5 10001418 'OUT_COUNT 99 is out of range 0..15'
nf 6 10001400 'MC 2 is out of range 0..1'
nf 7 1000101c 'COUNT 0 with OP ENCODE \(state how many contributions the slot expects, 1..15\)'
nf 8 1000101c 'mask 0x40000000 \+ 8 bytes is outside RAM'
nf 9 1000101c 'MC 1 with an empty mask at 0x8[0-9a-f]{7}'
nf 10 1000101c 'mask bit 12 is not an address \(terminal 0..5 or unit 6..11\)'
nf 11 1000101c 'destination 12 is not an address \(terminal 0..5 or unit 6..11\)'
nf 12 1000101c 'a packet to unit 6 \(router 0\) cannot be source-routed \(NHOPS 2\)'
nf 13 1000101c 'OUT_MC 1 needs OUT_DEST to be a unit \(6..11\), not 1'
nf 14 1000101c 'a 264-byte packet to unit 6 exceeds the units. 256-byte limit \(--router ncmax=32 flits\)'
nf 15 1000101c 'a source route \(NHOPS 2\) and the coding fields share the head flit: clear MC, OP, COUNT and OUT_\*'
nf 16 1000101c 'OP REPLICATE to unit 6 needs MC 1 and a mask'
nf 17 1000101c 'mask 0x8003fffc \+ 8 bytes is outside RAM'
# a streaming unit's limit is its own (--router smax, no slot holds the packet): a STREAM
# packet past it is refused with that option's name, not ncmax's
check_fail refuse-19-stream-smax 1 "^xnoc run: node 0: store access fault at device register 0x1000101c \(PC 0x[0-9a-f]{8}( <[^>]*>)?, instruction 0x[0-9a-f]{8}, cycle [0-9]+\): NI send channel 0: a 136-byte OP STREAM packet to unit 6 exceeds the streaming lanes' 128-byte limit \(--router smax=16 flits\), no trap handler$" \
    $XNOC run --topo $T --router stream=1,smax=16 --arg case=19 $FW/nc-fault.elf
# the same registers, good values: accepted
j=$(run --topo $T --arg case=18 $FW/nc-fault.elf)
jcheck refuse-none-plain "$j" '.ok==true and .packets==1'

# ---- the butterfly: unicast-based multicast ----
# S1 = 3 sends A to D1 = 0 and D2 = 2, S2 = 5 sends B to D2 and D1 (XY routes):
# links 3->0 and 5->2 carry two packets each, 3->4, 4->5, 5->4, 4->3 one.
# Model (zero load, no contention on the far paths): a destination's last
# byte arrives 3*H + F cycles after its far source's second GO, H = 4 routers
# (e.g. 5,4,3,0), F = 2 + ceil(L/8) flits (docs/ni.md).
bf_model() {   # NAME OUT F H : D1's done = S2's last GO + 3H + F, D2's = S1's
    local name=$1 out=$2 f=$3 h=$4
    local g1 g2 d1 d2
    g1=$(sed -n 's/.*S1 (node 3) sent .* GO at +[0-9]* .. +\([0-9]*\) cycles/\1/p' <<<"$out")
    g2=$(sed -n 's/.*S2 (node 5) sent .* GO at +[0-9]* .. +\([0-9]*\) cycles/\1/p' <<<"$out")
    d1=$(sed -n 's/.*D1 (node 0) has A and B, .* byte-exact, done at +\([0-9]*\) cycles/\1/p' <<<"$out")
    d2=$(sed -n 's/.*D2 (node 2) has A and B, .* byte-exact, done at +\([0-9]*\) cycles/\1/p' <<<"$out")
    if [ -z "$g1$g2" ] || [ -z "$d1" ] || [ -z "$d2" ]; then fail "$name" "no figures in: $(head -4 <<<"$out" | tr '\n' '|')"
    elif [ "$d1" != $((g2 + 3 * h + f)) ] || [ "$d2" != $((g1 + 3 * h + f)) ]; then
        fail "$name" "D1 done +$d1, D2 +$d2; model: S2 GO +$g2 / S1 GO +$g1 + 3*$h + $f"
    else ok "$name"; fi
}
for b in 64 200; do
    f=$((2 + (b + 7) / 8))
    j=$(run --topo $T --arg bytes=$b $FW/butterfly-unicast.elf)
    jcheck "unicast-${b}B" "$j" ".ok==true and .exit_codes==[0,0,0,0,0,0] and .packets==4 and .nodes[0].packets_received==2 and .nodes[2].packets_received==2"
    l30=$(link "$j" 3 0) l52=$(link "$j" 5 2) l41=$(link "$j" 4 1) l34=$(link "$j" 3 4)
    if [ "$l30" = $((2 * f)) ] && [ "$l52" = $((2 * f)) ] && [ "$l41" = 0 ] && [ "$l34" = $f ]; then ok "unicast-${b}B-links"
    else fail "unicast-${b}B-links" "3->0 $l30, 5->2 $l52, 4->1 $l41, 3->4 $l34 flits; expected $((2 * f)), $((2 * f)), 0, $f"; fi
    [ $UNITS = 1 ] && jcheck "unicast-${b}B-no-coding" "$j" '.xor_ops==0 and .coded_packets==0 and .mc_copies==0'
    bf_model "unicast-${b}B-model" "$($XNOC run --topo $T --arg bytes=$b $FW/butterfly-unicast.elf 2>&1)" $f 4
done
# butterfly-unicast-via: the far packets source-routed through the shared
# link, as the butterfly's graph routes them (S1 3->4->1->2, S2 5->4->1->0):
# 4->1 carries A and B (two packets), 3->0 and 5->2 one each.  Both far
# packets leave at the same cycle and share 4->1 flit by flit (two VCs), so
# both arrive about one packet later than alone: done +124/+125 (64 B),
# +158/+159 (200 B), against +111/+112 with XY routing around the shared link
for b in "64 124 125" "200 158 159"; do
    set -- $b; f=$((2 + ($1 + 7) / 8))
    out=$($XNOC run --json --topo $T --arg bytes=$1 $FW/butterfly-unicast-via.elf 2>"$TMP/via.err")
    got=$(for l in "4 1" "3 0" "5 2" "3 4" "5 4" "1 0" "1 2" "4 3" "4 5"; do link "$out" $l; done | tr '\n' ' ')
    want="$((2 * f)) $f $f $f $f $f $f 0 0 "
    if [ "$got" = "$want" ]; then ok "unicast-via-${1}B-links"; else fail "unicast-via-${1}B-links" "4->1 3->0 5->2 3->4 5->4 1->0 1->2 4->3 4->5: $got, expected $want"; fi
    check "unicast-via-${1}B-done" grep -q "D1 (node 0) has A and B, $1 bytes each, byte-exact, done at +$2 cycles" "$TMP/via.err"
    check "unicast-via-${1}B-done-D2" grep -q "D2 (node 2) has A and B, $1 bytes each, byte-exact, done at +$3 cycles" "$TMP/via.err"
done
check_fail unicast-via-too-many-ports 1 "^xnoc run: node 0 exited with 2$" $XNOC run --topo $T --ports 5 $FW/butterfly-unicast-via.elf
# more than the units' packet limit: chunks of 256 bytes, still byte-exact
j=$(run --topo $T --arg bytes=700 $FW/butterfly-unicast.elf)
jcheck unicast-700B-chunks "$j" '.ok==true and .packets==12'
check_fail butterfly-wrong-topology 1 "^xnoc run: node 0 exited with 2$" $XNOC run --topo mesh:2x2 $FW/butterfly-unicast.elf

# ---- the same under AddressSanitizer ----
j=$($XNOC_ASAN run --json --topo $T $FW/butterfly-unicast.elf 2>/dev/null)
jcheck unicast-asan "$j" '.ok==true and .packets==4'
j=$($XNOC_ASAN run --json --topo mesh:2x2 $FW/nc-head.elf 2>/dev/null)
jcheck head-fields-asan "$j" '.ok==true and .flits==58'

if [ $UNITS = 0 ]; then
    echo "skip multicast, coded, xorlat, ncu=0 cases: this build's routers have no coding units (no --router xorlat)"
    exit 0
fi

# ---- hardware multicast: one MC packet per source, replicated by the unit at
# the near destination's router (S1 -> unit(0): to D1 and on to D2 over 0->1->2)
for b in 64 200; do
    f=$((2 + (b + 7) / 8)) fm=$((3 + (b + 7) / 8))
    j=$(run --topo $T --arg bytes=$b $FW/butterfly-multicast.elf)
    jcheck "multicast-${b}B" "$j" ".ok==true and .packets==2 and .nodes[0].packets_received==2 and .nodes[2].packets_received==2 and .nodes[3].mc_packets_sent==1"
    got=$(for l in "3 0" "5 2" "0 1" "1 2" "2 1" "1 0" "3 4" "4 1"; do link "$j" $l; done | tr '\n' ' ')
    want="$fm $fm $f $f $f $f 0 0 "
    if [ "$got" = "$want" ]; then ok "multicast-${b}B-links"; else fail "multicast-${b}B-links" "3->0 5->2 0->1 1->2 2->1 1->0 3->4 4->1: $got, expected $want"; fi
    jcheck "multicast-${b}B-counters" "$j" '.xor_ops==0 and .coded_packets==0 and .mc_copies==4'
done
j=$(run --topo $T --arg tree=0 $FW/butterfly-multicast.elf)
jcheck multicast-own-router "$j" '.ok==true and .packets==2 and .mc_copies==4'

# ---- XOR network coding: the shared link 4->1 carries the coded packet once
for b in 64 200; do
    f=$((2 + (b + 7) / 8)) fm=$((3 + (b + 7) / 8)) d=$(((b + 7) / 8))
    j=$(run --topo $T --arg bytes=$b $FW/butterfly-coded.elf)
    jcheck "coded-${b}B" "$j" ".ok==true and .exit_codes==[0,0,0,0,0,0] and .nodes[0].packets_received==2 and .nodes[2].packets_received==2"
    got=$(for l in "3 0" "5 2" "3 4" "5 4" "4 1" "1 0" "1 2" "0 1" "4 3"; do link "$j" $l; done | tr '\n' ' ')
    want="$f $f $fm $fm $fm $f $f 0 0 "
    if [ "$got" = "$want" ]; then ok "coded-${b}B-links"; else fail "coded-${b}B-links" "3->0 5->2 3->4 5->4 4->1 1->0 1->2 0->1 4->3: $got, expected $want"; fi
    # unit 4 codes A^B, units 0 and 2 decode: 3 results; unit 1 makes 2 copies
    jcheck "coded-${b}B-counters" "$j" ".coded_packets==3 and .mc_copies==2 and .xor_ops>0 and ([.units[]|select(.router==4)][0].coded==1)"
    j=$(run --topo $T --arg bytes=$b --arg swdecode=1 $FW/butterfly-coded.elf)
    jcheck "coded-sw-${b}B" "$j" ".ok==true and .coded_packets==1 and .mc_copies==2 and .nodes[0].packets_received==2"
done
j=$(run --topo $T --arg bytes=700 $FW/butterfly-coded.elf)
jcheck coded-700B-chunks "$j" '.ok==true and .coded_packets==9'
for x in 1 35; do
    j=$(run --topo $T --router xorlat=$x $FW/butterfly-coded.elf)
    jcheck "coded-xorlat$x" "$j" '.ok==true and .coded_packets==3'
done
check_fail coded-without-units 1 "^xnoc run: node 0 exited with 2$" $XNOC run --topo $T --router ncu=0 $FW/butterfly-coded.elf
j=$(run --topo $T --router ncu=0 $FW/butterfly-unicast.elf)
jcheck unicast-without-units "$j" '.ok==true and .packets==4'
check_fail refuse-unit-without-units 1 "NI send channel 0: destination 6 is not a terminal \(0..5\)" $XNOC run --topo $T --router ncu=0 --arg case=0 $FW/nc-fault.elf
j=$($XNOC_ASAN run --json --topo $T $FW/butterfly-coded.elf 2>/dev/null)
jcheck coded-asan "$j" '.ok==true and .coded_packets==3'

# ---- message combining vs. network coding on the RTL (the paper's Sect. 6.5:
# 16x16, group 32: coding 1,276 cycles, combining 1,832).  First the paper's
# own case: mesh:16x16 (256 routers: the tile build by default, one router
# model, about a minute to build where the flat netlist took half an hour),
# 32-node groups (8x4), intermediate nodes at the paired groups' shared edge.
# Coding is faster here too (40,588 vs 42,757 cycles) while combining moves
# fewer flits (913,312 vs 1,073,440).
c16() { $XNOC collective --json --topo mesh:16x16 --op allgather --bytes 64 --group-shape 8x4 --in-position boundary "$@" 2>"$TMP/stderr"; }
jcheck hnc-unit-16x16-8x4 "$(c16 --algo hnc)" '.verified==true and .cycles==40586 and .hops==34768 and .link_flits==1073440 and .link_flits==.link_flits_expected and .intermediate_position==[7,3]'
jcheck combine-16x16-8x4 "$(c16 --algo combine)" '.verified==true and .cycles==42752 and .hops==16336 and .link_flits==913312 and .link_flits==.link_flits_expected and .intermediate_position==[7,3]'
# Then mesh:8x8 with 8- and 16-node groups, intermediate nodes at the paired groups' shared
# edge (--in-position boundary).  Every byte of every node is verified; the
# cycles are the RTL's (deterministic), beside hnc's with the XOR in the units
# and on the cores.  Combining crosses fewer links (no F step) and still
# takes longer: its messages are M data long and every node copies them out.
cx() { $XNOC collective --json --topo mesh:8x8 --op allgather --bytes 64 --in-position boundary "$@" 2>"$TMP/stderr"; }
for r in "4x2 9870 10075 11110 3464 1160" "2x4 9934 10139 11166 3368 1064" "4x4 10049 10598 11244 2556 1532"; do
    set -- $r
    ju=$(cx --algo hnc --group-shape $1) jc=$(cx --algo hnc --xor core --group-shape $1) jm=$(cx --algo combine --group-shape $1)
    jcheck "hnc-unit-8x8-$1" "$ju" ".verified==true and .cycles==$2 and .hops==$5 and .xor==\"unit\""
    jcheck "hnc-core-8x8-$1" "$jc" ".verified==true and .cycles==$3 and .hops==$5"
    jcheck "combine-8x8-$1" "$jm" ".verified==true and .cycles==$4 and .hops==$6 and .algo==\"combine\" and .xor==\"core\" and .link_flits==.link_flits_expected and .cycles > $3 and .cycles_per_phase.C > 0 and .cycles_per_phase.G > 0"
done
# the same with data-driven steps (no barrier between them)
jcheck combine-8x8-data "$(cx --algo combine --group-shape 4x4 --sync data)" '.verified==true and .cycles==11167 and .sync=="data"'
jcheck hnc-8x8-data "$(cx --algo hnc --group-shape 4x4 --sync data)" '.verified==true and .cycles==9973'
# a flipped bit in a combined message is caught in the copied-out data
XNOC_TEST_CORRUPT=1:600 $XNOC collective --json --topo mesh:4x4 --op allgather --algo combine --group-shape 2x4 --bytes 64 >"$TMP/out.json" 2>/dev/null
jcheck combine-corrupt "$(cat "$TMP/out.json")" '.verified==false and (.error | test("^node 1: message 6 \\(from terminal 6, decoded\\) byte 24: got 0xf3, expected 0xf2$"))'
jcheck combine-k2 "$($XNOC collective --json --topo mesh:4x4 --op allgather --algo combine --group-shape 2x2 --in-position boundary --bytes 64 --ports 2 2>/dev/null)" '.verified==true and .hops==96 and .cycles==3528 and .intermediate_position==[1,1]'
jcheck combine-odd-bytes "$($XNOC collective --json --topo torus:4x4 --op allgather --algo combine --multicast all-at-once --bytes 13 2>/dev/null)" '.verified==true and .link_flits==.link_flits_expected and .in_position=="median"'
check_fail combine-too-big 2 "^xnoc collective: --algo combine: a combined message of 8 messages of 16384 bytes is 131072 bytes, more than one packet takes \\(65536\\): use --bytes 8192 or less, or smaller groups \\(--group-shape\\)$" \
    $XNOC collective --topo mesh:4x4 --op allgather --algo combine --group-shape 2x4 --bytes 16384
check_fail combine-no-xor 2 "^xnoc collective: --xor: --algo combine copies on the intermediate nodes' cores, it does not code$" \
    $XNOC collective --topo mesh:4x4 --op allgather --algo combine --xor core
check_fail in-position-elsewhere 2 "options of --algo hnc \\(and combine\\)" $XNOC collective --topo mesh:4x4 --op allgather --algo tree --in-position best
check_fail in-position-bad 2 "^xnoc collective: --in-position 'middle': corner, median, boundary or best$" \
    $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --in-position middle
check_fail combine-bcast 2 "hnc is an all-to-all broadcast" $XNOC collective --topo mesh:4x4 --op bcast --algo combine
# the text report names the algorithm, the placement and what the INs do
$XNOC collective --topo mesh:4x4 --op allgather --algo combine --group-shape 2x2 --in-position boundary --bytes 64 >"$TMP/out" 2>&1
if grep -q '^  combine: groups 2x2 (4 groups of 4 nodes), intermediate node at (1,1) of group 0 (boundary), tree multicasts, copies in the intermediate nodes. cores;$' "$TMP/out"
then ok combine-text; else fail combine-text "$(grep -A1 'groups' "$TMP/out" | head -2)"; fi
# ---- decoding in the NI (docs/ni.md, decode engine; issue 36) ----
# the engine alone: a chain of three 64-byte XORs, 3 x (2 + 8) = 30 engine cycles, every byte
# checked by the image; it makes no flits
j=$(run --topo $T $FW/nc-decode.elf)
jcheck decode-engine "$j" '.ok==true and .packets==0 and .flits==0'
$XNOC run --topo $T $FW/nc-decode.elf 2>/dev/null | grep -qx '\[node 0\] nc-decode: 3 descriptors done, 30 engine cycles, busy 0 then 1, 0 bad bytes' \
    && ok decode-engine-cycles || fail decode-engine-cycles "$($XNOC run --topo $T $FW/nc-decode.elf 2>&1 | grep nc-decode)"
# five lists GO after GO: the fifth waits until the first is done (the engine holds 4)
$XNOC run --topo $T --arg case=13 $FW/nc-decode.elf 2>/dev/null | grep -qx '\[node 0\] nc-decode: queue of 5 lists: 3 descriptors done after the fifth GO, 15 in all, 150 engine cycles, 0 bad bytes' \
    && ok decode-engine-queue || fail decode-engine-queue "$($XNOC run --topo $T --arg case=13 $FW/nc-decode.elf 2>&1 | grep 'nc-decode\|xnoc run')"
# a run that ends while a core waits for its engine says so (20 cycles after GO: 2 of 3 done)
out=$($XNOC run --topo $T --max-cycles 2250 $FW/nc-decode.elf 2>&1); rc=$?
[ $rc = 1 ] && grep -qE "^xnoc run: --max-cycles 2250 reached with 1 node\(s\) running: node 0 is waiting for its NI's decode engine \(2 descriptors done\) at PC 0x[0-9a-f]{8} <noc_decode_wait" <<<"$out" \
    && ok decode-engine-timeout-names-wait || fail decode-engine-timeout-names-wait "exit $rc: $(grep 'max-cycles' <<<"$out")"
# a refused list: one line naming node, register (GO), PC, cycle and the reason
df() { check_fail "decode-refuse-$1" 1 "^xnoc run: node 0: store access fault at device register 0x10001e08 \(PC 0x[0-9a-f]{8}( <[^>]*>)?, instruction 0x[0-9a-f]{8}, cycle [0-9]+\): NI decode$2, no trap handler$" \
           $XNOC run --topo $T --arg case=$1 $FW/nc-decode.elf; }
df 1 ' descriptor 0: dst 0x8003fff8 \+ 64 bytes is outside RAM'
df 2 ' descriptor 1: operand a 0x40000000 \+ 64 bytes is outside RAM'
df 3 ' descriptor 0: dst 0x[0-9a-f]{8} \+ 64 bytes partly overlaps operand a 0x[0-9a-f]{8} \(use the same buffer or a separate one\)'
df 4 ' descriptor 1: dst 0x[0-9a-f]{8} \+ 64 bytes overlaps the descriptor list 0x[0-9a-f]{8} \+ 48 bytes'
df 5 ' descriptor 0: dst 0x[0-9a-f]{8} \+ 64 bytes overlaps the receive ring at 0x[0-9a-f]{8} \+ 1024 bytes'
df 6 ' descriptor 2: operand b 0x[0-9a-f]{8} \+ 64 bytes overlaps the buffer 0x[0-9a-f]{8} \+ 64 bytes of a pending posted receive \(source 1, tag 7\): its message has not landed'
df 7 ': COUNT 0 is out of range 1..4096'
df 8 ': COUNT 4097 is out of range 1..4096'
df 9 ': descriptor list 0x[0-9a-f]{7}[2a] \+ 48 bytes is not 4-byte aligned in RAM'
df 10 ' descriptor 0: length 0 is out of range 1..65536'
df 11 ' descriptor 0: dst 0x[0-9a-f]{8} \+ 64 bytes overlaps the guarded region 0x[0-9a-f]{8}..0x[0-9a-f]{8} \(GUARD_LO..GUARD_HI\)'
df 12 ' descriptor 0: length 65544 is out of range 1..65536'
# the collective's XORs (decoding, copies, the IN's coding with --xor core) in the NIs
# (--decode ni) against the firmware loop (--decode core): every byte verified, the same
# flits on the same links (the engine makes none), exact cycles
c4() { $XNOC collective --json --topo mesh:4x4 --op allgather --bytes 64 --group-shape 2x2 --in-position boundary "$@" 2>"$TMP/stderr"; }
for r in "hnc 2798 1812 3008 unit" "combine 3466 1628 2112 ni"; do
    set -- $r
    jc=$(c4 --algo $1) jn=$(c4 --algo $1 --decode ni)
    jcheck "decode-core-4x4-$1" "$jc" ".verified==true and .cycles==$2 and .decode==\"core\" and .link_flits==$4 and .link_flits==.link_flits_expected"
    jcheck "decode-ni-4x4-$1" "$jn" ".verified==true and .cycles==$3 and .decode==\"ni\" and .xor==\"$5\" and .link_flits==$4 and .link_flits==.link_flits_expected"
    jcheck "decode-ni-4x4-$1-same-flits" "$(jq -s '.' <<<"$jc$jn")" '.[0].flits==.[1].flits and .[0].hops==.[1].hops and .[1].cycles_per_phase.G < .[0].cycles_per_phase.G / 4'
done
jcheck decode-ni-4x4-xor-core "$(c4 --algo hnc --xor core --decode ni)" '.verified==true and .cycles==1585 and .xor=="ni" and .cycles_per_phase.C==148'
jcheck decode-ni-4x4-data "$(c4 --algo hnc --decode ni --sync data)" '.verified==true and .cycles==1763'
jcheck decode-ni-4x4-k2 "$(c4 --algo hnc --decode ni --ports 2)" '.verified==true and .cycles==1884'
$XNOC collective --topo mesh:4x4 --op allgather --bytes 64 --group-shape 2x2 --in-position boundary --algo hnc --decode ni >"$TMP/out" 2>&1
grep -qx '  XOR in the NIs. decode engines: 196 cycles (the most any core waited)' "$TMP/out" && ok decode-ni-text || fail decode-ni-text "$(grep XOR "$TMP/out")"
jcheck decode-ni-8x8-hnc "$(cx --algo hnc --group-shape 4x4 --decode ni)" '.verified==true and .cycles==5299 and .cycles_per_phase.G==568 and .link_flits==53784'
jcheck decode-ni-8x8-combine "$(cx --algo combine --group-shape 4x4 --decode ni)" '.verified==true and .cycles==4582 and .cycles_per_phase.G==608 and .link_flits==45560'
jcheck decode-ni-16x16-hnc "$(c16 --algo hnc --decode ni)" '.verified==true and .cycles==18314 and .cycles_per_phase.G==2288 and .link_flits==1073440'
jcheck decode-ni-16x16-combine "$(c16 --algo combine --decode ni)" '.verified==true and .cycles==16760 and .link_flits==913312'
# a flipped bit in a coded bundle, decoded by the NI, is caught in the decoded data: one line, exit 1
check_fail decode-ni-corrupt 1 "^xnoc collective: node 0: message 9 \(from terminal 9, decoded\) byte 24: got 0x7b, expected 0x7a$" \
    env XNOC_TEST_CORRUPT=1:600 $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --group-shape 2x2 --in-position boundary --bytes 64 --decode ni
check_fail decode-bad 2 "^xnoc collective: --decode 'gpu': core \(the nodes' firmware\) or ni \(the NIs' decode engines\)$" \
    $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --decode gpu
check_fail decode-elsewhere 2 "^xnoc collective: --decode is an option of --algo hnc and combine \(their XORs\), not --algo tree$" \
    $XNOC collective --topo mesh:4x4 --op allgather --algo tree --decode ni
# ---- combining operators (head FUNC, noc_set_func): every node's 16 words combined in unit 6,
# every word checked by node 0 (edge lanes: 0, 1, -1, INT_MIN, INT_MAX, INT_MIN+1) ----
names=(xor and or add32 add64 min32s max32s min32u max32u mul32)
for f in 0 1 2 3 4 5 6 7 8 9; do
    out=$($XNOC run --topo $T --arg func=$f $FW/nc-reduce.elf 2>&1)
    if [ $? = 0 ] && grep -qx "\[node 0\] nc-reduce: node 0 has the ${names[$f]} of 6 contributions (16 words each) from unit 6, every word as expected" <<<"$out"
    then ok "reduce-${names[$f]}"; else fail "reduce-${names[$f]}" "$(grep -m2 'nc-reduce\|xnoc run' <<<"$out" | tr '\n' '|')"; fi
done
# the check bites: the unit adds 32-bit lanes, node 0 expects 64-bit sums
check_fail reduce-check-bites 1 "^xnoc run: node 0 exited with 1$" $XNOC run --topo $T --arg func=3 --arg expect=4 $FW/nc-reduce.elf
$XNOC run --topo $T --arg func=3 --arg expect=4 $FW/nc-reduce.elf 2>/dev/null | grep -q '^\[node 0\] nc-reduce: add64 words 0..1 are 0x' \
    && ok reduce-check-bites-names || fail reduce-check-bites-names "no line naming the words"
check_fail refuse-func 1 "store access fault at device register 0x1000142c .*NI send channel 0: FUNC 10 is not a combining operator \(0..9\), no trap handler$" \
    $XNOC run --topo $T --arg func=10 $FW/nc-reduce.elf
# routers built with the XOR-only unit (--router ncu_ops=xor: a model of its own): XOR as before, the NI refuses another operator
j=$(run --topo $T --router ncu_ops=xor --arg func=0 $FW/nc-reduce.elf)
jcheck reduce-xor-only-units "$j" '.ok==true and .coded_packets==1'
check_fail refuse-func-xor-only 1 "NI send channel 0: FUNC 3 needs coding units with every operator \(--router ncu_ops=all\), no trap handler$" \
    $XNOC run --topo $T --router ncu_ops=xor --arg func=3 $FW/nc-reduce.elf

# ---- the demo's butterfly table (make demo: tools/nc_sweep.sh --bytes 64 --xorlat 1) backs
# the text tools/demo.sh prints under it: every figure the text quotes, measured
j=$(tools/nc_sweep.sh --bytes 64 --xorlat 1 --json 2>/dev/null)
jcheck demo-butterfly-figures "$j" 'map({(.mode): [.done, .links, .busiest, .l30, .l52, .l41]}) | add ==
    {"unicast": [112, 80, 20, 20, 20, 0], "unicast-via": [125, 80, 20, 10, 10, 20], "multicast": [125, 62, 11, 11, 11, 0],
     "coded": [310, 73, 11, 10, 10, 11], "coded-sw": [249, 73, 11, 10, 10, 11]}'
for w in "4->1: 0" "4->1 carries A and B (20 flits)" "done 125 instead of 112" "once (11 flits: half of unicast-via's" \
         "(73 vs 80)" "send): 310 cycles" "fewest flits here (62, busiest" "link 11) in 125 cycles"; do
    grep -qF -- "$w" tools/demo.sh || { missing=$w; break; }
done
[ -z "${missing:-}" ] && ok demo-butterfly-text || fail demo-butterfly-text "tools/demo.sh no longer says '$missing'"
