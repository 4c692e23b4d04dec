/* paths.c - channels and candidate paths of the scheduling model.
 *
 * A candidate path is a route (network output ports, router by router) plus
 * the injection channel at the source and the ejection channel at the
 * destination: with k ports there are k*k variants of each route.
 *
 * Paths are built lazily, per terminal pair, on first use: an all-to-all
 * needs every pair, a scatter only the root's.  Small networks get every
 * minimal (+ detour) route.  Where a pair has more than SCHED_MAX_VARIANTS
 * variants (a 16x16 mesh has C(30,15) minimal corner-to-corner routes) it
 * gets the routing function's own route plus random distinct routes, so
 * memory and search time stay bounded; sched_paths_capped() says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "util/rng.h"
#include "util/cli.h"

int sched_nchannels(const topo *t) { return 2 * t->nterms * t->k + t->nlinks; }
int sched_channel_inj(const topo *t, int term, int c) { return term * t->k + c; }
int sched_channel_ej(const topo *t, int term, int c) { return t->nterms * t->k + term * t->k + c; }
int sched_channel_link(const topo *t, int link) { return 2 * t->nterms * t->k + link; }

void sched_channel_name(const topo *t, int ch, char *buf, int len)
{
    int tk = t->nterms * t->k;
    if (ch < tk) snprintf(buf, (size_t)len, "injection channel %d of terminal %d", ch % t->k, ch / t->k);
    else if (ch < 2 * tk)
        snprintf(buf, (size_t)len, "ejection channel %d of terminal %d", (ch - tk) % t->k, (ch - tk) / t->k);
    else {
        const topo_link *l = &t->links[ch - 2 * tk];
        snprintf(buf, (size_t)len, "link router %d port %d -> router %d", l->src, l->src_port, l->dst);
    }
}

struct sched_pathtab {
    const topo *t;
    int detour, capped;
    sched_paths *pair; /* [a * nterms + b]; n < 0: not built yet */
};

static int max_routes(const topo *t)
{
    int r = SCHED_MAX_VARIANTS / (t->k * t->k);
    return r < 2 ? 2 : r;
}

/* Appends the k*k channel variants of one route from a to b. */
static void add_variants(const topo *t, int a, int b, const int *ports, int nhops, sched_paths *o)
{
    if (nhops > COLL_MAX_HOPS - 1) return; /* longer than a head flit can name */
    o->p = xrealloc(o->p, (size_t)(o->n + t->k * t->k) * sizeof *o->p);
    for (int ci = 0; ci < t->k; ci++)
        for (int ce = 0; ce < t->k; ce++) {
            sched_path *p = &o->p[o->n++];
            memset(p, 0, sizeof *p);
            p->chan = ci;
            p->ch[p->nch++] = sched_channel_inj(t, a, ci);
            int r = topo_term_router(t, a);
            for (int h = 0; h < nhops; h++) {
                int l = t->out_link[r * t->nports + ports[h]];
                p->ch[p->nch++] = sched_channel_link(t, l);
                p->ports[p->nports++] = (int8_t)ports[h];
                r = t->links[l].dst;
            }
            p->ports[p->nports++] = (int8_t)topo_term_port(t, b, ce);
            p->ch[p->nch++] = sched_channel_ej(t, b, ce);
        }
}

typedef struct {
    const topo *t;
    int a, b, routes, limit;
    sched_paths *out;
} collect;

static int add_route(const int *ports, int nhops, void *arg)
{
    collect *c = arg;
    if (c->routes == c->limit) return 1; /* too many: the caller samples */
    add_variants(c->t, c->a, c->b, ports, nhops, c->out);
    c->routes++;
    return 0;
}

/* One random route from ra to rb of at most `budget` hops, no router twice;
 * 0 if the walk ran into a dead end (possible only with detours). */
static int random_route(const topo *t, int ra, int rb, int budget, uint64_t *rs, int *ports, int *nhops,
                        unsigned char *seen)
{
    memset(seen, 0, (size_t)t->nrouters);
    int r = ra, d = 0;
    seen[r] = 1;
    while (r != rb) {
        int cand[16], nc = 0;
        for (int p = 0; p < t->nnet && nc < 16; p++) {
            int l = t->out_link[r * t->nports + p];
            if (l < 0) continue;
            int v = t->links[l].dst;
            if (!seen[v] && d + 1 + topo_distance(t, v, rb) <= budget) cand[nc++] = p;
        }
        if (!nc) return 0;
        *rs = rng_mix33(*rs + 0x9E3779B97F4A7C15ull);
        int p = cand[*rs % (uint64_t)nc];
        ports[d++] = p;
        r = t->links[t->out_link[r * t->nports + p]].dst;
        seen[r] = 1;
    }
    *nhops = d;
    return 1;
}

static int same_route(const sched_path *p, const int *ports, int nhops)
{
    if (p->nports != nhops + 1) return 0;
    for (int h = 0; h < nhops; h++)
        if (p->ports[h] != ports[h]) return 0;
    return 1;
}

/* Too many routes: the routing function's route, then random distinct ones. */
static void sample_routes(sched_pathtab *P, int a, int b, sched_paths *o)
{
    const topo *t = P->t;
    int ra = topo_term_router(t, a), rb = topo_term_router(t, b), limit = max_routes(t), nr = 0;
    int budget = topo_distance(t, ra, rb) + P->detour, ports[COLL_MAX_HOPS + 1], nh;
    int kk = t->k * t->k;
    unsigned char *seen = xmalloc((size_t)t->nrouters);
    o->n = 0;
    nh = topo_route_ports(t, a, b, ports, COLL_MAX_HOPS + 1);
    if (nh > 0) {
        add_variants(t, a, b, ports, nh - 1, o); /* without its ejection port */
        nr++;
    }
    uint64_t rs = rng_mix33(((uint64_t)a << 32) ^ (uint64_t)b ^ 0x5EEDull);
    for (int tries = 0; nr < limit && tries < 20 * limit; tries++) {
        if (!random_route(t, ra, rb, budget, &rs, ports, &nh, seen)) continue;
        int dup = 0;
        for (int i = 0; i < o->n && !dup; i += kk) dup = same_route(&o->p[i], ports, nh);
        if (dup) continue;
        add_variants(t, a, b, ports, nh, o);
        nr++;
    }
    free(seen);
    P->capped = 1;
}

sched_pathtab *sched_paths_build(const topo *t, int detour)
{
    sched_pathtab *P = xcalloc(1, sizeof *P);
    P->t = t;
    P->detour = detour;
    P->pair = xmalloc((size_t)t->nterms * (size_t)t->nterms * sizeof *P->pair);
    for (int i = 0; i < t->nterms * t->nterms; i++) P->pair[i] = (sched_paths){-1, NULL};
    return P;
}

const sched_paths *sched_paths_get(sched_pathtab *P, const topo *t, int a, int b)
{
    sched_paths *o = &P->pair[a * t->nterms + b];
    if (o->n >= 0) return o;
    o->n = 0;
    if (a == b) return o;
    collect c = {t, a, b, 0, max_routes(t), o};
    long visited = topo_paths(t, topo_term_router(t, a), topo_term_router(t, b), P->detour, add_route, &c);
    if (visited > c.limit) sample_routes(P, a, b, o);
    return o;
}

int sched_paths_capped(const sched_pathtab *P) { return P->capped; }

void sched_paths_free(sched_pathtab *P, const topo *t)
{
    if (!P) return;
    for (int i = 0; i < t->nterms * t->nterms; i++) free(P->pair[i].p);
    free(P->pair);
    free(P);
}
