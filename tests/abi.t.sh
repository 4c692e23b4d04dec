# abi: the things that cross layers live in one place each, and the copies
# that must exist (C and SystemVerilog) agree: the flit format
# (firmware/lib/flit.h vs rtl/xnoc_pkg.sv); the plan layout and the NI
# register map are single headers shared by harness and firmware (their C
# compile-time checks are in sim_harness/coll/coll_plan.c).
source tests/lib.sh
if unit_bin ABI abi_flit; then
    "$ABI" | sort > "$TMP/c.txt"
    sed -n 's/^ *localparam int \([A-Za-z0-9]*\) *= *\([0-9]*\);.*/\1 \2/p' rtl/xnoc_pkg.sv | sort > "$TMP/sv.txt"
    if [ -s "$TMP/sv.txt" ] && cmp -s "$TMP/c.txt" "$TMP/sv.txt"; then ok "flit-format-agrees ($(wc -l < "$TMP/c.txt") fields)"
    else fail flit-format-agrees "$(diff "$TMP/c.txt" "$TMP/sv.txt" | head -4 | tr '\n' ' ')"; fi
else
    fail abi-build "$(head -3 "$TMP/cc.log")"
fi
# a drift is caught: change one field on the RTL side
sed 's/HeadSrBit       = 12/HeadSrBit       = 11/' rtl/xnoc_pkg.sv | sed -n 's/^ *localparam int \([A-Za-z0-9]*\) *= *\([0-9]*\);.*/\1 \2/p' | sort > "$TMP/sv2.txt"
cmp -s "$TMP/c.txt" "$TMP/sv2.txt" && fail abi-drift-caught "a changed field went unnoticed" || ok abi-drift-caught
# the combining operators' field and codes are in the table (and drifts of either are caught):
# FUNC at [46:43], XOR = 0 (every existing head has 0 there), nine operators
for want in "HeadFuncLsb 43" "HeadFuncW 4" "NcFuncXor 0" "NcFuncAdd32 3" "NcFuncMax32u 8" "NcFuncNum 9"; do
    grep -qx "$want" "$TMP/c.txt" && grep -qx "$want" "$TMP/sv.txt" && ok "func-field ($want)" || fail "func-field" "'$want' not in both tables"
done
for probe in "s/HeadFuncLsb     = 43/HeadFuncLsb     = 44/" "s/NcFuncMin32u    = 7/NcFuncMin32u    = 6/"; do
    sed "$probe" rtl/xnoc_pkg.sv | sed -n 's/^ *localparam int \([A-Za-z0-9]*\) *= *\([0-9]*\);.*/\1 \2/p' | sort > "$TMP/sv3.txt"
    if cmp -s "$TMP/sv.txt" "$TMP/sv3.txt"; then fail func-drift-caught "the probe '$probe' no longer applies"
    elif cmp -s "$TMP/c.txt" "$TMP/sv3.txt"; then fail func-drift-caught "'$probe' went unnoticed"
    else ok "func-drift-caught ($(diff "$TMP/c.txt" "$TMP/sv3.txt" | grep '^>' | head -1))"; fi
done
# the host-side reference of the combining operators (sim_harness/coll/ncfunc.c) on hand-worked values
if unit_bin NCF ncfunc_unit; then
    out=$("$NCF" 2>&1); rc=$?
    n=$(grep -c '^ok ' <<<"$out")
    if [ $rc = 0 ] && [ "$n" = 15 ] && ! grep -q '^FAIL' <<<"$out"; then ok "ncfunc-reference ($n cases)"
    else fail ncfunc-reference "exit $rc, $n ok: $(grep -m2 '^FAIL' <<<"$out" | tr '\n' ' ')"; fi
fi
# --router ncu_ops: the model cache is keyed by the generated netlist (net/netbuild.c), so the
# default (all) must leave the netlist as it was (no NcuOps: the RTL's default) and xor must change it
if unit_bin NGO netgen_ops_unit; then
    "$NGO" mesh:4x4 > "$TMP/nl_def.sv" && "$NGO" mesh:4x4 ncu_ops=all > "$TMP/nl_all.sv" && "$NGO" mesh:4x4 ncu_ops=xor > "$TMP/nl_xor.sv"
    if cmp -s "$TMP/nl_def.sv" "$TMP/nl_all.sv" && ! grep -q NcuOps "$TMP/nl_all.sv" && [ "$(grep -c '\.NcuOps(0)' "$TMP/nl_xor.sv")" = 16 ]; then
        ok "ncu-ops-netlist (all = default, no NcuOps; xor: 16 units with NcuOps(0))"
    else fail ncu-ops-netlist "$(diff "$TMP/nl_def.sv" "$TMP/nl_all.sv" | head -2 | tr '\n' ' ') xor units: $(grep -c 'NcuOps(0)' "$TMP/nl_xor.sv")"; fi
    check_fail ncu-ops-bad 2 "ncu_ops='sum' is not xor or all" "$NGO" mesh:4x4 ncu_ops=sum
