# sched: lower bounds, heuristic and exact (SAT) schedules, schedule files,
# the independent verifier and its error messages
source tests/lib.sh
if unit_bin U sched_unit; then "$U"; fi

s() { $XNOC sched --json "$@" 2>"$TMP/stderr"; }
E=0,2,4,6,8,10,12,14; O=1,3,5,7,9,11,13,15
# Table 2 of the paper (fat-octagon, k=1), one core of each router per set.
# The searches stop on deterministic budgets (tabu moves; SAT conflicts per
# question, the defaults), so these answers do not depend on the machine's
# speed or load; the wall-clock --time-limit (1800 s) is only a safety net,
# and a run it stops says "out of time" (ended "time", exit 1) instead of
# giving another answer.
jcheck t2-mnb-same    "$(s --topo fat-octagon --op mnb --from $E --to $E --exact)" '.steps==7 and .optimal==true and .ended=="proof"'
jcheck t2-mns-same    "$(s --topo fat-octagon --op mns --from $E --to $E --exact)" '.steps==7 and .optimal==true and .ended=="proof"'
jcheck t2-mnb-other   "$(s --topo fat-octagon --op mnb --from $E --to $O --exact)" '.steps==8 and .optimal==true and .ended=="proof"'
jcheck t2-mns-other   "$(s --topo fat-octagon --op mns --from $E --to $O --exact)" '.steps==8 and .optimal==true and .ended=="proof"'
# the SAT solver finds 8 steps (37,272 clauses learned; the default budget
# for this CNF of 188,088 clauses is 1.2e11 / 188,088 = 638,000 conflicts)
j=$(s --topo fat-octagon --op mnb --from $E --to all --exact)
jcheck t2-mnb-all16   "$j" '.steps==8 and .optimal==true and .ended=="proof" and .heuristic_steps==9 and .budget.conflicts==638000 and .sat.clauses==188088 and ([.sat.questions[] | [.steps, .answer]] == [[8, "yes"]]) and .sat.learned < .budget.conflicts'
jcheck t2-mns-all16   "$(s --topo fat-octagon --op mns --from $E --to all --exact)" '.steps==15 and .optimal==true and .ended=="proof"'
jcheck t2-mnb-all-all "$(s --topo fat-octagon --op mnb --exact)" '.steps==15 and .optimal==true and .ended=="proof"'
jcheck t2-mns-all-all "$(s --topo fat-octagon --op mns --exact)" '.steps==16 and .lower_bound==16 and .optimal==true and .bound_terms.largest=="cut" and .bound_terms.b0==8 and .bound_terms.paper_formula==15 and .ended=="proof"'
# the block placement: the SAT solver proves the optimum above the bound
j=$(s --topo fat-octagon --op mns --from 0-7 --to 8-15 --exact)
jcheck proven-above-bound "$j" '.steps==12 and .lower_bound==11 and .proven_impossible==11 and .optimal==true and .ended=="proof" and ([.sat.questions[] | [.steps, .answer]] == [[11, "no"]])'
# the budgets decide: too few conflicts to find 8 steps leaves the
# heuristic's 9, the same on every machine (ended "budget", not "time")
j=$(s --topo fat-octagon --op mnb --from $E --to all --exact --conflicts 1000 --time-limit 86400)
jcheck budget-conflicts "$j" '.steps==9 and .optimal==null and .ended=="budget" and .proven_impossible==0 and .budget.conflicts==1000 and ([.sat.questions[] | [.steps, .answer]] == [[8, "budget"]])'
# without an improving search (--moves 0) the greedy schedule stands; with
# the default budget the tabu search uses all 2,000,000 moves and squeezes 18 into 17
jcheck budget-no-moves "$(s --topo fat-octagon --op mns --moves 0)" '.moves==0 and .budget.moves==0 and .heuristic_steps==.greedy_steps and .steps==18 and .ended=="budget"'
jcheck budget-moves-default "$(s --topo fat-octagon --op mns)" '.moves==2000000 and .budget.moves==2000000 and .greedy_steps==18 and .steps==17 and .optimal==null and .ended=="budget"'
# a large collective gets fewer moves by default (each move costs more); the
# squeeze reaches the bound (128) after 91 of them: exact, on any machine
jcheck budget-moves-scaled "$(s --topo mesh:8x8 --op mns --from 0-31 --to 32-63)" '.budget.moves==275955 and .moves==91 and .greedy_steps==129 and .steps==128 and .ended=="proof"'
# a slower program - the same search under ASan + UBSan, several times
# slower - gives the very same schedule and report: nothing depends on speed
if [ -x "$XNOC_ASAN" ]; then
    a=(--topo mesh:4x4 --op alltoall --exact --moves 100000 --conflicts 2000)
    $XNOC sched "${a[@]}" -o "$TMP/fast.json" --json >"$TMP/fast.out" 2>&1
    $XNOC_ASAN sched "${a[@]}" -o "$TMP/slow.json" --json >"$TMP/slow.out" 2>&1
    jcheck budget-run-ends "$(cat "$TMP/fast.out")" '.ended=="budget" and .moves==100000 and .budget.conflicts==2000 and .sat.questions[-1].answer=="budget"'
    if cmp -s "$TMP/fast.json" "$TMP/slow.json" && [ "$(jq -c 'del(.seconds, .schedule)' "$TMP/fast.out")" = "$(jq -c 'del(.seconds, .schedule)' "$TMP/slow.out")" ]; then
        ok same-answer-when-slower
    else
        fail same-answer-when-slower "fast: $(jq -c '{steps,moves,ended,sat}' "$TMP/fast.out") slow: $(jq -c '{steps,moves,ended,sat}' "$TMP/slow.out")"
    fi
