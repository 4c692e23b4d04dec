# abi: the things that cross layers live in one place each, and the copies
# that must exist (C and SystemVerilog) agree: the flit format - the link
# flit (firmware/lib/link_flit.h) and the head and meta flits
# (firmware/lib/flit.h) - and the debug register map
# (sim_harness/net/dbg_map.h), all against rtl/xnoc_pkg.sv; the plan layout
# and the NI register map are single headers shared by harness and firmware
# (their C compile-time checks are in sim_harness/coll/coll_plan.c).
source tests/lib.sh
# the package's constants as "Name value" lines, sorted: every localparam int
# whose value is a number or an expression of earlier ones (LinkSlotW)
pkg_consts() {
    (
        re='^[A-Za-z0-9 +*/()-]+$'
        sed -n 's/^ *localparam int \([A-Za-z0-9]*\) *= *\([^;]*\);.*/\1 \2/p' "$1" | while read -r name expr; do
            [[ $expr =~ $re ]] || continue
            printf -v "$name" '%d' "$((expr))"
            echo "$name ${!name}"
        done
    ) | sort
}
if unit_bin ABI abi_flit; then
    "$ABI" | sort > "$TMP/c.txt"
    pkg_consts rtl/xnoc_pkg.sv > "$TMP/sv.txt"
    if [ -s "$TMP/sv.txt" ] && cmp -s "$TMP/c.txt" "$TMP/sv.txt"; then ok "flit-format-agrees ($(wc -l < "$TMP/c.txt") fields)"
    else fail flit-format-agrees "$(diff "$TMP/c.txt" "$TMP/sv.txt" | head -4 | tr '\n' ' ')"; fi
else
    fail abi-build "$(head -3 "$TMP/cc.log")"
fi
# a drift is caught: change one field on the RTL side
sed 's/HeadSrBit       = 12/HeadSrBit       = 11/' rtl/xnoc_pkg.sv > "$TMP/pkg_sr.sv"
pkg_consts "$TMP/pkg_sr.sv" > "$TMP/sv2.txt"
cmp -s "$TMP/c.txt" "$TMP/sv2.txt" && fail abi-drift-caught "a changed field went unnoticed" || ok abi-drift-caught

# The link flit and the debug map: in the table on both sides (the slot width
# LinkSlotW derived from the flit's width on each), and a drift of either side
# is caught: an RTL probe changes a temporary copy of the package, a C probe
# rebuilds abi_flit against changed copies of the headers.
for want in "LinkPayloadW 64" "LinkHeadBit 64" "LinkTailBit 65" "LinkVcLsb 66" "LinkVcW 3" "LinkFlitW 69" "LinkSlotW 96" \
            "DbgAddrW 10" "DbgKindLsb 8" "DbgKindErr 3" "DbgUnitBase 832" "DbgUnitAddrW 6" "DbgUnitClocked 10" "DbgUnitSlot0 16"; do
    grep -qx "$want" "$TMP/c.txt" && grep -qx "$want" "$TMP/sv.txt" && ok "link-dbg-table ($want)" || fail "link-dbg-table" "'$want' not in both tables"
done
for probe in "s/LinkTailBit     = 65/LinkTailBit     = 64/" "s/LinkFlitW       = 69/LinkFlitW       = 70/" \
             "s/DbgUnitBase     = 832/DbgUnitBase     = 768/" "s/DbgKindStalls   = 1;/DbgKindStalls   = 2;/"; do
    sed "$probe" rtl/xnoc_pkg.sv > "$TMP/pkg_probe.sv"
    pkg_consts "$TMP/pkg_probe.sv" > "$TMP/sv4.txt"
    if cmp -s "$TMP/sv.txt" "$TMP/sv4.txt"; then fail rtl-drift-caught "the probe '$probe' no longer applies"
    elif cmp -s "$TMP/c.txt" "$TMP/sv4.txt"; then fail rtl-drift-caught "'$probe' went unnoticed"
    else ok "rtl-drift-caught ($(diff "$TMP/c.txt" "$TMP/sv4.txt" | grep '^>' | tr '\n' ' '))"; fi
