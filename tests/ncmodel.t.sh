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
