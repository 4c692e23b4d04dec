# innet: reduce and allreduce combined inside the network by the routers'
# coding units (xnoc collective --algo innet, firmware/coll/innet.c): every
# operator byte-exact against the host's reduction on mesh, torus, octagon,
# fat-octagon, dragonfly and clos, chunked messages with
# several groups in flight, the tree's structure in the units' counters,
# the model, and every refusal (docs/collectives.md "In-network reduction").
source tests/lib.sh
c() { $XNOC collective --json --algo innet "$@" 2>"$TMP/stderr"; }

# every operator, allreduce and reduce, a message of 4 chunks (256 B each),
# the last one short (1000 B): the data are the collective pattern (random
# 32-bit words: sums wrap, half the lanes are negative for min/max)
for r in sum sum64 prod min max minu maxu and or xor; do
    j=$(c --topo mesh:4x4 --op allreduce --bytes 1000 --reduce-op $r)
    jcheck "allreduce-$r" "$j" ".verified==true and .reduce_op==\"$r\" and .chunks==4"
    j=$(c --topo mesh:4x4 --op reduce --bytes 64 --reduce-op $r)
    jcheck "reduce-$r" "$j" ".verified==true and .chunks==1"
done
# the unit operator each name stands for
j=$(c --topo mesh:4x4 --op allreduce --bytes 64 --reduce-op sum64); jcheck func-sum64 "$j" '.unit_func=="add64"'
j=$(c --topo mesh:4x4 --op allreduce --bytes 64 --reduce-op min); jcheck func-min "$j" '.unit_func=="min32s"'
j=$(c --topo mesh:4x4 --op allreduce --bytes 64 --reduce-op maxu); jcheck func-maxu "$j" '.unit_func=="max32u"'
j=$(c --topo mesh:4x4 --op allreduce --bytes 64 --reduce-op prod); jcheck func-prod "$j" '.unit_func=="mul32"'
check_fail prod64-innet 2 "^xnoc collective: --reduce-op prod64: the units have no 64-bit product \(docs/synth.md\); the cores run it: --op allreduce --algo rabenseifner, ring or reduce-bcast$" $XNOC collective --algo innet --topo mesh:4x4 --op allreduce --bytes 64 --reduce-op prod64
check_fail prod64-innet-reduce 2 "the cores run it: --op reduce --algo tree or sched$" $XNOC collective --algo innet --topo mesh:4x4 --op reduce --bytes 64 --reduce-op prod64
# --redop is the same option
j=$(c --topo mesh:4x4 --op allreduce --bytes 64 --redop xor); jcheck redop-alias "$j" '.verified==true and .reduce_op=="xor"'

# The tree in the counters (mesh:4x4, root router 5 = (1,1), depth 2+2 = 4,
# 1 KiB = 4 chunks of 32 data flits).  Per chunk: 16 units send one result
# each (64); the units combine 16 contributions and 15 children's results,
# 15 of them into a slot already holding data: 15 x 32 flits (1920); the
# root multicasts once, 7 units have two or more terminals below them and
# get an MC copy, 15 terminals a plain one: 22 copies (88), and the units
# absorb 31 + 1 + 7 = 39 packets (156).
j=$(c --topo mesh:4x4 --op allreduce --bytes 1024)
jcheck tree-mesh4x4 "$j" '.root==5 and .tree_depth==4 and .max_fan_in==5 and .window==3'
jcheck tree-counters "$j" '.coded_packets==64 and .combined_flits==1920 and .mc_copies==88 and .unit_packets_absorbed==156'
# a reduce's root elsewhere: terminal 0 at a corner, depth 3+3
j=$(c --topo mesh:4x4 --op reduce --bytes 1024 --from 0)
jcheck reduce-root-corner "$j" '.verified==true and .root==0 and .tree_depth==6 and .max_fan_in==3'
# several groups in flight and a long pipeline: 64 KiB = 256 chunks, each
# unit holding up to window + 1 = 4 groups; successive tags never mix
j=$(c --topo mesh:4x4 --op allreduce --bytes 65536 --reduce-op sum64)
jcheck many-chunks "$j" '.verified==true and .chunks==256 and .coded_packets==256*16'
# another seed, other data
j=$(c --topo mesh:4x4 --op allreduce --bytes 256 --seed 7); jcheck seed "$j" '.verified==true'
# a torus uses the mesh's tree (no wrap-around links)
j=$(c --topo torus:2x2x2 --op allreduce --bytes 512 --reduce-op max)
jcheck torus-3d "$j" '.verified==true and .tree_depth==3'

