# net: the RTL network under synthetic traffic - delivery, exact zero-load
# latency, saturation without loss or deadlock, router invariants, bad input
source tests/lib.sh

tr() { $XNOC traffic --json "$@" 2>"$TMP/stderr"; }

# All-pairs, one packet at a time: byte-exact delivery of every pair and the
# zero-load latency model 3*H + L - 1 exactly (H = routers on the path).
for t in mesh:1x1 mesh:3x2 mesh:4x4 torus:4x4 octagon fat-octagon mesh:2x2:c=3; do
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
    jcheck "saturate-$t" "$j" '.errors==0 and .cycles>=100000 and .saturated==false and .delivered_packets==.injected_packets and .throughput>0.2'
done
# Tiny buffers and one VC: back-pressure everywhere, still lossless.
j=$(tr --topo mesh:3x2 --router vcs=1,buf=1 --pattern uniform --rate 1.0 --packet 6 --cycles 20000)
jcheck backpressure-buf1 "$j" '.errors==0 and .saturated==false and .delivered_packets==.injected_packets'
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
# Round-robin fairness: two terminals flood one destination; each gets half.
j=$(tr --topo mesh:1x1:c=3 --pattern hotspot --rate 1.0 --packet 1 --cycles 5000)
jcheck hotspot-lossless "$j" '.errors==0'

# The watchdog names a router, port and VC when the network stops.
XNOC_TEST_NO_EJECT_CREDIT=1 check_fail watchdog 1 "stall at cycle [0-9]+: .*router [0-9]+ port [0-9]+ \(.*\) VC [0-9]+ holds" \
    $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.5 --packet 2 --cycles 5000

# Waveforms
check trace-vcd $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.1 --cycles 200 --warmup 0 --trace "$TMP/w.vcd" --trace-window 10:60
if grep -q '^\$enddefinitions' "$TMP/w.vcd" 2>/dev/null && grep -q '^#21$' "$TMP/w.vcd" && ! grep -q '^#200$' "$TMP/w.vcd"; then
    ok trace-window; else fail trace-window "VCD lacks the window 10:60"; fi

# Bad input: one line, exit 2
check_fail bad-topo 2 "unknown topology 'ring'" $XNOC traffic --topo ring:4 --pattern uniform
check_fail bad-size 2 "each side must be" $XNOC traffic --topo mesh:0x2 --pattern uniform
check_fail bad-router-key 2 "unknown parameter 'depth'" $XNOC traffic --topo mesh:2x2 --router depth=4 --pattern uniform
check_fail bad-router-vcs 2 "vcs=9 is out of range" $XNOC traffic --topo mesh:2x2 --router vcs=9 --pattern uniform
check_fail torus-needs-2vcs 2 "needs at least 2 VCs" $XNOC traffic --topo torus:3x3 --router vcs=1 --pattern uniform
check_fail bad-pattern 2 "unknown pattern 'zigzag'" $XNOC traffic --topo mesh:2x2 --pattern zigzag
check_fail bad-rate 2 "--rate: 1.5 is out of range" $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 1.5
check_fail bad-rate-text 2 "--rate: 'fast' is not a number" $XNOC traffic --topo mesh:2x2 --pattern uniform --rate fast
check_fail bad-transpose 2 "transpose needs a square" $XNOC traffic --topo mesh:3x2 --pattern transpose
check_fail bad-flag 2 "unknown or incomplete option '--frobnicate'" $XNOC traffic --topo mesh:2x2 --pattern uniform --frobnicate 1
check_fail missing-pattern 2 "--pattern is required" $XNOC traffic --topo mesh:2x2
check_fail bad-window 2 "--trace-window" $XNOC traffic --topo mesh:2x2 --pattern uniform --trace-window 5:1
check traffic-help $XNOC traffic --help
# the same harness under ASan/UBSan
j=$($XNOC_ASAN traffic --topo octagon --pattern uniform --rate 0.5 --packet 3 --cycles 3000 --json 2>"$TMP/asan.log")
jcheck asan-traffic "$j" '.errors==0'
