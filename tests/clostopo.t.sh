# clostopo: the Clos topology clos:m=M,n=N,r=R in the RTL network (net/topo_clos.c,
# docs/topologies.md "Clos"): up-then-down routing at the zero-load latency with the
# exact link loads of the spine rule (destination terminal mod m), no deadlock past
# saturation, every router's coding unit reachable (the spines have no terminals),
# firmware and collectives verified byte for byte; multicasts through the stages
# (--pattern multicast:F), each link carrying a multicast once; bcast and allgather by
# hardware multicast (--algo multicast).  Small networks: v(2,2,2),
# the paper's v(5,3,4) and v(7,4,4) (each built once, one to three minutes, then cached).
source tests/lib.sh

S=clos:m=2,n=2,r=2
P=clos:m=5,n=3,r=4

# every pair one at a time: 144 packets, latency exactly the model's; 36 pairs share
# a leaf (0 hops), 108 go up and down (2 hops)
j=$($XNOC traffic --json --topo $P --pattern allpairs 2>"$TMP/stderr")
jcheck clos-allpairs "$j" '.errors==0 and .delivered_packets==144 and .model_excess_max==0 and .hops_histogram==[36,0,108]'
# link loads of all pairs, links in topo order (leaf i's u0..u4, then spine j's d0..d3):
# up leaf i -> spine j: 3 sources x the terminals d = j (mod 5) on other leaves;
# down spine j -> leaf i: 9 sources x leaf i's terminals d = j (mod 5)
jcheck clos-allpairs-link-loads "$j" '[.links[]|select(.kind=="link")|.flits] == [6,6,3,6,6, 6,9,6,3,3, 9,6,3,3,6, 6,6,6,6,3, 9,9,0,9, 9,0,9,9, 9,0,9,0, 0,9,9,0, 0,9,0,9]'
jcheck clos-allpairs-small "$($XNOC traffic --json --topo $S --pattern allpairs 2>"$TMP/stderr")" '.errors==0 and .delivered_packets==16 and .model_excess_max==0 and ([.links[]|select(.kind=="link")|.flits]|all(.==2))'

# past saturation: the network drains, nothing lost, nothing corrupted (up-down: one VC class)
for C in $S $P; do
    jcheck "clos-saturation-drains-${C//[:=,]/_}" "$($XNOC traffic --json --topo $C --pattern uniform --rate 0.9 --cycles 3000 2>"$TMP/stderr")" \
        '.errors==0 and .saturated==true and .drain_timed_out==false and .injected_packets==.delivered_packets'
done
# every terminal through every router's coding unit (spines included: topo_route_router)
jcheck clos-unitpairs "$($XNOC traffic --json --topo $P --pattern unitpairs 2>"$TMP/stderr")" '.errors==0 and .coded_packets==108'
jcheck clos-neighbor "$($XNOC traffic --json --topo $P --pattern neighbor --rate 0.1 --cycles 2000 2>"$TMP/stderr")" '.errors==0 and .drain_timed_out==false and .min_hops==2 and .max_hops==2'

# firmware: the node sees the topology (DEV_TOPO_KIND 4, m, n, r)
$XNOC run --topo $P build/firmware/hello.elf >"$TMP/out" 2>&1
check clos-firmware-name grep -q "hello from node 11 of 12 on clos:m=5,n=3,r=4" "$TMP/out"
$XNOC run --topo $S build/firmware/hello.elf >"$TMP/out" 2>&1
check clos-firmware-name-small grep -q "hello from node 3 of 4 on clos:m=2,n=2,r=2" "$TMP/out"

# collectives: every byte verified, the flits on the links as the routes predict
c() { $XNOC collective --json --topo $P --bytes 256 "$@" 2>"$TMP/stderr"; }
jcheck clos-bcast "$(c --op bcast)" '.verified==true and .link_flits==612 and .link_flits==.link_flits_expected and .stalled_flit_cycles==0'
jcheck clos-allgather "$(c --op allgather)" '.verified==true and .link_flits==2992 and .link_flits==.link_flits_expected and .stalled_flit_cycles==0'
jcheck clos-alltoall "$(c --op alltoall)" '.verified==true and .link_flits==7344 and .link_flits==.link_flits_expected'
jcheck clos-allgather-small "$($XNOC collective --json --topo $S --op allgather --bytes 256 2>"$TMP/stderr")" '.verified==true and .link_flits==408 and .stalled_flit_cycles==0'

