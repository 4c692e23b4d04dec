# collective: every collective in firmware on mesh:4x4, octagon and
# fat-octagon, byte-exact, at 1 flit, 64 B and 1 KiB; both step modes;
# k = 1 and 2; built-in algorithms; schedule files; failure paths
source tests/lib.sh
# The searches without a shipped schedule (barrier, allgather k=2) get a
# small deterministic SAT budget, not seconds: the same schedule, and so
# the same cycles, on a fast or a busy machine.
c() { $XNOC collective --json --conflicts 100 "$@" 2>"$TMP/stderr"; }
ops="barrier bcast scatter gather reduce allgather alltoall mnb mns"
sets() { case $1 in mnb|mns) echo "--from 0-5 --to 3-7";; *) echo;; esac; }

for t in mesh:4x4 octagon fat-octagon; do
    for op in $ops; do
        for b in 8 64 1024; do
            [ $op = barrier ] && [ $b != 8 ] && continue
            j=$(c --topo $t --op $op --bytes $b $(sets $op))
            jcheck "$t-$op-${b}B" "$j" '.verified==true and .cycles>0 and .steps>=.lower_bound'
        done
        j=$(c --topo $t --op $op --bytes 64 --sync data $(sets $op))
        jcheck "$t-$op-data-driven" "$j" '.verified==true'
        j=$(c --topo $t --op $op --bytes 64 --ports 2 $(sets $op))
        jcheck "$t-$op-k2" "$j" '.verified==true and .ports==2'
    done
done

# A schedule-driven run in global steps sees no contention in the RTL.
j=$(c --topo fat-octagon --op alltoall --bytes 64)
jcheck sched-no-contention "$j" '.stalled_flit_cycles==0'
# The per-step model holds: every step costs t_s + m*t_1 within 5% (the
# first within 8%: it also carries the timed region's entry), and the
# run's mean step within 5%.
jcheck step-model "$j" '[.cycles_per_step[1:][] as $s | ($s - (.t_s + 64*.t_1)) / $s | fabs] | max < 0.05'
jcheck step-model-first "$j" '(.cycles_per_step[0] - (.t_s + 64*.t_1)) / .cycles_per_step[0] | fabs < 0.08'
jcheck step-model-mean "$j" '((.cycles_per_step|add/length) - (.t_s + 64*.t_1)) / (.t_s + 64*.t_1) | fabs < 0.05'
# every reduce operator, checked by the root against its own computation
for r in sum sum64 prod prod64 max min maxu minu and or xor; do
    j=$(c --topo octagon --op reduce --bytes 64 --redop $r)
    jcheck "reduce-$r" "$j" '.verified==true'
done
# built-in algorithms, table-routed
for a in tree ring all-at-once; do
    j=$(c --topo octagon --op bcast --bytes 64 --algo $a)
    jcheck "bcast-$a" "$j" '.verified==true'
done
j=$(c --topo octagon --op allgather --bytes 64 --algo rd); jcheck allgather-rd "$j" '.verified==true and .steps==3'
j=$(c --topo octagon --op alltoall --bytes 64 --algo ring); jcheck alltoall-ring "$j" '.verified==true and .steps==7'
# a schedule file from xnoc sched runs as it is
$XNOC sched --topo octagon --op mns --from 0-3 --to 4-7 -o "$TMP/s.json" >/dev/null
j=$($XNOC collective --json --schedule "$TMP/s.json" --bytes 128 2>/dev/null)
jcheck schedule-file "$j" '.verified==true and .op=="mns"'
jq '.steps[0].transfers += [.steps[1].transfers[0]]' "$TMP/s.json" > "$TMP/bad.json"
check_fail schedule-file-bad 2 "--schedule .*both use" $XNOC collective --schedule "$TMP/bad.json"

