# harden: firmware that misuses the NI cannot crash or corrupt the emulator
source tests/lib.sh
FW=build/firmware
T=octagon
# ADDR and LEN rewritten while a packet streams: the NI latched them at GO
j=$($XNOC run --json --topo $T --arg case=0 $FW/ni-abuse.elf 2>"$TMP/err")
jcheck ni-rewrite-mid-send "$j" '.ok==true'
grep -q "ni-abuse: ok" "$TMP/err" && ok ni-rewrite-bytes || fail ni-rewrite-bytes "$(cat "$TMP/err")"
j=$($XNOC_ASAN run --json --topo $T --arg case=0 $FW/ni-abuse.elf 2>/dev/null)
jcheck ni-rewrite-asan "$j" '.ok==true'
# the multicast mask rewritten (to addresses that do not exist) after GO,
# while the packet waits in the send queue: GO latched the mask it checked,
# and that is what arrives
j=$($XNOC run --json --topo $T --router sendq=2 --arg case=7 $FW/ni-abuse.elf 2>"$TMP/err")
jcheck ni-mask-rewrite-after-go "$j" '.ok==true and .nodes[0].mc_packets_sent==1 and .nodes[1].packets_received==1'
grep -qx "\[node 1\] ni-abuse: mask 0x0000000000000002 in 1 flit(s): ok" "$TMP/err" && ok ni-mask-latched || fail ni-mask-latched "$(cat "$TMP/err")"
j=$($XNOC_ASAN run --json --topo $T --router sendq=2 --arg case=7 $FW/ni-abuse.elf 2>/dev/null)
jcheck ni-mask-rewrite-asan "$j" '.ok==true'
# messages a node never took (one in its ring, not released; one the NI
# holds for lack of ring space): a warning naming node, source, tag and
# length; with --fail-undelivered the run fails on it
undel="node 0 ends with 2 undelivered message\(s\): from terminal 1 \(tag 5, 600 bytes\) in its receive ring, not released; from terminal 1 \(tag 6, 600 bytes\) held in its NI \(no room in the ring\)"
check_fail undelivered-warns 0 "^xnoc run: warning: $undel$" $XNOC run --topo $T --arg case=8 $FW/ni-abuse.elf
check_fail undelivered-fails 1 "^xnoc run: $undel$" $XNOC run --topo $T --arg case=8 --fail-undelivered $FW/ni-abuse.elf
j=$($XNOC run --json --topo $T --arg case=8 --fail-undelivered $FW/ni-abuse.elf 2>/dev/null)
jcheck undelivered-json "$j" '.ok==false and (.error|startswith("node 0 ends with 2 undelivered")) and ([.nodes[].undelivered]==[2,null,null,null,null,null,null,null]) and .exit_codes==[0,0,0,0,0,0,0,0]'
j=$($XNOC run --json --topo $T --arg case=8 $FW/ni-abuse.elf 2>/dev/null)
jcheck undelivered-json-warning "$j" '.ok==true and .nodes[0].undelivered==2 and (has("error")|not)'
# node 0 exits while a message's flits are still arriving
check_fail undelivered-arriving 1 "^xnoc run: node 0 ends with 1 undelivered message\(s\): from terminal 1 \(tag 9, 1000 bytes\) still arriving$" \
    $XNOC run --topo $T --arg case=9 --fail-undelivered $FW/ni-abuse.elf
# every message taken: no warning, and --fail-undelivered passes
$XNOC run --topo $T --arg case=0 --fail-undelivered $FW/ni-abuse.elf >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && ! grep -q undelivered "$TMP/err" && ok undelivered-none || fail undelivered-none "exit $rc: $(cat "$TMP/err")"
# a sized ring moved (partly) outside RAM, or to an unaligned address: refused
check_fail ni-ring-moved-out 1 "^xnoc run: node 0: store access fault at device register 0x10001800 \(PC 0x[0-9a-f]{8}( <[^>]*>)?, instruction 0x[0-9a-f]{8}, cycle [0-9]+\): NI receive ring 0x8003fe00 \+ 1024 bytes: not 8-byte aligned or outside RAM, no trap handler$" \
    $XNOC run --topo $T --arg case=1 $FW/ni-abuse.elf
