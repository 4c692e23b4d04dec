# traffic: the `xnoc traffic` command itself - report schema, options,
# determinism, and one-line errors for bad input
source tests/lib.sh

j=$($XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.3 --packet 2 --cycles 3000 --warmup 500 --seed 7 --json 2>"$TMP/e")
jcheck json-fields "$j" '[ "topology","cycles","offered","throughput","avg_latency","p99_latency","max_latency","avg_hops","injected_packets","delivered_packets","errors","saturated","links","terminals" ] - keys == []'
jcheck json-values "$j" '.topology=="mesh:2x2" and .offered==0.3 and .errors==0 and .saturated==false and .avg_latency >= .avg_hops*3 and .p99_latency <= .max_latency and .avg_latency <= .max_latency'
# one entry per directed channel: 8 links + 4 injection + 4 ejection
jcheck json-links "$j" '(.links|length)==16 and ([.links[]|select(.kind=="link")]|length)==8 and ([.links[]|select(.kind=="link")|has("from","to","src_router","src_port","dst_router","dst_port","flits","utilization")]|all) and ([.links[].utilization]|max) <= 1'
j2=$($XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.3 --packet 2 --cycles 3000 --warmup 500 --seed 7 --json 2>/dev/null)
if [ "$j" = "$j2" ]; then ok same-seed-same-run; else fail same-seed-same-run "two runs with --seed 7 differ"; fi
j3=$($XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.3 --packet 2 --cycles 3000 --warmup 500 --seed 8 --json 2>/dev/null)
if [ "$j" != "$j3" ]; then ok other-seed-other-run; else fail other-seed-other-run "--seed 8 gave the run of --seed 7"; fi
j=$($XNOC traffic --topo mesh:2x2 --pattern uniform --sources 0,3 --rate 0.2 --cycles 2000 --json 2>/dev/null)
jcheck sources-only-these "$j" '[.links[]|select(.kind=="inject")|.flits>0] == [true,false,false,true] and .errors==0'
$XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.2 --cycles 2000 >"$TMP/human" 2>&1
if grep -q '^  offered 0.200, accepted 0.2[0-9]* flits/terminal/cycle' "$TMP/human" && grep -q '^link utilization' "$TMP/human" && grep -q 'errors 0' "$TMP/human"; then
    ok human-report; else fail human-report "$(head -3 "$TMP/human")"; fi
