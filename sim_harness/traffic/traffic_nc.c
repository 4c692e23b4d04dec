/* traffic_nc.c - coding groups and multicasts for `xnoc traffic --coding R`
 * (see traffic_nc.h): builds the packets, budgets the units' slots, and
 * checks every delivery byte for byte against the expected payload. */
#include "traffic/traffic_nc.h"
#include "util/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "net/clos_ctl.h"
#include "net/netgen.h"

enum { KIND_MC, KIND_CODED, KIND_CODED_MC, NKIND };
static const char *const kind_names[NKIND] = {"multicast", "coded", "coded+multicast"};

enum { OP_REPLICATE = 0, OP_ENCODE = 1 };
#define OUT_NONE FLIT_NONE
#define MAX_CONTRIB 4

typedef struct {
    int active, kind;
    uint16_t tag;
    int len, nflits;     /* payload bytes, data flits */
    uint64_t *data;      /* expected payload, nflits words (zero padded) */
    int src;             /* meta source the receivers must see */
    unsigned char *want; /* [term] 1: must receive once, 2: received */
    int pending;         /* receipts still to come */
    int *uses;           /* [router] slots this group holds */
    uint64_t started;
    int64_t model; /* probe: expected latency, else -1 */
    int conn;      /* clos multicast: the routing control's connection id, else -1 */
} group;

typedef struct {
    int active;
    group *g;
    int got; /* flits so far: head, meta, data */
} rx_state;

struct nc_gen {
    const topo *t;
    router_cfg rc;
    double rate;
    uint64_t rng;
    int na, mflits; /* addresses, mask flits per MC packet */
    group **by_tag; /* [65536] active group with that tag */
    int *load;      /* [router] slots budgeted */
    rx_state *rx;   /* [term * vcs + vc] */
    uint16_t next_tag;
    /* statistics */
    uint64_t started[NKIND], completed[NKIND], deliveries, packets_sent, dropped;
    uint64_t lat_sum, lat_max;
    int max_load;
    uint64_t probes, probe_max_dev, probe_sum_dev;
    /* --pattern multicast:F (nc_gen_multicast) */
    int fanout;             /* F destination terminals per multicast; 0: the --coding mix */
    unsigned char *sources; /* [term] 1: may start multicasts (--sources) */
    clos_net *clos;         /* a clos topology: the paper's routing control over its spines */
    uint64_t blocked;       /* multicasts the control algorithm could not route */
    uint64_t refused;       /* multicasts whose source leaf or an output leaf had all n ports busy */
    uint64_t mids;          /* middle switches (spines) chosen, summed over the routed multicasts */
    nc_done_fn *on_done;    /* nc_gen_on_done: told of every group delivered whole */
    void *done_arg;
    nc_deliver_fn *on_delivery; /* nc_gen_on_delivery: told of every copy delivered */
    void *delivery_arg;
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}
static uint64_t rnd(nc_gen *g) { return mix(g->rng += 0x9e3779b97f4a7c15ULL); }
static int rnd_int(nc_gen *g, int n) { return (int)(rnd(g) % (uint64_t)n); }
static double rnd_unit(nc_gen *g) { return (double)(rnd(g) >> 11) / 9007199254740992.0; }

nc_gen *nc_gen_new(const topo *t, const router_cfg *rc, double rate, uint64_t seed)
{
    nc_gen *g = xcalloc(1, sizeof *g);
    g->t = t;
    g->rc = *rc;
    g->rate = rate;
    g->rng = seed * 0x51ed2701f3a5c7b9ULL + 3;
    g->na = netgen_addresses(t, rc);
    g->mflits = (g->na + 63) / 64;
    g->by_tag = xcalloc(65536, sizeof *g->by_tag);
    g->load = xcalloc((size_t)t->nrouters, sizeof *g->load);
    g->rx = xcalloc((size_t)t->nterms * (size_t)rc->vcs, sizeof *g->rx);
    g->next_tag = 1;
    return g;
}

