# clos: the Clos multicast network v(m,n,r) of Yang and Masson (xnoc clos;
# net/clos_ctl.c, coll/closmodel.c, coll/clossim.c; docs/clos.md)
source tests/lib.sh

c() { $XNOC clos --json "$@" 2>"$TMP/stderr"; }

# the routing control and the bounds, unit by unit (exact roots, the table,
# random traffic with invariants, Theorem 1 and no block at Theorem 3's m)
if unit_bin U clos_unit; then check clos-unit "$U"; fi
# the synthesizable controller rtl/xnoc_clos_ctl.sv (verilated) against the
# C model on 10^5 random decisions: same switches, same count, same blocked,
# 1 + rounds clocks
if unit_bin R clos_rtl; then
    out=$("$R" 100000 2>&1)
    if [ $? = 0 ] && grep -q '^clos_rtl: 100000 decisions .* 0 disagree$' <<<"$out" && ! grep -q ' 0 blocked' <<<"$out"; then ok clos-rtl
    else fail clos-rtl "$(tail -3 <<<"$out" | tr '\n' ' ')"; fi
fi

# Theorem 3 by hand for n = 4, r = 16: x = 1: 3 x 17 = 51, x = 2: 3 x 6 = 18,
# x = 3: 3 (3 + 16^(1/3)) = 16.5595 -> m >= 17; Theorem 4: 3 x 3 ln 16 / ln ln 16
j=$(c --n 4 --r 16 --d 4 --b 0.3)
jcheck th3-4-16 "$j" '.theorem3.x==3 and .theorem3.x_max==3 and .theorem3.m_min==17 and (.theorem3.bound - 16.559526) < 1e-6 and (.theorem3.bound - 16.559526) > -1e-6'
jcheck th4-4-16 "$j" '.theorem4.m_min==25 and (.theorem4.bound - 24.469261 | fabs) < 1e-6 and .clos.m_min==7'
jcheck cor1-4-16 "$j" '.corollary1.d==4 and .corollary1.x==2 and .corollary1.bound==12 and .corollary1.m_min==13'
jcheck cor3-4-16 "$j" '.corollary3.floor_1_over_b==3 and .corollary3.x==3 and .corollary3.m_min==50 and .corollary3.corollary4_m_min==19'
jcheck crosspoints-4-16 "$j" '.crosspoints.m==17 and .crosspoints.three_stage==6528 and .crosspoints.crossbar==4096'
jcheck example-net-bound "$(c --n 3 --r 4)" '.theorem3.x==2 and .theorem3.bound==8 and .theorem3.m_min==9'
jcheck r1 "$(c --n 5 --r 1)" '.theorem3.m_min==9 and .theorem4.bound==null'
jcheck b-fraction "$(c --n 4 --r 16 --b 1/4)" '.corollary3.floor_1_over_b==4 and .corollary3.corollary4_m_min==25'
$XNOC clos --n 4 --r 16 --d 4 --b 0.3 >"$TMP/text" 2>&1
if grep -q 'x = 3: m >= 17$' "$TMP/text" && grep -q 'm >= 25$' "$TMP/text" && grep -q 'x = 2: m >= 13 ' "$TMP/text" \
    && ! grep -q '{?' "$TMP/text"; then ok text-from-json; else fail text-from-json "$(head -3 "$TMP/text")"; fi

# the paper's table, row for row
j=$(c --table)
jcheck table-paper "$j" '[.rows[] | [.r, .x, .coefficient]] == [[1,1,2],[2,1,3],[4,2,4],[9,2,5],[27,3,6],[81,4,7],[256,4,8],[1024,5,9],[4096,6,10],[16384,7,11],[78125,7,12],[390625,8,13],[1953125,9,14],[10077696,9,15]]'
jcheck table-min-agrees "$j" 'all(.rows[]; .min_x == .x and ((.min_coefficient - .coefficient) | fabs) < 1e-9)'

# the (5,3,4) example: the paper's M1-M5, and the algorithm's own routing
j=$(c --example)
jcheck example-paper-sets "$j" '.destination_sets == [[1,2,3],[2,3,4],[1,2,4],[3,4],[1]] and .matches_paper and .state_consistent'
jcheck example-algorithm "$j" '.algorithm.destination_sets == [[1,2,3],[1,3,4],[2,3,4],[1,2,4],[]] and all(.algorithm.routes[]; .blocked == false)'
$XNOC clos --example >"$TMP/ex" 2>&1
if grep -q '^  M4 = {3,4}$' "$TMP/ex" && grep -q 'M1-M5: true' "$TMP/ex"; then ok example-text; else fail example-text "$(head -3 "$TMP/ex")"; fi