fi
# the safety net: a search it stops reports "out of time" (text, JSON, one
# line on stderr, exit 1) and writes no schedule file.  (Finding 8 steps
# takes seconds of CPU, so 0.01 s stops it on any machine; where it stops -
# in the heuristic's rounds or in the SAT question - may vary, so the
# checks below do not look.)
rm -f "$TMP/late.json"
check_fail out-of-time 1 "^xnoc sched: out of time: --time-limit 0.01 s passed before the search's budgets \(--moves, --conflicts\) ran out, so its result would depend on the machine's speed: raise --time-limit or lower the budgets$" \
    $XNOC sched --topo fat-octagon --op mnb --from $E --to all --exact --time-limit 0.01 -o "$TMP/late.json"
jcheck out-of-time-json "$($XNOC sched --json --topo fat-octagon --op mnb --from $E --to all --exact --time-limit 0.01 2>/dev/null)" '.ended=="time" and .optimal==null and .budget.time_limit==0.01'
check no-file-out-of-time test ! -e "$TMP/late.json"
$XNOC sched --topo fat-octagon --op mnb --from $E --to all --exact --time-limit 0.01 >"$TMP/late.txt" 2>/dev/null
check out-of-time-text grep -q "^  search ended out of time (0.01 s)" "$TMP/late.txt"
# bounds
jcheck bound-oab-log "$(s --topo mesh:4x4 --op bcast)" '.bound_terms.log==4 and .lower_bound==4'
jcheck bound-kport "$(s --topo mesh:4x4 --op scatter --ports 2)" '.bound_terms.ports_inject==8'
jcheck bound-aas-cut "$(s --topo mesh:4x4 --op alltoall)" '.bound_terms.cut==16 and .lower_bound==16'
# eq. 6 by hand, mesh:4x4, T = row 0, R = rows 0-1: Q = 4, b2 = 4 (Q -> row 1),
# b0 = 4 (row 0 split in two: 2 channels each way), T1 = 16/4, T2 = 12/8 -> 4 + 2,
# below the port term 7 (each sender has 7 messages)
jcheck bound-paper-eq6 "$(s --topo mesh:4x4 --op mns --from 0-3 --to 0-7)" '.bound_terms.b2==4 and .bound_terms.b0==4 and .bound_terms.b1==null and .bound_terms.paper_formula==7 and .lower_bound==7'
# disjoint sets (eq. 11): the cut between the halves, 64 messages over 4 links
jcheck bound-disjoint-cut "$(s --topo mesh:4x4 --op mns --from 0-7 --to 8-15)" '.bound_terms.cut==16 and .bound_terms.largest=="cut" and .bound_terms.b0==null'
jcheck bound-mnb-kport "$(s --topo mesh:4x4 --op mnb --from 0-5 --to 4-15 --ports 2)" '.bound_terms.ports_absorb==3 and .bound_terms.log==3'
# combining collectives reach the log bound on the octagon (greedy pairing / gossip)
jcheck reduce-octagon "$(s --topo octagon --op reduce)" '.steps==3 and .optimal==true'
jcheck barrier-octagon "$(s --topo octagon --op barrier)" '.steps==3 and .optimal==true'
# limits: a huge collective is refused in one line, a huge CNF is skipped
check_fail too-large 2 "alltoall needs 1047552 .* at most" $XNOC sched --topo mesh:32x32 --op alltoall
jcheck exact-skipped "$(s --topo mesh:8x8 --op mnb --from 0-30 --to 20-63 --exact)" '(.exact_skipped|test("too large")) and .paths_sampled==true and .ended=="budget" and .sat.questions==[{"steps": 31, "answer": "too large", "learned": 0}]'
# schedule files round-trip through the independent verifier
s --topo octagon --op alltoall --exact -o "$TMP/a2a.json" >/dev/null
check verify-written $XNOC sched --verify "$TMP/a2a.json"
jcheck verify-json "$($XNOC sched --verify "$TMP/a2a.json" --json)" '.valid==true and .steps==7'
s --topo mesh:3x2 --op bcast --from 0 -o "$TMP/b.json" >/dev/null
check verify-bcast $XNOC sched --verify "$TMP/b.json"
# the same under ASan/UBSan, with a file of every kind
if [ -x "$XNOC_ASAN" ]; then
    $XNOC_ASAN sched --topo fat-octagon --op mnb --from 0-7 --to 4-11 -o "$TMP/mnb.json" >/dev/null 2>&1
    check asan-verify-mnb $XNOC_ASAN sched --verify "$TMP/mnb.json"
    $XNOC_ASAN sched --topo mesh:3x3 --op reduce --to 4 -o "$TMP/red.json" >/dev/null 2>&1
    check asan-verify-reduce $XNOC_ASAN sched --verify "$TMP/red.json"
    $XNOC_ASAN sched --topo torus:3x3 --op barrier --ports 2 -o "$TMP/bar.json" >/dev/null 2>&1
    check asan-verify-barrier $XNOC_ASAN sched --verify "$TMP/bar.json"