check_fail ni-ring-unaligned 1 "NI receive ring 0x8[0-9a-f]{7} \+ 1024 bytes: not 8-byte aligned or outside RAM" \
    $XNOC_ASAN run --topo $T --arg case=2 $FW/ni-abuse.elf

# flits lost or duplicated at a node's ejection (XNOC_TEST_DROP / _DUP, flow
# control intact) are reported as what they are, naming node, channel, VC,
# sender, tag and cycle; never as a stall, never past --max-cycles
ab() { $XNOC run --topo $T --arg case=0 $FW/ni-abuse.elf; }
XNOC_TEST_DROP=1:5 check_fail drop-data 1 "^xnoc run: network interface of node 1: channel 0 VC [0-9]: the message from terminal 0 \(tag 3\) ended after 248 of its 256 bytes: a flit was lost \(cycle [0-9]+\)$" ab
XNOC_TEST_DUP=1:5 check_fail dup-data 1 "^xnoc run: network interface of node 1: channel 0 VC [0-9]: the message from terminal 0 \(tag 3\) has more data flits than its 256 bytes: a flit was duplicated \(cycle [0-9]+\)$" ab
# a credit for an injection VC buffer that is already free (the router never
# returned it: an RTL fault) is refused by the terminal's credit counters
# (net/endpoint.c), in the NI and in the traffic terminal alike
XNOC_TEST_SPURIOUS_INJ_CREDIT=1 check_fail ni-refuses-spurious-credit 1 "^xnoc run: network interface of node 0: channel 0: the router returned a credit for VC 0 it did not owe \(2 VCs of 8 flits\) \(cycle 0\)$" ab
j=$(XNOC_TEST_SPURIOUS_INJ_CREDIT=1 $XNOC traffic --topo $T --rate 0.1 --cycles 200 --json 2>/dev/null)
jcheck traffic-refuses-spurious-credit "$j" '.errors==1 and .first_error=="cycle 0: credit overflow on injection channel 0 VC 0" and .error_kinds.corrupted==1'
XNOC_TEST_DROP=1:0 check_fail drop-head 1 "node 1: channel 0 VC [0-9]: a body flit without a head: the head was lost, or a tail duplicated" ab
XNOC_TEST_DUP=1:0 check_fail dup-head 1 "node 1: channel 0 VC [0-9]: a head flit arrived right after another head: a flit was lost or duplicated" ab
XNOC_TEST_DROP=1:33 check_fail drop-tail 1 "^xnoc run: network interface of node 1: channel 0 VC [0-9]: the message from terminal 0 \(tag 3\) stopped after 248 of its 256 bytes and the network is empty: its last flit\(s\) were lost \(cycle [0-9]+\)$" ab
XNOC_TEST_DUP=1:33 check_fail dup-tail 1 "node 1: channel 0 VC [0-9]: a body flit without a head: the head was lost, or a tail duplicated" ab
j=$(XNOC_TEST_DROP=1:5 $XNOC run --json --topo $T --arg case=0 $FW/ni-abuse.elf 2>/dev/null)
jcheck drop-json "$j" '.ok==false and (.error | test("a flit was lost"))'
# in a collective: the same, through the posted-receive path
XNOC_TEST_DROP=5:40 check_fail drop-collective 1 "^xnoc collective: network interface of node 5: channel 0 VC [0-9]: " \
    $XNOC collective --topo fat-octagon --op alltoall --bytes 64
j=$(XNOC_TEST_DUP=5:40 $XNOC collective --json --topo fat-octagon --op alltoall --bytes 64 2>/dev/null)
jcheck dup-collective-json "$j" '.verified==false and (.error | test("node 5"))'

