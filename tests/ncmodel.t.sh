# ncmodel: the hop-count model of the all-to-all broadcast with hierarchical
# network coding (coll/ncmodel.h), against hand counts and the paper's figures
source tests/lib.sh

m() { $XNOC ncmodel --json "$@" 2>"$TMP/stderr"; }

# hand counts: XOR binomial tree, farthest partner first, on mesh:4x4 is
# 1x2 + 2x1 + 4x2 + 8x1 = 20 hops per source; all pairs of a 4-line: 20
jcheck conv-tree-4x4 "$(m --topo mesh:4x4 --group-shape 2x2)" '.conventional_hops==320 and .conventional_unicasts==240'
jcheck conv-aao-4x4 "$(m --topo mesh:4x4 --multicast all-at-once --group-shape 2x2)" '.conventional_hops==640'
jcheck conv-aao-torus-4x4 "$(m --topo torus:4x4 --multicast all-at-once --group-shape 2x2)" '.conventional_hops==512'
# the coded scheme on mesh:4x4 in 2x2 groups, counted by hand: a tree in a
# group costs 1x1 (y bit) + 2x1 (x bit) = 3 hops; between the four INs
# (2 apart) 1x2 + 2x2 = 6; the 12 ordered group pairs are 2 or 4 apart, 32
# in all: B 16 x 3, D 4 x 6, E 4 x 3 x 3, F 4 x 32
jcheck coded-4x4-2x2 "$(m --topo mesh:4x4 --group-shape 2x2)" '.hops_b==48 and .hops_d==24 and .hops_e==36 and .hops_f==128 and .coded_hops==236 and .num_groups==4 and .group_size==4'
j=$(m --topo mesh:8x8 --group-shape 4x2)
jcheck coded-sum "$j" '.coded_hops == .hops_b + .hops_d + .hops_e + .hops_f and .unicasts == 64*7 + 8*7 + 8*7*7 + 64*7'
# the paper: 2.7 million conventional hops on 32x32 (Sect. 1, Fig. 2)
j=$(m --topo mesh:32x32 --multicast tree --group-shape best)
jcheck paper-conventional-32 "$j" '.conventional_hops==2703360 and (.conventional_hops/2.7e6 - 1 | fabs) < 0.05'
jcheck best-32 "$j" '.group_shape=="4x32" and .coded_hops==311040'
# its recommended 32-node group (4x8) gives the paper's 0.67 million within 15%
jcheck paper-coded-32-4x8 "$(m --topo mesh:32x32 --group-shape 4x8)" '.coded_hops==767616 and (.coded_hops/0.67e6 - 1 | fabs) < 0.15'
# the best group size on 16x16 is the paper's 32 (Fig. 6)
jcheck paper-best-group-16 "$(m --topo mesh:16x16)" '.group_size==32 and .coded_hops==25920'
# 94% fewer hops on the 4096-switch network (Sect. 1)
jcheck paper-4096 "$(m --topo mesh:64x64)" '.reduction > 0.93 and .reduction < 0.95'
j=$(m --topo mesh:16x16 --sweep)
jcheck sweep-16 "$j" '(.shapes|length)==23 and ([.shapes[].coded_hops]|min)==.coded_hops'
jcheck torus-16 "$(m --topo torus:16x16)" '.coded_hops < .conventional_hops and .g_hops <= 16'
jcheck aao-256 "$(m --topo mesh:256x256 --multicast all-at-once --group-shape 16x16)" '.reduction > 0.99'
check_fail tree-not-pow2 2 "needs power-of-two sides" $XNOC ncmodel --topo mesh:6x6
check_fail bad-shape 2 "must divide 8x8" $XNOC ncmodel --topo mesh:8x8 --group-shape 3x2
check_fail whole-network 2 "at least two groups" $XNOC ncmodel --topo mesh:8x8 --group-shape 8x8
check_fail too-big 2 "sides must be 1..256" $XNOC ncmodel --topo mesh:512x512
check_fail octagon 2 "mesh:WxH or torus:WxH" $XNOC ncmodel --topo octagon
check_fail bad-multicast 2 "unknown 'flood' \\(tree, all-at-once\\)" $XNOC ncmodel --topo mesh:4x4 --multicast flood
check_fail no-size 2 "no group shape of that --group-size" $XNOC ncmodel --topo mesh:4x4 --group-size 3