done
# (LinkFlitW = 70 moves LinkSlotW only if the derivation is followed: 96 either way)
grep -qx "LinkSlotW 96" "$TMP/sv4.txt" && ok slot-width-derived || fail slot-width-derived "$(grep LinkSlotW "$TMP/sv4.txt")"
sed 's/LinkFlitW       = 69/LinkFlitW       = 97/' rtl/xnoc_pkg.sv > "$TMP/pkg_probe.sv"
grep -qx "LinkSlotW 128" <(pkg_consts "$TMP/pkg_probe.sv") && ok slot-width-follows-flit || fail slot-width-follows-flit "LinkFlitW 97 did not give LinkSlotW 128"
csrc() { # a copy of abi_flit's sources in $TMP/cside, with sed $2 applied to header $1
    rm -rf "$TMP/cside"; mkdir -p "$TMP/cside/firmware/lib" "$TMP/cside/sim_harness/net" "$TMP/cside/tests/unit"
    cp firmware/lib/flit.h firmware/lib/link_flit.h "$TMP/cside/firmware/lib/"
    cp sim_harness/net/dbg_map.h "$TMP/cside/sim_harness/net/"
    cp tests/unit/abi_flit.c "$TMP/cside/tests/unit/"
    sed -i "$2" "$TMP/cside/$1"
    cc -std=c11 -Wall -Wextra -Werror -o "$TMP/cside/abi" "$TMP/cside/tests/unit/abi_flit.c" 2>"$TMP/cside/cc.log"
}
for probe in "firmware/lib/link_flit.h s/#define LINK_HEAD_BIT 64/#define LINK_HEAD_BIT 65/;s/#define LINK_TAIL_BIT 65/#define LINK_TAIL_BIT 64/" \
             "sim_harness/net/dbg_map.h s/#define DBG_UNIT_CLOCKED 10/#define DBG_UNIT_CLOCKED 11/"; do
    if ! csrc ${probe%% *} "${probe#* }"; then fail c-drift-caught "$probe: $(head -2 "$TMP/cside/cc.log")"; continue; fi
    "$TMP/cside/abi" | sort > "$TMP/c5.txt"
    if cmp -s "$TMP/c.txt" "$TMP/c5.txt"; then fail c-drift-caught "the probe '$probe' no longer applies"
    elif cmp -s "$TMP/c5.txt" "$TMP/sv.txt"; then fail c-drift-caught "'$probe' went unnoticed"
    else ok "c-drift-caught ($(diff "$TMP/c5.txt" "$TMP/sv.txt" | grep '^<' | tr '\n' ' '))"; fi
done
# the C header's own checks bite: a VC field that straddles a word does not compile
if csrc firmware/lib/link_flit.h "s/#define LINK_VC_LSB 66/#define LINK_VC_LSB 62/;s/#define LINK_FLIT_W 69/#define LINK_FLIT_W 65/"; then
    fail link-static-assert "a VC field across a word boundary compiled"
elif grep -q "a field straddles a word" "$TMP/cside/cc.log"; then ok link-static-assert
else fail link-static-assert "$(head -2 "$TMP/cside/cc.log")"; fi

# the combining operators' field and codes are in the table (and drifts of either are caught):
# FUNC at [46:43], XOR = 0 (every existing head has 0 there), ten operators (the product last)
for want in "HeadFuncLsb 43" "HeadFuncW 4" "NcFuncXor 0" "NcFuncAdd32 3" "NcFuncMax32u 8" "NcFuncMul32 9" "NcFuncNum 10"; do
    grep -qx "$want" "$TMP/c.txt" && grep -qx "$want" "$TMP/sv.txt" && ok "func-field ($want)" || fail "func-field" "'$want' not in both tables"
done
for probe in "s/HeadFuncLsb     = 43/HeadFuncLsb     = 44/" "s/NcFuncMin32u    = 7/NcFuncMin32u    = 6/"; do
    sed "$probe" rtl/xnoc_pkg.sv > "$TMP/pkg_probe.sv"
    pkg_consts "$TMP/pkg_probe.sv" > "$TMP/sv3.txt"
    if cmp -s "$TMP/sv.txt" "$TMP/sv3.txt"; then fail func-drift-caught "the probe '$probe' no longer applies"
    elif cmp -s "$TMP/c.txt" "$TMP/sv3.txt"; then fail func-drift-caught "'$probe' went unnoticed"
    else ok "func-drift-caught ($(diff "$TMP/c.txt" "$TMP/sv3.txt" | grep '^>' | head -1))"; fi