# the synthetic-traffic checker: a corrupted, a lost and a duplicated flit
# each reported as what it is, naming packet, source, destination and cycle
tr() { $XNOC traffic --topo mesh:4x4 --pattern uniform --rate 0.2 --packet 4 --cycles 2000 --warmup 200 "$@"; }
XNOC_TEST_CORRUPT=5:75 check_fail traffic-corrupt 1 "^xnoc traffic: 1 error\(s\); first: cycle [0-9]+: packet [0-9]+#[0-9]+ \([0-9]+ -> 5\) flit 1 corrupted at terminal 5$" tr
XNOC_TEST_DROP=5:10 check_fail traffic-drop-body 1 "^xnoc traffic: 1 error\(s\); first: cycle [0-9]+: packet [0-9]+#[0-9]+ \([0-9]+ -> 5\): flit 2 of 4 lost \(a later flit arrived first\)$" tr
XNOC_TEST_DROP=5:8 check_fail traffic-drop-head 1 "packet [0-9]+#[0-9]+ \([0-9]+ -> 5\): flit 0 of 4 lost \(a later flit arrived without them\)$" tr
XNOC_TEST_DROP=5:11 check_fail traffic-drop-tail 1 "packet [0-9]+#[0-9]+ \([0-9]+ -> 5\): flit 3 of 4 lost \(the next packet's head arrived first\)$" tr
XNOC_TEST_DUP=5:10 check_fail traffic-dup-body 1 "^xnoc traffic: 1 error\(s\); first: cycle [0-9]+: packet [0-9]+#[0-9]+ \([0-9]+ -> 5\): flit 2 delivered twice at terminal 5$" tr
XNOC_TEST_DUP=5:8 check_fail traffic-dup-head 1 "packet [0-9]+#[0-9]+ \([0-9]+ -> 5\): head delivered twice at terminal 5 VC [0-9]$" tr
XNOC_TEST_DUP=5:11 check_fail traffic-dup-tail 1 "packet [0-9]+#[0-9]+ \([0-9]+ -> 5\): tail flit delivered twice at terminal 5 VC [0-9]$" tr
# the last flit lost with nothing behind it: found once the network is empty, not a stall
XNOC_TEST_DROP=0:1 check_fail traffic-drop-last 1 "packet 1#1 \(1 -> 0\): flit 0 of 1 lost \(never arrived, and the network is empty\)$" \
    $XNOC traffic --topo mesh:2x2 --pattern incast --sources 1 --rate 0.01 --packet 1 --cycles 500 --warmup 0
j=$(XNOC_TEST_DROP=5:10 tr --json 2>/dev/null)
jcheck traffic-drop-json "$j" '.errors==1 and .error_kinds.lost==1 and (.first_error|test("lost"))'
j=$(XNOC_TEST_DUP=5:10 tr --json 2>/dev/null)
jcheck traffic-dup-json "$j" '.errors==1 and .error_kinds.duplicated==1'
j=$(XNOC_TEST_CORRUPT=5:75 tr --json 2>/dev/null)
jcheck traffic-corrupt-json "$j" '.errors==1 and .error_kinds.corrupted==1'
j=$(XNOC_TEST_DROP=5:10 $XNOC_ASAN traffic --topo mesh:4x4 --pattern uniform --rate 0.2 --packet 4 --cycles 2000 --warmup 200 --json 2>/dev/null)
jcheck traffic-drop-asan "$j" '.errors==1 and .error_kinds.lost==1'

# ---- small defects, each refused with one line ----
cp schedules/octagon-bcast-k1.json "$TMP/s.json"
jq '.ports=4294967297' "$TMP/s.json" > "$TMP/b.json"
check_fail sched-ports-wrap 2 '"ports" 4294967297 is out of range 1..16' $XNOC sched --verify "$TMP/b.json"
jq '.steps[0].transfers[0].src=99999999999' "$TMP/s.json" > "$TMP/b.json"
check_fail sched-src-range 1 'step 0 transfer 0: src 99999999999 is out of range 0..7' $XNOC sched --verify "$TMP/b.json"
jq '.steps[0].transfers[0].chan=4294967297' "$TMP/s.json" > "$TMP/b.json"
check_fail sched-chan-range 1 'step 0 transfer 0: chan 4294967297 is out of range 0..0' $XNOC sched --verify "$TMP/b.json"
jq '.messages[0].origin="a"' "$TMP/s.json" > "$TMP/b.json"
check_fail sched-msg-type 2 'message 0: needs an integer "origin" and an integer or null "dest"' $XNOC sched --verify "$TMP/b.json"
jq '.from=[range(0;3000)|0]' "$TMP/s.json" > "$TMP/b.json"
check_fail sched-long-set 2 '"from" lists 3000 entries for 8 terminals' $XNOC sched --verify "$TMP/b.json"
# the detour allowance is recorded, and --verify holds routes to it
$XNOC sched --topo mesh:4x4 --op mns --from 0 --to 4 -o "$TMP/d.json" >/dev/null
jcheck sched-detour-recorded "$(cat "$TMP/d.json")" '.detour==0'
jq '.steps[0].transfers[0].route=[0,2,1,4]' "$TMP/d.json" > "$TMP/b.json"
check_fail sched-detour-checked 1 'step 0: transfer 0 -> 4 crosses 3 links, more than the minimal 1 \+ detour 0' $XNOC sched --verify "$TMP/b.json"
jq 'del(.detour) | .steps[0].transfers[0].route=[0,2,1,4]' "$TMP/d.json" > "$TMP/b.json"
check sched-detour-unknown $XNOC sched --verify "$TMP/b.json"
# --schedule takes topology, op and sets from the file
check_fail schedule-topo-mismatch 2 "--schedule .* is for octagon \(k=1\), not --topo mesh:4x4 \(k=1\)" \
    $XNOC collective --schedule schedules/octagon-bcast-k1.json --topo mesh:4x4
