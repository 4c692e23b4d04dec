#!/usr/bin/env bash
# tools/nc_time_sweep.sh - where network coding wins in time
# (docs/network-coding.md, "Where coding wins"): the all-to-all broadcast on
# the network alone (xnoc traffic --pattern allgather:A) for every mesh size,
# packet length, router and algorithm given, in both measures: the makespan
# (data-driven run) and the paper's (--measure steps: synchronized steps,
# the sum of each step's worst latency from injection).  Every run must exit
# 0 with 0 errors (every flit and every multicast copy checked).
#   usage: tools/nc_time_sweep.sh [--sizes "4x4 8x8 16x16"] [--packets "1 4 16"]
#          [--routers "vcs=2,buf=8 vcs=4,buf=16"] [--algos "tree hnc hnc-unit combine combine-unit"]
#          [--measures "makespan steps"] [--data F.tsv] [--plot F.png]
# Algorithms: tree (binomial), hnc and combine (phase E a binomial tree of
# unicasts from the intermediate node), hnc-unit and combine-unit (phase E as
# unit multicasts, --distribute unit).  --data keeps one line per run and
# is read back first: a run already in it is not repeated (the 32x32 runs
# take minutes each).  Prints a Markdown table per measure on stdout, with
# the floors: (N-1) x L, the flits every node must eject through its one
# ejection channel, and the busiest injection and ejection channels' flits
# measured in the run (each a lower bound on the makespan at 1 flit/cycle).
# --plot: a gnuplot PNG of each algorithm's cycles over the tree's against
# the nodes, for the largest packet and the first router, both measures.
set -eu
cd "$(dirname "$0")/.."
X=${XNOC:-build/xnoc}
export XNOC_PROGRESS=0
SIZES="4x4 8x8 16x16"
PACKETS="1 4 16"
ROUTERS="vcs=2,buf=8 vcs=4,buf=16"
ALGOS="tree hnc hnc-unit combine combine-unit"
MEASURES="makespan steps"
DATA=""
PLOT=""
while [ $# -gt 0 ]; do
    case $1 in
    --sizes) SIZES=$2; shift 2 ;;
    --packets) PACKETS=$2; shift 2 ;;
    --routers) ROUTERS=$2; shift 2 ;;
    --algos) ALGOS=$2; shift 2 ;;
    --measures) MEASURES=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --plot) PLOT=$2; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "nc_time_sweep.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
for a in $ALGOS; do
    case $a in tree|hnc|hnc-unit|combine|combine-unit) ;;
    *) echo "nc_time_sweep.sh: --algos: unknown algorithm '$a' (tree hnc hnc-unit combine combine-unit)" >&2; exit 2 ;;
    esac
done
for m in $MEASURES; do
    case $m in makespan|steps) ;;
    *) echo "nc_time_sweep.sh: --measures: '$m' is not makespan or steps" >&2; exit 2 ;;
    esac
done
for z in $SIZES; do
    [[ $z =~ ^[0-9]+x[0-9]+$ ]] || { echo "nc_time_sweep.sh: --sizes: '$z' is not WxH" >&2; exit 2; }
done
for l in $PACKETS; do
    [[ $l =~ ^[0-9]+$ ]] || { echo "nc_time_sweep.sh: --packets: '$l' is not a flit count" >&2; exit 2; }
done
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
[ -n "$DATA" ] || DATA=$TMPD/data.tsv
touch "$DATA"

# one run -> one TSV line: size L router algo measure cycles steps inj ej
one() {
    local size=$1 L=$2 rtr=$3 algo=$4 meas=$5 args=() j
    case $algo in
    *-unit) args=(--pattern "allgather:${algo%-unit}" --distribute unit) ;;
    *) args=(--pattern "allgather:$algo") ;;
    esac
    if ! j=$($X traffic --topo "mesh:$size" --json --router "$rtr" --packet "$L" --measure "$meas" "${args[@]}" 2>"$TMPD/err"); then
        echo "nc_time_sweep.sh: mesh:$size L=$L $rtr $algo $meas failed: $(tail -1 "$TMPD/err")" >&2
        exit 1
    fi
    jq -r --arg s "$size" --arg L "$L" --arg r "$rtr" --arg a "$algo" --arg m "$meas" '
        if .errors != 0 then error("\(.errors) errors") else . end |
        [$s, $L, $r, $a, $m, .execution_cycles, (.allgather.paper_step_latency // "-"),
         ([.links[]|select(.kind=="inject")|.flits]|max), ([.links[]|select(.kind=="eject")|.flits]|max)] | @tsv' <<<"$j"
}

total=0
for z in $SIZES; do for l in $PACKETS; do for r in $ROUTERS; do for a in $ALGOS; do for m in $MEASURES; do
    total=$((total + 1))
