#!/usr/bin/env bash
# tools/coll_compare.sh - every collective with every algorithm that applies,
# at several message sizes, on the RTL network: cycles, the model, the
# busiest channel's utilization and contention, as Markdown (docs/collectives.md,
# docs/performance.md).  The routers are built without coding units (ncu=0):
# collectives never address them, and the cycles are the same either way
# (the units' port stays idle); the simulation runs about twice as fast.
# usage: tools/coll_compare.sh [-j JOBS] [-o RAW.jsonl] TOPO [BYTES...]
set -u
cd "$(dirname "$0")/.."
X=${XNOC:-build/xnoc}
jobs=1 raw=
while [ $# -gt 0 ]; do
    case $1 in
        -j) jobs=$2; shift 2 ;;
        -o) raw=$2; shift 2 ;;
        *) break ;;
    esac
done
T=${1:?usage: tools/coll_compare.sh [-j JOBS] [-o RAW] TOPO [BYTES...]}; shift
sizes=${*:-64 1024 16384}
[ -n "$raw" ] || raw=$(mktemp)
: > "$raw"
points() {
    for op in barrier bcast scatter gather reduce allgather alltoall; do
        for a in sched tree ring rd all-at-once; do
            for b in $sizes; do
                [ $op = barrier ] && [ "$b" != "$(set -- $sizes; echo $1)" ] && continue
                echo "$op $a $b"
            done
        done
    done
}
run_point() {
    local op=$1 a=$2 b=$3
    [ $op = reduce ] && [ $((b % 4)) != 0 ] && return
    j=$($X collective --json --topo "$T" --router ncu=0 --op $op --algo $a --bytes $b --time-limit 60 2>/dev/null) || [ -n "$j" ] || return 0
    jq -c 'del(.links)' <<<"$j"
}
export -f run_point
export T X
points | xargs -P "$jobs" -L1 bash -c 'run_point "$@"' _ >> "$raw"
echo "\`tools/coll_compare.sh $T $sizes\` (routers ncu=0; cycles: first start to last end of the timed region)"
echo
echo "| collective | algorithm | bytes | steps | bound | cycles | model | busiest channel | its utilization | stalled flit-cycles |"
echo "|---|---|---:|---:|---:|---:|---:|---|---:|---:|"
jq -rs --arg order "barrier bcast scatter gather reduce allgather alltoall" '
  ($order | split(" ")) as $ops | ["sched","tree","ring","rd","all-at-once"] as $al |
  sort_by(. as $r | [($ops | index($r.op)), $r.bytes, ($al | index($r.algo))])[] |
  "| \(.op) | \(.algo) | \(.bytes) | \(.steps) | \(.lower_bound) | \(.cycles)\(if .verified then "" else " (NOT VERIFIED)" end) | \(.model_cycles|floor) | \(.busiest_channel) | \(.busiest_channel_utilization*1000|floor/10)% | \(.stalled_flit_cycles) |"' "$raw"
