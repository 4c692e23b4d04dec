/* topo_clos.c - the folded three-stage Clos network v(m, n, r):
 * "clos:m=M,n=N,r=R" (collective-communication notes, Yang and Masson).
 *
 * Routers 0..r-1 are the leaves: n terminals each and m up-links, network
 * port j to spine j.  Routers r..r+m-1 are the spines: network port i down
 * to leaf i.  Leaf i is the paper's input switch i on the way up and its
 * output switch i on the way down; the two directions of a leaf-spine link
 * are the paper's two links, so the network is v(m, n, r) folded.
 *
 * Routing is up then down: a packet to a terminal on another leaf goes up
 * to spine (destination terminal mod m) and down to the destination's leaf
 * (D-mod-m: every down link into a leaf carries the traffic of a fixed set
 * of its terminals).  Every route uses an up link and then a down link,
 * never an up link after a down link, so ordering the channels injection <
 * up < down < ejection orders every route: no cycle of channel
 * dependencies, one VC class.  The one exception is a coding unit's packet
 * from a spine to another spine's unit (down to a leaf, up again), which no
 * collective sends.
 */
#include "net/topo_kind.h"

#include <stdio.h>
#include <string.h>

#define MAX_SIDE 31 /* m spines, r leaves: ports of a 5-bit port number */

static size_t match_clos(const char *spec) { return strncmp(spec, "clos:", 5) ? 0 : 5; }

static int parse_clos(const char *spec, size_t len, topo_shape *s, const char **rest, char *err, size_t errlen)
{
    long v[3];
    if (topo_parse_keys(spec + len, "mnr", v, rest)) {
        snprintf(err, errlen, "topology '%s': expected clos:m=M,n=N,r=R (each key once)", spec);
        return -1;
    }
    if (!v[0] || !v[1] || !v[2]) {
        snprintf(err, errlen, "topology '%s': m, n and r are required (clos:m=M,n=N,r=R)", spec);
        return -1;
    }
    if (v[0] > MAX_SIDE || v[1] > 12 || v[2] > MAX_SIDE) {
        snprintf(err, errlen, "topology '%s': m must be 1..%d, n 1..12, r 1..%d", spec, MAX_SIDE, MAX_SIDE);
        return -1;
    }
    s->p[0] = (int)v[0];
    s->p[1] = (int)v[1];
    s->p[2] = (int)v[2];
    s->conc = (int)v[1];
    return 0;
}

static void size_clos(const topo_shape *s, topo_size *z)
{
    z->nnet = s->p[0] > s->p[2] ? s->p[0] : s->p[2]; /* leaves use m of them, spines r */
    z->nrouters = s->p[2] + s->p[0];
    z->nterms = (long)s->p[2] * s->conc;
}

static void init_clos(topo *t, const topo_shape *s)
{
    t->clos_m = s->p[0];
    t->clos_n = s->p[1];
    t->clos_r = s->p[2];
    t->w = t->clos_m > t->clos_r ? t->clos_m : t->clos_r;
    t->h = 3; /* the drawing: spines in the top row, leaves in the bottom one */
    t->nclasses = 1;
}

static int is_spine(const topo *t, int r) { return r >= t->clos_r; }

/* Up links first (leaf by leaf), then the down links (spine by spine);
 * spines drawn in a row above the leaves. */
static void wire_clos(topo *t)
{
    int m = t->clos_m, R = t->clos_r;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < m; j++) topo_add_link(t, i, j, R + j, i, 0, TOPO_LINK_LOCAL);
    for (int j = 0; j < m; j++)
        for (int i = 0; i < R; i++) topo_add_link(t, R + j, i, i, j, 0, TOPO_LINK_LOCAL);
    for (int i = 0; i < R; i++) {
        t->x[i] = (i + 0.5) / R;
        t->y[i] = 2.5 / 3;
    }
    for (int j = 0; j < m; j++) {
        t->x[R + j] = (j + 0.5) / m;
        t->y[R + j] = 0.5 / 3;
    }
}

/* up to spine (dest mod m) (a leaf's unit: leaf mod m), down to the leaf */
static int route_clos(const topo *t, int r, int q, int dest)
{
    int m = t->clos_m, R = t->clos_r;
    if (!is_spine(t, r)) return is_spine(t, q) ? q - R : (dest >= 0 ? dest : q) % m;
    return is_spine(t, q) ? (q - R) % R : q; /* spine to spine: through a leaf */
}

static void name_clos(topo *t)
{
    snprintf(t->name, sizeof t->name, "clos:m=%d,n=%d,r=%d", t->clos_m, t->clos_n, t->clos_r);
}

static void port_name_clos(const topo *t, int r, int p, char *buf, size_t len)
{
    if (is_spine(t, r)) snprintf(buf, len, p < t->clos_r ? "d%d" : "x%d", p);
    else snprintf(buf, len, p < t->clos_m ? "u%d" : "x%d", p);
}

static void label_clos(const topo *t, int r, char *buf, size_t len)
{
    if (is_spine(t, r)) snprintf(buf, len, "router %d (spine %d)", r, r - t->clos_r);
    else snprintf(buf, len, "router %d (leaf %d)", r, r);
}

static int facts_clos(const topo *t, topo_fact *f, int max)
{
    topo_fact all[] = {{"clos_m", t->clos_m}, {"clos_n", t->clos_n}, {"clos_r", t->clos_r}};
    int n = 0;
    for (; n < (int)(sizeof all / sizeof all[0]) && n < max; n++) f[n] = all[n];
    return n;
}

static int param_clos(const topo *t, int i) { return i == 0 ? t->clos_m : i == 1 ? t->clos_n : i == 2 ? t->clos_r : 0; }

static const char *const clos_names[] = {"clos", NULL};

const topo_ops topo_clos_ops = {
    .kind = TOPO_CLOS,
    .usage = "clos:m=M,n=N,r=R",
    .names = clos_names,
    .match = match_clos,
    .parse = parse_clos,
    .no_suffix = "n= gives the terminals per leaf",
    .size = size_clos,
    .init = init_clos,
    .wire = wire_clos,
    .route = route_clos,
    .name = name_clos,
    .port_name = port_name_clos,
    .router_label = label_clos,
    .facts = facts_clos,
    .describe = "  folded Clos v({clos_m}, {clos_n}, {clos_r}): {clos_r} leaf routers ({clos_n} terminals and "
                "{clos_m} up-links each, ports u0..), {clos_m} spine routers ({clos_r} down-links each, ports d0..);\n"
                "  routing up to spine (destination terminal mod m), then down: deadlock-free in one VC class\n",
    .drawing = TOPO_DRAW_TIERS,
    .traits = TOPO_TRAIT_SPINES,
    .param = param_clos,
};