# the octagon family: the routes from the root walked backwards (depth 2).
# Per chunk the units combine every terminal's contribution and 7 routers'
# results, NT + 7 - 8 of them into a slot already holding data
# (octagon: 7 x 32 flits x 16 chunks; fat-octagon, 2 terminals per
# router: 15 x 32 x 16)
j=$(c --topo octagon --op allreduce --bytes 4096)
jcheck octagon "$j" '.verified==true and .root==0 and .tree_depth==2 and .max_fan_in==4 and .combined_flits==3584 and .coded_packets==128'
for b in 64 4096; do
    for r in sum sum64 min max minu maxu and or xor; do
        j=$(c --topo fat-octagon --op allreduce --bytes $b --reduce-op $r)
        jcheck "fat-octagon-$r-$b" "$j" '.verified==true and .tree_depth==2 and .max_fan_in==5'
    done
done
j=$(c --topo fat-octagon --op reduce --bytes 4096 --from 9)
jcheck fat-octagon-reduce "$j" '.verified==true and .root==9 and .combined_flits==7680'
# torus:4x4x4 (3-D, the dimension-ordered tree without wrap-around links:
# root (1,1,1), depth 2+2+2, fan-in 7 = 6 neighbours + its terminal)
for r in sum sum64 min max minu maxu and or xor; do
    j=$(c --topo torus:4x4x4 --op allreduce --bytes 4096 --reduce-op $r)
    jcheck "torus444-$r" "$j" '.verified==true and .root==21 and .tree_depth==6 and .max_fan_in==7'
done

# clos (docs/collectives.md "In-network reduction"): every leaf's unit combines its terminals,
# spine S = root mod m combines the leaves and the root terminal's own contribution (spines have
# no terminals), the multicast goes down through S; depth 1.  v(2,2,2): root 0 on leaf 0, S =
# router 2, fan-in 3 (leaf 0's result of terminal 1, leaf 1's, the root's); 1000 B = 4 chunks,
# per chunk 3 results, 2 combines of F data flits (125 over the 4), 4 copies (leaf 0: a plain
# one to terminal 1; leaf 1: an MC copy replicated to terminals 2 and 3)
S=clos:m=2,n=2,r=2
P=clos:m=5,n=3,r=4
for r in sum sum64 min max minu maxu and or xor; do
    for op in allreduce reduce; do
        j=$(c --topo $S --op $op --bytes 1000 --reduce-op $r)
        jcheck "clos222-$op-$r" "$j" '.verified==true and .root_router==2 and .tree_depth==1 and .max_fan_in==3 and .coded_packets==12 and .combined_flits==375 and .mc_copies==16'
        j=$(c --topo $P --op $op --bytes 1000 --reduce-op $r)
        jcheck "clos534-$op-$r" "$j" '.verified==true and .root_router==4 and .tree_depth==1 and .max_fan_in==5 and .coded_packets==20 and .combined_flits==1375 and .mc_copies==60'
    done
