#!/usr/bin/env bash
# tools/lint.sh - `make lint`: verilator --lint-only -Wall over rtl/ for a
# spread of router configurations (ports, VCs, depth, table size, classes).
# Any warning fails (Verilator's warnings are fatal without -Wno-fatal).
set -u
cd "$(dirname "$0")/.."
rc=0
for cfg in "" "-GP=7 -GV=4 -GD=4 -GNC=2" "-GV=1 -GD=1" "-GNT=256" "-GP=11 -GV=8 -GNC=2" \
           "-GP=16 -GV=8 -GD=8 -GNT=1024" "-GP=32 -GV=2 -GNC=2 -GNT=4095" "-GP=25 -GV=4 -GNT=2048" "-GP=3 -GV=2 -GD=2 -GNT=1" "-GP=2 -GV=1 -GD=1 -GNT=1" \
           "-GP=5 -GSRB=2 -GNT=16" "-GP=6 -GNT=32" "-GP=8 -GV=3 -GNC=3 -GNG=9 -GNT=108" "-GP=12 -GV=6 -GNC=3 -GNG=64 -GNT=1024"; do
    if out=$(verilator --lint-only -Wall $cfg rtl/xnoc_pkg.sv $(ls rtl/*.sv | grep -v _pkg) --top-module xnoc_router 2>&1); then
        echo "lint ok   xnoc_router ${cfg:-(defaults)}"
    else
        echo "lint FAIL xnoc_router ${cfg:-(defaults)}"
        echo "$out" | grep '^%' | head -20
        rc=1
    fi
done
# the network-coding unit: ports, VCs, addresses (mask flits), slots, XOR latency, payload limit
for cfg in "" "-GP=5 -GV=1 -GD=1 -GS=1" "-GP=7 -GV=4 -GD=4 -GS=16 -GXL=35" "-GNA=512 -GNTERM=256" \
           "-GP=16 -GV=8 -GNA=1023 -GNTERM=767 -GNCMAX=1" "-GP=32 -GNA=2048 -GNTERM=1024" "-GP=2 -GNA=2 -GNTERM=1 -GS=2 -GXL=64 -GNCMAX=256"; do
    if out=$(verilator --lint-only -Wall $cfg rtl/xnoc_pkg.sv $(ls rtl/*.sv | grep -v _pkg) --top-module xnoc_ncu 2>&1); then
        echo "lint ok   xnoc_ncu ${cfg:-(defaults)}"
    else
        echo "lint FAIL xnoc_ncu ${cfg:-(defaults)}"
        echo "$out" | grep '^%' | head -20
        rc=1
    fi
done

# C: cppcheck over the harness and the firmware libraries (warnings,
# portability); the compilers' -Wall -Wextra -Werror run in every build
if command -v cppcheck >/dev/null; then
    if out=$(cppcheck --quiet --std=c11 --enable=warning,portability --inline-suppr -I sim_harness -D_GNU_SOURCE \
                 sim_harness firmware/lib firmware/coll 2>&1) && [ -z "$out" ]; then
        echo "lint ok   C (cppcheck)"
    else
        echo "lint FAIL C (cppcheck)"
        echo "$out" | head -20
        rc=1
    fi
fi

# structure: no dependency circles between the harness's files (calls or includes)
if [ -d build/obj/sim_harness ]; then
    if out=$(tools/deps.sh build 2>&1); then echo "lint ok   no dependency circles (tools/deps.sh)"
    else echo "lint FAIL dependency circles"; echo "$out"; rc=1; fi
fi
exit $rc