# failure paths
check_fail bad-algo 2 "--algo: unknown algorithm 'bogus'" $XNOC collective --topo octagon --op bcast --algo bogus
# did-you-mean over every name the command runs (innet, multicast; allreduce, scan, exscan)
check_fail algo-near 2 "^xnoc collective: --algo: unknown algorithm 'tre' \(did you mean tree\? sched, tree, .*, innet, multicast\)$" $XNOC collective --topo octagon --op bcast --algo tre
check_fail op-near-allreduce 2 "^xnoc collective: --op: unknown collective 'allreduc' \(did you mean allreduce\? barrier, .*, allreduce, scan, exscan\)$" $XNOC collective --topo octagon --op allreduc
check_fail op-near-exscan 2 "did you mean exscan\?" $XNOC collective --topo octagon --op exscn
check_fail from-no-terminal 2 "^xnoc collective: --from: terminal set '99': terminal 99 does not exist \(terminals 0-7\)$" $XNOC collective --topo octagon --op bcast --from 99
check_fail from-backwards 2 "^xnoc collective: --from: terminal set '5-3': range 5-3 runs backwards$" $XNOC collective --topo octagon --op bcast --from 5-3
check_fail max-cycles-zero 2 "^xnoc collective: --max-cycles 0: the run would stop before it starts \(at least 1\)$" $XNOC collective --topo octagon --op bcast --max-cycles 0
check_fail run-max-cycles-zero 2 "^xnoc run: --max-cycles 0: the run would stop before it starts \(at least 1\)$" $XNOC run --topo mesh:2x2 --max-cycles 0 build/firmware/hello.elf
if $XNOC collective --help | awk '/^  --algo/,/^  --steps/' | grep -q 'llf, glf, forest'; then ok help-dragonfly-algos-under-algo; else fail help-dragonfly-algos-under-algo "not under --algo"; fi
check_fail rd-not-pow2 2 "power-of-two" $XNOC collective --topo mesh:3x2 --op allgather --algo rd
check_fail tree-alltoall 2 "tree is defined for" $XNOC collective --topo octagon --op alltoall --algo tree
check_fail bad-sync 2 "--sync: 'fast'" $XNOC collective --topo octagon --op bcast --sync fast
check_fail bad-redop 2 "--redop: unknown operator 'avg'" $XNOC collective --topo octagon --op reduce --redop avg
check_fail reduce-words 2 "multiple of 4" $XNOC collective --topo octagon --op reduce --bytes 6
check_fail missing-op 2 "--op is required" $XNOC collective --topo octagon
check collective-help $XNOC collective --help

# shipped proven-optimal schedules (schedules/) come before any search
j=$(c --topo fat-octagon --op alltoall --bytes 64)
jcheck shipped-alltoall "$j" '.schedule_source=="shipped" and .schedule_file=="schedules/fat-octagon-alltoall-k1.json" and .steps==16 and .optimal==true and .verified==true'
j=$(c --topo fat-octagon --op bcast --bytes 64 --no-shipped)
jcheck no-shipped "$j" '.schedule_source=="search" and .search_ended=="proof" and .verified==true'
# a search stopped by the clock (the safety net) runs nothing: one line, exit 1
check_fail search-out-of-time 1 "^xnoc collective: out of time: the schedule search's --time-limit 0.01 s passed before its budgets \(--moves, --conflicts\) ran out" \
    $XNOC collective --topo fat-octagon --op allgather --ports 2 --bytes 64 --time-limit 0.01