fi
# the docs' head-flit table (docs/architecture.md) names each field's bits as flit.h does, and a drift is caught
if out=$(awk -f tools/doc_fields.awk "$TMP/c.txt" docs/architecture.md 2>&1) && grep -q "checked 8 fields" <<<"$out"; then
    ok "docs-flit-table-agrees ($out)"
else fail docs-flit-table-agrees "$(echo "$out" | head -3 | tr '\n' ' ')"; fi
sed 's/| `\[17:14\]`  | EJSEL/| `[18:14]`  | EJSEL/' docs/architecture.md > "$TMP/arch.md"
if out=$(awk -f tools/doc_fields.awk "$TMP/c.txt" "$TMP/arch.md"); then fail docs-flit-drift-caught "a wrong EJSEL went unnoticed"
elif grep -qx "EJSEL at \[18:14\] in the docs, HeadEjselLsb/W = 14/4" <<<"$out"; then ok docs-flit-drift-caught
else fail docs-flit-drift-caught "$(echo "$out" | head -2 | tr '\n' ' ')"; fi
# the package's typed views of the head and meta flits (head_t, head_sr_t,
# meta_t) put every field where its Lsb/W says, and a drift is caught
if out=$(awk -f tools/pkg_structs.awk rtl/xnoc_pkg.sv 2>&1) && grep -q "checked 21 fields of 3 structs" <<<"$out"; then
    ok "pkg-structs-agree ($out)"
else fail pkg-structs-agree "$(echo "$out" | head -3 | tr '\n' ' ')"; fi
awk 'BEGIN{s=0} /^ *logic +mc;/ && !s {held=$0; s=1; next} s==1 && /^ *logic +sr;/ {print; print held; s=2; next} {print}' rtl/xnoc_pkg.sv > "$TMP/pkg_swapped.sv"
if out=$(awk -f tools/pkg_structs.awk "$TMP/pkg_swapped.sv"); then fail pkg-struct-drift-caught "two fields swapped went unnoticed"
elif grep -qx "head_t.mc at bit 12, HeadMcBit = 13" <<<"$out"; then ok pkg-struct-drift-caught
else fail pkg-struct-drift-caught "$(echo "$out" | head -2 | tr '\n' ' ')"; fi
# the router reads the head through the package, not through literals
grep -q "xnoc_pkg::head_t" rtl/xnoc_router.sv && ! grep -nE "front_pl\[g\*PW \+ [0-9]" rtl/xnoc_router.sv >/dev/null \
    && ok router-uses-pkg || fail router-uses-pkg "rtl/xnoc_router.sv spells head fields out"
grep -q "xnoc_pkg::meta_t" rtl/xnoc_ncu_absorb.sv && grep -q "xnoc_pkg::meta_t" rtl/xnoc_ncu_emit.sv && \
    ! grep -nE "(fpay|ehead_d|spay)\[(xnoc_pkg::)?[A-Za-z0-9]+" rtl/xnoc_ncu*.sv >/dev/null \
    && ok ncu-uses-pkg || fail ncu-uses-pkg "rtl/xnoc_ncu*.sv spell head or meta fields out"
# no copies of the layout headers: the harness includes the firmware's
for h in ni_regs.h flit.h; do
    grep -q "firmware/lib/$h" sim_harness/system/ni.h && ok "harness-includes-$h" || fail "harness-includes-$h" "sim_harness/system/ni.h"
done
grep -q "firmware/coll/plan.h" sim_harness/coll/coll_plan.h && ok harness-includes-plan.h || fail harness-includes-plan.h "coll_plan.h"
# the router with the package synthesizes (yosys 0.23 takes package references)
if command -v yosys >/dev/null; then
    if yosys -q -l "$TMP/ys.log" -p "read_verilog -sv rtl/xnoc_pkg.sv rtl/xnoc_fifo.sv rtl/xnoc_rr_arb.sv rtl/xnoc_rr_arb_bank.sv rtl/xnoc_vc_buffers.sv rtl/xnoc_router.sv; chparam -set NumPorts 3 -set NumVcs 2 -set BufDepth 2 -set NumAddrs 4 xnoc_router; synth -top xnoc_router; stat" >/dev/null 2>&1 \
        && cells=$(grep "Number of cells:" "$TMP/ys.log" | tail -1 | awk '{print $4}') && [ "${cells:-0}" -gt 500 ]; then
        ok "router-synthesizes ($cells cells)"
    else fail router-synthesizes "$(tail -3 "$TMP/ys.log" 2>/dev/null)"; fi
fi
# C lint: cppcheck (warnings, portability) has nothing to say
if command -v cppcheck >/dev/null; then
    out=$(cppcheck --quiet --std=c11 --enable=warning,portability --inline-suppr -I sim_harness -D_GNU_SOURCE \
              sim_harness firmware/lib firmware/coll 2>&1)
    [ -z "$out" ] && ok cppcheck-clean || fail cppcheck-clean "$(echo "$out" | head -2 | tr '\n' ' ')"
else
    echo "skip cppcheck: cppcheck is not installed (make deps installs it)"
