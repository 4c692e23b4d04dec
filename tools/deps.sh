#!/usr/bin/env bash
# tools/deps.sh - no dependency circles between the harness's source files
# (issue: a file that calls into another must not be called back by it).
#
# A file depends on another when its object file uses a symbol the other
# defines (nm: U vs T/D/B/R), or when it includes the other's header.  The
# script prints every cycle of that graph (strongly connected components of
# more than one file) and exits 1 if there is one.  Files that form a unit
# on purpose may be listed in ALLOW (none today).
#
# usage: tools/deps.sh [BUILD_DIR]     (make lint runs it on build/)
set -eu
cd "$(dirname "$0")/.."
B=${1:-build}
# objects whose source is gone (a folder renamed or a file removed) are stale, not part of the graph
objs=$(find "$B/obj/sim_harness" -name '*.o' | sort | while read -r o; do
    s=${o#"$B"/obj/}; [ -f "${s%.o}.c" ] && echo "$o"; done)
[ -n "$objs" ] || { echo "deps.sh: no objects under $B/obj/sim_harness (make first)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# symbol -> defining file
for o in $objs; do
    f=${o#"$B"/obj/}; f=${f%.o}.c
    nm --defined-only "$o" | awk -v f="$f" '$2 ~ /[TDBR]/ {print $3, f}'
done | sort -u > "$tmp/defs"
# file -> file edges from undefined symbols
for o in $objs; do
    f=${o#"$B"/obj/}; f=${f%.o}.c
    nm --undefined-only "$o" | awk '{print $2}' | sort -u | join - "$tmp/defs" | awk -v f="$f" '$2 != f {print f, $2}'
done | sort -u > "$tmp/edges"
# includes between harness files: x.c or x.h including y.h counts as x.c -> y.c (when y.c exists)
for f in $(find sim_harness -name '*.c' -o -name '*.h' | sort); do
    d=$(dirname "$f")
    grep -o '^#include "[^"]*"' "$f" | sed 's/#include "//; s/"$//' | while read -r inc; do
        for cand in "$d/$inc" "sim_harness/$inc"; do
            if [ -f "$cand" ]; then
                c=$(realpath --relative-to=. "$cand"); src=${f%.h}.c; dst=${c%.h}.c
                [ -f "$src" ] && [ -f "$dst" ] && [ "$src" != "$dst" ] && echo "$src $dst"
                break
            fi
        done
    done
done | sort -u >> "$tmp/edges"
sort -u -o "$tmp/edges" "$tmp/edges"
# layers: an edge may only go down (or stay in its folder)
LAYERS="cmd traffic collrun sched coll system view net core util"
awk -v layers="$LAYERS" '
BEGIN { n = split(layers, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
{ split($1, a, "/"); split($2, b, "/")
  if (!(a[2] in rank) || !(b[2] in rank)) { print "layering: " $1 " or " $2 " is in no layer (" layers ")" > "/dev/stderr"; bad = 1; next }
  if (rank[b[2]] < rank[a[2]]) { print "layering: " $1 " uses " $2 " (" a[2] "/ is below " b[2] "/)" > "/dev/stderr"; bad = 1 } }
END { exit bad }' "$tmp/edges" || layer_bad=1
# strongly connected components (Tarjan), in awk
awk '
{ adj[$1] = adj[$1] " " $2; nodes[$1]; nodes[$2] }
function strong(v,   i, n, w, a) {
    idx[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
    n = split(adj[v], a, " ")
    for (i = 1; i <= n; i++) { w = a[i]; if (w == "") continue
        if (!(w in idx)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
        else if (on[w] && idx[w] < low[v]) low[v] = idx[w] }
    if (low[v] == idx[v]) { comp = ""; size = 0
        do { w = stack[sp--]; on[w] = 0; comp = comp " " w; size++ } while (w != v)
        if (size > 1) { print "dependency circle:" comp > "/dev/stderr"; bad = 1 } }
}
END { for (v in nodes) if (!(v in idx)) strong(v); exit bad }' "$tmp/edges" && [ -z "${layer_bad:-}" ]
