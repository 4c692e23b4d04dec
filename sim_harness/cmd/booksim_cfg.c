/* booksim_cfg.c - BookSim2's config-file vocabulary for `xnoc traffic
 * --config F` (config_file.h; the table of docs/traffic.md, "Config
 * files"): its keys that have an xnoc meaning become traffic's options,
 * those that have none are refused by name with the reason, so that no
 * setting is silently dropped. */
#include "cmd/booksim_cfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/router_cfg.h"
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
                                      "batch_size",
                                      "batch_count",
                                      "max_outstanding_requests",
                                      "watch_out",
                                      "watch_packets",
                                      "watch_flits",
                                      "deadlock_warn_timeout",
                                      "viewer_trace",
                                      "use_noc_latency",
                                      NULL};

static const char *const why_micro = "BookSim2's router microarchitecture (xnoc's router is its RTL: a combined "
                                     "VC + switch allocator, 3 cycles a hop; docs/router.md)";
static const char *const why_control = "BookSim2's simulation control (a run here is one simulation of --warmup "
                                       "and --cycles, drained; docs/traffic.md)";
static const char *const why_layout = "cmesh's placement of a router's nodes (xnoc's concentration has none)";

const char *const booksim_cfg_keys[] = {"topology",
                                        "k",
                                        "n",
                                        "c",
                                        "x",
                                        "y",
                                        "xr",
                                        "yr",
                                        "network_file",
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

/* entry key as a whole number in [lo, hi] into *v (kept if absent); 0, or
 * -1 with a problem added */
static int number(cfg_entries *e, cfg_problems *p, const char *key, long lo, long hi, const char *what, long *v)
{
    int l = 0;
    const char *s = get(e, key, &l);
    if (!s) return 0;
    if (whole(s, lo, hi, v)) return 0;
    cfg_problem_add(p, l, xasprintf("%s = %s: %s, %ld..%ld", key, s, what, lo, hi));
    return -1;
}

static const char *const topo_keys[] = {"topology", "k", "n", "c", "x", "y", "xr", "yr", "network_file", NULL};

/* topology = mesh | torus (k, n) | cmesh (k, n, c; x, y, xr, yr) |
 * dragonflynew (k: p, n = 1) | anynet (network_file) | xnoc's names -> topo */
static void tr_topology(cfg_entries *e, cfg_problems *p, const char *dir)
{
    int l = 0;
    const char *topology = get(e, "topology", &l);
    long kv = 8, nv = 2, cv = 1; /* BookSim2's defaults */
    if (!topology) {
        const char *stray = get(e, "k", &l) ? "k" : get(e, "n", &l) ? "n" : NULL;
        if (stray) cfg_problem_add(p, l, xasprintf("%s without topology = mesh, torus, cmesh or dragonflynew", stray));
        return;
    }
    char *topo = NULL;
    int mesh = !strcmp(topology, "mesh") || !strcmp(topology, "torus"), cmesh = !strcmp(topology, "cmesh");
    if (mesh || cmesh) {
        if (number(e, p, "k", 1, 64, "a radix", &kv) || number(e, p, "n", 1, 6, "dimensions", &nv)) return;
        if (cmesh) { /* BookSim2's cmesh: a 2-D k x k mesh of routers, c nodes on each */
            long xv = kv, yv = kv;
            if (number(e, p, "c", 1, 12, "nodes per router", &cv) || number(e, p, "x", 1, 64, "routers", &xv) ||
                number(e, p, "y", 1, 64, "routers", &yv))
                return;
            if (nv != 2 || xv != kv || yv != kv) {
                get(e, nv != 2 ? "n" : xv != kv ? "x" : "y", &l);
                cfg_problem_add(p, l,
                                xasprintf("cmesh: BookSim2's cmesh is 2-D with x = y = k (n = %ld, x = %ld, y = %ld, "
                                          "k = %ld)",
                                          nv, xv, yv, kv));
                return;
            }
            for (const char *const *x = (const char *const[]){"xr", "yr", NULL}; *x; x++)
                if (get(e, *x, &l)) cfg_problem_ignorable(p, l, *x, why_layout);
        }
        topo = xasprintf("%s:%ld", mesh ? topology : "mesh", kv);
        for (long d = 1; d < nv; d++) {
            char *t = xasprintf("%sx%ld", topo, kv);
            free(topo);
            topo = t;
        }
        if (cv > 1) {
            char *t = xasprintf("%s:c=%ld", topo, cv);
            free(topo);
            topo = t;
        }
    } else if (!strcmp(topology, "dragonflynew")) {
        /* BookSim2's dragonflynew (dragonfly.cpp): p = k nodes and k global links per router, a = 2k routers per
         * group (n = 1), g = a*p + 1 groups */
        kv = 4;
        nv = 1;
        if (number(e, p, "k", 1, 16, "nodes per router", &kv) || number(e, p, "n", 1, 1, "dimensions", &nv)) return;
        topo = xasprintf("dragonfly:a=%ld,p=%ld,h=%ld", 2 * kv, kv, kv);
    } else if (!strcmp(topology, "anynet")) {
        const char *nf = get(e, "network_file", &l);
        if (!nf) {
            get(e, "topology", &l);
            cfg_problem_add(p, l, xasprintf("topology = anynet needs network_file = FILE"));
            return;
        }
        topo = nf[0] == '/' || !strcmp(dir, ".") ? xasprintf("anynet:%s", nf) : xasprintf("anynet:%s/%s", dir, nf);
    } else if (get(e, "k", &l) || get(e, "n", &l)) {
        cfg_problem_add(
            p, l,
            xasprintf("k and n describe BookSim2's mesh, torus, cmesh and dragonflynew, not topology = %s", topology));
        return;
    } else topo = xstrdup(topology); /* xnoc's own names: octagon, dragonfly:a=4,p=2,h=2, mesh:4x4 */
    get(e, "topology", &l);
    for (const char *const *x = topo_keys; *x; x++) drop(e, *x);
    cfg_add(e, "topo", topo, "topology", l);
    free(topo);
}

/* num_vcs or vc_buf_size -> a router entry of its own (vcs=N, buf=N) on its
 * line; lenient: above xnoc's limit, the limit, noted */
static void router_param(cfg_entries *e, cfg_problems *p, const char *key, const char *param, long max, const char *why)
{
    int l = 0;
    const char *v = get(e, key, &l);
    if (!v) return;
    long n;
    char *val;
    if (whole(v, max + 1, 1L << 30, &n)) {
        if (!p->lenient) {
            cfg_problem_add(p, l,
                            xasprintf("%s = %s: at most %ld (%s; --config-lenient runs %ld)", key, v, max, why, max));
            drop(e, key);
            return;
        }
        cfg_note(p, xasprintf("%s = %s runs as %s=%ld (%s)", key, v, param, max, why));
        val = xasprintf("%s=%ld", param, max);
    } else val = xasprintf("%s=%s", param, v);
    drop(e, key);
    cfg_add(e, "router", val, key, l);
    free(val);
}

/* BookSim2's routing function names, with or without the topology suffix
 * (min_dragonflynew): minimal -> nothing, ugal and valiant -> the router's */
static const char *routing_of(const char *rf)
{
    static const char *const minimal[] = {"dim_order", "dor", "dor_no_express", "dim_order_mesh", "dim_order_torus",
                                          "min",       NULL};
    size_t n = strcspn(rf, "_");
    for (const char *const *m = minimal; *m; m++)
        if (!strcmp(rf, *m)) return "";
    if (!strncmp(rf, "min", n) && n == 3) return "";
    if (!strncmp(rf, "ugal", n) && n == 4) return "routing=ugal";
    if (!strncmp(rf, "valiant", n) && n == 7) return "routing=valiant";
    return NULL;
}

/* router = iq; num_vcs, vc_buf_size -> router; routing_function */
static void tr_router(cfg_entries *e, cfg_problems *p)
{
    int l = 0;
    /* router = iq (BookSim2's input-queued router: xnoc's is one); else xnoc's K=V parameters */
    const char *router = get(e, "router", &l);
    if (router && !strchr(router, '=')) {
        if (strcmp(router, "iq"))
            cfg_problem_add(p, l,
                            xasprintf("router = %s: BookSim2's router organizations have no xnoc equivalent but 'iq' "
                                      "(xnoc's input-queued RTL router); xnoc's router key takes K=V parameters "
                                      "(vcs=2,buf=8)",
                                      router));
        drop(e, "router");
    }
    router_param(e, p, "num_vcs", "vcs", ROUTER_MAX_VCS, "the link flit's VC field");
    router_param(e, p, "vc_buf_size", "buf", ROUTER_MAX_BUF, "xnoc's largest VC buffer");
    const char *rf = get(e, "routing_function", &l);
    if (rf) {
        const char *r = routing_of(rf);
        if (!r)
            cfg_problem_add(p, l,
                            xasprintf("routing_function = %s: xnoc routes minimally (dim_order, dor, min: dimension "
                                      "order on mesh and torus) or, on a dragonfly, ugal or valiant",
                                      rf));
        else if (*r) cfg_add(e, "router", r, "routing_function", l);
        drop(e, "routing_function");
    }
}

/* BookSim2's hotspot({{0,5},{1,1}}) (nodes, then their weights) -> hotspot:0,5:1,1; else NULL */
static char *hotspot_of(const char *t)
{
    if (strncmp(t, "hotspot(", 8) || t[strlen(t) - 1] != ')') return NULL;
    char *s = xasprintf("%.*s", (int)(strlen(t) - 9), t + 8), *out = xstrdup("hotspot");
    int depth = 0, first = 1;
    for (char *c = s; *c; c++) { /* {{a,b},{c,d}}: a list of lists, each becoming ":a,b" */
        if (*c == '{') depth++;
        else if (*c == '}') depth--;
        else if (*c == ',' && depth == 1) first = 1;
        else if (*c != ' ') {
            char *o = xasprintf("%s%s%c", out, first ? ":" : *c == ',' ? "" : "", *c);
            free(out);
            out = o;
            first = 0;
        }
    }
    if (depth) {
        free(out);
        out = NULL;
    }
    free(s);
    return out;
}

/* traffic -> pattern; packet_size -> packet; injection_rate (+ _uses_flits) -> rate */
static char *tr_traffic(cfg_entries *e, int *line)
{
    int l = 0;
    /* traffic -> pattern (the names are BookSim2's: uniform, transpose, bitcomp, tornado, hotspot(...), ...) */
    long ti = cfg_find(e, "traffic");
    if (ti >= 0) {
        free(e->v[ti].key);
        e->v[ti].key = xstrdup("pattern");
        char *h = hotspot_of(e->v[ti].value);
        if (h) {
            free(e->v[ti].value);
            e->v[ti].value = h;
        }
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

static void translate(cfg_entries *e, cfg_problems *p, const char *dir)
{
    for (size_t i = 0; i < e->n; i++) { /* keys with no meaning here: ignorable, listed together */
        const cfg_entry *x = &e->v[i];
        const char *why = in(micro, x->key) ? why_micro : in(control, x->key) ? why_control : NULL;
        if (!why) continue;
        cfg_problem_ignorable(p, x->line, x->key, why);
        cfg_remove(e, i--);
    }
    size_t had = p->n;
    tr_topology(e, p, dir);
    if (p->n > had) /* refused: its keys are said for, not unknown */
        for (const char *const *x = topo_keys; *x; x++) drop(e, *x);
    tr_router(e, p);
    static char *(*const step[])(cfg_entries *, int *) = {tr_traffic, tr_process, tr_periods};
    for (size_t i = 0; i < sizeof step / sizeof *step; i++) {
        int line = 0;
        char *m = step[i](e, &line);
        if (m) cfg_problem_add(p, line, m);
    }
}

static const char *const repeat[] = {"router", NULL}; /* num_vcs, vc_buf_size, routing_function: one each */
const cfg_dialect booksim_cfg = {"docs/traffic.md lists the BookSim2 keys", translate, booksim_cfg_keys, repeat};
