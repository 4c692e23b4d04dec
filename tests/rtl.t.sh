# rtl: one xnoc_router verilated alone (tests/rtl/router_tb.sv) under random
# traffic, its properties checked every cycle, and one coding unit
# (tests/rtl/ncu_tb.sv) under random ENCODE groups; each property shown to
# bite, by a mutation of a temporary copy of rtl/ (never rtl/ itself) or a
# fault of the stimulus. docs/testing.md, "The router testbench".
source tests/lib.sh
unit_bin TB router_tb || exit 0
unit_bin NCU ncu_tb || exit 0
unit_bin STB ncu_stream_tb || exit 0
unit_bin SCB ncu_scan_tb || exit 0
export XNOC_TB_RUNTIME=$UNIT_DIR/router_tb.obj   # the benches built here reuse its runtime objects

# tb NAME RC REGEX PROGRAM ARGS...: the bench exits RC and its output matches
# REGEX; with RC 1 the first failure it reports must match REGEX
tb() {
    local name=$1 want=$2 re=$3; shift 3
    "$@" >"$TMP/tb.log" 2>&1
    local rc=$? first
    first=$(grep -m1 '^FAIL ' "$TMP/tb.log")
    if [ "$rc" != "$want" ]; then fail "$name" "expected exit $want, got $rc: $(grep -m2 'FAIL \|router_tb' "$TMP/tb.log" | tr '\n' '|')"
    elif [ "$want" = 0 ] && [ -n "$first" ]; then fail "$name" "exit 0 but: $first"
    elif [ "$want" = 0 ] && ! grep -Eq -- "$re" "$TMP/tb.log"; then fail "$name" "'$(grep -m1 '^router_tb' "$TMP/tb.log")' does not match /$re/"
    elif [ "$want" != 0 ] && ! printf '%s\n' "$first" | grep -Eq -- "$re"; then fail "$name" "first failure '$first' does not match /$re/"
    else ok "$name"; fi
}

# The router as the mesh uses it without a coding unit (P=5, V=2, D=8): every
# packet arrives, checked flit by flit, and every credit comes home. The
# packet set is a function of the seed alone (lengths 1..6: 10,414 flits for
# seed 1). The arbiters reach their bounds and never pass them: an input
# waits 4 = P-1 cycles for an output, an eligible VC sees 1 = V-1 grant to its
# input's other VC before its own.
tb clean-seed1 0 '^router_tb: P=5 V=2 D=8 seed=1: 3000 packets \(10414 flits\) checked in [0-9]+ cycles; longest wait 4 cycles at an output, 1 grants to other VCs$' \
    $TB +seed=1
for s in 2 3 4 5; do
    tb clean-seed$s 0 "^router_tb: P=5 V=2 D=8 seed=$s: 3000 packets \([0-9]+ flits\) checked" $TB +seed=$s
done
tb clean-long 0 'seed=2: 20000 packets \(69302 flits\) checked in [0-9]+ cycles; longest wait 4 cycles at an output, 1 grants to other VCs$' \
    $TB +seed=2 +packets=2000

# other router parameters, built here: four VCs of two slots (credits run
# out every few flits), and one VC of one slot on three ports
if tests/rtl/build.sh router_tb rtl "$TMP/tb_v4d2" -GV=4 -GD=2 2>"$TMP/build.err"; then
    tb clean-v4-d2 0 'P=5 V=4 D=2 seed=1: 6000 packets \(20814 flits\) checked in [0-9]+ cycles; longest wait 4 cycles at an output, 3 grants' \
        "$TMP/tb_v4d2"
else fail clean-v4-d2 "build: $(head -3 "$TMP/build.err" | tr '\n' '|')"; fi
if tests/rtl/build.sh router_tb rtl "$TMP/tb_p3v1d1" -GP=3 -GV=1 -GD=1 2>"$TMP/build.err"; then
    tb clean-p3-v1-d1 0 'P=3 V=1 D=1 seed=1: 900 packets \(3148 flits\) checked' "$TMP/tb_p3v1d1"
