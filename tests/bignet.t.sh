# bignet: the largest networks the head's 12-bit address allows.
# Synthetic unicast traffic under minimal routing runs up to 4,095 terminals
# (firmware/lib/flit.h FLIT_MAX_ADDRS; address 4,095 is FLIT_NONE); what
# carries a 10-bit terminal id (schedules, coding groups, non-minimal heads)
# keeps the harness's 1,024, and each refusal names the option that keeps it.
source tests/lib.sh

# mesh:13x15x21: exactly 4,095 terminals (7-port routers, the tile build).
# randperm: every terminal sends to one other and every terminal is some
# terminal's destination, so with nothing misrouted, lost or left in flight
# terminal 4,094 (address 0xffe, the top one) has sent and received.
$XNOC traffic --topo mesh:13x15x21 --router ncu=0 --pattern randperm --rate 0.02 --packet 3 --cycles 300 \
    --warmup 0 --json >"$TMP/big.json" 2>"$TMP/big.err"
echo "exit $?" >>"$TMP/big.err"
jcheck bignet-4095-conserved "$(cat "$TMP/big.json")" \
    '.errors == 0 and .injected_packets == .delivered_packets and .delivered_packets > 0
     and (.drain_timed_out | not) and (.terminals | length) == 4095'
jcheck bignet-4095-top-address "$(cat "$TMP/big.json")" \
    '.terminals[4094].measured_packets > 0
     and ([.terminals[] | select(.dest == 4094) | .measured_packets] | length == 1 and .[0] > 0)'
if grep -q "^exit 0$" "$TMP/big.err"; then ok bignet-4095-exit
else fail bignet-4095-exit "$(tr '\n' ' ' <"$TMP/big.err")"; fi

# one more terminal than the address format has
check_fail bignet-4096 2 "^xnoc traffic: topology 'mesh:16x16x16' has 4096 terminals \(max 4095\)$" \
    $XNOC traffic --topo mesh:16x16x16 --router ncu=0
# the harness's 1,024, each with the option that keeps it
check_fail bignet-allgather 2 "^xnoc traffic: topology 'mesh:13x15x21' has 4095 terminals: --pattern allgather:hnc keeps the harness's 1024 \(synthetic unicast patterns with minimal routing run up to 4095\)$" \
    $XNOC traffic --topo mesh:13x15x21 --router ncu=0 --pattern allgather:hnc
check_fail bignet-coding 2 "^xnoc traffic: topology 'mesh:13x15x21' has 4095 terminals: --coding keeps the harness's 1024 " \
    $XNOC traffic --topo mesh:13x15x21 --coding 0.1
check_fail bignet-ugal 2 "^xnoc traffic: topology 'dragonfly:a=8,p=4,h=4' has 1056 terminals: --router routing=ugal \(a 10-bit source in the head\) keeps the harness's 1024 " \
    $XNOC traffic --topo dragonfly:a=8,p=4,h=4 --router routing=ugal,ncu=0
check_fail bignet-multicast 2 "has 4095 terminals: --pattern multicast:3 keeps the harness's 1024 " \
    $XNOC traffic --topo mesh:13x15x21 --pattern multicast:3
# coding units add an address per router: 8,190 do not fit 12 bits
check_fail bignet-units 2 "^xnoc traffic: mesh:13x15x21 with coding units needs 8190 addresses and 8 router ports \(limits 4095 and 32\): use --router ncu=0$" \
    $XNOC traffic --topo mesh:13x15x21 --cycles 10
# the other commands keep 1,024
check_fail bignet-collective 2 "^xnoc collective: topology 'mesh:13x15x21' has 4095 terminals \(max 1024\)$" \
    $XNOC collective --topo mesh:13x15x21 --op bcast
check_fail bignet-topo 2 "terminals \(max 1024\)$" $XNOC topo --topo mesh:13x15x21
