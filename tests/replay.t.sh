#!/usr/bin/env bash
# tests/replay.t.sh - xnoc replay: an --events file's link traffic again,
# without simulating (sim_harness/cmd/replay.c, replay_events.c).  A real
# file's numbers equal the run's own counters; a hostile file (shared event
# logs are untrusted input) ends within a memory limit and a step budget, or
# is refused with one line naming file:line and the field, exit status 2.
source "$(dirname "$0")/lib.sh"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
HAVE_VIEW=0; pkg-config --exists sdl2 SDL2_ttf SDL2_image && HAVE_VIEW=1

# ---- a real file: per-link totals = the routers' link counters of the run, in the topology's link order
cj=$($XNOC collective --topo octagon --op alltoall --bytes 64 --events "$TMP/rev.jsonl" --json 2>/dev/null)
rj=$($XNOC replay "$TMP/rev.jsonl" --json)
jcheck replay-links-equal-counters "$(jq -nc --argjson c "$cj" --argjson r "$rj" '{c: $c, r: $r}')" \
    '.r.links == [.c.links[] | select(.kind=="link") | .flits] and .r.link_flits == .c.link_flits and
     .r.hops == .c.hops and .r.packets == 56 and .r.inject_flits == .r.eject_flits and .r.incomplete == 0'
# the text report is the JSON report rendered (util/report.h): the figures agree
rt=$($XNOC replay "$TMP/rev.jsonl")
want=$(printf '%s' "$rj" | jq -r '"\(.packets) \(.hops) \(.inject_flits) \(.link_flits) \(.eject_flits) \(.busiest_link.link) \(.busiest_link.flits)"')
got=$(printf '%s\n' "$rt" | awk '/ packets \(/ {p=$3; h=$9} /^flits:/ {i=$2; l=$4; e=$8} /^busiest link:/ {b=$3; f=$10} END {print p, h+0, i, l, e, b, f}')
[ "$want" = "$got" ] && ok replay-text-from-json || fail replay-text-from-json "json: $want text: $got"
check replay-help $XNOC replay --help

# ---- failure paths: one line naming the file and line (and the field)
H='{"cycle":0,"event":"network","topo":"octagon","ports":1,"vcs":2,"ncu":1}'
hop() {   # hop CYCLE TAIL FLITS [PORT [VC]]: a hop line on router 0
    printf '{"cycle":%s,"event":"hop","router":0,"port":%s,"vc":%s,"dst":1,"src":0,"tag":0,"flits":%s,"tail_cycle":%s}\n' \
        "$1" "${4:-0}" "${5:-0}" "$3" "$2"
}
bad() {   # bad NAME REGEX LINES...: a file of the network line and LINES must be refused
    local name=$1 re=$2; shift 2
    { echo "$H"; printf '%s\n' "$@"; } >"$TMP/$name.jsonl"
    check_fail "replay-$name" 2 "$name.jsonl:$re" $XNOC replay "$TMP/$name.jsonl"
}
printf '%s\nnot json\n' "$H" >"$TMP/bad1.jsonl"
check_fail replay-bad-json 2 "bad1.jsonl:2: not a JSON object" $XNOC replay "$TMP/bad1.jsonl"
grep '"event":"hop"' "$TMP/rev.jsonl" | head -1 >"$TMP/bad2.jsonl"
check_fail replay-no-network 2 "bad2.jsonl:1: a packet before the network line" $XNOC replay "$TMP/bad2.jsonl"
{ head -1 "$TMP/rev.jsonl"; grep '"event":"hop"' "$TMP/rev.jsonl" | head -1 | sed 's/"router":[0-9]*/"router":99/'; } >"$TMP/bad3.jsonl"
check_fail replay-bad-router 2 'bad3.jsonl:2: "router" must be an integer in 0..7' $XNOC replay "$TMP/bad3.jsonl"
bad unknown-event "2: unknown event 'teleport' \(network, send, inject, hop, eject, deliver\)" '{"cycle":1,"event":"teleport"}'
bad event-newline "2: unknown event 'tele\?port'" '{"cycle":1,"event":"tele\nport"}'
check_fail replay-topo-mismatch 2 "the events are of octagon, not of --topo mesh:2x2" $XNOC replay "$TMP/rev.jsonl" --topo mesh:2x2
check_fail replay-missing 2 "/nonexistent.jsonl: No such file or directory" $XNOC replay /nonexistent.jsonl
: >"$TMP/empty.jsonl"
check_fail replay-empty 2 "no network line" $XNOC replay "$TMP/empty.jsonl"
# every field against the network line and the documented limits (docs/view.md)
bad flits-2e30 '2: "flits" must be an integer in 1..8195' "$(hop 5 6 1073741824)"
bad flits-0 '2: "flits" must be an integer in 1..8195' "$(hop 5 6 0)"
bad cycle-2e48 '2: "cycle" must be an integer in 0..281474976710655' "$(hop 281474976710656 281474976710657 2)"
bad cycle-negative '2: "cycle" must be an integer in 0..281474976710655' "$(hop -1 2 2)"
bad cycle-string '2: "cycle" must be an integer' "$(hop '"5"' 9 2)"
bad tail-before '2: "tail_cycle" must be an integer in 14..281474976710655 or null \(10 flits from cycle 5\)' "$(hop 5 13 10)"
bad tail-2e48 '2: "tail_cycle" must be an integer in 14..281474976710655' "$(hop 5 281474976710656 10)"
bad tail-string '2: "tail_cycle" must be an integer in 14..' "$(hop 5 '"x"' 10)"
bad vc-of-vcs '2: "vc" must be an integer in 0..1' "$(hop 5 14 10 0 2)"
bad port-no-link '2: router 0 has no link at port 3 in octagon' "$(hop 5 14 10 3)"
bad next-wrong '2: "next" must be an integer in 1..1' "$(hop 5 14 10 | sed 's/"dst"/"next":4,"dst"/')"
# one packet at a time on a channel's VC: the later line is named, with the packet it overlaps
bad overlap "3: \"cycle\" 14..30 overlaps the packet of line 2 \(5..14\) on this channel's vc 0" "$(hop 5 14 10)" "$(hop 14 30 10)"
{ echo "$H"; hop 5 14 10; hop 14 30 10 0 1; hop 15 30 10 1 0; } >"$TMP/vcs.jsonl"
check replay-other-vc-other-port $XNOC replay "$TMP/vcs.jsonl"
printf '{"cycle":0,"event":"network","topo":"octagon","ports":1}\n' >"$TMP/novcs.jsonl"
check_fail replay-network-no-vcs 2 'novcs.jsonl:1: "vcs" must be an integer in 1..8' $XNOC replay "$TMP/novcs.jsonl"
printf '{"cycle":0,"event":"network","topo":"octagon","ports":99,"vcs":2}\n' >"$TMP/ports.jsonl"
check_fail replay-network-ports 2 'ports.jsonl:1: "ports" must be an integer in 1..16' $XNOC replay "$TMP/ports.jsonl"

