# net: the RTL network under synthetic traffic - all-pairs delivery at the
# exact zero-load latency on every topology, saturation without loss or
# deadlock, link counters, watchdog, waveforms
source tests/lib.sh

# the terminal side of a channel's credits (net/endpoint.c), used by the NI and the traffic terminal
if unit_bin U endpoint_unit; then "$U"; fi
# the model build's pass that merges Verilator's duplicate function copies (net/dedupe.c)
if unit_bin U dedupe_unit; then "$U"; fi
# the word-wide trigger vectors the model build force-includes (glue/xnoc_vl_triggers.h)
if unit_bin U vl_triggers_unit; then "$U"; fi
# the selection behind the traffic report's 99th percentile (util/select.h)
if unit_bin U select_unit; then "$U"; fi

tr() { $XNOC traffic --json "$@" 2>"$TMP/stderr"; }

# All-pairs, one packet at a time: byte-exact delivery of every pair and the
# zero-load latency model 1 + 3*H + L - 1 exactly (H = routers on the path).
for t in mesh:1x1 mesh:3x2 mesh:4x4 torus:4x4 octagon fat-octagon mesh:2x2:c=3 mesh:4x4:c=2; do
    for L in 1 5; do
        j=$(tr --topo $t --pattern allpairs --packet $L)
        n=$($XNOC topo --topo $t --json | jq .terminals)
        jcheck "allpairs-$t-L$L" "$j" ".errors==0 and .pairs==($n*$n) and .zero_load_max_deviation==0 and .delivered_packets==.pairs"
    done
done
j=$(tr --topo mesh:2x2 --ports 2 --pattern allpairs --packet 3)
jcheck allpairs-kport2 "$j" '.errors==0 and .pairs==16 and .zero_load_max_deviation==0'
# Body flits stream at one per cycle when a VC's buffer covers the 4-cycle
# credit round trip; with fewer slots the model holds for heads only.
j=$(tr --topo octagon --router vcs=4,buf=4 --pattern allpairs --packet 6)
jcheck allpairs-vcs4-buf4 "$j" '.errors==0 and .zero_load_max_deviation==0'
j=$(tr --topo octagon --router vcs=4,buf=2 --pattern allpairs --packet 1)
jcheck allpairs-buf2-heads "$j" '.errors==0 and .zero_load_max_deviation==0'
j=$(tr --topo octagon --router vcs=2,buf=2 --pattern allpairs --packet 6)
jcheck allpairs-buf2-bubbles "$j" '.errors==0 and .zero_load_max_deviation>0'

# Saturating random traffic: >= 1e5 cycles, zero errors, everything drains.
for t in mesh:4x4 torus:4x4 octagon fat-octagon; do
    j=$(tr --topo $t --pattern uniform --rate 0.9 --packet 4 --cycles 100000 --warmup 1000 --drain 400000)
    jcheck "saturate-$t" "$j" '.errors==0 and .cycles>=100000 and .saturated==true and .drain_timed_out==false and .delivered_packets==.injected_packets and .throughput>0.2'
done
for p in transpose bitcomp neighbor hotspot; do
    j=$(tr --topo mesh:4x4 --pattern $p --rate 0.2 --packet 2 --cycles 5000)
    jcheck "pattern-$p" "$j" '.errors==0 and .saturated==false and .throughput>0.15'
done
# Flit conservation on the link counters: every flit injected is ejected.
j=$(tr --topo fat-octagon --pattern uniform --rate 0.3 --packet 3 --cycles 5000)
jcheck conservation "$j" '([.links[]|select(.kind=="inject").flits]|add) == ([.links[]|select(.kind=="eject").flits]|add)'
jcheck links-every-channel "$j" '(.links|length) == 24 + 2*16'
# Below saturation, accepted = offered (within sampling noise).
j=$(tr --topo mesh:4x4 --pattern uniform --rate 0.2 --packet 4 --cycles 20000)
jcheck accepted-equals-offered "$j" '(.throughput - 0.2 | fabs) < 0.01 and .saturated==false'
# The watchdog names a router, port and VC when the network stops.
XNOC_TEST_NO_EJECT_CREDIT=1 check_fail watchdog 1 "stall at cycle [0-9]+: .*router [0-9]+ port [0-9]+ \(.*\) VC [0-9]+ holds" \
    $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.5 --packet 2 --cycles 5000

# Waveforms
check trace-vcd $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.1 --cycles 200 --warmup 0 --trace "$TMP/w.vcd" --trace-window 10:60
if grep -q '^\$enddefinitions' "$TMP/w.vcd" 2>/dev/null && grep -q '^#21$' "$TMP/w.vcd" && ! grep -q '^#200$' "$TMP/w.vcd"; then
    ok trace-window; else fail trace-window "VCD lacks the window 10:60"; fi

# the same harness under ASan/UBSan
j=$($XNOC_ASAN traffic --topo octagon --pattern uniform --rate 0.5 --packet 3 --cycles 3000 --json 2>"$TMP/asan.log")
jcheck asan-traffic "$j" '.errors==0'

# The build cache is keyed on Verilator's identity (its files along PATH):
# without Verilator the harness says what to do instead of guessing.
check_fail no-verilator 2 "verilator not found: run 'make deps'" \
    env PATH=/nonexistent "$XNOC" traffic --topo mesh:2x2 --pattern uniform --cycles 10

# waveforms of firmware runs and collectives (the same traced model as above)
check trace-run $XNOC run --topo mesh:2x2 --trace "$TMP/r.vcd" --trace-window 100:150 build/firmware/hello.elf
if grep -q '^#201$' "$TMP/r.vcd" && ! grep -q '^#400$' "$TMP/r.vcd"; then ok trace-run-window; else fail trace-run-window "VCD lacks the window 100:150"; fi
j=$($XNOC collective --json --topo mesh:2x2 --op alltoall --bytes 64 2>/dev/null)
s=$(jq .start_cycle <<<"$j")
j2=$($XNOC collective --json --topo mesh:2x2 --op alltoall --bytes 64 --trace "$TMP/c.vcd" --trace-window "$s:$((s + 100))" 2>/dev/null)
jcheck trace-collective "$j2" ".verified==true and .start_cycle==$s and .cycles==$(jq .cycles <<<"$j")"
if grep -q "^#$((2 * s + 1))\$" "$TMP/c.vcd"; then ok trace-collective-window; else fail trace-collective-window "VCD does not start at the collective's cycle $s"; fi
check_fail trace-window-alone 2 "--trace-window needs --trace" $XNOC run --topo mesh:2x2 --trace-window 1:5 build/firmware/hello.elf
check_fail trace-window-bad 2 "--trace-window '5:1': expected A:B with A < B" $XNOC collective --topo mesh:2x2 --op bcast --trace x.vcd --trace-window 5:1
