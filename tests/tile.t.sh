# tile: the tile build (--router model=tile: one router model verilated once,
# any network wired by the harness; rtl/xnoc_tile.sv, glue/xnoc_tile_glue.cpp)
# runs the same cycles as the flat netlist: byte-identical reports, event
# streams, debug counters and error lines.  (`XNOC_MODEL=tile tests/run
# golden` holds the ten golden reports to the tile build too.)
source tests/lib.sh

same() { # NAME CMD...: the JSON report of CMD with model=flat and model=tile must be identical
    local name=$1; shift
    "$@" --router model=flat --json >"$TMP/$name.flat" 2>"$TMP/$name.flat.err"
    local rf=$?
    "$@" --router model=tile --json >"$TMP/$name.tile" 2>"$TMP/$name.tile.err"
    local rt=$?
    if [ $rf != 0 ] || [ $rt != 0 ]; then fail "$name" "exit flat $rf tile $rt: $(head -2 "$TMP/$name.tile.err" "$TMP/$name.flat.err" | tr '\n' ' ')"
    elif cmp -s "$TMP/$name.flat" "$TMP/$name.tile"; then ok "$name"
    else fail "$name" "reports differ: $(diff <(jq -S . "$TMP/$name.flat") <(jq -S . "$TMP/$name.tile") | head -4 | tr '\n' ' ')"; fi
}

# reports (link flits, stalls and occupancy come from the routers' debug
# counters; the coding traffic's unit tables from the units')
same tile-mesh4x4-ncu0 $XNOC traffic --topo mesh:4x4 --rate 0.2 --packet 4 --cycles 2000 --router ncu=0
same tile-mesh4x4 $XNOC traffic --topo mesh:4x4 --pattern uniform --rate 0.2 --packet 4 --cycles 3000 --warmup 500
same tile-octagon $XNOC traffic --topo octagon --pattern allpairs --packet 3
same tile-fatoct-coding $XNOC traffic --topo fat-octagon --pattern uniform --rate 0.1 --packet 4 --coding 0.05 --cycles 3000 --warmup 500
same tile-torus2x2x2 $XNOC traffic --topo torus:2x2x2 --rate 0.3 --packet 2 --cycles 2000
same tile-dragonfly $XNOC traffic --topo dragonfly:a=2,p=1,h=1 --rate 0.2 --packet 3 --cycles 2000
same tile-mesh4x4-ports2 $XNOC traffic --topo mesh:4x4 --ports 2 --rate 0.2 --packet 3 --cycles 2000
same tile-dragonfly-ugal $XNOC traffic --topo dragonfly:a=2,p=1,h=2 --router routing=ugal --rate 0.2 --cycles 1500
same tile-collective-mesh4x4 $XNOC collective --topo mesh:4x4 --op bcast --bytes 512 --algo all-at-once
# multicast lanes (rtl/xnoc_tile.sv NumLanes): a clos's units have max(n, r) = 4 lanes and a
# slot in reserve per lane (LaneReserve), lane l on router port P-1+l inside the tile, as
# netgen.c wire_lanes wires them; the collectives of tests/clostopo.t.sh, a multicast
# traffic run through the stages, and lanes=3 on a mesh (no reserve)
same tile-clos-mc-bcast $XNOC collective --algo multicast --topo clos:m=5,n=3,r=4 --op bcast --bytes 256
same tile-clos-mc-allgather $XNOC collective --algo multicast --topo clos:m=5,n=3,r=4 --op allgather --bytes 256
same tile-clos-mc-mnb $XNOC collective --algo multicast --topo clos:m=5,n=3,r=4 --op mnb --from 0-5 --to 3-11 --bytes 256
same tile-clos-mc-traffic $XNOC traffic --topo clos:m=5,n=3,r=4 --pattern multicast:2 --rate 0.05 --cycles 2000
same tile-mesh3x2-lanes3 $XNOC traffic --topo mesh:3x2 --pattern uniform --rate 0.1 --packet 4 --coding 0.05 \
    --cycles 3000 --seed 5 --router lanes=3

# the link taps (hop-level events): the flat build swaps in its tapped model,
# the tile build reads its tiles' outputs; the streams are the same bytes
for m in flat tile; do
    $XNOC collective --topo mesh:4x4 --op bcast --bytes 512 --algo all-at-once --router model=$m \
        --events "$TMP/ev.$m" >/dev/null 2>"$TMP/ev.$m.err"
