/* topo.c - what every topology kind shares: links, port names, routes and
 * paths, dispatched through t->ops; topo_kinds.c holds the table of kinds
 * and the parser, one file per kind fills a row (net/topo_kind.h).
 *
 * A topology string is "KIND[:SIZE][:c=N]":
 *   mesh:WxH     2D mesh, XY routing                          (topo_grid.c)
 *   torus:WxH    2D torus, dimension-order routing, dateline VC classes
 *   octagon      8 routers, i linked to i+1, i-1 and i+4 (mod 8) (topo_octagon.c)
 *   fat-octagon  octagon with two terminals per router
 *   dragonfly:a=A,p=P,h=H[,g=G]  G groups (default A*H+1) of A routers,
 *                all-to-all inside a group, H global links per router,
 *                P terminals per router                       (topo_dragonfly.c)
 *   clos:m=M,n=N,r=R  folded three-stage Clos v(M,N,R): R leaves of N
 *                terminals, M spines                          (topo_clos.c)
 *   :c=N         N terminals per router (concentration)
 */
#include "net/topo_kind.h"
#include "util/cli.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void topo_add_link(topo *t, int a, int pa, int b, int pb, int dateline, topo_link_kind kind)
{
    topo_link *l = &t->links[t->nlinks];
    l->src = a;
    l->src_port = pa;
    l->dst = b;
    l->dst_port = pb;
    l->dateline = dateline;
    l->kind = kind;
    t->out_link[a * t->nports + pa] = t->nlinks;
    t->in_link[b * t->nports + pb] = t->nlinks;
    if (dateline) t->dateline[a * t->nports + pa] = 1;
    t->nlinks++;
}

int topo_parse_keys(const char *s, const char *keys, long *v, const char **rest)
{
    size_t nk = strlen(keys);
    for (size_t i = 0; i < nk; i++) v[i] = 0;
    while (*s) {
        const char *k = strchr(keys, *s);
        char *end;
        if (!k || !*k || s[1] != '=' || !isdigit((unsigned char)s[2]) || v[k - keys]) return -1;
        v[k - keys] = strtol(s + 2, &end, 10);
        if (v[k - keys] < 1 || v[k - keys] > 1000) v[k - keys] = 1000; /* refused by the caller */
        s = end;
        if (*s == ',') s++;
        else break;
    }
    *rest = s;
    return 0;
}

void topo_port_name_at(const topo *t, int r, int p, char *buf, size_t len)
{
    if (p >= t->nnet) snprintf(buf, len, "t%d.%d", (p - t->nnet) / t->k, (p - t->nnet) % t->k);
    else t->ops->port_name(t, r, p, buf, len);
}

void topo_port_name(const topo *t, int p, char *buf, size_t len) { topo_port_name_at(t, 0, p, buf, len); }

void topo_router_label(const topo *t, int r, char *buf, size_t len) { t->ops->router_label(t, r, buf, len); }

int topo_facts(const topo *t, topo_fact *f, int max) { return t->ops->facts ? t->ops->facts(t, f, max) : 0; }

const char *topo_describe(const topo *t) { return t->ops->describe; }

topo_drawing topo_draw(const topo *t) { return t->ops->drawing; }

int topo_param(const topo *t, int i) { return i >= 0 ? t->ops->param(t, i) : 0; }
int topo_has(const topo *t, unsigned traits) { return (t->ops->traits & traits) == traits; }

void topo_free(topo *t)
{
    if (!t) return;
    free(t->links);
    free(t->out_link);
    free(t->in_link);
    free(t->port_dim);
    free(t->dateline);
    free(t->x);
    free(t->y);
    free(t->dist);
    free(t);
}

int topo_port_term(const topo *t, int r, int p)
{
    if (p < t->nnet || p >= t->nports) return -1;
    int term = r * t->conc + (p - t->nnet) / t->k;
    return term < t->nterms ? term : -1; /* the clos's spines have no terminals */
}

int topo_route_router(const topo *t, int r, int q) { return q == r ? -1 : t->ops->route(t, r, q, -1); }

int topo_route(const topo *t, int r, int dest)
{
    int dr = topo_term_router(t, dest);
    if (dr == r) return topo_term_port(t, dest, 0);
    return t->ops->route(t, r, dr, dest);
}

int topo_distance(const topo *t, int ra, int rb) { return t->dist[ra * t->nrouters + rb]; }

int topo_route_ports(const topo *t, int src, int dest, int *ports, int max)
{
    int r = topo_term_router(t, src), n = 0;
    for (;;) {
        if (n >= max) return -1;
        int p = topo_route(t, r, dest);
        ports[n++] = p;
        if (p >= t->nnet) return n;
        r = t->links[t->out_link[r * t->nports + p]].dst;
    }
}

typedef struct {
    const topo *t;
    int target, budget;
    int *ports;
    unsigned char *seen;
    int (*fn)(const int *, int, void *);
    void *arg;
    long count;
    int stop;
} path_walk;

static void walk(path_walk *w, int r, int depth)
{
    if (w->stop) return;
    if (r == w->target) {
        w->count++;
        if (w->fn && w->fn(w->ports, depth, w->arg)) w->stop = 1;
        return;
    }
    const topo *t = w->t;
    for (int p = 0; p < t->nnet && !w->stop; p++) {
        int l = t->out_link[r * t->nports + p];
        if (l < 0) continue;
        int v = t->links[l].dst;
        if (w->seen[v] || depth + 1 + topo_distance(t, v, w->target) > w->budget) continue;
        w->seen[v] = 1;
        w->ports[depth] = p;
        walk(w, v, depth + 1);
        w->seen[v] = 0;
    }
}

long topo_paths(const topo *t, int ra, int rb, int detour, int (*fn)(const int *ports, int nhops, void *arg), void *arg)
{
    path_walk w = {.t = t, .target = rb, .fn = fn, .arg = arg};
    if (detour < 0) detour = 0;
    w.budget = topo_distance(t, ra, rb) + detour;
    w.ports = xcalloc((size_t)w.budget + 1, sizeof *w.ports);
    w.seen = xcalloc((size_t)t->nrouters, 1);
    w.seen[ra] = 1;
    walk(&w, ra, 0);
    free(w.ports);
    free(w.seen);
    return w.count;
}

int topo_port_bits(const topo *t)
{
    int b = 1;
    while ((1 << b) < t->nports) b++;
    return b;
}
