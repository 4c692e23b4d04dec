#!/usr/bin/env bash
# tools/unit_cost.sh - what the coding units cost the simulation, and the
# least any unit could cost (docs/performance.md, "What the coding units cost").
#
# usage: tools/unit_cost.sh [--cycles N] [--json]
#
# Counts instructions with callgrind (deterministic: the same count on a
# busy or a quiet machine) for one command,
#   xnoc traffic --topo mesh:8x8 --router ncu=N --rate 0.1 --cycles N --warmup 1000 --json
# on five builds of the same network:
#   ncu0    no unit, 5-port routers
#   port    6-port routers, each unit replaced by constant outputs (the port alone)
#   ungated 6-port routers, a unit that is an idle test and one counter on the
#           router's clock, its work under the test (the least an ungated unit costs)
#   gated   6-port routers, a unit that is only its clock gate, idle test, one
#           counter on the gated clock and the debug read (the least a gated unit costs)
#   ncu1    the real coding unit (rtl/xnoc_ncu*.sv)
# The three stubs are written into a copy of rtl/ under build/unit_cost/
# (measurement only, never part of a network xnoc builds); every build's
# traffic report must equal ncu1's (this traffic never reaches a unit).
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
XNOC=${XNOC:-$ROOT/build/xnoc}
CYCLES=20000
JSON=0
while [ $# -gt 0 ]; do
    case "$1" in
        --cycles) CYCLES=$2; shift ;;
        --json) JSON=1 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "unit_cost.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
command -v valgrind >/dev/null || { echo "unit_cost.sh: valgrind is needed (make deps)" >&2; exit 2; }
[ -x "$XNOC" ] || { echo "unit_cost.sh: $XNOC is missing: run make" >&2; exit 2; }
OUT=$ROOT/build/unit_cost
mkdir -p "$OUT"
export XNOC_PROGRESS=0

# The unit's port list, as rtl/xnoc_ncu.sv has it.
HEADER='module xnoc_ncu #(
  parameter int NumPorts = 6, parameter int NumVcs = 2, parameter int BufDepth = 8,
  parameter int NumAddrs = 16, parameter int NumTerms = 8, parameter int NumSlots = 4,
  parameter int XorLat = 1, parameter int MaxFlits = 32, parameter int Timeout = 100000,
  localparam int FW = xnoc_pkg::LinkFlitW, localparam int VB = xnoc_pkg::LinkVcW
) (
  input  logic clk_i, input logic rst_ni,
  input  logic cfg_we_i, input logic [1:0] cfg_kind_i,
  input  logic [xnoc_pkg::CfgAddrW-1:0] cfg_addr_i, input logic [xnoc_pkg::CfgDataW-1:0] cfg_data_i,
  input  logic in_valid_i, input logic [FW-1:0] in_flit_i,
  output logic in_credit_o, output logic [VB-1:0] in_credit_vc_o,
  output logic out_valid_o, output logic [FW-1:0] out_flit_o,
  input  logic out_credit_i, input logic [VB-1:0] out_credit_vc_i,
  input  logic dbg_en_i, input logic [xnoc_pkg::DbgUnitAddrW-1:0] dbg_addr_i, output logic [31:0] dbg_data_o, output logic err_o,
  output logic clk_en_o   // the tile'"'"'s (netgen leaves it open)
);
  assign in_credit_o = 1'"'"'b0; assign in_credit_vc_o = '"'"'0;
  assign out_valid_o = 1'"'"'b0; assign out_flit_o = '"'"'0; assign err_o = 1'"'"'b0;
  assign clk_en_o = 1'"'"'b1;'