# bad input: one line, exit 2
check_fail n-zero 2 "--n: 0 is out of range" $XNOC clos --n 0 --r 4
check_fail n-one 2 "need n >= 2" $XNOC clos --n 1 --r 4
check_fail r-huge 2 "--r: 99999999999 is out of range" $XNOC clos --n 4 --r 99999999999
check_fail r-junk 2 "--r: '1x' is not an integer" $XNOC clos --n 4 --r 1x
check_fail missing-r 2 "--n and --r are required" $XNOC clos --n 4
check_fail d-above-r 2 "--d 20: a fanout bound above r = 16" $XNOC clos --n 4 --r 16 --d 20
check_fail b-zero 2 "b must lie in \\(0, 1\\]" $XNOC clos --n 4 --r 16 --b 0
check_fail b-two 2 "b must lie in \\(0, 1\\]" $XNOC clos --n 4 --r 16 --b 2
check_fail b-tiny 2 "b below 1/1000" $XNOC clos --n 4 --r 16 --b 0.0001
jcheck b-thousandth "$(c --n 65536 --r 16777216 --b 1/1000)" '.corollary3.floor_1_over_b==1000 and .corollary3.m_min > .theorem3.m_min * 999 and .theorem3.m_min > 0'
check_fail b-junk 2 "expected a fraction" $XNOC clos --n 4 --r 16 --b 0.3x
check_fail fanout-bad 2 "--fanout '0-3'" $XNOC clos --simulate --n 4 --r 16 --fanout 0-3
check_fail fanout-above-r 2 "--fanout '2-17'" $XNOC clos --simulate --n 4 --r 16 --fanout 2-17
check_fail x-above-r 2 "--x: 17 is out of range" $XNOC clos --simulate --n 4 --r 16 --x 17
check_fail window-bad 2 "unknown 'some' \\(all, paper\\)" $XNOC clos --simulate --n 4 --r 16 --window some
check_fail sim-r-huge 2 "the simulator takes r <= 4096" $XNOC clos --simulate --n 4 --r 100000
check_fail modes 2 "exclude each other" $XNOC clos --table --example
check_fail plot-no-out 2 "--plot needs --out" $XNOC clos --sweep-m --n 4 --r 16 --plot
check_fail m-range 2 "--m-to 3 is below --m-from 5" $XNOC clos --sweep-m --n 4 --r 16 --m-from 5 --m-to 3
check_fail unknown 2 "unknown option '--bogus'" $XNOC clos --bogus
check_fail adv-r 2 "the adversary takes r <= 256" $XNOC clos --adversary --n 2 --r 300

# random multicast traffic: at Theorem 3's m (x the minimizing one) nothing
# blocks, fanouts up to r; at Clos's 2n-1 with fanouts above 1 some do
j=$(c --simulate --n 4 --r 16 --m 17 --fanout 1-16 --requests 1000000)
jcheck sim-th3-none-blocked "$j" '.m==17 and .x==3 and .requests==1000000 and .blocked==0 and .routed==1000000'
jcheck sim-th3-paper-window "$(c --simulate --n 4 --r 16 --m 17 --window paper --requests 100000)" '.blocked==0 and .window=="paper" and .max_middle_switches==3'
jcheck sim-3-4-at-9 "$(c --simulate --n 3 --r 4 --m 9 --load 2 --requests 100000)" '.x==2 and .blocked==0'
j=$(c --simulate --n 4 --r 16 --m 7 --fanout 2-16 --requests 100000)
jcheck sim-clos-blocks "$j" '.m==7 and .blocked > 0 and .blocking > 0 and .blocking < 0.01 and .mean_fanout > 2'
jcheck sim-deterministic "$(c --simulate --n 4 --r 16 --m 7 --fanout 2-16 --requests 100000)" ". == $j"
jcheck sim-seed "$(c --simulate --n 4 --r 16 --m 7 --fanout 2-16 --requests 100000 --seed 2)" ".blocked != $(jq .blocked <<<"$j")"
if [ -x "$XNOC_ASAN" ]; then
    j=$($XNOC_ASAN clos --json --simulate --n 3 --r 5 --m 4 --requests 20000 2>"$TMP/stderr")
    jcheck sim-asan "$j" '.requests==20000 and .blocked > 0'
else echo "skip sim-asan: $XNOC_ASAN is missing (make asan)"; fi

# the state's invariants after every request (ports, links, destination sets = owners), blocking and departing
jcheck sim-invariants "$(c --simulate --n 4 --r 16 --m 5 --fanout 1-16 --requests 20000 --check-every 1)" '.check_failures==0 and .blocked > 0 and .routed > 0'
check_fail check-every-bad 2 "--check-every: 0 is out of range" $XNOC clos --simulate --n 4 --r 16 --check-every 0

