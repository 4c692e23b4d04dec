#!/usr/bin/env bash
# tools/reduce_sweep.sh - the reductions of docs/collectives-results.md
# ("Reductions: software against the network"): allreduce (rabenseifner,
# ring, reduce-bcast on the cores; innet in the routers' slot units, and
# stream: innet through the streaming units, --router stream=1), reduce
# (tree and sched on the cores; innet, stream), reducescatter (halving,
# ring; stream) and scan (rd, on the cores; stream, the streaming units' chain,
# with 1 + terminals per router VCs), --reduce-op sum, on each network at
# each size.  Every run is verified word by word by xnoc collective (a run
# that does not verify, or that a network refuses, stops the sweep with its
# error line; but a network the streaming units refuse (exit 2) is recorded
# with its line, "refused", and shown as "-").
#   usage: tools/reduce_sweep.sh [--out DIR] [--topos "T ..."] [--bytes "B ..."]
#                                [-j N] [--plot] [--table]
#   --out DIR   where runs.jsonl (one line per run), table.md and
#               reduce_sweep.png go (build/reduce_sweep)
#   --topos     networks (mesh:8x8 torus:4x4x4 fat-octagon clos:m=8,n=8,r=8)
#   --bytes     message sizes (64 256 1024 4096 16384 65536)
#   -j N        runs at once (GNU parallel; 1)
#   --plot      draw DIR/reduce_sweep.png (gnuplot): bytes per cycle against size
#   --table     print the Markdown tables of DIR/runs.jsonl (no runs)
# Progress: one line per finished run on stderr.
set -eu
cd "$(dirname "$0")/.."
X=${XNOC:-build/xnoc}
export XNOC_PROGRESS=0
OUT=build/reduce_sweep
TOPOS="mesh:8x8 torus:4x4x4 fat-octagon clos:m=8,n=8,r=8"
BYTES="64 256 1024 4096 16384 65536"
JOBS=1 PLOT=0 TABLE_ONLY=0
while [ $# -gt 0 ]; do
    case $1 in
    --out) OUT=$2; shift 2 ;;
    --topos) TOPOS=$2; shift 2 ;;
    --bytes) BYTES=$2; shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    --plot) PLOT=1; shift ;;
    --table) TABLE_ONLY=1; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "reduce_sweep.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case $JOBS in ''|*[!0-9]*|0) echo "reduce_sweep.sh: -j '$JOBS': a count of runs, 1 or more" >&2; exit 2 ;; esac
for b in $BYTES; do
    case $b in ''|*[!0-9]*) echo "reduce_sweep.sh: --bytes '$b': a size in bytes" >&2; exit 2 ;; esac
done
mkdir -p "$OUT"