static void group_free(group *gr)
{
    if (!gr) return;
    free(gr->data);
    free(gr->want);
    free(gr->uses);
    free(gr);
}

void nc_gen_free(nc_gen *g)
{
    if (!g) return;
    clos_free(g->clos);
    free(g->sources);
    for (int i = 0; i < 65536; i++) group_free(g->by_tag[i]);
    free(g->by_tag);
    free(g->load);
    free(g->rx);
    free(g);
}

/* ------------------------------------------------------------ packets */

/* the NI's framing (firmware/lib/flit.h) */
static uint64_t head(int dest, int mc, int op, int count, unsigned out_dest, int out_mc, int out_op, int out_count)
{
    return flit_head((uint32_t)dest, 0, (uint32_t)mc, (uint32_t)op, (uint32_t)count, out_dest, (uint32_t)out_mc,
                     (uint32_t)out_op, (uint32_t)out_count);
}

static uint64_t meta(int src, int tag, int len) { return flit_meta((uint32_t)src, (uint32_t)tag, (uint32_t)len); }

/* head, meta, [mask flits], data: into buf, returns the flit count */
static int packet(const nc_gen *g, uint64_t *buf, uint64_t h, uint64_t m, const unsigned char *mask,
                  const uint64_t *data, int nflits)
{
    int n = 0;
    buf[n++] = h;
    buf[n++] = m;
    if (mask) {
        for (int i = 0; i < g->mflits; i++) {
            uint64_t w = 0;
            for (int b = 0; b < 64 && 64 * i + b < g->na; b++)
                if (mask[64 * i + b]) w |= 1ULL << b;
            buf[n++] = w;
        }
    }
    for (int i = 0; i < nflits; i++) buf[n++] = data[i];
    return n;
}

/* ------------------------------------------------------------ budget */

static int neighbour(const topo *t, int r, int p)
{
    if (p >= t->nports) return -1;
    int l = t->out_link[r * t->nports + p];
    return l >= 0 ? t->links[l].dst : -1;
}

/* Slots a REPLICATE of `mask` (terminal addresses) entering unit r uses:
 * one at r, then one at each unit a subtree of two or more goes to. */
static void tree_uses(const nc_gen *g, int r, const unsigned char *mask, int *uses)
{
    const topo *t = g->t;
    int P = netgen_ports(t, &g->rc);
    uses[r]++;
    unsigned char *sub = xmalloc((size_t)g->na);
    for (int p = 0; p < P; p++) {
        int n = 0;
        for (int a = 0; a < g->na; a++) {
            sub[a] = mask[a] && netgen_route(t, &g->rc, r, a) == p;
            n += sub[a];
        }
        if (n >= 2 && neighbour(t, r, p) >= 0) tree_uses(g, neighbour(t, r, p), sub, uses);
    }
    free(sub);
}

static int fits(const nc_gen *g, const int *uses)
{
    for (int r = 0; r < g->t->nrouters; r++)
        if (uses[r] && g->load[r] + uses[r] > g->rc.slots) return 0;
    return 1;
}

/* ------------------------------------------------------------ groups */

/* n distinct random terminals other than `avoid` (-1: none) into set */
static int pick_terms(nc_gen *g, unsigned char *set, int n, int avoid)
{
    int nt = g->t->nterms, have = 0;
    if (n > nt - (avoid >= 0)) n = nt - (avoid >= 0);
    while (have < n) {
        int x = rnd_int(g, nt);
        if (x == avoid || set[x]) continue;
        set[x] = 1;
        have++;
    }
    return n;
}

static uint16_t new_tag(nc_gen *g)
{
    while (g->by_tag[g->next_tag] || g->next_tag == 0) g->next_tag++;
    return g->next_tag++;
}

void nc_gen_multicast(nc_gen *g, int fanout, const unsigned char *sources)
{
    const topo *t = g->t;
    g->fanout = fanout;
    g->sources = xmalloc((size_t)t->nterms);
    memcpy(g->sources, sources, (size_t)t->nterms);
    if (t->kind == TOPO_CLOS) g->clos = clos_new(t->clos_m, t->clos_n, t->clos_r);
}

