/* traffic_nc.c - coding groups and multicasts for `xnoc traffic --coding R`
 * (see traffic_nc.h): builds the packets, budgets the units' slots, starts
 * the groups; traffic_nc_check.c checks every delivery byte for byte
 * against the expected payload and reports. */
#include "traffic/traffic_nc_impl.h"
#include "util/cli.h"
#include "util/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "net/clos_ctl.h"
#include "net/netgen.h"

static uint64_t rnd(nc_gen *g) { return rng_mix64(g->rng += RNG_GOLDEN); }
static int rnd_int(nc_gen *g, int n) { return (int)(rnd(g) % (uint64_t)n); }
static double rnd_unit(nc_gen *g) { return rng_unit(rnd(g)); }

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
    g->src_done_w = xcalloc((size_t)t->nterms, sizeof *g->src_done_w);
    g->mq = xcalloc((size_t)t->nterms, sizeof *g->mq);
    g->mq_head = xcalloc((size_t)t->nterms, sizeof *g->mq_head);
    g->mq_len = xcalloc((size_t)t->nterms, sizeof *g->mq_len);
    g->mq_cap = xcalloc((size_t)t->nterms, sizeof *g->mq_cap);
    return g;
}

void nc_gen_window(nc_gen *g, uint64_t from, uint64_t to)
{
    g->w0 = from;
    g->w1 = to;
}

void nc_gen_window_stats(nc_gen *g, nc_window *w)
{
    *w = (nc_window){g->offered_w, g->done_w, g->flits_w, g->src_done_w, g->lat, g->lat_q, g->nlat};
}

void nc_group_free(group *gr)
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
    for (int i = 0; i < 65536; i++) nc_group_free(g->by_tag[i]);
    free(g->by_tag);
    free(g->load);
    free(g->rx);
    free(g->src_done_w);
    free(g->lat);
    free(g->lat_q);
    nc_gen_drop_queued(g);
    for (int i = 0; i < g->t->nterms; i++) free(g->mq[i]);
    free(g->mq);
    free(g->mq_head);
    free(g->mq_len);
    free(g->mq_cap);
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
    if (topo_has(t, TOPO_TRAIT_SPINES)) g->clos = clos_new(t->clos_m, t->clos_n, t->clos_r);
}

