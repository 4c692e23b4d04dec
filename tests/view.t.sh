#!/usr/bin/env bash
# tests/view.t.sh - the live view and its headless pictures (sim_harness/view/,
# view_none.c), driven by tests/view_test.c with synthetic samples: no RTL
# network and no display needed (SDL's dummy video driver for the window).
# The checks load the PNGs back and look at the pixels (view_test.c says which).
source "$(dirname "$0")/lib.sh"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy

# ---- a build without SDL2 (make unit builds one): every view flag is refused with one line
unit_bin VTN view_test_none || exit 0
ok view_build_without_sdl
for flag in "--view" "--frames $TMP/nf" "--frame-every 10" "--heatmap $TMP/nh.png"; do
    # shellcheck disable=SC2086
    check_fail "view_without_sdl_${flag%% *}" 2 'this build of xnoc has no view \(built without SDL2\)' \
        "$VTN" cli $flag
done
check view_without_sdl_no_flags "$VTN" cli

if ! pkg-config --exists sdl2 SDL2_ttf SDL2_image; then
    echo "# SDL2, SDL2_ttf or SDL2_image missing: the view itself is not built"
    exit 0
fi

# ---- the SDL view, plain and under ASan/UBSan (make unit)
unit_bin VT view_test || exit 1
unit_bin VTA view_test_asan || exit 1
ok view_build

vcheck() {   # vcheck NAME CASE TOPO [BINARY]
    local out
    if out=$("${4:-$VT}" check "$2" "$3" "$TMP/$1" 2>&1); then ok "$1"; else fail "$1" "$out"; fi
}

