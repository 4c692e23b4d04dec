#!/usr/bin/env bash
# tools/nc_sweep.sh - the butterfly of Fig. 1 (docs/network-coding.md) on
# mesh:3x2: unicast-based multicast (XY routes, and unicast-via: the far
# packets source-routed through the shared link 4->1 as the butterfly's
# graph routes them), hardware multicast and XOR network coding
# (hardware and software decoding), for XOR latencies 1, 4, 16, 35 cycles
# (--router xorlat=N) and payloads of 64 and 256 bytes.  Prints Markdown on
# stdout; every run must exit 0 (the firmware checks every byte).
#   usage: tools/nc_sweep.sh [--bytes "64 256"] [--xorlat "1 4 16 35"] [--json]
# Columns: done = network cycles from the start barrier to the last byte at
# the later destination; links = flits on all router-to-router links;
# busiest = flits on the busiest of them; 3->0, 5->2, 4->1 = flits on those links; xor_ops / coded / copies = the
# units' counters (xnoc run --json).
set -eu
cd "$(dirname "$0")/.."
X=${XNOC:-build/xnoc}
FW=build/firmware
export XNOC_PROGRESS=0
BYTES="64 256"
XORLAT="1 4 16 35"
JSON=0
while [ $# -gt 0 ]; do
    case $1 in
    --bytes) BYTES=$2; shift 2 ;;
    --xorlat) XORLAT=$2; shift 2 ;;
    --json) JSON=1; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "nc_sweep.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done

# a build whose routers have no coding units knows no xorlat: unicast only
UNITS=1
if $X run --topo mesh:3x2 --router xorlat=1 --max-cycles 1 $FW/hello.elf 2>&1 | grep -q "unknown parameter 'xorlat'"; then
    UNITS=0
    echo "nc_sweep.sh: this build's routers have no coding units (no --router xorlat): unicast only" >&2
fi

# one run -> one JSON line with the figures
one() {   # MODE XORLAT BYTES [extra args]
    local mode=$1 xl=$2 b=$3; shift 3
    local img=$FW/butterfly-${mode%-sw}.elf out j rtr=(--router xorlat=$xl)
    [ $UNITS = 1 ] || rtr=()
    out=$(mktemp)
    if ! j=$($X run --json --topo mesh:3x2 "${rtr[@]}" --arg bytes=$b "$@" "$img" 2>"$out"); then
        echo "nc_sweep.sh: $mode xorlat=$xl bytes=$b failed: $(grep -v '^\[node' "$out" | tail -1)" >&2
        rm -f "$out"
        exit 1
    fi
    local done
    done=$(sed -n 's/.*D[12] (node [02]) has A and B, .* byte-exact, done at +\([0-9]*\) cycles/\1/p' "$out" | sort -n | tail -1)
    rm -f "$out"
    jq -c --arg mode "$mode" --argjson xl "$xl" --argjson b "$b" --argjson done "$done" '
        def link(a; b): [.links[]|select(.kind=="link" and .src_router==a and .dst_router==b).flits]|add;
        {mode: $mode, xorlat: $xl, bytes: $b, done: $done, cycles: .cycles,
         links: ([.links[]|select(.kind=="link").flits]|add), busiest: ([.links[]|select(.kind=="link").flits]|max),
         l30: link(3;0), l52: link(5;2), l41: link(4;1),
         packets: .packets, xor_ops: (.xor_ops // 0), coded: (.coded_packets // 0), copies: (.mc_copies // 0)}' <<<"$j"
}

rows=()
for b in $BYTES; do
    if [ $UNITS = 0 ]; then rows+=("$(one unicast 0 "$b")" "$(one unicast-via 0 "$b")"); continue; fi
    for xl in $XORLAT; do
        rows+=("$(one unicast "$xl" "$b")")
        rows+=("$(one unicast-via "$xl" "$b")")
        rows+=("$(one multicast "$xl" "$b")")
        rows+=("$(one coded "$xl" "$b")")
        rows+=("$(one coded-sw "$xl" "$b" --arg swdecode=1)")
    done
done
if [ $JSON = 1 ]; then printf '%s\n' "${rows[@]}" | jq -s .; exit 0; fi
echo "\`tools/nc_sweep.sh --bytes \"$BYTES\" --xorlat \"$XORLAT\"\`: \`build/xnoc run --json --topo mesh:3x2 --router xorlat=N --arg bytes=B build/firmware/butterfly-MODE.elf\` (coded-sw: butterfly-coded.elf --arg swdecode=1)"
echo
echo "| bytes | xorlat | version | done (cycles) | links (flits) | busiest link | 3->0 | 5->2 | 4->1 | packets sent by NIs | xor_ops | coded | copies |"
echo "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}" | jq -r '"| \(.bytes) | \(.xorlat) | \(.mode) | \(.done) | \(.links) | \(.busiest) | \(.l30) | \(.l52) | \(.l41) | \(.packets) | \(.xor_ops) | \(.coded) | \(.copies) |"'