check_fail schedule-op-mismatch 2 "--schedule .* is a bcast, not --op alltoall" \
    $XNOC collective --schedule schedules/octagon-bcast-k1.json --op alltoall
check_fail schedule-sets 2 "the sets come from the file" \
    $XNOC collective --schedule schedules/octagon-bcast-k1.json --from 0
# traffic
check_fail traffic-cycles-wrap 2 "--cycles 18446744073709551615: at most 10\^12" \
    $XNOC traffic --topo mesh:4x4 --pattern uniform --cycles 18446744073709551615
check_fail traffic-nothing-to-send 2 "--pattern incast --sources 0: no source has another terminal to send to" \
    $XNOC traffic --topo mesh:4x4 --pattern incast --sources 0
j=$($XNOC traffic --json --topo mesh:4x4 --pattern uniform --rate 0.9 --packet 4 --cycles 1000 --drain 100 2>/dev/null)
jcheck traffic-saturated-counts "$j" '.saturated==true and .drain_timed_out==true and .errors==0 and .injected_packets==.delivered_packets and .created_packets>=.injected_packets'
# topology strings: no spaces, no signs
for sp in "mesh: 4x 4" "mesh:4x 4" "mesh:+4x4" "mesh:4x4:c= 2"; do
    check_fail "topo-strict-${sp//[^a-z0-9]/_}" 2 "topology 'mesh:" $XNOC topo --topo "$sp"
done
# a node that never drains a flood: back-pressure (nothing dropped), then the
# watchdog names the deadlock (a router holding flits, every node waiting) long
# before --max-cycles
check_fail flood-undrained 1 "^xnoc run: deadlock at cycle [0-9]+: no flit moved for [0-9]+ cycles; router [0-9]+ port [0-9]+ \([a-z+-]+\) VC [0-9] holds [0-9]+ flit\(s\); every node waits: node 0 is waiting at the barrier at PC 0x8[0-9a-f]{7} <barrier\+0x[0-9a-f]+ runtime\.c:[0-9]+> \(its NI holds [0-9]+ message\(s\) (\(source [0-9]+, tag [0-9]+, 200 bytes\)(, )?)+ for room in its full 1024-byte receive ring; its receive ring holds [0-9]+ unread message\(s\).*\); nodes? [0-9, -]+ (is|are) waiting for its send channel" \
    $XNOC run --topo $T --arg case=3 $FW/ni-abuse.elf
# saturated means accepted short of offered (beyond noise), not only a drain time-out
j=$($XNOC traffic --json --topo mesh:4x4 --pattern uniform --rate 0.9 --packet 4 --cycles 5000 2>/dev/null)
jcheck saturated-accepted "$j" '.saturated==true and .drain_timed_out==false and .throughput < 0.8'
j=$($XNOC traffic --json --topo mesh:4x4 --pattern uniform --rate 0.3 --packet 4 --cycles 5000 2>/dev/null)
jcheck not-saturated "$j" '.saturated==false and .drain_timed_out==false'
# firmware that forgot noc_init(): the stall line says what the NI holds
check_fail no-ring-hint 1 "^xnoc run: stall at cycle [0-9]+: .*node 0 is waiting for a packet at PC 0x8[0-9a-f]{7} <noc_recv\+0x[0-9a-f]+ noc\.c:[0-9]+> \(its NI holds [0-9]+ message\(s\) (\(source [0-9]+, tag 1, 4 bytes\)(, )?)+ and no receive ring: noc_init\(\) not called\?\)$" \
    $XNOC run --topo mesh:2x2 $FW/no-ring.elf
