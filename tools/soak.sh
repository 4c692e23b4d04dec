#!/usr/bin/env bash
# tools/soak.sh - `make soak` (also part of `make bench`): saturating
# uniform traffic (offered 0.9 flits/terminal/cycle, 4-flit packets) for
# CYCLES measured cycles (10^6) on every topology, at both ends of the
# router's VC/buffer range; every flit checked at its destination.  Passes
# when there is no error and every packet that entered the network came
# out (conservation).  Prints Markdown.  usage: tools/soak.sh [CYCLES]
set -u
cd "$(dirname "$0")/.."
X=${XNOC:-build/xnoc}
C=${1:-1000000}
echo "\`tools/soak.sh $C\`: \`xnoc traffic --pattern uniform --rate 0.9 --packet 4 --cycles $C --warmup 1000 --router R\`"
echo
echo "| topology | router | accepted (flits/term/cycle) | avg latency | packets in | packets out | errors | conserved | seconds |"
echo "|---|---|---:|---:|---:|---:|---:|---|---:|"
fail=0
for t in mesh:4x4 torus:4x4 octagon fat-octagon; do
    for r in vcs=2,buf=1 vcs=8,buf=64; do
        t0=$(date +%s.%N)
        j=$($X traffic --json --topo $t --router $r,ncu=0 --pattern uniform --rate 0.9 --packet 4 --cycles "$C" --warmup 1000 2>/dev/null)
        t1=$(date +%s.%N)
        ok=$(jq -r 'if .errors == 0 and .injected_packets == .delivered_packets then "yes" else "NO" end' <<<"$j" 2>/dev/null)
        [ "$ok" = yes ] || fail=1
        jq -r --arg t "$t" --arg r "$r" --arg s "$(echo "$t1 - $t0" | bc)" --arg ok "${ok:-NO}" \
            '"| \($t) | \($r) | \(.throughput*1000|floor/1000) | \(.avg_latency|floor) | \(.injected_packets) | \(.delivered_packets) | \(.errors) | \($ok) | \($s|tonumber|floor) |"' <<<"$j" \
            || echo "| $t | $r | run failed | | | | | NO | |"
    done
done
exit $fail