/* A group of this kind from src (meta source), no destination yet, no model, no clos connection. */
static group *group_new(const nc_gen *g, int kind, int src)
{
    group *gr = xcalloc(1, sizeof *gr);
    gr->kind = kind;
    gr->model = -1;
    gr->conn = -1;
    gr->src = src;
    gr->want = xcalloc((size_t)g->na, 1);
    gr->uses = xcalloc((size_t)g->t->nrouters, sizeof *gr->uses);
    return gr;
}

/* Makes the group active: its slots, its tag. */
static void group_start(nc_gen *g, group *gr, uint64_t now)
{
    gr->tag = new_tag(g);
    gr->active = 1;
    gr->started = now;
    for (int a = 0; a < g->t->nterms; a++) gr->pending += gr->want[a];
    for (int r = 0; r < g->t->nrouters; r++) {
        g->load[r] += gr->uses[r];
        if (g->load[r] > g->max_load) g->max_load = g->load[r];
    }
    g->by_tag[gr->tag] = gr;
    g->started[gr->kind]++;
}

/* --pattern multicast:F: terminal src multicasts to F random terminals.
 * On a clos, through the stages: the paper's routing control picks the
 * middle switches (spines) for the request (the set of leaves holding a
 * destination; any number of switches, blocked when the minimum stops
 * shrinking), and src sends one MC packet per chosen spine to that spine's
 * unit, with the destinations on the leaves the spine serves; the spine
 * replicates to those leaves (a leaf with two or more destinations gets one
 * MC copy, which its unit replicates to its terminals).  So every link
 * carries the multicast's flits at most once.  Elsewhere: one MC packet to
 * the unit of src's router, which replicates along the routes. */
static void start_multicast(nc_gen *g, uint64_t now, int src, nc_emit_fn *emit, void *arg)
{
    const topo *t = g->t;
    int nt = t->nterms, R = t->clos_r;
    group *gr = group_new(g, KIND_MC, src);
    int maxb = 8 * g->rc.ncmax;
    gr->len = 1 + rnd_int(g, maxb < 64 ? maxb : 64);
    gr->nflits = (gr->len + 7) / 8;
    gr->data = xcalloc((size_t)gr->nflits + 1, sizeof *gr->data);
    pick_terms(g, gr->want, g->fanout, src);
    int mid[64], nmid = 0;
    unsigned char *sub = NULL;
    if (g->clos) {
        uint64_t req[CLOS_MAX_RW] = {0};
        for (int d = 0; d < nt; d++)
            if (gr->want[d]) clos_add(req, topo_term_router(t, d));
        int in = topo_term_router(t, src);
        if (!clos_valid(g->clos, in, req)) {
            g->refused++;
            group_free(gr);
            return;
        }
        gr->conn = clos_connect(g->clos, in, req, t->clos_m < 64 ? t->clos_m : 64, 0);
        if (gr->conn < 0) {
            g->blocked++;
            group_free(gr);
            return;
        }
        /* Step 3's split: spine k takes the destinations on the leaves it connects */
        nmid = clos_conn_mids(g->clos, gr->conn, mid, 64);
        sub = xcalloc((size_t)nmid * (size_t)g->na, 1);
        for (int i = 0; i < nmid; i++) {
            for (int d = 0; d < nt; d++)
                sub[(size_t)i * (size_t)g->na + d] =
                    gr->want[d] && clos_owner(g->clos, mid[i], topo_term_router(t, d)) == gr->conn;
            tree_uses(g, R + mid[i], sub + (size_t)i * (size_t)g->na, gr->uses);
        }
    } else {
        tree_uses(g, topo_term_router(t, src), gr->want, gr->uses);
    }
    if (!fits(g, gr->uses)) { /* a unit has no free slot: dropped (not retried) */
        g->dropped++;
        if (gr->conn >= 0) clos_disconnect(g->clos, gr->conn);
        free(sub);
        group_free(gr);
        return;
    }
    g->mids += (uint64_t)nmid;
    group_start(g, gr, now);
    for (int i = 0; i < gr->len; i++) ((uint8_t *)gr->data)[i] = (uint8_t)rnd(g);
    uint64_t *buf = xmalloc((size_t)(2 + g->mflits + gr->nflits) * sizeof *buf);
    for (int i = 0; i < (g->clos ? nmid : 1); i++) {
        int unit = g->clos ? nt + R + mid[i] : nt + topo_term_router(t, src);
        int n = packet(g, buf, head(unit, 1, OP_REPLICATE, 0, OUT_NONE, 0, 0, 0), meta(src, gr->tag, gr->len),
                       g->clos ? sub + (size_t)i * (size_t)g->na : gr->want, gr->data, gr->nflits);
        emit(arg, src, buf, n);
        g->packets_sent++;
    }
    free(buf);
    free(sub);
}

