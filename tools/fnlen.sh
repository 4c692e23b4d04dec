#!/usr/bin/env bash
# tools/fnlen.sh - short functions and short files (issues 33 and 48): no
# function of the harness over MAX lines (150), and no source file of
# sim_harness/, rtl/ or firmware/ over FILEMAX lines (650).  The one listed
# exception is the interpreter's dispatch, rv32_run (core/rv32.c: one
# threaded switch over the decoded ops, whose parts share its registers and
# labels; split, it would pay a call per instruction).
#
# A function's length is its body: from the "{" that opens it to the "}"
# that closes it, both alone at column 0 (the house style, .clang-format's
# Linux braces, which `make format-check` enforces).  Its name is read from
# its signature, which may span lines (the first line at column 0 before the
# "{" up to it).  Prints each function over MAX as "FILE:LINE: NAME is N
# lines (at most MAX)" and each file over FILEMAX as "FILE: N lines (at most
# FILEMAX)" on stderr and exits 1; with -v also lists every function's
# length on stdout.
#
# usage: tools/fnlen.sh [-v] [MAX] [FILE...]
#        (default: every .c of sim_harness/ for functions; with no FILE the
#        file lengths of sim_harness/, rtl/ and firmware/ are checked too)
set -eu
cd "$(dirname "$0")/.."
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
max=150 filemax=650
case ${1:-} in '' | *[!0-9]*) ;; *) max=$1; shift ;; esac
ALLOW="rv32_run"
files_too=0
if [ $# -eq 0 ]; then
    files_too=1
    set -- $(find sim_harness -name '*.c' | sort)
fi
bad=0
awk -v max="$max" -v verbose="$verbose" -v allow=" $ALLOW " '
FNR == 1 { sig = ""; start = 0 }
# a signature: a line at column 0 that is not a brace, a preprocessor line or a comment,
# and the lines after it up to the "{"
!start && /^[A-Za-z_]/ { sig = $0; next }
!start && sig != "" && /^[ \t]/ { sig = sig " " $0; next }
/^\{/ { start = FNR; name = sig; gsub(/__attribute__\(\([^)]*\)\)/, "", name); sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n] }
/^\}/ && start {
    len = FNR - start + 1; nfun++
    if (verbose) print FILENAME ":" start ": " name " " len
    if (len > max && index(allow, " " name " ") == 0) {
        printf "%s:%d: %s is %d lines (at most %d)\n", FILENAME, start, name, len, max > "/dev/stderr"; bad = 1 }
    start = 0; sig = ""
}
!start && /^[^A-Za-z_ \t{]/ { sig = "" }
END { if (!nfun) { print "fnlen.sh: no functions found" > "/dev/stderr"; exit 2 } exit bad }' "$@" || bad=1
if [ $files_too = 1 ]; then
    while read -r n f; do
        [ "$f" = total ] && continue
        [ "$n" -gt "$filemax" ] && { echo "$f: $n lines (at most $filemax)" >&2; bad=1; }
    done < <(find sim_harness rtl firmware \( -name '*.c' -o -name '*.h' -o -name '*.sv' -o -name '*.cpp' -o -name '*.S' \) -print0 |
                 xargs -0 wc -l)
fi
exit $bad