else fail clean-p3-v1-d1 "build: $(head -3 "$TMP/build.err" | tr '\n' '|')"; fi

# Faults of the stimulus: a flit on VC 7 sets the router's error bits; a
# budget too short to deliver everything leaves packets undelivered
tb bites-NoRouterError 1 '^FAIL NoRouterError: cycle 35: ' $TB +fault=badvc
tb bites-Drained 1 '^FAIL Drained: cycle 323: input 0 VC 0: 27 of 300 packets arrived' $TB +max_cycles=300

# The coding unit: every group's result once, combined by its operator as
# the model has it (every operator in every seed: the per-operator counts of
# seed 1 are exact); a budget too short leaves results out
tb ncu-clean-seed1 0 '^ncu_tb: V=2 D=8 S=4 OPS=1 seed=1: 400 groups \(2817 result flits\) checked in [0-9]+ cycles; per operator xor/and/or/add32/add64/min32s/max32s/min32u/max32u/mul32 94/26/35/38/30/37/30/42/32/36$' $NCU +seed=1
for s in 2 3; do
    tb ncu-clean-seed$s 0 "^ncu_tb: V=2 D=8 S=4 OPS=1 seed=$s: 400 groups \([0-9]+ result flits\) checked in [0-9]+ cycles; per operator [a-z0-9/]+ ([1-9][0-9]*/){9}[1-9][0-9]*$" $NCU +seed=$s
done
tb bites-NcuDrained 1 '^FAIL NcuDrained: cycle [0-9]+: [0-9]+ of 400 groups' $NCU +max_cycles=300
# a group whose contributions name two operators is a conflict (error bit 3)
tb bites-NcuNoError-funcmix 1 '^FAIL NcuNoError: ' $NCU +fault=funcmix
# the unit built with XOR only (--router ncu_ops=xor: NcuOps = 0): XOR groups
# as before, and a head asking for another operator is malformed (error bit 0)
if tests/rtl/build.sh ncu_tb rtl "$TMP/ncu_xor" -GOPS=0 2>"$TMP/build.err"; then
    tb ncu-xor-only 0 '^ncu_tb: V=2 D=8 S=4 OPS=0 seed=1: 400 groups \([0-9]+ result flits\) checked in [0-9]+ cycles; per operator [a-z0-9/]+ 400(/0){9}$' "$TMP/ncu_xor"
    tb bites-NcuNoError-xor-only 1 '^FAIL NcuNoError: ' "$TMP/ncu_xor" +fault=func
    # the same head with every operator built: no error, the ADD32 result checked
    tb ncu-func-all 0 '^ncu_tb: V=2 D=8 S=4 OPS=1 seed=1: 400 groups' $NCU +fault=func
else fail ncu-xor-only "build: $(head -3 "$TMP/build.err" | tr '\n' '|')"; fi

# The streaming combiner (rtl/xnoc_ncu_stream.sv, --router stream=1): random
# groups of 1..5 member lanes, every operator, two groups under way per lane
# on its two VCs; every result checked (the per-operator counts of seed 1
# exact). At full rate it streams: no gap inside a result, and 300 groups
# (5625 result flits) leave in 6193 cycles, 1.9 cycles per group more than
# their flits. Faults: two result heads in one group, a COUNT that
# disagrees (conflicts, error bit 3), a budget too short.
tb stream-seed1 0 '^ncu_stream_tb: N=5 V=2 D=8 seed=1: 300 groups \(5625 result flits, 6997 flits combined\) checked in [0-9]+ cycles; per operator xor/and/or/add32/add64/min32s/max32s/min32u/max32u/mul32 77/27/20/22/29/26/33/27/16/23$' $STB +seed=1
for s in 2 3; do
    tb stream-seed$s 0 "^ncu_stream_tb: N=5 V=2 D=8 seed=$s: 300 groups \([0-9]+ result flits, [0-9]+ flits combined\) checked in [0-9]+ cycles; per operator [a-z0-9/]+ ([1-9][0-9]*/){9}[1-9][0-9]*$" $STB +seed=$s