done
if [ -s "$TMP/ev.flat" ] && grep -q '"hop"\|"link"\|"router"' "$TMP/ev.flat" && cmp -s "$TMP/ev.flat" "$TMP/ev.tile"; then
    ok tile-events-identical
else fail tile-events-identical "$(wc -l <"$TMP/ev.flat") vs $(wc -l <"$TMP/ev.tile") lines: $(diff "$TMP/ev.flat" "$TMP/ev.tile" | head -2 | tr '\n' ' ')"; fi

# the error path: a credit nobody owed trips router 0's invariant flag; both
# builds name it in the same line
for m in flat tile; do
    XNOC_TEST_SPURIOUS_CREDIT=1 $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.1 --cycles 500 \
        --router model=$m >/dev/null 2>"$TMP/inv.$m"
    echo "exit $?" >>"$TMP/inv.$m"
done
if grep -q "router 0 flags an RTL invariant violation (bits 0x1:" "$TMP/inv.tile" && grep -q "exit 1" "$TMP/inv.tile" \
    && cmp -s "$TMP/inv.flat" "$TMP/inv.tile"; then ok tile-invariant-same-line
else fail tile-invariant-same-line "flat: $(tr '\n' ' ' <"$TMP/inv.flat") tile: $(tr '\n' ' ' <"$TMP/inv.tile")"; fi

# ...and in the assertion build (XNOC_RTL_ASSERT=1) the assertion is named by
# the netlist's path (u_r0.NAME), not the tile's
for m in flat tile; do
    XNOC_RTL_ASSERT=1 XNOC_TEST_SPURIOUS_CREDIT=1 $XNOC traffic --topo mesh:2x2 --pattern uniform --rate 0.1 \
        --cycles 500 --router model=$m >/dev/null 2>"$TMP/as.$m"
    echo "exit $?" >>"$TMP/as.$m"
done
if grep -q "; assertion u_r0\.NoCreditOverflow (xnoc_router\.sv:[0-9]*)$" "$TMP/as.tile" && cmp -s "$TMP/as.flat" "$TMP/as.tile"; then
    ok tile-assert-same-line
else fail tile-assert-same-line "flat: $(tail -2 "$TMP/as.flat" | tr '\n' ' ') tile: $(tail -2 "$TMP/as.tile" | tr '\n' ' ')"; fi

# waveforms: the tile variant built with --trace, every tile a scope of one
# VCD; the run itself is the flat build's
$XNOC traffic --topo mesh:2x2 --rate 0.2 --cycles 200 --router model=tile --trace "$TMP/t.vcd" --json >"$TMP/tr.tile" 2>/dev/null
$XNOC traffic --topo mesh:2x2 --rate 0.2 --cycles 200 --router model=flat --json >"$TMP/tr.flat" 2>/dev/null
scopes=$(grep -c '^ *\$scope module u_r[0-3] ' "$TMP/t.vcd" 2>/dev/null)
if cmp -s "$TMP/tr.flat" "$TMP/tr.tile" && [ "$scopes" = 4 ] && grep -q '^#2' "$TMP/t.vcd"; then ok tile-trace
else fail tile-trace "scopes $scopes; reports $(cmp "$TMP/tr.flat" "$TMP/tr.tile" 2>&1 | head -1)"; fi

# threads=N on tiles: each thread evaluates a contiguous share of the tiles,
# a barrier between driving the inputs and ticking; the run is one thread's
# to the byte (the report's "router" names the threads: left out), with and
# without units (the unit's falling edge runs on the workers), more threads
# than tiles (mesh:2x2 on 16), the taps, and the trace build (one thread)
threads_same() { # NAME THREADS CMD...
    local name=$1 n=$2; shift 2
    "$@" --router model=tile --json 2>"$TMP/$name.1.err" | jq -c 'del(.router)' >"$TMP/$name.1"
    "$@" --router model=tile,threads=$n --json 2>"$TMP/$name.n.err" | jq -c 'del(.router)' >"$TMP/$name.n"
    if [ -s "$TMP/$name.1" ] && jq -e '.delivered_packets > 0' "$TMP/$name.1" >/dev/null \
        && cmp -s "$TMP/$name.1" "$TMP/$name.n"; then ok "$name"
    else fail "$name" "$(head -c 200 "$TMP/$name.n.err") $(cmp "$TMP/$name.1" "$TMP/$name.n" 2>&1 | head -1)"; fi
}
threads_same tile-threads2-ncu0 2 $XNOC traffic --topo mesh:4x4 --rate 0.3 --packet 4 --cycles 2000 --router ncu=0
threads_same tile-threads3-units 3 $XNOC traffic --topo fat-octagon --pattern uniform --rate 0.1 --packet 4 --coding 0.05 --cycles 3000 --warmup 500
threads_same tile-threads16-of-4 16 $XNOC traffic --topo mesh:2x2 --rate 0.3 --packet 2 --cycles 1000
for n in 1 2; do
    $XNOC collective --topo mesh:4x4 --op bcast --bytes 512 --algo all-at-once --router model=tile,threads=$n \
        --events "$TMP/evt.$n" >/dev/null 2>&1