# firmware faults: one line naming node, address, PC (with its symbol), cycle
check_fail jump-unmapped 1 "^xnoc run: node 2: instruction access fault at address 0x40000000 \(PC 0x40000000, instruction 0x00000000, cycle [0-9]+\): outside RAM and devices, no trap handler$" \
    $XNOC run --topo $T --arg case=4 $FW/ni-abuse.elf
check_fail store-outside-ram 1 "^xnoc run: node 2: store access fault at address 0x40000010 \(PC 0x8[0-9a-f]{7} <main\+0x[0-9a-f]+ [a-z-]+\.c:[0-9]+>, instruction 0x[0-9a-f]{8}, cycle [0-9]+\): outside RAM and devices, no trap handler$" \
    $XNOC run --topo $T --arg case=5 $FW/ni-abuse.elf
# self-modifying code: a store into code is seen by the core (its decode cache follows)
j=$($XNOC run --json --topo $T --arg case=6 $FW/ni-abuse.elf 2>/dev/null)
jcheck store-into-code "$j" '.ok==true'
# ... and so is the NI decode engine's write into code (issue 46: the core
# ran the stale decoded instruction, "patched() 0 before, 0 after")
j=$($XNOC run --json --topo $T --arg case=10 $FW/ni-abuse.elf 2>"$TMP/err")
jcheck dec-engine-into-code "$j" '.ok==true and .exit_codes==[0,0,0,0,0,0,0,0]'
grep -qx "\[node 2\] ni-abuse: patched() 0 before, 7 after the decode engine's write" "$TMP/err" && ok dec-engine-into-code-line || fail dec-engine-into-code-line "$(cat "$TMP/err")"
j=$($XNOC_ASAN run --json --topo $T --arg case=10 $FW/ni-abuse.elf 2>/dev/null)
jcheck dec-engine-into-code-asan "$j" '.ok==true'

# ---- files users share cannot choose where xnoc writes (issue 46): the
# options that write files are read from each command's --help (value word
# DIR or F.ext); walk every option there with a file-like value: a writer is
# refused in a sweep spec and (where the command takes --config) in a config
# file, against a file outside the folder that stays unchanged; anything
# else file-like must be one of the known inputs, so a new writing option
# cannot slip past unclassified
W=$TMP/share
mkdir -p "$W/in"
echo original > "$W/victim.txt"
XA=$PWD/$XNOC
inputs=" config config-lenient schedule verify "
unchanged() { [ "$(cat "$W/victim.txt")" = original ] && [ -z "$(ls "$W/in")" ] && ok "$1" || fail "$1" "../victim.txt or the folder changed"; }
nwriters=0
for c in traffic run collective sched qcdoc ncmodel; do
    help=$($XNOC $c --help)
    while read -r o v; do
        k=${o#--}
        case $v in
        DIR | F.*) ;;
        F | FILE | *FILE* | *DIR* | *.*)
            [[ $inputs == *" $k "* ]] && ok "input-$c-$k" || fail "unclassified-$c-$k" "$o $v: file-like, neither DIR/F.ext (written) nor a known input"
            continue ;;
        *) continue ;;
        esac
        nwriters=$((nwriters + 1))
        printf '{"command":"%s","fixed":{"%s":"../victim.txt"},"axes":{"seed":[1]},"metrics":["x"]}' "$c" "$k" > "$W/s.json"
        (cd "$W/in" && check_fail "spec-refuses-$c-$k" 2 "^xnoc sweep: \.\./s\.json: fixed: '$k' writes files: a sweep spec cannot choose where xnoc writes \(not in a sweep\)$" "$XA" sweep ../s.json --out o)
        unchanged "spec-unchanged-$c-$k"
        [[ $help == *"--config F"* ]] || continue
        printf 'topo = mesh:2x2\n%s = ../victim.txt\n' "${k//-/_}" > "$W/c.cfg"
        (cd "$W/in" && check_fail "config-refuses-$c-$k" 2 "^xnoc $c: \.\./c\.cfg:2: '${k//-/_}' writes files: a config file cannot choose where xnoc writes \(give --$k on the command line\)$" "$XA" $c --config ../c.cfg)
        unchanged "config-unchanged-$c-$k"
    done < <(printf '%s\n' "$help" | grep -oE '(^|[ ;(])--[a-z0-9-]+ [A-Za-z][A-Za-z0-9._|]*' | sed -E 's/^[ ;(]//' | sort -u)