# the model against the RTL's link counters: the same collective run in
# firmware (every byte verified) crosses exactly the links the model counts
# (hops = flits on router-to-router links / flits per packet)
for t in mesh:4x4 mesh:8x8 torus:4x4; do
    for mc in tree all-at-once; do
        want=$(m --topo $t --multicast $mc --group-shape 2x2 | jq '[.conventional_hops, .conventional_unicasts]' -c)
        j=$($XNOC collective --json --topo $t --op allgather --algo $mc --bytes 64 2>"$TMP/stderr")
        jcheck "rtl-hops-$t-$mc" "$j" ".verified==true and ([.hops, .unicasts] == $want)"
    done
done
check_fail tree-allgather-not-pow2 2 "tree allgather needs a power-of-two number of members" $XNOC collective --topo mesh:3x2 --op allgather --algo tree

# --algo hnc: the coded scheme itself, run in firmware on the RTL network.
# Its transfers cross exactly the links the model counts (hops = the model's
# coded hops, link counters = the flits those hops imply), and every byte
# every node decodes is checked against the pattern.
hnc() { $XNOC collective --json --op allgather --algo hnc "$@" 2>"$TMP/stderr"; }
for t in mesh:4x4 mesh:8x8 torus:4x4; do
    for mc in tree all-at-once; do
        for shape in 2x2 4x2; do
            want=$(m --topo $t --multicast $mc --group-shape $shape | jq -c '[.coded_hops, .unicasts]')
            j=$(hnc --topo $t --multicast $mc --group-shape $shape --bytes 64)
            jcheck "rtl-hnc-$t-$mc-$shape" "$j" ".verified==true and .link_flits==.link_flits_expected and ([.hops, .unicasts] == $want) and .model_hops == $want[0]"
        done
    done
