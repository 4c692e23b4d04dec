#!/usr/bin/env bash
# tests/golden/make.sh - records the reference JSON report of every command
# in tests/golden/commands.txt (run it only when a change of behaviour is
# intended, and say why in the commit); tests/golden.t.sh compares.
set -u
cd "$(dirname "$0")/../.."
export XNOC_PROGRESS=0
while read -r name cmd; do
    [ -z "$name" ] && continue
    build/xnoc $cmd --json > "tests/golden/$name.json" 2>/dev/null
    echo "$name: $(wc -c < "tests/golden/$name.json") bytes"
done < tests/golden/commands.txt