done
# the walk found the writers the help lists today (histogram, trace, frames,
# heatmap, events, console-dir, ship): 14 command/option pairs
[ $nwriters = 14 ] && ok writers-found || fail writers-found "$nwriters writing options, expected 14"
# the issue's spec and config file, as written there
cat > "$W/issue.json" <<'SPEC'
{"command":"traffic","fixed":{"topo":"mesh:2x2","cycles":200,"histogram":"../victim.txt"},"axes":{"rate":[0.1]},"metrics":["offered"]}
SPEC
(cd "$W/in" && check_fail issue-spec 2 "^xnoc sweep: \.\./issue\.json: fixed: 'histogram' writes files" "$XA" sweep ../issue.json --out o)
unchanged issue-spec-unchanged
printf 'histogram = ../victim.txt\n' > "$W/issue.cfg"
(cd "$W/in" && check_fail issue-config 2 "^xnoc traffic: \.\./issue\.cfg:1: 'histogram' writes files" "$XA" traffic --topo mesh:2x2 --cycles 200 --config ../issue.cfg)
unchanged issue-config-unchanged
# the same option on the command line writes (the refusal is about who says so)
(cd "$W/in" && "$XA" traffic --topo mesh:2x2 --cycles 200 --warmup 0 --histogram h.csv >/dev/null 2>&1)
[ "$(head -1 "$W/in/h.csv")" = "bin,count,network,queueing" ] && ok histogram-command-line || fail histogram-command-line "$(head -2 "$W/in/h.csv")"
rm -f "$W/in/h.csv"
# key = false writes nothing and is still accepted
printf 'topo = mesh:2x2\ncycles = 100\nhistogram = false\n' > "$W/f.cfg"
check config-false-writer "$XA" traffic --config "$W/f.cfg"

# ---- traffic --json when the watchdog stops a run (issue 46): the partial
# report, ok false, the error and its kind, and every statistic up to the
# stall (the line of tests/net.t.sh's watchdog case, its exact figures)
j=$(XNOC_TEST_NO_EJECT_CREDIT=1 $XNOC traffic --json --topo mesh:2x2 --pattern uniform --rate 0.5 --packet 2 --cycles 5000 2>"$TMP/err"); rc=$?
jcheck traffic-stall-json "$j" '.ok==false and .error_kind=="deadlock" and .error=="deadlock at cycle 2130: no flit moved for 2001 cycles with 182 in flight; router 0 port 0 (+x) VC 0 holds 8 flit(s)" and .cycles==2131 and .delivered_packets==32 and .errors==0'
[ $rc = 1 ] && [ "$(cat "$TMP/err")" = "xnoc traffic: deadlock at cycle 2130: no flit moved for 2001 cycles with 182 in flight; router 0 port 0 (+x) VC 0 holds 8 flit(s)" ] &&
    ok traffic-stall-json-line || fail traffic-stall-json-line "exit $rc: $(cat "$TMP/err")"
j=$($XNOC traffic --json --topo mesh:2x2 --rate 0.1 --cycles 300 2>/dev/null)
jcheck traffic-ok-json "$j" '.ok==true and (has("error")|not) and (has("error_kind")|not)'
# a coding group that timed out at its unit is a unit_timeout, not an RTL
# invariant: 32-flit background packets at rate 1 hold a contribution at its
# source past --router timeout=100
j=$($XNOC traffic --json --topo mesh:2x2 --router timeout=100 --coding 0.05 --rate 1 --packet 32 --cycles 2000 --warmup 100 2>/dev/null)
jcheck unit-timeout-kind "$j" '.ok==false and .errors==1 and .error_kinds.unit_timeout==true and .error_kinds.rtl_invariant==false and (.first_error|test("incomplete at the time-out"))'