done
# the model's best shape by default, XOR in the units; the same hops with the XOR on the cores
j=$(hnc --topo mesh:8x8 --bytes 64)
jcheck hnc-default-shape "$j" '.group_shape=="2x8" and .xor=="unit" and .multicast=="tree" and .hops==2192 and .num_groups==4 and .group_size==16'
j2=$(hnc --topo mesh:8x8 --bytes 64 --xor core)
jcheck hnc-core-same-traffic "$j2" ".verified==true and .xor==\"core\" and .link_flits==$(jq .link_flits <<<"$j") and .cycles_per_phase.C > 0 and .cycles_per_phase.G > 0 and .delivery_cycles == .cycles - .cycles_per_phase.G"
# units: every coded message of every chunk made by a unit (600 bytes = 3 chunks of at most 256):
# 4 INs x 15 pairs x 3 chunks results, 2 contributions each
j=$(hnc --topo mesh:8x8 --bytes 600)
jcheck hnc-chunks "$j" '.verified==true and .cycles_per_phase.C > 0'
# 8x8 and 1 KiB: fewer flits on router-to-router links than the tree-based broadcast, every byte verified
jt=$($XNOC collective --json --topo mesh:8x8 --op allgather --algo tree --bytes 1024 2>"$TMP/stderr")
jh=$(hnc --topo mesh:8x8 --bytes 1024)
jcheck hnc-fewer-flits-8x8 "$jh" ".verified==true and .link_flits < $(jq .link_flits <<<"$jt") and .hops==2192 and $(jq .hops <<<"$jt")==6912"
# a flipped bit in a coded bundle is caught in the decoded data: node 1 of
# mesh:4x4 (2x4 groups) takes 512 bytes of data in B and F, then group 1's
# bundle (7 x 64 bytes)
XNOC_TEST_CORRUPT=1:600 hnc --topo mesh:4x4 --group-shape 2x4 --bytes 64 >"$TMP/out.json"
jcheck hnc-corrupt-bundle "$(cat "$TMP/out.json")" '.verified==false and (.error | test("node 1: message [0-9]+ \\(from terminal [0-9]+, decoded\\) byte"))'
XNOC_TEST_CORRUPT=1:10 hnc --topo mesh:4x4 --group-shape 2x4 --bytes 64 >"$TMP/out.json"
jcheck hnc-corrupt-data "$(cat "$TMP/out.json")" '.verified==false'
check_fail hnc-no-units 2 "--xor unit: the routers have no coding units" $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --xor unit --router ncu=0
check_fail hnc-bad-shape 2 "--group-shape 3x2 must tile 4x4" $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --group-shape 3x2
check_fail hnc-one-group 2 "at least two groups" $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --group-shape 4x4
check_fail hnc-shape-syntax 2 "expected GWxGH" $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --group-shape big
check_fail hnc-not-pow2 2 "power-of-two sides" $XNOC collective --topo mesh:3x2 --op allgather --algo hnc
check_fail hnc-bcast 2 "hnc is an all-to-all broadcast" $XNOC collective --topo mesh:4x4 --op bcast --algo hnc
check_fail hnc-subset 2 "drop --from/--to" $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --from 0-3
check_fail hnc-octagon 2 "2-D mesh or torus" $XNOC collective --topo octagon --op allgather --algo hnc
check_fail hnc-3d 2 "2-D mesh or torus" $XNOC collective --topo torus:2x2x2 --op allgather --algo hnc
check_fail hnc-options-elsewhere 2 "options of --algo hnc" $XNOC collective --topo mesh:4x4 --op allgather --algo tree --xor core
check_fail hnc-bad-xor 2 "--xor 'gpu'" $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --xor gpu
check_fail hnc-bad-multicast 2 "--multicast 'flood'" $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --multicast flood
jcheck hnc-k2 "$(hnc --topo mesh:4x4 --bytes 256 --ports 2)" '.verified==true and .ports==2 and .hops==180'
jcheck hnc-data-driven "$(hnc --topo mesh:4x4 --bytes 256 --sync data)" '.verified==true and .sync=="data"'
jcheck hnc-odd-bytes "$(hnc --topo mesh:4x4 --bytes 13 --xor core --multicast all-at-once)" '.verified==true and .link_flits==.link_flits_expected'
# a bundle travels as one packet: too large a one is refused before the run, with the size that fits
check_fail hnc-bundle-too-big 2 "a bundle of 7 coded messages of 16384 bytes is 114688 bytes, more than one packet takes \\(65536\\): use --bytes 9360 or less" \
    $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --bytes 16384
# the text report is the JSON report rendered (util/report.h): the coded line and every sweep row agree
j=$($XNOC ncmodel --json --topo torus:16x16 --sweep)
h=$($XNOC ncmodel --topo torus:16x16 --sweep)
want=$(printf '%s' "$j" | jq -r '"coded, groups \(.group_shape) (\(.num_groups) groups of \(.group_size)", (.shapes[] | "\(.group_shape) \(.group_size) \(.num_groups) \(.m_d1) \(.m_d2) \(.m_hops) \(.g_d1) \(.g_d2) \(.g_d1_hops) \(.g_d2_hops) \(.g_hops) \(.coded_hops) (\(.intermediate_node[0]),\(.intermediate_node[1]))\(if .best then " best" else "" end)")')
got=$(printf '%s\n' "$h" | sed -n 's/^  \(coded, groups [0-9x]* ([0-9]* groups of [0-9]*\),.*/\1/p; /^  [0-9]*x[0-9]* /{s/^ *//;s/  */ /g;p}')
if [ -n "$want" ] && [ "$want" = "$got" ] && printf '%s' "$j" | jq -e '(.shapes|length) > 3' >/dev/null; then
    ok ncmodel-text-from-json; else fail ncmodel-text-from-json "json: $(echo $want | head -c 200) text: $(echo $got | head -c 200)"; fi

