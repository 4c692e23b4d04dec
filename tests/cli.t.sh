# cli: the one strict number parser (util/cli.c) behind every numeric option,
# and the model cache's manners: a process waiting for another's build says so,
# and a killed build's folder is cleaned by the next build (never a live one's)
source tests/lib.sh

# ---- numbers: out of range refused (never wrapped or clamped), trailing junk
# refused, no spaces or signs; exit 2 and one line naming the flag
c() { check_fail "$@"; }
c num-shape-wrap 2 "^xnoc collective: --group-shape '99999999999x2': each number must be 1\.\.65536$" \
    $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --group-shape 99999999999x2
c num-shape-junk 2 "^xnoc collective: --group-shape '2x2junk': expected GWxGH such as 4x2, or best$" \
    $XNOC collective --topo mesh:4x4 --op allgather --algo hnc --group-shape 2x2junk
c num-seed-space-minus 2 "^xnoc traffic: --seed: ' -1' is not a non-negative integer$" $XNOC traffic --topo mesh:2x2 --seed ' -1'
c num-seed-minus 2 "^xnoc traffic: --seed: '-1' is not a non-negative integer$" $XNOC traffic --topo mesh:2x2 --seed -1
c num-seed-plus 2 "^xnoc traffic: --seed: '\+1' is not a non-negative integer$" $XNOC traffic --topo mesh:2x2 --seed +1
c num-seed-wrap 2 "^xnoc traffic: --seed: 18446744073709551616 is out of range \[0, 18446744073709551615\]$" \
    $XNOC traffic --topo mesh:2x2 --seed 18446744073709551616
c num-route-junk 2 "^xnoc topo: --route '0:3junk': expected SRC:DST with terminals 0\.\.15$" $XNOC topo --topo mesh:4x4 --route 0:3junk
c num-route-wrap 2 "^xnoc topo: --route '0:4294967299': expected SRC:DST" $XNOC topo --topo mesh:4x4 --route 0:4294967299
c num-window-junk 2 "^xnoc traffic: --trace-window '0:3junk': expected A:B with A < B" \
    $XNOC traffic --topo mesh:2x2 --trace "$TMP/t.vcd" --trace-window 0:3junk
c num-window-minus 2 "^xnoc traffic: --trace-window '-1:3': expected A:B" $XNOC traffic --topo mesh:2x2 --trace "$TMP/t.vcd" --trace-window -1:3
c num-packet-wrap 2 "^xnoc traffic: --packet: 18446744073709551617 is out of range \[1, 64\]$" \
    $XNOC traffic --topo mesh:2x2 --packet 18446744073709551617
c num-packet-space 2 "^xnoc traffic: --packet: ' 4' is not an integer$" $XNOC traffic --topo mesh:2x2 --packet ' 4'
c num-packet-junk 2 "^xnoc traffic: --packet: '4junk' is not an integer$" $XNOC traffic --topo mesh:2x2 --packet 4junk
c num-rate-space 2 "^xnoc traffic: --rate: ' 0.5' is not a number$" $XNOC traffic --topo mesh:2x2 --rate ' 0.5'
c num-rate-nan 2 "^xnoc traffic: --rate: 'nan' is not a number$" $XNOC traffic --topo mesh:2x2 --rate nan
c num-rate-hex 2 "^xnoc traffic: --rate: '0x1p-2' is not a number$" $XNOC traffic --topo mesh:2x2 --rate 0x1p-2
c num-router-wrap 2 "^xnoc traffic: --router: vcs=4294967298 is out of range 1\.\.8$" $XNOC traffic --topo mesh:2x2 --router vcs=4294967298
c num-router-huge 2 "^xnoc traffic: --router: buf=99999999999999999999 is out of range 1\.\.64$" \
    $XNOC traffic --topo mesh:2x2 --router buf=99999999999999999999
