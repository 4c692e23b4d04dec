# innet_stream: reduce and allreduce through the streaming units
# (--router stream=1) on three networks, mesh:8x8 (its own dimension-ordered
# tree), torus:4x4x4 and fat-octagon (the harness's tree of the root's routes,
# every edge one link: docs/network-coding.md "Streaming reduction", "Other
# networks"): every operator of --reduce-op the units have at 64 B (one
# chunk) and 4 KiB (an allreduce in 16 chunks, a reduce in 2), every word
# of every node verified (reduce: the root's); exact cycles and link flits where they pin the tree; the
# networks where the argument does not hold refused with one line; the
# reduce-scatter through the same units (coll_innet_stream_rs: the reduce,
# the root's unit sending block b's result to terminal b).
source tests/lib.sh
c() { $XNOC collective --json --algo innet --router stream=1 "$@" 2>"$TMP/stderr"; }

for t in mesh:8x8 torus:4x4x4 fat-octagon; do
    for r in sum sum64 prod min max minu maxu and or xor; do
        for b in 64 4096; do
            j=$(c --topo $t --op allreduce --bytes $b --reduce-op $r)
            jcheck "allreduce-$t-$r-$b" "$j" ".verified==true and .reduce_op==\"$r\" and .chunks==($b/256|ceil)"
            j=$(c --topo $t --op reduce --bytes $b --reduce-op $r)
            jcheck "reduce-$t-$r-$b" "$j" ".verified==true and .reduce_op==\"$r\" and .chunks==($b/2048|ceil)"
        done
    done
done

# Exact figures (sum, measured at this commit; docs/collectives-results.md
# "Streaming units on other networks").  The tree in the link flits: a
# reduce's are its up-streams alone, per chunk (2 KiB, --router smax=256) one
# packet of 258 flits (head, meta, 256 data) on each of the routers - 1 tree
# edges (none of them twice, none off the tree); an allreduce (256-byte
# chunks: its result is multicast from the slots) adds the root's multicast
# down the same edges; one result per router per chunk (coded_packets).
j=$(c --topo torus:4x4x4 --op reduce --bytes 4096)
jcheck torus-reduce-4k "$j" '.verified==true and .cycles==934 and .link_flits==2*63*258 and .tree_depth==6 and .root==21'
j=$(c --topo torus:4x4x4 --op allreduce --bytes 4096)
jcheck torus-allreduce-4k "$j" '.verified==true and .cycles==1373 and .link_flits==69536 and .coded_packets==16*64'
j=$(c --topo torus:4x4x4 --op allreduce --bytes 16384)
jcheck torus-allreduce-16k "$j" '.verified==true and .cycles==3719 and .link_flits==278144'
j=$(c --topo fat-octagon --op reduce --bytes 4096)
jcheck fat-octagon-reduce-4k "$j" '.verified==true and .cycles==890 and .link_flits==2*7*258 and .tree_depth==2'
j=$(c --topo fat-octagon --op allreduce --bytes 16384)
jcheck fat-octagon-allreduce-16k "$j" '.verified==true and .cycles==3555 and .link_flits==30912'
# the mesh's figures (tests/innet.t.sh stream-mesh8x8-*: 3,954 and 2,794 at 16 KiB)
j=$(c --topo mesh:8x8 --op allreduce --bytes 4096)
jcheck mesh8x8-allreduce-4k "$j" '.verified==true and .cycles==1744'
j=$(c --topo mesh:8x8 --op reduce --bytes 4096)
jcheck mesh8x8-reduce-4k "$j" '.verified==true and .cycles==1228'
# a reduce's root elsewhere: the tree of that root's routes
j=$(c --topo torus:4x4x4 --op reduce --bytes 1024 --from 63 --seed 5)
jcheck torus-reduce-root63 "$j" '.verified==true and .root==63 and .root_router==63 and .tree_depth==6'
j=$(c --topo octagon --op allreduce --bytes 65536 --reduce-op max)
jcheck octagon-allreduce-64k "$j" '.verified==true and .chunks==256'