done
tb stream-long 0 '^ncu_stream_tb: N=5 V=2 D=8 seed=4: 2000 groups \(37738 result flits, 48703 flits combined\) checked' $STB +seed=4 +groups=2000
tb stream-line-rate 0 '^ncu_stream_tb: N=5 V=2 D=8 seed=1: 300 groups \(5625 result flits, 6997 flits combined\) checked in 6193 cycles' $STB +full
tb bites-StreamNoError-conflict 1 '^FAIL StreamNoError: cycle [0-9]+: error bits 08 \(group tag 0' $STB +fault=conflict
tb bites-StreamNoError-count 1 '^FAIL StreamNoError: cycle [0-9]+: error bits 08 \(group tag 0' $STB +fault=count
tb bites-StreamDrained 1 '^FAIL StreamDrained: cycle 304: 11 of 300 groups' $STB +max_cycles=300
# lanes of one VC and of one flit, two lanes
if tests/rtl/build.sh ncu_stream_tb rtl "$TMP/stb_small" -GN=2 -GV=1 -GD=1 2>"$TMP/build.err"; then
    tb stream-n2-v1-d1 0 '^ncu_stream_tb: N=2 V=1 D=1 seed=1: 300 groups' "$TMP/stb_small"
else fail stream-n2-v1-d1 "build: $(head -3 "$TMP/build.err" | tr '\n' '|')"; fi

# The streaming combiner as a unit of the in-network scan's chain
# (tests/rtl/ncu_scan_tb.sv): the previous unit's prefix on lane 0, two
# terminals on lanes 3 and 4, 200 chunks of every operator: the prefix sent on
# and both terminals' results checked word by word, inclusive and exclusive,
# as the chain's first unit (no prefix; exclusive: terminal 0 gets the
# identity), a middle one and its last (no prefix sent on).  Chunk 0's
# terminal stating a COUNT its group does not have: error bit 3.
tb scan-seed1 0 '^ncu_scan_tb: N=5 C=2 V=3 D=8 seed=1: 200 chunks \(600 packets, 10713 flits\) checked in [0-9]+ cycles$' $SCB
tb scan-exclusive 0 '^ncu_scan_tb: N=5 C=2 V=3 D=8 seed=1 exclusive: 200 chunks \(600 packets' $SCB +excl
tb scan-first 0 '^ncu_scan_tb: N=5 C=2 V=3 D=8 seed=1 first: 200 chunks \(600 packets' $SCB +first
tb scan-first-excl 0 '^ncu_scan_tb: N=5 C=2 V=3 D=8 seed=1 first exclusive: 200 chunks \(600 packets' $SCB +first +excl
tb scan-last 0 '^ncu_scan_tb: N=5 C=2 V=3 D=8 seed=1 last: 200 chunks \(400 packets, 7142 flits\)' $SCB +last
tb scan-last-excl 0 '^ncu_scan_tb: N=5 C=2 V=3 D=8 seed=1 last exclusive: 200 chunks \(400 packets' $SCB +last +excl
tb scan-seed2 0 '^ncu_scan_tb: N=5 C=2 V=3 D=8 seed=2 exclusive: 200 chunks \(600 packets, [0-9]+ flits\)' $SCB +seed=2 +excl
tb bites-ScanNoError-count 1 '^FAIL ScanNoError: cycle [0-9]+: error bits 08 \(tag 0' $SCB +fault=count
# one terminal (a mesh's unit: V=2)
if tests/rtl/build.sh ncu_scan_tb rtl "$TMP/scb_small" -GC=1 -GV=2 2>"$TMP/build.err"; then
    tb scan-c1-v2 0 '^ncu_scan_tb: N=5 C=1 V=2 D=8 seed=1 exclusive: 200 chunks \(400 packets' "$TMP/scb_small" +excl
