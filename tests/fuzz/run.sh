#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [TARGET...] - runs the libFuzzer targets
# (built by `make fuzz-build` into build/fuzz/) for SECONDS each, from a
# corpus in build/fuzz/corpus/TARGET seeded with the project's own files
# (firmware ELF images, shipped schedules, topology strings).  Prints one
# line per target: "ok fuzz-TARGET: N runs" or "FAIL fuzz-TARGET: ...";
# a crash leaves its input in build/fuzz/crash-TARGET-*: make it a
# regression test by copying it to tests/fuzz/regress/TARGET-WHAT (those
# run first, before each target's fuzzing).
#
# tests/fuzz/run.sh --runs [TARGET...] (the test suite, tests/fuzz.t.sh):
# a fixed number of inputs per target (runs_of below: ~10 s each on this
# machine when quiet), seed 1, from the seed corpus alone (a fresh copy in
# build/fuzz/test-corpus/, not the corpus that grows across `make fuzz`):
# the same inputs on a fast or a busy machine, so the verdict does not
# depend on its speed.
set -u
cd "$(dirname "$0")/../.."
secs=${1:-60}; shift || true
targets=${*:-ni parse elf sched events spec router cli config}
B=build/fuzz
runs_of() { case $1 in ni | parse) echo 100000 ;; *) echo 20000 ;; esac; }
for t in $targets; do
    c=$B/corpus/$t
    if [ "$secs" = --runs ]; then c=$B/test-corpus/$t; rm -rf "$c"; fi
    mkdir -p "$c"
    case $t in
        elf) cp build/firmware/*.elf build/firmware/tests/*.elf "$c"/ 2>/dev/null ;;
        sched) cp schedules/*.json "$c"/ ;;
        spec) cp examples/sweeps/*.json "$c"/ ;;
        parse) i=0; for s in "mesh:4x4|0-3,5" "torus:3x5:c=2|1,2" "octagon|all" "fat-octagon|0,2,4-7" "mesh:1x1|0" "dragonfly:a=2,p=1,h=1|1" "clos:m=5,n=3,r=4|0-11"; do
                   printf '%s' "$s" > "$c/seed$i"; i=$((i + 1)); done ;;
        events) cp tests/fuzz/events-seed.jsonl "$c"/ ;;
        router) i=0; for s in "vcs=4,buf=4" "ncu=0" "routing=valiant" "routing=ugal,vcs=6" "slots=1,xorlat=35,timeout=1000" \
                              "ncmax=256,sendq=2,threads=2" "pw=64,vcs=2"; do printf '%s' "$s" > "$c/seed$i"; i=$((i + 1)); done ;;
        cli) printf '%s\0' xnoc --topo mesh:4x4 --router vcs=4 --ports 2 --seed 0x10 --json > "$c/seed0"
             printf '%s\0' xnoc --topo torus:3x5:c=2 --seed 18446744073709551615 0:3 4x2 0-7,9 > "$c/seed1"
             printf '%s\0' xnoc --topo dragonfly:a=2,p=1,h=1 --router routing=ugal -1.5e-3 100:200 > "$c/seed2" ;;
        config) printf 'topo = mesh:4x4   # a comment\n// another\nrate = 0.1;\njson = true\nhistogram_bin = 2\n' > "$c/seed0"
                printf 'topology = mesh;\nk = 8;\nn = 2;\nnum_vcs = 2;\nvc_buf_size = 8;\ntraffic = tornado;\npacket_size = {1,4};\ninjection_rate = 0.3;\ninjection_rate_uses_flits = 1;\ninjection_process = on_off;\nburst_alpha = 0.2;\nsample_period = 2000;\nwarmup_periods = 2;\n' > "$c/seed1" ;;
        ni) printf '\x10\x10\x00\x00\x00\x00\x00\x00\x00\x14\x00\x00\x01\x00\x00\x00\x02\x00\x00\x07\x00\x00\x00\x19' > "$c/seed0" ;;
    esac
    log=$B/fuzz-$t.log
    # inputs that once crashed a target (tests/fuzz/regress/TARGET-*) run first, every time
    reg=$(ls tests/fuzz/regress/$t-* 2>/dev/null)
    if [ -n "$reg" ]; then
        if $B/fuzz_$t $reg >"$B/regress-$t.log" 2>&1; then echo "ok fuzz-$t-regressions ($(echo "$reg" | wc -l) inputs)"
        else echo "FAIL fuzz-$t-regressions: $(grep -m1 -E 'ERROR|SUMMARY' "$B/regress-$t.log")"; fi
    fi
    if [ "$secs" = --runs ]; then limit="-runs=$(runs_of $t) -seed=1"; else limit="-max_total_time=$secs"; fi
    if (cd $B && ./fuzz_$t $limit -rss_limit_mb=2048 -artifact_prefix="crash-$t-" "${c#$B/}" >"fuzz-$t.log" 2>&1); then
        echo "ok fuzz-$t: $(grep -o 'Done [0-9]* runs' "$log" | head -1)"
    else
        echo "FAIL fuzz-$t: $(grep -m1 -E 'ERROR|SUMMARY' "$log") (input: $(ls $B/crash-$t-* 2>/dev/null | head -1))"
    fi
done