# --pattern multicast:F through the stages (traffic_nc.c): the paper's routing control picks
# the spines, the source sends one MC packet per chosen spine, spines and leaves replicate.
# One source multicasting to all 11 others: every chosen spine's 4 down links carry exactly
# what its up link from leaf 0 carried (each link once per multicast), no other leaf sends.
# (Up-link loads [146,89,21] before the units' multicast lanes: with the copies leaving
# together fewer multicasts overlap, so the control finds spine 0 free more often.)
j=$($XNOC traffic --json --topo $P --pattern multicast:11 --sources 0 --rate 0.01 --cycles 2000 2>"$TMP/stderr")
jcheck clos-mc-all-once "$j" '.errors==0 and .coding.multicast.started==35 and .coding.multicast.completed==35 and .coding.deliveries==385 and .coding.pending==0 and .coding.through_stages==true and .coding.blocked==0 and .coding.middle_switches==35'
jcheck clos-mc-link-once "$j" '[.links[]|select(.kind=="link")] as $l | ([range(0;5) as $s | ($l[$s].flits) as $up | [$l[20+4*$s:24+4*$s][].flits] | all(.==$up)] | all) and ([$l[5:20][].flits]|all(.==0)) and ([$l[0:5][].flits]==[194,58,8,0,0])'
# random multicasts of fanout 2 from every terminal: every copy once, byte for byte
j=$($XNOC traffic --json --topo $P --pattern multicast:2 --rate 0.05 --cycles 2000 2>"$TMP/stderr")
jcheck clos-mc-random "$j" '.errors==0 and .drain_timed_out==false and .coding.pending==0 and .coding.multicast.started==.coding.multicast.completed and .coding.deliveries==2*.coding.multicast.completed and .coding.multicast.completed>100'
# below Theorem 3's bound (v(2,2,2) needs m >= 4) the routing control blocks some requests
# (at --rate 0.05 it saturates: requests wait for ports, refused, before the control is asked)
jcheck clos-mc-blocks-below-bound "$($XNOC traffic --json --topo $S --pattern multicast:2 --rate 0.01 --cycles 2000 2>"$TMP/stderr")" '.errors==0 and .coding.blocked==73 and .saturated==false and .coding.deliveries==2*.coding.multicast.completed'
check_fail clos-mc-no-fanout 2 "--pattern multicast: give the fanout, multicast:F" $XNOC traffic --topo $P --pattern multicast
check_fail clos-mc-zero 2 "multicast:F" $XNOC traffic --topo $P --pattern multicast:0
check_fail clos-mc-too-many 2 "--pattern multicast:12: fanout 12, but clos:m=5,n=3,r=4 has 11 other terminals" $XNOC traffic --topo $P --pattern multicast:12
check_fail clos-mc-no-units 2 "--pattern multicast:2 needs routers with coding units" $XNOC traffic --topo $P --pattern multicast:2 --router ncu=0
check_fail clos-mc-coding 2 "--coding does not combine with --pattern multicast:2" $XNOC traffic --topo $P --pattern multicast:2 --coding 0.1
# the README's run (a third network, v(7,4,4): built once, about three minutes), and its
# figures in docs/clos.md: below saturation (about 0.0125 multicasts/terminal/cycle, the
# requests waiting for leaf ports) it accepts what is offered. At --rate 0.2 it saturates.
j=$($XNOC traffic --json --topo clos:m=7,n=4,r=4 --pattern multicast:2 --rate 0.01 2>"$TMP/stderr")
jcheck clos-mc-744 "$j" '.errors==0 and .saturated==false and .drain_timed_out==false and .coding.pending==0 and .coding.multicast.completed==1824 and .coding.deliveries==3648 and .coding.blocked==0 and .coding.dropped==0 and .offered_multicasts==1640 and .accepted_multicasts==1647 and .throughput==1647/160000 and (.avg_latency*1640|round)==91154 and .p99_latency==227 and .max_latency==575'

