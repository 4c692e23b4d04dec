#!/usr/bin/env bash
# tools/bench.sh - performance figures of xnoc (docs/performance.md).
#
# usage: tools/bench.sh [--quick] [SECTION...]     sections: speed traffic (default: both)
#   --quick       fewer rates and no 16x16 mesh
#   ROUTER=spec   router parameters (vcs=2,buf=8,ncu=0: BookSim2's router has no
#                 coding unit; the cost of the units is measured separately)
#   BOOKSIM=path  also run BookSim2 with the same configuration, side by side
#                 (build it from github.com/booksim/booksim2 under /tmp; it is
#                 never part of this repository)
#
# Each section prints Markdown tables on stdout; JSON of every run goes to
# build/bench/.  Speeds are simulated cycles per CPU second (user + system).  Network builds are cached; the first use of a configuration
# builds it (not counted in the simulation speed).
set -u
cd "$(dirname "$0")/.."
XNOC=${XNOC:-build/xnoc}
ROUTER=${ROUTER:-vcs=2,buf=8,ncu=0}
OUT=build/bench
mkdir -p "$OUT"
QUICK=0
SECTIONS=()
for a in "$@"; do
    case "$a" in
        --quick) QUICK=1 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) SECTIONS+=("$a") ;;
    esac
done
[ ${#SECTIONS[@]} = 0 ] && SECTIONS=(speed traffic)
export XNOC_PROGRESS=0
command -v jq >/dev/null || { echo "bench.sh: jq is needed (make deps)" >&2; exit 2; }
[ -x "$XNOC" ] || { echo "bench.sh: $XNOC is missing: run make" >&2; exit 2; }

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# Runs CMD with stdout to OUT and stderr to ERR; prints its CPU seconds
# (user + system).  CPU time, not wall time: the machine is shared, and a
# busy neighbour would otherwise halve the figures.
cpu_run() {
    local out=$1 err=$2 TIMEFORMAT='%3U+%3S'
    shift 2
    { time "$@" >"$out" 2>"$err"; } 2>&1 | awk -F+ '{ printf "%.3f", $1 + $2 }'
}

# ----------------------------------------------------------------- speed

# The headline comparison: mesh:8x8, uniform, offered 0.1, 1- and 4-flit
# packets; each simulator's best of three runs (CPU time: the least disturbed).
bench_speed() {
    local len i x u b xbest ubest bbest
    echo "## simulation speed: mesh:8x8, uniform, offered 0.1, router $ROUTER (best of 3 runs, cycles per CPU second)"
    echo
    "$XNOC" traffic --topo mesh:8x8 --router "$ROUTER" --pattern uniform --rate 0.01 --cycles 10 --warmup 0 >/dev/null 2>&1   # build
    "$XNOC" traffic --topo mesh:8x8 --router vcs=2,buf=8,ncu=1 --pattern uniform --rate 0.01 --cycles 10 --warmup 0 >/dev/null 2>&1
    echo "| packets | xnoc | BookSim2 | ratio | xnoc with coding units (ncu=1, no coding traffic) |"
    echo "|---|---|---|---|---|"
    for len in 1 4; do
        xbest=0
        ubest=0
        bbest=0
        for i in 1 2 3; do
            read -r _ _ _ cyc sec _ _ <<<"$(xnoc_point mesh:8x8 0.1 "$len" 30000)"
            x=$(speed "$cyc" "$sec")
            [ "$x" != - ] && [ "$x" -gt "$xbest" ] && xbest=$x
            read -r _ _ _ cyc sec _ _ <<<"$(xnoc_point mesh:8x8 0.1 "$len" 30000 vcs=2,buf=8,ncu=1)"
            u=$(speed "$cyc" "$sec")
            [ "$u" != - ] && [ "$u" -gt "$ubest" ] && ubest=$u
            if [ -n "${BOOKSIM:-}" ]; then
                read -r _ _ bcyc bsec <<<"$(booksim_point 8 0.1 "$len" latency)"
                b=$(speed "$bcyc" "$bsec")
                [ "$b" != - ] && [ "$b" -gt "$bbest" ] && bbest=$b
            fi
        done
        if [ -n "${BOOKSIM:-}" ]; then
            echo "| $len flit(s) | $xbest | $bbest | $(awk -v a="$xbest" -v b="$bbest" 'BEGIN { printf "%.1fx", b ? a / b : 0 }') | $ubest |"
        else
            echo "| $len flit(s) | $xbest | - | - | $ubest |"
        fi
    done
    echo
}

# --------------------------------------------------------------- traffic

# One xnoc run: prints "throughput avg_latency p99 cycles seconds errors saturated".
xnoc_point() {
    local topo=$1 rate=$2 len=$3 cycles=$4 router=${5:-$ROUTER} f="$OUT/xnoc-${1//:/_}-r$2-L$3-${5:-base}.json"
    local cpu
    cpu=$(cpu_run "$f" "$f.err" "$XNOC" traffic --topo "$topo" --router "$router" --pattern uniform --rate "$rate" \
        --packet "$len" --cycles "$cycles" --warmup 3000 --drain $((cycles * 3)) --json)
    jq -r --arg s "$cpu" \
        '"\(.throughput) \(.avg_latency) \(.p99_latency) \(.cycles) \($s) \(.errors) \(.saturated)"' "$f" 2>/dev/null ||
        echo "- - - - - - $(head -1 "$f.err")"
}

# BookSim2 with the same network: input-queued, 2 VCs x 8 flits, XY (dor),
# iSLIP with one iteration, uniform traffic, rate in flits/terminal/cycle.
booksim_cfg() {   # k n rate len simtype
    cat <<EOF
topology = mesh; k = $1; n = $2; routing_function = dor;
num_vcs = 2; vc_buf_size = 8; wait_for_tail_credit = 0;
router = iq; vc_allocator = islip; sw_allocator = islip; alloc_iters = 1;
traffic = uniform; packet_size = $4; injection_rate_uses_flits = 1; injection_rate = $3;
sim_type = $5; warmup_periods = 3; sample_period = 10000; max_samples = 10;
EOF
}

# One BookSim run: prints "throughput avg_latency cycles seconds".
booksim_point() {
    local k=$1 rate=$2 len=$3 type=$4 f="$OUT/booksim-${1}x${1}-r$2-L$3-$4"
    booksim_cfg "$k" 2 "$rate" "$len" "$type" >"$f.cfg"
    local cpu thr lat cyc
    cpu=$(cpu_run "$f.log" "$f.err" "$BOOKSIM" "$f.cfg")
    thr=$(grep 'Accepted flit rate average' "$f.log" | tail -1 | awk '{print $6}')
    lat=$(grep 'Packet latency average' "$f.log" | tail -1 | awk '{print $5}')
    cyc=$(grep 'Time taken is' "$f.log" | tail -1 | awk '{print $4}')
    echo "${thr:--} ${lat:-unstable} ${cyc:--} $cpu"
}

speed() { echo "$1 $2" | awk '$1 ~ /^[0-9]/ && $2 > 0 { printf "%.0f", $1 / $2; exit } { print "-" }'; }

bench_traffic() {
    local rates lens topos
    if [ $QUICK = 1 ]; then rates="0.05 0.15 0.25 0.35 0.45"; else rates="0.05 0.10 0.15 0.20 0.25 0.30 0.35 0.40 0.45"; fi
    echo "## traffic: mesh:8x8, uniform, router $ROUTER (xnoc RTL vs BookSim2)"
    echo
    # build first, so that the timed runs measure simulation only
    local b0 b1
    b0=$(now)
    "$XNOC" traffic --topo mesh:8x8 --router "$ROUTER" --pattern uniform --rate 0.01 --cycles 10 --warmup 0 >/dev/null 2>&1
    b1=$(now)
    printf 'first run of mesh:8x8 (build if not cached, or load): %.1f s\n\n' "$(secs "$b0" "$b1")"
    for len in 1 4; do
        echo "### packets of $len flit(s)"
        echo
        if [ -n "${BOOKSIM:-}" ]; then
            echo "| offered | xnoc accepted | xnoc avg lat | xnoc p99 | xnoc cycles/s | BookSim accepted | BookSim avg lat | BookSim cycles/s |"
            echo "|---|---|---|---|---|---|---|---|"
        else
            echo "| offered | accepted | avg latency | p99 latency | cycles/s | errors |"
            echo "|---|---|---|---|---|---|"
        fi
        for r in $rates; do
            read -r thr lat p99 cyc sec errs _sat <<<"$(xnoc_point mesh:8x8 "$r" "$len" 20000)"
            if [ -n "${BOOKSIM:-}" ]; then
                read -r bthr blat bcyc bsec <<<"$(booksim_point 8 "$r" "$len" latency)"
                printf '| %s | %.4f | %.1f | %s | %s | %s | %s | %s |\n' "$r" "$thr" "$lat" "$p99" "$(speed "$cyc" "$sec")" \
                    "$bthr" "$blat" "$(speed "$bcyc" "$bsec")"
            else
                printf '| %s | %.4f | %.1f | %s | %s | %s |\n' "$r" "$thr" "$lat" "$p99" "$(speed "$cyc" "$sec")" "$errs"
            fi
        done
        # saturation throughput: accepted load with every source queue backlogged
        read -r thr _ _ cyc sec errs _ <<<"$(xnoc_point mesh:8x8 0.8 "$len" 20000)"
        printf '\nsaturation (offered 0.8): xnoc accepts %.4f flits/terminal/cycle (%s cycles/s, errors %s)' "$thr" "$(speed "$cyc" "$sec")" "$errs"
        if [ -n "${BOOKSIM:-}" ]; then
            read -r bthr _ bcyc bsec <<<"$(booksim_point 8 0.8 "$len" throughput)"
            printf '; BookSim2 accepts %s (%s cycles/s)' "$bthr" "$(speed "$bcyc" "$bsec")"
        fi
        printf '\n\n'
    done

    echo "### other topologies: uniform, 4-flit packets"
    echo
    topos="octagon fat-octagon mesh:4x4 torus:4x4"
    [ $QUICK = 0 ] && topos="$topos mesh:16x16"
    echo "| topology | offered | accepted | avg latency | cycles/s | saturation (offered 0.8) | errors |"
    echo "|---|---|---|---|---|---|---|"
    for t in $topos; do
        "$XNOC" traffic --topo "$t" --router "$ROUTER" --pattern uniform --rate 0.01 --cycles 10 --warmup 0 >/dev/null 2>&1   # build
        read -r thr lat _ cyc sec errs _ <<<"$(xnoc_point "$t" 0.1 4 20000)"
        read -r sthr _ _ _ _ serrs _ <<<"$(xnoc_point "$t" 0.8 4 20000)"
        printf '| %s | 0.1 | %.4f | %.1f | %s | %.4f | %s |\n' "$t" "$thr" "$lat" "$(speed "$cyc" "$sec")" "$sthr" "$((errs + serrs))"
    done
    echo
    if [ -n "${BOOKSIM:-}" ] && [ $QUICK = 0 ]; then
        read -r _ _ bcyc bsec <<<"$(booksim_point 16 0.1 4 latency)"
        echo "BookSim2 mesh 16x16, offered 0.1, 4-flit packets: $(speed "$bcyc" "$bsec") cycles/s"
        echo
    fi
}

for s in "${SECTIONS[@]}"; do
    if declare -f "bench_$s" >/dev/null; then "bench_$s"
    else echo "bench.sh: unknown section '$s'" >&2; exit 2; fi
done