done
# every link once per chunk: on v(5,3,4) leaf 0 sends its result and the root's contribution up
# (2F), leaves 1-3 one result each (3F), the spine the result down to the root (F), the root its
# multicast up (F+1: one mask flit), the spine an MC copy down to each leaf (4(F+1)): 11F + 5 per
# chunk, F = 34 (three chunks) and 31 = 1483; a reduce multicasts an 8-byte acknowledgement (3+1
# flits, 5 times): 6F + 20 = 878
jcheck clos534-allreduce-links "$(c --topo $P --op allreduce --bytes 1000)" '.link_flits==1483'
jcheck clos534-reduce-links "$(c --topo $P --op reduce --bytes 1000)" '.link_flits==3*(6*34+5*4)+(6*31+5*4)'
# a reduce rooted at terminal 7 (leaf 2): spine 7 mod 5 = 2 (router 6)
jcheck clos534-reduce-root "$(c --topo $P --op reduce --bytes 1024 --from 7)" '.verified==true and .root==7 and .root_router==6 and .max_fan_in==5'
# 16 KiB: within 15% of the model on both (measured 19332 / 22558 and 14871 / 15148 cycles); the
# model is the one-lane unit's (--router lanes=1): with a clos's default lanes (4) the result's
# copies leave the units together, 15836 cycles, the same link flits
jcheck clos534-model "$(c --topo $P --op allreduce --bytes 16384 --router lanes=1)" '.verified==true and .chunks==64 and (.cycles / .model_cycles - 1 | fabs) < 0.15 and .model_bound=="the window"'
jcheck clos534-lanes "$(c --topo $P --op allreduce --bytes 16384)" '.verified==true and .chunks==64 and .cycles==15839 and .link_flits==24256'
jcheck clos222-model "$(c --topo $S --op allreduce --bytes 16384)" '.verified==true and (.cycles / .model_cycles - 1 | fabs) < 0.05'
# a terminal that does not join (terminal 4, leaf 1): the spine's group never completes
XNOC_TEST_ABSENT=4 $XNOC collective --algo innet --topo $P --op allreduce --bytes 1024 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -qx "xnoc collective: cycle [0-9]*: coding unit of router 4 (address 16): coding group incomplete at the time-out (--router timeout); slot 0, tag 0x6000, 4 of 5 contributions (error bits 0x10)" "$TMP/err"
then ok clos-absent-terminal; else fail clos-absent-terminal "exit $rc: $(head -2 "$TMP/err")"; fi
XNOC_TEST_CORRUPT=6:100 $XNOC collective --algo innet --topo $P --op allreduce --bytes 1024 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -qx "xnoc collective: node 6: word 25 of the allreduce is 0x[0-9a-f]*, the host's reduction 0x[0-9a-f]*" "$TMP/err"
then ok clos-corrupt-caught; else fail clos-corrupt-caught "exit $rc: $(head -2 "$TMP/err")"; fi

# dragonfly: the octagon's rule, the routing table's (minimal local-global-local) routes from the
# root walked backwards.  dragonfly:a=2,p=1,h=1 (6 routers, 1 terminal each): every router's
# tree is 3 deep, root router 0; router 0's unit combines its terminal, router 1 (local) and
# router 2 (global): fan-in 3.  Per chunk 6 results, 5 combines (5 x 125 flits over 4 chunks)
D=dragonfly:a=2,p=1,h=1
DL=dragonfly:a=4,p=2,h=2
for r in sum sum64 min max minu maxu and or xor; do
    for op in allreduce reduce; do
        j=$(c --topo $D --op $op --bytes 1000 --reduce-op $r)
        jcheck "df-$op-$r" "$j" '.verified==true and .root==0 and .tree_depth==3 and .max_fan_in==3 and .coded_packets==24 and .combined_flits==625 and .mc_copies==32'
        j=$(c --topo $DL --op $op --bytes 1000 --reduce-op $r)
        jcheck "df-large-$op-$r" "$j" '.verified==true and .root==0 and .tree_depth==3 and .max_fan_in==7 and .coded_packets==144 and .combined_flits==8875'
    done
done
jcheck df-reduce-root "$(c --topo $D --op reduce --bytes 1024 --from 5)" '.verified==true and .root==5 and .root_router==5 and .tree_depth==3 and .link_flits==752'
# 16 KiB on the 72-terminal dragonfly: within 15% of the model (measured 27624 / 31550 cycles)
jcheck df-large-model "$(c --topo $DL --op allreduce --bytes 16384)" '.verified==true and (.cycles / .model_cycles - 1 | fabs) < 0.15 and .model_bound=="the window"'

