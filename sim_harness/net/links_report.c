/* links_report.c - per-channel flit counts and utilization. */
#include "net/links_report.h"
#include "util/cli.h"

#include <stdlib.h>
#include <string.h>

const char *links_port_name(const topo *t, int r, int p, char *buf, size_t len)
{
    if (p < t->nnet) topo_port_name_at(t, r, p, buf, len);
    else snprintf(buf, len, "t%d.%d", topo_port_term(t, r, p), (p - t->nnet) % t->k);
    return buf;
}

static double util(uint64_t flits, uint64_t cycles) { return cycles ? (double)flits / (double)cycles : 0.0; }

json_t *links_json(const topo *t, xnoc_net *n, const uint64_t *inj_flits, uint64_t cycles)
{
    json_t *a = json_array();
    char pn[32];
    for (int l = 0; l < t->nlinks; l++) {
        const topo_link *L = &t->links[l];
        uint64_t f = net_link_flits(n, L->src, L->src_port);
        json_array_append_new(
            a, json_pack("{s:s,s:o,s:o,s:i,s:i,s:i,s:i,s:I,s:f}", "kind", "link", "from",
                         json_sprintf("r%d.%s", L->src, links_port_name(t, L->src, L->src_port, pn, sizeof pn)), "to",
                         json_sprintf("r%d", L->dst), "src_router", L->src, "src_port", L->src_port, "dst_router",
                         L->dst, "dst_port", L->dst_port, "flits", (json_int_t)f, "utilization", util(f, cycles)));
    }
    for (int term = 0; term < t->nterms; term++) {
        int r = topo_term_router(t, term);
        for (int c = 0; c < t->k; c++) {
            int ch = term * t->k + c, p = topo_term_port(t, term, c);
            uint64_t fi = inj_flits ? inj_flits[ch] : 0, fe = net_link_flits(n, r, p);
            json_array_append_new(a, json_pack("{s:s,s:o,s:o,s:i,s:i,s:i,s:I,s:f}", "kind", "inject", "from",
                                               json_sprintf("t%d.%d", term, c), "to", json_sprintf("r%d", r),
                                               "terminal", term, "channel", c, "dst_router", r, "flits", (json_int_t)fi,
                                               "utilization", util(fi, cycles)));
            json_array_append_new(a, json_pack("{s:s,s:o,s:o,s:i,s:i,s:i,s:i,s:I,s:f}", "kind", "eject", "from",
                                               json_sprintf("r%d.%s", r, links_port_name(t, r, p, pn, sizeof pn)), "to",
                                               json_sprintf("t%d.%d", term, c), "terminal", term, "channel", c,
                                               "src_router", r, "src_port", p, "flits", (json_int_t)fe, "utilization",
                                               util(fe, cycles)));
        }
    }
    return a;
}

typedef struct {
    uint64_t flits;
    const json_t *row; /* a "link" entry of the report's "links" */
    size_t at;         /* its index: the tie-break */
} ranked;

static int by_flits(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return x->flits < y->flits ? 1 : x->flits > y->flits ? -1 : x->at < y->at ? -1 : x->at > y->at;
}

static uint64_t uint_at(const json_t *o, const char *key)
{
    return (uint64_t)json_integer_value(json_object_get(o, key));
}

void links_text(FILE *f, const json_t *o, int top)
{
    const json_t *links = json_object_get(o, "links");
    size_t n = 0, all = json_array_size(links);
    ranked *r = xmalloc((all ? all : 1) * sizeof *r);
    uint64_t total = 0;
    for (size_t i = 0; i < all; i++) {
        const json_t *L = json_array_get(links, i);
        const char *kind = json_string_value(json_object_get(L, "kind"));
        if (!kind || strcmp(kind, "link")) continue;
        r[n] = (ranked){uint_at(L, "flits"), L, i};
        total += r[n++].flits;
    }
    /* bars: 40 characters = utilization 1; when the busiest link is below 1/40 (a firmware run's
     * cycles are mostly boot and computation, the average is near 0), relative to the busiest */
    double umax = 0, scale = 40;
    if (n) {
        qsort(r, n, sizeof *r, by_flits);
        umax = json_number_value(json_object_get(r[0].row, "utilization"));
        if (umax > 0 && umax < 1.0 / 40) scale = 40 / umax;
        fprintf(f, "link utilization (router-to-router, %zu links, mean %.3f flits/cycle%s):\n", n,
                util(total, uint_at(o, "cycles")) / (double)n, scale > 40 ? "; bars relative to the busiest link" : "");
    }
    for (size_t i = 0; i < (size_t)top && i < n; i++) {
        const json_t *L = r[i].row;
        const char *from = json_string_value(json_object_get(L, "from")), *port = from ? strchr(from, '.') : NULL;
        double u = json_number_value(json_object_get(L, "utilization"));
        int bar = (int)(u * scale + 0.5);
        fprintf(f, "  r%-3d %-6s -> r%-3d %10llu flits  %5.3f  ", (int)uint_at(L, "src_router"), port ? port + 1 : "",
                (int)uint_at(L, "dst_router"), (unsigned long long)r[i].flits, u);
        for (int b = 0; b < bar && b < 40; b++) fputc('#', f);
        fputc('\n', f);
    }
    free(r);
}

