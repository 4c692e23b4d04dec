# synth: `xnoc synth` (the network's router and coding unit through yosys,
# with netgen's parameters; cached) and a sweep that joins area to traffic
source tests/lib.sh

if ! command -v yosys >/dev/null; then echo "skip synth: yosys is not installed (make deps)"; exit 0; fi
j=$($XNOC synth --topo mesh:2x2 --router ncu=0,buf=8 --json 2>/dev/null)
jcheck synth-router "$j" '.router.params=="NumPorts=5 NumVcs=2 BufDepth=8 NumAddrs=4 NumClasses=1 NumGroups=1 RouteBits=3" and .router.cells > 10000 and
    .router.flip_flops > 2000 and .router.muxes > 1000 and .unit==null and .cells_per_router==.router.cells and
    .network_cells==4*.router.cells and .noshare==false'
# the answer is cached (build/cache/synth-xnoc_router-HASH.json) and read back the same
cache=${XNOC_BUILD:-build}/cache
check synth-cache-file grep -lq '"params":"NumPorts=5 NumVcs=2 BufDepth=8 NumAddrs=4 NumClasses=1 NumGroups=1 RouteBits=3"' $cache/synth-xnoc_router-*.json
j2=$($XNOC synth --topo mesh:2x2 --router ncu=0,buf=8 --json 2>/dev/null)
check synth-cached [ "$j2" = "$j" ]
# half the buffer depth: 2 VCs x 5 ports x 4 flits x 66 bits (payload, head, tail) fewer flip-flops, give or take counters
jb=$($XNOC synth --topo mesh:2x2 --router ncu=0,buf=4 --json 2>/dev/null)
jcheck synth-buffers-are-flops "$(jq -nc --argjson a "$j" --argjson b "$jb" '{d: ($a.router.flip_flops - $b.router.flip_flops)}')" \
    '.d >= 2*5*4*66 and .d <= 2*5*4*66 + 200'
# with coding units: the router gets the unit's port, the unit is synthesized too
ju=$($XNOC synth --topo mesh:2x2 --router slots=2,ncmax=8 --json 2>/dev/null)
jcheck synth-unit "$ju" '.router.params=="NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=8 NumClasses=1 NumGroups=1 RouteBits=3" and
    .unit.params=="NumPorts=6 NumVcs=2 BufDepth=8 NumAddrs=8 NumTerms=4 NumSlots=2 XorLat=1 MaxFlits=8 Timeout=100000 NcuOps=1" and .unit.cells > 1000 and
    .cells_per_router==.router.cells+.unit.cells'
# the combining operators' cost: the unit with XOR only and with all of them (the default: all)
jcheck synth-unit-ops "$ju" '.ncu_ops=="all" and .unit_ops.all_cells==.unit.cells and .unit_ops.xor_cells < .unit_ops.all_cells and
    .unit_ops.operator_cells==.unit_ops.all_cells-.unit_ops.xor_cells and .unit_ops.operator_percent > 0'
jx=$($XNOC synth --topo mesh:2x2 --router slots=2,ncmax=8,ncu_ops=xor --json 2>/dev/null)
jcheck synth-unit-xor "$(jq -nc --argjson a "${ju:-null}" --argjson x "${jx:-null}" '{a: $a, x: $x}')" '.x.ncu_ops=="xor" and
    (.x.unit.params|endswith("NcuOps=0")) and .x.unit.cells==.a.unit_ops.xor_cells and .x.unit_ops==.a.unit_ops and
    .x.cells_per_router==.x.router.cells+.a.unit_ops.xor_cells'
check_fail synth-bad-ncu-ops 2 "ncu_ops='some' is not xor or all" $XNOC synth --topo mesh:2x2 --router ncu_ops=some
check synth-text $XNOC synth --topo mesh:2x2 --router ncu=0,buf=8
# the text report is the JSON report rendered (util/report.h): every figure of the one is in the other
h=$($XNOC synth --topo mesh:2x2 --router slots=2,ncmax=8 2>/dev/null)
want=$(jq -r '"mesh:2x2: \(.routers) routers|router \(.router.params) \(.router.cells) cells \(.router.flip_flops) flip-flops \(.router.muxes) muxes|coding unit \(.unit.params) \(.unit.cells) cells \(.unit.flip_flops) flip-flops \(.unit.muxes) muxes|unit operators (\(.ncu_ops)): XOR only \(.unit_ops.xor_cells) cells, all \(.unit_ops.all_cells) cells (+\(.unit_ops.operator_cells), \(.unit_ops.operator_percent)%)|per router \(.cells_per_router) cells, the network \(.network_cells) cells"' <<<"$ju")
got=$(printf '%s\n' "$h" | sed 's/^ *//;s/  */ /g' | paste -sd'|')
if [ -n "$ju" ] && [ "$want" = "$got" ]; then ok synth-text-from-json; else fail synth-text-from-json "json: $want text: $got"; fi
check synth-help $XNOC synth --help
check_fail synth-no-topo 2 "--topo is required" $XNOC synth
check_fail synth-bad-router 2 "vcs" $XNOC synth --topo mesh:2x2 --router vcs=99
check_fail synth-no-yosys 1 "yosys not found: run 'make deps'" env PATH=/nonexistent-bin "$PWD/$XNOC" synth --topo mesh:2x2 --router ncu=0,buf=3

# a sweep with "area": the synthesized cells join each point; plot.reduce keeps each configuration's best
if command -v parallel >/dev/null && command -v gnuplot >/dev/null; then
    cat > "$TMP/a.json" <<'SPEC'
{"command": "traffic", "area": true, "fixed": {"topo": "mesh:2x2", "pattern": "uniform", "cycles": 1500, "warmup": 200},
 "axes": {"router": ["ncu=0,buf=4", "ncu=0,buf=8"], "rate": [0.2, 0.9]},
 "metrics": ["throughput", "cells_per_router", "unit_cells"],
 "plot": {"x": "cells_per_router", "y": "throughput", "series": ["router"], "reduce": "max"}}
SPEC
    $XNOC sweep "$TMP/a.json" --out "$TMP/ao" --jobs 2 --plot >/dev/null 2>"$TMP/aerr"
    c4=$(jq .router.cells <<<"$jb"); c8=$(jq .router.cells <<<"$j")
    check sweep-area-csv grep -q "^\"ncu=0,buf=8\",0.9,[0-9.]*,$c8,0\$" "$TMP/ao/results.csv"
    check sweep-area-csv-4 grep -q "^\"ncu=0,buf=4\",0.2,[0-9.]*,$c4,0\$" "$TMP/ao/results.csv"
    # one point per configuration: its cells, its best throughput over the rates
    best8=$(jq -s '[.[]|select(.router=="ncu=0,buf=8")|.report.throughput]|max' "$TMP/ao/results.jsonl")
    check sweep-reduce-max [ "$(awk -v c="$c8" '$1==c {print $2}' "$TMP/ao/plot.dat")" = "$(printf '%.10g' "$best8")" ]
    check sweep-reduce-points [ "$(grep -c '^[0-9]' "$TMP/ao/plot.dat")" = 2 ]
    check sweep-area-png [ "$(head -c 8 "$TMP/ao/plot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
    sed 's/"reduce": "max"/"reduce": "median"/' "$TMP/a.json" > "$TMP/a2.json"
    check_fail sweep-reduce-bad 2 '"reduce" must be "max" or "min"' $XNOC sweep "$TMP/a2.json" --out "$TMP/ao" --plot
fi
