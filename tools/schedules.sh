#!/usr/bin/env bash
# tools/schedules.sh - regenerates schedules/: the proven-optimal step
# schedules of the standard cases, which xnoc collective takes before any
# search.  Each case runs the exact (SAT) search; only a schedule proven
# optimal is written (xnoc sched --ship).  usage: tools/schedules.sh [CONFLICTS]
# (the SAT budget per question, deterministic: the same files on any machine;
# default: xnoc sched's, docs/scheduling.md "Budgets")
set -u
cd "$(dirname "$0")/.."
X=build/xnoc
BUDGET=${1:+--conflicts $1}
mkdir -p schedules
cases() {
    for t in fat-octagon octagon mesh:4x4; do
        for k in 1 2; do
            for op in barrier bcast scatter gather reduce allgather alltoall mnb mns; do
                echo "--topo $t --ports $k --op $op"
            done
            for op in mnb mns; do echo "--topo $t --ports $k --op $op --from 0-5 --to 3-7"; done
        done
    done
    for op in mnb mns; do
        echo "--topo fat-octagon --ports 1 --op $op --from 0,2,4,6,8,10,12,14 --to 1,3,5,7,9,11,13,15"
    done
    for op in bcast scatter gather reduce; do echo "--topo mesh:8x8 --ports 1 --op $op"; done
}
cases | while read -r c; do
    j=$($X sched $c --exact $BUDGET --ship schedules --json 2>/dev/null)
    printf '%-70s %s\n' "$c" "$(jq -c '{steps, lower_bound, optimal, ended, seconds: (.seconds|floor)}' <<<"$j" 2>/dev/null)"
done
