#!/usr/bin/env bash
# tests/rtl/build.sh RTL_DIR OUT [VERILATOR-ARGS...] - verilate
# tests/rtl/router_tb.sv against the router sources in RTL_DIR and build the
# bench as OUT (its objects in OUT.obj/, the log in OUT.obj/build.log).
# The Makefile builds build/tests/router_tb from rtl/ this way; tests/rtl.t.sh
# builds mutated copies of rtl/, and other router parameters (-GV=4 -GD=2),
# the same way.
#  --assert -DXNOC_ASSERT  the RTL's own named assertions run too
#  -y RTL_DIR              modules found by file name: only the router's files are read
#  -Wno-CMPCONST           the RTL's "count <= D" assertions are constant when D = 2^n - 1
#  --unroll-count 1        loops stay loops: a third of the C++ (7 CPU seconds to build, not 17)
# XNOC_TB_RUNTIME=DIR: reuse the Verilator runtime objects (verilated*.o, the
# same for every bench: half of a build's CPU time) of the build in DIR.
set -eu
rtl=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
obj=$out.obj
rm -rf "$obj"
mkdir -p "$obj"
log=$obj/build.log
verilator --cc --exe --assert -DXNOC_ASSERT -Wno-CMPCONST --unroll-count 1 "$@" \
    --top-module router_tb -Mdir "$obj" -o router_tb \
    -y "$rtl" "$rtl/xnoc_pkg.sv" "$here/router_tb.sv" "$here/router_tb.cpp" >"$log" 2>&1 \
    || { tail -30 "$log" >&2; exit 1; }
if [ -n "${XNOC_TB_RUNTIME:-}" ] && [ -f "$XNOC_TB_RUNTIME/verilated.o" ]; then
    cp "$XNOC_TB_RUNTIME"/verilated*.[od] "$obj/"
    touch "$obj"/verilated*.o              # newer than the makefile just written
fi
MAKEFLAGS= make -s -j2 -C "$obj" -f Vrouter_tb.mk OPT_FAST=-O1 OPT_SLOW=-O1 OPT_GLOBAL=-O1 >>"$log" 2>&1 \
    || { tail -30 "$log" >&2; exit 1; }
cp "$obj/router_tb" "$out"
