#!/usr/bin/env bash
# tools/clos_synth.sh - the Clos routing controller rtl/xnoc_clos_ctl.sv
# synthesized by yosys (generic gates, as tools/synth.sh does the router)
# for v(m, 4, r), r = 4, 8, 16, 32, m = Theorem 3's least m (xnoc clos):
# cells, flip-flops, and the clocks a decision takes (1 + Theorem 3's x).
# Prints a markdown table (docs/clos.md).  Per row the yosys script is
#   read_verilog -sv rtl/xnoc_clos_ctl.sv
#   chparam -set NumMid M -set NumOut R xnoc_clos_ctl
#   synth -top xnoc_clos_ctl
#   stat
set -eu
cd "$(dirname "$0")/.."
command -v yosys >/dev/null || { echo "clos_synth.sh: yosys is missing (apt-get install yosys)" >&2; exit 2; }
[ -x build/xnoc ] || { echo "clos_synth.sh: build/xnoc is missing (make)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| r | m (Theorem 3, n = 4) | x | cells | flip-flops | clocks per decision (at most) | seconds |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for r in ${CLOS_SYNTH_R:-4 8 16 32}; do
    read -r x m < <(build/xnoc clos --n 4 --r "$r" --json | jq -r '"\(.theorem3.x) \(.theorem3.m_min)"')
    cat >"$tmp/s.ys" <<YS
read_verilog -sv rtl/xnoc_clos_ctl.sv
chparam -set NumMid $m -set NumOut $r xnoc_clos_ctl
synth -top xnoc_clos_ctl
stat
YS
    start=$(date +%s)
    yosys -q -l "$tmp/log" "$tmp/s.ys" >/dev/null
    secs=$(($(date +%s) - start))
    cells=$(awk '/Number of cells:/ {n = $4} END {print n}' "$tmp/log")
    ffs=$(awk '/Number of cells:/ {n = 0} /\$_S?DFF/ {n += $2} END {print n}' "$tmp/log")
    echo "| $r | $m | $x | $cells | $ffs | $((1 + x)) | $secs |"
done
