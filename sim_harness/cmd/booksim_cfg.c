/* booksim_cfg.c - BookSim2's config-file vocabulary for `xnoc traffic
 * --config F` (config_file.h; the table of docs/traffic.md, "Config
 * files"): its keys that have an xnoc meaning become traffic's options,
 * those that have none are refused by name with the reason, so that no
 * setting is silently dropped. */
#include "cmd/booksim_cfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"

/* BookSim2 keys about its own router, allocators or simulation control:
 * xnoc's router is the RTL (docs/router.md), a run is one simulation. */
static const char *const micro[] = {"vc_allocator",
                                    "sw_allocator",
                                    "alloc_iters",
                                    "credit_delay",
                                    "routing_delay",
                                    "vc_alloc_delay",
                                    "sw_alloc_delay",
                                    "st_prepare_delay",
                                    "st_final_delay",
                                    "input_speedup",
                                    "output_speedup",
                                    "internal_speedup",
                                    "speculative",
                                    "wait_for_tail_credit",
                                    "hold_switch_for_packet",
                                    "vc_buffer_pool",
                                    "buf_size",
                                    "output_delay",
                                    "noq",
                                    "vct",
                                    NULL};
static const char *const control[] = {"sim_type",
                                      "max_samples",
                                      "latency_thres",
                                      "warmup_thres",
                                      "stopping_thres",
                                      "acc_warmup_thres",
                                      "acc_stopping_thres",
                                      "sim_count",
                                      "auto_periods",
                                      "include_queuing",
                                      "print_activity",
                                      "print_csv_results",
                                      "watch_file",
                                      "sim_power",
                                      "classes",
                                      "subnets",
                                      "use_read_write",
                                      "priority",
                                      "perm_seed",
                                      "packet_size_rate",
                                      "const_flits_per_packet",
                                      NULL};

const char *const booksim_cfg_keys[] = {"topology",
                                        "k",
                                        "n",
                                        "num_vcs",
                                        "vc_buf_size",
                                        "routing_function",
                                        "traffic",
                                        "injection_rate",
                                        "injection_rate_uses_flits",
                                        "packet_size",
                                        "injection_process",
                                        "burst_alpha",
                                        "burst_beta",
                                        "sample_period",
                                        "warmup_periods",
                                        "seed",
                                        NULL};

static int in(const char *const *l, const char *k)
{
    for (; *l; l++)
        if (!strcmp(*l, k)) return 1;
    return 0;
}

/* entry key's value, or NULL; *line its line (kept if absent) */
static const char *get(const cfg_entries *e, const char *key, int *line)
{
    long i = cfg_find(e, key);
    if (i < 0) return NULL;
    if (line) *line = e->v[i].line;
    return e->v[i].value;
}

static void drop(cfg_entries *e, const char *key)
{
    long i = cfg_find(e, key);
    if (i >= 0) cfg_remove(e, (size_t)i);
}

/* a whole number in [lo, hi] */
static int whole(const char *s, long lo, long hi, long *v) { return cli_parse_long(s, lo, hi, v) == 0; }

/* topology = mesh; k = 8; n = 2 -> topo = mesh:8x8 */
static char *tr_topology(cfg_entries *e, int *line)
{
    int l = 0;
    const char *topology = get(e, "topology", &l), *k = get(e, "k", &l), *nd = get(e, "n", &l);
    if (topology) {
        *line = l = e->v[cfg_find(e, "topology")].line;
        char *topo = NULL;
        if (!strcmp(topology, "mesh") || !strcmp(topology, "torus")) {
            long kv = 8, nv = 2; /* BookSim2's defaults */
            if (k && !whole(k, 1, 64, &kv)) {
                get(e, "k", line);
                return xasprintf("k = %s: a radix 1..64", k);
            }
            if (nd && !whole(nd, 1, 6, &nv)) {
                get(e, "n", line);
                return xasprintf("n = %s: 1..6 dimensions", nd);
            }
            topo = xasprintf("%s:%ld", topology, kv);
            for (long d = 1; d < nv; d++) {
                char *t = xasprintf("%sx%ld", topo, kv);
                free(topo);
                topo = t;
            }
        } else if (k || nd) {
            get(e, k ? "k" : "n", line);
            return xasprintf("%s: k and n describe BookSim2's mesh and torus, not topology = %s", k ? "k" : "n",
                             topology);
        } else topo = xstrdup(topology); /* xnoc's own names: octagon, dragonfly:a=4,p=2,h=2, mesh:4x4 */
        drop(e, "topology");
        drop(e, "k");
        drop(e, "n");
        cfg_add(e, "topo", topo, "topology", l);
        free(topo);
    } else if (k || nd) {
        get(e, k ? "k" : "n", line);
        return xasprintf("%s without topology = mesh or torus", k ? "k" : "n");
    }
    return NULL;
}

