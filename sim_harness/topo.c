/* topo.c - parsing, wiring and routing of the supported topologies.
 *
 * A topology string is "KIND[:SIZE][:c=N]":
 *   mesh:WxH     2D mesh, XY routing
 *   torus:WxH    2D torus, dimension-order routing, dateline VC classes
 *   octagon      8 routers, i linked to i+1, i-1 and i+4 (mod 8)
 *   fat-octagon  octagon with two terminals per router
 *   :c=N         N terminals per router (concentration)
 */
#include "topo.h"

#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 1024   /* the head flit names a terminal in 10 bits */
#define MAX_PORTS 16     /* the router's config bus writes 4-bit ports */
#define MAX_SIDE 32

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "xnoc: out of memory\n");
        exit(1);
    }
    return p;
}

/* Adds the directed link a.pa -> b.pb. */
static void add_link(topo *t, int a, int pa, int b, int pb, int dateline)
{
    topo_link *l = &t->links[t->nlinks];
    l->src = a;
    l->src_port = pa;
    l->dst = b;
    l->dst_port = pb;
    l->dateline = dateline;
    t->out_link[a * t->nports + pa] = t->nlinks;
    t->in_link[b * t->nports + pb] = t->nlinks;
    if (dateline) t->dateline[a * t->nports + pa] = 1;
    t->nlinks++;
}

static void wire_grid(topo *t, int wrap)
{
    int w = t->w, h = t->h;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int r = y * w + x;
            if (wrap ? w > 1 : x + 1 < w) {
                int n = y * w + (x + 1) % w;
                add_link(t, r, MESH_XP, n, MESH_XM, wrap && x == w - 1);
                add_link(t, n, MESH_XM, r, MESH_XP, wrap && x == w - 1);
            }
            if (wrap ? h > 1 : y + 1 < h) {
                int n = ((y + 1) % h) * w + x;
                add_link(t, r, MESH_YP, n, MESH_YM, wrap && y == h - 1);
                add_link(t, n, MESH_YM, r, MESH_YP, wrap && y == h - 1);
            }
            t->x[r] = (x + 0.5) / w;
            t->y[r] = (y + 0.5) / h;
        }
    }
    for (int r = 0; r < t->nrouters; r++) {
        t->port_dim[r * t->nports + MESH_XP] = DIM_X;
        t->port_dim[r * t->nports + MESH_XM] = DIM_X;
        t->port_dim[r * t->nports + MESH_YP] = DIM_Y;
        t->port_dim[r * t->nports + MESH_YM] = DIM_Y;
    }
}

static void wire_octagon(topo *t)
{
    for (int i = 0; i < 8; i++) {
        /* Both ring directions are one "dimension": a packet keeps its VC
         * class along the ring and is moved to class 1 on the wrap links. */
        add_link(t, i, OCT_CW, (i + 1) % 8, OCT_CCW, i == 7);
        add_link(t, i, OCT_CCW, (i + 7) % 8, OCT_CW, i == 0);
        add_link(t, i, OCT_ACROSS, (i + 4) % 8, OCT_ACROSS, 0);
        t->port_dim[i * t->nports + OCT_CW] = DIM_X;
        t->port_dim[i * t->nports + OCT_CCW] = DIM_X;
        t->port_dim[i * t->nports + OCT_ACROSS] = DIM_ACROSS;
        double a = (-90.0 - 22.5 + 45.0 * i) * M_PI / 180.0;
        t->x[i] = 0.5 + 0.42 * cos(a);
        t->y[i] = 0.5 + 0.42 * sin(a);
    }
}

/* All-pairs router distances by breadth-first search over the links. */
static void compute_distances(topo *t)
{
    int n = t->nrouters;
    int *queue = xcalloc((size_t)n, sizeof *queue);
    for (int s = 0; s < n; s++) {
        int *d = &t->dist[s * n];
        for (int i = 0; i < n; i++) d[i] = -1;
        int head = 0, tail = 0;
        d[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            int r = queue[head++];
            for (int p = 0; p < t->nnet; p++) {
                int l = t->out_link[r * t->nports + p];
                if (l < 0) continue;
                int v = t->links[l].dst;
                if (d[v] < 0) {
                    d[v] = d[r] + 1;
                    queue[tail++] = v;
                }
            }
        }
    }
    free(queue);
}