# one run -> one JSON line: TOPO OP ALGO BYTES
one() {
    local t=$1 op=$2 a=$3 b=$4 j err rc=0 alg=$3 rt=()
    [ "$a" = stream ] && alg=innet rt=(--router stream=1)
    if [ "$a" = stream ] && [ "$op" = scan ]; then # a unit sends its terminals' results on VCs of their own
        local conc
        conc=$($X topo --topo "$t" --json | jq '.terminals_per_router')
        rt=(--router "stream=1,vcs=$((conc + 1 > 2 ? conc + 1 : 2))")
    fi
    err=$(mktemp)
    j=$($X collective --json --topo "$t" --op "$op" --algo "$alg" "${rt[@]}" --bytes "$b" --reduce-op sum 2>"$err") || rc=$?
    if [ $rc = 2 ] && [ "$a" = stream ]; then
        jq -nc --arg t "$t" --arg o "$op" --argjson b "$b" --arg why "$(tail -1 "$err")" \
            '{topo: $t, op: $o, algo: "stream", bytes: $b, cycles: null, refused: $why}'
        echo "reduce_sweep.sh: $t $op $a $b: refused: $(tail -1 "$err")" >&2
        rm -f "$err"
        return 0
    elif [ $rc != 0 ]; then
        echo "reduce_sweep.sh: $t $op --algo $a --bytes $b: $(tail -1 "$err")" >&2
        rm -f "$err"
        return 1
    fi
    rm -f "$err"
    jq -c --arg t "$t" --arg a "$a" '{topo: $t, op: .op, algo: $a, bytes: .bytes, nodes: .nodes, cycles: .cycles,
        verified: .verified, link_flits: .link_flits, combine_cycles: (.combine_cycles // null),
        cycles_per_word: (.cycles_per_word // null), model_bound: (.model_bound // null)}' <<<"$j"
    echo "reduce_sweep.sh: $t $op $a $b: $(jq -r .cycles <<<"$j") cycles" >&2
}
export -f one
export X

if [ $TABLE_ONLY = 0 ]; then
    for t in $TOPOS; do
        for b in $BYTES; do
            for a in rabenseifner ring reduce-bcast innet stream; do echo "$t allreduce $a $b"; done
            for a in tree sched innet stream; do echo "$t reduce $a $b"; done
            for a in halving ring stream; do echo "$t reducescatter $a $b"; done
            echo "$t scan rd $b"
            echo "$t scan stream $b"
        done
    done > "$OUT/runs.txt"
    parallel -j "$JOBS" --halt now,fail=1 --colsep ' ' one {1} {2} {3} {4} < "$OUT/runs.txt" > "$OUT/runs.jsonl"
fi

# the tables: per network, allreduce and the others, cycles and bytes per cycle (one link: 8)
table() {
    jq -rs '
      def fmt: tostring | if length > 3 then .[:-3] + "," + .[-3:] else . end | if length > 7 then .[:-7] + "," + .[-7:] else . end;
      def cyc($t; $o; $a; $b): (map(select(.topo==$t and .op==$o and .algo==$a and .bytes==$b)) | first | .cycles) // null;
      def bpc($b; $c): if $c then (($b / $c) * 100 | round / 100 | tostring) else "-" end;
      (map(.topo) | unique) as $topos | (map(.bytes) | unique) as $sizes |
      $topos[] as $t |
      "\n### \($t)\n",
      "| bytes | rabenseifner | ring | reduce-bcast | best software (B/cycle) | innet (B/cycle) | innet speed-up | stream (B/cycle) | stream speed-up |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ($sizes[] as $b |
        [cyc($t;"allreduce";"rabenseifner";$b), cyc($t;"allreduce";"ring";$b), cyc($t;"allreduce";"reduce-bcast";$b)] as $sw |
        ($sw | map(select(. != null)) | min) as $best |
        cyc($t;"allreduce";"innet";$b) as $in | cyc($t;"allreduce";"stream";$b) as $st |
        "| \($b|fmt) | \($sw[0]|fmt) | \($sw[1]|fmt) | \($sw[2]|fmt) | \($best|fmt) (\(bpc($b;$best))) | \($in|fmt) (\(bpc($b;$in))) | \(if $in then ($best / $in * 100 | round / 100 | tostring) + "x" else "-" end) | \(if $st then ($st|fmt) + " (" + bpc($b;$st) + ")" else "-" end) | \(if $st then ($best / $st * 100 | round / 100 | tostring) + "x" else "-" end) |"),
      "",
      "| bytes | reduce tree | reduce sched | reduce innet (B/cycle) | reduce stream (B/cycle) | reducescatter halving | reducescatter ring | reducescatter stream (B/cycle) | scan rd | scan stream (B/cycle) |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ($sizes[] as $b |
        cyc($t;"reduce";"innet";$b) as $ri | cyc($t;"reduce";"stream";$b) as $rs | cyc($t;"reducescatter";"stream";$b) as $ss | cyc($t;"scan";"stream";$b) as $cs |
        "| \($b|fmt) | \(cyc($t;"reduce";"tree";$b)|fmt) | \(cyc($t;"reduce";"sched";$b)|fmt) | \($ri|fmt) (\(bpc($b;$ri))) | \(if $rs then ($rs|fmt) + " (" + bpc($b;$rs) + ")" else "-" end) | \(cyc($t;"reducescatter";"halving";$b)|fmt) | \(cyc($t;"reducescatter";"ring";$b)|fmt) | \(if $ss then ($ss|fmt) + " (" + bpc($b;$ss) + ")" else "-" end) | \(cyc($t;"scan";"rd";$b)|fmt) | \(if $cs then ($cs|fmt) + " (" + bpc($b;$cs) + ")" else "-" end) |"),
      (map(select(.topo==$t and .refused) | .refused | sub("^xnoc collective: "; "") | sub("^--bytes [0-9]+: "; "")) | unique[] | "\nRefused through the streaming units on \($t): \(.)")
    ' "$OUT/runs.jsonl"
}
table > "$OUT/table.md"
[ $TABLE_ONLY = 1 ] && cat "$OUT/table.md"