done
# the host-side reference of the combining operators (sim_harness/coll/ncfunc.c) on hand-worked values
if unit_bin NCF ncfunc_unit; then
    out=$("$NCF" 2>&1); rc=$?
    n=$(grep -c '^ok ' <<<"$out")
    if [ $rc = 0 ] && [ "$n" = 18 ] && ! grep -q '^FAIL' <<<"$out"; then ok "ncfunc-reference ($n cases)"
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
# the package's typed views of the head, meta and link flits (head_t,
# head_sr_t, meta_t, link_flit_t) put every field where its Lsb/W says, and a
# drift is caught
if out=$(awk -f tools/pkg_structs.awk rtl/xnoc_pkg.sv 2>&1) && grep -q "checked 25 fields of 4 structs" <<<"$out"; then
    ok "pkg-structs-agree ($out)"
else fail pkg-structs-agree "$(echo "$out" | head -3 | tr '\n' ' ')"; fi
awk 'BEGIN{s=0} /^ *logic +mc;/ && !s {held=$0; s=1; next} s==1 && /^ *logic +sr;/ {print; print held; s=2; next} {print}' rtl/xnoc_pkg.sv > "$TMP/pkg_swapped.sv"
if out=$(awk -f tools/pkg_structs.awk "$TMP/pkg_swapped.sv"); then fail pkg-struct-drift-caught "two fields swapped went unnoticed"
elif grep -qx "head_t.mc at bit 12, HeadMcBit = 13" <<<"$out"; then ok pkg-struct-drift-caught
else fail pkg-struct-drift-caught "$(echo "$out" | head -2 | tr '\n' ' ')"; fi
awk 'BEGIN{s=0} /^ *logic +tail;/ && !s {held=$0; s=1; next} s==1 && /^ *logic +head;/ {print; print held; s=2; next} {print}' rtl/xnoc_pkg.sv > "$TMP/pkg_swapped.sv"
if out=$(awk -f tools/pkg_structs.awk "$TMP/pkg_swapped.sv"); then fail link-struct-drift-caught "head and tail swapped went unnoticed"
elif grep -qx "link_flit_t.tail at bit 64, LinkTailBit = 65" <<<"$out"; then ok link-struct-drift-caught
else fail link-struct-drift-caught "$(echo "$out" | head -2 | tr '\n' ' ')"; fi
# the router reads the head through the package, not through literals
grep -q "xnoc_pkg::head_t" rtl/xnoc_router.sv && ! grep -nE "front_pl\[g\*PW \+ [0-9]" rtl/xnoc_router.sv >/dev/null \
    && ok router-uses-pkg || fail router-uses-pkg "rtl/xnoc_router.sv spells head fields out"
grep -q "xnoc_pkg::meta_t" rtl/xnoc_ncu_absorb.sv && grep -q "xnoc_pkg::meta_t" rtl/xnoc_ncu_emit.sv && \
    ! grep -nE "(fpay|ehead_d|spay)\[(xnoc_pkg::)?[A-Za-z0-9]+" rtl/xnoc_ncu*.sv >/dev/null \
    && ok ncu-uses-pkg || fail ncu-uses-pkg "rtl/xnoc_ncu*.sv spell head or meta fields out"
# the link flit and the debug map are not spelled out by hand: the RTL takes
# them from the package (no payload-relative offsets, 3-bit VC literals or
# 64-bit payload constants), the harness and the glue from the C headers
rtl_flit=$(grep -nE "PW ?\+ ?[0-9]|\[PW\]|\+: 3\]|3'\(|\[2:0\] +(in_|out_|return_)[a-z_]*vc_[io]|localparam int PW *= *64|PayloadW *= *64" \
    rtl/xnoc_router.sv rtl/xnoc_router_dbg.sv rtl/xnoc_vc_buffers.sv rtl/xnoc_fifo.sv rtl/xnoc_credit_counter.sv rtl/xnoc_ncu*.sv | grep -v "xnoc_pkg::")