# ---- intermediate-node placement (--in-position; docs/network-coding.md
# "Where the intermediate nodes sit") ----
# Fig. 15 on mesh:16x16 with the paper's boundary placement: every row's
# M-d1 M-d2 M-hops G-d1 G-d2 G-d1-hops G-d2-hops G-hops.  The paper prints G-d1
# beside M-d2 (its 2-node row: M-d1 1, M-d2 2, G-d1 8, G-d2 16); xnoc's G-dN
# are the groups along dimension N, so the paper's G columns appear swapped
# in the rows where the sides differ, the hops and totals the same.
j=$(m --topo mesh:16x16 --sweep --in-position boundary)
row() { jq -c --arg s "$1" '.shapes[]|select(.group_shape==$s)|[.m_d1,.m_d2,.m_hops,.g_d1,.g_d2,.g_d1_hops,.g_d2_hops,.g_hops]' <<<"$j"; }
fig15_ok=1 fig15_got=""
for r in "1x2 [1,2,1,16,8,15,13,28]" "2x2 [2,2,2,8,8,13,13,26]" "2x4 [2,4,4,8,4,13,9,22]" "4x4 [4,4,6,4,4,9,9,18]" \
         "4x8 [4,8,10,4,2,9,1,10]" "8x8 [8,8,14,2,2,1,1,2]" "8x16 [8,16,22,2,1,1,0,1]"; do
    got=$(row ${r% *}); fig15_got+="${r% *} $got "
    [ "$got" = "${r#* }" ] || fig15_ok=0
done
if [ $fig15_ok = 1 ]; then ok fig15-boundary; else fail fig15-boundary "$fig15_got"; fi
jcheck fig15-best-row "$j" '([.shapes[]|select(.best)]|length)==1 and ([.shapes[]|select(.best)][0].group_shape==.group_shape) and .group_size==32 and .coded_hops==25888 and .in_position=="boundary"'
# the corner placement (the default) misses every row by 1 to 14 hops: 29 28 26 24 20 16 8
jc=$(m --topo mesh:16x16 --sweep)
jcheck fig15-corner "$jc" '[.shapes[]|select(.group_shape|IN("1x2","2x2","2x4","4x4","4x8","8x8","8x16"))|.g_hops]==[29,28,26,24,20,16,8] and .in_position=="corner"'
# the best placement for aggregate hops on 16x16 trees is the boundary, shape by shape
jb=$(m --topo mesh:16x16 --sweep --in-position best)
jcheck best-is-boundary-16 "$jb" "[.shapes[].coded_hops]==$(jq -c '[.shapes[].coded_hops]' <<<"$j") and .in_position==\"best\""
# hand count, mesh:4x4 in 2x2 groups, INs at the centre (1,1) (2,1) (1,2) (2,2):
# D's tree costs 1x1 (y bit) + 2x1 (x bit) = 3 per IN instead of 6: 4 x 3 = 12
jcheck boundary-4x4-2x2 "$(m --topo mesh:4x4 --group-shape 2x2 --in-position boundary)" '.hops_d==12 and .coded_hops==224 and .intermediate_node==[1,1] and .g_hops==2 and .intermediate_nodes.rule==["mirrored pairs","mirrored pairs"]'
# the best group size on mesh:4x4 is the paper's 4 (2x2, M-hops = G-hops = 2)
# under its own criterion, the balance of the longest paths (--objective
# longest); by aggregate hops it is 8 (2x4), with either placement
jcheck paper-best-4x4 "$(m --topo mesh:4x4 --in-position boundary --objective longest)" '.group_size==4 and .group_shape=="2x2" and .m_hops==2 and .g_hops==2 and .intermediate_node==[1,1] and .objective=="longest"'
jcheck best-4x4-hops "$(m --topo mesh:4x4 --in-position boundary)" '.group_shape=="2x4" and .coded_hops==178 and .g_hops==1'
jcheck best-4x4-corner "$(m --topo mesh:4x4)" '.group_shape=="2x4" and .coded_hops==180 and .g_hops==2'
jcheck paper-best-16-longest "$(m --topo mesh:16x16 --in-position boundary --objective longest)" '.group_size==32 and .m_hops==10 and .g_hops==10'
# all-at-once on mesh:8x8 in 4x4 groups: D sums IN-to-IN distances, E the
# IN's distances to its group.  corner D 64 E 576; median (1,1) E 384;
# boundary D 16 (INs 1 apart per dimension) but E 576; best: mirrored with
# offset 1 (INs at 2 and 5 of each 8-line): D 48, E 384
for r in "corner 4224 64 576" "median 4032 64 384" "boundary 4176 16 576" "best 4016 48 384"; do
    set -- $r
    jcheck "aao-place-$1" "$(m --topo mesh:8x8 --multicast all-at-once --group-shape 4x4 --in-position $1)" ".coded_hops==$2 and .hops_d==$3 and .hops_e==$4"
