# ncnet: the paper's execution-time experiment on the network alone -
# `xnoc traffic --pattern allgather:tree|hnc|combine` (traffic/traffic_coll.h,
# docs/network-coding.md): the all-to-all broadcast's schedule as traffic
# from the NIs, XORs at the NIs, exact cycles on mesh:4x4, every flit
# accounted for, every bad option refused with one line and exit 2.
source tests/lib.sh
T=mesh:4x4
ag() { $XNOC traffic --topo $T --json --pattern "allgather:$@"; }

# ---- exact execution cycles, packets, flits and XORs (1- and 16-flit packets) ----
# tree: 16 x 15 = 240 packets, no XOR; hnc (2x4 groups, IN at (0,0)): B+F 128,
# D 14, E 98 packets, 14 coding and 112 decoding XORs; combine (2x2 groups):
# 20 copies into the combined messages, 204 out of them.
while read -r algo L cyc flits xors; do
    if [ "$algo" = hnc ]; then j=$(ag hnc --xor ni --packet "$L"); else j=$(ag "$algo" --packet "$L"); fi
    jcheck "cycles-$algo-$L" "$j" ".execution_cycles==$cyc and .allgather.execution_cycles==$cyc and .allgather.algorithm==\"$algo\""
    jcheck "counts-$algo-$L" "$j" ".allgather.packets==240 and .allgather.flits==$flits and .allgather.xors==$xors and .errors==0"
    # conservation: every packet created is delivered whole, and the flits the
    # NIs injected are the flits the routers ejected
    jcheck "conserved-$algo-$L" "$j" ".created_packets==240 and .delivered_packets==240 and
        ([.links[]|select(.kind==\"inject\").flits]|add)==$flits and ([.links[]|select(.kind==\"eject\").flits]|add)==$flits"
    jcheck "phases-sum-$algo-$L" "$j" "([.allgather.phases[].packets]|add)==240 and ([.allgather.phases[].xors]|add)==$xors
        and ([.allgather.phases[].end]|max)==$cyc"
done <<'TABLE'
tree 1 52 240 0
tree 16 332 3840 0
hnc 1 79 240 126
hnc 16 593 3840 126
combine 1 75 240 224
combine 16 632 3840 224
TABLE

j=$(ag hnc --xor ni)
jcheck hnc-phases "$j" '.allgather.phases|(.B_F.packets==128 and .C.xors==14 and .D.packets==14 and .E.packets==98 and .G.xors==112)'
jcheck hnc-shape "$j" '.allgather.group_shape==[2,4] and .allgather.num_groups==2 and .allgather.intermediate_position==[0,0]'
jcheck combine-no-f "$(ag combine)" '.allgather.phases|(.B_F.packets==48 and .D.packets==48 and .E.packets==144)'

# ---- coding in the IN's router's unit (the default with units): 14 XORs, each
# two ENCODE contributions of head + meta + L data flits from the IN and the
# XOR back to it, every delivery byte-exact; the IN's one injection channel
# carries them besides its data, so on this network it is slower than at the NI
while read -r L cyc inj ej; do
    j=$(ag hnc --packet "$L")
    jcheck "unit-cycles-$L" "$j" ".execution_cycles==$cyc and .allgather.xor==\"unit\" and .allgather.unit_xors==14 and .errors==0"
    jcheck "unit-coding-$L" "$j" '.coding.coded.started==14 and .coding.coded.completed==14 and .coding.deliveries==14 and .coding.pending==0'
    jcheck "unit-conserved-$L" "$j" "([.links[]|select(.kind==\"inject\").flits]|add)==$inj and ([.links[]|select(.kind==\"eject\").flits]|add)==$ej"
done <<'TABLE'
1 140 324 282
16 859 4344 4092
TABLE
jcheck ncu0-ni "$($XNOC traffic --topo $T --json --router ncu=0 --pattern allgather:hnc 2>/dev/null)" '.allgather.xor=="ni" and .execution_cycles==79'

# ---- the XOR overhead: decoding is 112 XORs at 16 nodes, so 35 cycles each shows ----
jcheck xor-overhead-35 "$(ag hnc --xor ni --xor-overhead 35)" '.execution_cycles==551 and .allgather.xor_overhead==35'
jcheck xor-overhead-0 "$(ag hnc --xor ni --xor-overhead 0)" '.execution_cycles<79 and .errors==0'
# delivery_cycles: the last packet's arrival (decoding aside, the paper's end-to-end)
jcheck delivery-ni "$(ag hnc --xor ni)" '.allgather.delivery_cycles==73'
jcheck delivery-ni-35 "$(ag hnc --xor ni --xor-overhead 35)" '.allgather.delivery_cycles==308'
jcheck delivery-tree "$(ag tree)" '.allgather.delivery_cycles==52'
# the paper's measure: the sum over the steps of their longest packet latency
jcheck step-sum-tree "$(ag tree --packet 16)" '.allgather.step_latency_sum==378 and .allgather.steps==4'
jcheck step-sum-hnc "$(ag hnc --xor ni --packet 16)" '.allgather.step_latency_sum==984 and .allgather.steps==9'
jcheck step-sum-combine "$(ag combine --packet 16)" '.allgather.step_latency_sum==837 and .allgather.steps==8'
jcheck tree-ignores-xor "$(ag tree --xor-overhead 35)" '.execution_cycles==52'

# ---- --measure steps: synchronized steps, each step's worst latency from injection ----
# Zero load (mesh:2x1, one packet each way, one step): the latency from the
# head entering the network is 3 x H + L with H = 2 routers (docs/ni.md).
for L in 1 16; do
    jcheck "steps-zero-load-$L" "$($XNOC traffic --topo mesh:2x1 --json --pattern allgather:tree --packet $L --measure steps)" \
        ".allgather.measure==\"steps\" and .allgather.paper_step_latency==$((6 + L)) and .allgather.step_latencies==[$((6 + L))] and .execution_cycles==$((6 + L))"
done
# mesh:4x4, 16 flits (measured): the makespan stays in the report, beside the measure
jcheck steps-tree "$(ag tree --packet 16 --measure steps)" \
    '.execution_cycles==351 and .allgather.paper_step_latency==172 and .allgather.step_latencies==[38,23,81,30] and .errors==0'
jcheck steps-hnc "$(ag hnc --xor ni --packet 16 --measure steps)" \
    '.execution_cycles>=.allgather.paper_step_latency and (.allgather.step_latencies|length)==9 and .errors==0'
# a unit's coding XOR counts from its second contribution's injection (C: 51 cycles)
jcheck steps-hnc-unit "$(ag hnc --packet 16 --measure steps)" \
    '.execution_cycles==962 and .allgather.paper_step_latency==265 and .allgather.step_latencies==[40,23,25,51,33,33,30,30,0]'
jcheck steps-combine "$(ag combine --packet 16 --measure steps)" \
    '.execution_cycles==700 and .allgather.paper_step_latency==166 and .errors==0'
# synchronized: no phase starts before the one before it has ended (data-driven, E overlaps D)
sync_ok='.allgather.phases as $p | ($p.C.start>=$p.B_F.end and $p.D.start>=$p.C.end and $p.E.start>=$p.D.end and $p.G.start>=$p.E.end)'
jcheck steps-synchronized "$(ag hnc --xor ni --packet 16 --measure steps)" "$sync_ok"
jcheck makespan-overlaps "$(ag hnc --xor ni --packet 16 --measure makespan)" "($sync_ok|not) and .allgather.measure==\"makespan\" and (.allgather|has(\"paper_step_latency\")|not)"
$XNOC traffic --topo $T --pattern allgather:tree --packet 16 --measure steps >"$TMP/steps" 2>&1
check steps-text grep -qx '  synchronized steps (--measure steps): makespan 351 cycles; the paper.s measure, the sum of each step.s worst latency from injection: 172 cycles over 4 steps' "$TMP/steps"

# ---- xnoc collective --measure steps: the same measure for the firmware run, from the packet events ----
# Zero load (mesh:2x1 allgather, one step, one packet each way of head, meta
# and ceil(B/8) data flits): 3 x 2 + F cycles, 9 for 8 bytes, 16 for 64.
for b in 8 64; do
    f=$((2 + (b + 7) / 8))
    jcheck "coll-steps-zero-load-$b" "$($XNOC collective --json --topo mesh:2x1 --op allgather --algo tree --bytes $b --measure steps)" \
        ".verified==true and .measure==\"steps\" and .paper_step_latency==$((6 + f)) and .step_latencies==[$((6 + f))] and .packets_timed==2"
done
# mesh:4x4 tree (measured): the makespan and the steps' cycles stay, the measure beside them
jcheck coll-steps-tree "$($XNOC collective --json --topo $T --op allgather --algo tree --bytes 64 --measure steps)" \
    '.verified==true and .cycles==652 and .cycles_per_step==[109,119,173,251] and .paper_step_latency==84 and .step_latencies==[26,16,26,16] and .packets_timed==240'
# hnc: B+F 128, C 28 contributions + 14 results through the unit, D 2 bundles, E 14: 186 packets timed
jcheck coll-steps-hnc "$($XNOC collective --json --topo $T --op allgather --algo hnc --bytes 64 --measure steps)" \
    '.verified==true and .packets_timed==186 and (.step_latencies|length)==.steps and .paper_step_latency==([.step_latencies[]]|add)'
jcheck coll-makespan-default "$($XNOC collective --json --topo $T --op allgather --algo tree --bytes 64)" \
    '.cycles==652 and (has("paper_step_latency")|not)'
# --events F: the measure reads F back, and F keeps every line
jcheck coll-steps-events "$($XNOC collective --json --topo mesh:2x1 --op allgather --algo tree --bytes 64 --measure steps --events "$TMP/ev.jsonl")" \
    '.paper_step_latency==16'
check coll-steps-events-file grep -q '"event":"eject"' "$TMP/ev.jsonl"
$XNOC collective --topo mesh:2x1 --op allgather --algo tree --bytes 64 --measure steps >"$TMP/cs" 2>&1
check coll-steps-text grep -q "the paper's measure (--measure steps): the sum of each step's worst latency from injection, 16 cycles (2 packets); the makespan stays" "$TMP/cs"
cf() { local name=$1 re=$2; shift 2; check_fail "bad-coll-$name" 2 "^xnoc collective: $re" $XNOC collective --topo $T --op allgather "$@"; }
cf measure-word "--measure 'latency': makespan or steps" --algo tree --measure latency
cf measure-sync "--measure steps counts synchronized steps: drop --sync data" --algo tree --measure steps --sync data
cf measure-innet "--measure steps: not with --algo innet" --algo innet --measure steps

# ---- --distribute unit: phase E as one multicast per bundle part, forked by the units ----
# hnc (2 groups of 8): 2 x 1 x 7 = 14 MC packets of 16 + 2 + 1 (mask) = 19
# flits, 14 x 7 = 98 copies delivered and checked (and the 14 coding XORs);
# E is one step (9 -> 7).
# combine (4 groups of 4, 4-part messages): 4 x 3 x 4 = 48 packets, 144 copies.
jcheck dist-hnc "$(ag hnc --packet 16 --distribute unit)" \
    '.execution_cycles==912 and .allgather.distribute=="unit" and .allgather.steps==7 and .allgather.phases.E.packets==14
     and .allgather.phases.E.flits==266 and .coding.multicast.completed==14 and .coding.deliveries==98+14 and .errors==0'
jcheck dist-combine "$(ag combine --packet 16 --distribute unit)" \
    '.execution_cycles==800 and .allgather.phases.E.packets==48 and .allgather.phases.E.flits==912 and .coding.deliveries==144 and .errors==0'
jcheck dist-tree-default "$(ag hnc --packet 16)" '.allgather.distribute=="tree" and .allgather.phases.E.packets==98 and .execution_cycles==859'
jcheck dist-steps "$(ag combine --packet 16 --distribute unit --measure steps)" \
    '.errors==0 and (.allgather.step_latencies|length)==.allgather.steps and .execution_cycles>=.allgather.paper_step_latency'
# a flipped bit in a multicast copy is caught (terminal 15's 238th flit is in E)
XNOC_TEST_CORRUPT=15:1900 check_fail dist-corrupt 1 '^xnoc traffic: [0-9]+ error\(s\); first: cycle [0-9]+: terminal 15, group 0x[0-9a-f]+ \(multicast\)' \
    $XNOC traffic --topo $T --pattern allgather:hnc --packet 16 --distribute unit

# ---- the same in firmware: xnoc collective --distribute unit (coll-mc.elf, PO_MCAST) ----
# hnc (2x4 groups): the IN sends one multicast per bundle part and chunk of the
# units' packet limit to its router's unit; E is one step (9 -> 7); every
# decoded byte checked after the run (measured cycles)
cu() { $XNOC collective --json --topo $T --op allgather "$@" 2>/dev/null; }
jcheck coll-dist-hnc "$(cu --algo hnc --bytes 64 --distribute unit --measure steps)" \
    '.verified==true and .steps==7 and .distribute=="unit" and .cycles==3061 and .cycles_per_phase.E==602
     and .step_latencies==[27,16,16,13,67,112,0] and .paper_step_latency==251 and .packets_timed==354'
# the tree's run: 9 steps, coll.elf's cycles as before (tests/nc.t.sh pins the rest)
jcheck coll-dist-hnc-tree "$(cu --algo hnc --bytes 64 --measure steps)" \
    '.verified==true and .steps==9 and .distribute=="tree" and .cycles==2902 and .paper_step_latency==334 and .packets_timed==186'
# 1 KiB parts: four chunks of the units' 256-byte limit per part
jcheck coll-dist-hnc-1k "$(cu --algo hnc --bytes 1024 --distribute unit)" '.verified==true and .cycles==18076'
jcheck coll-dist-combine "$(cu --algo combine --bytes 64 --distribute unit)" '.verified==true and .steps==7 and .cycles==3842'
jcheck coll-dist-ni "$(cu --algo hnc --bytes 64 --distribute unit --decode ni)" '.verified==true and .cycles==2224 and .decode=="ni"'
# E leaves the IN (terminal 0) once per part: its injection channel carries 355
# flits against the tree's 452, while the links carry the masks and the units'
# copies (2,882 flits against 2,760)
jcheck coll-dist-flits "$(cu --algo hnc --bytes 64 --distribute unit)" \
    '.busiest_channel=="t0.0->r0 (injection)" and .busiest_channel_flits==355 and .link_flits==2882 and .unicasts==228'
jcheck coll-dist-flits-tree "$(cu --algo hnc --bytes 64)" \
    '.busiest_channel_flits==452 and .link_flits==2760 and .unicasts==144'
# node 1's bytes 640.. are its E copies: a flipped bit is caught in the decoded data (exit 1)
check_fail coll-dist-corrupt 1 '^xnoc collective: node 1: message 7 \(from terminal 7, decoded\) byte 60: got 0x59, expected 0x58$' \
    env XNOC_TEST_CORRUPT=1:700 $XNOC collective --topo $T --op allgather --algo hnc --bytes 64 --distribute unit
# the harness gives a multicast plan to coll-mc.elf: only its coll_run_ext has
# the PO_MCAST branch; coll_run, the plain plans' loop, is the same size in both
fsize() { local h; h=$(llvm-nm -S "$(dirname $XNOC)/firmware/$1.elf" | awk -v s="$2" '$4 == s { print $2 }'); [ -n "$h" ] && echo $((16#$h)); }
a=$(fsize coll coll_run_ext) b=$(fsize coll-mc coll_run_ext)
if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ] && [ "$(fsize coll coll_run)" = "$(fsize coll-mc coll_run)" ]; then ok coll-mc-image
else fail coll-mc-image "coll_run_ext: coll.elf $a bytes, coll-mc.elf $b bytes"; fi
cf dist-word "--distribute 'bus': unit or tree" --algo hnc --distribute bus
cf dist-tree "--distribute is an option of --algo hnc and combine \(their phase E\), not --algo tree" --algo tree --distribute unit
cf dist-ncu0 "--distribute unit: the routers have no coding units \(--router ncu=0\)" --algo combine --distribute unit --router ncu=0

# ---- group shape and placement, as in xnoc collective ----
jcheck boundary-2x2 "$(ag hnc --xor ni --group-shape 2x2 --in-position boundary)" \
    '.execution_cycles==66 and .allgather.group_shape==[2,2] and .allgather.intermediate_position==[1,1] and .allgather.in_position=="boundary"'

# ---- the text report ----
$XNOC traffic --topo $T --pattern allgather:hnc --xor ni >"$TMP/out" 2>&1
if grep -qx '  allgather:hnc: every node holds every datum at cycle 79 (XOR overhead 1 cycle(s) at the NIs); groups 2x4, intermediate node (0,0)' "$TMP/out" &&
   grep -Eqx '    G +0 +0 +112 +[0-9]+ +79' "$TMP/out"
then ok text-report; else fail text-report "$(grep -A7 'allgather:' "$TMP/out" | head -8)"; fi

# ---- bad options: one line, exit 2 ----
tf() { local name=$1 re=$2; shift 2; check_fail "bad-$name" 2 "^xnoc traffic: $re" $XNOC traffic --topo $T "$@"; }
tf no-algo '--pattern allgather: give the algorithm \(allgather:tree' --pattern allgather
tf algo '--pattern allgather:ring: unknown algorithm' --pattern allgather:ring
tf overhead '--xor-overhead: 1001 is out of range' --pattern allgather:hnc --xor-overhead 1001
tf overhead-neg '--xor-overhead' --pattern allgather:hnc --xor-overhead -1
tf overhead-uniform '--xor-overhead is an option of --pattern allgather:A' --xor-overhead 3
tf shape-tree '--group-shape and --in-position are options of --pattern allgather:hnc\|combine' --pattern allgather:tree --group-shape 2x2
tf inpos-uniform '--group-shape and --in-position are options' --in-position boundary
tf inpos '--in-position .top.: corner, median, boundary or best' --pattern allgather:hnc --in-position top
tf shape-tile '--pattern allgather: --group-shape 3x3 must tile 4x4' --pattern allgather:hnc --group-shape 3x3
tf shape-form "--group-shape '2x': expected GWxGH" --pattern allgather:combine --group-shape 2x
tf packet-dist '--packet 1-4: --pattern allgather:hnc takes one length' --pattern allgather:hnc --packet 1-4
tf coding '--coding does not combine with --pattern allgather:hnc' --pattern allgather:hnc --coding 0.1
tf xor-tree '--xor is an option of --pattern allgather:hnc' --pattern allgather:tree --xor ni
tf xor-word "--xor 'core': unit or ni" --pattern allgather:hnc --xor core
tf xor-ncu0 '--xor unit needs routers with coding units' --pattern allgather:hnc --xor unit --router ncu=0
tf xor-ncmax '--packet 33: --xor unit takes at most the units. 32 data flits' --pattern allgather:hnc --packet 33
tf measure-word "--measure 'latency': makespan or steps" --pattern allgather:tree --measure latency
tf measure-uniform '--measure is an option of --pattern allgather:A' --measure steps
tf dist-word "--distribute 'bus': unit or tree" --pattern allgather:hnc --distribute bus
tf dist-tree '--distribute is an option of --pattern allgather:hnc.combine' --pattern allgather:tree --distribute unit
tf dist-ncu0 '--distribute unit needs routers with coding units' --pattern allgather:combine --distribute unit --router ncu=0
tf dist-ncmax '--packet 33: --distribute unit takes at most' --pattern allgather:combine --distribute unit --packet 33
tf sources '--sources does not combine with --pattern allgather:tree' --pattern allgather:tree --sources 0-3
check_fail bad-octagon 2 '^xnoc traffic: --pattern allgather: hnc runs on a 2-D mesh or torus' \
    $XNOC traffic --topo octagon --pattern allgather:hnc
jcheck octagon-tree "$($XNOC traffic --topo octagon --json --pattern allgather:tree)" '.execution_cycles==31 and .errors==0'

# ---- a corrupted flit is found, and the run fails (exit 1) ----
XNOC_TEST_CORRUPT=1 check_fail corrupt-found 1 '^xnoc traffic: [0-9]+ error\(s\); first: cycle [0-9]+: corrupted head' \
    $XNOC traffic --topo $T --pattern allgather:hnc