# refusals: the 64-bit product is the cores' alone; networks whose tree the
# streaming lanes cannot take (a child's lane is 1 + its port towards the
# parent: a clos's leaves all reach a spine through port S, a dragonfly
# group's routers reach one another through the same local port number)
check_fail prod64 2 "^xnoc collective: --reduce-op prod64: the units have no 64-bit product \(docs/synth.md\); the cores run it: --op allreduce --algo rabenseifner, ring or reduce-bcast$" $XNOC collective --algo innet --router stream=1 --topo torus:4x4x4 --op allreduce --bytes 64 --reduce-op prod64
check_fail clos 2 "^xnoc collective: --algo innet: routers 0 and 1 reach router 8's unit through the same port 0, so on one lane \(the streaming units take a child's lane from that port\)$" $XNOC collective --algo innet --router stream=1 --topo clos:m=8,n=8,r=8 --op allreduce --bytes 4096
check_fail dragonfly 2 "^xnoc collective: --algo innet: routers 1 and 2 reach router 0's unit through the same port 0, so on one lane" $XNOC collective --algo innet --router stream=1 --topo dragonfly:a=4,p=2,h=2 --op reduce --bytes 64

# ---- reduce-scatter (--op reducescatter --algo innet --router stream=1) ----
# terminal i's block i (reduce.h coll_block_off) against the host's reduction;
# blocks of at least 64 bytes (smaller ones, many packets of 3-4 flits in
# flight, deadlock the units' lanes: mesh:8x8 at 256 B and 1 KiB, as a
# reduce does with --router smax=1; refused below)
for t in mesh:8x8 torus:4x4x4 fat-octagon; do
    for r in sum sum64 prod min maxu xor; do
        for b in 4096; do
            j=$(c --topo $t --op reducescatter --bytes $b --reduce-op $r)
            jcheck "rs-$t-$r-$b" "$j" ".verified==true and .op==\"reducescatter\" and .reduce_op==\"$r\""
        done
    done
done
# exact figures (sum; docs/collectives-results.md "Reduce-scatter through the
# streaming units"): each block in chunks of its own (--router smax, 2 KiB:
# 64 KiB on 64 terminals is 64 blocks of 1 KiB, a chunk each)
j=$(c --topo mesh:8x8 --op reducescatter --bytes 16384)
jcheck rs-mesh8x8-16k "$j" '.verified==true and .cycles==7554 and .chunks==64 and .link_flits==145792'
j=$(c --topo torus:4x4x4 --op reducescatter --bytes 65536)
jcheck rs-torus-64k "$j" '.verified==true and .cycles==13046 and .chunks==64'
j=$(c --topo fat-octagon --op reducescatter --bytes 4096)
jcheck rs-fat-octagon-4k "$j" '.verified==true and .cycles==2014 and .chunks==16'
# 2000 B on 16 terminals: blocks of 31 and 32 words, not a power of two of bytes
j=$(c --topo fat-octagon --op reducescatter --bytes 2000 --reduce-op max)
jcheck rs-uneven "$j" '.verified==true and .chunks==16'
check_fail rs-small-blocks 2 "^xnoc collective: --bytes 1024: a reduce-scatter through the streaming units needs blocks of at least 64 bytes \(64 terminals: --bytes 4096 or more\); smaller ones can deadlock the units' lanes$" $XNOC collective --algo innet --router stream=1 --topo mesh:8x8 --op reducescatter --bytes 1024
check_fail rs-from 2 "^xnoc collective: --from: a reduce-scatter has no root \(every terminal gets its block\)$" $XNOC collective --algo innet --router stream=1 --topo mesh:8x8 --op reducescatter --bytes 4096 --from 3
check_fail rs-prod64 2 "the cores run it: --op reducescatter --algo halving or ring$" $XNOC collective --algo innet --router stream=1 --topo mesh:8x8 --op reducescatter --reduce-op prod64 --bytes 4096
# 64 blocks of 64 bytes in chunks of 8 (smax=1): 512 chunks
check_fail rs-chunks 2 "^xnoc collective: --bytes 4096: 512 chunks of 8 bytes \(--router smax=1; each terminal's block in chunks of its own\), at most 256$" $XNOC collective --algo innet --router stream=1,smax=1 --topo mesh:8x8 --op reducescatter --bytes 4096