/* router = iq; num_vcs, vc_buf_size -> router; routing_function = dim_order */
static char *tr_router(cfg_entries *e, int *line)
{
    int l = 0;
    /* router = iq (BookSim2's input-queued router: xnoc's is one); num_vcs, vc_buf_size -> --router */
    const char *router = get(e, "router", &l);
    if (router && !strchr(router, '=')) {
        *line = l;
        if (strcmp(router, "iq"))
            return xasprintf("router = %s: BookSim2's router organizations have no xnoc equivalent but 'iq' "
                             "(xnoc's input-queued RTL router); xnoc's router key takes K=V parameters (vcs=2,buf=8)",
                             router);
        drop(e, "router");
    }
    const char *vcs = get(e, "num_vcs", &l), *buf = get(e, "vc_buf_size", &l);
    if (vcs || buf) {
        long ri = cfg_find(e, "router");
        char *r = xasprintf("%s%s%s%s%s%s", ri >= 0 ? e->v[ri].value : "", ri >= 0 ? "," : "", vcs ? "vcs=" : "",
                            vcs ? vcs : "", vcs && buf ? "," : "", buf ? "buf=" : "");
        char *rr = xasprintf("%s%s", r, buf ? buf : "");
        free(r);
        if (ri >= 0) cfg_remove(e, (size_t)ri);
        drop(e, "num_vcs");
        drop(e, "vc_buf_size");
        cfg_add(e, "router", rr, vcs ? "num_vcs" : "vc_buf_size", l);
        free(rr);
    }
    /* routing_function: xnoc's minimal routing on mesh and torus is dimension order */
    const char *rf = get(e, "routing_function", &l);
    if (rf) {
        *line = l;
        if (strcmp(rf, "dim_order") && strcmp(rf, "dor") && strcmp(rf, "dim_order_mesh") &&
            strcmp(rf, "dim_order_torus"))
            return xasprintf("routing_function = %s: xnoc routes mesh and torus in dimension order (dim_order); "
                             "dragonfly's valiant and ugal are router parameters (router = routing=ugal)",
                             rf);
        drop(e, "routing_function");
    }
    return NULL;
}

/* traffic -> pattern; packet_size -> packet; injection_rate (+ _uses_flits) -> rate */
static char *tr_traffic(cfg_entries *e, int *line)
{
    int l = 0;
    /* traffic -> pattern (the names are BookSim2's: uniform, transpose, bitcomp, tornado, ...) */
    long ti = cfg_find(e, "traffic");
    if (ti >= 0) {
        free(e->v[ti].key);
        e->v[ti].key = xstrdup("pattern");
    }
    /* packet_size = 4, or {1,4} (lengths equally likely) -> packet */
    const char *ps = get(e, "packet_size", &l);
    long plen = 1; /* BookSim2's default */
    int psingle = 1;
    if (ps) {
        char *p = xstrdup(ps);
        size_t pl = strlen(p);
        if (pl >= 2 && p[0] == '{' && p[pl - 1] == '}') {
            memmove(p, p + 1, pl - 2);
            p[pl - 2] = 0;
        }
        psingle = whole(p, 1, 64, &plen);
        drop(e, "packet_size");
        cfg_add(e, "packet", p, "packet_size", l);
        free(p);
    }
    /* injection_rate: packets/node/cycle in BookSim2 unless injection_rate_uses_flits = 1; xnoc's --rate is flits */
    const char *ir = get(e, "injection_rate", &l);
    int il = l;
    const char *uf = get(e, "injection_rate_uses_flits", &l);
    if (uf && strcmp(uf, "0") && strcmp(uf, "1")) {
        *line = l;
        return xasprintf("injection_rate_uses_flits = %s: 0 or 1", uf);
    }
    if (uf && !ir) {
        *line = l;
        return xasprintf("injection_rate_uses_flits without injection_rate");
    }
    if (ir) {
        *line = il;
        double r;
        if (cli_parse_double(ir, 0, 64, &r) || !(r > 0)) return xasprintf("injection_rate = %s: a number above 0", ir);
        int flits = uf && !strcmp(uf, "1");
        if (!flits && !psingle)
            return xasprintf("injection_rate = %s is in packets (injection_rate_uses_flits = 0): that needs one "
                             "packet_size; give the rate in flits (injection_rate_uses_flits = 1)",
                             ir);
        char *rate = flits ? xstrdup(ir) : xasprintf("%.15g", r * (double)plen);
        drop(e, "injection_rate");
        drop(e, "injection_rate_uses_flits");
        cfg_add(e, "rate", rate, "injection_rate", il);
        free(rate);
    }
    return NULL;
}