# the text report is written from the JSON report (util/report.h): the same figures, coding runs too
for args in "--topo mesh:2x2 --rate 0.3 --packet 2 --cycles 3000 --seed 7" "--topo mesh:3x2 --rate 0.1 --coding 0.05 --cycles 3000 --seed 3"; do
    jt=$($XNOC traffic $args --json 2>/dev/null); ht=$($XNOC traffic $args 2>/dev/null)
    want=$(printf '%s' "$jt" | jq -r '"  offered \(.offered*1000|round/1000), accepted .* flits/terminal/cycle",
        "  packets: \(.created_packets) created, \(.delivered_packets) delivered, \(.measured_packets) measured; cycles \(.cycles); errors \(.errors)"')
    acc4=$(printf '%s\n' "$ht" | sed -n 's/.*accepted \([0-9.]*\) flits.*/\1/p')
    if printf '%s\n' "$ht" | grep -qxF "$(echo "$want" | sed -n 2p)" &&
        printf '%s' "$jt" | jq -e --arg a "$acc4" '(.throughput - ($a|tonumber)) | fabs <= 0.00005001' >/dev/null; then
        ok "text-from-json-$(echo $args | cut -d' ' -f2)"
    else fail "text-from-json-$(echo $args | cut -d' ' -f2)" "text: $(printf '%s' "$ht" | sed -n 2,4p | tr '\n' '|') json: $want $acc4"; fi
done
# multicast:F statistics against a hand count (docs/traffic.md, "Multicasts and coding groups").
# Terminal 0 of mesh:2x2 multicasts to the 3 others, about once in 100 cycles (--rate 0.01 of
# one source in 4: offered 0.0025 multicasts/terminal/cycle); ncmax=1 keeps every payload to
# 1-8 bytes, one data flit. Unit 0 copies to terminal 2 (head, meta, data: 3 flits on r0->r2)
# and sends one MC packet (head, meta, mask, data: 4 flits on r0->r1) to unit 1, which copies
# to terminals 1 and 3 (3 flits on r1->r3). So with A multicasts accepted: 3A deliveries, 9A
# copy flits, links 4A/3A/3A, accepted A/(2000 cycles x 4 terminals). Each takes the zero-load
# 38 cycles but one (40), none waits at its source.
mc="--topo mesh:2x2 --pattern multicast:3 --sources 0 --router ncmax=1 --rate 0.01 --cycles 2000 --warmup 0"
j=$($XNOC traffic $mc --json --histogram "$TMP/mc.csv" 2>"$TMP/e")
jcheck mc-hand-count "$j" '.rate_unit=="multicasts" and .offered==0.0025 and .offered_multicasts==17 and .accepted_multicasts==17 and .measured_multicasts==17 and .coding.multicast.completed==17 and .coding.deliveries==51 and .throughput==17/8000 and .accepted_copy_flits==9*17/8000 and .saturated==false and .errors==0'
jcheck mc-hand-links "$j" '[.links[]|select(.kind=="link" and .flits>0)|[.src_router,.dst_router,.flits]]==[[0,1,68],[0,2,51],[1,3,51]]'
jcheck mc-hand-latency "$j" '.min_latency==38 and .max_latency==40 and .avg_latency==(16*38+40)/17 and .p50_latency==38 and .avg_queueing_latency==0 and .avg_network_latency==.avg_latency'
check mc-histogram diff <(printf 'bin,count,network,queueing\n0,0,0,17\n38,16,16,0\n40,1,1,0\n') "$TMP/mc.csv"
$XNOC traffic $mc >"$TMP/mc.txt" 2>&1
check mc-text-agrees grep -qxF '  offered 0.0025, accepted 0.0021 multicasts/terminal/cycle' "$TMP/mc.txt"
check mc-text-latency grep -qxF '  latency   min 38  avg 38.12  p50 38  p99 40  max 40  (creation to the last copy'"'"'s tail)' "$TMP/mc.txt"
check mc-text-counts grep -qF 'multicasts in the window: 17 offered, 17 accepted, 17 measured; cycles 2000; errors 0' "$TMP/mc.txt"
# saturation judged on the same multicasts: one source asked for one a cycle queues them
j=$($XNOC traffic --topo mesh:2x2 --pattern multicast:3 --sources 0 --rate 1 --cycles 500 --warmup 0 --drain 2000 --json 2>"$TMP/e")
jcheck mc-saturated "$j" '.saturated==true and .offered==0.25 and .throughput < .offered/2 and .accepted_multicasts < .offered_multicasts and .avg_queueing_latency > .avg_network_latency and .errors==0'
check traffic-help $XNOC traffic --help
if $XNOC traffic --help | grep -q -- '--pattern P'; then ok help-names-options; else fail help-names-options "no --pattern in --help"; fi

# Bad input: one line, exit 2, before anything is built
check_fail bad-topo 2 "unknown topology 'ring'" $XNOC traffic --topo ring:4 --pattern uniform
check_fail bad-size 2 "each side must be" $XNOC traffic --topo mesh:0x2 --pattern uniform
check_fail bad-router-key 2 "unknown parameter 'depth'" $XNOC traffic --topo mesh:2x2 --router depth=4 --pattern uniform
check_fail bad-router-vcs 2 "vcs=9 is out of range" $XNOC traffic --topo mesh:2x2 --router vcs=9 --pattern uniform
check_fail bad-router-buf 2 "buf=0 is out of range" $XNOC traffic --topo mesh:2x2 --router buf=0 --pattern uniform
# pw= was a parameter whose only value was 64: any pw= now says so (64 too)
check_fail bad-router-pw 2 "^xnoc traffic: --router: pw=32: the payload width is not a parameter \(every flit carries 64 bits\)$" $XNOC traffic --topo mesh:2x2 --router pw=32 --pattern uniform
check_fail bad-router-pw64 2 "pw=64: the payload width is not a parameter" $XNOC traffic --topo mesh:2x2 --router vcs=2,pw=64 --pattern uniform
check_fail bad-router-syntax 2 "expected key=value" $XNOC traffic --topo mesh:2x2 --router vcs --pattern uniform
check_fail torus-needs-2vcs 2 "needs at least 2 VCs" $XNOC traffic --topo torus:3x3 --router vcs=1 --pattern uniform
check_fail bad-pattern 2 "unknown pattern 'zigzag'" $XNOC traffic --topo mesh:2x2 --pattern zigzag
check_fail bad-rate 2 "--rate: 1.5 is out of range" $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 1.5
check_fail bad-rate-zero 2 "--rate: 0 is out of range" $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0
check_fail bad-rate-text 2 "--rate: 'fast' is not a number" $XNOC traffic --topo mesh:2x2 --pattern uniform --rate fast
check_fail bad-packet 2 "--packet" $XNOC traffic --topo mesh:2x2 --pattern uniform --packet 0
check_fail bad-ports 2 "--ports" $XNOC traffic --topo mesh:2x2 --pattern uniform --ports 17
check_fail bad-transpose 2 "transpose needs a square" $XNOC traffic --topo mesh:3x2 --pattern transpose
check_fail bad-bitcomp 2 "bitcomp needs a power-of-two" $XNOC traffic --topo mesh:3x1 --pattern bitcomp
check_fail bad-sources 2 "--sources: terminal set '9': terminal 9 does not exist \(terminals 0-3\)" $XNOC traffic --topo mesh:2x2 --pattern uniform --sources 9
check_fail bad-flag 2 "unknown option '--frobnicate'" $XNOC traffic --topo mesh:2x2 --pattern uniform --frobnicate 1
check_fail missing-value 2 "option '--rate' needs a value" $XNOC traffic --topo mesh:2x2 --pattern uniform --rate
check_fail missing-topo 2 "--topo is required" $XNOC traffic --pattern uniform
jcheck default-pattern "$($XNOC traffic --json --topo mesh:2x2 --cycles 500 --warmup 100)" '.pattern=="uniform" and .errors==0'
check_fail bad-pattern 2 "unknown pattern 'unifrom'" $XNOC traffic --topo mesh:2x2 --pattern unifrom
check_fail bad-window 2 "--trace-window" $XNOC traffic --topo mesh:2x2 --pattern uniform --trace-window 5:1
check_fail window-without-trace 2 "--trace-window" $XNOC traffic --topo mesh:2x2 --pattern uniform --trace-window 1:5
# a model verilated with threads (--router threads=2) computes exactly what the single-threaded one does
j1=$($XNOC traffic --json --topo mesh:2x2 --router ncu=0 --rate 0.3 --cycles 2000 2>/dev/null | jq -c 'del(.router)')
j2=$($XNOC traffic --json --topo mesh:2x2 --router ncu=0,threads=2 --rate 0.3 --cycles 2000 2>/dev/null | jq -c 'del(.router)')
[ -n "$j1" ] && [ "$j1" = "$j2" ] && ok threads-same-result || fail threads-same-result "threads=2 differs: $(diff <(echo "$j1") <(echo "$j2") | head -c 300)"
check_fail threads-range 2 "threads=17 is out of range 1..16" $XNOC traffic --topo mesh:2x2 --router threads=17
# saturated coding traffic reports the truth: with background backlogs only at
# terminals 0 and 1, a group's contributions from 2 and 3 reach the unit at
# once and those from 0, 1 would wait behind their backlog, past the unit's
# time-out (1000 cycles) - an RTL time-out error before coding packets went
# ahead of the background queue.  Now: saturated, every group complete, no
# coding packet waited at its source for anything like the time-out, and
# groups that found no free slot are counted as dropped.
j=$($XNOC traffic --topo mesh:2x2 --router timeout=1000 --coding 0.05 --rate 1 --cycles 10000 --sources 0,1 --json 2>"$TMP/e"); rc=$?
jcheck saturated-coding-truthful "$j" "$rc == 0 and .errors==0 and .saturated==true and .error_kinds.rtl_invariant==false
    and .coding.pending==0 and ([.coding.multicast, .coding.coded, .coding[\"coded+multicast\"]] | all(.started == .completed and .completed > 0))
    and .coding.max_source_wait < 500 and .coding.dropped > 0 and ([.units[].slots_in_use]|add) == 0
    and .max_latency > 5000"

# ---- statistics (docs/traffic.md): latency split, injection rate, hops, stalls, occupancy, histogram
j=$($XNOC traffic --topo mesh:4x4 --rate 0.3 --packet 2 --cycles 3000 --warmup 500 --json --histogram "$TMP/h.csv" 2>/dev/null)
jcheck stats-keys "$j" '[ "min_latency","p50_latency","avg_latency","p99_latency","max_latency",
    "min_network_latency","avg_network_latency","p50_network_latency","p99_network_latency","max_network_latency",
    "min_queueing_latency","avg_queueing_latency","p50_queueing_latency","p99_queueing_latency","max_queueing_latency",
    "injection_rate","min_hops","max_hops","hops_histogram","link_stalls","max_link_stalls",
    "avg_vc_occupancy","max_link_occupancy","occupancy_samples","occupancy_every","link_vc_occupancy" ] - keys == []'
jcheck stats-order "$j" '.errors==0 and ([("","network_","queueing_") as $k | .["min_\($k)latency"] <= .["p50_\($k)latency"] and .["p50_\($k)latency"] <= .["p99_\($k)latency"] and .["p99_\($k)latency"] <= .["max_\($k)latency"]] | all)'
# total = queueing + network, packet by packet, so the means add up
jcheck stats-split-adds "$j" '(.avg_latency - .avg_network_latency - .avg_queueing_latency | fabs) < 1e-9 and .min_network_latency == 8 and .min_queueing_latency == 0'
jcheck stats-injection-rate "$j" '(.injection_rate - .offered | fabs) < 0.02 and (.injection_rate - .throughput | fabs) < 0.02'
jcheck stats-hops "$j" '(.hops_histogram|add) == .measured_packets and .hops_histogram[0] == 0 and .min_hops == 1 and .max_hops == 6 and (.hops_histogram|length) == 7'
jcheck stats-stalls "$j" '.link_stalls == ([.links[]|select(.kind=="link")|.stalls]|add) and .max_link_stalls == ([.links[]|select(.kind=="link")|.stalls]|max) and .link_stalls > 0 and ([.links[]|select(.kind!="inject")|has("stalls")]|all)'
jcheck stats-occupancy "$j" '.occupancy_samples == 30 and .occupancy_every == 100 and .avg_vc_occupancy > 0 and .max_link_occupancy == ([.links[]|select(.kind=="link")|.occupancy]|max)'
# per-VC occupancy of the router-to-router inputs (link_vc_occupancy[v]): one source streaming
# through one link; 1-flit packets pile into VC 0 (a head takes the lowest free VC, and a 1-flit
# packet frees it as it leaves), 4-flit ones spread (docs/performance.md, "1-flit above 4-flit")
for L in 1 4; do
    jv=$($XNOC traffic --topo mesh:2x2 --router ncu=0 --pattern incast --sources 1 --rate 0.8 --packet $L --cycles 20000 --json 2>/dev/null)
    want=$([ $L = 1 ] && echo '[0.819375,0.1025]' || echo '[0.443125,0.065]')
    jcheck stats-vc-occupancy-$L "$jv" ".link_vc_occupancy == $want and .occupancy_samples == 200
        and (((.link_vc_occupancy|add) * ([.links[]|select(.kind==\"link\")]|length)) - ([.links[]|select(.kind==\"link\").occupancy]|add) | fabs) < 1e-9"
done
# the histogram: every column sums to the measured packets
if [ "$(head -1 "$TMP/h.csv")" = "bin,count,network,queueing" ] &&
    [ "$(awk -F, 'NR>1{a+=$2;b+=$3;c+=$4}END{print a" "b" "c}' "$TMP/h.csv")" = "$(printf '%s' "$j" | jq -r '"\(.measured_packets) \(.measured_packets) \(.measured_packets)"')" ] &&
    [ "$(awk -F, 'NR>1 && $2>0' "$TMP/h.csv" | head -1 | cut -d, -f1)" = "$(printf '%s' "$j" | jq '.min_latency')" ]; then
    ok histogram-sums; else fail histogram-sums "$(head -3 "$TMP/h.csv" | tr '\n' '|') vs $(printf '%s' "$j" | jq -c '{measured_packets,min_latency}')"; fi
$XNOC traffic --topo mesh:4x4 --rate 0.3 --packet 2 --cycles 3000 --warmup 500 --histogram "$TMP/h10.csv" --histogram-bin 10 >/dev/null 2>&1
if awk -F, 'NR>1{ if ($1 % 10) bad=1; a+=$2 } END { exit bad || a != '"$(printf '%s' "$j" | jq .measured_packets)"' }' "$TMP/h10.csv"; then
    ok histogram-bin-width; else fail histogram-bin-width "$(head -3 "$TMP/h10.csv" | tr '\n' '|')"; fi
# zero load (one packet at a time): no queueing, no stalls, latency exactly the model 1 + 3*(hops+1) + L-1
j=$($XNOC traffic --topo mesh:2x2 --pattern allpairs --packet 3 --json 2>/dev/null)
jcheck stats-zero-load "$j" '.errors==0 and .max_queueing_latency==0 and .link_stalls==0 and .hops_histogram==[4,8,4]
    and .min_latency==6 and .max_latency==12 and .min_network_latency==6 and .max_network_latency==12 and .injection_rate==0'
# saturated: packets wait at their sources, the measured injection falls short of the offered load
j=$($XNOC traffic --topo mesh:2x2 --rate 1 --packet 4 --cycles 2000 --warmup 500 --json 2>/dev/null)
jcheck stats-saturated "$j" '.saturated and .min_queueing_latency >= 0 and .avg_queueing_latency > 100 and .injection_rate < 0.95 and (.injection_rate - .throughput | fabs) < 0.01 and .max_link_stalls > 0'
$XNOC traffic --topo mesh:2x2 --rate 0.2 --cycles 1000 >"$TMP/human" 2>&1
if grep -q '^  network   min 7  avg' "$TMP/human" && grep -q '^  queueing  min 0' "$TMP/human" && grep -q '^  injected 0\.[0-9]* flits/terminal/cycle in the window$' "$TMP/human" &&
    grep -q 'link stalls [0-9]* cycles' "$TMP/human"; then ok stats-text; else fail stats-text "$(sed -n 3,8p "$TMP/human" | tr '\n' '|')"; fi
check_fail histogram-bad-path 2 "^xnoc traffic: --histogram $TMP/no/h.csv: No such file or directory" $XNOC traffic --topo mesh:2x2 --histogram "$TMP/no/h.csv"
check_fail histogram-bin-zero 2 "--histogram-bin" $XNOC traffic --topo mesh:2x2 --histogram "$TMP/x.csv" --histogram-bin 0

# ---- permutation patterns: the exact mapping on mesh:4x4 (terminal = router = y*4 + x), every flit
# a source injects ejected at its destination (a permutation: one source per destination), errors 0
perm_run() { $XNOC traffic --topo "$1" --pattern "$2" --rate 0.2 --packet 2 --cycles 2000 --warmup 200 --json ${3:-} 2>/dev/null; }
perm_flows='([.links[]|select(.kind=="inject")|.flits]) as $in | ([.links[]|select(.kind=="eject")|.flits]) as $ej
    | [.terminals[] | $in[.terminal] == $ej[.dest]] | all'
j=$(perm_run mesh:4x4 tornado)
jcheck pattern-tornado "$j" '.errors==0 and [.terminals[].dest] == [range(16) as $s | (((($s/4|floor)+1)%4)*4 + ($s%4+1)%4)]'
jcheck pattern-tornado-flows "$j" "$perm_flows"
j=$(perm_run mesh:3x2 tornado)  # non-power-of-two: x + 1 mod 3, y + 0 mod 2
jcheck pattern-tornado-3x2 "$j" '.errors==0 and [.terminals[].dest] == [1,2,0,4,5,3]'
j=$(perm_run mesh:4x4 bitrev)
jcheck pattern-bitrev "$j" '.errors==0 and [.terminals[].dest] == [0,8,4,12,2,10,6,14,1,9,5,13,3,11,7,15]'
jcheck pattern-bitrev-flows "$j" "$perm_flows"
j=$(perm_run mesh:4x4 shuffle)
jcheck pattern-shuffle "$j" '.errors==0 and [.terminals[].dest] == [0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15]'
jcheck pattern-shuffle-flows "$j" "$perm_flows"
j=$(perm_run mesh:4x4 randperm "--seed 5")
# a cyclic permutation: following dest from 0 visits all 16 terminals before coming back
jcheck pattern-randperm "$j" '.errors==0 and ([.terminals[].dest]|sort) == [range(16)] and
    ([.terminals[].dest] as $d | [limit(16; 0 | recurse($d[.]))] | unique | length) == 16 and ([.terminals[] | .dest != .terminal] | all)'
jcheck pattern-randperm-flows "$j" "$perm_flows"
j2=$(perm_run mesh:4x4 randperm "--seed 5"); j3=$(perm_run mesh:4x4 randperm "--seed 6")
if [ "$(printf '%s' "$j" | jq -c '[.terminals[].dest]')" = "$(printf '%s' "$j2" | jq -c '[.terminals[].dest]')" ] &&
    [ "$(printf '%s' "$j" | jq -c '[.terminals[].dest]')" != "$(printf '%s' "$j3" | jq -c '[.terminals[].dest]')" ]; then
    ok randperm-seeded; else fail randperm-seeded "seed 5 twice / seed 6: $(printf '%s' "$j$j2$j3" | jq -c '[.terminals[].dest]' | tr '\n' ' ')"; fi
jcheck uniform-no-dest "$($XNOC traffic --topo mesh:2x2 --cycles 300 --warmup 0 --json 2>/dev/null)" '[.terminals[]|has("dest")|not]|all'
check_fail bad-bitrev 2 "^xnoc traffic: --pattern bitrev: bitrev needs a power-of-two number of terminals$" $XNOC traffic --topo mesh:3x2 --pattern bitrev
check_fail bad-shuffle 2 "^xnoc traffic: --pattern shuffle: shuffle needs a power-of-two number of terminals$" $XNOC traffic --topo mesh:3x2 --pattern shuffle
check_fail bad-randperm 2 "randperm needs at least two terminals" $XNOC traffic --topo mesh:1x1 --pattern randperm
check_fail bad-tornado-self 2 "no source has another terminal to send to" $XNOC traffic --topo mesh:2x2 --pattern tornado
check_fail pattern-suggest 2 "did you mean tornado\?" $XNOC traffic --topo mesh:4x4 --pattern tornada

# ---- packet-size distributions and on/off injection (docs/traffic.md)
inj_run() { $XNOC traffic --topo mesh:4x4 --rate 0.25 --cycles 3000 --warmup 500 --json "$@" 2>/dev/null; }
j=$(inj_run --packet 1,4)
jcheck packet-bimodal "$j" '.errors==0 and .packet=="1,4" and .packet_mean==2.5 and (.packet_lengths|length)==5 and [.packet_lengths[0,2,3]]==[0,0,0]
    and .packet_lengths[1] > 0 and .packet_lengths[4] > 0 and (.packet_lengths|add)==.measured_packets
    and (.packet_lengths[1] - .packet_lengths[4] | fabs) < 0.1 * .measured_packets and (.injection_rate - .offered | fabs) < 0.02'
j=$(inj_run --packet 1-8)
jcheck packet-uniform "$j" '.errors==0 and .packet=="1-8" and .packet_mean==4.5 and .packet_lengths[0]==0 and ([.packet_lengths[1:][] > 0]|all)
    and (.packet_lengths|length)==9 and (.packet_lengths|add)==.measured_packets and (.injection_rate - .offered | fabs) < 0.02'
jcheck packet-fixed-unchanged "$(inj_run --packet 3)" '.packet==3 and ([has("packet_mean","packet_lengths","injection")]|any|not)'
# on/off: the same average rate in bursts: the source queues fill (Bernoulli at this load: avg queueing < 1 cycle)
jb=$(inj_run --packet 4); jo=$(inj_run --packet 4 --injection onoff:0.01,0.03)
jcheck onoff-rate "$jo" '.errors==0 and .injection=="onoff:0.01,0.03" and (.injection_rate - .offered | fabs) < 0.02 and .saturated==false'
if [ "$(jq -n --argjson b "$jb" --argjson o "$jo" '$b.avg_queueing_latency < 1 and $o.avg_queueing_latency > 3 * $b.avg_queueing_latency and $o.p99_queueing_latency > $b.p99_queueing_latency')" = true ]; then
    ok onoff-bursty; else fail onoff-bursty "bernoulli $(printf '%s' "$jb" | jq -c '[.avg_queueing_latency,.p99_queueing_latency]') onoff $(printf '%s' "$jo" | jq -c '[.avg_queueing_latency,.p99_queueing_latency]')"; fi
jcheck onoff-sizes "$(inj_run --packet 2-6 --injection onoff:0.05,0.05)" '.errors==0 and (.injection_rate - .offered | fabs) < 0.02'
check_fail packet-bad-range 2 "^xnoc traffic: --packet '4-2': A-B needs A <= B$" $XNOC traffic --topo mesh:2x2 --packet 4-2
check_fail packet-bad-zero 2 "^xnoc traffic: --packet '0-4': each length must be 1..64 flits$" $XNOC traffic --topo mesh:2x2 --packet 0-4
check_fail packet-bad-big 2 "--packet '1,65': each length must be 1..64 flits" $XNOC traffic --topo mesh:2x2 --packet 1,65
check_fail packet-bad-syntax 2 "--packet '1-2-3': expected L, A-B or A,B" $XNOC traffic --topo mesh:2x2 --packet 1-2-3
check_fail packet-bad-trailing 2 "--packet '1,': expected L, A-B or A,B" $XNOC traffic --topo mesh:2x2 --packet 1,
check_fail packet-bad-mixed 2 "--packet '1,2-3': expected L, A-B or A,B" $XNOC traffic --topo mesh:2x2 --packet 1,2-3
check_fail packet-bad-text 2 "^xnoc traffic: --packet: 'x' is not an integer$" $XNOC traffic --topo mesh:2x2 --packet x
check_fail packet-allpairs-one 2 "--pattern allpairs takes one length" $XNOC traffic --topo mesh:2x2 --pattern allpairs --packet 1-4
check_fail onoff-too-fast 2 "needs 2 packets/cycle in the on state" $XNOC traffic --topo mesh:2x2 --rate 0.2 --injection onoff:0.1,0.9
check_fail onoff-syntax 2 "expected onoff:ALPHA,BETA" $XNOC traffic --topo mesh:2x2 --injection onoff:0.1
check_fail onoff-alpha-zero 2 "expected onoff:ALPHA,BETA" $XNOC traffic --topo mesh:2x2 --injection onoff:0,0.5
check_fail injection-unknown 2 "unknown process 'bernouli' \(did you mean bernoulli\?" $XNOC traffic --topo mesh:2x2 --injection bernouli

# ---- sweep metrics are checked against the report keys --help lists (sweep_spec.c)
printf '{"command": "traffic", "fixed": {"topo": "mesh:2x2"}, "axes": {"rate": [0.1]}, "metrics": ["throughput", "thruput"]}' >"$TMP/typo.json"
check_fail sweep-metric-typo 2 "^xnoc sweep: $TMP/typo.json: metrics: 'thruput' is not a key of xnoc traffic's report \(did you mean throughput\?\) \(see xnoc traffic --help\)$" $XNOC sweep "$TMP/typo.json" --dry-run
printf '{"command": "traffic", "fixed": {"topo": "mesh:2x2"}, "axes": {"rate": [0.1]}, "metrics": ["zzz"]}' >"$TMP/far.json"
check_fail sweep-metric-unknown 2 "metrics: 'zzz' is not a key of xnoc traffic's report \(see xnoc traffic --help\)$" $XNOC sweep "$TMP/far.json" --dry-run
printf '{"command": "traffic", "fixed": {"topo": "mesh:2x2"}, "axes": {"rate": [0.1]}, "metrics": ["avg_network_latency", "p99_queueing_latency", "injection_rate", "link_stalls", "avg_vc_occupancy"]}' >"$TMP/new.json"
check sweep-metric-new-keys $XNOC sweep "$TMP/new.json" --dry-run
# the list in --help holds every top-level key a report can have (runs of every kind)
keys=$($XNOC traffic --help | sed -n '/^Report keys:$/,$p' | tail -n +2 | awk 'NF{print $1}' | sort -u)
# each key's line gives its label and unit (sim_harness/cmd/metrics.c, also the sweep's plot axes)
help=$($XNOC traffic --help)
check help-report-key-label grep -qxE '  avg_latency +avg latency \(cycles\)' <<<"$help"
check help-report-key-unit grep -qxE '  throughput +accepted load \(flits/terminal/cycle\)' <<<"$help"
check help-report-key-no-unit grep -qxE '  errors +errors' <<<"$help"
all=$( { $XNOC traffic --topo mesh:2x2 --rate 0.2 --cycles 500 --packet 1-3 --injection onoff:0.2,0.2 --json
    $XNOC traffic --topo mesh:2x2 --pattern allpairs --json
    $XNOC traffic --topo mesh:2x2 --pattern unitpairs --json
    $XNOC traffic --topo mesh:3x2 --rate 0.1 --coding 0.05 --cycles 1000 --json
    $XNOC traffic --topo mesh:2x2 --pattern multicast:2 --rate 0.01 --cycles 1000 --json
    $XNOC traffic --topo mesh:2x2 --rate 1 --packet 4 --cycles 500 --drain 10 --json; } 2>/dev/null | jq -r 'keys[]' | sort -u)
missing=$(comm -13 <(echo "$keys") <(echo "$all") | tr '\n' ' ')
[ -n "$all" ] && [ -z "$missing" ] && ok help-report-keys-complete || fail help-report-keys-complete "not in --help: $missing"

# ---- the text tables are rendered from the JSON report (issue 33): the same run's text and
# --json agree on the busiest links, the coding groups and the coding units
tj() { $XNOC traffic --topo mesh:3x2 --rate 0.1 --coding 0.05 --packet 2 --cycles 1000 --warmup 200 "$@" 2>/dev/null; }
tj >"$TMP/tt"; tj --json >"$TMP/tj.json"
want=$(jq -r '[.links[] | select(.kind=="link")] as $l
  | "link utilization (router-to-router, \($l|length) links",
    ($l | sort_by(-.flits) | .[0:8][] | "\(.src_router) \(.from|sub("^r[0-9]+\\.";"")) \(.dst_router) \(.flits)"),
    "coding groups: \(.coding.multicast.completed) multicast, \(.coding.coded.completed) coded, \(.coding["coded+multicast"].completed) coded+multicast completed (\(.coding.pending) pending); \(.coding.deliveries) deliveries",
    "coding units: \([.units[].contributions]|add) packets absorbed, \(.coded_packets) coded packets, \(.xor_ops) XORed flits, \(.mc_copies) multicast copies",
    (.units[] | select(.contributions>0) | "unit \(.router) \(.contributions) \(.coded)")' "$TMP/tj.json")
got=$( { grep -o '^link utilization (router-to-router, [0-9]* links' "$TMP/tt"
    awk '/^  r[0-9]+ .* -> r[0-9]+ +[0-9]+ flits/ {sub(/^r/, "", $1); sub(/^r/, "", $4); print $1, $2, $4, $5}' "$TMP/tt"
    grep -o '^coding groups: .* deliveries' "$TMP/tt"; grep '^coding units:' "$TMP/tt"
    sed -nE 's/^  unit [0-9]+ +\(router ([0-9]+)\): ([0-9]+) in, ([0-9]+) coded,.*/unit \1 \2 \3/p' "$TMP/tt"; })
if [ -n "$want" ] && [ "$got" = "$want" ] && grep -q '^unit ' <<<"$got"; then ok text-tables-from-json
else fail text-tables-from-json "text and --json differ: $(diff <(echo "$want") <(echo "$got") | head -4 | tr '\n' ' ')"; fi
# the text header names an on/off injection (the JSON's "injection")
$XNOC traffic --topo mesh:2x2 --rate 0.2 --cycles 300 --injection onoff:0.2,0.2 2>/dev/null | head -1 >"$TMP/onoff"
check onoff-in-header grep -qx 'xnoc traffic: mesh:2x2, router vcs=2 buf=8, k=1, pattern uniform, packet 1 flit(s), injection onoff:0.2,0.2' "$TMP/onoff"