# ---- a sparse file: exact numbers, whatever the gap
{ echo "$H"; hop 5 1099511627780 8000; hop 1099511627776 2199023255552 8000 1; hop 2199023255553 2199023255553 1; } >"$TMP/sparse.jsonl"
jcheck replay-sparse-numbers "$($XNOC replay "$TMP/sparse.jsonl" --json)" \
    '.first_cycle == 5 and .last_cycle == 2199023255553 and .links[0:2] == [8001, 8000] and .link_flits == 16001 and .hops == 3'
# a file with no packets at all
echo "$H" >"$TMP/none.jsonl"
jcheck replay-no-packets "$($XNOC replay "$TMP/none.jsonl" --json)" '.first_cycle == 0 and .last_cycle == 0 and .link_flits == 0'

if [ $HAVE_VIEW = 0 ]; then
    echo "# SDL2, SDL2_ttf or SDL2_image missing: the replay's pictures are not tested"
    exit 0
fi

# ---- pictures of a real file
$XNOC replay "$TMP/rev.jsonl" --heatmap "$TMP/rev.svg" --heat-labels --heat-max 1 >/dev/null 2>&1
# the replayed heatmap averages over the same traffic window as the run's own (first inject .. last eject)
$XNOC collective --topo octagon --op alltoall --bytes 64 --heatmap "$TMP/orig.svg" --heat-labels --heat-max 1 >/dev/null 2>&1
w1=$(grep -o 'over cycles [0-9]*-[0-9]*' "$TMP/rev.svg"); w2=$(grep -o 'over cycles [0-9]*-[0-9]*' "$TMP/orig.svg")
[ -n "$w1" ] && [ "$w1" = "$w2" ] && ok replay-heatmap-window || fail replay-heatmap-window "'$w1' vs '$w2'"
# and shows the same per-link values
v1=$(grep -o '>[0-9.]*</text>' "$TMP/rev.svg" | sort | tr -d '\n'); v2=$(grep -o '>[0-9.]*</text>' "$TMP/orig.svg" | sort | tr -d '\n')
[ -n "$v1" ] && [ "$v1" = "$v2" ] && ok replay-heatmap-values || fail replay-heatmap-values "labels differ"
# frames: one at the first flit's cycle and every 37 cycles up to the last flit's + 1, then the end
$XNOC replay "$TMP/rev.jsonl" --frames "$TMP/rf" --frame-every 37 >/dev/null 2>&1
n=$(find "$TMP/rf" -name 'frame_*.png' | wc -l)
want=$(printf '%s' "$rj" | jq '(.last_cycle + 1 - .first_cycle) / 37 | floor + 2')
[ "$n" = "$want" ] && ok replay-frames-count || fail replay-frames-count "$n frames, not $want"