else
    fail asan-verify "no $XNOC_ASAN (make asan)"
fi

# crafted bad schedules: one line naming the first violation, exit 1
# two senders on one router, two receivers on the other: 0 -> 2 and 1 -> 3 share the one link
s --topo mesh:2x1:c=2 --op mns --from 0-1 --to 2-3 -o "$TMP/m.json" >/dev/null
jq '(.steps[] | .transfers[] | select(.msg==3)) as $x | .steps |= map(.transfers |= map(select(.msg!=3))) | .steps[0].transfers += [$x]' \
    "$TMP/m.json" > "$TMP/bad1.json"
check_fail verify-shared-channel 1 "step 0: transfers 0 -> 2 and 1 -> 3 both use link router 0 port 0 -> router 1" \
    $XNOC sched --verify "$TMP/bad1.json"
jq '.steps[0].transfers[0].chan = 1' "$TMP/m.json" > "$TMP/bad9.json"
check_fail verify-port-limit 1 "uses injection channel 1, but terminals have 1" $XNOC sched --verify "$TMP/bad9.json"
jq '.steps[0].transfers[0].msg = 3' "$TMP/m.json" > "$TMP/bad10.json"
check_fail verify-personalized-relay 1 "carries message 3 \\(1 -> 3\\): personalized" $XNOC sched --verify "$TMP/bad10.json"
jq '.steps += [.steps[0]]' "$TMP/b.json" > "$TMP/bad11.json"
check_fail verify-duplicate 1 "receives message 0 again" $XNOC sched --verify "$TMP/bad11.json"
jq '.steps[0].transfers[0].route[0] = 300' "$TMP/m.json" > "$TMP/bad12.json"
check_fail verify-port-range 1 "hop 0 names port 300" $XNOC sched --verify "$TMP/bad12.json"
jq 'del(.steps[0].transfers[0].chan)' "$TMP/m.json" > "$TMP/bad13.json"
check_fail verify-missing-field 2 "step 0 transfer 0: needs integer" $XNOC sched --verify "$TMP/bad13.json"
jq 'del(.steps[-1].transfers[0])' "$TMP/a2a.json" > "$TMP/bad2.json"
check_fail verify-undelivered 1 "never reaches terminal" $XNOC sched --verify "$TMP/bad2.json"
jq '.steps |= ([.[-1]] + .[0:-1])' "$TMP/b.json" > "$TMP/bad3.json"
check_fail verify-forward-before-receipt 1 "forwards message 0 .* before holding it" $XNOC sched --verify "$TMP/bad3.json"
jq '.steps[0].transfers += [.steps[1].transfers[0]]' "$TMP/a2a.json" > "$TMP/bad4.json"
check_fail verify-port-overload 1 "both use (injection|ejection) channel" $XNOC sched --verify "$TMP/bad4.json"
jq '.steps[0].transfers[0].route = [0,0,0,0,0]' "$TMP/a2a.json" > "$TMP/bad5.json"
check_fail verify-bad-route 1 "route ends at router|has no link|names port" $XNOC sched --verify "$TMP/bad5.json"
echo '{"format": "xnoc-schedule", "version": 1' > "$TMP/bad6.json"
check_fail verify-malformed 2 "bad6.json:[0-9]+:" $XNOC sched --verify "$TMP/bad6.json"
jq '.version = 9' "$TMP/a2a.json" > "$TMP/bad7.json"
check_fail verify-version 2 "version 9 is not supported" $XNOC sched --verify "$TMP/bad7.json"
jq '.messages[0].dest = 5' "$TMP/a2a.json" > "$TMP/bad8.json"
check_fail verify-messages 1 "message 0 is" $XNOC sched --verify "$TMP/bad8.json"

