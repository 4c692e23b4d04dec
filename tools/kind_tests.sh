#!/usr/bin/env bash
# tools/kind_tests.sh - per-kind decisions stay in net/ (issue 48): outside
# sim_harness/net/ no code names a topology kind (the enum topo_kind of
# net/topo.h: TOPO_MESH, ...); it asks topo_has() for the trait it needs
# (TOPO_TRAIT_*), so a new kind is one file and one table row in net/.  And
# the firmware compares DEV_TOPO_KIND only with firmware/lib/topo_kinds.h's
# names, never a bare number (the harness's enum takes its values from
# that header, so the two cannot drift).
#
# Prints each offending line as "FILE:LINE: WHY: TEXT" on stderr, exits 1.
#
# usage: tools/kind_tests.sh [ROOT]     (ROOT holds sim_harness/ and firmware/; default: the repository)
set -eu
cd "$(dirname "$0")/.."
root=${1:-.}
[ -f "$root/sim_harness/net/topo.h" ] || { echo "kind_tests.sh: no $root/sim_harness/net/topo.h" >&2; exit 2; }
# the kinds' names, from the enum's body (typedef enum { ... } topo_kind;)
names=$(awk '/typedef enum \{/ { body = "" } { body = body " " $0 } /\} topo_kind;/ { print body; exit }' \
            "$root/sim_harness/net/topo.h" | grep -o 'TOPO_[A-Z_]*' | grep -v '^TOPO_TRAIT' | sort -u | paste -sd'|')
[ -n "$names" ] || { echo "kind_tests.sh: no topo_kind enum in $root/sim_harness/net/topo.h" >&2; exit 2; }
bad=0
while IFS= read -r hit; do
    echo "${hit%%:*}:$(echo "$hit" | cut -d: -f2): a topology kind tested outside net/ (use topo_has): $(echo "$hit" | cut -d: -f3- | sed 's/^[[:space:]]*//')" >&2
    bad=1
done < <(grep -rnE --include='*.c' --include='*.h' "\\b($names)\\b" "$root/sim_harness" | grep -v "^$root/sim_harness/net/" || true)
for f in $(grep -rl --include='*.c' --include='*.h' 'DEV_TOPO_KIND' "$root/firmware" || true); do
    while IFS= read -r hit; do
        echo "$f:${hit%%:*}: a topology kind compared with a bare number (firmware/lib/topo_kinds.h): $(echo "${hit#*:}" | sed 's/^[[:space:]]*//')" >&2
        bad=1
    done < <(grep -nE '\bkind *(==|!=) *[0-9]|\bkind *\?' "$f" || true)
done
exit $bad
