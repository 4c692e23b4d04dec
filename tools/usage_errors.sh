#!/usr/bin/env bash
# tools/usage_errors.sh - usage errors (exit 2, EXIT_USAGE) only in the
# command layer (issue 48): sim_harness/cmd/ parses and checks options,
# util/ holds the helpers it calls (cli_long, cli_pair, ...).  An engine
# below them returns why it refuses and the command says it in its one
# line, so no engine knows an option's name.  The one listed exception is
# the view's option parser (view/flags.c, view/view_none.c: view_cli_arg,
# which every command with a view calls).
#
# Prints each offending line as "FILE:LINE: usage error below cmd/: TEXT"
# on stderr and exits 1; comment lines do not count.
#
# usage: tools/usage_errors.sh [ROOT]     (default: the repository's sim_harness/)
set -eu
cd "$(dirname "$0")/.."
root=${1:-sim_harness}
[ -d "$root" ] || { echo "usage_errors.sh: no folder $root" >&2; exit 2; }
ALLOW="view/flags.c view/view_none.c"
bad=0
while IFS= read -r hit; do
    f=${hit%%:*}; rel=${f#"$root"/}
    case " $ALLOW " in *" $rel "*) continue ;; esac
    echo "$hit" | sed 's/^\([^:]*:[0-9]*\):[[:space:]]*/\1: usage error below cmd\/: /' >&2
    bad=1
done < <(grep -rn --include='*.c' --include='*.h' 'EXIT_USAGE' "$root" |
             grep -v "^$root/cmd/\|^$root/util/" | grep -Ev '^[^:]*:[0-9]+:[[:space:]]*(\*|/\*|//)' || true)
exit $bad