void nc_gen_step(nc_gen *g, uint64_t now, nc_emit_fn *emit, void *arg)
{
    const topo *t = g->t;
    if ((!g->fanout && rnd_unit(g) >= g->rate) || t->nterms < 2) return;
    int nt = t->nterms, nr = t->nrouters;
    if (g->fanout) {
        for (int src = 0; src < t->nterms; src++)
            if (rnd_unit(g) < g->rate && g->sources[src]) start_multicast(g, now, src, emit, arg);
        return;
    }
    group *gr = xcalloc(1, sizeof *gr);
    gr->kind = rnd_int(g, NKIND);
    gr->model = -1;
    gr->conn = -1;
    gr->want = xcalloc((size_t)g->na, 1);
    gr->uses = xcalloc((size_t)nr, sizeof *gr->uses);
    /* mostly short payloads, sometimes up to the units' limit */
    int maxb = 8 * g->rc.ncmax;
    gr->len = rnd_int(g, 4) ? 1 + rnd_int(g, maxb < 64 ? maxb : 64) : 1 + rnd_int(g, maxb);
    gr->nflits = (gr->len + 7) / 8;
    gr->data = xcalloc((size_t)gr->nflits + 1, sizeof *gr->data);
    int maxdst = nt < 8 ? nt : 8;

    int src = rnd_int(g, nt), u = rnd_int(g, nr), u2 = rnd_int(g, nr), d = -1, ncontrib = 0;
    int contrib[MAX_CONTRIB];
    if (gr->kind == KIND_MC) {
        u = topo_term_router(t, src);
        pick_terms(g, gr->want, 2 + rnd_int(g, maxdst - 1), src);
        tree_uses(g, u, gr->want, gr->uses);
        gr->src = src;
    } else {
        unsigned char used[1024] = {0};
        ncontrib = 2 + rnd_int(g, (nt < MAX_CONTRIB ? nt : MAX_CONTRIB) - 1);
        pick_terms(g, used, ncontrib, -1);
        for (int i = 0, j = 0; i < nt; i++)
            if (used[i]) contrib[j++] = i;
        gr->uses[u]++;
        gr->src = nt + u;
        if (gr->kind == KIND_CODED) {
            d = rnd_int(g, nt);
            gr->want[d] = 1;
        } else {
            pick_terms(g, gr->want, 2 + rnd_int(g, maxdst - 1), -1);
            tree_uses(g, u2, gr->want, gr->uses);
        }
    }
    if (!fits(g, gr->uses)) { /* a unit has no free slot: this group is dropped (not retried) */
        g->dropped++;
        group_free(gr);
        return;
    }
    gr->tag = new_tag(g);
    gr->active = 1;
    gr->started = now;
    for (int a = 0; a < nt; a++) gr->pending += gr->want[a];
    for (int r = 0; r < nr; r++) {
        g->load[r] += gr->uses[r];
        if (g->load[r] > g->max_load) g->max_load = g->load[r];
    }
    g->by_tag[gr->tag] = gr;
    g->started[gr->kind]++;

    size_t cap = (size_t)(2 + g->mflits + gr->nflits);
    uint64_t *buf = xmalloc(cap * sizeof *buf), *pay = xcalloc((size_t)gr->nflits + 1, sizeof *pay);
    if (gr->kind == KIND_MC) {
        for (int i = 0; i < gr->len; i++) ((uint8_t *)gr->data)[i] = (uint8_t)rnd(g);
        int n = packet(g, buf, head(nt + u, 1, OP_REPLICATE, 0, OUT_NONE, 0, 0, 0), meta(src, gr->tag, gr->len),
                       gr->want, gr->data, gr->nflits);
        emit(arg, src, buf, n);
        g->packets_sent++;
    } else {
        /* contributor 0 sets count and out_*; the others repeat them or not */
        int mc = gr->kind == KIND_CODED_MC;
        unsigned od = mc ? (unsigned)(nt + u2) : (unsigned)d;
        for (int c = 0; c < ncontrib; c++) {
            memset(pay, 0, (size_t)gr->nflits * sizeof *pay);
            for (int i = 0; i < gr->len; i++) ((uint8_t *)pay)[i] = (uint8_t)rnd(g);
            for (int i = 0; i < gr->nflits; i++) gr->data[i] ^= pay[i];
            int first = c == 0, count = first || rnd_int(g, 2) ? ncontrib : 0, sets = first || rnd_int(g, 2);
            uint64_t h = head(nt + u, mc && first, OP_ENCODE, count, sets ? od : OUT_NONE, sets && mc, OP_REPLICATE, 0);
            int n =
                packet(g, buf, h, meta(contrib[c], gr->tag, gr->len), mc && first ? gr->want : NULL, pay, gr->nflits);
            emit(arg, contrib[c], buf, n);
            g->packets_sent++;
        }
    }
    free(buf);
    free(pay);
}