[ -z "$rtl_flit" ] && ok rtl-link-flit-from-pkg || fail rtl-link-flit-from-pkg "$(echo "$rtl_flit" | head -2 | tr '\n' ' ')"
grep -q "xnoc_pkg::link_flit_t" rtl/xnoc_ncu_emit.sv && ok rtl-writes-link-flit-by-name || fail rtl-writes-link-flit-by-name "emit builds the flit by concatenation"
# the router writes a leaving flit as one value {vc, {tail, head}, payload} and
# vc_buffers keeps {tail, head} apart from the payload (the model's speed):
# the package must keep that order, each field next to the one below it
lk() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
link_order() {
    [ "$(lk LinkPayloadLsb "$1")" = 0 ] && [ "$(lk LinkHeadBit "$1")" = "$(lk LinkPayloadW "$1")" ] &&
        [ "$(lk LinkTailBit "$1")" = $(($(lk LinkHeadBit "$1") + 1)) ] && [ "$(lk LinkVcLsb "$1")" = $(($(lk LinkTailBit "$1") + 1)) ] &&
        [ "$(lk LinkFlitW "$1")" = $(($(lk LinkVcLsb "$1") + $(lk LinkVcW "$1"))) ]
}
link_order "$TMP/sv.txt" && grep -q "st_flit\[o\]   = {VB'(in_ovc\[32'(i)\*VI +: VI\]), ht, pl};" rtl/xnoc_router.sv \
    && ok link-flit-order || fail link-flit-order "the package's link flit is not {vc, tail, head, payload}, or the router's ST line changed"
sed 's/LinkHeadBit     = 64/LinkHeadBit     = 65/;s/LinkTailBit     = 65/LinkTailBit     = 64/' rtl/xnoc_pkg.sv > "$TMP/pkg_probe.sv"
pkg_consts "$TMP/pkg_probe.sv" > "$TMP/sv6.txt"
link_order "$TMP/sv6.txt" && fail link-flit-order-drift "head and tail swapped in the package went unnoticed" || ok link-flit-order-drift
rtl_dbg=$(grep -nE "dbg_addr_i\[9:8\]|[0-9]'d[0-9]+: *(if|dbg_data_o)|dbg_addr_i >= 6'd|logic \[(5|9):0\] +dbg_addr_i" rtl/xnoc_router_dbg.sv rtl/xnoc_ncu.sv)
[ -z "$rtl_dbg" ] && grep -q "xnoc_pkg::DbgKindOcc" rtl/xnoc_router_dbg.sv && grep -q "xnoc_pkg::DbgUnitClocked" rtl/xnoc_ncu.sv \
    && ok rtl-dbg-map-from-pkg || fail rtl-dbg-map-from-pkg "$(echo "$rtl_dbg" | head -2 | tr '\n' ' ')"
c_dbg=$(grep -nE "0x340|<< ?8 ?\||enum \{|U_CODED" sim_harness/net/net.c sim_harness/net/netgen.c)
[ -z "$c_dbg" ] && grep -q "DBG_UNIT(reg)" sim_harness/net/net.c && ok c-dbg-map-from-header || fail c-dbg-map-from-header "$(echo "$c_dbg" | head -2 | tr '\n' ' ')"
# one struct for net.h and the glue, one pack/unpack; the slot width derived once per language
# (the glues' shared part, the typedef among it, is glue/xnoc_glue_common.h)
glues="sim_harness/glue/xnoc_glue.cpp sim_harness/glue/xnoc_tile_glue.cpp sim_harness/glue/xnoc_glue_common.h"
grep -q "typedef link_flit xnoc_flit;" sim_harness/net/net.h && grep -q "typedef link_flit xflit;" sim_harness/glue/xnoc_glue_common.h \
    && grep -q "link_flit_pack" sim_harness/glue/xnoc_glue.cpp && grep -q "link_flit_pack" sim_harness/glue/xnoc_tile_glue.cpp \
    && ! grep -qE "VlWide<3>|<< 2|& 7" $glues \
    && ok glue-shares-link-flit || fail glue-shares-link-flit "net.h or the glue spells the link flit out"
lw=$(grep -rlE "(FW|fw|FlitW|FLIT_W) *\+ *31\)" rtl sim_harness firmware | sort | tr '\n' ' ')
[ "$lw" = "firmware/lib/link_flit.h rtl/xnoc_pkg.sv " ] && ok slot-width-once || fail slot-width-once "derived in: $lw"
# the netlist's unit window is the map's: 0x340..0x37F is dbg_addr_i[9:6] == 0xd,
# in the one-router read (dbg_data_o) and in the every-router read (dbg_all_o)
if unit_bin NGO netgen_ops_unit; then
    n=$("$NGO" mesh:2x2 | grep -c "dbg_addr_i\[9:6\] == 4'hd) ? u[0-9]*_dbg") && [ "$n" = 8 ] && ok netlist-unit-window \
        || fail netlist-unit-window "$n routers read their unit at dbg_addr_i[9:6] == 4'hd"
fi

# no copies of the layout headers: the harness includes the firmware's
for h in ni_regs.h flit.h; do
    grep -q "firmware/lib/$h" sim_harness/system/ni.h && ok "harness-includes-$h" || fail "harness-includes-$h" "sim_harness/system/ni.h"
