#!/usr/bin/env bash
# tools/bench_system.sh - the node side of `make bench`: core-emulator speed,
# full-system simulation speed, and collectives against their lower bounds
# and the eq. 12 model.  Prints Markdown on stdout.
set -eu
cd "$(dirname "$0")/.."
X=build/xnoc
export XNOC_PROGRESS=0
now() { date +%s.%N; }

echo "## Core emulator"
echo
echo "\`build/xnoc run --topo mesh:1x1 --clock-ratio 1024 --arg 0=400 build/firmware/compute.elf\`"
echo "(integer matrix products + CRC; the one-router network is clocked once per 1024 instructions)"
echo
echo "| run | instructions | seconds | MIPS |"
echo "|---|---:|---:|---:|"
for i in 1 2 3; do
    t0=$(now)
    j=$($X run --json --topo mesh:1x1 --clock-ratio 1024 --arg 0=400 build/firmware/compute.elf 2>/dev/null)
    t1=$(now)
    n=$(jq .instructions <<<"$j")
    awk -v i=$i -v n=$n -v a=$t0 -v b=$t1 'BEGIN { printf "| %d | %d | %.3f | %.0f |\n", i, n, b - a, n / (b - a) / 1e6 }'
done
echo
echo "## Full system: 16 or 64 cores on the RTL network"
echo
echo "\`build/xnoc run --topo T --arg 0=256 build/firmware/all-pairs.elf\` (every node sends 256 bytes to every other and checks them)"
echo
echo "| topology | cores | network cycles | instructions | seconds | cycles/s |"
echo "|---|---:|---:|---:|---:|---:|"
for t in fat-octagon mesh:8x8; do
    $X run --topo $t build/firmware/hello.elf >/dev/null 2>&1 || true     # build the network first
    t0=$(now)
    j=$($X run --json --topo $t --arg 0=256 build/firmware/all-pairs.elf 2>/dev/null)
    t1=$(now)
    awk -v t=$t -v n=$($X topo --topo $t --json | jq .terminals) -v c=$(jq .cycles <<<"$j") -v i=$(jq .instructions <<<"$j") -v a=$t0 -v b=$t1 \
        'BEGIN { printf "| %s | %d | %d | %d | %.2f | %.0f |\n", t, n, c, i, b - a, c / (b - a) }'
done
echo
echo "## Collectives on fat-octagon, 1 KiB and 16 KiB messages"
echo
tools/coll_compare.sh fat-octagon 1024 16384
echo
echo "Scheduled alltoall, 16 KiB, both step modes:"
echo
echo "| sync | cycles | model | t_s | t_1 | busiest channel use | stalled flit-cycles |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for s in global data; do
    j=$($X collective --json --topo fat-octagon --op alltoall --bytes 16384 --sync $s 2>/dev/null)
    jq -r '"| \(.sync) | \(.cycles) | \(.model_cycles|floor) | \(.t_s|floor) | \(.t_1) | \(.busiest_channel_utilization*1000|floor/10)% | \(.stalled_flit_cycles) |"' <<<"$j"
done