# --algo multicast (collrun/coll_mcast.c, firmware/coll/mcast.c): bcast and allgather by hardware
# multicast, each multicast routed through the spines the paper's routing control picks, the
# units replicating; every byte of every node checked.  A bcast on an idle network takes one
# spine (every S_j is empty: the lowest index): 256 B = F = 34 flits + 1 mask flit up to spine 0,
# an MC copy (35) down to each of the 4 leaves (leaf 0: terminals 1 and 2): 175 flits against the
# unicast schedule's 612; copies: the spine's 4, leaf 0's 2, three leaves' 3 each = 15
m() { $XNOC collective --json --algo multicast "$@" 2>"$TMP/stderr"; }
jcheck clos-mc-bcast "$(m --topo $P --op bcast --bytes 256)" '.verified==true and .steps==1 and .spines_used==1 and .link_flits==175 and .link_flits==.link_flits_expected and .mc_copies==15 and .unit_packets_absorbed==5 and .stalled_flit_cycles==0'
# v(2,2,2): leaf 0 has one other terminal, a plain copy (34): 35 + 34 + 35
jcheck clos-mc-bcast-small "$(m --topo $S --op bcast --bytes 256)" '.verified==true and .link_flits==104 and .mc_copies==4'
jcheck clos-mc-bcast-root "$(m --topo $P --op bcast --bytes 1024 --from 7)" '.verified==true and .root==7 and .chunks==4 and .link_flits==700 and .link_flits==.link_flits_expected'
# allgather: 12 multicasts of fanout 11 (every leaf).  A step is the paper's multicast assignment
# (--steps assignment, the default): every output port (a terminal's ejection link) in at most one
# connection, and every multicast reaches every other terminal, so one multicast a step: 12 steps,
# 11 closed by an output conflict, none by the control, 175 flits per spine route (2100 against the
# unicast schedule's 2992), 0 stalled flit-cycles, 5002 cycles (the steps run one after another)
j=$(m --topo $P --op allgather --bytes 256)
jcheck clos-mc-allgather "$j" '.verified==true and .step_rule=="assignment" and .multicasts==12 and .steps==12 and .steps_output_conflict==11 and .steps_unroutable==0 and .spines_used==12 and .blocked==0 and .link_flits==2100 and .link_flits==.link_flits_expected and .mc_copies==180 and .stalled_flit_cycles==0 and .cycles==5002'
check clos-mc-allgather-text grep -q "assignment steps (11 closed by an output conflict, 0 because the control could not route the next)" <<<"$($XNOC collective --algo multicast --topo $P --op allgather --bytes 256)"
# --steps packed (the step builder before the assignment rule, kept because it is faster): a step
# takes multicasts until the control cannot route the next (every output switch has n = 3 ports, so
# 3 at a time, each on a spine of its own): 4 steps, all 3 closings the control's, 12 spine routes;
# the leaves' units take copies from 3 spines at once on 3 input lanes (--router lanes, default
# max(n,r) = 4 on a clos): 0 stalled flit-cycles at 256 B, 2228 cycles (was the default, .steps==4)
j=$(m --topo $P --op allgather --bytes 256 --steps packed)
jcheck clos-mc-allgather-packed "$j" '.verified==true and .step_rule=="packed" and .multicasts==12 and .steps==4 and .steps_output_conflict==0 and .steps_unroutable==3 and .spines_used==12 and .blocked==0 and .link_flits==2100 and .link_flits==.link_flits_expected and .mc_copies==180 and .stalled_flit_cycles==0 and .cycles==2228'
# with one lane (the unit before the lanes: one packet absorbed, one copy sent at a time) packed
# steps stall at link ports waiting for the units (117 flit-cycles), 3011 cycles; assignment steps
# send one multicast at a time: nothing waits, 5831 cycles (was the default, .cycles==3011)
jcheck clos-mc-allgather-one-lane "$(m --topo $P --op allgather --bytes 256 --router lanes=1 --steps packed)" '.verified==true and .link_flits==2100 and .mc_copies==180 and .stalled_flit_cycles==117 and .link_stalled_flit_cycles==117 and .cycles==3011'
jcheck clos-mc-allgather-one-lane-assignment "$(m --topo $P --op allgather --bytes 256 --router lanes=1)" '.verified==true and .steps==12 and .link_flits==2100 and .stalled_flit_cycles==0 and .cycles==5831'
# 4 KiB (16 chunks): packed steps put 3 multicasts on every ejection link at once and stall 40476
# flit-cycles at the spines' down links; assignment steps stall only 5988 = 12 x the bcast's 499
# (below: a leaf unit's one input lane with one slot) and take 18479 cycles against 9212
jcheck clos-mc-allgather-4k-packed "$(m --topo $P --op allgather --bytes 4096 --steps packed)" '.verified==true and .steps==4 and .link_flits==33600 and .stalled_flit_cycles==40476 and .cycles==9212'
jcheck clos-mc-allgather-4k "$(m --topo $P --op allgather --bytes 4096)" '.verified==true and .steps==12 and .link_flits==33600 and .stalled_flit_cycles==5988 and .cycles==18479'
# the issue's acceptance: on v(9,3,4), which meets Theorem 3's bound, a 4 KiB allgather in
# assignment steps with spare slots (8 for 4 lanes) has 0 stalled flit-cycles (built once, about a
# minute); packed steps on the same routers stall 36998
jcheck clos-mc-allgather-934-4k "$(m --topo clos:m=9,n=3,r=4 --router slots=8 --op allgather --bytes 4096)" '.verified==true and .steps==12 and .blocked==0 and .link_flits==33600 and .link_flits==.link_flits_expected and .stalled_flit_cycles==0 and .cycles==13090'
jcheck clos-mc-allgather-934-4k-packed "$(m --topo clos:m=9,n=3,r=4 --router slots=8 --op allgather --bytes 4096 --steps packed)" '.verified==true and .steps==4 and .link_flits==33600 and .stalled_flit_cycles==36998 and .cycles==9128'
# a bcast's 16 chunks reach each leaf's unit on one lane: with spare slots (8 for 4 lanes) that lane
# takes several, and nothing stalls (499 stalled flit-cycles with slots=4, one slot per lane)
jcheck clos-mc-bcast-spare-slots "$(m --topo $P --op bcast --bytes 4096 --router slots=8)" '.verified==true and .link_flits==2800 and .stalled_flit_cycles==0 and .cycles==1378'
jcheck clos-mc-bcast-4k "$(m --topo $P --op bcast --bytes 4096)" '.verified==true and .link_flits==2800 and .stalled_flit_cycles==499 and .cycles==1828'
# mnb (many-to-many broadcast): terminals 0-5 each multicast to 3-11 (less themselves): 6
# multicasts, every receiver checked, each link carrying each message once.  The destination sets
# overlap (6-11 in every one), so assignment steps hold one each: 6 steps, 5 output conflicts (was
# 2 steps, now --steps packed: 1203 cycles against 2020)
jcheck clos-mc-mnb "$(m --topo $P --op mnb --from 0-5 --to 3-11 --bytes 256)" '.verified==true and .multicasts==6 and .steps==6 and .steps_output_conflict==5 and .link_flits==840 and .link_flits==.link_flits_expected and .mc_copies==69 and .cycles==2020'
jcheck clos-mc-mnb-packed "$(m --topo $P --op mnb --from 0-5 --to 3-11 --bytes 256 --steps packed)" '.verified==true and .multicasts==6 and .steps==2 and .steps_unroutable==1 and .link_flits==840 and .stalled_flit_cycles==0 and .cycles==1203'
# disjoint destination sets share a step: 0 to 1 and 1 to 0, one step either way
jcheck clos-mc-mnb-disjoint "$(m --topo $P --op mnb --from 0-1 --to 0-1 --bytes 256)" '.verified==true and .multicasts==2 and .steps==1 and .steps_output_conflict==0 and .link_flits==138 and .cycles==686'
# without sets an mnb is the allgather (was .cycles==2228: the packed steps)
jcheck clos-mc-mnb-all "$(m --topo $P --op mnb --bytes 256)" '.verified==true and .multicasts==12 and .steps==12 and .link_flits==2100 and .cycles==5002'
# (4 and 5 share leaf 1: up to a spine, one plain copy down: 11 + 10 flits)
jcheck clos-mc-mnb-self "$(m --topo $P --op mnb --from 4 --to 4-5 --bytes 64)" '.verified==true and .multicasts==1 and .mc_copies==1 and .link_flits==21 and .link_flits==.link_flits_expected'
# below the bound, v(2,3,4) (m < n; built once, under a minute), packed steps: a step holds 2
# multicasts, the control blocks the third of each leaf's: 6 steps, 5 blocked, the same flits,
# every byte delivered (now --steps packed: assignment steps hold one multicast, nothing blocks)
jcheck clos-mc-allgather-below-bound "$(m --topo clos:m=2,n=3,r=4 --op allgather --bytes 256 --steps packed)" '.verified==true and .steps==6 and .blocked==5 and .steps_unroutable==5 and .spines_used==12 and .link_flits==2100 and .link_flits==.link_flits_expected'
jcheck clos-mc-allgather-below-bound-assignment "$(m --topo clos:m=2,n=3,r=4 --op allgather --bytes 256)" '.verified==true and .steps==12 and .blocked==0 and .steps_output_conflict==11 and .link_flits==2100 and .cycles==5002'
# v(2,2,2): 4 steps of one multicast (was .steps==2: packed, 2 by the control)
jcheck clos-mc-allgather-small "$(m --topo $S --op allgather --bytes 256)" '.verified==true and .steps==4 and .steps_output_conflict==3 and .link_flits==416 and .link_flits==.link_flits_expected'
jcheck clos-mc-allgather-small-packed "$(m --topo $S --op allgather --bytes 256 --steps packed)" '.verified==true and .steps==2 and .steps_unroutable==1 and .link_flits==416'