else fail scan-c1-v2 "build: $(head -3 "$TMP/build.err" | tr '\n' '|')"; fi

# One mutation per property, in a copy of rtl/; the mutated bench must fail,
# first with the property's name (the pristine bench passed above).
# mutate BENCH NAME PROPERTY FILE SED [ARGS]: copy rtl/, apply SED to FILE, build, run with ARGS
mutate() {
    local bench=$1 name=$2 prop=$3 file=$4 sed=$5 args=${6:-} dir="$TMP/rtl-$2"
    cp -r rtl "$dir"
    sed -i "$sed" "$dir/$file"
    if cmp -s "rtl/$file" "$dir/$file"; then
        fail "bites-$prop-$name" "the mutation no longer applies to rtl/$file: update '$sed'"
    elif ! tests/rtl/build.sh "$bench" "$dir" "$TMP/tb-$name" 2>"$TMP/build.err"; then
        fail "bites-$prop-$name" "build: $(head -3 "$TMP/build.err" | tr '\n' '|')"
    else
        # shellcheck disable=SC2086 # ARGS: words
        tb "bites-$prop-$name" 1 "^FAIL $prop: " "$TMP/tb-$name" $args
    fi
    rm -rf "$dir" "$TMP/tb-$name" "$TMP/tb-$name.obj"
}
# a returned credit counted twice
mutate router_tb credit-twice CreditConservation xnoc_router.sv \
    "s/= credit_t\[og\*CW +: CW\] + CW'(1);/= credit_t[og*CW +: CW] + CW'(2);/"
# an arbiter that grants a group with no request (index 0)
mutate router_tb grant-idle NoGrantWithoutRequest xnoc_rr_arb_bank.sv "s/if (req != '0) begin/if (1'b1) begin/"
# an arbiter that never rotates: fixed priority, the lowest index first
mutate router_tb no-rotate GrantBound xnoc_rr_arb_bank.sv "s/else         mask_q <= mask_n;/else         mask_q <= mask_q;/"
# a buffer read pointer that never moves: the front flit is sent again
mutate router_tb read-stuck InOrderNoDup xnoc_vc_buffers.sv "s/: rd_q\[g\*DI +: DI\] + DI'(1);/: rd_q[g*DI +: DI];/"
# route computation that never routes input 0's heads: they wait forever
mutate router_tb rc-skips Drained xnoc_router.sv "s/if (todo\[g\]) begin/if (todo[g] \&\& g >= V) begin/"
# a next value announced for a tile that its register does not take: the VC of a returned credit
mutate router_tb next-credit-vc NextValues xnoc_router.sv \
    "s/for (int i = 0; i < P; i++) in_credit_vc_d_o\[i\*VB +: VB\] = VB'(in_vc\[i\*VI +: VI\]);/for (int i = 0; i < P; i++) in_credit_vc_d_o[i*VB +: VB] = '0;/"
# the coding unit: a later contribution overwrites the slot instead of XORing
mutate ncu_tb xor-overwrites NcuResult xnoc_ncu_alu.sv "s/^      y_o = a_i ^ b_i;/      y_o = b_i;/"
# one mutation per operator family: bitwise (AND computed as OR), add (the
# 64-bit add split into two 32-bit lanes: the carry between them lost; the
# 32-bit lanes added as one 64-bit word: a carry leaks between them),
# min/max (the signed compare made unsigned; max computed as min)
mutate ncu_tb and-is-or NcuResult xnoc_ncu_alu.sv "s/xnoc_pkg::NcFuncAnd:   y_o = a_i \& b_i;/xnoc_pkg::NcFuncAnd:   y_o = a_i | b_i;/"
mutate ncu_tb add64-no-carry NcuResult xnoc_ncu_alu.sv \
    "s/xnoc_pkg::NcFuncAdd64: y_o = a_i + b_i;/xnoc_pkg::NcFuncAdd64: y_o = {a_i[63:32] + b_i[63:32], a_i[31:0] + b_i[31:0]};/"
