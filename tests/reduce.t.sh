# reduce: reduce-scatter and allreduce in software on the cores
# (xnoc collective --op reducescatter / allreduce, firmware/coll/reduce.c):
# every algorithm byte-exact against the host's reduction on mesh, torus,
# fat-octagon and clos, sizes that do and do not split evenly into blocks,
# every operator, the model's step count, and every refusal
# (docs/collectives.md "Software reductions").
source tests/lib.sh
c() { $XNOC collective --json "$@" 2>"$TMP/stderr"; }

# every algorithm on four networks of 16 terminals (and a 4x4x4 torus of 64),
# at a size every block gets a whole share of (1 KiB) and one where blocks differ by
# a lane and the first ones are empty (36 B = 9 words over 16 terminals)
for topo in mesh:4x4 fat-octagon clos:m=4,n=4,r=4 torus:4x4x4; do
    for b in 1024 36; do
        for a in halving ring; do
            j=$(c --topo $topo --op reducescatter --algo $a --bytes $b)
            jcheck "rs-$a-$topo-$b" "$j" ".verified==true and .algo==\"$a\" and .op==\"reducescatter\""
        done
        for a in rabenseifner ring reduce-bcast; do
            j=$(c --topo $topo --op allreduce --algo $a --bytes $b)
            jcheck "ar-$a-$topo-$b" "$j" ".verified==true and .algo==\"$a\" and .op==\"allreduce\""
        done
    done
done
# every operator (products, 64-bit lanes, unsigned and signed extremes) in each algorithm
for r in sum sum64 prod prod64 min max minu maxu and or xor; do
    j=$(c --topo mesh:4x4 --op allreduce --algo rabenseifner --bytes 512 --reduce-op $r)
    jcheck "rabenseifner-$r" "$j" ".verified==true and .reduce_op==\"$r\""
    j=$(c --topo fat-octagon --op reducescatter --algo ring --bytes 256 --reduce-op $r)
    jcheck "rs-ring-$r" "$j" ".verified==true and .reduce_op==\"$r\""
done
j=$(c --topo mesh:4x4 --op allreduce --algo reduce-bcast --bytes 512 --reduce-op prod64)
jcheck reduce-bcast-prod64 "$j" '.verified==true and .unit_func=="mul64"'
# a count of terminals that is not a power of two: the ring (and the binomial trees) run, and the
# default is the ring
j=$(c --topo mesh:3x2 --op allreduce --algo ring --bytes 240); jcheck ring-6 "$j" '.verified==true and .nodes==6'
j=$(c --topo mesh:3x2 --op allreduce --algo reduce-bcast --bytes 240); jcheck reduce-bcast-6 "$j" '.verified==true'
j=$(c --topo mesh:3x2 --op reducescatter --bytes 240); jcheck rs-default-6 "$j" '.verified==true and .algo=="ring"'
j=$(c --topo mesh:4x4 --op allreduce --bytes 64); jcheck ar-default-16 "$j" '.verified==true and .algo=="rabenseifner"'
# the model's steps: log2 P each way for halving, P - 1 each way for the ring
j=$(c --topo mesh:4x4 --op reducescatter --algo halving --bytes 1024); jcheck steps-halving "$j" '.model_steps==4'
j=$(c --topo mesh:4x4 --op allreduce --algo rabenseifner --bytes 1024); jcheck steps-rabenseifner "$j" '.model_steps==8'
j=$(c --topo mesh:4x4 --op allreduce --algo ring --bytes 1024); jcheck steps-ring "$j" '.model_steps==30'
# combining is spread: each terminal combines (P - 1) / P of the message in halving and the
# ring (240 of 256 words at 1 KiB), the root the whole message log2 P times in reduce-bcast
j=$(c --topo mesh:4x4 --op allreduce --algo rabenseifner --bytes 1024); jcheck words-rabenseifner "$j" '.combine_words==240'
j=$(c --topo mesh:4x4 --op allreduce --algo ring --bytes 1024); jcheck words-ring "$j" '.combine_words==240'
j=$(c --topo mesh:4x4 --op allreduce --algo reduce-bcast --bytes 1024); jcheck words-reduce-bcast "$j" '.combine_words==1024'
# the cycles per word of the combining loop (reduce.c, unrolled by eight): 4.5 at most at 16 KiB
j=$(c --topo mesh:4x4 --op allreduce --algo rabenseifner --bytes 16384)
jcheck cycles-per-word "$j" '.verified==true and .combine_words==3840 and .cycles_per_word < 4.5'
# a corrupted flit is caught, naming the node and the word
XNOC_TEST_CORRUPT=6:100 $XNOC collective --topo mesh:4x4 --op allreduce --algo ring --bytes 1024 >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 1 ] && grep -q "^xnoc collective: node [0-9]*: word [0-9]* of the allreduce is 0x[0-9a-f]*, the host's reduction 0x[0-9a-f]*$" "$TMP/err"
then ok corrupt-caught; else fail corrupt-caught "exit $rc: $(head -2 "$TMP/err")"; fi
# the text report
$XNOC collective --topo mesh:4x4 --op reducescatter --algo halving --bytes 1024 >"$TMP/out" 2>&1
if grep -qx "halving reducescatter on mesh:4x4, 1024 bytes, --reduce-op sum: verified byte-exact" "$TMP/out" &&
   grep -q "^  combining on the cores: at most [0-9]* cycles for 240 words" "$TMP/out"