void nc_gen_probe(nc_gen *g, uint64_t now, int src, int u, int dst, int flits, nc_emit_fn *emit, void *arg)
{
    const topo *t = g->t;
    group *gr = xcalloc(1, sizeof *gr);
    gr->kind = KIND_CODED;
    gr->conn = -1;
    gr->want = xcalloc((size_t)g->na, 1);
    gr->uses = xcalloc((size_t)t->nrouters, sizeof *gr->uses);
    gr->want[dst] = 1;
    gr->pending = 1;
    gr->uses[u] = 1;
    gr->len = 8 * flits;
    gr->nflits = flits;
    gr->data = xcalloc((size_t)flits + 1, sizeof *gr->data);
    for (int i = 0; i < flits; i++) gr->data[i] = rnd(g);
    gr->src = t->nterms + u;
    gr->tag = new_tag(g);
    gr->active = 1;
    gr->started = now;
    int h1 = topo_distance(t, topo_term_router(t, src), u) + 1, h2 = topo_distance(t, u, topo_term_router(t, dst)) + 1;
    int F = 2 + flits;
    gr->model = 3 * (h1 + h2) + 2 * F + g->rc.xorlat + 3;
    g->by_tag[gr->tag] = gr;
    g->load[u]++;
    g->started[KIND_CODED]++;
    uint64_t *buf = xmalloc((size_t)(F + g->mflits) * sizeof *buf);
    int n = packet(g, buf, head(t->nterms + u, 0, OP_ENCODE, 1, (unsigned)dst, 0, 0, 0), meta(src, gr->tag, gr->len),
                   NULL, gr->data, flits);
    emit(arg, src, buf, n);
    g->packets_sent++;
    free(buf);
}

void nc_gen_on_done(nc_gen *g, nc_done_fn *fn, void *arg)
{
    g->on_done = fn;
    g->done_arg = arg;
}

void nc_gen_on_delivery(nc_gen *g, nc_deliver_fn *fn, void *arg)
{
    g->on_delivery = fn;
    g->delivery_arg = arg;
}