/* Makes the group active: its slots, its tag. */
static void group_start(nc_gen *g, group *gr, uint64_t now)
{
    gr->tag = new_tag(g);
    gr->active = 1;
    gr->started = now;
    if (gr->kind != KIND_MC || !g->fanout) gr->created = now;
    gr->measured = in_window(g, gr->created);
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
static int start_multicast(nc_gen *g, group *gr, uint64_t now, nc_emit_fn *emit, void *arg)
{
    const topo *t = g->t;
    int nt = t->nterms, R = t->clos_r, src = gr->src;
    memset(gr->uses, 0, (size_t)t->nrouters * sizeof *gr->uses);
    gr->conn = -1;
    int mid[64], nmid = 0;
    unsigned char *sub = NULL;
    if (g->clos) {
        uint64_t req[CLOS_MAX_RW] = {0};
        for (int d = 0; d < nt; d++)
            if (gr->want[d]) clos_add(req, topo_term_router(t, d));
        int in = topo_term_router(t, src);
        if (!clos_valid(g->clos, in, req)) {
            g->refused++;
            return 0;
        }
        gr->conn = clos_connect(g->clos, in, req, t->clos_m < 64 ? t->clos_m : 64, 0);
        if (gr->conn < 0) {
            g->blocked++;
            return 0;
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
    if (!fits(g, gr->uses)) { /* a unit has no free slot: it waits */
        g->dropped++;
        if (gr->conn >= 0) clos_disconnect(g->clos, gr->conn);
        gr->conn = -1;
        free(sub);
        return 0;
    }
    g->mids += (uint64_t)nmid;
    group_start(g, gr, now);
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
    return 1;
}

/* A group of this kind from src: no destination yet, no model (-1), no
 * clos connection; want[] and uses[] zeroed. */
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

/* A new request of terminal src: F random destinations and a random
 * payload, into src's queue. */
static void new_multicast(nc_gen *g, uint64_t now, int src)
{
    group *gr = group_new(g, KIND_MC, src);
    gr->created = now;
    gr->measured = in_window(g, now);
    int maxb = 8 * g->rc.ncmax;
    gr->len = 1 + rnd_int(g, maxb < 64 ? maxb : 64);
    gr->nflits = (gr->len + 7) / 8;
    gr->data = xcalloc((size_t)gr->nflits + 1, sizeof *gr->data);
    pick_terms(g, gr->want, g->fanout, src);
    for (int i = 0; i < gr->len; i++) ((uint8_t *)gr->data)[i] = (uint8_t)rnd(g);
    if (g->mq_len[src] == g->mq_cap[src]) {
        g->mq_cap[src] = g->mq_cap[src] ? 2 * g->mq_cap[src] : 16;
        g->mq[src] = xrealloc(g->mq[src], g->mq_cap[src] * sizeof **g->mq);
    }
    g->mq[src][g->mq_len[src]++] = gr;
    g->meas_made += gr->measured;
    if (++g->queued > g->queued_max) g->queued_max = g->queued;
}

void nc_gen_drop_queued(nc_gen *g)
{
    for (int src = 0; src < g->t->nterms; src++) {
        for (size_t i = g->mq_head[src]; i < g->mq_len[src]; i++) {
            g->meas_made -= g->mq[src][i]->measured;
            nc_group_free(g->mq[src][i]);
        }
        g->mq_head[src] = g->mq_len[src] = 0;
    }
    g->queued = 0;
}

int nc_gen_measured_pending(const nc_gen *g) { return g->meas_made != g->meas_done; }

/* multicast:F: new requests while the window lasts, then each source's
 * oldest waiting request tries to start (at most one a cycle) */
static void step_multicasts(nc_gen *g, uint64_t now, nc_emit_fn *emit, void *arg)
{
    for (int src = 0; src < g->t->nterms && now < g->w1; src++)
        if (rnd_unit(g) < g->rate && g->sources[src]) {
            g->offered_w += in_window(g, now);
            new_multicast(g, now, src);
        }
    for (int src = 0; src < g->t->nterms; src++) {
        if (g->mq_head[src] == g->mq_len[src]) continue;
        if (!start_multicast(g, g->mq[src][g->mq_head[src]], now, emit, arg)) continue;
        g->queued--;
        if (++g->mq_head[src] == g->mq_len[src]) g->mq_head[src] = g->mq_len[src] = 0;
    }
}

/* The unit where a multicast of nc_gen_step starts replicating: `other`,
 * but on a clos a random spine.  A clos's units keep a slot per lane for
 * multicasts (rtl/xnoc_ncu_slots.sv Reserve): a multicast held back there
 * waits for its lane's multicast slots to be sent, which is deadlock-free
 * only while a multicast slot's copies go down the stages (a spine's to
 * leaf units and terminals, a leaf's to its terminals).  A multicast
 * replicated first at a leaf's unit would send copies up to spine units,
 * and two units could wait for each other (issue 46: every clos stalled
 * with --coding).  From a spine every terminal is down the stages. */
static int mc_root(nc_gen *g, int other)
{
    const topo *t = g->t;
    return topo_has(t, TOPO_TRAIT_SPINES) ? t->clos_r + rnd_int(g, t->clos_m) : other;
}

void nc_gen_step(nc_gen *g, uint64_t now, nc_emit_fn *emit, void *arg)
{
    const topo *t = g->t;
    if (g->fanout) {
        step_multicasts(g, now, emit, arg);
        return;
    }
    if (rnd_unit(g) >= g->rate || t->nterms < 2) return;
    int nt = t->nterms, nr = t->nrouters;
    g->offered_w += in_window(g, now);
    group *gr = group_new(g, rnd_int(g, NKIND), 0);
    /* mostly short payloads, sometimes up to the units' limit */
    int maxb = 8 * g->rc.ncmax;
    gr->len = rnd_int(g, 4) ? 1 + rnd_int(g, maxb < 64 ? maxb : 64) : 1 + rnd_int(g, maxb);
    gr->nflits = (gr->len + 7) / 8;
    gr->data = xcalloc((size_t)gr->nflits + 1, sizeof *gr->data);
    int maxdst = nt < 8 ? nt : 8;

    int src = rnd_int(g, nt), u = rnd_int(g, nr), u2 = rnd_int(g, nr), d = -1, ncontrib = 0;
    int contrib[MAX_CONTRIB];
    if (gr->kind == KIND_MC) {
        u = mc_root(g, topo_term_router(t, src));
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
            u2 = mc_root(g, u2);
            pick_terms(g, gr->want, 2 + rnd_int(g, maxdst - 1), -1);
            tree_uses(g, u2, gr->want, gr->uses);
        }
    }
    if (!fits(g, gr->uses)) { /* a unit has no free slot: this group is dropped (not retried) */
        g->dropped++;
        nc_group_free(gr);
        return;
    }
    group_start(g, gr, now);

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
    group *gr = group_new(g, KIND_CODED, 0);
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
        nc_group_free(gr);
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
    group *gr = group_new(g, KIND_CODED, 0);
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