done
# the decode engine's registers and constants (ni_regs.h) are docs/ni.md's table rows and figures
dec_doc_miss() { # $1: the header to read
    local name off m=""
    while read -r _ name off _; do
        grep -qE "^\| 0x${off:2:2} \| ${name#NI_D_} \|" docs/ni.md || m="$m $name"
    done < <(grep -E "^#define NI_D_[A-Z_]+ 0x[0-9A-F]{2}u" "$1" | sed 's/u / /')
    for c in NI_DEC_DESC_WORDS NI_DEC_DESC_CYCLES NI_DEC_QUEUE; do
        v=$(grep -E "^#define $c " "$1" | awk '{print $3}')
        grep -q "\`$c\` = $v" docs/ni.md || m="$m $c"
    done
    echo "$m"
}
m=$(dec_doc_miss firmware/lib/ni_regs.h)
[ -z "$m" ] && ok ni-decode-regs-documented || fail ni-decode-regs-documented "not in docs/ni.md:$m"
sed 's/^#define NI_D_WAIT 0x10u/#define NI_D_WAIT 0x18u/;s/^#define NI_DEC_QUEUE 4 /#define NI_DEC_QUEUE 8 /' firmware/lib/ni_regs.h > "$TMP/ni_regs_probe.h"
[ "$(dec_doc_miss "$TMP/ni_regs_probe.h")" = " NI_D_WAIT NI_DEC_QUEUE" ] && ok ni-decode-regs-drift || fail ni-decode-regs-drift "a moved register went unnoticed: '$(dec_doc_miss "$TMP/ni_regs_probe.h")'"
grep -q "firmware/coll/plan.h" sim_harness/coll/coll_plan.h && ok harness-includes-plan.h || fail harness-includes-plan.h "coll_plan.h"
# the router with the package synthesizes (yosys 0.23 takes package references)
if command -v yosys >/dev/null; then
    if yosys -q -l "$TMP/ys.log" -p "read_verilog -sv rtl/xnoc_pkg.sv rtl/xnoc_fifo.sv rtl/xnoc_rr_arb.sv rtl/xnoc_rr_arb_bank.sv rtl/xnoc_vc_buffers.sv rtl/xnoc_router_dbg.sv rtl/xnoc_router.sv; chparam -set NumPorts 3 -set NumVcs 2 -set BufDepth 2 -set NumAddrs 4 xnoc_router; synth -top xnoc_router; stat" >/dev/null 2>&1 \
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