/* injection_process, burst_alpha, burst_beta -> injection */
static char *tr_process(cfg_entries *e, int *line)
{
    int l = 0;
    /* injection_process = bernoulli | on_off (burst_alpha, burst_beta: off->on, on->off) */
    const char *ip = get(e, "injection_process", &l);
    int pl_ = l;
    const char *ba = get(e, "burst_alpha", &l), *bb = get(e, "burst_beta", &l);
    if ((ba || bb) && !(ip && !strcmp(ip, "on_off"))) {
        *line = l;
        return xasprintf("burst_alpha and burst_beta need injection_process = on_off");
    }
    if (ip) {
        *line = pl_;
        char *inj;
        if (!strcmp(ip, "bernoulli")) inj = xstrdup("bernoulli");
        else if (!strcmp(ip, "on_off")) inj = xasprintf("onoff:%s,%s", ba ? ba : "0.5", bb ? bb : "0.5");
        else return xasprintf("injection_process = %s: bernoulli or on_off", ip);
        drop(e, "injection_process");
        drop(e, "burst_alpha");
        drop(e, "burst_beta");
        cfg_add(e, "injection", inj, "injection_process", pl_);
        free(inj);
    }
    return NULL;
}

/* sample_period -> cycles; warmup_periods -> warmup */
static char *tr_periods(cfg_entries *e, int *line)
{
    int l = 0;
    /* sample_period -> cycles (one sample period measured); warmup_periods -> warmup (periods x sample_period) */
    const char *sp = get(e, "sample_period", &l);
    int sl = l;
    long spv = 1000; /* BookSim2's default */
    if (sp) {
        *line = sl;
        if (!whole(sp, 1, 1000000000L, &spv)) return xasprintf("sample_period = %s: cycles, 1..10^9", sp);
        char *c = xstrdup(sp);
        drop(e, "sample_period");
        cfg_add(e, "cycles", c, "sample_period", sl);
        free(c);
    }
    const char *wp = get(e, "warmup_periods", &l);
    if (wp) {
        *line = l;
        long w;
        if (!whole(wp, 0, 1000000L, &w))
            return xasprintf("warmup_periods = %s: a count of sample periods, 0..10^6", wp);
        char *wv = xasprintf("%ld", w * spv);
        int wl = l;
        drop(e, "warmup_periods");
        cfg_add(e, "warmup", wv, "warmup_periods", wl);
        free(wv);
    }
    return NULL;
}

static char *translate(cfg_entries *e, int *line)
{
    for (size_t i = 0; i < e->n; i++) {
        const cfg_entry *x = &e->v[i];
        *line = x->line;
        if (in(micro, x->key))
            return xasprintf("BookSim2's '%s' has no xnoc equivalent: the router is xnoc's RTL (a combined VC + "
                             "switch allocator, 3 cycles per hop; docs/router.md); its parameters are --router",
                             x->key);
        if (in(control, x->key))
            return xasprintf("BookSim2's '%s' has no xnoc equivalent: a run is one simulation of --warmup and "
                             "--cycles (a sweep repeats it, docs/sweeps.md)",
                             x->key);
    }
    char *m = tr_topology(e, line);
    if (!m) m = tr_router(e, line);
    if (!m) m = tr_traffic(e, line);
    if (!m) m = tr_process(e, line);
    if (!m) m = tr_periods(e, line);
    return m;
}

const cfg_dialect booksim_cfg = {"docs/traffic.md lists the BookSim2 keys", translate, booksim_cfg_keys, NULL};