void units_json(json_t *j, const topo *t, xnoc_net *n)
{
    if (!net_has_units(n)) return;
    json_t *arr = json_array();
    uint64_t xor_ops = 0, coded = 0, copies = 0;
    for (int r = 0; r < t->nrouters; r++) {
        net_unit u;
        net_unit_stats(n, r, &u);
        xor_ops += u.xor_ops;
        coded += u.coded;
        copies += u.replicated;
        json_array_append_new(arr, json_pack("{s:i,s:I,s:I,s:I,s:I,s:i,s:I,s:i,s:I}", "router", r, "coded",
                                             (json_int_t)u.coded, "xor_ops", (json_int_t)u.xor_ops, "replicated",
                                             (json_int_t)u.replicated, "contributions", (json_int_t)u.contributions,
                                             "slot_max", u.slot_max, "slot_busy_cycles", (json_int_t)u.slot_busy_cycles,
                                             "slots_in_use", u.slots_in_use, "clocked_cycles",
                                             (json_int_t)u.clocked_cycles));
    }
    json_object_set_new(j, "xor_ops", json_integer((json_int_t)xor_ops));
    json_object_set_new(j, "coded_packets", json_integer((json_int_t)coded));
    json_object_set_new(j, "mc_copies", json_integer((json_int_t)copies));
    json_object_set_new(j, "units", arr);
}

void units_text(FILE *f, const json_t *o, int nterms)
{
    const json_t *units = json_object_get(o, "units");
    uint64_t xor_ops = 0, coded = 0, copies = 0, in = 0;
    for (size_t i = 0; i < json_array_size(units); i++) {
        const json_t *u = json_array_get(units, i);
        xor_ops += uint_at(u, "xor_ops");
        coded += uint_at(u, "coded");
        copies += uint_at(u, "replicated");
        in += uint_at(u, "contributions");
    }
    if (!in) return; /* no units, or nothing used them: no lines */
    fprintf(f, "coding units: %llu packets absorbed, %llu coded packets, %llu XORed flits, %llu multicast copies\n",
            (unsigned long long)in, (unsigned long long)coded, (unsigned long long)xor_ops, (unsigned long long)copies);
    for (size_t i = 0; i < json_array_size(units); i++) {
        const json_t *u = json_array_get(units, i);
        if (!uint_at(u, "contributions")) continue;
        int r = (int)uint_at(u, "router");
        fprintf(
            f,
            "  unit %-4d (router %d): %llu in, %llu coded, %llu XORed flits, %llu copies, at most %d slot(s) busy%s\n",
            nterms + r, r, (unsigned long long)uint_at(u, "contributions"), (unsigned long long)uint_at(u, "coded"),
            (unsigned long long)uint_at(u, "xor_ops"), (unsigned long long)uint_at(u, "replicated"),
            (int)uint_at(u, "slot_max"), uint_at(u, "slots_in_use") ? ", slots still in use" : "");
    }
}

int links_first_held(const topo *t, xnoc_net *n, int vcs, char *buf, size_t len)
{
    char pn[32];
    buf[0] = 0;
    for (int r = 0; r < t->nrouters; r++)
        for (int p = 0; p < t->nports; p++)
            for (int v = 0; v < vcs; v++) {
                int occ = net_vc_occupancy(n, r, p, v);
                if (occ > 0) {
                    snprintf(buf, len, "router %d port %d (%s) VC %d holds %d flit(s)", r, p,
                             links_port_name(t, r, p, pn, sizeof pn), v, occ);
                    return 1;
                }
            }
    return 0;
}
