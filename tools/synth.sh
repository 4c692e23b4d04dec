#!/usr/bin/env bash
# tools/synth.sh - `make synth`: yosys (Debian's 0.23) synthesizes the router
# to generic gates for a few configurations and writes docs/synth.md.
set -eu
cd "$(dirname "$0")/.."
out=docs/synth.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
configs=("P=5 V=2 D=8 NT=16:mesh 4x4, defaults"
         "P=5 V=2 D=8 NT=16 NC=2:octagon/fat-octagon (3 net + 2 terminal ports), 2 VC classes"
         "P=5 V=4 D=4 NT=64:mesh 8x8, vcs=4 buf=4"
         "P=5 V=2 D=4 NT=16:mesh 4x4, buf=4")
{
echo "# Router synthesis (yosys $(yosys -V | awk '{print $2}'), generic gates)"
echo
echo "Produced by \`make synth\` (tools/synth.sh): \`read_verilog -sv rtl/*.sv; chparam ...; synth -top xnoc_router; stat\`."
echo "Cells are yosys's internal gate library (\$_AND_, \$_MUX_, \$_DFF*_ ...), a technology-independent size measure."
echo
echo "| configuration | parameters | cells | flip-flops | muxes | seconds |"
echo "|---|---|---:|---:|---:|---:|"
} > "$tmp/md"
for c in "${configs[@]}"; do
    params=${c%%:*}; what=${c#*:}
    chp=""
    for kv in $params; do chp="$chp -set ${kv%%=*} ${kv#*=}"; done
    cat > "$tmp/s.ys" <<YS
read_verilog -sv rtl/xnoc_fifo.sv rtl/xnoc_rr_arb.sv rtl/xnoc_router.sv
chparam $chp xnoc_router
synth -top xnoc_router
stat
YS
    echo "synthesizing $params ..." >&2
    start=$SECONDS
    yosys -q -l "$tmp/log" "$tmp/s.ys" >/dev/null
    secs=$((SECONDS - start))
    cells=$(grep -E "Number of cells:" "$tmp/log" | tail -1 | awk '{print $4}')
    ffs=$(awk '/Number of cells:/{n=0} /\$_(S)?DFF/{n+=$2} END{print n}' "$tmp/log")
    mux=$(grep -E '\$_MUX_' "$tmp/log" | tail -1 | awk '{print $2}')
    echo "| $what | $params | $cells | $ffs | $mux | $secs |" >> "$tmp/md"
done
mv "$tmp/md" "$out"
cat "$out"