# ---- hostile files: within 400 MB of address space (the old reader took 16 bytes per flit named:
# 1.3 GB for amp.jsonl) and a generous time-out (the work is the file's lines, not its cycles)
limited() { ( ulimit -v 400000; timeout 60 "$@" ); }
hostile() {   # hostile NAME FILE ARGS...: exits 0 within the limits; stdout in $TMP/NAME.out
    local name=$1; shift
    limited "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    local rc=$?
    [ $rc = 0 ] && ok "$name" || fail "$name" "exit $rc: $(head -2 "$TMP/$name.err")"
}
hostile replay-sparse-heatmap $XNOC replay "$TMP/sparse.jsonl" --heatmap "$TMP/sparse.png" --json
jcheck replay-sparse-heatmap-numbers "$(cat "$TMP/replay-sparse-heatmap.out")" '.links[0:2] == [8001, 8000] and .link_flits == 16001'
[ -s "$TMP/sparse.png" ] && ok replay-sparse-heatmap-written || fail replay-sparse-heatmap-written "no picture"
limited $XNOC replay "$TMP/flits-2e30.jsonl" --heatmap "$TMP/f.png" >/dev/null 2>&1
[ $? = 2 ] && ok replay-flits-2e30-limited || fail replay-flits-2e30-limited "not exit 2"
# 10,000 lines of 8,195 flits each, 2^30 cycles apart: 82 M flits from a 1 MB file
awk -v h="$H" 'BEGIN { print h; for (i = 0; i < 10000; i++) { c = i * 2^30
    printf "{\"cycle\":%.0f,\"event\":\"hop\",\"router\":0,\"port\":0,\"vc\":0,\"flits\":8195,\"tail_cycle\":%.0f}\n", c, c + 2^29 } }' >"$TMP/amp.jsonl"
hostile replay-amplifier $XNOC replay "$TMP/amp.jsonl" --heatmap "$TMP/amp.svg" --json
jcheck replay-amplifier-numbers "$(cat "$TMP/replay-amplifier.out")" \
    '.links[0] == 81950000 and .first_cycle == 0 and .last_cycle == 10736881369088'
# frames only where asked: 2^40 cycles at one frame every 100 would be 10^10 pictures
check_fail replay-frames-too-many 2 'sparse.jsonl: --frames would write 21990232557 frames \(cycles 5..2199023255554, one every 100\); at most 100000' \
    $XNOC replay "$TMP/sparse.jsonl" --frames "$TMP/sf"
[ ! -e "$TMP/sf" ] && ok replay-frames-too-many-no-dir || fail replay-frames-too-many-no-dir "$TMP/sf was created"
# a window of it: frames at 1099511627000 + k * 500, k = 0..3 (the window ends before the run)
hostile replay-frames-window $XNOC replay "$TMP/sparse.jsonl" --frames "$TMP/sw" --frames-window 1099511627000:1099511629000 --frame-every 500
n=$(find "$TMP/sw" -name 'frame_*.png' | wc -l)
[ "$n" = 4 ] && ok replay-frames-window-count || fail replay-frames-window-count "$n frames, not 4"
hostile replay-amplifier-frames $XNOC replay "$TMP/amp.jsonl" --frames "$TMP/aw" --frames-window 5000000000:5400000000 --frame-every 100000000
n=$(find "$TMP/aw" -name 'frame_*.png' | wc -l)
[ "$n" = 4 ] && ok replay-amplifier-frames-count || fail replay-amplifier-frames-count "$n frames, not 4"
# the live window (SDL's dummy driver) jumps over quiet stretches: four flits 2^40 cycles apart
{ echo "$H"; hop 5 1099511627780 2; hop 1099511627776 2199023255552 2 1; } >"$TMP/sparse2.jsonl"
hostile replay-sparse-live $XNOC replay "$TMP/sparse2.jsonl" --view --json
jcheck replay-sparse-live-numbers "$(cat "$TMP/replay-sparse-live.out")" '.links[0:2] == [2, 2] and .last_cycle == 2199023255552'