c num-router-space 2 "^xnoc traffic: --router: vcs=' 2' is not an integer$" $XNOC traffic --topo mesh:2x2 --router 'vcs= 2'
c num-sources-space 2 "^xnoc traffic: --sources: terminal set '0, 1': expected a list like 0-7,9,12-15$" \
    $XNOC traffic --topo mesh:2x2 --sources '0, 1'
c num-sources-wrap 2 "^xnoc traffic: --sources: terminal set '99999999999999999999': terminal 99999999999999999999 does not exist \(terminals 0-3\)$" \
    $XNOC traffic --topo mesh:2x2 --sources 99999999999999999999
c num-size-wrap 2 "^xnoc traffic: --size '4294967616x300': expected WxH from 320x240 to 8192x8192$" \
    $XNOC traffic --topo mesh:2x2 --size 4294967616x300
c num-size-junk 2 "^xnoc traffic: --size '400x300junk': expected WxH" $XNOC traffic --topo mesh:2x2 --size 400x300junk
c num-ncmodel-junk 2 "^xnoc ncmodel: --topo 'mesh:8x8junk': expected a size WxH such as mesh:32x32$" $XNOC ncmodel --topo mesh:8x8junk
c num-ncmodel-shape-wrap 2 "^xnoc ncmodel: --group-shape '4294967298x2': expected GWxGH such as 8x4, or best$" \
    $XNOC ncmodel --topo mesh:8x8 --group-shape 4294967298x2
c num-qcdoc-dims-wrap 2 "^xnoc qcdoc: --dims '6,6,99999999999': each size must be 1\.\.100000$" $XNOC qcdoc --dims 6,6,99999999999
c num-qcdoc-dims-junk 2 "^xnoc qcdoc: --dims '6,6junk': expected 1 to [0-9]+ sizes" $XNOC qcdoc --dims 6,6junk
c num-alloc-junk 2 "^xnoc collective: --alloc 'random:4junk': expected random:N or random:N:SEED$" \
    $XNOC collective --topo mesh:4x4 --op bcast --alloc random:4junk
c num-alloc-seed 2 "^xnoc collective: --alloc 'random:4: 7': expected random:N or random:N:SEED$" \
    $XNOC collective --topo mesh:4x4 --op bcast --alloc 'random:4: 7'
c num-arg-space 2 "^xnoc run: --arg 'a= 5': the value is not a 32-bit integer$" $XNOC run --topo mesh:2x2 --arg 'a= 5' build/firmware/hello.elf
c num-arg-wrap 2 "^xnoc run: --arg 'a=4294967296': the value is not a 32-bit integer$" \
    $XNOC run --topo mesh:2x2 --arg a=4294967296 build/firmware/hello.elf
c num-ports-hex-junk 2 "^xnoc traffic: --ports: '0x' is not an integer$" $XNOC traffic --topo mesh:2x2 --ports 0x
# the forms that are numbers still are: hex, and a leading zero is decimal (not octal)
check num-hex-and-leading-zero $XNOC topo --topo mesh:4x4 --route 0x3:010
c num-leading-zero-decimal 2 "^xnoc topo: --route '0:017': expected SRC:DST with terminals 0\.\.15$" $XNOC topo --topo mesh:4x4 --route 0:017

# ---- the model cache (the flat build's, model=flat; tile.t.sh has the
# tile's).  A private build folder and a fake verilator that fails at once:
# the build steps run without minutes of verilating.
B=$TMP/b
mkdir -p "$B/cache" "$TMP/bin"
printf '#!/bin/sh\necho "fake verilator: $*" >&2\nexit 1\n' > "$TMP/bin/verilator"
chmod +x "$TMP/bin/verilator"
fake() { env PATH="$TMP/bin:$PATH" XNOC_BUILD="$B" "$@"; }
sh -c 'exit 0' & dead=$!; wait $dead
sleep 600 & live=$!
mkdir -p "$B/cache/mesh_9x9-k1-v2-b8-00000000000000aa.tmp$dead/obj" "$B/cache/mesh_9x9-k1-v2-b8-00000000000000bb.tmp$live/obj" \
    "$B/cache/mesh_9x9-k1-v2-b8-00000000000000cc.tmp$dead/obj" "$B/cache/mesh_9x9-k1-v2-b8-00000000000000dd.tmp$dead"