# mesh:8x8, 16 KiB (the issue's figure): within 10% of the model (the issue
# asks for 1.5x), which the window bounds
j=$(c --topo mesh:8x8 --op allreduce --reduce-op sum --bytes 16384)
jcheck mesh8x8-16k "$j" '.verified==true and .tree_depth==8 and .chunks==64'
jcheck mesh8x8-model "$j" '(.cycles / .model_cycles - 1 | fabs) < 0.1 and .model_bound=="the window"'

# a wrong result is caught: one bit flipped at terminal 6's ejection (not the root, which would pass it on to all)
XNOC_TEST_CORRUPT=6:100 $XNOC collective --algo innet --topo mesh:4x4 --op allreduce --bytes 1024 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -qx "xnoc collective: node 6: word 25 of the allreduce is 0x[0-9a-f]*, the host's reduction 0x[0-9a-f]*" "$TMP/err"
then ok corrupt-caught; else fail corrupt-caught "exit $rc: $(head -2 "$TMP/err")"; fi

# a terminal that does not join: its router's group never completes, so
# neither does the root's; the root's unit times out (--router timeout,
# 100,000 cycles) naming the router, the group (tag) and what arrived
XNOC_TEST_ABSENT=6 $XNOC collective --algo innet --topo mesh:4x4 --op allreduce --bytes 1024 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -qx "xnoc collective: cycle [0-9]*: coding unit of router 5 (address 21): coding group incomplete at the time-out (--router timeout); slot 0, tag 0x6000, 4 of 5 contributions (error bits 0x10)" "$TMP/err"
then ok absent-terminal; else fail absent-terminal "exit $rc: $(head -2 "$TMP/err")"; fi

# refusals: one line, exit 2, before any network is built
x() { $XNOC collective --algo innet "$@"; }
check_fail bad-reduce-op 2 "^xnoc collective: --reduce-op: unknown operator 'avg' \(sum, sum64, prod, prod64, min, max, minu, maxu, and, or, xor\)$" x --topo mesh:4x4 --op allreduce --reduce-op avg
check_fail unit-func-name 2 "unknown operator 'mul32'" x --topo mesh:4x4 --op allreduce --reduce-op mul32
check_fail lane-32 2 "^xnoc collective: --bytes 6: --reduce-op sum combines 32-bit lanes, use a multiple of 4$" x --topo mesh:4x4 --op allreduce --bytes 6
check_fail lane-64 2 "^xnoc collective: --bytes 12: --reduce-op sum64 combines 64-bit lanes, use a multiple of 8$" x --topo mesh:4x4 --op allreduce --bytes 12 --reduce-op sum64
check_fail no-units 2 "^xnoc collective: --algo innet: the routers have no coding units \(--router ncu=0\); use --algo sched, tree or rd$" x --topo mesh:8x8 --router ncu=0 --op allreduce
check_fail xor-only-units 2 "^xnoc collective: --reduce-op sum: the units were built with --router ncu_ops=xor" x --topo mesh:4x4 --router ncu_ops=xor --op allreduce
check_fail not-reduction 2 "^xnoc collective: --algo innet: --op bcast is not a reduction \(reduce or allreduce\)$" x --topo mesh:4x4 --op bcast
check_fail allreduce-root 2 "^xnoc collective: --from: an allreduce has no root to choose" x --topo mesh:4x4 --op allreduce --from 3
check_fail bad-root 2 "^xnoc collective: --from '16': the root is one terminal, 0..15$" x --topo mesh:4x4 --op reduce --from 16
check_fail one-slot 2 "^xnoc collective: --algo innet: --router slots=1, a window of one chunk needs 2 slots$" x --topo mesh:4x4 --router slots=1 --op reduce
check_fail innet-schedule 2 "^xnoc collective: --algo innet and --op scan take" x --topo mesh:4x4 --op reduce --to 1
check_fail innet-no-op 2 "^xnoc collective: --op is required: reduce, allreduce or reducescatter with --algo innet$" x --topo mesh:4x4
# the software reduce keeps its option (--redop) and has the same vocabulary and message
check_fail software-redop 2 "^xnoc collective: --redop: unknown operator 'avg' \(sum, sum64, prod, prod64, min, max, minu, maxu, and, or, xor\)$" $XNOC collective --topo octagon --op reduce --redop avg
check_fail software-reduce-lane 2 "^xnoc collective: --bytes 12: --reduce-op prod64 combines 64-bit lanes, use a multiple of 8$" $XNOC collective --topo octagon --op reduce --reduce-op prod64 --bytes 12

