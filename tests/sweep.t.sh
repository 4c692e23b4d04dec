# sweep: a grid of xnoc runs (docs/sweeps.md): every point a process, one
# CSV row each, resume after an interruption, failures named; hostile specs
# refused (ASan binary), no shell anywhere, a killed sweep leaves nothing
# running, one sweep per folder
source tests/lib.sh

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
# a killed sweep keeps what finished: SIGINT halfway through.  Timing-free:
# two points are finished beforehand (s.json's, copied), the others run 10^9
# cycles (a point's ID names only the axes' values, so both specs share them)
# and the signal is sent once one of them runs.  (Before, the points were
# ~0.1-0.3 s long and the kill was sent once two had finished: a loaded
# machine could still finish the whole sweep between two polls.)
sed 's/"cycles": 1500/"cycles": 1000000000/' "$TMP/s.json" > "$TMP/slow.json"
rm -rf "$TMP/k"; mkdir -p "$TMP/k/points"
cp "$TMP/o/points/topo=mesh_2x2,rate=0.1.json" "$TMP/o/points/topo=torus_2x2,rate=0.6.json" "$TMP/k/points/"
XNOC_PROGRESS=1 $XNOC sweep "$TMP/slow.json" --out "$TMP/k" --jobs 1 >/dev/null 2>"$TMP/kerr" & pid=$!
for _ in $(seq 600); do pgrep -P $pid -f -- '--cycles 1000000000' >/dev/null && break; sleep 0.05; done
kill -INT $pid; wait $pid; rc=$?
check interrupted-exit [ "$rc" = 130 ]
check interrupted-message grep -q "interrupted: finished points are kept in $TMP/k/points; run again to resume" "$TMP/kerr"
check interrupted-kept [ "$(ls "$TMP/k/points" | grep -c '\.json$')" = 2 ]
jcheck interrupted-resume "$($XNOC sweep "$TMP/s.json" --out "$TMP/k" --jobs 2 --json 2>/dev/null)" ".resumed==2 and .ran==4 and .failed==0"
if command -v gnuplot >/dev/null; then
    $XNOC "${S[@]}" --plot >/dev/null 2>&1
    check plot-png [ "$(head -c 8 "$TMP/o/plot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
else
    echo "skip plot-png: gnuplot is not installed (make deps)"
fi
# without gnuplot (the points done, nothing runs): one line, exit 1, the data and script kept
env PATH=/nonexistent $XNOC "${S[@]}" --plot >/dev/null 2>"$TMP/np.err"
rc=$?
if [ $rc = 1 ] && [ "$(cat "$TMP/np.err")" = "xnoc sweep: --plot: cannot run gnuplot: No such file or directory (gnuplot-nox: make deps); the data and script are kept: $TMP/o/plot.gp" ] && [ -s "$TMP/o/plot.dat" ]; then
    ok plot-no-gnuplot; else fail plot-no-gnuplot "exit $rc: $(head -3 "$TMP/np.err" | tr '\n' '|')"; fi
# axis labels and units from the one table of metrics (sim_harness/cmd/metrics.c), in the script
# gnuplot reads (written whether or not gnuplot is installed); the points are kept, nothing runs
$XNOC "${S[@]}" --plot >/dev/null 2>&1
check plot-xlabel grep -qxF "set xlabel 'offered load (flits/terminal/cycle)'" "$TMP/o/plot.gp"
check plot-ylabel grep -qxF "set ylabel 'avg latency (cycles)'" "$TMP/o/plot.gp"
check plot-title grep -qxF "set title 'traffic: avg latency vs offered load'" "$TMP/o/plot.gp"
plot_gp() { # SPEC-PLOT-JSON: the plot.gp of s.json's points with that plot
    jq -c --argjson p "$1" '.plot = $p' "$TMP/s.json" > "$TMP/s2.json"
    $XNOC sweep "$TMP/s2.json" --out "$TMP/o" --plot >/dev/null 2>&1
    grep -E '^set (xlabel|ylabel|title) ' "$TMP/o/plot.gp" | tr '\n' '|'; }
check plot-labels-same-unit [ "$(plot_gp '{"x": "rate", "y": ["avg_latency", "p99_latency"], "series": ["topo"]}')" = \
    "set xlabel 'offered load (flits/terminal/cycle)'|set ylabel 'avg latency, p99 latency (cycles)'|set title 'traffic: avg latency, p99 latency vs offered load'|" ]
check plot-labels-mixed-units [ "$(plot_gp '{"x": "rate", "y": ["throughput", "avg_latency"], "series": ["topo"]}')" = \
    "set xlabel 'offered load (flits/terminal/cycle)'|set ylabel 'accepted load (flits/terminal/cycle), avg latency (cycles)'|set title 'traffic: accepted load, avg latency vs offered load'|" ]
check plot-labels-report-x-reduce [ "$(plot_gp '{"x": "avg_hops", "y": "throughput", "series": ["topo"], "reduce": "max"}')" = \
    "set xlabel 'avg hops (hops)'|set ylabel 'max of accepted load (flits/terminal/cycle)'|set title 'traffic: accepted load vs avg hops'|" ]
check plot-legend-labels grep -qF "title 'topo=mesh:2x2 accepted load'" <(plot_gp '{"x": "rate", "y": ["throughput", "avg_latency"], "series": ["topo"]}' >/dev/null; cat "$TMP/o/plot.gp")
check plot-labels-unknown-key [ "$(plot_gp '{"x": "rate", "y": "errors", "series": ["topo"]}')" = \
    "set xlabel 'offered load (flits/terminal/cycle)'|set ylabel 'errors'|set title 'traffic: errors vs offered load'|" ]
# a sweep over collective: its report keys and its options have labels too (metrics.c), and
# its metrics are checked against collective --help's "Report keys:"
cat > "$TMP/cs.json" <<'SPEC'
{"command": "collective", "fixed": {"topo": "octagon", "op": "bcast", "algo": "tree"},
 "axes": {"bytes": [64, 256], "sync": ["global", "data"]},
 "metrics": ["cycles", "model_cycles", "link_flits", "verified"],
 "plot": {"x": "bytes", "y": ["cycles", "model_cycles"], "series": ["sync"]}}
SPEC
$XNOC sweep "$TMP/cs.json" --out "$TMP/co" --plot >/dev/null 2>&1
check collective-plot-labels [ "$(grep -E '^set (xlabel|ylabel|title) ' "$TMP/co/plot.gp" | tr '\n' '|')" = \
    "set xlabel 'message size (bytes)'|set ylabel 'collective time, modelled time (cycles)'|set title 'collective: collective time, modelled time vs message size'|" ]
check collective-csv [ "$(cat "$TMP/co/results.csv" | tr '\n' '|')" = \
    'bytes,sync,cycles,model_cycles,link_flits,verified|64,"global",305,291,90,true|64,"data",289,291,90,true|256,"global",401,363,306,true|256,"data",372,363,306,true|' ]
jq '.metrics[2] = "link_flit"' "$TMP/cs.json" > "$TMP/cs2.json"
check_fail collective-metric-typo 2 "^xnoc sweep: $TMP/cs2.json: metrics: 'link_flit' is not a key of xnoc collective's report \(did you mean link_flits\?\) \(see xnoc collective --help\)$" \
    $XNOC_ASAN sweep "$TMP/cs2.json" --out "$TMP/co2"
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
    check slurm-script-no-spec-string [ "$(grep -c 'mesh\|torus\|uniform' "$TMP/sl/sweep.sbatch")" = 0 ]
    rm "$TMP/sl/points/topo=mesh_2x2,rate=0.3.json"
    jcheck slurm-resume "$(timeout 300 $XNOC sweep "$TMP/s.json" --out "$TMP/sl" --engine slurm --json 2>/dev/null)" '.ran==1 and .resumed==5'
    check slurm-resume-array grep -q '^#SBATCH --array=1-1$' "$TMP/sl/sweep.sbatch"
    # Ctrl-C cancels the array: no task of it stays queued or running (issue 38);
    # the signal is sent once a task runs (10^9-cycle points cannot finish first)
    rm -rf "$TMP/sk"
    $XNOC sweep "$TMP/slow.json" --out "$TMP/sk" --engine slurm >/dev/null 2>"$TMP/skerr" & pid=$!
    for _ in $(seq 1200); do [ -n "$(squeue -h -t R 2>/dev/null)" ] && break; sleep 0.1; done
    jid=$(cut -d';' -f1 "$TMP/sk/slurm.jobid" 2>/dev/null)
    kill -INT $pid; wait $pid; rc=$?
    for _ in $(seq 300); do [ -z "$(squeue -h -j "$jid" 2>/dev/null)" ] && break; sleep 0.1; done
    left=$(squeue -h -j "$jid" 2>/dev/null | wc -l)
    if [ -n "$jid" ] && [ $rc = 130 ] && [ "$left" = 0 ]; then ok slurm-interrupt-cancels
    else fail slurm-interrupt-cancels "job '$jid', exit $rc, $left task(s) left: $(squeue -h 2>&1 | head -3 | tr '\n' '|')"; fi
    scancel "$jid" 2>/dev/null || true
    tools/slurm_local.sh stop "$TMP/slurm"
    unset SLURM_CONF
fi
check_fail bad-engine 2 "--engine: unknown 'pbs' \\(local, slurm\\)" $XNOC sweep "$TMP/s.json" --out "$TMP/c" --engine pbs
# the text summary is the JSON report rendered (util/report.h): counts and files agree
h=$($XNOC "${S[@]}" --plot 2>/dev/null); j=$($XNOC "${S[@]}" --plot --json 2>/dev/null)
want=$(printf '%s' "$j" | jq -r '"\(.points) points (\(.ran) run now, \(.resumed) kept from before, \(.failed) failed): \(.results_csv), \(.results_jsonl), \(.plot|split("/")|last)"')
[ "$want" = "$h" ] && printf '%s' "$j" | jq -e '.plot|endswith("/plot.png")' >/dev/null && ok sweep-text-from-json || fail sweep-text-from-json "json: $want text: $h"

# --- hostile specs (issue 31): refused by the ASan binary with exit 2 and one
# line (check_fail: a sanitizer report would be more lines), nothing created
# (run in an empty folder), no shell ever sees a spec string
mkdir -p "$TMP/h" && cd "$TMP/h" || exit 1
A=$OLDPWD/$XNOC_ASAN
export ASAN_OPTIONS=detect_leaks=1
long=$(printf 'a%.0s' $(seq 9000))
printf '{"command": "traffic", "fixed": {"%s": 1}, "axes": {"rate": [0.1]}, "metrics": ["x"]}' "$long" > key9000.json
vals=$(for i in $(seq 40); do printf '"mesh:2x2:%0300d",' "$i"; done)
printf '{"command": "traffic", "axes": {"topo": [%s "mesh:2x2"]}, "metrics": ["x"]}' "$vals" > vals40.json
ser=$(printf 's%.0s' $(seq 300))
printf '{"command": "traffic", "axes": {"rate": [0.1]}, "metrics": ["x"], "plot": {"x": "rate", "y": "x", "series": ["%s"]}}' "$ser" > series300.json
cat > keydollar.json <<'SPEC'
{"command": "traffic", "fixed": {"$(touch pwned)": 1}, "axes": {"rate": [0.1]}, "metrics": ["x"]}
SPEC
cat > keyquote.json <<'SPEC'
{"command": "traffic", "axes": {"'; touch pwned; '": [1]}, "metrics": ["x"]}
SPEC
cat > axisdots.json <<'SPEC'
{"command": "traffic", "axes": {"../..": ["x"]}, "metrics": ["x"]}
SPEC
cat > unknown.json <<'SPEC'
{"command": "traffic", "fixed": {"rat": 0.1}, "axes": {"topo": ["mesh:2x2"]}, "metrics": ["x"]}
SPEC
cat > trace.json <<'SPEC'
{"command": "traffic", "fixed": {"trace": "/tmp/x.vcd"}, "axes": {"topo": ["mesh:2x2"]}, "metrics": ["x"]}
SPEC
cat > objval.json <<'SPEC'
{"command": "traffic", "axes": {"topo": [{"a": 1}]}, "metrics": ["x"]}
SPEC
cat > twice.json <<'SPEC'
{"command": "traffic", "axes": {"rate": [0.1, 0.10]}, "metrics": ["x"]}
SPEC
cat > both.json <<'SPEC'
{"command": "traffic", "fixed": {"rate": 0.1}, "axes": {"rate": [0.2]}, "metrics": ["x"]}
SPEC
cat > notaxis.json <<'SPEC'
{"command": "traffic", "axes": {"rate": [0.1]}, "metrics": ["x"], "plot": {"x": "rate", "y": "x", "series": ["topo"]}}
SPEC
printf '{"command": "traffic", "axes": {"topo": ["mesh:2x2\\n"]}, "metrics": ["x"]}' > ctrl.json
printf '{"command": "traffic", "axis": {"topo": ["mesh:2x2"]}, "metrics": ["x"]}' > topkey.json
check_fail hostile-key-9000 2 "key9000.json: fixed: 'a{40}\.\.\.' is not an option name" "$A" sweep key9000.json --out o
check_fail hostile-40-long-values 2 "vals40.json: point IDs \(file names\) would be up to 314 characters, at most 200: shorten the values of axis 'topo'" "$A" sweep vals40.json --out o
check_fail hostile-series-300 2 "series300.json: plot.series 's{40}\.\.\.': at most 200 characters" "$A" sweep series300.json --out o --plot
check_fail hostile-key-dollar 2 "keydollar.json: fixed: '\\$\(touch pwned\)' is not an option name" "$A" sweep keydollar.json --out o
check_fail hostile-key-quote 2 "keyquote.json: axes: ''; touch pwned; '' is not an option name" "$A" sweep keyquote.json --out o
check_fail hostile-axis-dots 2 "axisdots.json: axes: '\.\./\.\.' is not an option name" "$A" sweep axisdots.json --out o
check_fail unknown-key 2 "unknown.json: fixed: 'rat' is not an option of xnoc traffic \(did you mean rate\? see xnoc traffic --help\)" "$A" sweep unknown.json --out o
check_fail file-writing-key 2 "trace.json: fixed: 'trace' writes files: a sweep spec cannot choose where xnoc writes \\(not in a sweep\\)\$" "$A" sweep trace.json --out o
check_fail object-value 2 "objval.json: 'topo': a value must be a string, a number, true, false or null" "$A" sweep objval.json --out o
check_fail value-twice 2 "twice.json: axis 'rate' lists '0.10' twice" "$A" sweep twice.json --out o
check_fail fixed-and-axis 2 "both.json: 'rate' is both fixed and an axis" "$A" sweep both.json --out o
check_fail series-not-axis 2 "notaxis.json: plot.series: 'topo' is not an axis" "$A" sweep notaxis.json --out o
check_fail control-char 2 "ctrl.json: a value of 'topo' has a control character" "$A" sweep ctrl.json --out o
printf '{"command": "traffic", "fi\\\n": 1}' > jsonerr.json   # found by fuzz_spec: jansson quotes the newline
check_fail json-error-one-line 2 "jsonerr.json:2: invalid escape near '\"fi\\\\\?'" "$A" sweep jsonerr.json --out o
check_fail unknown-top-key 2 "topkey.json: unknown key 'axis' \(command, fixed, axes, metrics, plot, area\)" "$A" sweep topkey.json --out o
check hostile-nothing-created [ "$(ls | grep -v '\.json$' | wc -l)" = 0 ]
# values, --out and series labels full of shell and gnuplot syntax: words of
# an argument vector, quoted in the plot script, nothing run
cat > evil.json <<'SPEC'
{"command": "traffic", "fixed": {"cycles": 300, "warmup": 10, "router": "ncu=0", "topo": "mesh:2x2"},
 "axes": {"pattern": ["uniform", "$(touch pwned)", "`touch pwned`;'\" touch pwned"], "rate": [0.1, 0.2]},
 "metrics": ["throughput"], "plot": {"x": "rate", "y": ["throughput", "it's `touch pwned` $(touch pwned)"], "series": ["pattern"]}}
SPEC
E="o'\$(touch pwned)\`touch pwned\`"
"$A" sweep evil.json --out "$E" --jobs 2 --plot >/dev/null 2>"$TMP/evilerr"; rc=$?
check evil-values-exit [ "$rc" = 1 ]
check evil-values-are-words grep -q "4 point(s) failed; the first: pattern=__touch_pwned_,rate=0.1: xnoc traffic: --pattern: unknown pattern '\$(touch pwned)'" "$TMP/evilerr"
check evil-no-sanitizer [ "$(grep -c Sanitizer "$TMP/evilerr")" = 0 ]
check evil-plot-png [ "$(head -c 8 "$E/plot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
check evil-plot-quoted grep -qF "set ylabel 'accepted load (flits/terminal/cycle), it''s \`touch pwned\` \$(touch pwned)'" "$E/plot.gp"
check no-pwned-anywhere [ -z "$(find "$TMP" "$OLDPWD" -maxdepth 3 -name pwned 2>/dev/null)" ]
# numbers keep their text; whole numbers in any notation reach integer options as digits
cat > num.json <<'SPEC'
{"command": "traffic", "fixed": {"cycles": 1e7, "warmup": 2.5E2, "drain": 4.0, "topo": "mesh:2x2"},
 "axes": {"rate": [0.1, 1e-7, 0.1000000001, 5e-1]}, "metrics": ["errors"]}
SPEC
d=$("$A" sweep num.json --dry-run 2>"$TMP/dryerr"); rc=$?
check dry-run-asan-clean [ "$rc" = 0 -a ! -s "$TMP/dryerr" ]
check dry-run-words [ "$(printf '%s\n' "$d" | sed 's/^[^ ]* //')" = "traffic --json --cycles 10000000 --warmup 250 --drain 4 --topo mesh:2x2 --rate 0.1
traffic --json --cycles 10000000 --warmup 250 --drain 4 --topo mesh:2x2 --rate 1e-7
traffic --json --cycles 10000000 --warmup 250 --drain 4 --topo mesh:2x2 --rate 0.1000000001
traffic --json --cycles 10000000 --warmup 250 --drain 4 --topo mesh:2x2 --rate 5e-1" ]
# ... and in the tables and file names: 0.1 stays 0.1 (not 0.10000000000000001), 1e-7 stays 1e-7 (not 1e-07)
cat > txt.json <<'SPEC'
{"command": "traffic", "fixed": {"topo": "mesh:2x2", "cycles": 3e2, "router": "ncu=0"}, "axes": {"rate": [0.1, 1e-7]}, "metrics": ["offered"]}
SPEC
"$A" sweep txt.json --out txo >/dev/null 2>&1
check number-text-csv [ "$(tail -n +2 txo/results.csv | cut -d, -f1 | tr '\n' ' ')" = "0.1 1e-7 " ]
check number-text-jsonl [ "$(cut -d, -f1 txo/results.jsonl | tr '\n' ' ')" = '{"rate":0.1 {"rate":1e-7 ' ]
check number-text-ids [ -f "txo/points/rate=1e-7.json" ]
# IDs that would be equal once sanitized get distinct file names
cat > ids.json <<'SPEC'
{"command": "traffic", "fixed": {"topo": "mesh:2x2", "cycles": 100}, "axes": {"pattern": ["a/b", "a_b", "a:b"]}, "metrics": ["errors"]}
SPEC
"$A" sweep ids.json --out ido >/dev/null 2>&1
check distinct-ids [ "$(cd ido/points && ls *.err | tr '\n' ' ')" = "pattern=a_b.json.err pattern=a_b~2.json.err pattern=a_b~3.json.err " ]
check distinct-ids-own-value grep -q "unknown pattern 'a:b'" "ido/points/pattern=a_b~3.json.err"
cd "$OLDPWD" || exit 1
unset ASAN_OPTIONS

# --- kill -9 of a running sweep: its points die with it (no orphan writes a
# point), a rerun gives one row per point.  The points run 10^9 cycles (far
# longer than this test waits), so the kill (sent as soon as a point runs)
# lands mid-sweep however fast or loaded the machine, and a child that
# survived it would still be there after the 5 s the test allows; the rerun
# uses the same axes (the same point IDs) with short points.
cat > "$TMP/long.json" <<'SPEC'
{"command": "traffic", "fixed": {"topo": "mesh:2x2", "pattern": "uniform", "cycles": 1000000000, "warmup": 10, "router": "ncu=0"},
 "axes": {"rate": [0.1, 0.2, 0.3, 0.4]}, "metrics": ["throughput", "errors"]}
SPEC
sed 's/"cycles": 1000000000/"cycles": 1500/' "$TMP/long.json" > "$TMP/short.json"
# the sweep's point processes (exec'd: their command line is the point's)
points_of() { pgrep -P "$1" -f -- '--cycles 1000000000' | tr '\n' ' '; }
alive() { local n=0 p; for p in "$@"; do ps -o stat= -p "$p" 2>/dev/null | grep -qv Z && n=$((n + 1)); done; echo $n; }
rm -rf "$TMP/l"; setsid $XNOC sweep "$TMP/long.json" --out "$TMP/l" --jobs 2 >/dev/null 2>&1 & pid=$!
for _ in $(seq 600); do [ -n "$(points_of $pid)" ] && break; sleep 0.05; done
kids=$(points_of $pid)
# a second sweep into the same folder is refused while the first runs
check_fail lock-second-sweep 2 "--out $TMP/l: another sweep \(pid $pid\) is writing there" $XNOC sweep "$TMP/long.json" --out "$TMP/l"
kill -9 $pid; wait $pid 2>/dev/null
check kill9-mid-sweep [ -n "$kids" ]
for _ in $(seq 100); do [ "$(alive $kids)" = 0 ] && break; sleep 0.05; done
check kill9-children-gone [ "$(alive $kids)" = 0 ]
before=$(ls -l --full-time "$TMP/l/points"); sleep 1
check kill9-folder-still [ "$before" = "$(ls -l --full-time "$TMP/l/points")" ]
logn=$(grep -c . "$TMP/l/joblog.txt")
kill -9 $kids 2>/dev/null || true   # only if the case above failed
j=$($XNOC sweep "$TMP/short.json" --out "$TMP/l" --jobs 2 --json 2>/dev/null)
jcheck kill9-rerun "$j" '.points==4 and .ran+.resumed==4 and .failed==0'
check kill9-rerun-rows [ "$(tail -n +2 "$TMP/l/results.csv" | sort -u | wc -l)" = 4 -a "$(wc -l < "$TMP/l/results.csv")" = 5 ]
# the job log is appended: one header, the earlier runs' lines kept
check joblog-appended [ "$(grep -c '^Seq' "$TMP/l/joblog.txt")" = 1 -a "$(grep -c . "$TMP/l/joblog.txt")" = $((logn + $(jq .ran <<<"$j"))) ]
# a Slurm task (xnoc sweep --task JOBS N) keeps its point only while the sweep holds DIR/sweep.lock
mkdir -p "$TMP/tk/points"
printf '{"id": "x", "argv": ["%s", "traffic", "--json", "--topo", "mesh:2x2", "--cycles", "100", "--router", "ncu=0"]}\n' \
    "$PWD/$XNOC" > "$TMP/tk/jobs.jsonl"
check_fail task-sweep-gone 1 "the sweep of $TMP/tk has ended: report not kept" $XNOC sweep --task "$TMP/tk/jobs.jsonl" 1
check task-sweep-gone-no-point [ ! -e "$TMP/tk/points/x.json" -a ! -e "$TMP/tk/points/x.json.tmp" ]
check task-sweep-alive flock "$TMP/tk/sweep.lock" $XNOC sweep --task "$TMP/tk/jobs.jsonl" 1
check task-sweep-alive-point jq -e '.topology=="mesh:2x2"' "$TMP/tk/points/x.json"
check_fail task-no-such-job 2 "--task $TMP/tk/jobs.jsonl 2: no such job" $XNOC sweep --task "$TMP/tk/jobs.jsonl" 2
# SIGTERM and SIGHUP stop a sweep as SIGINT does: exit 1, the message, no child left
for sig in TERM HUP; do
    rm -rf "$TMP/t"; $XNOC sweep "$TMP/long.json" --out "$TMP/t" --jobs 2 >/dev/null 2>"$TMP/terr" & pid=$!
    for _ in $(seq 600); do [ -n "$(points_of $pid)" ] && break; sleep 0.05; done
    kids=$(points_of $pid)
    kill -$sig $pid; wait $pid; rc=$?
    check sig$sig-exit [ "$rc" = "$(( 128 + $(kill -l $sig) ))" ]
    check sig$sig-message grep -q "interrupted: finished points are kept in $TMP/t/points; run again to resume" "$TMP/terr"
    check sig$sig-children-gone [ -n "$kids" -a "$(alive $kids)" = 0 ]
    kill -9 $kids 2>/dev/null || true   # only if the case above failed
done

# typos are caught before anything runs (--dry-run), with the name meant (issue 38)
printf '{"command":"traffic","fixed":{"topo":"mesh:2x2"},"axes":{"rat":[0.1,0.2]},"metrics":["throughput"]}' > "$TMP/typo-axis.json"
check_fail typo-axis-dry-run 2 "axes: 'rat' is not an option of xnoc traffic \(did you mean rate\? see xnoc traffic --help\)$" \
    $XNOC sweep "$TMP/typo-axis.json" --out "$TMP/typo" --dry-run
printf '{"command":"traffic","fixed":{"topo":"mesh:2x2"},"axes":{"rate":[0.1,0.2]},"metrics":["thruput"]}' > "$TMP/typo-metric.json"
check_fail typo-metric-dry-run 2 "metrics: 'thruput' is not a key of xnoc traffic's report \(did you mean throughput\?\)" \
    $XNOC sweep "$TMP/typo-metric.json" --out "$TMP/typo" --dry-run
[ ! -e "$TMP/typo" ] && ok typo-nothing-written || fail typo-nothing-written "$TMP/typo was created"
