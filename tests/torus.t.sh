# torus: n-dimensional tori on the RTL (deadlock freedom, exact zero-load
# latency), the QCDOC all-gather's analysis (xnoc qcdoc) and the all-gather
# itself in firmware on the k-port NI (docs/qcdoc.md, docs/topologies.md)
source tests/lib.sh

tr() { $XNOC traffic --json "$@" 2>"$TMP/stderr"; }
q() { $XNOC qcdoc --json "$@" 2>"$TMP/stderr"; }
coll() { $XNOC collective --json "$@" 2>"$TMP/stderr"; }

# --- the network: every pair at the zero-load latency, saturation without
# loss or deadlock (dimension order + a dateline class per ring)
for t in torus:4x4x4 torus:3x3x3x3 mesh:3x3x3 torus:2x2x2; do
    n=$($XNOC topo --topo $t --json | jq .terminals)
    j=$(tr --topo $t --pattern allpairs --packet 3)
    jcheck "allpairs-$t" "$j" ".errors==0 and .pairs==($n*$n) and .zero_load_max_deviation==0 and .delivered_packets==.pairs"
done
for t in torus:4x4x4 torus:3x3x3x3; do
    j=$(tr --topo $t --pattern uniform --rate 0.9 --packet 4 --cycles 20000 --warmup 1000 --drain 400000)
    jcheck "saturate-$t" "$j" '.errors==0 and .drain_timed_out==false and .delivered_packets==.injected_packets and .saturated==true'
done
j=$(tr --topo torus:4x4x4 --pattern neighbor --rate 0.5 --packet 2 --cycles 5000 --warmup 500)
jcheck neighbor-3d "$j" '.errors==0 and .avg_hops==1'

# --- the analysis, counted offset by offset
j=$(q --dims 6,6,6,6,6,6)
jcheck qcdoc-6d-sums "$j" '.nodes==46656 and .steps==18 and .messages_sum==46655 and (.messages|add)==46655'
jcheck qcdoc-6d-formulas "$j" '.closed_form_matches==true and ([.steps_table[]|select(.messages!=.closed_form)]|length)==0'
jcheck qcdoc-6d-messages "$j" '.messages==[12,12,6,240,120,15,1960,520,20,8160,1200,15,17292,1452,6,14896,728,1]'
jcheck qcdoc-6d-block-sums "$j" '[.block_sums[].sum]==[30,375,2500,9375,18750,15625]'
# the buffer rule follows from the M_j: the largest M_{j-2}+M_{j-1}+M_j
jcheck qcdoc-6d-buffer "$j" '.max_buffer==18759 and .max_buffer_step==14 and (.messages as $m | [range(2;18)|$m[.-2]+$m[.-1]+$m[.]]|max)==18759'
# the paper's printed table disagrees with its own formulas at M_13, M_14,
# the last block sum and hence the largest buffer
jcheck qcdoc-6d-paper-table "$j" '[.paper_table_disagreements[].what]==["M_13","M_14","M_16 + M_17 + M_18","max_buffer"] and ([.paper_table_disagreements[]|select(.what=="M_14")][0].printed==3872)'
jcheck qcdoc-6d-general-rule "$j" '.paper_general_formula.disagree==18 and .paper_general_formula.checked==18'
# a regular torus keeps every channel busy when ties are split
jcheck qcdoc-6d-efficiency "$j" '.efficiency > 0.9999 and .efficiency_whole_messages > 0.99'
j=$(q --dims 2,2,2,10,10,10)
jcheck qcdoc-irregular "$j" '.nodes==8000 and .messages_sum==7999 and .regular==false and .closed_form_matches==null and .steps==18 and .diameter==18 and .efficiency < 1'
j=$(q --topo torus:4x4x4)
jcheck qcdoc-444 "$j" '.messages==[6,3,24,3,26,1] and .max_buffer==53 and .max_buffer_step==5 and .efficiency > 0.9999'
j=$(q --dims 5)
jcheck qcdoc-ring "$j" '.messages==[2,2] and .efficiency==1'
check_fail qcdoc-side-1 2 "each side must be 2..64" $XNOC qcdoc --dims 4,1
check_fail qcdoc-7-dims 2 "expected 1 to 6 sizes" $XNOC qcdoc --dims 2,2,2,2,2,2,2
check_fail qcdoc-not-torus 2 "runs on a torus" $XNOC qcdoc --topo mesh:4x4x4
check_fail qcdoc-no-dims 2 "--dims or --topo is required" $XNOC qcdoc --json
check_fail qcdoc-too-big 2 "too large" $XNOC qcdoc --dims 64,64,64,64,64