touch "$B/cache/mesh_9x9-k1-v2-b8-00000000000000cc.lock" "$B/cache/mesh_9x9-k1-v2-b8-00000000000000dd.tmp$dead/failed"
exec 8>"$B/cache/mesh_9x9-k1-v2-b8-00000000000000cc.lock"
flock -x 8   # somebody builds model cc right now (a dead PID in its folder name notwithstanding)
fake $XNOC traffic --topo mesh:2x2 --router model=flat --cycles 10 8>&- >/dev/null 2>"$TMP/build.err"; rc=$?
exec 8>&-
if [ $rc = 2 ] && grep -q "verilator failed; see $B/cache/mesh_2x2-.*\.tmp[0-9]*/build.log" "$TMP/build.err"; then ok cache-fake-build-fails
else fail cache-fake-build-fails "exit $rc: $(head -2 "$TMP/build.err")"; fi
[ ! -e "$B/cache/mesh_9x9-k1-v2-b8-00000000000000aa.tmp$dead" ] && ok cache-killed-build-cleaned \
    || fail cache-killed-build-cleaned "the folder of a dead process with a free lock is still there"
[ -d "$B/cache/mesh_9x9-k1-v2-b8-00000000000000bb.tmp$live/obj" ] && ok cache-live-build-kept \
    || fail cache-live-build-kept "the folder of a live process was removed"
[ -d "$B/cache/mesh_9x9-k1-v2-b8-00000000000000cc.tmp$dead/obj" ] && ok cache-locked-build-kept \
    || fail cache-locked-build-kept "the folder of a model whose lock is held was removed"
[ -e "$B/cache/mesh_9x9-k1-v2-b8-00000000000000dd.tmp$dead/failed" ] && ok cache-failed-build-kept \
    || fail cache-failed-build-kept "a failed build's folder (its log) was removed"
kill $live 2>/dev/null; wait $live 2>/dev/null
# the failed mesh:2x2 build above left its folder, marked; the next build of
# the same model replaces it (its own new folder holds the new log)
first=$(sed -n 's|.*see \(.*\)/build.log.*|\1|p' "$TMP/build.err")
[ -e "$first/failed" ] && ok cache-failed-marked || fail cache-failed-marked "no $first/failed"
# a second process finds the model's lock held: one line says it waits
lock="${first%.tmp*}.lock"
exec 9>"$lock"
flock -x 9
fake env XNOC_PROGRESS=1 $XNOC traffic --topo mesh:2x2 --router model=flat --cycles 10 9>&- >/dev/null 2>"$TMP/wait.err" &
waiter=$!
for _ in $(seq 600); do grep -q "waiting for another" "$TMP/wait.err" && break; sleep 0.1; done
kill -0 $waiter 2>/dev/null && waiting=1 || waiting=0
exec 9>&-   # the other build ends: the waiter goes on (and fails like the first)
wait $waiter; rc=$?
n=$(grep -c "^xnoc: waiting for another xnoc building network mesh:2x2 k=1 vcs=2 buf=8 (.*\.lock)\.\.\.$" "$TMP/wait.err")
if [ "$waiting" = 1 ] && [ "$n" = 1 ] && [ $rc = 2 ]; then ok cache-wait-says-so
else fail cache-wait-says-so "waiting=$waiting lines=$n exit=$rc: $(head -3 "$TMP/wait.err" | tr '\n' '|')"; fi
[ ! -e "$first" ] && ok cache-same-model-replaces-failed || fail cache-same-model-replaces-failed "$first is still there"
# a value with a newline in it: the error quoting it is still one line (the
# first finding of fuzz_router and fuzz_cli; control characters escaped)
c num-newline-escaped 2 "^xnoc traffic: --router: routing='\\\\nvaliant' is not min, valiant or ugal$" \
    $XNOC traffic --topo mesh:2x2 --router $'routing=\nvaliant'
