# golden: reference JSON reports (tests/golden/*.json, made by
# tests/golden/make.sh) stay byte-identical: refactors of the RTL, the NI or
# the firmware must not change what the network does.
source tests/lib.sh
while read -r name cmd; do
    [ -z "$name" ] && continue
    $XNOC $cmd --json > "$TMP/$name.json" 2>/dev/null
    if cmp -s "$TMP/$name.json" "tests/golden/$name.json"; then ok "golden-$name"
    else fail "golden-$name" "differs from tests/golden/$name.json: $(diff <(jq -S . "tests/golden/$name.json" 2>/dev/null) <(jq -S . "$TMP/$name.json" 2>/dev/null) | head -4 | tr '\n' ' ')"; fi
done < tests/golden/commands.txt
