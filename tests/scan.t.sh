# scan: the in-network scan through the routers' streaming units
# (xnoc collective --op scan|exscan --algo innet --router stream=1,
# firmware/coll/innet_stream.c coll_innet_scan_stream, docs/network-coding.md
# "In-network scan"): every node's result against the host's prefix, word by
# word, for every unit operator, inclusive and exclusive, on mesh:8x8 and
# fat-octagon; the chain in the counters; the figures against the cores'
# recursive doubling; every refusal.
source tests/lib.sh
c() { $XNOC collective --json --algo innet "$@" 2>"$TMP/stderr"; }
FO="--topo fat-octagon --router stream=1,vcs=3"
M8="--topo mesh:8x8 --router stream=1"

# every unit operator, inclusive and exclusive, 64 B on both networks (exclusive:
# terminal 0 gets the operator's identity, as the cores' exscan)
for r in sum sum64 prod min max minu maxu and or xor; do
    for op in scan exscan; do
        j=$(c $M8 --op $op --bytes 64 --reduce-op $r)
        jcheck "mesh8x8-$op-$r" "$j" ".verified==true and .algo==\"innet\" and .reduce_op==\"$r\" and .chunks==1"
        j=$(c $FO --op $op --bytes 64 --reduce-op $r)
        jcheck "fat-octagon-$op-$r" "$j" ".verified==true and .algo==\"innet\" and .reduce_op==\"$r\""
    done
done
# 16 KiB (8 chunks of 2 KiB, --router smax) on both: the chain in the counters
# (mesh:8x8: 64 units, 56 one-link edges and 7 row ends of 8 links: each
# chunk's prefix, 258 flits, crosses each of the 112 links once; fat-octagon:
# 8 units round the ring, 7 links) and the cycles (docs/collectives-results.md
# "In-network scan")
j=$(c $M8 --op scan --bytes 16384)
jcheck mesh8x8-scan-16k "$j" '.verified==true and .chunks==8 and .chain_units==64 and .chain_links==112 and .chain_max_links==8 and .per_flit==2 and .link_flits==112*258*8 and .cycles==5243'
j=$(c $M8 --op exscan --bytes 16384 --reduce-op max)
jcheck mesh8x8-exscan-16k "$j" '.verified==true and .link_flits==112*258*8 and .cycles==5243'
j=$(c $FO --op scan --bytes 16384)
jcheck fat-octagon-scan-16k "$j" '.verified==true and .chain_units==8 and .chain_links==7 and .chain_max_links==1 and .per_flit==3 and .link_flits==7*258*8 and .cycles==6550'
j=$(c $FO --op exscan --bytes 16384 --reduce-op prod)
jcheck fat-octagon-exscan-16k "$j" '.verified==true and .cycles==6550'
# a message of 4 chunks (smax=32: 256 B), the last one short, and other data
j=$(c --topo mesh:4x4 --router stream=1,smax=32 --op exscan --bytes 1000 --reduce-op minu --seed 9)
jcheck mesh4x4-short-chunk "$j" '.verified==true and .chunks==4'

# faster than the cores' recursive doubling from 1 KiB (mesh:8x8: 6 steps of
# the whole message combined on the cores)
j=$(c $M8 --op scan --bytes 1024); a=$(jq -r .cycles <<<"$j")
j=$($XNOC collective --json --topo mesh:8x8 --op scan --bytes 1024 --algo rd); b=$(jq -r .cycles <<<"$j")
if [ "$a" = 1353 ] && [ "$b" = 9417 ]; then ok faster-than-cores-1k; else fail faster-than-cores-1k "innet $a, rd $b"; fi

# a corrupted result word is caught (the check can fail)
XNOC_TEST_CORRUPT=6:100 $XNOC collective --topo mesh:4x4 --op scan --algo innet --router stream=1 --bytes 1024 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -qx "xnoc collective: node 6: word 25 of the scan is 0x[0-9a-f]*, the host's prefix 0x[0-9a-f]*" "$TMP/err"
then ok scan-innet-corrupt-caught; else fail scan-innet-corrupt-caught "exit $rc: $(head -2 "$TMP/err")"; fi

# the text report
$XNOC collective --topo fat-octagon --router stream=1,vcs=3 --op exscan --algo innet --bytes 64 >"$TMP/out" 2>&1
if grep -qx "innet exscan on fat-octagon, 64 bytes, --reduce-op sum: verified byte-exact" "$TMP/out" &&
   grep -q "^  [0-9]* cycles through the streaming units: a chain of 8 units over 7 links (at most 1 an edge), 1 chunk(s), 3 packets out of a unit per data flit; model [0-9]* cycles" "$TMP/out"
then ok text-report; else fail text-report "$(head -3 "$TMP/out")"; fi

# refusals: one line, exit 2
check_fail no-stream 2 "^xnoc collective: --op scan --algo innet: the scan runs through the streaming units, --router stream=1 \(--algo rd runs it on the cores\)$" $XNOC collective --topo mesh:4x4 --op scan --algo innet
check_fail no-units 2 "^xnoc collective: --op exscan --algo innet: the scan runs through the streaming units" $XNOC collective --topo mesh:4x4 --router ncu=0 --op exscan --algo innet
check_fail fat-octagon-vcs 2 "^xnoc collective: --router vcs=2: a unit sends its prefix and its 2 terminals' results at once, one VC each: vcs=3 at least$" $XNOC collective --topo fat-octagon --router stream=1 --op scan --algo innet
check_fail prod64 2 "^xnoc collective: --reduce-op prod64: the units have no 64-bit product \(docs/synth.md\); --algo rd runs it$" $XNOC collective --topo mesh:4x4 --router stream=1 --op scan --algo innet --reduce-op prod64 --bytes 64
check_fail xor-only 2 "^xnoc collective: --reduce-op sum: the units were built with --router ncu_ops=xor" $XNOC collective --topo mesh:4x4 --router stream=1,ncu_ops=xor --op scan --algo innet
check_fail too-long 2 "^xnoc collective: --bytes 65536: 1024 chunks of 64 bytes \(--router smax=8\), at most 256$" $XNOC collective --topo mesh:4x4 --router stream=1,smax=8 --op scan --algo innet --bytes 65536
check_fail scan-tree 2 "^xnoc collective: --op exscan: --algo rd \(recursive doubling on the cores, the default\) or innet \(the routers' streaming units\), not tree$" $XNOC collective --topo mesh:4x4 --op exscan --algo tree