c num-control-escaped 2 "^xnoc traffic: --packet: '4\\\\x1b\[2J' is not an integer$" $XNOC traffic --topo mesh:2x2 --packet $'4\e[2J'

# ---- the command line as a person types it (issue 38's CLI polish) ----
out=$($XNOC --version); v=$(verilator --version | head -1)
[ "$(echo "$out" | head -1)" = "xnoc 0.3.0-dev" ] && echo "$out" | grep -qF "network models built with: $v" \
    && ok version-text || fail version-text "$out"
jcheck version-json "$($XNOC --version --json)" ".xnoc == \"0.3.0-dev\" and .verilator == \"$v\""
c version-extra 2 "^xnoc: --version takes only --json$" $XNOC --version --frob
# did you mean: commands, options, topology kinds, patterns; a far word gets no guess
c typo-command 2 "^xnoc: unknown command 'trafic' \(did you mean traffic\? xnoc --help lists them\)$" $XNOC trafic
c typo-command-far 2 "^xnoc: unknown command 'frobnicate' \(traffic, run, " $XNOC frobnicate
c typo-option 2 "^xnoc traffic: unknown option '--patern' \(did you mean --pattern\? see xnoc traffic --help\)$" \
    $XNOC traffic --topo mesh:2x2 --patern uniform
c typo-option-swap 2 "unknown option '--rtae' \(did you mean --rate\?" $XNOC traffic --topo mesh:2x2 --rtae 0.1
c typo-option-far 2 "^xnoc traffic: unknown option '--frobnicate' \(see xnoc traffic --help\)$" \
    $XNOC traffic --topo mesh:2x2 --frobnicate 1
c option-needs-value 2 "^xnoc run: option '--max-cycles' needs a value \(see xnoc run --help\)$" $XNOC run --max-cycles
c typo-kind 2 "unknown topology 'octogon' \(did you mean octagon\? known:" $XNOC topo --topo octogon
c typo-kind-far 2 "unknown topology 'hypercube' \(known:" $XNOC topo --topo hypercube:4
c typo-pattern 2 "unknown pattern 'unifrom' \(did you mean uniform\? uniform," $XNOC traffic --topo mesh:2x2 --pattern unifrom
# --opt=value is --opt value: the same report, byte for byte; the first '=' splits
a=$($XNOC topo --topo dragonfly:a=2,p=1,h=1 --route 0:3 --json)
b=$($XNOC topo --topo=dragonfly:a=2,p=1,h=1 --route=0:3 --json)
[ -n "$a" ] && [ "$a" = "$b" ] && ok opt-equals-value || fail opt-equals-value "reports differ"
c opt-equals-bad 2 "unknown option '--rote' \(did you mean --route\?" $XNOC topo --topo octagon --rote=0:3
# ---- issue 31/33: no path reaches a shell.  Verilator, make and g++ run
# from argument vectors; fakes of the three record their arguments one a
# line (make and g++ succeed, g++ writes a fake net.so, so the build goes
# all the way to the rename and the dlopen that refuses it).  The build
# folder holds a quote, a space, $(...) and backquotes: GNU make cannot
# build under a space, so the model compiles in a private folder of TMPDIR.
# (The flat build, model=flat: its make and net.so.)
XABS=$(realpath "$XNOC")
Q="$TMP/q'x \$(touch pwned) \`touch pwned2\`"
mkdir -p "$Q" "$TMP/qbin" "$TMP/qtmp"
for p in verilator make g++; do
    cat > "$TMP/qbin/$p" <<FAKE