done
if [ -s "$TMP/evt.1" ] && cmp -s "$TMP/evt.1" "$TMP/evt.2"; then ok tile-threads-events
else fail tile-threads-events "$(cmp "$TMP/evt.1" "$TMP/evt.2" 2>&1 | head -1)"; fi
$XNOC traffic --topo mesh:2x2 --rate 0.2 --cycles 200 --router model=tile,threads=2 --trace "$TMP/t2.vcd" >/dev/null 2>&1
if [ -s "$TMP/t.vcd" ] && cmp -s <(sed '/^\$date/,/\$end/d' "$TMP/t.vcd") <(sed '/^\$date/,/\$end/d' "$TMP/t2.vcd"); then ok tile-threads-trace
else fail tile-threads-trace "the VCD of threads=2 differs: $(cmp "$TMP/t.vcd" "$TMP/t2.vcd" 2>&1 | head -1)"; fi

# the workers under ASan with leak checking: started, joined, freed
$XNOC_ASAN traffic --topo mesh:4x4 --router model=tile,ncu=0,threads=2 --rate 0.3 --packet 4 --cycles 2000 --json \
    2>"$TMP/asan2.err" | jq -c 'del(.router)' >"$TMP/asan2.json"
if ! grep -q Sanitizer "$TMP/asan2.err" && cmp -s "$TMP/asan2.json" "$TMP/tile-threads2-ncu0.1"; then ok tile-threads-asan
else fail tile-threads-asan "$(grep -m2 Sanitizer "$TMP/asan2.err") $(cmp "$TMP/asan2.json" "$TMP/tile-threads2-ncu0.1" 2>&1)"; fi

# bad input: the key's value, and what a tile model cannot do
check_fail tile-bad-model 2 "^xnoc traffic: --router: model='tiles' is not flat or tile$" \
    $XNOC traffic --topo mesh:2x2 --router model=tiles --cycles 10

# a failed tile build says so in one line and points at its log; the
# verilator found along PATH fails (a private cache: nothing else is touched)
mkdir -p "$TMP/bin" "$TMP/build"
printf '#!/bin/sh\necho "fake verilator: no" >&2\nexit 3\n' >"$TMP/bin/verilator"
chmod +x "$TMP/bin/verilator"
PATH="$TMP/bin:$PATH" XNOC_BUILD="$TMP/build" $XNOC traffic --topo mesh:2x2 --router model=tile --cycles 10 \
    >/dev/null 2>"$TMP/fail.err"
rc=$?
log=$(sed -n 's|.*verilator failed; see \(.*\)$|\1|p' "$TMP/fail.err")
if [ $rc = 2 ] && [ "$(grep -c . "$TMP/fail.err")" = 1 ] \
    && grep -q "building the router p=5 addrs=8 vcs=2 buf=8 with a coding unit: verilator failed; see " "$TMP/fail.err" \
    && grep -q "fake verilator: no" "$log" && [ -e "$(dirname "$log")/failed" ]; then ok tile-build-failure
else fail tile-build-failure "exit $rc: $(head -2 "$TMP/fail.err" | tr '\n' ' ')"; fi

# the tile build is the default: its build folder may hold a quote, a
# space, $(...) and backquotes too (tests/cli.t.sh's path-* cases, for the
# flat build): the failure line names the folder whole, no shell ran it
Q="$TMP/q'x \$(touch pwned) \`touch pwned2\`"
mkdir -p "$Q"
XABS=$(realpath "$XNOC")
(cd "$TMP" && env PATH="$TMP/bin:$PATH" XNOC_BUILD="$Q" "$XABS" traffic --topo mesh:2x2 --cycles 10 \
    >/dev/null 2>"$TMP/q.err"); rc=$?
if [ $rc = 2 ] && grep -qF "verilator failed; see $Q/cache/tile-p5-a8-" "$TMP/q.err" \
    && [ -z "$(find "$TMP" -name 'pwned*' ! -path "$Q*")" ]; then ok tile-build-path-quoted
