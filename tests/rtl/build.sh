#!/usr/bin/env bash
# tests/rtl/build.sh BENCH RTL_DIR OUT [VERILATOR-ARGS...] - verilate the bench
# tests/rtl/BENCH.sv (router_tb, ncu_tb) against the RTL sources in RTL_DIR
# and build it as OUT (its objects in OUT.obj/, the log in OUT.obj/build.log).
# The Makefile builds build/tests/router_tb and ncu_tb from rtl/ this way;
# tests/rtl.t.sh builds mutated copies of rtl/, and other parameters
# (-GV=4 -GD=2), the same way.
#  --prefix Vtb            one C++ glue for every bench (tb_main.cpp: the clock)
#  --assert -DXNOC_ASSERT  the RTL's own named assertions run too
#  -y RTL_DIR              modules found by file name: only the files the bench uses are read
#  -Wno-CMPCONST           the RTL's "count <= D" assertions are constant when D = 2^n - 1
#  --unroll-count 1        router_tb: loops stay loops, a third of the C++ (7 CPU seconds to
#                          build, not 17); the coding unit needs its loops unrolled (its
#                          array writes in loops)
# XNOC_TB_RUNTIME=DIR: reuse the Verilator runtime objects (verilated*.o, the
# same for every bench: half of a build's CPU time) of the build in DIR.
set -eu
bench=$1 rtl=$2 out=$3
shift 3
unroll=
[ "$bench" = router_tb ] && unroll="--unroll-count 1"
here=$(cd "$(dirname "$0")" && pwd)
obj=$out.obj
rm -rf "$obj"
mkdir -p "$obj"
log=$obj/build.log
verilator --cc --exe --prefix Vtb --assert -DXNOC_ASSERT -Wno-CMPCONST $unroll "$@" \
    --top-module "$bench" -Mdir "$obj" -o tb \
    +incdir+"$here" -y "$rtl" "$rtl/xnoc_pkg.sv" "$here/$bench.sv" "$here/tb_main.cpp" >"$log" 2>&1 \
    || { tail -30 "$log" >&2; exit 1; }
if [ -n "${XNOC_TB_RUNTIME:-}" ] && [ -f "$XNOC_TB_RUNTIME/verilated.o" ]; then
    cp "$XNOC_TB_RUNTIME"/verilated*.[od] "$obj/"
    touch "$obj"/verilated*.o              # newer than the makefile just written
fi
MAKEFLAGS= make -s -j2 -C "$obj" -f Vtb.mk OPT_FAST=-O1 OPT_SLOW=-O1 OPT_GLOBAL=-O1 >>"$log" 2>&1 \
    || { tail -30 "$log" >&2; exit 1; }
cp "$obj/tb" "$out"