# ---- no output lost silently (issue 46): a write error (here /dev/full, or
# a file of the output folder linked to it) is one line naming the file and
# the reason, exit 1; the same commands to a good file exit 0
full() { "$@" > /dev/full; }
nospc="No space left on device"
check_fail full-traffic-json 1 "^xnoc traffic: writing the report to standard output: $nospc$" full $XNOC traffic --topo mesh:2x2 --cycles 200 --json
check_fail full-traffic-text 1 "^xnoc traffic: writing the report to standard output: $nospc$" full $XNOC traffic --topo mesh:2x2 --cycles 200
mkdir -p "$TMP/con-ok"
check_fail full-run-json 1 "^xnoc run: writing the report to standard output: $nospc$" full $XNOC run --topo mesh:2x2 --json --console-dir "$TMP/con-ok" $FW/hello.elf
check_fail full-collective-json 1 "^xnoc collective: writing the report to standard output: $nospc$" full $XNOC collective --topo mesh:2x2 --op bcast --bytes 64 --algo tree --json
check_fail full-topo 1 "^xnoc topo: writing the report to standard output: $nospc$" full $XNOC topo --topo mesh:4x4
check_fail full-run-events 1 "^xnoc run: --events /dev/full: $nospc$" $XNOC run --topo mesh:2x2 --events /dev/full $FW/hello.elf
check_fail full-collective-events 1 "^xnoc collective: --events /dev/full: $nospc$" $XNOC collective --topo mesh:2x2 --op bcast --bytes 64 --algo tree --events /dev/full
check_fail full-histogram 1 "^xnoc traffic: --histogram /dev/full: $nospc$" $XNOC traffic --topo mesh:2x2 --cycles 200 --histogram /dev/full
check_fail full-sched-o 1 "^xnoc sched: -o /dev/full: $nospc$" $XNOC sched --topo octagon --op bcast -o /dev/full
O=$TMP/outs
mkdir -p "$O/con" "$O/frames" "$O/clos"
ln -s /dev/full "$O/con/node1.txt"
check_fail full-console-dir 1 "^xnoc run: --console-dir $O/con/node1.txt: $nospc$" $XNOC run --topo mesh:2x2 --console-dir "$O/con" $FW/hello.elf
[ "$(cat "$O/con/node0.txt")" != "" ] && ok full-console-dir-others || fail full-console-dir-others "node0.txt is empty"
ln -s /dev/full "$O/h.png"
ln -s /dev/full "$O/h.svg"
check_fail full-heatmap-png 1 "^xnoc traffic: view: cannot write $O/h\.png: $nospc$" $XNOC traffic --topo mesh:2x2 --cycles 200 --heatmap "$O/h.png"
check_fail full-heatmap-svg 1 "^xnoc traffic: view: cannot write $O/h\.svg: $nospc$" $XNOC traffic --topo mesh:2x2 --cycles 200 --heatmap "$O/h.svg"
check_fail full-heatmap-run 1 "^xnoc run: view: cannot write $O/h\.png: $nospc$" $XNOC run --topo mesh:2x2 --heatmap "$O/h.png" $FW/hello.elf
ln -s /dev/full "$O/frames/frame_000000.png"
check_fail full-frames 1 "^xnoc traffic: view: cannot write $O/frames/frame_000000\.png: $nospc$" $XNOC traffic --topo mesh:2x2 --cycles 200 --frames "$O/frames"
ln -s /dev/full "$O/clos/clos-sweep.csv"
check_fail full-clos-out 1 "^xnoc clos: --out $O/clos/clos-sweep\.csv: $nospc$" $XNOC clos --sweep-m --n 2 --r 4 --requests 50 --m-from 2 --m-to 3 --out "$O/clos"
# the same outputs to good files: exit 0, every file there
check full-good-outputs $XNOC traffic --topo mesh:2x2 --cycles 200 --json --histogram "$O/g.csv" --heatmap "$O/g.png"
check full-good-sched $XNOC sched --topo octagon --op bcast -o "$O/g.json"
[ -s "$O/g.csv" ] && [ -s "$O/g.png" ] && jq -e .steps "$O/g.json" >/dev/null && ok full-good-files || fail full-good-files "$(ls -la "$O")"