else fail tile-build-path-quoted "exit $rc: $(head -2 "$TMP/q.err" | tr '\n' ' ') $(find "$TMP" -name 'pwned*')"; fi

# ...and one whose C++ compile fails (a g++ along PATH that refuses): the
# same one line, the log keeps the compilers' words, and no Verilator
# runtime is cached from it (build/cache/vlrt-*)
mkdir -p "$TMP/bin-cxx" "$TMP/build-cxx"
printf '#!/bin/sh\necho "fake g++: no" >&2\nexit 1\n' >"$TMP/bin-cxx/g++"
chmod +x "$TMP/bin-cxx/g++"
PATH="$TMP/bin-cxx:$PATH" XNOC_BUILD="$TMP/build-cxx" $XNOC traffic --topo mesh:2x2 --router model=tile --cycles 10 \
    >/dev/null 2>"$TMP/cxx.err"
rc=$?
log=$(sed -n 's|.*compiling the verilated tile failed; see \(.*\)$|\1|p' "$TMP/cxx.err")
if [ $rc = 2 ] && [ "$(grep -c . "$TMP/cxx.err")" = 1 ] \
    && grep -q "^xnoc traffic: building the router p=5 addrs=8 vcs=2 buf=8 with a coding unit: compiling the verilated tile failed; see " "$TMP/cxx.err" \
    && [ "$(grep -c "fake g++: no" "$log")" -ge 3 ] && [ -e "$(dirname "$log")/failed" ] \
    && ! ls -d "$TMP/build-cxx/cache/vlrt-"* >/dev/null 2>&1; then ok tile-compile-failure
else fail tile-compile-failure "exit $rc: $(head -2 "$TMP/cxx.err" | tr '\n' ' ')"; fi

# the default build: tiles, whatever the network's size, a unit's multicast
# lanes included (router_lanes > 1: a clos's default, or lanes=N: the tile's
# NumLanes); model= and XNOC_MODEL override it.  The fake verilator makes each run stop at its
# first build, whose failure line names what it built.
which_build() { # expected-prefix name env... -- xnoc args
    local want=$1 name=$2; shift 2
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env PATH="$TMP/bin:$PATH" XNOC_BUILD="$TMP/build-default" "${envs[@]}" $XNOC traffic "$@" --cycles 10 \
        >/dev/null 2>"$TMP/default.err"
    local rc=$?
    if [ $rc = 2 ] && grep -q "^xnoc traffic: $want.*: verilator failed; see " "$TMP/default.err"; then ok "$name"
    else fail "$name" "exit $rc: $(tail -1 "$TMP/default.err")"; fi
}
which_build "building the router p=5 addrs=16 " default-tile-small -- --topo mesh:2x2 --router ncu=0
which_build "building the router p=5 addrs=64 " default-tile-mesh8x8 -- --topo mesh:8x8 --router ncu=0
which_build "building the router p=5 addrs=256 " default-tile-large -- --topo mesh:12x12 --router ncu=0
which_build "building the router p=5 addrs=128 vcs=3 buf=6 with a coding unit" default-tile-units \
    -- --topo mesh:8x8 --router vcs=3,buf=6
which_build "building the router p=7 addrs=128 vcs=2 buf=8 with a coding unit" default-tile-torus -- --topo torus:4x4x4
which_build "building the router p=7 addrs=108 vcs=2 buf=8 with a coding unit" default-tile-dragonfly -- --topo dragonfly:a=4,p=2,h=2
# a clos's units have max(n, r) lanes by default: a tile of that many (its
# own model: the lanes are in the tile's key); one lane (lanes=1, or no units)
# is the one-lane tile
which_build "building the router p=8 addrs=21 vcs=2 buf=8 with a coding unit of 4 lanes" default-clos-lanes-tile \
    -- --topo clos:m=5,n=3,r=4
which_build "building the router p=5 addrs=32 vcs=2 buf=8 with a coding unit of 2 lanes" default-lanes2-tile \
    -- --topo mesh:4x4 --router lanes=2
which_build "building the router p=8 addrs=21 vcs=2 buf=8 with a coding unit" default-clos-lanes1-tile \
    -- --topo clos:m=5,n=3,r=4 --router lanes=1