# --- the all-gather in firmware, all six directions at once: every byte
# verified; at least 3x faster than one channel; the step structure is the model's
j6=$(coll --topo torus:4x4x4 --op allgather --algo qcdoc --ports 6 --bytes 1024)
# the plan is the model's whole-message assignment: as many message rounds as its step times
rounds=$($XNOC qcdoc --topo torus:4x4x4 --json | jq .step_time_whole_messages)
jcheck qcdoc-run-k6 "$j6" ".verified==true and .steps==6 and .message_rounds==$rounds and .message_rounds==13 and .error==null"
j1=$(coll --topo torus:4x4x4 --op allgather --algo qcdoc --ports 1 --bytes 1024)
jcheck qcdoc-run-k1 "$j1" '.verified==true and .steps==6 and .message_rounds==63'
c6=$(echo "$j6" | jq .cycles); c1=$(echo "$j1" | jq .cycles)
check qcdoc-3x-faster [ "$((c1))" -ge "$((3 * c6))" ]
# every node receives 63 messages of 130 flits over its six links: no run can beat the links
check qcdoc-above-link-bound [ "$((c6))" -ge "$((63 * 130 / 6))" ]
j=$(coll --topo torus:4x4x4 --op allgather --algo qcdoc --ports 6 --bytes 1024 --router sendq=8 --sync data)
jcheck qcdoc-run-sendq "$j" '.verified==true'
j=$(coll --topo torus:2x2x2 --op allgather --algo qcdoc --ports 6 --bytes 256)
# a ring of 2 has two links between the same routers, reported apart
jcheck qcdoc-ring-of-2 "$j" '.verified==true and ([.links[]|select(.kind=="link")]|length)==48 and .message_rounds==3'
check_fail qcdoc-on-mesh 2 "qcdoc runs on a torus" $XNOC collective --topo mesh:4x4 --op allgather --algo qcdoc
check_fail qcdoc-not-allgather 2 "qcdoc is an allgather" $XNOC collective --topo torus:4x4 --op alltoall --algo qcdoc
check_fail qcdoc-subset 2 "gathers from and to every node" $XNOC collective --topo torus:4x4 --op allgather --algo qcdoc --to 0-7
check_fail sendq-range 2 "sendq" $XNOC collective --topo torus:4x4 --op allgather --router sendq=17

# --- the scheduler takes n-D tori
j=$($XNOC sched --topo torus:3x3x3 --op allgather --json)
jcheck sched-3d-allgather "$j" '.steps==26 and .lower_bound==26'
j=$($XNOC sched --topo torus:2x2x2 --op alltoall --json)
jcheck sched-3d-alltoall "$j" '.steps==7 and .optimal==true'

# --- the NI send queue (--router sendq): GO queues instead of stalling, so
# a channel's packets leave back to back while the core goes on
for q in 1 4; do
    j=$(coll --topo torus:2x2x2 --op allgather --algo qcdoc --ports 1 --bytes 256 --router sendq=$q --events "$TMP/ev$q.jsonl")
    jcheck "sendq-$q-verified" "$j" '.verified==true'
done
# node 0's sends in a step (34-flit packets on its one channel): with
# sendq=1 each GO waits for the packet before it, with sendq=4 they are
# accepted as fast as the core issues them
gap() { jq -s '[.[]|select(.event=="send" and .node==0)|.cycle] | [range(1;length) as $i | .[$i] - .[$i-1]] | min' "$1"; }
g1=$(gap "$TMP/ev1.jsonl"); g4=$(gap "$TMP/ev4.jsonl")
check sendq-1-go-waits [ "$g1" -ge 34 ]
check sendq-4-go-queues [ "$g4" -lt 34 ]
# the text report is the JSON report rendered (util/report.h): every figure of the one is in the other
j=$($XNOC qcdoc --topo torus:4x4x4x4x4x4 --json 2>/dev/null)
h=$($XNOC qcdoc --topo torus:4x4x4x4x4x4 2>/dev/null)
want=$(jq -r '"QCDOC all-gather on a regular torus \(.dims_text): \(.nodes) nodes, diameter \(.diameter), \(.steps) steps", (.steps_table[] | "\(.step) \(.block) \(.hop) \(.messages) \(.max_channel_load*1000|round/1000) / \(.max_channel_load_whole) \(.closed_form)"), "largest buffer: \(.max_buffer) units at step \(.max_buffer_step)", (.paper_table_disagreements[] | "paper'"'"'s table: \(.what) printed \(.printed), counted \(.counted)")' <<<"$j" | sed 's/\.0\b//g')
got=$(printf '%s\n' "$h" | sed 's/^ *//;s/  */ /g' | grep -v '^step block\|^sum of\|^efficiency\|^per-step' | sed 's/ (M_{j-2}.*//;s/\.000\b//g;s/\(\.[0-9]*[1-9]\)0*\b/\1/g')
if [ -n "$j" ] && [ "$want" = "$got" ]; then ok qcdoc-text-from-json; else fail qcdoc-text-from-json "$(diff <(echo "$want") <(echo "$got") | head -6 | tr '\n' ' ')"; fi