int nc_gen_mcast(nc_gen *g, uint64_t now, int src, const unsigned char *dests, int flits, nc_emit_fn *emit, void *arg)
{
    const topo *t = g->t;
    int u = topo_term_router(t, src);
    group *gr = group_new(g, KIND_MC, src);
    memcpy(gr->want, dests, (size_t)t->nterms);
    tree_uses(g, u, gr->want, gr->uses);
    if (!fits(g, gr->uses)) { /* a unit of the tree has no slot budgeted: wait */
        group_free(gr);
        return -1;
    }
    gr->len = 8 * flits;
    gr->nflits = flits;
    gr->data = xcalloc((size_t)flits + 1, sizeof *gr->data);
    for (int i = 0; i < flits; i++) gr->data[i] = rnd(g);
    group_start(g, gr, now);
    uint64_t *buf = xmalloc((size_t)(2 + g->mflits + flits) * sizeof *buf);
    int n = packet(g, buf, head(t->nterms + u, 1, OP_REPLICATE, 0, OUT_NONE, 0, 0, 0), meta(src, gr->tag, gr->len),
                   gr->want, gr->data, flits);
    emit(arg, src, buf, n);
    g->packets_sent++;
    free(buf);
    return gr->tag;
}

int nc_gen_pair(nc_gen *g, uint64_t now, int src, int u, int dst, int flits, nc_emit_fn *emit, void *arg)
{
    const topo *t = g->t;
    if (g->load[u] + 1 > g->rc.slots) return -1; /* the unit's slots are budgeted: wait */
    group *gr = xcalloc(1, sizeof *gr);
    gr->kind = KIND_CODED;
    gr->conn = -1;
    gr->model = -1;
    gr->want = xcalloc((size_t)g->na, 1);
    gr->uses = xcalloc((size_t)t->nrouters, sizeof *gr->uses);
    gr->want[dst] = 1;
    gr->pending = 1;
    gr->uses[u] = 1;
    gr->len = 8 * flits;
    gr->nflits = flits;
    gr->data = xcalloc((size_t)flits + 1, sizeof *gr->data);
    gr->src = t->nterms + u;
    gr->tag = new_tag(g);
    gr->active = 1;
    gr->started = now;
    g->by_tag[gr->tag] = gr;
    g->load[u]++;
    if (g->load[u] > g->max_load) g->max_load = g->load[u];
    g->started[KIND_CODED]++;
    uint64_t *buf = xmalloc((size_t)(2 + flits) * sizeof *buf), *pay = xmalloc((size_t)flits * sizeof *pay);
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < flits; i++) gr->data[i] ^= pay[i] = rnd(g);
        int n = packet(g, buf, head(t->nterms + u, 0, OP_ENCODE, 2, (unsigned)dst, 0, 0, 0),
                       meta(src, gr->tag, gr->len), NULL, pay, flits);
        emit(arg, src, buf, n);
        g->packets_sent++;
    }
    free(buf);
    free(pay);
    return gr->tag;
}

void nc_gen_probe_result(const nc_gen *g, uint64_t *probes, uint64_t *max_dev, uint64_t *sum_dev)
{
    *probes = g->probes;
    *max_dev = g->probe_max_dev;
    *sum_dev = g->probe_sum_dev;
}

/* ------------------------------------------------------------ checking */

static void finish(nc_gen *g, group *gr, uint64_t now)
{
    uint64_t lat = now - gr->started;
    if (gr->model >= 0) {
        uint64_t dev = lat > (uint64_t)gr->model ? lat - (uint64_t)gr->model : (uint64_t)gr->model - lat;
        g->probes++;
        g->probe_sum_dev += dev;
        if (dev > g->probe_max_dev) g->probe_max_dev = dev;
    }
    g->lat_sum += lat;
    if (lat > g->lat_max) g->lat_max = lat;
    g->completed[gr->kind]++;
    if (g->on_done) g->on_done(g->done_arg, gr->tag, now);
    if (gr->conn >= 0) clos_disconnect(g->clos, gr->conn);
    for (int r = 0; r < g->t->nrouters; r++) g->load[r] -= gr->uses[r];
    g->by_tag[gr->tag] = NULL;
    group_free(gr);
}