#!/bin/sh
for a in "\$@"; do printf '%s\n' "\$a"; done > "$TMP/argv.$p"
[ $p = verilator ] && while [ \$# -gt 0 ]; do [ "\$1" = -Mdir ] && /bin/mkdir -p "\$2"; shift; done
[ $p = g++ ] && while [ \$# -gt 0 ]; do [ "\$1" = -o ] && echo fake > "\$2"; shift; done
exit 0
FAKE
    chmod +x "$TMP/qbin/$p"
done
(cd "$TMP" && env PATH="$TMP/qbin:$PATH" XNOC_BUILD="$Q" TMPDIR="$TMP/qtmp" "$XABS" traffic --topo mesh:2x2 --router model=flat --cycles 10 \
    >/dev/null 2>"$TMP/q.err"); rc=$?
model=$(ls -d "$Q"/cache/mesh_2x2-k1-v2-b8-*[0-9a-f] 2>/dev/null)
if [ $rc = 2 ] && [ -n "$model" ] && grep -qF "cannot load the network model $model/net.so" "$TMP/q.err"; then ok path-quote-build-runs
else fail path-quote-build-runs "exit $rc, model '$model': $(head -2 "$TMP/q.err")"; fi
[ -z "$(find "$TMP" -name 'pwned*' ! -path "$Q*")" ] && [ ! -e "$TMP/pwned" ] && ok path-quote-no-shell \
    || fail path-quote-no-shell "a path was run as a shell command: $(find "$TMP" -name 'pwned*')"
# the words the shell commands had, one argument each; the build folder's own paths whole
tmpd=$(sed -n '/^-o$/{n;p}' "$TMP/argv.g++"); tmpd=${tmpd%/net.so}
obj=$(sed -n '/^-Mdir$/{n;p}' "$TMP/argv.verilator")
want_v="--cc -O3 -fno-table -fno-gate --x-assign fast --x-initial fast -Wno-fatal -Wno-lint -Wno-style --top-module xnoc_network --noassert -Mdir"
if [ "$(head -15 "$TMP/argv.verilator" | tr '\n' ' ')" = "$want_v " ] && [ "$(tail -1 "$TMP/argv.verilator")" = xnoc_network.sv ] \
    && [[ "$obj" == "$TMP/qtmp/xnoc-obj-"*/obj ]]; then ok path-argv-verilator
else fail path-argv-verilator "$(tr '\n' '|' < "$TMP/argv.verilator")"; fi
want_m="-s|-j2|-C|$obj|-f|Vxnoc_network.mk|OPT_FAST=-O2|OPT_SLOW=-O1|OPT_GLOBAL=-O1|CXXFLAGS=-fPIC -w -include ../xnoc_vl_triggers.h|Vxnoc_network__ALL.a|"
[ "$(tr '\n' '|' < "$TMP/argv.make")" = "$want_m" ] && ok path-argv-make || fail path-argv-make "$(tr '\n' '|' < "$TMP/argv.make")"
if [ "$tmpd" = "${model}.tmp${tmpd##*.tmp}" ] && grep -qxF -- "-I$tmpd" "$TMP/argv.g++" && grep -qxF -- "$obj/Vxnoc_network__ALL.a" "$TMP/argv.g++"; then
    ok path-argv-gxx; else fail path-argv-gxx "$(tr '\n' '|' < "$TMP/argv.g++")"; fi
# the private folder is gone; the model folder holds what it always did
[ -z "$(ls -A "$TMP/qtmp")" ] && ok path-private-obj-removed || fail path-private-obj-removed "$(ls "$TMP/qtmp")"
[ "$(ls "$model" | tr '\n' ' ')" = "build.log net.so xnoc_io.inc xnoc_network.sv " ] && ok path-model-folder \
    || fail path-model-folder "$(ls "$model" | tr '\n' ' ')"
# a program that cannot start: its reason in the build log, the step named
rm "$TMP/qbin/make"   # and PATH is qbin alone (the fakes name /bin/mkdir)
rm -rf "$model"
(cd "$TMP" && env PATH="$TMP/qbin" XNOC_BUILD="$Q" TMPDIR="$TMP/qtmp" "$XABS" traffic --topo mesh:2x2 --router model=flat --cycles 10 \
    >/dev/null 2>"$TMP/q2.err"); rc=$?
log=$(sed -n 's|.*failed; see \(.*\)$|\1|p' "$TMP/q2.err")
if [ $rc = 2 ] && grep -q "compiling the verilated model failed" "$TMP/q2.err" && grep -q "^xnoc: cannot run make: No such file or directory$" "$log"; then
    ok path-missing-program; else fail path-missing-program "exit $rc: $(head -2 "$TMP/q2.err") log: $(tail -2 "$log" 2>/dev/null)"; fi
[ -z "$(ls -A "$TMP/qtmp")" ] && ok path-private-obj-removed-on-failure || fail path-private-obj-removed-on-failure "$(ls "$TMP/qtmp")"

# every --router key the parser takes is in every network command's --help
# (one text, ROUTER_CFG_HELP, beside the parser's table in router_cfg.c)
keys=$(grep -o '{"[a-z_]*", [0-9]' sim_harness/net/router_cfg.c | sed 's/{"//; s/".*//'; echo routing; echo ncu_ops; echo model)
for cmd in traffic run collective synth; do
    h=$($XNOC $cmd --help); missing=""
    for k in $keys; do grep -q "$k=" <<<"$h" || missing="$missing $k"; done
    [ -z "$missing" ] && [ "$(wc -w <<<"$keys")" -ge 11 ] && ok "router-keys-in-help-$cmd" \
        || fail "router-keys-in-help-$cmd" "missing:$missing"
done
# the split words are freed: the ASan binary (leak check on) exits 0 with and without '='
$XNOC_ASAN topo --topo=octagon --route=0:3 >/dev/null 2>"$TMP/asan.err" && $XNOC_ASAN topo --topo octagon >/dev/null 2>>"$TMP/asan.err" \
    && ! grep -q Sanitizer "$TMP/asan.err" && ok opt-equals-asan || fail opt-equals-asan "$(head -3 "$TMP/asan.err" | tr '\n' '|')"

# Ctrl-C: the command reports what ran and exits 130 (128 + SIGINT), not 1.
# Timing-free: the signal is sent once the process has its SIGINT handler
# (bit 2 of SigCgt in /proc/PID/status), so it always lands in the run loop.
interrupt() { # NAME JQ-EXPR CMD...: run CMD, Ctrl-C it, check exit 130 and its JSON
    local name=$1 expr=$2; shift 2
    "$@" >"$TMP/int.json" 2>"$TMP/int.err" & local pid=$! caught=0
    for _ in $(seq 1200); do
        m=$(awk '/^SigCgt:/ {print $2}' /proc/$pid/status 2>/dev/null) || break
        [ -n "$m" ] && [ $(( 0x$m & 2 )) != 0 ] && { caught=1; break; }
        sleep 0.05
    done
    kill -INT $pid 2>/dev/null; wait $pid; local rc=$?
    if [ $caught = 1 ] && [ $rc = 130 ] && jq -e "$expr" "$TMP/int.json" >/dev/null 2>&1 && grep -q 'Ctrl-C' "$TMP/int.err"
    then ok "$name"; else fail "$name" "caught=$caught exit=$rc: $(head -c 300 "$TMP/int.json") $(head -2 "$TMP/int.err")"; fi
}
interrupt interrupt-traffic '.interrupted == true and .errors == 0' $XNOC traffic --topo mesh:2x2 --cycles 1000000000 --json
interrupt interrupt-run '.ok == false and (.error | test("interrupted at cycle [0-9]+ \\(Ctrl-C\\)"))' \
    $XNOC run --topo mesh:2x2 --max-cycles 1000000000000 --arg 0=4000000000 --json build/firmware/compute.elf