# ---- streaming units (--router stream=1, docs/network-coding.md "Streaming reduction") ----
# every operator, allreduce (4 chunks, the last one short) and reduce, every word verified
for r in sum sum64 prod min max minu maxu and or xor; do
    j=$(c --topo mesh:4x4 --router stream=1 --op allreduce --bytes 1000 --reduce-op $r)
    jcheck "stream-allreduce-$r" "$j" ".verified==true and .chunks==4 and .window==256"
    j=$(c --topo mesh:4x4 --router stream=1 --op reduce --bytes 64 --reduce-op $r)
    jcheck "stream-reduce-$r" "$j" ".verified==true and .chunks==1"
done
# The tree in the counters (mesh:4x4, 1 KiB = 4 chunks of 32 data flits). Per
# chunk: 16 results (64); 31 contributions (16 terminals, 15 children) in 16
# groups, 15 x 32 flits combined into another (1920); the root's unit
# multicasts to all 16 terminals (the root terminal sends nothing down): 7
# MC copies to units and 16 plain ones (92); absorbed: 31 contributions and
# 1 + 7 replicates (156)
j=$(c --topo mesh:4x4 --router stream=1 --op allreduce --bytes 1024)
jcheck stream-counters "$j" '.verified==true and .coded_packets==64 and .combined_flits==1920 and .mc_copies==92 and .unit_packets_absorbed==156'
# a reduce's root in a corner (depth 6), other data, a long pipeline (256 chunks in flight at once)
j=$(c --topo mesh:4x4 --router stream=1 --op reduce --bytes 1024 --from 0 --seed 7)
jcheck stream-reduce-corner "$j" '.verified==true and .root==0 and .tree_depth==6'
j=$(c --topo mesh:4x4 --router stream=1 --op allreduce --bytes 65536 --reduce-op sum64)
jcheck stream-many-chunks "$j" '.verified==true and .chunks==256 and .coded_packets==256*16'
# mesh:8x8, 16 KiB sum (the issue's figures, docs/collectives-results.md
# "Streaming units"): the same link flits as the slot units, in 3,954 cycles
# (allreduce: at most 4,096, 4 bytes per cycle); a reduce's chunks are as long
# as the lanes take (smax=256 flits: 8 chunks of 2 KiB), 2,794 cycles (at most
# 3,000); with 256-byte chunks (smax=32) 3,737, as before the lanes had a limit
# of their own
j=$(c --topo mesh:8x8 --router stream=1 --op allreduce --reduce-op sum --bytes 16384)
jcheck stream-mesh8x8-allreduce "$j" '.verified==true and .cycles==3954 and .link_flits==280192 and .chunks==64'
j=$(c --topo mesh:8x8 --router stream=1 --op reduce --reduce-op sum --bytes 16384)
jcheck stream-mesh8x8-reduce "$j" '.verified==true and .cycles==2794 and .chunks==8 and .chunk_bytes==2048'
j=$(c --topo mesh:8x8 --router stream=1,smax=32 --op reduce --reduce-op sum --bytes 16384)
jcheck stream-mesh8x8-reduce-smax32 "$j" '.verified==true and .cycles==3737 and .chunks==64'
# a reduce's chunk past ncmax (1 KiB against 256 bytes), the last one short, every operator
for r in sum prod max xor; do
    j=$(c --topo mesh:4x4 --router stream=1,smax=128 --op reduce --bytes 2600 --reduce-op $r)
    jcheck "stream-reduce-long-$r" "$j" '.verified==true and .chunks==3 and .chunk_bytes==1024'
