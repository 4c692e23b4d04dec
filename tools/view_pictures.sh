#!/usr/bin/env bash
# tools/view_pictures.sh - regenerates the pictures in docs/img/ from real
# runs (docs/view.md shows them):
#   view_fat_octagon_alltoall.png   xnoc collective: fat-octagon all-to-all, mid-run
#   heatmap_fat_octagon_alltoall.png  ... link utilization while the traffic flows
#   heatmap_alltoall_sched.png, heatmap_alltoall_all_at_once.png  the two side by side
#   view_mesh8x8_saturation.png     xnoc traffic: mesh:8x8 uniform at 0.35 (4-flit packets), near saturation
#   heatmap_mesh8x8_saturation.png  ... the whole run
# usage: tools/view_pictures.sh [OUTDIR]   (default docs/img)
set -eu
cd "$(dirname "$0")/.."
out=${1:-docs/img}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SDL_VIDEODRIVER=dummy
mkdir -p "$out"

# fat-octagon all-to-all, 1 KiB per pair (posted receives: the data moves by
# DMA only, the network sets the pace); one frame every 100 cycles; the
# picture shown is the frame in the middle of the collective (the collective
# is the end of the run, after the nodes fill their buffers).
every=100
j=$(build/xnoc collective --topo fat-octagon --op alltoall --bytes 1024 --json \
    --frames "$tmp/a2a" --frame-every $every --heatmap "$out/heatmap_fat_octagon_alltoall.png")
coll=$(echo "$j" | jq .cycles)
last=$(ls "$tmp/a2a" | grep -c '^frame_')
mid=$(( last - 1 - coll / every / 2 ))
cp "$tmp/a2a/$(printf 'frame_%06d.png' $mid)" "$out/view_fat_octagon_alltoall.png"
echo "fat-octagon all-to-all: collective $coll cycles, frame $mid of $last -> $out/view_fat_octagon_alltoall.png"

# the scheduled and the all-at-once all-to-all side by side, same scale
for a in sched all-at-once; do
    build/xnoc collective --topo fat-octagon --op alltoall --bytes 1024 --algo $a --heat-max 1 \
        --heatmap "$out/heatmap_alltoall_${a//-/_}.png" >/dev/null
done
echo "fat-octagon all-to-all heatmaps, sched and all-at-once -> $out/heatmap_alltoall_*.png"

# mesh:8x8 uniform random traffic near saturation (~0.38 flits/node/cycle)
build/xnoc traffic --topo mesh:8x8 --pattern uniform --rate 0.35 --packet 4 --cycles 4000 --warmup 1000 \
    --frames "$tmp/m8" --frame-every 1000 --heatmap "$out/heatmap_mesh8x8_saturation.png" >/dev/null
cp "$tmp/m8/frame_000003.png" "$out/view_mesh8x8_saturation.png"
echo "mesh:8x8 uniform 0.35: frame at cycle 3000 -> $out/view_mesh8x8_saturation.png"