# ---- the low items of issue 46
# --router: a key twice, an empty item, a value in hex: refused
check_fail router-key-twice 2 "^xnoc traffic: --router 'vcs=2,buf=4,vcs=4': 'vcs' is given twice$" $XNOC traffic --topo mesh:2x2 --router vcs=2,buf=4,vcs=4
check_fail router-empty-item 2 "^xnoc traffic: --router 'vcs=2,,buf=4': an empty item \(a comma at an end, or two in a row\)$" $XNOC traffic --topo mesh:2x2 --router vcs=2,,buf=4
check_fail router-trailing-comma 2 "^xnoc traffic: --router 'vcs=2,': an empty item" $XNOC traffic --topo mesh:2x2 --router vcs=2,
check_fail router-leading-comma 2 "^xnoc traffic: --router ',vcs=2': an empty item" $XNOC traffic --topo mesh:2x2 --router ,vcs=2
check_fail router-hex 2 "^xnoc traffic: --router: buf='0x8': write the value in decimal$" $XNOC traffic --topo mesh:2x2 --router buf=0x8
j=$($XNOC traffic --json --topo mesh:2x2 --cycles 100 --router vcs=2 --router buf=8 2>/dev/null)
jcheck router-twice-options "$j" '.router.vcs==2 and .router.buf==8'
# the ring or the guard moved onto the dst of a queued decode descriptor: refused
check_fail dec-ring-onto-queued 1 "^xnoc run: node 0: store access fault at device register 0x[0-9a-f]{8} \(PC 0x[0-9a-f]{8}( <[^>]*>)?, instruction 0x[0-9a-f]{8}, cycle [0-9]+\): NI receive ring 0x8[0-9a-f]{7} \+ 1024 bytes overlaps dst 0x8[0-9a-f]{7} \+ 64 bytes of a queued decode descriptor \(list 0, descriptor [0-2]\): the engine has not written it, no trap handler$" \
    $XNOC run --topo $T --arg case=14 $FW/nc-decode.elf
check_fail dec-guard-onto-queued 1 "^xnoc run: node 0: store access fault at device register 0x[0-9a-f]{8} .*: NI guarded region 0x8[0-9a-f]{7}\.\.0x8[0-9a-f]{7} \(GUARD_LO\.\.GUARD_HI\) overlaps dst 0x8[0-9a-f]{7} \+ 64 bytes of a queued decode descriptor \(list 0, descriptor 2\): the engine has not written it, no trap handler$" \
    $XNOC_ASAN run --topo $T --arg case=15 $FW/nc-decode.elf
# sweep --task runs only a sweep's point, with this xnoc: a jobs file that
# names another program, another command or a writing option is refused
J=$TMP/jobs
mkdir -p "$J/points"
printf '%s\n' '{"id":"a","argv":["/bin/touch","'"$J"'/pwned"]}' \
    '{"id":"b","argv":["xnoc","sched","--json","--topo","octagon","--op","bcast","--ship","'"$J"'/ship"]}' \
    '{"id":"c","argv":["/bin/sh","topo","--json","--topo","mesh:2x2"]}' \
    '{"id":"d","argv":["/bin/sh","sched","--json","--topo","octagon","--op","bcast"]}' > "$J/jobs.jsonl"
check_fail task-other-program 2 "^xnoc sweep: --task $J/jobs\.jsonl 1: not a sweep point \(xnoc COMMAND --json \.\.\.\): not run$" $XNOC sweep --task "$J/jobs.jsonl" 1
check_fail task-writing-option 2 "^xnoc sweep: --task $J/jobs\.jsonl 2: '--ship' writes files: a jobs file cannot choose where xnoc writes$" $XNOC sweep --task "$J/jobs.jsonl" 2
check_fail task-other-command 2 "not a sweep point" $XNOC sweep --task "$J/jobs.jsonl" 3
[ ! -e "$J/pwned" ] && [ ! -e "$J/ship" ] && ok task-nothing-run || fail task-nothing-run "$(ls "$J")"
# a point whose argv[0] names another program runs this xnoc (no sweep holds the lock: not kept, exit 1)
$XNOC sweep --task "$J/jobs.jsonl" 4 >/dev/null 2>"$TMP/err"; rc=$?
[ $rc = 1 ] && grep -q "report not kept" "$TMP/err" && ok task-runs-xnoc || fail task-runs-xnoc "exit $rc: $(cat "$TMP/err")"
# sched refuses an oversized collective as fast under ASan (the messages
# array grew one element at a time: > 5 minutes; the budget is generous)
check_fail sched-too-big-asan 2 "^xnoc sched: alltoall on mesh:32x32: alltoall needs 1047552 \(receiver, message\) deliveries; xnoc sched schedules at most 200000$" \
    timeout 120 $XNOC_ASAN sched --topo mesh:32x32 --op alltoall