done
check_fail stream-smax-chunks 2 "^xnoc collective: --bytes 65536: 512 chunks of 128 bytes \(--router smax=16\), at most 256$" x --topo mesh:4x4 --router stream=1,smax=16 --op reduce --bytes 65536
check_fail stream-smax-range 2 "^xnoc collective: --router: smax=0 is out of range 1..1024 \(flits: the longest streaming packet\)$" x --topo mesh:4x4 --router stream=1,smax=0 --op reduce
# a terminal that does not join: the root's combiner times out (slot 15: no slot)
XNOC_TEST_ABSENT=6 $XNOC collective --algo innet --topo mesh:4x4 --op allreduce --bytes 1024 --router stream=1,timeout=2000 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -qx "xnoc collective: cycle [0-9]*: coding unit of router 5 (address 21): coding group incomplete at the time-out (--router timeout); slot 15, tag 0x6000, 4 of 5 contributions (error bits 0x10)" "$TMP/err"
then ok stream-absent-terminal; else fail stream-absent-terminal "exit $rc: $(head -2 "$TMP/err")"; fi
# a torus streams on the tree of its routes (wrap-around links and all; tests/innet_stream.t.sh has more)
j=$(c --topo torus:4x4 --router stream=1 --op allreduce --bytes 1024)
jcheck stream-torus "$j" '.verified==true and .root==5 and .tree_depth==4 and .coded_packets==4*16'
check_fail stream-lanes 2 "^xnoc collective: --router stream=1 needs coding units with a lane per router port and lane 0 \(ncu=1, lanes=6 on mesh:4x4\)$" x --topo mesh:4x4 --router stream=1,lanes=3 --op allreduce
check_fail stream-range 2 "^xnoc collective: --router: stream=2 is out of range 0..1" x --topo mesh:4x4 --router stream=2 --op allreduce

# ---- scan (prefix reduction) on the cores: recursive doubling ----
# every operator, inclusive and exclusive; node i's result against the
# host's prefix over nodes 0..i (0..i-1; node 0: the identity)
for r in sum sum64 prod prod64 min max minu maxu and or xor; do
    for op in scan exscan; do
        j=$($XNOC collective --json --topo mesh:4x4 --op $op --bytes 1024 --reduce-op $r 2>"$TMP/stderr")
        jcheck "$op-$r" "$j" ".verified==true and .algo==\"rd\" and .steps==4"
    done
done
j=$($XNOC collective --json --topo fat-octagon --op exscan --bytes 4096 --reduce-op min --algo rd)
jcheck exscan-fat-octagon "$j" '.verified==true and .steps==4'
j=$($XNOC collective --json --topo mesh:4x4 --router ncu=0 --op scan --bytes 64)
jcheck scan-no-units "$j" '.verified==true'
# the model: within 10% at 16 KiB on mesh:8x8 (the cores' combining: 6 steps of 4096 words)
j=$($XNOC collective --json --topo mesh:8x8 --op scan --bytes 16384)
jcheck scan-model "$j" '.verified==true and .steps==6 and (.cycles / .model_cycles - 1 | fabs) < 0.1'
XNOC_TEST_CORRUPT=6:100 $XNOC collective --topo mesh:4x4 --op scan --bytes 1024 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -qx "xnoc collective: node 6: word 25 of the scan is 0x[0-9a-f]*, the host's prefix 0x[0-9a-f]*" "$TMP/err"
then ok scan-corrupt-caught; else fail scan-corrupt-caught "exit $rc: $(head -2 "$TMP/err")"; fi
check_fail scan-root 2 "^xnoc collective: --from: a scan has no root" $XNOC collective --topo mesh:4x4 --op scan --from 2
# (--algo innet: tests/scan.t.sh)
check_fail scan-lane 2 "^xnoc collective: --bytes 12: --reduce-op sum64 combines 64-bit lanes, use a multiple of 8$" $XNOC collective --topo mesh:4x4 --op scan --bytes 12 --reduce-op sum64

# the text report
$XNOC collective --algo innet --topo mesh:4x4 --op allreduce --bytes 1024 >"$TMP/out" 2>&1
if grep -qx "innet allreduce on mesh:4x4, 1024 bytes, --reduce-op sum (unit operator add32): verified byte-exact" "$TMP/out" &&
   grep -q "^  model: round trip [0-9]* + 3 x [0-9.]* per chunk (bound: " "$TMP/out"
then ok text-report; else fail text-report "$(head -3 "$TMP/out")"; fi
