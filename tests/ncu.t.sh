# ncu: the routers' network-coding units in RTL (rtl/xnoc_ncu.sv) - the
# zero-load latency model through a unit, exactly; coding groups and
# multicasts under random background traffic for 10^5 cycles with every
# delivery byte-exact and nothing left over; the units' own error reports;
# bad options; lint and synthesis.
source tests/lib.sh

# ---- zero-load: one single-contribution group at a time, from every
# terminal through every router's unit to another terminal; the latency is
# 3*(H1+H2) + 2*F + xorlat + 3 exactly (docs/network-coding.md)
for cfg in "mesh:3x2 xorlat=1 3" "mesh:3x2 xorlat=35 1" "octagon xorlat=1 2" "fat-octagon xorlat=1 8" "torus:4x4 xorlat=1 1"; do
    set -- $cfg
    j=$($XNOC traffic --topo $1 --router $2 --pattern unitpairs --packet $3 --json 2>"$TMP/e")
    nt=$(printf '%s' "$j" | jq '.terminals|length' 2>/dev/null || echo 0)
    nr=$($XNOC topo --topo $1 --json 2>/dev/null | jq '.routers' 2>/dev/null || echo 0)
    jcheck "unitpairs-exact-$1-$2-L$3" "$j" ".errors==0 and .pairs==($nt*$nr) and .pairs>0 and .zero_load_max_deviation==0 and .coded_packets==.pairs"
done

j=$($XNOC traffic --topo mesh:3x2 --router xorlat=35 --pattern unitpairs --packet 1 --json 2>/dev/null)
jcheck unitpairs-json-fields "$j" '.pattern=="unitpairs" and .router.xorlat==35 and .router.ncu==1 and (.units|length)==6 and ([.units[].coded]|add)==36'

# ---- stress: coding groups + multicasts + background, 10^5 cycles
stress() {   # name topo router extra-args...
    local name=$1 topo=$2 router=$3; shift 3
    local j
    j=$($XNOC traffic --topo "$topo" --router "$router" --pattern uniform --rate 0.1 --packet 4 --coding 0.05 "$@" --json 2>"$TMP/e")
    jcheck "stress-$name" "$j" '.errors==0 and .saturated==false and .coding.pending==0
        and ([.coding.multicast, .coding.coded, .coding["coded+multicast"]] | all(.started == .completed and .completed > 0))
        and .coded_packets == (.coding.coded.completed + .coding["coded+multicast"].completed)
        and .xor_ops > 0 and .mc_copies >= .coding.multicast.completed
        and ([.units[].slot_max]|max) <= .router.slots and ([.units[].slots_in_use]|add) == 0
        and .delivered_packets == .injected_packets'
}
stress fat-octagon-1e5 fat-octagon slots=4 --cycles 100000 --warmup 1000
stress torus4x4-1e5 torus:4x4 slots=4 --cycles 100000 --warmup 1000 --seed 3
stress mesh3x2-slots1 mesh:3x2 slots=1 --cycles 20000 --seed 5
stress mesh3x2-xorlat35 mesh:3x2 xorlat=35 --cycles 20000 --seed 9
# multicast lanes (docs/router.md): three links each way between unit and router, three absorbers
# owning slots s % 3, copies launched on free lanes; coding groups still merge on lane 0
stress mesh3x2-lanes3 mesh:3x2 lanes=3 --cycles 20000 --seed 5
# the units' clock gate: with no traffic for the units their clocks stop after
# reset and configuration (the same count however long the run); with coding
# traffic they run while they work, and only then
ja=$($XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.1 --cycles 2000 --warmup 100 --json 2>/dev/null)
jb=$($XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.1 --cycles 6000 --warmup 100 --json 2>/dev/null)
ca=$(echo "$ja" | jq -c '[.units[].clocked_cycles]'); cb=$(echo "$jb" | jq -c '[.units[].clocked_cycles]')
[ "$ca" = "$cb" ] && echo "$ca" | jq -e 'length==6 and all(. > 0 and . < 200)' >/dev/null \
    && ok unit-clock-gated-when-idle || fail unit-clock-gated-when-idle "clocked cycles $ca after 2000 cycles, $cb after 6000"