then ok text-report; else fail text-report "$(head -3 "$TMP/out")"; fi

# refusals: one line, exit 2, before any network is built
check_fail rs-bad-algo 2 "^xnoc collective: --algo rabenseifner: --op reducescatter runs halving, ring$" $XNOC collective --topo mesh:4x4 --op reducescatter --algo rabenseifner
check_fail ar-bad-algo 2 "^xnoc collective: --algo halving: --op allreduce runs rabenseifner, ring, reduce-bcast, innet$" $XNOC collective --topo mesh:4x4 --op allreduce --algo halving
check_fail ar-tree 2 "^xnoc collective: --algo tree: --op allreduce runs" $XNOC collective --topo mesh:4x4 --op allreduce --algo tree
check_fail rs-innet 2 "^xnoc collective: --op reducescatter --algo innet: a reduce-scatter inside the network runs through the streaming units \(--router stream=1\); --algo halving or ring runs it on the cores$" $XNOC collective --topo mesh:4x4 --op reducescatter --algo innet
check_fail halving-not-pow2 2 "^xnoc collective: --algo halving: recursive halving needs a power-of-two number of terminals, mesh:3x2 has 6; use --algo ring$" $XNOC collective --topo mesh:3x2 --op reducescatter --algo halving
check_fail rabenseifner-not-pow2 2 "^xnoc collective: --algo rabenseifner: recursive halving needs a power-of-two" $XNOC collective --topo mesh:3x2 --op allreduce --algo rabenseifner
check_fail rs-lane-32 2 "^xnoc collective: --bytes 6: --reduce-op sum combines 32-bit lanes, use a multiple of 4$" $XNOC collective --topo mesh:4x4 --op reducescatter --bytes 6
check_fail rs-lane-64 2 "^xnoc collective: --bytes 12: --reduce-op prod64 combines 64-bit lanes, use a multiple of 8$" $XNOC collective --topo mesh:4x4 --op allreduce --algo ring --bytes 12 --reduce-op prod64
check_fail rs-zero 2 "^xnoc collective: --bytes 0: " $XNOC collective --topo mesh:4x4 --op reducescatter --bytes 0
check_fail rs-redop 2 "^xnoc collective: --reduce-op: unknown operator 'avg' \(sum, sum64, prod, prod64, min, max, minu, maxu, and, or, xor\)$" $XNOC collective --topo mesh:4x4 --op reducescatter --reduce-op avg
check_fail rs-root 2 "^xnoc collective: --from: --op reducescatter has no root" $XNOC collective --topo mesh:4x4 --op reducescatter --from 3
check_fail rs-to 2 "^xnoc collective: --op allreduce takes --topo" $XNOC collective --topo mesh:4x4 --op allreduce --to 3
check_fail rs-no-topo 2 "^xnoc collective: --topo is required" $XNOC collective --op reducescatter