stub_port() {
    echo "$HEADER"
    cat <<'EOF'
  logic unused;
  assign unused = ^{clk_i, rst_ni, cfg_we_i, cfg_kind_i, cfg_addr_i, cfg_data_i, in_valid_i, in_flit_i,
                    out_credit_i, out_credit_vc_i, dbg_en_i, dbg_addr_i};
  assign dbg_data_o = '0;
endmodule
EOF
}
stub_ungated() {
    echo "$HEADER"
    cat <<'EOF'
  logic idle, busy_q;
  logic [31:0] n_q;
  logic unused;
  assign unused = ^{cfg_kind_i, cfg_addr_i, cfg_data_i, in_flit_i, out_credit_vc_i};
  assign idle = rst_ni && !cfg_we_i && !in_valid_i && !out_credit_i && !busy_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin busy_q <= 1'b0; n_q <= '0; end
    else if (!idle) begin busy_q <= 1'b0; n_q <= n_q + 32'd1; end
  end
  always_comb begin
    dbg_data_o = '0;
    if (dbg_en_i && dbg_addr_i == 6'd10) dbg_data_o = n_q;   // the clocked-cycles register
  end
endmodule
EOF
}
stub_gated() {
    echo "$HEADER"
    cat <<'EOF'
  /* verilator no_inline_module */
  logic idle, idle_q, clk_g, busy_q;
  logic [31:0] n_q;
  logic unused;
  assign unused = ^{cfg_kind_i, cfg_addr_i, cfg_data_i, in_flit_i, out_credit_vc_i};
  assign idle = rst_ni && !cfg_we_i && !in_valid_i && !out_credit_i && !busy_q;
  always_ff @(posedge clk_g) idle_q <= idle;
  always_ff @(posedge clk_g) begin
    if (!rst_ni) begin busy_q <= 1'b0; n_q <= '0; end
    else begin busy_q <= 1'b0; n_q <= n_q + 32'd1; end
  end
  xnoc_clock_gate u_cg (.clk_i, .en_i (!(idle && idle_q)), .clk_o (clk_g), .en_o ());
  always_comb begin
    dbg_data_o = '0;
    if (dbg_en_i && dbg_addr_i == 6'd10) dbg_data_o = n_q;   // the clocked-cycles register
  end
endmodule
EOF
}

# A source tree for a stub: rtl/ with the unit's files replaced, and the glue.
tree() {
    local v=$1 dir=$OUT/$1
    rm -rf "$dir/rtl" "$dir/sim_harness"
    mkdir -p "$dir/rtl" "$dir/sim_harness"
    cp rtl/*.sv "$dir/rtl/"
    rm "$dir"/rtl/xnoc_ncu.sv "$dir"/rtl/xnoc_ncu_*.sv
    "stub_$v" >"$dir/rtl/xnoc_ncu.sv"
    cp -r sim_harness/glue "$dir/sim_harness/"
}

count() {   # variant ncu -> instructions; report in $OUT/<variant>.json
    local v=$1 n=$2 src=$ROOT bld=$ROOT/build
    if [ "$v" != ncu0 ] && [ "$v" != ncu1 ]; then tree "$v"; src=$OUT/$v; bld=$OUT/$v/build; fi
    local cmd=("$XNOC" traffic --topo mesh:8x8 --router "ncu=$n" --rate 0.1 --warmup 1000 --json)
    [ -t 2 ] && printf 'unit_cost: %s: building and counting...\r' "$v" >&2
    XNOC_SRC=$src XNOC_BUILD=$bld "${cmd[@]}" --cycles 10 >/dev/null 2>"$OUT/$v.build.log" ||
        { echo "unit_cost.sh: $v: the build failed; see $OUT/$v.build.log" >&2; exit 1; }
    XNOC_SRC=$src XNOC_BUILD=$bld valgrind --tool=callgrind --callgrind-out-file="$OUT/$v.cg" \
        "${cmd[@]}" --cycles "$CYCLES" >"$OUT/$v.json" 2>"$OUT/$v.err" ||
        { echo "unit_cost.sh: $v: the run failed; see $OUT/$v.err" >&2; exit 1; }
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$OUT/$v.err"
}

declare -A IR
for v in ncu0:0 port:1 ungated:1 gated:1 ncu1:1; do IR[${v%:*}]=$(count "${v%:*}" "${v#*:}"); done
[ -t 2 ] && printf '%60s\r' '' >&2
# the traffic is the same in every build (the units never see it)
strip() { jq 'del(.units)' "$1"; }
for v in port ungated gated; do
    cmp -s <(strip "$OUT/$v.json") <(strip "$OUT/ncu1.json") ||
        { echo "unit_cost.sh: the $v build's traffic report differs from ncu1's" >&2; exit 1; }
done

if [ $JSON = 1 ]; then
    jq -n --argjson c "$CYCLES" --argjson a "${IR[ncu0]}" --argjson p "${IR[port]}" --argjson u "${IR[ungated]}" \
        --argjson g "${IR[gated]}" --argjson n "${IR[ncu1]}" \
        '{cycles: $c, instructions: {ncu0: $a, port: $p, ungated_floor: $u, gated_floor: $g, ncu1: $n},
          ratio_to_ncu0: {port: ($a / $p), ungated_floor: ($a / $u), gated_floor: ($a / $g), ncu1: ($a / $n)}}'
    exit 0
fi
echo "| build (mesh:8x8, uniform 0.1, $CYCLES cycles) | instructions | ncu=0 / build |"
echo "|---|---:|---:|"
for v in ncu0 port ungated gated ncu1; do
    awk -v v="$v" -v i="${IR[$v]}" -v a="${IR[ncu0]}" 'BEGIN { printf "| %s | %.0f M | %.3f |\n", v, i / 1e6, a / i }'
done