jc=$($XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.1 --coding 0.05 --cycles 6000 --warmup 100 --json 2>/dev/null)
idle_sum=$(echo "$ca" | jq 'add // 0')
jcheck unit-clock-runs-while-working "$jc" "(.coded_packets > 0) and (([.units[].clocked_cycles]|add) > $idle_sum + 100)
    and (.cycles as \$c | all(.units[]; .clocked_cycles < \$c))
    and (.router.slots as \$s | all(.units[]; .slot_busy_cycles <= \$s * .clocked_cycles))"
# the same with the RTL's named assertions compiled in (router and unit)
j=$(XNOC_RTL_ASSERT=1 $XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.1 --coding 0.05 --cycles 20000 --json 2>/dev/null)
jcheck stress-assertions "$j" '.errors==0 and .error_kinds.rtl_invariant==false and .coding.pending==0 and .coded_packets>0 and .mc_copies>0'
j=$($XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.05 --coding 0.05 --cycles 5000 --json 2>/dev/null)
j2=$($XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.05 --coding 0.05 --cycles 5000 --json 2>/dev/null)
if [ -n "$j" ] && [ "$j" = "$j2" ]; then ok stress-deterministic; else fail stress-deterministic "two runs with the same seed differ"; fi
$XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.05 --coding 0.05 --cycles 3000 >"$TMP/h" 2>&1
if grep -q '^coding groups: [0-9]* multicast, [0-9]* coded, [0-9]* coded+multicast completed (0 pending); [0-9]* deliveries byte-exact' "$TMP/h" &&
   grep -q '^  unit 6    (router 0): ' "$TMP/h"; then ok stress-human-report; else fail stress-human-report "$(grep -i coding "$TMP/h" | head -2)"; fi
j=$($XNOC_ASAN traffic --topo mesh:3x2 --pattern uniform --rate 0.1 --coding 0.05 --cycles 3000 --json 2>/dev/null)
jcheck stress-asan "$j" '.errors==0 and .coding.pending==0 and .coded_packets>0'
# without units the report has no unit counters
j=$($XNOC traffic --topo mesh:2x2 --router ncu=0 --pattern uniform --cycles 1000 --json 2>/dev/null)
jcheck ncu0-no-unit-fields "$j" '.errors==0 and .router.ncu==0 and (has("units")|not) and (has("xor_ops")|not)'

# ---- what the units report (firmware: tests the harness's one-line errors)
FW=build/firmware/nc-unit-fault.elf
j=$($XNOC run --json --topo mesh:2x2 --arg case=0 $FW 2>/dev/null)
jcheck unit-good-group "$j" '.ok==true and .coded_packets==1 and .xor_ops==8 and .units[0].contributions==2 and .units[0].slots_in_use==0'
check_fail unit-incomplete 1 "^xnoc run: cycle [0-9]+: coding unit of router 0 \(address 4\): coding group incomplete at the time-out \(--router timeout\); slot 0, tag 0x0077, 2 of 3 contributions \(error bits 0x10\)$" \
    $XNOC run --topo mesh:2x2 --router timeout=1000 --arg case=1 $FW
check_fail unit-lengths 1 "coding unit of router 0 \(address 4\): contributions of different lengths in one coding group; slot 0, tag 0x0077, 1 of 2" \
    $XNOC run --topo mesh:2x2 --router timeout=1000 --arg case=2 $FW
check_fail unit-counts 1 "conflicting count or out_\* fields in one coding group; slot 0, tag 0x0077" \
    $XNOC run --topo mesh:2x2 --router timeout=1000 --arg case=3 $FW
check_fail unit-destinations 1 "conflicting count or out_\* fields in one coding group; slot 0, tag 0x0077" \
    $XNOC run --topo mesh:2x2 --router timeout=1000 --arg case=4 $FW
check_fail unit-nowhere 1 "a result with nowhere to go \(no out_dest" \
    $XNOC run --topo mesh:2x2 --router timeout=1000 --arg case=5 $FW
j=$($XNOC run --json --topo mesh:2x2 --router timeout=1000 --arg case=1 $FW 2>/dev/null)
jcheck unit-error-json "$j" '.ok==false and (.error|test("incomplete at the time-out")) and .units[0].slots_in_use==1'