static int parse_size(const char *s, int *w, int *h, const char **rest)
{
    char *end;
    if (!isdigit((unsigned char)*s)) return -1;   /* strtol would take spaces and signs */
    long a = strtol(s, &end, 10);
    if (end == s || *end != 'x') return -1;
    s = end + 1;
    if (!isdigit((unsigned char)*s)) return -1;
    long b = strtol(s, &end, 10);
    if (end == s) return -1;
    *w = (int)(a < 0 || a > 100000 ? 100000 : a);
    *h = (int)(b < 0 || b > 100000 ? 100000 : b);
    *rest = end;
    return 0;
}

topo *topo_parse(const char *spec, int k, char *err, size_t errlen)
{
    topo_kind kind;
    int w = 8, h = 1, conc = 1;
    const char *rest;
    if (!spec || !*spec) {
        snprintf(err, errlen, "empty topology (try mesh:4x4, torus:4x4, octagon, fat-octagon)");
        return NULL;
    }
    if (!strncmp(spec, "mesh:", 5) || !strncmp(spec, "torus:", 6)) {
        kind = spec[0] == 'm' ? TOPO_MESH : TOPO_TORUS;
        const char *sz = strchr(spec, ':') + 1;
        if (parse_size(sz, &w, &h, &rest)) {
            snprintf(err, errlen, "topology '%s': expected a size WxH such as %s:4x4", spec,
                     kind == TOPO_MESH ? "mesh" : "torus");
            return NULL;
        }
        int lo = kind == TOPO_MESH ? 1 : 2;
        if (w < lo || h < lo || w > MAX_SIDE || h > MAX_SIDE) {
            snprintf(err, errlen, "topology '%s': each side must be %d..%d", spec, lo, MAX_SIDE);
            return NULL;
        }
    } else if (!strncmp(spec, "fat-octagon", 11)) {
        kind = TOPO_OCTAGON;
        conc = 2;
        rest = spec + 11;
    } else if (!strncmp(spec, "octagon", 7)) {
        kind = TOPO_OCTAGON;
        rest = spec + 7;
    } else {
        const char *colon = strchr(spec, ':');
        int n = colon ? (int)(colon - spec) : (int)strlen(spec);
        snprintf(err, errlen, "unknown topology '%.*s' (known: mesh:WxH, torus:WxH, octagon, fat-octagon; suffix :c=N)",
                 n, spec);
        return NULL;
    }
    if (*rest) {
        char *end;
        if (strncmp(rest, ":c=", 3)) {
            snprintf(err, errlen, "topology '%s': unexpected '%s' (only the suffix :c=N may follow)", spec, rest);
            return NULL;
        }
        long c = isdigit((unsigned char)rest[3]) ? strtol(rest + 3, &end, 10) : 0;
        if (!c || end == rest + 3 || *end || c < 1 || c > 12) {
            snprintf(err, errlen, "topology '%s': concentration must be 1..12", spec);
            return NULL;
        }
        conc = (int)c;
    }
    if (k < 1 || k > 4) {
        snprintf(err, errlen, "ports per terminal k=%d: must be 1..4", k);
        return NULL;
    }
    int nnet = kind == TOPO_OCTAGON ? 3 : 4;
    int nrouters = w * h;
    if (nnet + conc * k > MAX_PORTS) {
        snprintf(err, errlen, "topology '%s' with %d port(s) per terminal needs %d router ports (max %d)",
                 spec, k, nnet + conc * k, MAX_PORTS);
        return NULL;
    }
    if ((long)nrouters * conc > MAX_TERMS) {
        snprintf(err, errlen, "topology '%s' has %ld terminals (max %d)", spec, (long)nrouters * conc, MAX_TERMS);
        return NULL;
    }

    topo *t = xcalloc(1, sizeof *t);
    t->kind = kind;
    t->w = w;
    t->h = h;
    t->conc = conc;
    t->k = k;
    t->nrouters = nrouters;
    t->nterms = nrouters * conc;
    t->nnet = nnet;
    t->nports = nnet + conc * k;
    t->nclasses = kind == TOPO_MESH ? 1 : 2;
    size_t np = (size_t)nrouters * (size_t)t->nports;
    t->links = xcalloc((size_t)nrouters * (size_t)nnet, sizeof *t->links);
    t->out_link = xcalloc(np, sizeof *t->out_link);
    t->in_link = xcalloc(np, sizeof *t->in_link);
    t->port_dim = xcalloc(np, 1);
    t->dateline = xcalloc(np, 1);
    t->x = xcalloc((size_t)nrouters, sizeof *t->x);
    t->y = xcalloc((size_t)nrouters, sizeof *t->y);
    t->dist = xcalloc((size_t)nrouters * (size_t)nrouters, sizeof *t->dist);
    for (size_t i = 0; i < np; i++) {
        t->out_link[i] = t->in_link[i] = -1;
        t->port_dim[i] = (i % (size_t)t->nports) >= (size_t)nnet ? DIM_TERM : DIM_X;
    }
    if (kind == TOPO_OCTAGON) wire_octagon(t);
    else wire_grid(t, kind == TOPO_TORUS);
    compute_distances(t);

    const char *base = kind == TOPO_MESH ? "mesh" : kind == TOPO_TORUS ? "torus" : "octagon";
    if (kind == TOPO_OCTAGON) {
        if (conc == 1) snprintf(t->name, sizeof t->name, "octagon");
        else if (conc == 2) snprintf(t->name, sizeof t->name, "fat-octagon");
        else snprintf(t->name, sizeof t->name, "octagon:c=%d", conc);
    } else if (conc == 1) {
        snprintf(t->name, sizeof t->name, "%s:%dx%d", base, w, h);
    } else {
        snprintf(t->name, sizeof t->name, "%s:%dx%d:c=%d", base, w, h, conc);
    }
    return t;
}

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
    return r * t->conc + (p - t->nnet) / t->k;
}

