# sched: lower bounds, heuristic and exact (SAT) schedules, schedule files,
# the independent verifier and its error messages
source tests/lib.sh
if cc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -fsanitize=address,undefined -Isim_harness \
      -o "$TMP/sched_unit" tests/unit/sched_unit.c sim_harness/sched/bounds.c sim_harness/sched/paths.c \
      sim_harness/sched/heuristic.c sim_harness/sched/sat.c sim_harness/sched/search.c sim_harness/coll/coll.c \
      sim_harness/coll/coll_builtin.c sim_harness/topo.c sim_harness/cli.c -lcadical -lstdc++ -lm 2>"$TMP/cc.log"; then
    "$TMP/sched_unit"
else
    fail sched-unit-build "$(head -5 "$TMP/cc.log")"
fi

s() { $XNOC sched --json "$@" 2>"$TMP/stderr"; }
E=0,2,4,6,8,10,12,14; O=1,3,5,7,9,11,13,15
# Table 2 of the paper (fat-octagon, k=1), one core of each router per set
jcheck t2-mnb-same    "$(s --topo fat-octagon --op mnb --from $E --to $E --exact)" '.steps==7 and .optimal==true'
jcheck t2-mns-same    "$(s --topo fat-octagon --op mns --from $E --to $E --exact)" '.steps==7 and .optimal==true'
jcheck t2-mnb-other   "$(s --topo fat-octagon --op mnb --from $E --to $O --exact)" '.steps==8 and .optimal==true'
jcheck t2-mns-other   "$(s --topo fat-octagon --op mns --from $E --to $O --exact)" '.steps==8 and .optimal==true'
jcheck t2-mnb-all16   "$(s --topo fat-octagon --op mnb --from $E --to all --exact)" '.steps==8 and .optimal==true'
jcheck t2-mns-all16   "$(s --topo fat-octagon --op mns --from $E --to all --exact)" '.steps==15 and .optimal==true'
jcheck t2-mnb-all-all "$(s --topo fat-octagon --op mnb --exact)" '.steps==15 and .optimal==true'
jcheck t2-mns-all-all "$(s --topo fat-octagon --op mns --exact)" '.steps==16 and .lower_bound==16 and .optimal==true and .bound_terms.largest=="cut"'
# the block placement: the SAT solver proves the optimum above the bound
j=$(s --topo fat-octagon --op mns --from 0-7 --to 8-15 --exact --time-limit 60)
jcheck proven-above-bound "$j" '.steps==12 and .lower_bound==11 and .proven_impossible==11 and .optimal==true'
# bounds
jcheck bound-oab-log "$(s --topo mesh:4x4 --op bcast)" '.bound_terms.log==4 and .lower_bound==4'
jcheck bound-kport "$(s --topo mesh:4x4 --op scatter --ports 2)" '.bound_terms.ports_inject==8'
jcheck bound-aas-cut "$(s --topo mesh:4x4 --op alltoall)" '.bound_terms.cut==16 and .lower_bound==16'
# schedule files round-trip through the independent verifier
s --topo octagon --op alltoall --exact -o "$TMP/a2a.json" >/dev/null
check verify-written $XNOC sched --verify "$TMP/a2a.json"
jcheck verify-json "$($XNOC sched --verify "$TMP/a2a.json" --json)" '.valid==true and .steps==7'
s --topo mesh:3x2 --op bcast --from 0 -o "$TMP/b.json" >/dev/null
check verify-bcast $XNOC sched --verify "$TMP/b.json"

# crafted bad schedules: one line naming the first violation, exit 1
jq '.steps[0].transfers[1] = (.steps[0].transfers[0] + {msg: .steps[0].transfers[1].msg})' "$TMP/a2a.json" > "$TMP/bad1.json"
check_fail verify-shared-channel 1 "step 0: transfers .* both use" $XNOC sched --verify "$TMP/bad1.json"
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
check sched-help $XNOC sched --help