# ---- bad options
check_fail bad-slots 2 "slots=0 is out of range 1..16" $XNOC traffic --topo mesh:2x2 --router slots=0 --pattern uniform
check_fail bad-slots-17 2 "slots=17 is out of range 1..16" $XNOC traffic --topo mesh:2x2 --router slots=17 --pattern uniform
check_fail bad-xorlat 2 "xorlat=0 is out of range 1..64" $XNOC traffic --topo mesh:2x2 --router xorlat=0 --pattern uniform
check_fail bad-xorlat-65 2 "xorlat=65 is out of range 1..64" $XNOC traffic --topo mesh:2x2 --router xorlat=65 --pattern uniform
check_fail bad-ncu 2 "ncu=2 is out of range 0..1" $XNOC traffic --topo mesh:2x2 --router ncu=2 --pattern uniform
check_fail bad-ncmax 2 "ncmax=0 is out of range 1..256 \(flits\)" $XNOC traffic --topo mesh:2x2 --router ncmax=0 --pattern uniform
check_fail bad-timeout 2 "timeout=5 is out of range 100..1000000 \(cycles\)" $XNOC traffic --topo mesh:2x2 --router timeout=5 --pattern uniform
check_fail coding-needs-units 2 "^xnoc traffic: --coding needs routers with coding units \(not --router ncu=0\)$" \
    $XNOC traffic --topo mesh:2x2 --router ncu=0 --pattern uniform --coding 0.1
check_fail unitpairs-needs-units 2 "unitpairs needs routers with coding units" $XNOC traffic --topo mesh:2x2 --router ncu=0 --pattern unitpairs
check_fail unitpairs-too-long 2 "--packet 9 exceeds the units' 8 data flits \(--router ncmax\)" \
    $XNOC traffic --topo mesh:2x2 --router ncmax=8 --pattern unitpairs --packet 9
check_fail coding-with-allpairs 2 "--coding does not combine with --pattern allpairs" $XNOC traffic --topo mesh:2x2 --pattern allpairs --coding 0.1
check_fail coding-zero 2 "--coding: 0 is out of range" $XNOC traffic --topo mesh:2x2 --pattern uniform --coding 0
# the unit's port is one more router port: past 32 the network is refused (4095 addresses hold any topology)
check_fail too-many-ports-with-unit 2 "mesh:2x2:c=7 with coding units needs 32 addresses and 33 router ports \(limits 4095 and 32\): use --router ncu=0" \
    $XNOC traffic --topo mesh:2x2:c=7 --ports 4 --pattern uniform

# ---- RTL hygiene: lint clean, and the unit synthesizes (a small configuration)
if out=$(bash tools/lint.sh 2>&1) && echo "$out" | grep -q "lint ok   xnoc_ncu"; then ok lint-clean
else fail lint-clean "$(echo "$out" | grep -A3 FAIL | head -4)"; fi
# (NumLanes 2: the multicast-lanes unit, xnoc_ncu_emit with two lanes; 3s:
# three lanes with the streaming combiner on lanes 1 and 2, --router stream=1)
for L in 1 2 3s; do
if command -v yosys >/dev/null; then
    cat >"$TMP/s.ys" <<YS
read_verilog -sv rtl/xnoc_pkg.sv rtl/xnoc_fifo.sv rtl/xnoc_rr_arb.sv rtl/xnoc_credit_counter.sv rtl/xnoc_clock_gate.sv rtl/xnoc_ncu_alu.sv rtl/xnoc_ncu_absorb.sv rtl/xnoc_ncu_slots.sv rtl/xnoc_ncu_emit.sv rtl/xnoc_ncu_stream.sv rtl/xnoc_ncu.sv
chparam -set NumPorts 5 -set NumVcs 2 -set BufDepth 2 -set NumAddrs 8 -set NumTerms 4 -set NumSlots 2 -set MaxFlits 2 -set XorLat 3 -set NumLanes ${L%s}$( [ "$L" = 3s ] && echo " -set Stream 1") xnoc_ncu
synth -top xnoc_ncu
stat
YS
    if yosys -q -l "$TMP/ys.log" "$TMP/s.ys" >/dev/null 2>&1 && cells=$(grep "Number of cells:" "$TMP/ys.log" | tail -1 | awk '{print $4}') && [ "${cells:-0}" -gt 500 ]; then
        ok "ncu-synthesizes-lanes$L ($cells cells)"
    else fail ncu-synthesizes-lanes$L "$(tail -3 "$TMP/ys.log" 2>/dev/null)"; fi
else fail ncu-synthesizes-lanes$L "yosys is missing (make deps)"; fi
done
