# tools/doc_fields.awk - checks the head-flit table of docs/architecture.md
# against the C table (tests/unit/abi_flit's "Name value" lines, e.g.
# "HeadDestLsb 0"): every field the table names with its bits - a row
# "| `[11:0]` | DEST: ..." or an inline "VGROUP [63:58]" - must sit where
# firmware/lib/flit.h puts it.  Prints one line per disagreement and a last
# line "checked N fields"; exits 1 on a disagreement or if none was found.
# usage: awk -f tools/doc_fields.awk C_TABLE docs/architecture.md
function camel(s) { return toupper(substr(s, 1, 1)) tolower(substr(s, 2)) }
function check(name, bits,    parts, hi, lo, base) {
    base = "Head" camel(name)
    n = split(bits, parts, ":")
    hi = parts[1] + 0; lo = (n > 1) ? parts[2] + 0 : hi
    if ((base "Bit") in c && hi == lo) {
        if (c[base "Bit"] != lo) { printf "%s at [%d] in the docs, %sBit = %d\n", name, lo, base, c[base "Bit"]; bad++ }
    } else if ((base "Lsb") in c) {
        if (c[base "Lsb"] != lo || c[base "W"] != hi - lo + 1) {
            printf "%s at [%d:%d] in the docs, %sLsb/W = %d/%d\n", name, hi, lo, base, c[base "Lsb"], c[base "W"]; bad++
        }
    } else return
    checked++
}
FNR == NR { c[$1] = $2 + 0; next }
/^Head-flit payload/ { in_table = 1; next }
in_table && /^## / { in_table = 0 }
in_table && /^\|/ {
    line = $0
    # a row that starts with the field's bits: | `[11:0]` | DEST: ...
    if (match(line, /^\| *`\[[0-9]+(:[0-9]+)?\]` *\| *[A-Z_]+:/)) {
        row = substr(line, RSTART, RLENGTH)
        bits = row; sub(/^[^[]*\[/, "", bits); sub(/\].*/, "", bits)
        name = row; sub(/:$/, "", name); sub(/.*\| */, "", name)
        check(name, bits)
    }
    # fields named inline with their bits: VAL [56], VGROUP [63:58]
    rest = line
    while (match(rest, /[A-Z_]+ \[[0-9]+(:[0-9]+)?\]/)) {
        item = substr(rest, RSTART, RLENGTH)
        name = item; sub(/ .*/, "", name)
        bits = item; sub(/^[^[]*\[/, "", bits); sub(/\]$/, "", bits)
        check(name, bits)
        rest = substr(rest, RSTART + RLENGTH)
    }
}
END {
    printf "checked %d fields\n", checked
    exit (bad > 0 || checked == 0)
}
