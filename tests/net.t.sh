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
# The stall rule of the loop both engines share (net/net_loop.c): flits in
# flight and none entered or left the network for more than N cycles; one
# line naming the cycle, router, port and VC.  XNOC_TEST_NO_EJECT_CREDIT
# (applied by the loop, so for firmware runs and traffic alike) stops every
# ejection credit.  Traffic: N = 2000, the last flit moved at cycle 129.
XNOC_TEST_NO_EJECT_CREDIT=1 check_fail watchdog 1 "^xnoc traffic: deadlock at cycle 2130: no flit moved for 2001 cycles with 182 in flight; router 0 port 0 \(\+x\) VC 0 holds 8 flit\(s\)$" \
    $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.5 --packet 2 --cycles 5000
# a firmware run (--watchdog 1000, looked at every 256 cycles): the same line, then what every node waits for
XNOC_TEST_NO_EJECT_CREDIT=1 check_fail watchdog-run 1 "^xnoc run: deadlock at cycle 6912: no flit moved for 1024 cycles; router 3 port 3 \(-y\) VC 0 holds 2 flit\(s\); every node waits: nodes 0, 3 are waiting for a packet at PC 0x8[0-9a-f]{7} <noc_recv\+0x[0-9a-f]+ noc\.c:[0-9]+>$" \
    $XNOC run --topo mesh:2x2 --watchdog 1000 build/firmware/ping-pong.elf
# the loop's other network-side hook reaches firmware runs too: one ejection
# credit nobody owed (cycle 5) trips the router's invariant flag
XNOC_TEST_SPURIOUS_CREDIT=1 check_fail spurious-credit-run 1 "^xnoc run: cycle 7: router 0 flags an RTL invariant violation \(bits 0x1: " \
    $XNOC run --topo mesh:2x2 --arg 0=64 build/firmware/all-pairs.elf

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
