/* topo.c - parsing, wiring and routing of the supported topologies.
 *
 * A topology string is "KIND[:SIZE][:c=N]":
 *   mesh:WxH     2D mesh, XY routing
 *   torus:WxH    2D torus, dimension-order routing, dateline VC classes
 *   octagon      8 routers, i linked to i+1, i-1 and i+4 (mod 8)
 *   fat-octagon  octagon with two terminals per router
 *   dragonfly:a=A,p=P,h=H[,g=G]  G groups (default A*H+1) of A routers,
 *                all-to-all inside a group, H global links per router,
 *                P terminals per router
 *   :c=N         N terminals per router (concentration)
 */
#include "net/topo.h"
#include "util/cli.h"
#include "util/suggest.h"

#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 1024 /* terminal ids in plans, traffic records and the view */
#define MAX_PORTS 32   /* the router's config bus writes 5-bit ports (firmware/lib/flit.h) */
#define MAX_SIDE 32

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

int topo_coord(const topo *t, int r, int d)
{
    for (int i = 0; i < d; i++) r /= t->dims[i];
    return r % t->dims[d];
}

int topo_router_at(const topo *t, const int *coord)
{
    int r = 0;
    for (int d = t->ndims - 1; d >= 0; d--) r = r * t->dims[d] + coord[d];
    return r;
}

/* n-D grids are drawn as nested planes: even dimensions along the columns,
 * odd ones along the rows, the lower dimension innermost, one empty cell
 * between neighbouring planes (2-D: x, y, no gaps). */
static void grid_walk(const topo *t, int r, int *col, int *row, int *w, int *h)
{
    int c = 0, rw = 0;
    *w = *h = 0;
    for (int d = 0; d < t->ndims; d++) {
        int x = r >= 0 ? topo_coord(t, r, d) : 0, *span = d % 2 ? h : w, *pos = d % 2 ? &rw : &c;
        *pos += x * (*span ? *span + 1 : 1);
        *span = *span ? (*span + 1) * t->dims[d] - 1 : t->dims[d];
    }
    if (!*h) *h = 1;
    *col = c;
    *row = rw;
}

void topo_grid_pos(const topo *t, int r, int *col, int *row)
{
    int w, h;
    if (t->ndims == 0) {
        *col = r;
        *row = 0;
        return;
    }
    grid_walk(t, r, col, row, &w, &h);
}

void topo_grid_size(const topo *t, int *w, int *h)
{
    int c, r;
    if (t->ndims == 0) {
        *w = t->w;
        *h = t->h;
        return;
    }
    grid_walk(t, -1, &c, &r, w, h);
}

void topo_port_name(const topo *t, int p, char *buf, size_t len)
{
    static const char axis[TOPO_MAX_DIMS] = {'x', 'y', 'z', 'u', 'v', 'w'};
    static const char *oct[] = {"cw", "ccw", "across"};
    if (p >= t->nnet) snprintf(buf, len, "t%d.%d", (p - t->nnet) / t->k, (p - t->nnet) % t->k);
    else if (t->kind == TOPO_OCTAGON) snprintf(buf, len, "%s", oct[p]);
    else if (t->kind == TOPO_DRAGONFLY)
        snprintf(buf, len, p < t->df_a - 1 ? "l%d" : "g%d", p < t->df_a - 1 ? p : p - (t->df_a - 1));
    else snprintf(buf, len, "%c%c", p % 2 ? '-' : '+', axis[p / 2]);
}

/* Dimension d's links: port 2d (+) to coordinate c+1, 2d+1 (-) back; a
 * torus closes every ring, the wrap link in each direction is the ring's
 * dateline.  A ring of 2 gets both: two links between the same routers. */