int nc_gen_flit(nc_gen *g, int term, int vc, const xnoc_flit *f, uint64_t now, char *err, size_t errlen)
{
    rx_state *rx = &g->rx[term * g->rc.vcs + vc];
    uint64_t w = f->payload;
    if (f->head) {
        if ((int)FLIT_GET(w, FLIT_DEST_LSB, FLIT_DEST_W) != term || FLIT_GET(w, FLIT_MC_BIT, 1)) {
            snprintf(err, errlen, "cycle %llu: coded/multicast packet for address %d (MC %d) arrived at terminal %d",
                     (unsigned long long)now, (int)FLIT_GET(w, FLIT_DEST_LSB, FLIT_DEST_W),
                     (int)FLIT_GET(w, FLIT_MC_BIT, 1), term);
            return -1;
        }
        rx->active = 1;
        rx->g = NULL;
        rx->got = 1;
        if (f->tail) {
            snprintf(err, errlen, "cycle %llu: coded/multicast packet at terminal %d ends at its head",
                     (unsigned long long)now, term);
            return -1;
        }
        return 0;
    }
    if (!rx->active) {
        snprintf(err, errlen, "cycle %llu: body flit without a head at terminal %d VC %d", (unsigned long long)now,
                 term, vc);
        return -1;
    }
    group *gr = rx->g;
    if (rx->got == 1) { /* meta: source, tag, length */
        int src = (int)FLIT_GET(w, FLIT_META_SRC_LSB, FLIT_META_SRC_W),
            tag = (int)FLIT_GET(w, FLIT_META_TAG_LSB, FLIT_META_TAG_W),
            len = (int)FLIT_GET(w, FLIT_META_LEN_LSB, FLIT_META_LEN_W);
        gr = g->by_tag[tag];
        if (!gr) {
            snprintf(err, errlen, "cycle %llu: terminal %d received tag 0x%04x of no active coding group",
                     (unsigned long long)now, term, tag);
            return -1;
        }
        if (src != gr->src || len != gr->len) {
            snprintf(err, errlen,
                     "cycle %llu: terminal %d, group 0x%04x (%s): meta source %d length %d, expected %d and %d",
                     (unsigned long long)now, term, tag, kind_names[gr->kind], src, len, gr->src, gr->len);
            return -1;
        }
        if (gr->want[term] != 1) {
            snprintf(err, errlen, "cycle %llu: terminal %d received group 0x%04x (%s) %s", (unsigned long long)now,
                     term, tag, kind_names[gr->kind], gr->want[term] ? "twice" : "but is not one of its destinations");
            return -1;
        }
        rx->g = gr;
    } else {
        int i = rx->got - 2;
        if (i >= gr->nflits || w != gr->data[i]) {
            snprintf(err, errlen,
                     "cycle %llu: terminal %d, group 0x%04x (%s): data flit %d is 0x%016llx, expected 0x%016llx",
                     (unsigned long long)now, term, gr->tag, kind_names[gr->kind], i, (unsigned long long)w,
                     (unsigned long long)(i < gr->nflits ? gr->data[i] : 0));
            return -1;
        }
    }
    rx->got++;
    int last = rx->got == 2 + gr->nflits;
    if (f->tail != last) {
        snprintf(err, errlen, "cycle %llu: terminal %d, group 0x%04x: tail flag on flit %d of %d",
                 (unsigned long long)now, term, gr->tag, rx->got - 1, 2 + gr->nflits);
        return -1;
    }
    if (last) {
        rx->active = 0;
        gr->want[term] = 2;
        g->deliveries++;
        if (g->on_delivery) g->on_delivery(g->delivery_arg, gr->tag, term, now);
        if (--gr->pending == 0) finish(g, gr, now);
    }
    return 0;
}

