# router: one router and its neighbours - every input to every output,
# round-robin fairness, back-pressure, and the RTL invariant flag itself
source tests/lib.sh

tr() { $XNOC traffic --json "$@" 2>"$TMP/stderr"; }

# One router with four terminals: every input port to every output port,
# byte-exact (each flit's payload is checked), at the exact zero-load latency.
j=$(tr --topo mesh:1x1:c=4 --pattern allpairs --packet 5)
jcheck one-router-allpairs "$j" '.errors==0 and .pairs==16 and .delivered_packets==16 and .zero_load_max_deviation==0'
j=$(tr --topo mesh:1x1:c=4 --pattern uniform --rate 0.6 --packet 3 --cycles 5000)
jcheck one-router-uniform "$j" '.errors==0 and .drain_timed_out==false and .delivered_packets==.injected_packets and ([.links[]|select(.kind=="eject").flits]|min) > 1500'

# Fairness: two sources flood one output; round robin gives each exactly half
# (within one packet over the 5000-cycle window), with 1- and 4-flit packets
# (4-flit packets: both hold an output VC and the switch alternates).
for t in mesh:1x1:c=3 mesh:3x1; do
    for L in 1 4; do
        j=$(tr --topo $t --pattern incast --sources 1,2 --rate 1.0 --packet $L --cycles 5000)
        jcheck "fair-$t-L$L" "$j" ".errors==0 and (.terminals[1].accepted - .terminals[2].accepted | fabs) <= ($L/5000 + 1e-9) and (.terminals[1].accepted + .terminals[2].accepted - 1 | fabs) < 0.001 and .terminals[0].accepted==0"
    done
done

# Back-pressure: offered load 1.0 into one-slot buffers with one VC, and into
# two-slot buffers with four VCs: lossless, in order, and the routers' sticky
# invariant flag (credit above depth, write into a full buffer) never set.
j=$(tr --topo mesh:3x2 --router vcs=1,buf=1 --pattern uniform --rate 1.0 --packet 6 --cycles 20000)
jcheck backpressure-buf1 "$j" '.errors==0 and .error_kinds.rtl_invariant==false and .drain_timed_out==false and .delivered_packets==.injected_packets'
j=$(tr --topo octagon --router vcs=4,buf=2 --pattern uniform --rate 1.0 --packet 5 --cycles 10000)
jcheck backpressure-vcs4-buf2 "$j" '.errors==0 and .error_kinds.rtl_invariant==false and .delivered_packets==.injected_packets'

# ...and the flag does fire: one credit nobody owed puts the router's
# ejection-port credit count above the buffer depth.
XNOC_TEST_SPURIOUS_CREDIT=1 check_fail invariant-flag-fires 1 "router 0 flags an RTL invariant violation \(bits 0x1:" \
    $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.1 --cycles 500

# The assertion-enabled model (XNOC_RTL_ASSERT=1: --assert -DXNOC_ASSERT):
# clean under saturation, and its named assertion reports the router (bit 16).
j=$(XNOC_RTL_ASSERT=1 tr --topo mesh:2x2 --pattern uniform --rate 1.0 --packet 4 --cycles 5000)
jcheck assert-build-clean "$j" '.errors==0 and .delivered_packets==.injected_packets'
XNOC_RTL_ASSERT=1 XNOC_TEST_SPURIOUS_CREDIT=1 check_fail assert-build-fires 1 "router 0 flags an RTL invariant violation \(bits 0x11:.*; assertion u_r0\.[A-Za-z_.0-9]*NoCreditOverflow \(xnoc_router\.sv:[0-9]+\)" \
    $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.1 --cycles 500
