# tools/pkg_structs.awk - checks the packed structs of rtl/xnoc_pkg.sv
# against the package's own field table: every field of head_t, head_sr_t,
# meta_t and link_flit_t must sit at the Lsb (or Bit) and have the W its
# localparams name (HeadOutCountLsb/W for head_t's out_count, MetaTagLsb/W
# for meta_t's tag, LinkVcLsb/W for link_flit_t's vc, ...), the head and
# meta structs must be HeadW bits and link_flit_t LinkFlitW.  Fields named
# rsvd are padding.  Prints one line per disagreement and a last line
# "checked N fields"; exits 1 on any disagreement.  (tests/abi.t.sh)
function camel(s,    n, i, out, parts) {
    n = split(s, parts, "_")
    out = ""
    for (i = 1; i <= n; i++) out = out toupper(substr(parts[i], 1, 1)) substr(parts[i], 2)
    return out
}
function value(x) {     # a number, NAME or NAME-1
    if (x ~ /^[0-9]+$/) return x + 0
    if (x ~ /-1$/) { sub(/-1$/, "", x); return value(x) - 1 }
    if (!(x in lp)) { print "unknown width " x; bad++; return 0 }
    return lp[x]
}
/^ *localparam int [A-Za-z]+ *= *[0-9]+;/ {
    line = $0; sub(/^ *localparam int /, "", line)
    name = line; sub(/ *=.*/, "", name)
    v = line; sub(/^[^=]*= */, "", v); sub(/;.*/, "", v)
    lp[name] = v + 0
}
/typedef struct packed/ { in_struct = 1; nf = 0; next }
in_struct && /^ *logic/ {
    decl = $0; sub(/\/\/.*/, "", decl); sub(/;.*/, "", decl); sub(/^ *logic */, "", decl)
    w = 1
    if (decl ~ /^\[/) {
        rng = decl; sub(/\].*/, "", rng); sub(/^\[/, "", rng)
        split(rng, hl, ":")
        w = value(hl[1]) - value(hl[2]) + 1
        sub(/^\[[^]]*\] */, "", decl)
    }
    nf++; fname[nf] = decl; fw[nf] = w
    next
}
in_struct && /^ *}/ {
    in_struct = 0
    sname = $0; sub(/^ *} */, "", sname); sub(/;.*/, "", sname)
    prefix = (sname ~ /^meta/) ? "Meta" : (sname ~ /^link/) ? "Link" : "Head"
    total = (prefix == "Link") ? "LinkFlitW" : "HeadW"
    lsb = 0
    for (i = nf; i >= 1; i--) {
        if (fname[i] != "rsvd") {
            base = prefix camel(fname[i])
            if (fw[i] == 1 && (base "Bit") in lp) {
                if (lp[base "Bit"] != lsb) { printf "%s.%s at bit %d, %sBit = %d\n", sname, fname[i], lsb, base, lp[base "Bit"]; bad++ }
            } else if ((base "Lsb") in lp && (base "W") in lp) {
                if (lp[base "Lsb"] != lsb || lp[base "W"] != fw[i]) {
                    printf "%s.%s at [%d +: %d], %sLsb/W = %d/%d\n", sname, fname[i], lsb, fw[i], base, lp[base "Lsb"], lp[base "W"]; bad++
                }
            } else { printf "%s.%s: no %sLsb/W or %sBit in the package\n", sname, fname[i], base, base; bad++ }
            checked++
        }
        lsb += fw[i]
    }
    if (lsb != lp[total]) { printf "%s is %d bits, %s = %d\n", sname, lsb, total, lp[total]; bad++ }
    structs++
}
END {
    if (!structs) { print "no packed structs found"; bad++ }
    printf "checked %d fields of %d structs\n", checked, structs
    exit bad > 0
}
