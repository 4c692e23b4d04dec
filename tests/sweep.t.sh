# sweep: a grid of xnoc runs on GNU parallel (docs/sweeps.md): every point a
# process, one CSV row each, resume after an interruption, failures named
source tests/lib.sh

if ! command -v parallel >/dev/null; then echo "skip sweep: GNU parallel is not installed (make deps)"; exit 0; fi
cat > "$TMP/s.json" <<'SPEC'
{"command": "traffic", "fixed": {"pattern": "uniform", "cycles": 1500, "warmup": 200, "router": "ncu=0"},
 "axes": {"topo": ["mesh:2x2", "torus:2x2"], "rate": [0.1, 0.3, 0.6]},
 "metrics": ["offered", "throughput", "avg_latency", "errors"],
 "plot": {"x": "rate", "y": "avg_latency", "series": ["topo"]}}
SPEC
S=(sweep "$TMP/s.json" --out "$TMP/o" --jobs 2)
j=$($XNOC "${S[@]}" --json 2>"$TMP/err")
jcheck sweep-runs "$j" '.points==6 and .ran==6 and .resumed==0 and .failed==0'
check csv-header [ "$(head -1 "$TMP/o/results.csv")" = "topo,rate,offered,throughput,avg_latency,errors" ]
check csv-rows [ "$(wc -l < "$TMP/o/results.csv")" = 7 ]
check csv-first-row grep -q '^"mesh:2x2",0.1,0.1,' "$TMP/o/results.csv"
check jsonl-rows [ "$(jq -s 'length' "$TMP/o/results.jsonl")" = 6 ]
jcheck jsonl-report "$(head -1 "$TMP/o/results.jsonl")" '.topo=="mesh:2x2" and .rate==0.1 and .report.errors==0 and .report.topology=="mesh:2x2"'
# each point is exactly the command run alone
alone=$($XNOC traffic --json --pattern uniform --cycles 1500 --warmup 200 --router ncu=0 --topo torus:2x2 --rate 0.3 | jq -c .throughput)
check point-equals-alone [ "$(jq -c 'select(.topo=="torus:2x2" and .rate==0.3) | .report.throughput' "$TMP/o/results.jsonl")" = "$alone" ]
# resume: finished points are kept, missing ones run (as after a kill)
rm "$TMP/o/points/topo=torus_2x2,rate=0.6.json" "$TMP/o/points/topo=mesh_2x2,rate=0.1.json"
touch "$TMP/o/points/topo=mesh_2x2,rate=0.3.json.tmp"     # a point killed while writing
jcheck resume "$($XNOC "${S[@]}" --json 2>/dev/null)" '.ran==2 and .resumed==4 and .failed==0'
check resume-rows [ "$(wc -l < "$TMP/o/results.csv")" = 7 ]
jcheck rerun-nothing "$($XNOC "${S[@]}" --json 2>/dev/null)" '.ran==0 and .resumed==6'
# a killed sweep keeps what finished: SIGINT halfway through.  Its points
# are long (~0.1-0.3 s each here, 6 in a row) so that the kill, sent once two
# have finished, lands while the others run: points of s.json take ~15 ms, and
# a loaded machine once saw the whole sweep end between two polls.
sed 's/"cycles": 1500/"cycles": 100000/' "$TMP/s.json" > "$TMP/slow.json"
rm -rf "$TMP/k"; XNOC_PROGRESS=1 $XNOC sweep "$TMP/slow.json" --out "$TMP/k" --jobs 1 >/dev/null 2>"$TMP/kerr" & pid=$!
for _ in $(seq 600); do [ "$(ls "$TMP/k/points" 2>/dev/null | grep -c '\.json$')" -ge 2 ] && break; sleep 0.05; done
kill -INT $pid; wait $pid; rc=$?
kept=$(ls "$TMP/k/points" | grep -c '\.json$')
check interrupted-exit [ "$rc" = 1 ]
check interrupted-message grep -q "interrupted: finished points are kept" "$TMP/kerr"
jcheck interrupted-resume "$($XNOC sweep "$TMP/slow.json" --out "$TMP/k" --jobs 2 --json 2>/dev/null)" ".resumed==$kept and .ran==(6-$kept) and .failed==0"
if command -v gnuplot >/dev/null; then
    $XNOC "${S[@]}" --plot >/dev/null 2>&1
    check plot-png [ "$(head -c 8 "$TMP/o/plot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
else
    echo "skip plot-png: gnuplot is not installed (make deps)"
fi
# a failing point: named, the rest kept, exit 1
cat > "$TMP/bad.json" <<'SPEC'
{"command": "traffic", "fixed": {"pattern": "uniform", "cycles": 500}, "axes": {"topo": ["mesh:2x2", "mesh:0x2"]}, "metrics": ["errors"]}
SPEC
check_fail failing-point 1 "1 point\\(s\\) failed; the first: topo=mesh_0x2: xnoc traffic: topology 'mesh:0x2'" $XNOC sweep "$TMP/bad.json" --out "$TMP/b"
check failing-point-csv [ "$(wc -l < "$TMP/b/results.csv")" = 2 ]
# bad specs
echo '{"command": "rm", "axes": {"a": [1]}, "metrics": ["x"]}' > "$TMP/c1.json"
check_fail bad-command 2 '"command" must be one of' $XNOC sweep "$TMP/c1.json" --out "$TMP/c"
echo '{"command": "traffic", "axes": {"rate": []}, "metrics": ["x"]}' > "$TMP/c2.json"
check_fail empty-axis 2 'axis "rate" must be a non-empty list' $XNOC sweep "$TMP/c2.json" --out "$TMP/c"
echo '{"command": "traffic", "axes": {"rate": [1]}' > "$TMP/c3.json"
check_fail bad-json 2 "c3.json:2: .}. expected near end of file" $XNOC sweep "$TMP/c3.json" --out "$TMP/c"
check_fail no-out 2 "--out DIR is required" $XNOC sweep "$TMP/s.json"
check_fail no-spec 2 "a SPEC file is required" $XNOC sweep --out "$TMP/c"
# the Slurm engine against a real single-node Slurm on this machine
if [ "$(id -u)" != 0 ]; then
    echo "skip slurm: needs root to start slurmd (tools/slurm_local.sh)"
elif ! out=$(tools/slurm_local.sh start "$TMP/slurm" 2>&1); then
    echo "skip slurm: $out"
else
    export SLURM_CONF=$TMP/slurm/slurm.conf
    j=$(timeout 300 $XNOC sweep "$TMP/s.json" --out "$TMP/sl" --engine slurm --json 2>"$TMP/slerr")
    jcheck slurm-runs "$j" '.points==6 and .ran==6 and .failed==0'
    check slurm-same-as-parallel cmp "$TMP/sl/results.csv" "$TMP/o/results.csv"
    check slurm-array-script grep -q '^#SBATCH --array=1-6$' "$TMP/sl/sweep.sbatch"
    rm "$TMP/sl/points/topo=mesh_2x2,rate=0.3.json"
    jcheck slurm-resume "$(timeout 300 $XNOC sweep "$TMP/s.json" --out "$TMP/sl" --engine slurm --json 2>/dev/null)" '.ran==1 and .resumed==5'
    check slurm-resume-array grep -q '^#SBATCH --array=1-1$' "$TMP/sl/sweep.sbatch"
    tools/slurm_local.sh stop "$TMP/slurm"
    unset SLURM_CONF
fi
check_fail bad-engine 2 "--engine: unknown 'pbs' \\(parallel, slurm\\)" $XNOC sweep "$TMP/s.json" --out "$TMP/c" --engine pbs
# the text summary is the JSON report rendered (util/report.h): counts and files agree
h=$($XNOC "${S[@]}" --plot 2>/dev/null); j=$($XNOC "${S[@]}" --plot --json 2>/dev/null)
want=$(printf '%s' "$j" | jq -r '"\(.points) points (\(.ran) run now, \(.resumed) kept from before, \(.failed) failed): \(.results_csv), \(.results_jsonl), \(.plot|split("/")|last)"')
[ "$want" = "$h" ] && printf '%s' "$j" | jq -e '.plot|endswith("/plot.png")' >/dev/null && ok sweep-text-from-json || fail sweep-text-from-json "json: $want text: $h"
