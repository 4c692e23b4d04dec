#!/usr/bin/env bash
# tools/test_under_load.sh [PATTERN...] - runs tests/run PATTERN... while
# CPU-burning processes (XNOC_LOAD_HOGS, default 2: one per core of the CI
# machine) compete with it, and stops them on any exit.  A test whose
# verdict depends on the machine's speed (a search or a wait with a budget
# in seconds) fails here; docs/testing.md.  Prints tests/run's report, then
# one line with the CPU seconds the hogs burnt (proof that they ran);
# exits with tests/run's status.
#   tools/test_under_load.sh sched       # the acceptance check of issue 39
set -u
cd "$(dirname "$0")/.."
n=${XNOC_LOAD_HOGS:-2}
case $n in '' | *[!0-9]*) echo "test_under_load: XNOC_LOAD_HOGS='$n' is not a number" >&2; exit 2 ;; esac

hogs=()
stop_hogs() {
    local p
    for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${hogs[@]}"; do wait "$p" 2>/dev/null; done
    hogs=()
}
trap stop_hogs EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A hog spins in the shell and checks now and then that this script still
# lives, so it ends on its own even if the script is killed with SIGKILL.
me=$$
for ((i = 0; i < n; i++)); do
    bash -c 'while kill -0 '"$me"' 2>/dev/null; do j=0; while [ $j -lt 200000 ]; do j=$((j + 1)); done; done' &
    hogs+=($!)
done
echo "test_under_load: $n CPU hog(s) running (pids ${hogs[*]}); tests/run $*"

tests/run "$@"
rc=$?

# the hogs' CPU time (utime + stime, clock ticks) before they are stopped
tck=$(getconf CLK_TCK)
burnt=0
for p in "${hogs[@]}"; do
    t=$(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)
    burnt=$((burnt + t))
done
echo "test_under_load: the $n hog(s) burnt $((burnt / tck)) CPU s beside the tests"
exit $rc