done; done; done; done; done
i=0
for z in $SIZES; do for l in $PACKETS; do for r in $ROUTERS; do for a in $ALGOS; do for m in $MEASURES; do
    i=$((i + 1))
    if awk -F'\t' -v z="$z" -v l="$l" -v r="$r" -v a="$a" -v m="$m" \
        '$1==z && $2==l && $3==r && $4==a && $5==m {f=1} END {exit !f}' "$DATA"; then continue; fi
    echo "nc_time_sweep.sh: [$i/$total] mesh:$z L=$l $r $a --measure $m" >&2
    line=$(one "$z" "$l" "$r" "$a" "$m")
    printf '%s\n' "$line" >>"$DATA"
done; done; done; done; done

# the tables: one row per (size, L, router), one column per algorithm
get() { # size L router algo measure field(6: cycles, 7: steps, 8: inj, 9: ej)
    awk -F'\t' -v z="$1" -v l="$2" -v r="$3" -v a="$4" -v m="$5" -v f="$6" \
        '$1==z && $2==l && $3==r && $4==a && $5==m {v=$f} END {print (v=="" ? "-" : v)}' "$DATA"
}
for m in $MEASURES; do
    if [ "$m" = makespan ]; then
        echo "Makespan (execution_cycles, data-driven), cycles:"
    else
        echo "The paper's measure (--measure steps: sum of each synchronized step's worst latency from injection), cycles:"
    fi
    echo
    hdr="| mesh | L | router |"
    sep="|---|---:|---|"
    for a in $ALGOS; do hdr="$hdr $a |"; sep="$sep---:|"; done
    [ "$m" = makespan ] && { hdr="$hdr floor (N-1)L | busiest inj (algo) | busiest ej (algo) |"; sep="$sep---:|---|---|"; }
    echo "$hdr"
    echo "$sep"
    for z in $SIZES; do for l in $PACKETS; do for r in $ROUTERS; do
        row="| $z | $l | $r |"
        f=7
        [ "$m" = makespan ] && f=6
        for a in $ALGOS; do row="$row $(get "$z" "$l" "$r" "$a" "$m" $f) |"; done
        if [ "$m" = makespan ]; then
            n=$(( ${z%x*} * ${z#*x} ))
            bi="" be=""
            for a in $ALGOS; do
                bi="$bi$(get "$z" "$l" "$r" "$a" "$m" 8) "
                be="$be$(get "$z" "$l" "$r" "$a" "$m" 9) "
            done
            row="$row $(( (n - 1) * l )) | ${bi% } | ${be% } |"
        fi
        echo "$row"
    done; done; done
    echo
done

if [ -n "$PLOT" ]; then
    L=${PACKETS##* }
    R=${ROUTERS%% *}
    : >"$TMPD/plot.dat"
    for z in $SIZES; do
        n=$(( ${z%x*} * ${z#*x} ))
        line="$n"
        for m in makespan steps; do
            f=7
            [ $m = makespan ] && f=6
            t=$(get "$z" "$L" "$R" tree $m $f)
            for a in hnc hnc-unit combine combine-unit; do
                v=$(get "$z" "$L" "$R" "$a" $m $f)
                if [ "$t" = - ] || [ "$v" = - ]; then line="$line NaN"; else line="$line $(awk -v v="$v" -v t="$t" 'BEGIN {printf "%.3f", v / t}')"; fi
            done
        done
        echo "$line" >>"$TMPD/plot.dat"
    done
    gnuplot <<EOF
set terminal pngcairo size 900,540 font ",11"
set output "$PLOT"
set title "all-to-all broadcast, network alone: cycles / tree's cycles (L = $L flits, --router $R)"
set xlabel "nodes"
set ylabel "algorithm / tree"
set logscale x 2
set key outside right
set grid
set yrange [0:*]
plot 1 title "tree" lc rgb "black" dt 2, \
     "$TMPD/plot.dat" using 1:2 with linespoints lw 2 lc 1 title "hnc, makespan", \
     "" using 1:3 with linespoints lw 2 lc 2 title "hnc-unit, makespan", \
     "" using 1:4 with linespoints lw 2 lc 3 title "combine, makespan", \
     "" using 1:5 with linespoints lw 2 lc 4 title "combine-unit, makespan", \
     "" using 1:6 with linespoints dt 3 lc 1 title "hnc, paper's steps", \
     "" using 1:7 with linespoints dt 3 lc 2 title "hnc-unit, paper's steps", \
     "" using 1:8 with linespoints dt 3 lc 3 title "combine, paper's steps", \
     "" using 1:9 with linespoints dt 3 lc 4 title "combine-unit, paper's steps"
EOF
    echo "nc_time_sweep.sh: wrote $PLOT" >&2
fi