# every mode's text comes from its JSON report: no placeholder left unfilled
for args in "--table" "--example" "--n 4 --r 2 --d 2 --b 1" "--n 4 --r 16 --d 4 --b 1/3 --m 20" \
            "--simulate --n 3 --r 4 --requests 1000" "--sweep-m --n 3 --r 4 --requests 1000" "--adversary --n 2 --r 3 --budget 100"; do
    # shellcheck disable=SC2086
    $XNOC clos $args >"$TMP/t" 2>&1
    if [ $? = 0 ] && ! grep -q '{?' "$TMP/t" && [ "$(grep -c . "$TMP/t")" -ge 2 ]; then ok "text ${args%% *}"
    else fail "text ${args%% *}" "$(grep '{?' "$TMP/t" | head -2)"; fi
done

# the blocking curve: CSV and a PNG
j=$(c --sweep-m --n 4 --r 16 --fanout 2-16 --requests 20000 --m-from 4 --m-to 18 --out "$TMP/sw o" --plot)
jcheck sweep-points "$j" '(.points|length)==15 and .points[0].blocked > .points[3].blocked and all(.points[]; .m < 17 or .blocked == 0)'
if [ "$(wc -l <"$TMP/sw o/clos-sweep.csv")" = 16 ] && head -c 8 "$TMP/sw o/clos-sweep.png" | grep -q PNG; then ok sweep-files
else fail sweep-files "$(ls "$TMP/sw o")"; fi
# gnuplot is started like the sweep's (cmd/sweep_run.c's sweep_run_tool): without it, one line
# naming the program, why, what to install and where the kept files are, exit 1; CSV and script kept
env PATH=/nonexistent $XNOC_ASAN clos --sweep-m --n 4 --r 16 --requests 200 --m-from 4 --m-to 5 --out "$TMP/np" --plot >/dev/null 2>"$TMP/np.err"
rc=$?
if [ $rc = 1 ] && [ "$(cat "$TMP/np.err")" = "xnoc clos: --plot: cannot run gnuplot: No such file or directory (gnuplot-nox: make deps); the data and script are kept: $TMP/np/clos-sweep.gp" ]; then ok sweep-plot-no-gnuplot
else fail sweep-plot-no-gnuplot "exit $rc: $(head -3 "$TMP/np.err" | tr '\n' '|')"; fi
# a gnuplot that fails: its own words (its stderr), then the one line with its exit status
mkdir -p "$TMP/fakebin" && printf '#!/bin/sh\necho "gnuplot: bad script" >&2\nexit 3\n' >"$TMP/fakebin/gnuplot" && chmod +x "$TMP/fakebin/gnuplot"
env PATH="$TMP/fakebin" $XNOC clos --sweep-m --n 4 --r 16 --requests 200 --m-from 4 --m-to 5 --out "$TMP/np" --plot >/dev/null 2>"$TMP/np.err"
rc=$?
if [ $rc = 1 ] && [ "$(cat "$TMP/np.err")" = "gnuplot: bad script
xnoc clos: --plot: gnuplot exited with 3 (gnuplot-nox: make deps); the data and script are kept: $TMP/np/clos-sweep.gp" ]; then ok sweep-plot-gnuplot-fails
else fail sweep-plot-gnuplot-fails "exit $rc: $(head -3 "$TMP/np.err" | tr '\n' '|')"; fi
check sweep-plot-no-gnuplot-kept test "$(wc -l <"$TMP/np/clos-sweep.csv")" = 3 -a -s "$TMP/np/clos-sweep.gp"

# the adversary: v(m,3,4) with x = 2 blocks at Clos's 2n-1 = 5 (a multicast
# beats the permutation bound), never at Theorem 3's 9
j=$(c --adversary --n 3 --r 4 --budget 20000)
jcheck adversary-3-4 "$j" '.largest_forced_m == 5 and ([.points[] | .forced] == [true,true,true,false,false,false,false]) and (.points[-1] | .m == 9)'
jcheck adversary-3-4-request "$j" '.points[2] | .m == 5 and .links_in_use == 3 and (.request | length) == 3'
# with x = 1 a multicast blocks even at Clos's 2n-1 = 5 (the x = 1 bound is (n-1)(1 + r) = 10)
jcheck adversary-x1-beats-clos "$(c --adversary --n 3 --r 4 --x 1 --budget 3000 --m-from 5 --m-to 5)" '.points[0].forced == true and .largest_forced_m == 5'

# the controller synthesizes (yosys, generic gates): v(13,4,4), 93 flip-flops
# (S_j 52, candidates 13, chosen 13, count 4, x 4, minimum 3, state 2, done, blocked)
if command -v yosys >/dev/null; then
    out=$(CLOS_SYNTH_R=4 tools/clos_synth.sh 2>&1)
    if grep -Eq '^\| 4 \| 13 \| 2 \| [0-9]+ \| 93 \| 3 \|' <<<"$out"; then ok clos-synth
    else fail clos-synth "$(tail -2 <<<"$out" | tr '\n' ' ')"; fi
else echo "skip clos-synth: yosys is missing (make deps)"; fi