done
# best is never worse than the rules it searches, shape by shape
for t in mesh:8x8 torus:8x8 mesh:16x16; do
    for mc in tree all-at-once; do
        b=$(m --topo $t --multicast $mc --sweep --in-position best | jq -c '[.shapes[].coded_hops]')
        jcheck "best-le-$t-$mc" "$(m --topo $t --multicast $mc --sweep --in-position boundary)" "[.shapes|to_entries[]|.value.coded_hops >= $b[.key]]|all"
        jcheck "best-le-corner-$t-$mc" "$(m --topo $t --multicast $mc --sweep)" "[.shapes|to_entries[]|.value.coded_hops >= $b[.key]]|all"
    done
done
check_fail bad-in-position 2 "^xnoc ncmodel: --in-position: unknown 'middle' \\(corner, median, boundary, best\\)$" $XNOC ncmodel --topo mesh:4x4 --in-position middle
check_fail bad-objective 2 "^xnoc ncmodel: --objective: unknown 'fast' \\(hops, longest\\)$" $XNOC ncmodel --topo mesh:4x4 --objective fast

# ---- message combining (--algo combine, Sect. 6.5) in the model ----
# mesh:4x4, 2x2 groups, trees: B 48, D 24, E 36 as the coded scheme, no F;
# unicasts 16x3 + 12 + 12x3; every D/E unicast carries the group's 4 data
jcheck combine-4x4-2x2 "$(m --topo mesh:4x4 --group-shape 2x2 --algo combine)" '.hops_b==48 and .hops_d==24 and .hops_e==36 and .hops_f==0 and .coded_hops==108 and .unicasts==96 and .payload_hops==288 and .algo=="combine"'
jcheck coded-payload-4x4-2x2 "$(m --topo mesh:4x4 --group-shape 2x2)" '.payload_hops==48 + 3*(24+36) + 128 and .algo=="coded"'
j=$(m --topo mesh:16x16 --group-shape 4x8 --in-position boundary --algo combine)
jcheck combine-16-g32 "$j" '.coded_hops==13896 and .payload_hops==95488 and .unicasts==9728'
check_fail bad-algo 2 "^xnoc ncmodel: --algo: unknown 'xor' \\(coded, combine\\)$" $XNOC ncmodel --topo mesh:4x4 --algo xor

# ---- the same placements and combining on the RTL: hops = the model's ----
for t in mesh:4x4 mesh:8x8 torus:4x4; do
    for mc in tree all-at-once; do
        for a in hnc combine; do
            mo=coded alg=""; [ $a = combine ] && mo=combine alg="--algo combine"
            want=$(m --topo $t --multicast $mc --group-shape 4x2 --in-position boundary --algo $mo | jq -c '[.coded_hops, .unicasts, .intermediate_node]')
            j=$(hnc --topo $t --multicast $mc --group-shape 4x2 --bytes 64 --in-position boundary $alg)
            jcheck "rtl-$a-boundary-$t-$mc" "$j" ".verified==true and .link_flits==.link_flits_expected and ([.hops, .unicasts, .intermediate_position] == $want) and .in_position==\"boundary\" and .algo==\"$a\""
        done
    done
done
want=$(m --topo mesh:8x8 --multicast all-at-once --group-shape 4x4 --in-position best | jq -c '[.coded_hops, .intermediate_node]')
jcheck rtl-hnc-best-8x8-aao "$(hnc --topo mesh:8x8 --multicast all-at-once --group-shape 4x4 --in-position best --bytes 64)" ".verified==true and ([.hops, .intermediate_position] == $want) and .hops==4016"
