#!/usr/bin/env bash
# tools/synth.sh - `make synth`: yosys (Debian's 0.23) synthesizes the router
# to generic gates for a few configurations and writes docs/synth.md.
#
# usage: tools/synth.sh [--out FILE]     (RTL=dir overrides rtl/, for trials)
# Per configuration the script is exactly:
#   read_verilog -sv rtl/xnoc_fifo.sv rtl/xnoc_rr_arb.sv rtl/xnoc_rr_arb_bank.sv rtl/xnoc_vc_buffers.sv rtl/xnoc_router.sv
#   chparam -set NumPorts .. -set NumVcs .. -set BufDepth .. -set NumAddrs .. [-set NumClasses ..] [-set NumGroups ..] xnoc_router
#   synth -top xnoc_router
#   stat
set -eu
cd "$(dirname "$0")/.."
out=docs/synth.md
[ "${1:-}" = --out ] && out=$2
rtl=${RTL:-rtl}
command -v yosys >/dev/null || { echo "synth.sh: yosys is missing (apt-get install yosys)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# parameters : what it is
configs=("NumPorts=5 NumVcs=2 BufDepth=8 NumAddrs=16:mesh 4x4, defaults (vcs=2 buf=8)"
         "NumPorts=5 NumVcs=4 BufDepth=4 NumAddrs=64:mesh 8x8, vcs=4 buf=4"
         "NumPorts=5 NumVcs=2 BufDepth=8 NumAddrs=256:mesh 16x16 (256-entry table)"
         "NumPorts=5 NumVcs=2 BufDepth=8 NumAddrs=16 NumClasses=2:fat-octagon c=2 (3 net + 2 terminal ports), 2 VC classes"
         "NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=32:mesh 4x4 router with its coding-unit port (6 ports, 32 addresses)"
         "NumPorts=8 NumVcs=2 BufDepth=8 NumAddrs=128 NumClasses=2:torus 4x4x4 router (6 links, 1 terminal, coding unit; 2 VC classes)"
         "NumPorts=13 NumVcs=2 BufDepth=8 NumAddrs=128 NumClasses=2:torus 4x4x4, 6 channels per terminal (QCDOC all-gather; 13 ports)"
         "NumPorts=8 NumVcs=2 BufDepth=8 NumAddrs=108 NumClasses=2:dragonfly a=4,p=2,h=2 router, minimal routing (3 local + 2 global links, 2 terminals, coding unit)"
         "NumPorts=8 NumVcs=3 BufDepth=8 NumAddrs=108 NumClasses=3:dragonfly router, 3 VCs in 3 classes, no group table"
         "noshare NumPorts=8 NumVcs=3 BufDepth=8 NumAddrs=108 NumClasses=3 NumGroups=9:the same with Valiant / UGAL (9-entry group table; synth -noshare)"
         "xnoc_ncu NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=32 NumTerms=16 NumSlots=4 XorLat=1 MaxFlits=32:coding unit, mesh 4x4 defaults (4 slots x 256 B; every combining operator)"
         "xnoc_ncu NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=32 NumTerms=16 NumSlots=4 XorLat=1 MaxFlits=32 NcuOps=0:the same with XOR only (--router ncu_ops=xor)"
         "xnoc_ncu NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=32 NumTerms=16 NumSlots=2 XorLat=1 MaxFlits=8:coding unit, 2 slots x 64 B"
         "xnoc_ncu NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=128 NumTerms=64 NumSlots=4 XorLat=35 MaxFlits=32:coding unit, mesh 8x8, xorlat 35"
         "NumPorts=9 NumVcs=2 BufDepth=8 NumAddrs=21 RouteBits=3:clos:m=5,n=3,r=4 router, one unit lane (--router lanes=1)"
         "NumPorts=12 NumVcs=2 BufDepth=8 NumAddrs=21 RouteBits=3:clos:m=5,n=3,r=4 router with 4 unit lanes (the clos default)"
         "xnoc_ncu NumPorts=9 NumVcs=2 BufDepth=8 NumAddrs=21 NumTerms=12 NumSlots=4 XorLat=1 MaxFlits=32:coding unit, clos:m=5,n=3,r=4, one lane"
         "xnoc_ncu NumPorts=9 NumVcs=2 BufDepth=8 NumAddrs=21 NumTerms=12 NumSlots=4 XorLat=1 MaxFlits=32 NumLanes=4:coding unit, clos:m=5,n=3,r=4, 4 lanes (multicast lanes)")
srcs="$rtl/xnoc_pkg.sv $rtl/xnoc_fifo.sv $rtl/xnoc_rr_arb.sv $rtl/xnoc_rr_arb_bank.sv $rtl/xnoc_credit_counter.sv $rtl/xnoc_clock_gate.sv $rtl/xnoc_vc_buffers.sv $rtl/xnoc_router.sv $rtl/xnoc_ncu_alu.sv $rtl/xnoc_ncu_absorb.sv $rtl/xnoc_ncu_slots.sv $rtl/xnoc_ncu_emit.sv $rtl/xnoc_ncu_stream.sv $rtl/xnoc_ncu.sv"
{
echo "# Router synthesis (yosys $(yosys -V | awk '{print $2}'), generic gates)"
echo
echo "Produced by \`make synth\` (\`tools/synth.sh\`). For each configuration the yosys script is"
echo
echo '```'
echo "read_verilog -sv rtl/xnoc_pkg.sv rtl/xnoc_fifo.sv rtl/xnoc_rr_arb.sv rtl/xnoc_rr_arb_bank.sv rtl/xnoc_vc_buffers.sv rtl/xnoc_router.sv rtl/xnoc_ncu.sv"
echo "chparam -set NumPorts 5 -set NumVcs 2 -set BufDepth 8 -set NumAddrs 16 xnoc_router    # per row"
echo "synth -top xnoc_router"
echo "stat"
echo '```'
echo
echo "run as \`yosys -q -l log script.ys\`. Cells are yosys's internal gate library"
echo "(\$_AND_, \$_MUX_, \$_DFF*_ ...): a technology-independent size measure."
echo "Flip-flops = all \$_DFF*/\$_SDFF* cells (input buffers are flip-flops: no RAM"
echo "macros are inferred in generic synthesis); muxes = \$_MUX_ cells."
echo "Payloads are 64 bits everywhere (xnoc_pkg::LinkPayloadW). Rows naming xnoc_ncu synthesize the network-coding unit alone"
echo "(\`chparam ... xnoc_ncu; synth -top xnoc_ncu\`); its slot storage (NumSlots x MaxFlits x 64 bits)"
echo "dominates its flip-flops. Rows marked \"synth -noshare\" skip yosys's SAT-based resource"
echo "sharing, which runs out of memory (over 9 GB) on the Valiant/UGAL router's route computation."
echo
echo 'For any network, `build/xnoc synth --topo T [--router K=V,...] [--ports k] [--json]`'
echo 'synthesizes that network'\''s router (and its coding unit with `ncu=1`) the same way,'
echo 'with exactly the parameters the network gives them (ports, VCs, depth, addresses,'
echo 'VC classes, group table), and caches the answer per configuration in `build/cache/`:'
echo ''
echo '```'
echo '$ build/xnoc synth --topo mesh:4x4 --router ncu=0'
echo 'mesh:4x4: 16 routers'
echo '  router       NumPorts=5 NumVcs=2 BufDepth=8 NumAddrs=16 NumClasses=1 NumGroups=1 RouteBits=3    22614 cells    6287 flip-flops    8816 muxes'
echo '  per router 22614 cells, the network 361824 cells'
echo '```'
echo ''
echo 'A sweep spec with `"area": true` adds these cells to every point, so area'
echo 'can be plotted against throughput (docs/sweeps.md, `examples/sweeps/area-throughput.json`).'
echo
echo '**Combining operators** (docs/network-coding.md): `xnoc synth` synthesizes the'
echo 'coding unit twice, with XOR only (`NcuOps=0`, `--router ncu_ops=xor`) and with'
echo 'every operator (`NcuOps=1`, the default), and reports the difference (JSON'
echo '`unit_ops`):'
echo
echo '```'
echo '$ build/xnoc synth --topo mesh:4x4'
echo 'mesh:4x4: 16 routers'
echo '  router       NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=32 NumClasses=1 NumGroups=1 RouteBits=3    27885 cells    7588 flip-flops   11803 muxes'
echo '  coding unit  NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=32 NumTerms=16 NumSlots=4 XorLat=1 MaxFlits=32 Timeout=100000 NcuOps=1    38629 cells   10952 flip-flops   18914 muxes'
echo '  unit operators (all): XOR only 36845 cells, all 38629 cells (+1784, 4.8%)'
echo '  per router 66514 cells, the network 1064224 cells'
echo '```'
echo
echo 'The eight operators cost 1,784 cells, 4.8% of the unit and 2.7% of a'
echo 'router with its unit, no flip-flops beyond the 4-bit FUNC per slot and in'
echo 'the absorber (the XOR-only unit has them too: 36,840 cells in the table below against 36,766'
echo 'before the field); they are combinational, on the absorber'\''s one data path'
echo '(a 64-bit adder for ADD64, two 32-bit ones for ADD32, two 32-bit comparators shared by the'
echo 'four min/max, the AND/OR, a 4-way select). So `ncu_ops=all` is the default.'
echo
echo "| configuration | parameters | cells | flip-flops | muxes | seconds |"
echo "|---|---|---:|---:|---:|---:|"
} > "$tmp/md"
for c in "${configs[@]}"; do
    params=${c%%:*}; what=${c#*:}
    top=xnoc_router
    opts=""
    case $params in xnoc_ncu*) top=xnoc_ncu; params=${params#xnoc_ncu } ;; esac
    # yosys's SAT-based resource sharing (synth's "share" pass) explores the
    # conditional table reads of every VC; with the group table's extra
    # conditions it outgrows 9 GB, so that row skips it (a slightly larger netlist)
    case $params in noshare*) opts=" -noshare"; params=${params#noshare } ;; esac
    chp=""
    for kv in $params; do chp="$chp -set ${kv%%=*} ${kv#*=}"; done
    cat > "$tmp/s.ys" <<YS
read_verilog -sv $srcs
chparam $chp $top
synth -top $top$opts
stat
YS
    echo "synthesizing $params ..." >&2
    start=$SECONDS
    # (stderr: yosys's "Replacing memory ... with list of registers" notes for
    # unpacked arrays used as wires; shown only if yosys fails)
    yosys -q -l "$tmp/log" "$tmp/s.ys" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    secs=$((SECONDS - start))
    # the last "Number of cells" is the design total (after the per-module stats)
    cells=$(grep -E "Number of cells:" "$tmp/log" | tail -1 | awk '{print $4}')
    ffs=$(awk '/Number of cells:/{n=0} /\$_S?DFF/{n+=$2} END{print n}' "$tmp/log")
    mux=$(awk '/Number of cells:/{n=0} /\$_MUX_/{n+=$2} END{print n}' "$tmp/log")
    echo "| $what | ${top#xnoc_} $params | $cells | $ffs | $mux | $secs |" >> "$tmp/md"
done
mv "$tmp/md" "$out"
cat "$out"