static void wire_grid(topo *t, int wrap)
{
    int c[TOPO_MAX_DIMS];
    for (int r = 0; r < t->nrouters; r++) {
        for (int d = 0; d < t->ndims; d++) c[d] = topo_coord(t, r, d);
        for (int d = 0; d < t->ndims; d++) {
            int n = t->dims[d], x = c[d];
            if (wrap ? n > 1 : x + 1 < n) {
                c[d] = (x + 1) % n;
                int nb = topo_router_at(t, c);
                c[d] = x;
                add_link(t, r, 2 * d, nb, 2 * d + 1, wrap && x == n - 1);
                add_link(t, nb, 2 * d + 1, r, 2 * d, wrap && x == n - 1);
            }
            t->port_dim[r * t->nports + 2 * d] = (uint8_t)d;
            t->port_dim[r * t->nports + 2 * d + 1] = (uint8_t)d;
        }
        int col, row, gw, gh;
        topo_grid_pos(t, r, &col, &row);
        topo_grid_size(t, &gw, &gh);
        t->x[r] = (col + 0.5) / gw;
        t->y[r] = (row + 0.5) / gh;
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

int topo_df_gateway(const topo *t, int x, int y, int *port)
{
    int slot = y < x ? y : y - 1; /* < groups - 1 <= a*h */
    *port = t->df_a - 1 + slot % t->df_h;
    return x * t->df_a + slot / t->df_h;
}

/* The dragonfly: every router to every other of its group (local port j
 * leads to the j-th other router), and one global link between every two
 * groups, the "absolute" arrangement: group x's slot s goes to group s (s <
 * x) or s + 1.  Crossing a global link is a dateline (VC class 1): with
 * every network port in one "dimension", class 0 is local-before-global,
 * class 1 global and local-after-global, which minimal routing (at most
 * one global hop) cannot close into a cycle.  Groups sit on a circle,
 * their routers along an arc (the dragonfly paper's Fig. 4). */
static void wire_dragonfly(topo *t)
{
    int a = t->df_a, G = t->groups;
    for (int r = 0; r < t->nrouters; r++) {
        int x = r / a, i = r % a;
        for (int j = 0; j + 1 < a; j++)
            add_link(t, r, j, x * a + (j < i ? j : j + 1), i < (j < i ? j : j + 1) ? i : i - 1, 0);
        for (int y = 0; y < G; y++) {
            if (y == x) continue;
            int pa, pb, ra = topo_df_gateway(t, x, y, &pa), rb = topo_df_gateway(t, y, x, &pb);
            if (ra == r) add_link(t, r, pa, rb, pb, 1);
        }
        for (int p = 0; p < t->nnet; p++) t->port_dim[r * t->nports + p] = DIM_X;
        double ang = 2 * M_PI * (x + 0.15 + 0.7 * (i + 0.5) / a) / G - M_PI / 2;
        t->x[r] = 0.5 + 0.4 * cos(ang);
        t->y[r] = 0.5 + 0.4 * sin(ang);
    }
}

int topo_df_group_port(const topo *t, int r, int y)
{
    int x = topo_group(t, r), port;
    if (x == y) return -1;
    int gw = topo_df_gateway(t, x, y, &port);
    return gw == r ? port : topo_route(t, r, gw * t->conc);
}

int topo_df_valiant_hops(const topo *t, int ra, int rb, int y)
{
    int r = ra, n = 0;
    while (topo_group(t, r) != y && n < 4) { /* at most a local and a global hop */
        r = t->links[t->out_link[r * t->nports + topo_df_group_port(t, r, y)]].dst;
        n++;
    }
    return n + topo_distance(t, r, rb);
}

/* Router distances along the routing function's own paths (the dragonfly:
 * the minimal route is local-global-local, while the links also offer
 * shorter detours through a third group that routing never takes). */
static void routed_distances(topo *t)
{
    for (int a = 0; a < t->nrouters; a++)
        for (int b = 0; b < t->nrouters; b++) {
            int r = a, n = 0, dest = b * t->conc;
            while (r != b) {
                int l = t->out_link[r * t->nports + topo_route(t, r, dest)];
                r = t->links[l].dst;
                n++;
            }
            t->dist[a * t->nrouters + b] = n;
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

/* "AxBx..." (1 to TOPO_MAX_DIMS sizes) */
static int parse_dims(const char *s, int *dims, int *nd, const char **rest)
{
    char *end;
    *nd = 0;
    for (;;) {
        if (!isdigit((unsigned char)*s)) return -1; /* strtol would take spaces and signs */
        long a = strtol(s, &end, 10);
        if (end == s || *nd == TOPO_MAX_DIMS) return -1;
        dims[(*nd)++] = (int)(a > 100000 ? 100000 : a);
        s = end;
        if (*s != 'x') break;
        s++;
    }
    *rest = s;
    return 0;
}

/* "dragonfly:a=A,p=P,h=H[,g=G]" (keys in any order, each once) into
 * df = {a, h, g} and the concentration p; *rest: what follows (":c=N" is
 * not taken: p says it) */
static int parse_dragonfly(const char *spec, int *df, int *conc, const char **rest, char *err, size_t errlen)
{
    const char *s = spec + 10, *keys = "aphg";
    long v[4] = {0, 0, 0, 0};
    while (*s) {
        const char *k = strchr(keys, *s);
        char *end;
        if (!k || !*k || s[1] != '=' || !isdigit((unsigned char)s[2]) || v[k - keys]) {
            snprintf(err, errlen, "topology '%s': expected dragonfly:a=A,p=P,h=H[,g=G] (each key once)", spec);
            return -1;
        }
        v[k - keys] = strtol(s + 2, &end, 10);
        if (v[k - keys] < 1 || v[k - keys] > 1000) v[k - keys] = 1000; /* refused below */
        s = end;
        if (*s == ',') s++;
        else break;
    }
    *rest = s;
    if (!v[0] || !v[1] || !v[2]) {
        snprintf(err, errlen, "topology '%s': a, p and h are required (dragonfly:a=A,p=P,h=H[,g=G])", spec);
        return -1;
    }
    if (v[0] > 32 || v[1] > 12 || v[2] > 32) {
        snprintf(err, errlen, "topology '%s': a must be 1..32, p 1..12, h 1..32", spec);
        return -1;
    }
    long gmax = v[0] * v[2] + 1, g = v[3] ? v[3] : gmax;
    if (g < 2 || g > gmax) {
        snprintf(err, errlen, "topology '%s': g must be 2..a*h+1 = %ld (one global link between every two groups)",
                 spec, gmax);
        return -1;
    }
    df[0] = (int)v[0];
    df[1] = (int)v[2];
    df[2] = (int)g;
    *conc = (int)v[1];
    return 0;
}

topo *topo_parse(const char *spec, int k, char *err, size_t errlen)
{
    return topo_parse_max(spec, k, MAX_TERMS, err, errlen);
}

topo *topo_parse_max(const char *spec, int k, int max_terms, char *err, size_t errlen)
{
    topo_kind kind;
    int conc = 1, nd = 0, dims[TOPO_MAX_DIMS] = {8}, df[3] = {0}; /* dragonfly a, h, g */
    const char *rest;
    if (!spec || !*spec) {
        snprintf(err, errlen, "empty topology (try mesh:4x4, torus:4x4, torus:4x4x4, octagon, fat-octagon)");
        return NULL;
    }
    if (!strncmp(spec, "mesh:", 5) || !strncmp(spec, "torus:", 6)) {
        kind = spec[0] == 'm' ? TOPO_MESH : TOPO_TORUS;
        const char *sz = strchr(spec, ':') + 1;
        if (parse_dims(sz, dims, &nd, &rest)) {
            snprintf(err, errlen,
                     "topology '%s': expected sizes AxB... (1 to %d dimensions) such as %s:4x4 or %s:4x4x4", spec,
                     TOPO_MAX_DIMS, kind == TOPO_MESH ? "mesh" : "torus", kind == TOPO_MESH ? "mesh" : "torus");
            return NULL;
        }
        int lo = kind == TOPO_MESH ? 1 : 2;
        for (int d = 0; d < nd; d++)
            if (dims[d] < lo || dims[d] > MAX_SIDE) {
                snprintf(err, errlen, "topology '%s': each side must be %d..%d", spec, lo, MAX_SIDE);
                return NULL;
            }
    } else if (!strncmp(spec, "dragonfly:", 10)) {
        kind = TOPO_DRAGONFLY;
        if (parse_dragonfly(spec, df, &conc, &rest, err, errlen)) return NULL;
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
        static const char *const kinds[] = {"mesh", "torus", "octagon", "fat-octagon", "dragonfly"};
        char kind_s[72];
        snprintf(kind_s, sizeof kind_s, "%.*s", n < 71 ? n : 71, spec);
        const char *near = suggest_pick(kind_s, kinds, sizeof kinds / sizeof kinds[0]);
        snprintf(err, errlen,
                 "unknown topology '%.*s' (%s%s%sknown: mesh:AxB..., torus:AxB... (1 to 6 dimensions), octagon, "
                 "fat-octagon, dragonfly:a=A,p=P,h=H[,g=G]; suffix :c=N)",
                 n, spec, near ? "did you mean " : "", near ? near : "", near ? "? " : "");
        return NULL;
    }
    if (*rest && kind == TOPO_DRAGONFLY) {
        snprintf(err, errlen, "topology '%s': unexpected '%s' (p= gives the terminals per router)", spec,
                 *rest == ':' ? rest : rest);
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
    if (k < 1 || k > TOPO_MAX_K) {
        snprintf(err, errlen, "ports per terminal k=%d: must be 1..%d", k, TOPO_MAX_K);
        return NULL;
    }
    /* 2-D and smaller keep four ports (x+ x- y+ y-) */
    int nnet = kind == TOPO_OCTAGON ? 3 : kind == TOPO_DRAGONFLY ? df[0] - 1 + df[1] : nd <= 2 ? 4 : 2 * nd;
    long nrouters = kind == TOPO_OCTAGON ? 8 : kind == TOPO_DRAGONFLY ? (long)df[0] * df[2] : 1;
    for (int d = 0; d < nd; d++) nrouters *= dims[d];
    if (nnet + conc * k > MAX_PORTS) {
        snprintf(err, errlen, "topology '%s' with %d port(s) per terminal needs %d router ports (max %d)", spec, k,
                 nnet + conc * k, MAX_PORTS);
        return NULL;
    }
    if (nrouters * conc > max_terms || nrouters > TOPO_MAX_MODEL_ROUTERS) {
        snprintf(err, errlen, "topology '%s' has %ld terminals (max %d)", spec, nrouters * conc, max_terms);
        return NULL;
    }

    topo *t = xcalloc(1, sizeof *t);
    t->kind = kind;
    t->ndims = kind == TOPO_OCTAGON || kind == TOPO_DRAGONFLY ? 0 : nd;
    t->w = kind == TOPO_OCTAGON ? 8 : kind == TOPO_DRAGONFLY ? (int)nrouters : 1;
    t->df_a = kind == TOPO_DRAGONFLY ? df[0] : 0;
    t->df_h = kind == TOPO_DRAGONFLY ? df[1] : 0;
    t->groups = kind == TOPO_DRAGONFLY ? df[2] : 0;
    t->h = 1;
    for (int d = 0; d < t->ndims; d++) {
        t->dims[d] = dims[d];
        if (d % 2 == 0) t->w *= dims[d];
        else t->h *= dims[d];
    }
    t->conc = conc;
    t->k = k;
    t->nrouters = (int)nrouters;
    t->nterms = (int)nrouters * conc;
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
    else if (kind == TOPO_DRAGONFLY) wire_dragonfly(t);
    else wire_grid(t, kind == TOPO_TORUS);
    if (kind == TOPO_DRAGONFLY) routed_distances(t);
    else compute_distances(t);

    const char *base = kind == TOPO_MESH ? "mesh" : kind == TOPO_TORUS ? "torus" : "octagon";
    if (kind == TOPO_DRAGONFLY) {
        snprintf(t->name, sizeof t->name, "dragonfly:a=%d,p=%d,h=%d,g=%d", df[0], conc, df[1], df[2]);
    } else if (kind == TOPO_OCTAGON) {
        if (conc == 1) snprintf(t->name, sizeof t->name, "octagon");
        else if (conc == 2) snprintf(t->name, sizeof t->name, "fat-octagon");
        else snprintf(t->name, sizeof t->name, "octagon:c=%d", conc);
    } else {
        int n = snprintf(t->name, sizeof t->name, "%s:", base);
        for (int d = 0; d < t->ndims; d++)
            n += snprintf(t->name + n, sizeof t->name - (size_t)n, d ? "x%d" : "%d", t->dims[d]);
        if (conc > 1) snprintf(t->name + n, sizeof t->name - (size_t)n, ":c=%d", conc);
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
    if (t->kind == TOPO_DRAGONFLY) { /* minimal: local, global, local */
        int a = t->df_a, x = r / a, y = dr / a, port;
        if (x != y) {
            int gw = topo_df_gateway(t, x, y, &port);
            if (gw == r) return port;
            dr = gw;
        }
        int i = r % a, j = dr % a; /* the local port to router j of the group */
        return j < i ? j : j - 1;
    }
    if (t->kind == TOPO_OCTAGON) {
        int rel = ((dr - r) % 8 + 8) % 8;
        if (rel <= 2) return OCT_CW;
        if (rel >= 6) return OCT_CCW;
        return OCT_ACROSS;
    }
    /* dimension order: the lowest dimension whose coordinate differs */
    for (int d = 0; d < t->ndims; d++) {
        int x = topo_coord(t, r, d), dx = topo_coord(t, dr, d), step;
        if (t->kind == TOPO_MESH) step = dx > x ? 1 : dx < x ? -1 : 0;
        else step = ring_step(x, dx, t->dims[d]);
        if (step) return step > 0 ? 2 * d : 2 * d + 1;
    }
    return -1; /* not reached: dr != r */
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