for topo in mesh:4x4 torus:4x4 octagon fat-octagon mesh:3x2:c=3; do
    tn=${topo//[:=]/_}
    vcheck "view_hot_link_$tn" links "$topo"        # hot link red, idle blue, 800x600
    vcheck "view_legend_$tn" legend "$topo"         # color scale and text in the panel
    vcheck "view_nodes_$tn" nodes "$topo"           # state colors, buffer fill, XOR/multicast badges
    vcheck "view_sequence_$tn" sequence "$topo"     # a ramp of load climbs the colormap frame by frame
    vcheck "view_heatmap_$tn" heatmap "$topo"       # whole-run picture scaled to the busiest link
done
# every topology's drawing: every link drawn (each link at its own load reads so in the
# heatmap), --heat-labels boxes that overlap nothing (no two labels, no router or terminal
# box) and no number on an idle link; the dragonfly's groups (local links inside their
# group's disc, global links curved and thinner), the n-D panels (a link of dimension d
# inside panel d)
for topo in mesh:4x4 torus:4x4 octagon fat-octagon mesh:3x2:c=3 dragonfly:a=4,p=2,h=2 torus:4x4x4 mesh:3x3x3 clos:m=5,n=3,r=4; do
    tn=${topo//[:=,]/_}
    vcheck "view_every_link_$tn" every "$topo"
    vcheck "view_labels_$tn" labels "$topo"
done
vcheck view_dragonfly_groups groups dragonfly:a=4,p=2,h=2
vcheck view_dragonfly_groups_a2 groups dragonfly:a=2,p=1,h=1
vcheck view_clos_tiers tiers clos:m=5,n=3,r=4   # spines above leaves, links straight up and down
vcheck view_torus3d_panels panels torus:4x4x4
vcheck view_mesh3d_panels panels mesh:3x3x3
vcheck view_torus4d_panels panels torus:2x3x4x2
vcheck view_due due mesh:4x4
vcheck view_live_due livedue mesh:3x3
vcheck view_live_click_pause_step_quit live mesh:3x3
vcheck view_sample_net net torus:3x3

# ---- the flags, as every command parses them
check_fail view_frame_every_zero 2 'frame-every: must be at least 1' "$VT" cli --frame-every 0
check_fail view_frame_every_word 2 "frame-every: 'x' is not" "$VT" cli --frame-every x
check_fail view_heatmap_not_png 2 'must name a .png or .svg file' "$VT" cli --heatmap "$TMP/h.jpg"
check_fail view_frames_no_value 2 '^xnoc view_test: --frames needs a value' "$VT" cli --frames
check_fail view_frames_unwritable 2 '--frames /proc/xnoc_view' "$VT" cli --frames /proc/xnoc_view
check_fail view_heatmap_unwritable 2 '--heatmap /nonexistent/h.png' "$VT" cli --heatmap /nonexistent/h.png
check_fail view_font_missing 2 'view font /nonexistent.ttf.*fonts-dejavu-core' \
    env XNOC_VIEW_FONT=/nonexistent.ttf "$VT" cli --frames "$TMP/nofont"
check_fail view_no_display 2 'cannot open a window' env SDL_VIDEODRIVER=nosuchdriver "$VT" cli --view

# frames 0, 50, ... 250 and the end of the run (300), one heatmap
rm -rf "$TMP/cli"
if "$VT" cli --topo fat-octagon --frames "$TMP/cli/frames" --frame-every 50 --cycles 300 \
        --heatmap "$TMP/cli/heat.png" >"$TMP/cli.log" 2>&1; then
    n=$(find "$TMP/cli/frames" -name 'frame_*.png' | wc -l)
    if [ "$n" = 7 ] && [ -s "$TMP/cli/frames/frame_000006.png" ] && [ -s "$TMP/cli/heat.png" ]; then ok view_cli_frames
    else fail view_cli_frames "$n frames (want 7), heatmap $(ls -s "$TMP/cli/heat.png" 2>&1)"; fi
else
    fail view_cli_frames "exit $?: $(head -2 "$TMP/cli.log")"
fi
check view_cli_live "$VT" cli --view --topo torus:3x3 --cycles 200

# ---- the same under AddressSanitizer + UndefinedBehaviorSanitizer
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
vcheck view_asan_nodes nodes fat-octagon "$VTA"
vcheck view_asan_heatmap heatmap torus:3x3 "$VTA"
vcheck view_asan_live live mesh:3x3 "$VTA"
vcheck view_asan_labels_dragonfly labels dragonfly:a=4,p=2,h=2 "$VTA"
vcheck view_asan_every_torus3d every torus:4x4x4 "$VTA"
check view_asan_cli "$VTA" cli --topo torus:4x4 --view --frames "$TMP/asan" --frame-every 25 --cycles 200 \
    --heatmap "$TMP/asan/heat.png"

# the view on a real run: xnoc traffic writes a changing frame sequence and a heatmap
$XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.3 --packet 2 --cycles 1200 --warmup 0 \
    --frames "$TMP/rf" --frame-every 200 --heatmap "$TMP/rh.png" >/dev/null 2>"$TMP/rv.err"
n=$(ls "$TMP/rf" 2>/dev/null | grep -c '^frame_.*\.png$')
if [ "$n" -ge 5 ]; then ok traffic-frames; else fail traffic-frames "$n frames: $(head -2 "$TMP/rv.err")"; fi
d=$(md5sum "$TMP"/rf/frame_00000[1-4].png 2>/dev/null | awk '{print $1}' | sort -u | wc -l)
if [ "$d" -ge 3 ]; then ok traffic-frames-change; else fail traffic-frames-change "only $d distinct frames"; fi
if [ "$(head -c 8 "$TMP/rh.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]; then ok traffic-heatmap-png; else fail traffic-heatmap-png "not a PNG"; fi
check_fail traffic-bad-heatmap 2 "heatmap" $XNOC traffic --topo mesh:2x2 --pattern uniform --cycles 100 --heatmap "$TMP/x.jpg"

# ---- xnoc run and xnoc collective: the view follows the emulated nodes
probe() { "$VT" probe "$1" "$2" 2>&1; }
j=$($XNOC run --topo fat-octagon --arg 0=256 --clock-ratio 8 --json --frames "$TMP/run" --frame-every 500 --heatmap "$TMP/run/heat.png" \
    build/firmware/all-pairs.elf 2>"$TMP/run.err")
cyc=$(echo "$j" | jq .cycles 2>/dev/null)
jcheck run-view-ok "$j" '.ok==true'
n=$(ls "$TMP/run" 2>/dev/null | grep -c '^frame_.*\.png$')
want=$(( ${cyc:-0} / 500 + 2 ))   # cycles 0, 500, ... and the end of the run
if [ "$n" = "$want" ] || [ "$n" = "$((want - 1))" ]; then ok run-view-frames; else fail run-view-frames "$n frames for $cyc cycles (want about $want)"; fi
last=$(ls "$TMP/run" | grep '^frame_' | sort | tail -1)
first=$(probe fat-octagon "$TMP/run/frame_000000.png")
end=$(probe fat-octagon "$TMP/run/$last")
if [ "$(echo "$first" | grep -c '^term [0-9]* running$')" = 16 ]; then ok run-view-start-running; else fail run-view-start-running "$(echo "$first" | grep ^term | head -3)"; fi
if [ "$(echo "$end" | grep -c '^term [0-9]* exited$')" = 16 ]; then ok run-view-end-exited; else fail run-view-end-exited "$(echo "$end" | grep ^term | grep -v exited | head -3)"; fi
busy=0
for f in "$TMP"/run/frame_*.png; do
    b=$(probe fat-octagon "$f" | awk '$1=="link" && $3>0.05' | wc -l)
    [ "$b" -gt "$busy" ] && busy=$b
done
if [ "$busy" -ge 8 ]; then ok run-view-links-loaded; else fail run-view-links-loaded "at most $busy loaded links in any frame"; fi
hb=$(probe fat-octagon "$TMP/run/heat.png" | awk '$1=="link" && $3>=0' | wc -l)
if [ "$hb" = "$($XNOC topo --topo fat-octagon --json | jq '.links|length')" ]; then ok run-view-heatmap; else fail run-view-heatmap "$hb links drawn in colormap colors"; fi

# a fault shows on its node: node 0 stops the run on an illegal instruction
$XNOC run --topo mesh:2x2 --frames "$TMP/fault" --frame-every 1000 build/firmware/tests/illegal.elf >/dev/null 2>"$TMP/fault.err"
last=$(ls "$TMP/fault" 2>/dev/null | grep '^frame_' | sort | tail -1)
if [ -n "$last" ] && probe mesh:2x2 "$TMP/fault/$last" | grep -q '^term 0 faulted$'; then ok run-view-faulted
else fail run-view-faulted "$(probe mesh:2x2 "$TMP/fault/$last" | head -2)"; fi

# a broadcast: the nodes a step has not reached yet wait for their data,
# the frames change, the result is still verified
j=$($XNOC collective --topo octagon --op bcast --bytes 1024 --clock-ratio 8 --json --frames "$TMP/coll" \
    --frame-every 100 2>"$TMP/coll.err")
jcheck collective-view-verified "$j" '.verified==true'
waits=0
for f in "$TMP"/coll/frame_*.png; do [ "$(probe octagon "$f" | grep -c ' waiting$')" -ge 6 ] && waits=$((waits + 1)); done
if [ "$waits" -ge 10 ]; then ok collective-view-waiting; else fail collective-view-waiting "$waits frames show 6+ waiting nodes"; fi
d=$(md5sum "$TMP"/coll/frame_*.png 2>/dev/null | awk '{print $1}' | sort -u | wc -l)
if [ "$d" -ge 5 ]; then ok collective-view-frames-change; else fail collective-view-frames-change "only $d distinct frames"; fi
# the coded butterfly (docs/network-coding.md): the XOR badge appears on the
# routers whose coding units XOR (4: A^B; 0 and 2: decoding), the multicast
# badge on router 1 (which replicates A^B), on no other router, in no other way
$XNOC run --topo mesh:3x2 --frames "$TMP/nc" --frame-every 10 build/firmware/butterfly-coded.elf >/dev/null 2>&1
"$VT" probe mesh:3x2 "$TMP"/nc/frame_*.png 2>&1 | awk '$2=="router" {print $3, $4, $5}' | sort | uniq -c >"$TMP/badges"
want_xor=$(awk '$3=="xor" {print $2}' "$TMP/badges" | sort -u | tr '\n' ' ')
want_mc=$(awk '$4=="mcast" {print $2}' "$TMP/badges" | sort -u | tr '\n' ' ')
if [ "$want_xor" = "0 2 4 " ] && [ "$want_mc" = "1 " ]; then ok run-view-coding-badges
else fail run-view-coding-badges "XOR badges on routers '$want_xor' (want 0 2 4), multicast on '$want_mc' (want 1)"; fi
SDL_VIDEODRIVER=dummy check run-view-live $XNOC run --topo mesh:2x2 --view build/firmware/hello.elf
check_fail run-view-bad-heatmap 2 "must name a .png or .svg file" $XNOC run --topo mesh:2x2 --heatmap "$TMP/h.jpg" build/firmware/hello.elf
check_fail collective-view-bad-every 2 "frame-every" $XNOC collective --topo octagon --op bcast --frames "$TMP/x" --frame-every 0
check_fail run-view-unwritable 2 "frames /proc/xnoc" $XNOC run --topo mesh:2x2 --frames /proc/xnoc build/firmware/hello.elf
# the system view under ASan/UBSan
check run-view-asan env ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 $XNOC_ASAN run --topo mesh:2x2 --frames "$TMP/asanrun" \
    --frame-every 50 --heatmap "$TMP/asanrun/h.png" build/firmware/hello.elf

# --frames-window: frames only for the collective's cycles
j=$($XNOC collective --json --topo octagon --op alltoall --bytes 256 2>/dev/null)
s=$(jq .start_cycle <<<"$j"); c=$(jq .cycles <<<"$j")
$XNOC collective --topo octagon --op alltoall --bytes 256 --frames "$TMP/fwin" --frame-every 100 --frames-window "$s:$((s + c))" >/dev/null 2>&1
n=$(ls "$TMP/fwin" | grep -c '^frame_')
[ "$n" = $(( (c + 99) / 100 )) ] && ok frames-window || fail frames-window "$n frames for $c cycles every 100"
check_fail frames-window-bad 2 "--frames-window '9:3': expected A:B with A < B" $XNOC run --topo mesh:2x2 --frames "$TMP/x" --frames-window 9:3 build/firmware/hello.elf
# --size: the picture's pixels
$XNOC traffic --topo mesh:4x4 --pattern uniform --rate 0.2 --cycles 300 --warmup 0 --heatmap "$TMP/sz.png" --size 1600x900 >/dev/null 2>&1
# PNG IHDR: width and height, big-endian, at bytes 16..23
wh=$(od -An -tu1 -j16 -N8 "$TMP/sz.png" 2>/dev/null | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
[ "$wh" = 1600x900 ] && ok view-size || fail view-size "the picture is ${wh:-unreadable}, not 1600x900"
check_fail view-size-bad 2 "--size '10x10': expected WxH from 320x240 to 8192x8192" $XNOC run --topo mesh:2x2 --heatmap "$TMP/x.png" --size 10x10 build/firmware/hello.elf
# --heat-labels: numbers on the heatmap (a different picture from the plain one)
$XNOC collective --topo octagon --op alltoall --bytes 64 --heatmap "$TMP/hp.png" --heat-max 1 >/dev/null 2>&1
$XNOC collective --topo octagon --op alltoall --bytes 64 --heatmap "$TMP/hl.png" --heat-max 1 --heat-labels >/dev/null 2>&1
[ -s "$TMP/hl.png" ] && ! cmp -s "$TMP/hp.png" "$TMP/hl.png" && ok heat-labels || fail heat-labels "no labelled heatmap"
# --heatmap F.svg: the same picture as SVG elements (well-formed XML, the size asked for,
# the labels and values of the PNG's scene, every link drawn in a colormap colour)
$XNOC collective --topo octagon --op alltoall --bytes 64 --heatmap "$TMP/hl.svg" --heat-max 1 --heat-labels \
    --size 1200x800 >/dev/null 2>"$TMP/svg.err"
if ! xmllint --noout "$TMP/hl.svg" 2>"$TMP/xml.err"; then fail heatmap-svg-xml "$(head -2 "$TMP/xml.err")"
elif ! grep -q '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"' "$TMP/hl.svg"; then fail heatmap-svg-size "$(sed -n 2p "$TMP/hl.svg")"
elif ! grep -q '>t7</text>' "$TMP/hl.svg" || ! grep -q '>traffic: 620 cycles</text>' "$TMP/hl.svg"; then fail heatmap-svg-text "labels missing"
else ok heatmap-svg; fi
# every one of the octagon's 24 link-polylines (drawn at the links' width) has a stroke colour
nl=$(grep -c '<polyline points="[0-9.,]* [0-9.,]*" fill="none" stroke-width="[0-9.]*" stroke-linejoin="round" stroke="rgb(' "$TMP/hl.svg")
[ "$nl" -ge 24 ] && ok heatmap-svg-links || fail heatmap-svg-links "$nl link polylines"
# the SVG colour bar is flat rectangles of about 4 pixels (a linearGradient draws black in
# ImageMagick), from the colormap's first stop to its last, not a rectangle per pixel;
# the panel: the topology once, no simulation rate
bar=$(grep -o '<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*" height="[0-9.]*" fill="rgb([0-9,]*)"' "$TMP/hl.svg" |
    awk -F'"' '{n[$4]++; c[$4]=c[$4] " " $10} END {for (y in n) if (n[y] >= 8 && c[y] ~ /^ rgb\(25,35,120\)/) print n[y], c[y]}' | head -1)
nb=$(awk '{print $1}' <<<"$bar")
if ! grep -q linearGradient "$TMP/hl.svg" && [ -n "$nb" ] && [ "$nb" -le 100 ] && [ "$(awk '{print $2}' <<<"$bar")" = "rgb(25,35,120)" ] &&
    grep -q ' rgb(220,25,25)' <<<"$bar"; then ok heatmap-svg-colour-bar-rects
else fail heatmap-svg-colour-bar-rects "$(grep -c linearGradient "$TMP/hl.svg") gradients; bar: $(head -c 200 <<<"$bar")"; fi
n=$(grep -c '>octagon</text>' "$TMP/hl.svg")
if [ "$n" = 1 ] && ! grep -q 'cycles/s</text>' "$TMP/hl.svg" && grep -q '>alltoall [^<]*, 64 B</text>' "$TMP/hl.svg"; then ok heatmap-svg-title
else fail heatmap-svg-title "'octagon' $n times; $(grep -o '>[^<]*cycles/s</text>' "$TMP/hl.svg")"; fi
# a replay has no node states: plain terminals, no state rows in the legend, the title once
$XNOC collective --topo octagon --op alltoall --bytes 64 --events "$TMP/ev.jsonl" >/dev/null 2>&1
$XNOC replay "$TMP/ev.jsonl" --heatmap "$TMP/rp.svg" --heat-labels >/dev/null 2>"$TMP/rp.err"
if ! [ -s "$TMP/rp.svg" ]; then fail replay-svg-panel "no heatmap: $(head -2 "$TMP/rp.err")"
elif grep -q '>node state</text>\|>idle</text>\|>I</text>\|cycles/s</text>' "$TMP/rp.svg"; then
    fail replay-svg-panel "$(grep -o '>node state</text>\|>idle</text>\|>I</text>\|>[^<]*cycles/s</text>' "$TMP/rp.svg" | head -3)"
elif [ "$(grep -c '>octagon</text>' "$TMP/rp.svg")" != 1 ] || ! grep -q '>replay of ev.jsonl</text>' "$TMP/rp.svg"; then
    fail replay-svg-panel "title: $(grep -o '>[^<]*octagon[^<]*</text>' "$TMP/rp.svg" | head -3)"
else ok replay-svg-panel; fi
check_fail heatmap-svg-unwritable 2 '--heatmap /nonexistent/h.svg' $XNOC collective --topo octagon --op alltoall --bytes 64 --heatmap /nonexistent/h.svg

# ---- the held --view window (view/live.c live_hold) ends on ONE Ctrl-C, and on SIGTERM, for
# replay, collective and traffic: XNOC_TEST_VIEW_HOLD=1 holds it on the dummy driver, which
# prints "holding the window" once there; the test then sends one signal and gives it 20 s.
held() { # held NAME SIGNAL CMD...
    local name=$1 sig=$2; shift 2
    # empty the file first: the child truncates it only once it runs, and the previous
    # call's "holding" line would otherwise send the signal before the command has begun
    : >"$TMP/held.err"
    XNOC_TEST_VIEW_HOLD=1 "$@" >/dev/null 2>"$TMP/held.err" &
    local pid=$! i=0
    while ! grep -q 'view: holding the window' "$TMP/held.err" && [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
    if ! grep -q 'view: holding the window' "$TMP/held.err"; then kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
        fail "$name" "never held the window: $(head -2 "$TMP/held.err")"; return; fi
    kill -"$sig" $pid
    i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 $pid 2>/dev/null; then kill -9 $pid; wait $pid 2>/dev/null; fail "$name" "still open 20 s after one SIG$sig"
    else wait $pid; ok "$name"; fi
}
$XNOC collective --topo octagon --op alltoall --bytes 64 --events "$TMP/hold.jsonl" >/dev/null 2>&1
held view-hold-replay-sigint INT $XNOC replay "$TMP/hold.jsonl" --view
held view-hold-replay-sigterm TERM $XNOC replay "$TMP/hold.jsonl" --view
held view-hold-collective-sigint INT $XNOC collective --topo octagon --op bcast --bytes 64 --view
held view-hold-traffic-sigint INT $XNOC traffic --topo mesh:2x2 --rate 0.1 --cycles 200 --warmup 0 --view
# the held replay window draws its own copy of the title (cmd/replay.c's was a dead local):
# under ASan, a stack use after return is an error (exit 1) instead of garbage in the panel
ASAN_OPTIONS=detect_stack_use_after_return=1:halt_on_error=1:detect_leaks=0 held view-hold-replay-title-asan INT $XNOC_ASAN replay "$TMP/hold.jsonl" --view
grep -q 'ERROR: AddressSanitizer' "$TMP/held.err" && fail view-hold-title-copy "$(grep -m1 ERROR "$TMP/held.err")" || ok view-hold-title-copy