# short functions and files (issues 33, 48): no function of sim_harness/ over
# 150 lines but the interpreter's dispatch, no file of sim_harness/, rtl/ or
# firmware/ over 650 (tools/fnlen.sh); and no command runs the network's
# cycle loop itself: that is an engine's (traffic/, collrun/, system/)
out=$(tools/fnlen.sh 2>&1) && ok functions-and-files-short || fail functions-and-files-short "$(echo "$out" | head -2 | tr '\n' ' ')"
cyc=$(for o in "${XNOC_BUILD:-build}"/obj/sim_harness/cmd/*.o; do
          nm --undefined-only "$o" | grep -q ' net_cycle$' && basename "$o"; done)
[ -z "$cyc" ] && ok cmd-runs-no-cycle-loop || fail cmd-runs-no-cycle-loop "calls net_cycle: $cyc"
# and the length check bites: a 151-line body fails, naming it; 150 lines pass
{ echo 'static int long_one(void)'; echo '{'; for i in $(seq 149); do echo '    x();'; done; echo '}'; } > "$TMP/long.c"
check_fail fnlen-151-fails 1 "long.c:2: long_one is 151 lines \(at most 150\)" tools/fnlen.sh "$TMP/long.c"
sed -i '3d' "$TMP/long.c"
out=$(tools/fnlen.sh "$TMP/long.c" 2>&1) && ok fnlen-150-passes || fail fnlen-150-passes "$out"
# a signature over two lines is named by its function, not its last parameter (issue 48)
{ echo 'static int two_lines(int a,'; echo '                     int b)'; echo '{'; for i in $(seq 150); do echo '    x();'; done; echo '}'; } > "$TMP/two.c"
check_fail fnlen-names-split-signature 1 "two.c:3: two_lines is 152 lines \(at most 150\)" tools/fnlen.sh "$TMP/two.c"
# the listed exception (the interpreter's dispatch) passes at any length; the same length elsewhere fails
sed 's/two_lines/rv32_run/' "$TMP/two.c" > "$TMP/rv.c"
out=$(tools/fnlen.sh "$TMP/rv.c" 2>&1) && ok fnlen-exception-passes || fail fnlen-exception-passes "$out"
# and a source file over 650 lines in rtl/ is named (a copy of the tree with one grown file)
rm -rf "$TMP/fl"; mkdir -p "$TMP/fl/tools" && cp tools/fnlen.sh "$TMP/fl/tools/" && cp -r sim_harness rtl firmware "$TMP/fl/"
seq 651 | sed 's,^,// ,' > "$TMP/fl/rtl/xnoc_grown.sv"
check_fail fnlen-file-651-fails 1 "^rtl/xnoc_grown.sv: 651 lines \(at most 650\)$" "$TMP/fl/tools/fnlen.sh"

# usage errors (exit 2) only in the command layer (issue 48): the engines
# say why they refuse, cmd/ names the option (tools/usage_errors.sh)
out=$(tools/usage_errors.sh 2>&1) && ok usage-errors-only-in-cmd || fail usage-errors-only-in-cmd "$(echo "$out" | head -2 | tr '\n' ' ')"
# and the check bites: an engine's usage error is named; the listed exception and comments pass
rm -rf "$TMP/ue"; mkdir -p "$TMP/ue/collrun" "$TMP/ue/view" "$TMP/ue/cmd"
printf 'void f(void)\n{\n    cli_fail(EXIT_USAGE, "--bytes: odd");\n}\n' > "$TMP/ue/collrun/eng.c"
printf '/* cli_fail(EXIT_USAGE, ...) in a comment */\n' > "$TMP/ue/collrun/doc.h"
printf 'void g(void) { cli_fail(EXIT_USAGE, "x"); }\n' | tee "$TMP/ue/view/flags.c" > "$TMP/ue/cmd/c.c"
check_fail usage-error-in-engine-found 1 "ue/collrun/eng.c:3: usage error below cmd/: cli_fail\(EXIT_USAGE" tools/usage_errors.sh "$TMP/ue"
rm "$TMP/ue/collrun/eng.c"
out=$(tools/usage_errors.sh "$TMP/ue" 2>&1) && ok usage-error-exception-passes || fail usage-error-exception-passes "$out"

# per-kind decisions stay in net/ (issue 48): outside it no code names a
# topology kind (it asks topo_has for a trait), and the firmware compares
# DEV_TOPO_KIND with firmware/lib/topo_kinds.h's names (tools/kind_tests.sh)
out=$(tools/kind_tests.sh 2>&1) && ok no-kind-tests-outside-net || fail no-kind-tests-outside-net "$(echo "$out" | head -2 | tr '\n' ' ')"
rm -rf "$TMP/kt"; mkdir -p "$TMP/kt" && cp -r sim_harness firmware "$TMP/kt/"
sed -i '0,/topo_has(t, TOPO_TRAIT_SPINES)/s//t->kind == TOPO_CLOS/' "$TMP/kt/sim_harness/traffic/traffic_nc.c"
check_fail kind-test-outside-net-found 1 "kt/sim_harness/traffic/traffic_nc.c:[0-9]+: a topology kind tested outside net/ .use topo_has.: .*TOPO_CLOS" tools/kind_tests.sh "$TMP/kt"
# the drift probe: the firmware naming the clos by its number again is caught
cp sim_harness/traffic/traffic_nc.c "$TMP/kt/sim_harness/traffic/traffic_nc.c"
sed -i 's/kind == XNOC_KIND_CLOS/kind == 4/' "$TMP/kt/firmware/lib/runtime.c"
check_fail kind-number-in-firmware-found 1 "kt/firmware/lib/runtime.c:[0-9]+: a topology kind compared with a bare number" tools/kind_tests.sh "$TMP/kt"
grep -q "TOPO_CLOS = XNOC_KIND_CLOS" sim_harness/net/topo.h && ok topo-kinds-one-header || fail topo-kinds-one-header "net/topo.h's topo_kind does not take firmware/lib/topo_kinds.h's numbers"

# C formatting is part of the structure: every C file as .clang-format says
# (make format-check names the ones that differ; `make format` fixes them)
if out=$(make -s format-check 2>&1); then ok format-clean
else fail format-clean "$(echo "$out" | head -3 | tr '\n' ' ')"; fi