fi
# structure: no dependency circles between the harness's files, by calls (nm) or includes
out=$(tools/deps.sh "${XNOC_BUILD:-build}" 2>&1) && ok no-dependency-circles || fail no-dependency-circles "$(echo "$out" | head -2 | tr '\n' ' ')"
# and the check bites: a call back from the netlist generator into the running network is a circle
mkdir -p "$TMP/depsb/obj/sim_harness"
cp -r "${XNOC_BUILD:-build}/obj/sim_harness/." "$TMP/depsb/obj/sim_harness/"
printf 'void net_cycle(void);\nvoid netgen_backcall(void) { net_cycle(); }\n' > "$TMP/back.c"
cc -c -o "$TMP/depsb/obj/sim_harness/net/netgen_back.o" "$TMP/back.c"
cp "$TMP/depsb/obj/sim_harness/net/netgen_back.o" "$TMP/depsb/obj/sim_harness/net/netgen.o.tmp"
# netgen.o gains the call (ld -r merges the two objects)
ld -r -o "$TMP/depsb/obj/sim_harness/net/netgen.o" "${XNOC_BUILD:-build}/obj/sim_harness/net/netgen.o" "$TMP/depsb/obj/sim_harness/net/netgen_back.o"
rm "$TMP/depsb/obj/sim_harness/net/netgen_back.o" "$TMP/depsb/obj/sim_harness/net/netgen.o.tmp"
check_fail dependency-circle-found 1 "dependency circle:.*sim_harness/net/net.c" tools/deps.sh "$TMP/depsb"
# and the layers: the core emulator calling into the network (a layer above it) is reported
rm -rf "$TMP/depsc"; mkdir -p "$TMP/depsc/obj/sim_harness"
cp -r "${XNOC_BUILD:-build}/obj/sim_harness/." "$TMP/depsc/obj/sim_harness/"
printf 'void topo_parse(void);\nvoid rv32_upcall(void) { topo_parse(); }\n' > "$TMP/up.c" # topo_parse lives in net/topo_kinds.c
cc -c -o "$TMP/up.o" "$TMP/up.c"
ld -r -o "$TMP/depsc/obj/sim_harness/core/rv32.o" "${XNOC_BUILD:-build}/obj/sim_harness/core/rv32.o" "$TMP/up.o"
check_fail layer-violation-found 1 "layering: sim_harness/core/rv32.c uses sim_harness/net/topo_kinds.c .core/ is below net/." tools/deps.sh "$TMP/depsc"

# the engine layer (issue 33): the traffic engine calling back into the command layer is reported
rm -rf "$TMP/depsd"; mkdir -p "$TMP/depsd/obj/sim_harness"
cp -r "${XNOC_BUILD:-build}/obj/sim_harness/." "$TMP/depsd/obj/sim_harness/"
printf 'void cmd_opts_init(void);\nvoid traffic_upcall(void) { cmd_opts_init(); }\n' > "$TMP/up2.c"
cc -c -o "$TMP/up2.o" "$TMP/up2.c"
ld -r -o "$TMP/depsd/obj/sim_harness/traffic/traffic_run.o" "${XNOC_BUILD:-build}/obj/sim_harness/traffic/traffic_run.o" "$TMP/up2.o"
check_fail engine-layer-violation-found 1 "layering: sim_harness/traffic/traffic_run.c uses sim_harness/cmd/cmd_opts.c .traffic/ is below cmd/." tools/deps.sh "$TMP/depsd"

# the command layer stays thin (issue 33): no function in sim_harness/cmd/ over
# 150 lines (tools/fnlen.sh), and no command runs the network's cycle loop
# itself: that is an engine's (traffic/, exec/, system/)
out=$(tools/fnlen.sh 2>&1) && ok cmd-functions-short || fail cmd-functions-short "$(echo "$out" | head -2 | tr '\n' ' ')"
cyc=$(for o in "${XNOC_BUILD:-build}"/obj/sim_harness/cmd/*.o; do
          nm --undefined-only "$o" | grep -q ' net_cycle$' && basename "$o"; done)
[ -z "$cyc" ] && ok cmd-runs-no-cycle-loop || fail cmd-runs-no-cycle-loop "calls net_cycle: $cyc"
# and the length check bites: a 151-line body fails, naming it; 150 lines pass
{ echo 'static int long_one(void)'; echo '{'; for i in $(seq 149); do echo '    x();'; done; echo '}'; } > "$TMP/long.c"
check_fail fnlen-151-fails 1 "long.c:2: long_one is 151 lines \(at most 150\)" tools/fnlen.sh "$TMP/long.c"
sed -i '3d' "$TMP/long.c"
out=$(tools/fnlen.sh "$TMP/long.c" 2>&1) && ok fnlen-150-passes || fail fnlen-150-passes "$out"

# C formatting is part of the structure: every C file as .clang-format says
# (make format-check names the ones that differ; `make format` fixes them)
if out=$(make -s format-check 2>&1); then ok format-clean
else fail format-clean "$(echo "$out" | head -3 | tr '\n' ' ')"; fi
