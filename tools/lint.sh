#!/usr/bin/env bash
# tools/lint.sh - `make lint`: verilator --lint-only -Wall over rtl/ for a
# spread of router configurations (ports, VCs, depth, table size, classes).
# Any warning fails (Verilator's warnings are fatal without -Wno-fatal).
set -u
cd "$(dirname "$0")/.."
rc=0
for cfg in "" "-GNumPorts=7 -GNumVcs=4 -GBufDepth=4 -GNumClasses=2" "-GNumVcs=1 -GBufDepth=1" "-GNumAddrs=256" "-GNumPorts=11 -GNumVcs=8 -GNumClasses=2" \
           "-GNumPorts=16 -GNumVcs=8 -GBufDepth=8 -GNumAddrs=1024" "-GNumPorts=32 -GNumVcs=2 -GNumClasses=2 -GNumAddrs=4095" "-GNumPorts=25 -GNumVcs=4 -GNumAddrs=2048" "-GNumPorts=3 -GNumVcs=2 -GBufDepth=2 -GNumAddrs=1" "-GNumPorts=2 -GNumVcs=1 -GBufDepth=1 -GNumAddrs=1" \
           "-GNumPorts=5 -GRouteBits=2 -GNumAddrs=16" "-GNumPorts=6 -GNumAddrs=32" "-GNumPorts=8 -GNumVcs=3 -GNumClasses=3 -GNumGroups=9 -GNumAddrs=108" "-GNumPorts=12 -GNumVcs=6 -GNumClasses=3 -GNumGroups=64 -GNumAddrs=1024"; do
    if out=$(verilator --lint-only -Wall $cfg rtl/xnoc_pkg.sv $(ls rtl/*.sv | grep -v _pkg) --top-module xnoc_router 2>&1); then
        echo "lint ok   xnoc_router ${cfg:-(defaults)}"
    else
        echo "lint FAIL xnoc_router ${cfg:-(defaults)}"
        echo "$out" | grep '^%' | head -20
        rc=1
    fi
done
# the network-coding unit: ports, VCs, addresses (mask flits), slots, XOR latency, payload limit
for cfg in "" "-GNumPorts=5 -GNumVcs=1 -GBufDepth=1 -GNumSlots=1" "-GNcuOps=0" "-GNumPorts=2 -GNumAddrs=2 -GNumTerms=1 -GNumSlots=1 -GNcuOps=0" "-GNumPorts=7 -GNumVcs=4 -GBufDepth=4 -GNumSlots=16 -GXorLat=35" "-GNumAddrs=512 -GNumTerms=256" \
           "-GNumPorts=16 -GNumVcs=8 -GNumAddrs=1023 -GNumTerms=767 -GMaxFlits=1" "-GNumPorts=32 -GNumAddrs=2048 -GNumTerms=1024" "-GNumPorts=2 -GNumAddrs=2 -GNumTerms=1 -GNumSlots=2 -GXorLat=64 -GMaxFlits=256" \
           "-GNumPorts=9 -GNumAddrs=21 -GNumTerms=12 -GNumLanes=4" "-GNumPorts=5 -GNumVcs=1 -GBufDepth=1 -GNumSlots=3 -GNumLanes=3" \
           "-GNumPorts=2 -GNumAddrs=2 -GNumTerms=1 -GNumSlots=2 -GNcuOps=0 -GNumLanes=2" "-GNumAddrs=512 -GNumTerms=256 -GNumSlots=16 -GNumLanes=16" \
           "-GNumLanes=6 -GStream=1 -GNumAddrs=128 -GNumTerms=64" "-GNumPorts=8 -GNumLanes=8 -GStream=1 -GNumVcs=1 -GBufDepth=1 -GNcuOps=0" \
           "-GNumPorts=2 -GNumAddrs=2 -GNumTerms=1 -GNumSlots=2 -GNumLanes=2 -GStream=1" "-GNumPorts=7 -GNumVcs=4 -GNumLanes=7 -GStream=1 -GNumAddrs=512 -GNumTerms=256"; do
    if out=$(verilator --lint-only -Wall $cfg rtl/xnoc_pkg.sv $(ls rtl/*.sv | grep -v _pkg) --top-module xnoc_ncu 2>&1); then
        echo "lint ok   xnoc_ncu ${cfg:-(defaults)}"
    else
        echo "lint FAIL xnoc_ncu ${cfg:-(defaults)}"
        echo "$out" | grep '^%' | head -20
        rc=1
    fi
done

# the tile (rtl/xnoc_tile.sv: router + unit, the tile build's model): with and without a unit, with
# multicast lanes, and
# with -DVERILATOR undefined (a tool other than Verilator sees the same design: nothing below
# depends on it)
for cfg in "" "-GNcu=1 -GNumAddrs=32 -GNumTerms=16" "-GNcu=1 -GNumPorts=7 -GNumVcs=4 -GNumClasses=2 -GNumAddrs=128 -GNumTerms=64" \
           "-GNumPorts=3 -GNumVcs=3 -GNumClasses=3 -GNumGroups=5 -GNumAddrs=10" "-GNcu=1 -GNumAddrs=2048 -GNumTerms=1024" "-UVERILATOR -GNcu=1 -GNumAddrs=32 -GNumTerms=16" \
           "-GNcu=1 -GNumLanes=3" "-GNcu=1 -GNumPorts=8 -GNumAddrs=21 -GNumTerms=12 -GNumLanes=4 -GLaneReserve=1" \
           "-UVERILATOR -GNcu=1 -GNumLanes=3" "-GNcu=1 -GNumPorts=5 -GNumLanes=6 -GStream=1 -GNumAddrs=128 -GNumTerms=64"; do
    if out=$(verilator --lint-only -Wall $cfg rtl/xnoc_pkg.sv $(ls rtl/*.sv | grep -v _pkg) --top-module xnoc_tile 2>&1); then
        echo "lint ok   xnoc_tile ${cfg:-(defaults)}"
    else
        echo "lint FAIL xnoc_tile ${cfg:-(defaults)}"
        echo "$out" | grep '^%' | head -20
        rc=1
    fi
done

# rtl_never WHAT REGEX: no line of rtl/*.sv matches REGEX (WHAT names the rule)
rtl_never() {
    local out
    if out=$(grep -nE "$2" rtl/*.sv); then
        echo "lint FAIL $1"
        echo "$out" | head -20
        rc=1
    else
        echo "lint ok   none: $1"
    fi
}

# no simulation-only constructs in rtl/: no code only Verilator sees, no printing or initial
# blocks, no hierarchical references into another module (a name.name read outside a struct
# field: the instances are u_*); named assertions under `ifdef XNOC_ASSERT are fine
rtl_never "simulation-only constructs in rtl/" \
    '`ifn?def +(VERILATOR|SYNTHESIS)|\$(display|write|monitor|strobe|finish|stop)\b|^\s*initial\b|\bu_[A-Za-z0-9_]+\.[A-Za-z_]'
# yosys 0.23 reads a typed parameter set to '1 as the value 1 (localparam logic [11:0] None =
# '1 synthesizes as 12'h001, while Verilator gives 12'hfff): write {W{1'b1}} there
rtl_never "parameter set to '1 (yosys 0.23 makes it 1: write {W{1'b1}})" \
    "^\s*(localparam|parameter)\b[^=]*=\s*'1\s*[;,)]"

# the Clos multicast routing controller (docs/clos.md): middle switches, output switches
for cfg in "" "-GNumMid=17 -GNumOut=16" "-GNumMid=2 -GNumOut=1" "-GNumMid=19 -GNumOut=32" "-GNumMid=64 -GNumOut=64"; do
    if out=$(verilator --lint-only -Wall $cfg rtl/xnoc_clos_ctl.sv --top-module xnoc_clos_ctl 2>&1); then
        echo "lint ok   xnoc_clos_ctl ${cfg:-(defaults)}"
    else
        echo "lint FAIL xnoc_clos_ctl ${cfg:-(defaults)}"
        echo "$out" | grep '^%' | head -20
        rc=1
    fi
done

# C: cppcheck over the harness and the firmware libraries (warnings,
# portability); the compilers' -Wall -Wextra -Werror run in every build
if command -v cppcheck >/dev/null; then
    if out=$(cppcheck --quiet --std=c11 --enable=warning,portability --inline-suppr -I sim_harness -D_GNU_SOURCE \
                 sim_harness firmware/lib firmware/coll firmware/libc -I firmware/libc/include 2>&1) && [ -z "$out" ]; then
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
# structure: the commands stay thin (issue 33): no function in sim_harness/cmd/ over 150 lines
if out=$(tools/fnlen.sh 2>&1); then echo "lint ok   no command function over 150 lines (tools/fnlen.sh)"
else echo "lint FAIL long functions in sim_harness/cmd/"; echo "$out"; rc=1; fi
# structure: usage errors only in the command layer (issue 48)
if out=$(tools/usage_errors.sh 2>&1); then echo "lint ok   usage errors only in cmd/ and util/ (tools/usage_errors.sh)"
else echo "lint FAIL usage errors below cmd/"; echo "$out"; rc=1; fi
exit $rc