jcheck clos-mc-allgather-chunks "$(m --topo $P --op allgather --bytes 1000)" '.verified==true and .chunks==4 and .link_flits==.link_flits_expected'
XNOC_TEST_CORRUPT=6:10 $XNOC collective --algo multicast --topo $P --op allgather --bytes 256 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -qx "xnoc collective: node 6: word [0-9]* of terminal [0-9]*'s message is 0x[0-9a-f]*, not 0x[0-9a-f]*" "$TMP/err"
then ok clos-mc-corrupt-caught; else fail clos-mc-corrupt-caught "exit $rc: $(head -2 "$TMP/err")"; fi
x() { $XNOC collective --algo multicast "$@"; }
check_fail clos-mc-not-clos 2 "^xnoc collective: --algo multicast: mesh:4x4 is not a clos \(the routing control picks a clos's spines\)$" x --topo mesh:4x4 --op bcast
check_fail clos-mc-op 2 "^xnoc collective: --algo multicast: --op reduce; it runs bcast, allgather and mnb$" x --topo $P --op reduce
check_fail clos-mc-to-bcast 2 "^xnoc collective: --to: --op bcast sends to every terminal \(--op mnb takes --to\)$" x --topo $P --op bcast --to 1-3
check_fail clos-mc-mnb-bad-set 2 "^xnoc collective: --from: terminal set '0-12': 0-12 outside the terminals 0-11$" x --topo $P --op mnb --from 0-12
check_fail clos-lanes-range 2 "lanes=17 is out of range 1..16" x --topo $P --op bcast --router lanes=17
check_fail clos-mc-allgather-root 2 "^xnoc collective: --from: an allgather has no root" x --topo $P --op allgather --from 2
check_fail clos-mc-bad-root 2 "^xnoc collective: --from '12': the root is one terminal, 0..11$" x --topo $P --op bcast --from 12
check_fail clos-mc-bytes 2 "^xnoc collective: --bytes 6: --algo multicast sends whole 32-bit words, use a multiple of 4$" x --topo $P --op bcast --bytes 6
check_fail clos-mc-no-units 2 "^xnoc collective: --algo multicast: the routers have no coding units \(--router ncu=0\)$" x --topo $P --op bcast --router ncu=0
check_fail clos-mc-options 2 "^xnoc collective: --algo multicast takes --topo" x --topo $P --op bcast --reduce-op sum
check_fail clos-mc-steps-bad 2 "^xnoc collective: --steps 'pack': assignment or packed$" x --topo $P --op allgather --steps pack
check_fail clos-mc-steps-not-mcast 2 "^xnoc collective: --steps is an option of --algo multicast, not --algo sched$" $XNOC collective --topo $P --op allgather --steps packed
check_fail clos-mc-no-op 2 "^xnoc collective: --op is required: bcast, allgather or mnb with --algo multicast$" x --topo $P