# bad input
check_fail bad-op 2 "unknown collective 'allreduce'" $XNOC sched --topo octagon --op allreduce
check_fail bad-set 2 "--from: terminal set" $XNOC sched --topo octagon --op mnb --from 3-99
check_fail two-roots 2 "single terminal" $XNOC sched --topo octagon --op bcast --from 0-1
check_fail missing-op 2 "--op is required" $XNOC sched --topo octagon
check_fail bad-detour 2 "--detour: 9 is out of range" $XNOC sched --topo octagon --op mns --detour 9
check_fail bad-topo 2 "topology" $XNOC sched --topo mesh:0x3 --op mns
check_fail bad-flag 2 "unknown option '--frm' \(did you mean --from\? see xnoc sched --help\)" $XNOC sched --topo octagon --op mns --frm 1
check_fail bad-time 2 "--time-limit" $XNOC sched --topo octagon --op mns --time-limit -1
check_fail bad-conflicts 2 "^xnoc sched: --conflicts: 0 is out of range \[1, 1000000000000\]$" $XNOC sched --topo octagon --op mns --conflicts 0
check_fail bad-moves 2 "^xnoc sched: --moves: -5 is out of range \[0, 1000000000000\]$" $XNOC sched --topo octagon --op mns --moves -5
check_fail bad-moves-word 2 "^xnoc sched: --moves: 'many' is not an integer$" $XNOC sched --topo octagon --op mns --moves many
check_fail missing-value 2 "option '--to' needs a value" $XNOC sched --topo octagon --op mns --to
check_fail verify-missing-file 2 "nofile.json" $XNOC sched --verify "$TMP/nofile.json"
check sched-help $XNOC sched --help
check sched-help-budgets bash -c "$XNOC sched --help | grep -q -- '--conflicts N' && $XNOC sched --help | grep -q -- '--moves N'"
# the text report is the JSON report rendered (util/report.h): every figure of the one is in the other
j=$($XNOC sched --topo mesh:3x3 --op alltoall --exact --json 2>/dev/null)
h=$($XNOC sched --topo mesh:3x3 --op alltoall --exact 2>/dev/null)
want=$(jq -r '"\(.op) on \(.topology) (k=\(.ports)): \(.messages) message(s), \(.transfers) transfer(s)|lower bound \(.lower_bound) (ports inject \(.bound_terms.ports_inject), absorb \(.bound_terms.ports_absorb), log \(.bound_terms.log), cut \(.bound_terms.cut); largest: \(.bound_terms.largest))|paper'"'"'s formula \(.bound_terms.paper_formula) with b0=\(.bound_terms.b0 // "-") b1=\(.bound_terms.b1 // "-") b2=\(.bound_terms.b2 // "-")|schedule \(.steps) steps (greedy \(.greedy_steps), improved \(.heuristic_steps)), proven optimal|search ended by proof (tabu search: \(.moves) of \(.budget.moves) moves)"' <<<"$j")
got=$(printf '%s\n' "$h" | sed 's/^ *//;s/  */ /g;s/, [0-9.]* s$//' | paste -sd'|')
if [ -n "$j" ] && [ "$want" = "$got" ]; then ok sched-text-from-json; else fail sched-text-from-json "json: $want text: $got"; fi
f=$TMP/fo.sched
$XNOC sched --topo fat-octagon --op allgather -o "$f" >/dev/null 2>&1
j=$($XNOC sched --verify "$f" --json 2>/dev/null)
jcheck sched-verify-json "$j" '.valid==true and .op=="allgather" and .topology=="fat-octagon" and .transfers==240'
h=$($XNOC sched --verify "$f" 2>/dev/null)
if [ "$h" = "$f: valid allgather schedule on fat-octagon: $(jq .steps <<<"$j") steps, 240 transfers" ]; then
    ok sched-verify-text-from-json; else fail sched-verify-text-from-json "$h"; fi
# out of memory is one line and exit status 1, not a crash (every harness allocation: cli.h xmalloc)
check_fail out-of-memory-one-line 1 "^xnoc sched: out of memory \([0-9]+ bytes\)$" bash -c "ulimit -v 60000; exec $XNOC sched --topo torus:16x16 --op alltoall"
