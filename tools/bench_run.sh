#!/usr/bin/env bash
# tools/bench_run.sh - full-system speed of `xnoc run`: network cycles (and
# instructions) simulated per second of host time for all-pairs on
# fat-octagon (16 cores) and mesh:8x8 (64 cores).  Markdown on stdout.
# usage: tools/bench_run.sh [BYTES]   (message size, default 256)
set -eu
cd "$(dirname "$0")/.."
X=${XNOC:-build/xnoc}
bytes=${1:-256}
export XNOC_PROGRESS=0
now() { date +%s.%N; }

echo "| topology | cores | bytes | network cycles | instructions | packets | seconds | cycles/s | MIPS |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for t in fat-octagon mesh:8x8; do
    $X run --topo "$t" build/firmware/hello.elf >/dev/null 2>&1 || true   # verilate outside the timing
    t0=$(now)
    j=$($X run --json --topo "$t" --arg 0="$bytes" build/firmware/all-pairs.elf 2>/dev/null)
    t1=$(now)
    [ "$(jq .ok <<<"$j")" = true ] || { echo "all-pairs failed on $t: $(jq -r .error <<<"$j")" >&2; exit 1; }
    jq -r --arg t "$t" --arg b "$bytes" --arg s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
        '"| \($t) | \(.exit_codes|length) | \($b) | \(.cycles) | \(.instructions) | \(.packets) | \($s|tonumber*100|round/100) | \(.cycles/($s|tonumber)|round) | \(.instructions/($s|tonumber)/1e6*10|round/10) |"' <<<"$j"
done