int nc_gen_busy(const nc_gen *g)
{
    uint64_t s = 0, c = 0;
    for (int k = 0; k < NKIND; k++) {
        s += g->started[k];
        c += g->completed[k];
    }
    return (int)(s - c);
}

void nc_gen_describe_pending(const nc_gen *g, char *buf, size_t len)
{
    const group *old = NULL;
    for (int i = 0; i < 65536; i++)
        if (g->by_tag[i] && (!old || g->by_tag[i]->started < old->started)) old = g->by_tag[i];
    if (!old) {
        snprintf(buf, len, "no coding group pending");
        return;
    }
    int first = -1;
    for (int a = 0; a < g->t->nterms && first < 0; a++)
        if (old->want[a] == 1) first = a;
    snprintf(buf, len,
             "%d coding group(s) pending, the oldest 0x%04x (%s, started at cycle %llu) still owes %d delivery(ies), "
             "e.g. to terminal %d",
             nc_gen_busy(g), old->tag, kind_names[old->kind], (unsigned long long)old->started, old->pending, first);
}

void nc_gen_json(const nc_gen *g, json_t *j)
{
    json_t *c = json_object();
    uint64_t done = 0;
    for (int k = 0; k < NKIND; k++) {
        json_object_set_new(
            c, kind_names[k],
            json_pack("{s:I,s:I}", "started", (json_int_t)g->started[k], "completed", (json_int_t)g->completed[k]));
        done += g->completed[k];
    }
    json_object_set_new(c, "packets_sent", json_integer((json_int_t)g->packets_sent));
    json_object_set_new(c, "deliveries", json_integer((json_int_t)g->deliveries));
    json_object_set_new(c, "pending", json_integer(nc_gen_busy(g)));
    json_object_set_new(c, "dropped", json_integer((json_int_t)g->dropped));
    json_object_set_new(c, "max_slots_budgeted", json_integer(g->max_load));
    json_object_set_new(c, "avg_group_latency", json_real(done ? (double)g->lat_sum / (double)done : 0.0));
    json_object_set_new(c, "max_group_latency", json_integer((json_int_t)g->lat_max));
    if (g->fanout) {
        json_object_set_new(c, "fanout", json_integer(g->fanout));
        json_object_set_new(c, "through_stages", json_boolean(g->clos != NULL));
        json_object_set_new(c, "blocked", json_integer((json_int_t)g->blocked));
        json_object_set_new(c, "refused", json_integer((json_int_t)g->refused));
        json_object_set_new(c, "middle_switches", json_integer((json_int_t)g->mids));
    }
    json_object_set_new(j, "coding", c);
}

static unsigned long long coding_uint(const json_t *c, const char *key)
{
    return (unsigned long long)json_integer_value(json_object_get(c, key));
}

static unsigned long long completed(const json_t *c, int kind)
{
    return coding_uint(json_object_get(c, kind_names[kind]), "completed");
}

void nc_gen_text(FILE *f, const json_t *c)
{
    fprintf(f,
            "coding groups: %llu multicast, %llu coded, %llu coded+multicast completed (%d pending); %llu deliveries "
            "byte-exact; group latency avg %.1f max %llu cycles; %llu dropped (no free slot)\n",
            completed(c, KIND_MC), completed(c, KIND_CODED), completed(c, KIND_CODED_MC),
            (int)coding_uint(c, "pending"), coding_uint(c, "deliveries"),
            json_number_value(json_object_get(c, "avg_group_latency")), coding_uint(c, "max_group_latency"),
            coding_uint(c, "dropped"));
    if (json_object_get(c, "fanout"))
        fprintf(f,
                "multicast:%d%s: %llu blocked by the routing control, %llu refused (ports busy), %llu middle "
                "switches chosen\n",
                (int)coding_uint(c, "fanout"),
                json_is_true(json_object_get(c, "through_stages")) ? " through the stages" : "",
                coding_uint(c, "blocked"), coding_uint(c, "refused"), coding_uint(c, "middle_switches"));
}