# tools/reduce_sweep.sh: every reduction at one size on one network, verified, and its table
if XNOC=$XNOC tools/reduce_sweep.sh --out "$TMP/sweep" --topos mesh:4x4 --bytes 64 2>"$TMP/sweep.err" &&
   [ "$(jq -s 'length' "$TMP/sweep/runs.jsonl")" = 14 ] &&
   [ "$(jq -s 'map(select(.verified == true)) | length' "$TMP/sweep/runs.jsonl")" = 13 ] &&
   [ "$(jq -s 'map(select(.algo == "stream" and .verified == true)) | length' "$TMP/sweep/runs.jsonl")" = 3 ] &&
   [ "$(jq -s 'map(select(.op == "scan" and .algo == "stream" and .verified == true)) | length' "$TMP/sweep/runs.jsonl")" = 1 ] &&
   grep -q "^| 64 | [0-9,]* | [0-9,]* | [0-9,]* (0.[0-9]*) | [0-9,]* (0.[0-9]*) | [0-9,]* | [0-9,]* | - | [0-9,]* | [0-9,]* (0.[0-9]*) |$" "$TMP/sweep/table.md" &&
   [ "$(jq -s 'map(select(.op == "reducescatter" and .algo == "stream" and (.refused | test("blocks of at least 64 bytes")))) | length' "$TMP/sweep/runs.jsonl")" = 1 ] &&
   grep -q "^| 64 | [0-9,]* | [0-9,]* | [0-9,]* | [0-9,]* (0.0[0-9]) | [0-9,]* (0.[0-9]*) | [0-9.]*x | [0-9,]* (0.[0-9]*) | [0-9.]*x |$" "$TMP/sweep/table.md"
then ok sweep-script; else fail sweep-script "$(tail -2 "$TMP/sweep.err"; head -5 "$TMP/sweep/table.md" 2>/dev/null)"; fi
# a network the streaming units' trees refuse: recorded with its line, shown as "-", the sweep goes
# on (its chain for the scan, with 1 + 4 VCs, runs)
if XNOC=$XNOC tools/reduce_sweep.sh --out "$TMP/sweep2" --topos clos:m=4,n=4,r=4 --bytes 64 2>"$TMP/sweep2.err" &&
   [ "$(jq -s 'map(select(.verified == true)) | length' "$TMP/sweep2/runs.jsonl")" = 11 ] &&
   [ "$(jq -s 'map(select(.algo == "stream" and .cycles == null and (.refused | test("reach router 4.s unit through the same port 0")))) | length' "$TMP/sweep2/runs.jsonl")" = 2 ] &&
   grep -q "^| 64 | .* | [0-9.]*x | - | - |$" "$TMP/sweep2/table.md" &&
   grep -q "^| 64 | .* | - | [0-9,]* | [0-9,]* (0.[0-9]*) |$" "$TMP/sweep2/table.md" &&
   grep -q "^Refused through the streaming units on clos:m=4,n=4,r=4: --algo innet: routers 0 and 1 reach router 4's unit" "$TMP/sweep2/table.md"
then ok sweep-stream-refused; else fail sweep-stream-refused "$(tail -2 "$TMP/sweep2.err"; tail -5 "$TMP/sweep2/table.md" 2>/dev/null)"; fi
check_fail sweep-bad-jobs 2 "^reduce_sweep.sh: -j 'x': a count of runs, 1 or more$" tools/reduce_sweep.sh -j x
check_fail sweep-bad-bytes 2 "^reduce_sweep.sh: --bytes '1k': a size in bytes$" tools/reduce_sweep.sh --bytes 1k
check_fail sweep-bad-option 2 "^reduce_sweep.sh: unknown option '--nope'" tools/reduce_sweep.sh --nope
