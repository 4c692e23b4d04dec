#!/usr/bin/env bash
# tools/fnlen.sh - no function of the command layer over MAX lines (issue 33:
# a command is options -> engine -> report; the engines live in their own
# folders, traffic/ and collrun/).
#
# A function's length is its body: from the "{" that opens it to the "}"
# that closes it, both alone at column 0 (the house style, .clang-format's
# Linux braces, which `make format-check` enforces).  Prints each function
# over MAX as "FILE:LINE: NAME is N lines (at most MAX)" on stderr and exits
# 1; with -v also lists every function's length on stdout.
#
# usage: tools/fnlen.sh [-v] [MAX] [FILE...]     (default 150, sim_harness/cmd/*.c)
set -eu
cd "$(dirname "$0")/.."
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
max=150
case ${1:-} in '' | *[!0-9]*) ;; *) max=$1; shift ;; esac
[ $# -gt 0 ] || set -- sim_harness/cmd/*.c
awk -v max="$max" -v verbose="$verbose" '
FNR == 1 { prev = ""; start = 0 }
/^\{/ { start = FNR; name = prev; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n] }
/^\}/ && start {
    len = FNR - start + 1; nfun++
    if (verbose) print FILENAME ":" start ": " name " " len
    if (len > max) { printf "%s:%d: %s is %d lines (at most %d)\n", FILENAME, start, name, len, max > "/dev/stderr"; bad = 1 }
    start = 0
}
{ prev = $0 }
END { if (!nfun) { print "fnlen.sh: no functions found" > "/dev/stderr"; exit 2 } exit bad }' "$@"
