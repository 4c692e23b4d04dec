#!/usr/bin/env bash
# tools/lint.sh - `make lint`: verilator --lint-only -Wall over rtl/ for a
# spread of router configurations (ports, VCs, depth, table size, classes).
# Any warning fails (Verilator's warnings are fatal without -Wno-fatal).
set -u
cd "$(dirname "$0")/.."
rc=0
for cfg in "" "-GP=7 -GV=4 -GD=4 -GNC=2" "-GV=1 -GD=1" "-GNT=256" "-GP=11 -GV=8 -GNC=2" \
           "-GP=16 -GV=8 -GD=8 -GNT=1024" "-GP=3 -GV=2 -GD=2 -GNT=1" "-GP=2 -GV=1 -GD=1 -GNT=1"; do
    if out=$(verilator --lint-only -Wall $cfg rtl/*.sv --top-module xnoc_router 2>&1); then
        echo "lint ok   xnoc_router ${cfg:-(defaults)}"
    else
        echo "lint FAIL xnoc_router ${cfg:-(defaults)}"
        echo "$out" | grep '^%' | head -20
        rc=1
    fi
done
exit $rc