# --coding on every clos shape of the tests, light and saturated (issue 46:
# every clos stalled with --coding at its default lanes, even at 1% load; a
# multicast replicated first at a leaf's unit sent copies up to spine units,
# and the lanes' multicast reserve made units wait for each other). Each
# multicast now starts at a spine's unit: every group complete, byte-exact
for sh in "clos:m=2,n=2,r=2" "clos:m=2,n=3,r=4" "clos:m=5,n=3,r=4" "clos:m=7,n=4,r=4" "clos:m=9,n=3,r=4 --router slots=8"; do
    for R in 0.01 0.9; do
        j=$($XNOC traffic --json --topo $sh --rate $R --coding $R --packet 4 --cycles 2000 --warmup 200 2>"$TMP/stderr")
        jcheck "clos-coding-soak-${sh%% *}-$R" "$j" '.ok==true and .errors==0 and .coding.pending==0 and ([.coding.multicast,.coding.coded,.coding["coded+multicast"]]|all(.started==.completed and .started>0)) and ([.units[].slots_in_use]|add)==0'
    done
done
# the issue's acceptance run
j=$($XNOC traffic --json --topo clos:m=7,n=4,r=4 --rate 0.3 --coding 0.05 --cycles 20000 2>"$TMP/stderr")
jcheck clos-coding-744 "$j" '.ok==true and .errors==0 and .coding.pending==0 and .coding["coded+multicast"].completed>300'