check_fail bad-conflicts 2 "^xnoc collective: --conflicts: 0 is out of range" $XNOC collective --topo octagon --op bcast --conflicts 0
for f in schedules/*.json; do
    j=$($XNOC sched --verify "$f" --json 2>/dev/null)
    jcheck "shipped-verifies-$(basename "$f" .json)" "$j" '.valid==true'
    [ "$(jq .optimal "$f")" = true ] && ok "shipped-optimal-$(basename "$f" .json)" || fail "shipped-optimal-$(basename "$f" .json)" "not proven optimal"
done
# a shipped file that describes another collective is refused, and the search runs
mkdir -p "$TMP/src/schedules"
for d in rtl sim_harness firmware; do ln -s "$PWD/$d" "$TMP/src/$d"; done
cp schedules/fat-octagon-alltoall-k1.json "$TMP/src/schedules/fat-octagon-bcast-k1.json"
j=$(XNOC_SRC="$TMP/src" XNOC_BUILD="$PWD/build" $XNOC collective --json --topo fat-octagon --op bcast --bytes 64 --conflicts 100 2>"$TMP/stderr")
jcheck shipped-mismatch-searches "$j" '.schedule_source=="search" and .search_ended=="proof" and .verified==true'
grep -q "fat-octagon-bcast-k1.json: it describes alltoall on fat-octagon (k=1), not this collective (searching instead)" "$TMP/stderr" \
    && ok shipped-mismatch-line || fail shipped-mismatch-line "$(cat "$TMP/stderr")"

# the text report is the JSON report rendered (util/report.h): the same figures
j=$($XNOC collective --json --topo octagon --op alltoall --bytes 64 2>/dev/null)
h=$($XNOC collective --topo octagon --op alltoall --bytes 64 2>/dev/null)
want=$(printf '%s' "$j" | jq -r '"  \(.cycles) cycles in \(.steps) steps (lower bound \(.lower_bound));", "  \(.unicasts) unicasts, \(.hops) aggregate path hops, \(.link_flits) flits on router-to-router links"')
if printf '%s\n' "$h" | grep -qF "$(echo "$want" | head -1)" && printf '%s\n' "$h" | grep -qxF "$(echo "$want" | tail -1)"; then
    ok collective-text-from-json; else fail collective-text-from-json "json: $want text: $(echo "$h" | head -3)"; fi

# ---- issue 33: the calibration cache is keyed by content - the model's
# hash (net/netbuild.h), the whole router configuration, the clock ratio,
# the firmware's bytes - never by a file's time.  A private build folder
# whose cache links the shared models; octagon vcs=2,buf=2 is net's
# allpairs-buf2-bubbles model (built into the shared cache first if new).
$XNOC traffic --topo octagon --router vcs=2,buf=2 --pattern allpairs --packet 1 >/dev/null 2>&1
C=$TMP/calib
mkdir -p "$C/cache"
for d in build/cache/*/; do ln -s "$PWD/$d" "$C/cache/"; done
cp -r build/firmware "$C/firmware"
cal() { XNOC_BUILD="$C" $XNOC collective --json --topo octagon --op bcast --bytes 64 "$@" 2>"$TMP/cal.err"; }
ncal() { ls "$C/cache" | grep -c '^calib3-'; }
j=$(cal)
jcheck calib-measured "$j" '.verified==true and .t_s>0 and .t_1>0'
[ "$(ncal)" = 1 ] && ok calib-one-file || fail calib-one-file "$(ncal) calibration files"
f=$(ls "$C"/cache/calib3-*)
t1=$(jq .t_1 <<<"$j")
echo "7.000000 0.500000" > "$f"   # a sentinel: a rerun that reads it reports it
j=$(cal)
jcheck calib-reused "$j" '.t_s==7 and .t_1==0.5 and .verified==true'
# a router parameter that moves latency (buf=2: bubbles in every body flit's stream)
j=$(cal --router vcs=2,buf=2)
jcheck calib-buf-measured "$j" ".t_s!=7 and .t_1>$t1 and .verified==true"
[ "$(ncal)" = 2 ] && ok calib-buf-own-file || fail calib-buf-own-file "$(ncal) calibration files"
j=$(cal --router vcs=2,buf=2)
jcheck calib-buf-reused "$j" ".t_1>$t1"
[ "$(ncal)" = 2 ] && ok calib-buf-no-new-file || fail calib-buf-no-new-file "$(ncal) calibration files"
# the NI's send queue (no rebuild) is part of the key; a new file time is not
j=$(cal --router sendq=2)
jcheck calib-sendq-measured "$j" '.t_s!=7'
[ "$(ncal)" = 3 ] && ok calib-sendq-own-file || fail calib-sendq-own-file "$(ncal) calibration files"
touch -d '2001-01-01' "$C/firmware/coll.elf"
j=$(cal)
jcheck calib-time-not-key "$j" '.t_s==7 and .t_1==0.5'
[ "$(ncal)" = 3 ] && ok calib-time-no-new-file || fail calib-time-no-new-file "$(ncal) calibration files"

# --watchdog N and --spin-watchdog N, as for run: a lost last flit is named
# N cycles (rounded to the 256-cycle check) after the network went quiet
wd_cycle() { XNOC_TEST_DROP=1:9 $XNOC collective --topo octagon --op bcast --bytes 64 "$@" --json 2>/dev/null |
    jq -r '.error' | sed -n 's/.*stopped after 56 of its 64 bytes and the network is empty: its last flit(s) were lost (cycle \([0-9]*\)).*/\1/p'; }
c_def=$(wd_cycle); c_1k=$(wd_cycle --watchdog 1000)
if [ -n "$c_def" ] && [ -n "$c_1k" ] && [ $((c_def - c_1k)) -ge 3800 ] && [ $((c_def - c_1k)) -le 4300 ]; then ok collective-watchdog
else fail collective-watchdog "default at '$c_def', --watchdog 1000 at '$c_1k'"; fi
jcheck collective-spin-watchdog-off "$($XNOC collective --topo octagon --op bcast --spin-watchdog 0 --watchdog 0 --json 2>/dev/null)" '.verified==true'
check_fail collective-watchdog-bad 2 "^xnoc collective: --watchdog: 'x' is not a non-negative integer$" $XNOC collective --topo octagon --op bcast --watchdog x