check default-clos-lanes1-one-lane grep -q " with a coding unit: verilator failed; see " "$TMP/default.err"
which_build "building the router p=8 addrs=16 vcs=2 buf=8" default-clos-ncu0-tile -- --topo clos:m=5,n=3,r=4 --router ncu=0
which_build "building network mesh:8x8" default-env-flat XNOC_MODEL=flat -- --topo mesh:8x8 --router ncu=0
which_build "building the router p=" default-env-tile-clos XNOC_MODEL=tile -- --topo clos:m=5,n=3,r=4
which_build "building network mesh:4x4" default-model-flat -- --topo mesh:4x4 --router ncu=0,model=flat
which_build "building network mesh:4x4" default-model-flat-over-env XNOC_MODEL=tile -- --topo mesh:4x4 --router ncu=0,model=flat
which_build "building the router p=5 addrs=16 " default-model-tile-over-env XNOC_MODEL=flat -- --topo mesh:4x4 --router ncu=0,model=tile
which_build "building the router p=5 addrs=64 " default-threads-tile -- --topo mesh:8x8 --router ncu=0,threads=2
which_build "building the router p=8 addrs=21 vcs=2 buf=8 with a coding unit of 4 lanes" default-threads-clos-tile \
    -- --topo clos:m=5,n=3,r=4 --router threads=2
which_build "building network clos:m=5,n=3,r=4" default-clos-model-flat -- --topo clos:m=5,n=3,r=4 --router model=flat

# one tile model serves every network of its parameters: a second mesh of
# the same ports and addresses builds nothing
note="$TMP/notes"
: >"$note"
XNOC_BUILD_NOTE="$note" $XNOC traffic --topo mesh:2x8 --router model=tile,ncu=0 --cycles 200 --json >"$TMP/m28.json" 2>/dev/null
if [ $? = 0 ] && ! grep -q "^built" "$note" && jq -e '.errors==0 and .delivered_packets>0' "$TMP/m28.json" >/dev/null; then
    ok tile-shared-model
else fail tile-shared-model "$(cat "$note")"; fi

# networks of different address counts share a tile: without a unit the
# routing table is the count's power-of-two bucket (netbuild_tile_addrs),
# so mesh:3x3 (9 addresses) runs on the model of mesh:4x4 (16), and both
# report what the flat build reports
: >"$note"
for topo in mesh:3x3 mesh:4x4; do
    XNOC_BUILD_NOTE="$note" $XNOC traffic --topo $topo --router model=tile,ncu=0 --rate 0.2 --packet 4 --cycles 2000 \
        --json >"$TMP/share-$topo.tile" 2>/dev/null
    $XNOC traffic --topo $topo --router model=flat,ncu=0 --rate 0.2 --packet 4 --cycles 2000 --json \
        >"$TMP/share-$topo.flat" 2>/dev/null
done
dirs=$(awk '{ n = split($2, p, "/"); print p[n] }' "$note" | sort -u)
if [ "$(wc -l <"$note")" = 2 ] && [ "$(echo "$dirs" | grep -c .)" = 1 ] \
    && echo "$dirs" | grep -qx 'tile-p5-a16-c1-g1-s3-v2-b8-[0-9a-f]\{16\}' \
    && cmp -s "$TMP/share-mesh:3x3.tile" "$TMP/share-mesh:3x3.flat" && cmp -s "$TMP/share-mesh:4x4.tile" "$TMP/share-mesh:4x4.flat" \
    && jq -e '.delivered_packets > 0 and .errors == 0' "$TMP/share-mesh:3x3.tile" >/dev/null; then
    ok tile-shared-address-bucket
else fail tile-shared-address-bucket "models: $(tr '\n' ' ' <"$note"); reports $(cmp "$TMP/share-mesh:3x3.tile" "$TMP/share-mesh:3x3.flat" 2>&1)"; fi

# ...and an address the network does not have is still flagged, as the flat
# build flags it: inside the bucket (12: the tile's run-time check) and
# beyond it (20: the router's own), the same line and exit
for a in 12 20; do
    for m in flat tile; do
        XNOC_TEST_BAD_DEST=$a $XNOC traffic --topo mesh:3x3 --rate 0.2 --packet 4 --cycles 2000 --router model=$m,ncu=0 \
            >/dev/null 2>"$TMP/bd$a.$m"
        echo "exit $?" >>"$TMP/bd$a.$m"
    done
    if grep -q "router [0-9]* flags an RTL invariant violation (bits 0x8:" "$TMP/bd$a.tile" && grep -qx "exit 1" "$TMP/bd$a.tile" \
        && cmp -s "$TMP/bd$a.flat" "$TMP/bd$a.tile"; then ok tile-bad-address-$a
    else fail tile-bad-address-$a "flat: $(tr '\n' ' ' <"$TMP/bd$a.flat") tile: $(tr '\n' ' ' <"$TMP/bd$a.tile")"; fi