mutate ncu_tb add32-carries NcuResult xnoc_ncu_alu.sv "s/xnoc_pkg::NcFuncAdd32: y_o = {.*};/xnoc_pkg::NcFuncAdd32: y_o = a_i + b_i;/"
mutate ncu_tb min-unsigned NcuResult xnoc_ncu_alu.sv "s/lt = {a\[31\] ^ sg, a\[30:0\]} < {b\[31\] ^ sg, b\[30:0\]};/lt = a < b;/"
mutate ncu_tb max-is-min NcuResult xnoc_ncu_alu.sv "s/= (lt ^ mx) ? a : b;/= lt ? a : b;/"
# the unit announces an open clock gate as shut: a tile would skip a falling edge it needs
mutate ncu_tb gate-next NcuGateNext xnoc_ncu.sv "s/assign clk_en_d_o = gate_en;/assign clk_en_d_o = 1'b0;/"
# the coding unit returns every input credit on VC 0
mutate ncu_tb credit-vc0 NcuCredits xnoc_ncu_absorb.sv "s/assign in_credit_vc_o = VB'(icr_vc_q);/assign in_credit_vc_o = '0;/"
# the streaming combiner: a member's data left out of the result (only the
# first member's flit counts); the result's EJSEL one lane off; every input
# credit returned on VC 0; a data flit only every other cycle (the combiner
# below the links' rate)
mutate ncu_stream_tb first-only StreamResult xnoc_ncu_stream.sv "s/assign acc\[l\*PW +: PW\] = !mem_q\[l\] ? prev : hprev ? y : mfront\[l\*PW +: PW\];/assign acc[l*PW +: PW] = !mem_q[l] ? prev : hprev ? prev : mfront[l*PW +: PW];/"
mutate ncu_stream_tb ejsel-off StreamResult xnoc_ncu_stream.sv "s/HeadEjselW'(32'(lk_port_i) + 1)/HeadEjselW'(32'(lk_port_i) + 2)/"
mutate ncu_stream_tb credit-vc0 StreamCredits xnoc_ncu_stream.sv "s/if (pop\[l\*V + v\]) icr_vc_q\[l\*VB +: VB\] <= VB'(v);/if (pop[l*V + v]) icr_vc_q[l*VB +: VB] <= '0;/"
mutate ncu_stream_tb half-rate StreamLineRate xnoc_ncu_stream.sv "s/if ((cr_avail || disc_q) \&\& mready == '1) begin/if ((cr_avail || disc_q) \&\& mready == '1 \&\& n_q[0] == ovalid_q) begin/" +full
# the scan's unit: an exclusive result that includes the terminal's own data;
# terminal 0's result on the prefix's VC (two packets on one VC: one would
# wait behind the other in the router); every output flit's credit taken from
# VC 0's counter; no terminal's result sent (the chain never drains to them)
mutate ncu_scan_tb excl-is-incl ScanResult xnoc_ncu_stream.sv "s/: hprev ? prev : ident;/: hprev ? acc[l*PW +: PW] : ident;/" +excl
mutate ncu_scan_tb shared-vc ScanVcs xnoc_ncu_stream.sv "s/if (cur_q != '0) pvc = pvc + VB'(1);/pvc = pvc;/"
mutate ncu_scan_tb credit-vc0 ScanCredits xnoc_ncu_stream.sv "s/.spend_i     (send \&\& 32'(ovc) == v),/.spend_i     (send \&\& v == 0),/"
mutate ncu_scan_tb no-results ScanDrained xnoc_ncu_stream.sv "s/tm_d   = match_t;/tm_d   = '0;/" +groups=20