if [ $PLOT = 1 ]; then
    # one data file per network and curve: bytes, bytes per cycle
    rm -f "$OUT"/curve_*.dat
    plots=""
    i=0
    for t in $(jq -r .topo "$OUT/runs.jsonl" | sort -u); do
        i=$((i + 1))
        for c in "allreduce stream" "allreduce innet" "allreduce rabenseifner" "allreduce ring" "allreduce reduce-bcast" "reduce stream" "reduce innet" "reducescatter halving" "reducescatter stream" "scan stream" "scan rd"; do
            set -- $c
            f="$OUT/curve_${i}_$1_$2.dat"
            jq -r --arg t "$t" --arg o "$1" --arg a "$2" 'select(.topo==$t and .op==$o and .algo==$a and .cycles != null) | "\(.bytes) \(.bytes / .cycles)"' \
                "$OUT/runs.jsonl" | sort -n > "$f"
        done
        plots="$plots $i:$t"
    done
    gnuplot <<GP
set terminal pngcairo size 1400,1000 font ",11"
set output "$OUT/reduce_sweep.png"
set multiplot layout 2,2 title "Reductions, --reduce-op sum: bytes per cycle (one link carries 8)"
set logscale xy 2
set xlabel "message bytes"
set ylabel "bytes per cycle"
set yrange [0.01:16]
set key top left font ",9"
set grid
$(for p in $plots; do
    n=${p%%:*} t=${p#*:}
    if [ "$(jq -s --arg t "$t" 'any(.[]; .topo==$t and .op=="allreduce" and .refused)' "$OUT/runs.jsonl")" = true ]; then
        echo "set title '$t (the streaming units refuse it: children would share a lane)'"
    else echo "set title '$t'"; fi
    echo "plot 8 title 'one link (8 B/cycle)' lw 2 dt 2 lc rgb 'black', \\"
    [ -s "$OUT/curve_${n}_allreduce_stream.dat" ] && echo "  '$OUT/curve_${n}_allreduce_stream.dat' with linespoints lw 3 lc rgb '#009e73' title 'allreduce stream (stream=1)', \\"
    [ -s "$OUT/curve_${n}_reduce_stream.dat" ] && echo "  '$OUT/curve_${n}_reduce_stream.dat' with linespoints lw 3 lc rgb '#56b4e9' title 'reduce stream (stream=1)', \\"
    echo "  '$OUT/curve_${n}_allreduce_innet.dat' with linespoints lw 2 lc rgb '#e69f00' title 'allreduce innet (slot units)', \\"
    echo "  '$OUT/curve_${n}_allreduce_rabenseifner.dat' with linespoints lc rgb '#c8b400' title 'allreduce rabenseifner', \\"
    echo "  '$OUT/curve_${n}_allreduce_ring.dat' with linespoints lc rgb '#0072b2' title 'allreduce ring', \\"
    echo "  '$OUT/curve_${n}_allreduce_reduce-bcast.dat' with linespoints lc rgb '#d55e00' title 'allreduce reduce-bcast', \\"
    echo "  '$OUT/curve_${n}_reduce_innet.dat' with linespoints lc rgb 'black' title 'reduce innet (slot units)', \\"
    [ -s "$OUT/curve_${n}_reducescatter_stream.dat" ] && echo "  '$OUT/curve_${n}_reducescatter_stream.dat' with linespoints lw 2 dt 2 lc rgb '#9400d3' title 'reducescatter stream (stream=1)', \\"
    [ -s "$OUT/curve_${n}_scan_stream.dat" ] && echo "  '$OUT/curve_${n}_scan_stream.dat' with linespoints lw 2 lc rgb '#cc79a7' title 'scan stream (stream=1)', \\"
    echo "  '$OUT/curve_${n}_scan_rd.dat' with linespoints dt 3 lc rgb '#cc79a7' title 'scan rd (cores)', \\"
    echo "  '$OUT/curve_${n}_reducescatter_halving.dat' with linespoints lc rgb '#9400d3' title 'reducescatter halving'"
done)
unset multiplot
GP
    echo "reduce_sweep.sh: $OUT/reduce_sweep.png" >&2
fi