/* Dimension-order step along one ring of size n: +1, -1 or 0.  Ties (exactly
 * half way round) go the positive way so the choice is deterministic. */
static int ring_step(int from, int to, int n)
{
    int d = ((to - from) % n + n) % n;
    if (d == 0) return 0;
    return d <= n / 2 ? 1 : -1;
}

int topo_route(const topo *t, int r, int dest)
{
    int dr = topo_term_router(t, dest);
    if (dr == r) return topo_term_port(t, dest, 0);
    if (t->kind == TOPO_OCTAGON) {
        int rel = ((dr - r) % 8 + 8) % 8;
        if (rel <= 2) return OCT_CW;
        if (rel >= 6) return OCT_CCW;
        return OCT_ACROSS;
    }
    int x = r % t->w, y = r / t->w, dx = dr % t->w, dy = dr / t->w;
    int sx, sy;
    if (t->kind == TOPO_MESH) {
        sx = dx > x ? 1 : dx < x ? -1 : 0;
        sy = dy > y ? 1 : dy < y ? -1 : 0;
    } else {
        sx = ring_step(x, dx, t->w);
        sy = ring_step(y, dy, t->h);
    }
    if (sx) return sx > 0 ? MESH_XP : MESH_XM;
    return sy > 0 ? MESH_YP : MESH_YM;
}

int topo_distance(const topo *t, int ra, int rb)
{
    return t->dist[ra * t->nrouters + rb];
}

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

long topo_paths(const topo *t, int ra, int rb, int detour,
                int (*fn)(const int *ports, int nhops, void *arg), void *arg)
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