done
check_fail tile-bad-address-hook 2 "^xnoc traffic: XNOC_TEST_BAD_DEST=4096: not an address 0..4095$" \
    env XNOC_TEST_BAD_DEST=4096 $XNOC traffic --topo mesh:3x3 --router model=tile,ncu=0 --cycles 10

# the harness's side of the tile build (link tables, the config rows, the
# taps) under ASan with leak checking: clean, and the same report
$XNOC_ASAN traffic --topo mesh:4x4 --router model=tile,ncu=0 --rate 0.2 --packet 4 --cycles 300 --json \
    >"$TMP/asan.json" 2>"$TMP/asan.err"
rc=$?
$XNOC traffic --topo mesh:4x4 --router model=flat,ncu=0 --rate 0.2 --packet 4 --cycles 300 --json >"$TMP/asan.flat" 2>/dev/null
if [ $rc = 0 ] && ! grep -q Sanitizer "$TMP/asan.err" && cmp -s "$TMP/asan.json" "$TMP/asan.flat"; then ok tile-asan
else fail tile-asan "exit $rc: $(grep -m2 Sanitizer "$TMP/asan.err")"; fi

# the model cache verifies what it loads (issue 46): every model carries a
# manifest (net/model_cache.c: its key, its configuration, its tile.so's size
# and content hash) checked before dlopen.  In a private cache: a truncated
# tile.so and another configuration's tile.so copied in are each named in one
# line and rebuilt, and the report equals the clean one; never a signal.
MC="$TMP/mcache"; mkdir -p "$MC"
mc_run() { XNOC_BUILD="$MC" $XNOC traffic --topo mesh:2x2 --router ncu=0 --rate 0.2 --packet 2 --cycles 400 --json "$@"; }
mc_run >"$TMP/mc.clean" 2>"$TMP/mc.clean.err"
so=$(ls "$MC"/cache/tile-*/tile.so 2>/dev/null | head -1)
if [ -s "$TMP/mc.clean" ] && [ -n "$so" ] && grep -q "^key [0-9a-f]\{16\}$" "$(dirname "$so")/manifest"; then ok cache-manifest-written
else fail cache-manifest-written "no tile model with a manifest in $MC/cache: $(head -2 "$TMP/mc.clean.err")"; fi
mc_damaged() { # NAME WHY-REGEX: the run after the damage says it once, rebuilds, and reports as the clean run did
    local name=$1 why=$2
    mc_run >"$TMP/mc.$name" 2>"$TMP/mc.$name.err"
    local rc=$?
    if [ $rc = 0 ] && [ "$(grep -c . "$TMP/mc.$name.err")" = 1 ] \
        && grep -Eq "^xnoc: the cached model .*/tile-[^ ]*: $why; rebuilding it$" "$TMP/mc.$name.err" \
        && cmp -s "$TMP/mc.clean" "$TMP/mc.$name"; then ok "cache-$name-rebuilt"
    else fail "cache-$name-rebuilt" "exit $rc: $(head -3 "$TMP/mc.$name.err" | tr '\n' ' ')"; fi
}
size=$(stat -c %s "$so")
truncate -s $((size / 2)) "$so"
mc_damaged truncated "tile.so is $((size / 2)) bytes, its manifest says $size"
# another configuration's model (one the tests built in the shared cache, else a flat network's) copied in
other=$(ls "${XNOC_BUILD:-build}"/cache/tile-*/tile.so 2>/dev/null | grep -v "/$(basename "$(dirname "$so")")/" | head -1)
[ -n "$other" ] || { XNOC_BUILD="$MC" $XNOC traffic --topo mesh:2x2 --router model=flat,ncu=0 --cycles 10 >/dev/null 2>&1
                     other=$(ls "$MC"/cache/mesh_2x2-*/net.so | head -1); }
cp "$other" "$so"
mc_damaged swapped "tile.so (is [0-9]+ bytes, its manifest says $size|'s content hash differs from its manifest's)"
# one byte in the middle of the object complemented (every bit flipped): the content hash catches it
b=$(od -An -tu1 -j $((size / 3)) -N1 "$so" | tr -d ' ')
printf "\\$(printf %o $((255 - b)))" | dd of="$so" bs=1 seek=$((size / 3)) conv=notrunc status=none
mc_damaged bitflip "tile.so's content hash differs from its manifest's"
