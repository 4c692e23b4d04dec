# tests/lib.sh - helpers for test groups (sourced).
#   ok NAME / fail NAME WHY         report a case
#   check NAME CMD...               CMD must exit 0
#   check_fail NAME CODE REGEX CMD...  CMD must exit CODE and print one stderr
#                                   line matching REGEX (and not crash)
#   jcheck NAME JSON JQ-EXPR        jq expression on JSON must be true
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
XNOC=${XNOC:-build/xnoc}
XNOC_ASAN=${XNOC_ASAN:-build/xnoc-asan}
export XNOC_PROGRESS=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok()   { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }

check() {
    local name=$1; shift
    local log="$TMP/check.log"
    if "$@" >"$log" 2>&1; then ok "$name"
    else fail "$name" "exit $? from: $* :: $(tail -3 "$log" | tr '\n' ' ')"; fi
}

check_fail() {
    local name=$1 code=$2 re=$3; shift 3
    local err="$TMP/err.log"
    "$@" >/dev/null 2>"$err"
    local rc=$?
    local lines
    lines=$(grep -c . "$err")
    if [ "$rc" != "$code" ]; then fail "$name" "expected exit $code, got $rc: $(head -2 "$err")"
    elif ! grep -Eq -- "$re" "$err"; then fail "$name" "stderr '$(head -2 "$err")' does not match /$re/"
    elif [ "$lines" != 1 ]; then fail "$name" "expected one line on stderr, got $lines: $(head -3 "$err" | tr '\n' '|')"
    else ok "$name"; fi
}

jcheck() {
    local name=$1 json=$2 expr=$3
    if [ "$(printf '%s' "$json" | jq -e "$expr" 2>/dev/null)" = true ]; then ok "$name"
    else fail "$name" "jq '$expr' is not true on: $(printf '%s' "$json" | head -c 300)"; fi
}

# unit_bin VAR NAME: VAR = the unit-test program build/tests/NAME (make
# unit builds them); missing, the case fails naming the make command.
UNIT_DIR=${XNOC_BUILD:-build}/tests
unit_bin() {
    if [ -x "$UNIT_DIR/$2" ]; then printf -v "$1" '%s' "$UNIT_DIR/$2"; return 0; fi
    fail "$2-built" "$UNIT_DIR/$2 is missing: run make unit"
    return 1
}