# --config F (cmd/config_file.c): collective's options from key = value
# lines, the same run as the flags; the command line overrides the file
printf '# a tree broadcast\ntopo = octagon\nop = bcast\nbytes = 64\nalgo = tree\nno_shipped = true\nsync = false\n' > "$TMP/c.cfg"
a=$($XNOC collective --config "$TMP/c.cfg" 2>&1)
b=$($XNOC collective --topo octagon --op bcast --bytes 64 --algo tree --no-shipped 2>&1)
if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$(head -2 <<<"$a")" = "tree bcast on octagon, 64 bytes, global steps, k=1: verified byte-exact
  305 cycles in 3 steps (lower bound 3); model tau*t_s + V*t_1 = 3*89.0 + 192*0.125 = 291 cycles (measured: +4.8%, above the model)" ]; then
    ok config-same-as-flags; else fail config-same-as-flags "$(head -2 <<<"$a")"; fi
j=$($XNOC collective --config "$TMP/c.cfg" --bytes 128 --json 2>/dev/null)
jcheck config-flags-override "$j" '.bytes==128 and .algo=="tree" and .op=="bcast" and .cycles==337 and .verified==true'
printf 'topo = octagon\nop = bcast\nbyts = 4\n' > "$TMP/e1.cfg"
check_fail config-unknown-key 2 "^xnoc collective: $TMP/e1.cfg:3: unknown key 'byts' \(did you mean bytes\? see xnoc collective --help\)$" $XNOC_ASAN collective --config "$TMP/e1.cfg"
printf 'topo = octagon\nop = bcast\n\nalgo = treee\n' > "$TMP/e2.cfg"
check_fail config-bad-value 2 "^xnoc collective: $TMP/e2.cfg:4: --algo: unknown algorithm 'treee' \(did you mean tree\? sched, tree, " $XNOC_ASAN collective --config "$TMP/e2.cfg"
check_fail config-bad-value-overridden 2 "^xnoc collective: --algo: unknown algorithm 'rong' " $XNOC_ASAN collective --config "$TMP/c.cfg" --algo rong
printf 'topo = octagon\nno_shipped = yes\n' > "$TMP/e3.cfg"
check_fail config-flag-not-boolean 2 "^xnoc collective: $TMP/e3.cfg:2: 'no_shipped' is a flag: true or false, not 'yes'$" $XNOC_ASAN collective --config "$TMP/e3.cfg"

# --help's "Report keys:" (sim_harness/cmd/metrics.c: xnoc sweep checks metrics against it and
# labels plot axes from it) holds every top-level key a report can have (runs of every kind)
help=$($XNOC collective --help)
check help-report-key-label grep -qxE '  cycles +collective time \(cycles\)' <<<"$help"
check help-report-key-no-unit grep -qxE '  verified +verified byte-exact' <<<"$help"
keys=$(sed -n '/^Report keys:$/,$p' <<<"$help" | tail -n +2 | awk 'NF{print $1}' | sort -u)
all=$( { $XNOC collective --json --topo octagon --op bcast --bytes 64 --algo tree
    $XNOC collective --json --topo octagon --op reduce --bytes 64 --algo tree
    $XNOC collective --json --topo octagon --op alltoall --bytes 64 --no-shipped --conflicts 100
    $XNOC collective --json --topo mesh:4x4 --op allreduce --bytes 64 --algo innet
    $XNOC collective --json --topo clos:m=5,n=3,r=4 --op allgather --bytes 256 --algo multicast
    $XNOC collective --json --topo mesh:4x4 --op allgather --bytes 64 --algo hnc --group-shape 2x2
    $XNOC collective --json --topo dragonfly:a=4,p=2,h=2 --op bcast --bytes 1024 --alloc random:24:3 --algo llf --background 0.01
    $XNOC sched --topo octagon --op mns --from 0-3 --to 4-7 -o "$TMP/keys.json" >/dev/null
    $XNOC collective --json --schedule "$TMP/keys.json" --bytes 64; } 2>/dev/null | jq -r 'keys[]' | sort -u)
missing=$(comm -13 <(echo "$keys") <(echo "$all") | tr '\n' ' ')
if [ "$(wc -l <<<"$all")" -ge 80 ] && [ -z "$missing" ]; then ok help-report-keys-complete; else fail help-report-keys-complete "not in --help: $missing ($(wc -l <<<"$all") keys)"; fi
