/* topo_dragonfly.c - the dragonfly (Kim et al.): "dragonfly:a=A,p=P,h=H[,g=G]",
 * G groups of A routers, all-to-all inside a group, one global link between
 * every two groups, minimal local-global-local routing. */
#include "net/topo_kind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static size_t match_dragonfly(const char *spec) { return strncmp(spec, "dragonfly:", 10) ? 0 : 10; }

/* "dragonfly:a=A,p=P,h=H[,g=G]" (keys in any order, each once) into
 * p = {a, h, g} and the concentration p; *rest: what follows (":c=N" is
 * not taken: p says it) */
static int parse_dragonfly(const char *spec, size_t len, topo_shape *s, const char **rest, char *err, size_t errlen)
{
    long v[4];
    if (topo_parse_keys(spec + len, "aphg", v, rest)) {
        snprintf(err, errlen, "topology '%s': expected dragonfly:a=A,p=P,h=H[,g=G] (each key once)", spec);
        return -1;
    }
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
    s->p[0] = (int)v[0];
    s->p[1] = (int)v[2];
    s->p[2] = (int)g;
    s->conc = (int)v[1];
    return 0;
}

static void size_dragonfly(const topo_shape *s, topo_size *z)
{
    z->nnet = s->p[0] - 1 + s->p[1];
    z->nrouters = (long)s->p[0] * s->p[2];
    z->nterms = z->nrouters * s->conc;
}

static void init_dragonfly(topo *t, const topo_shape *s)
{
    t->w = t->nrouters;
    t->h = 1;
    t->df_a = s->p[0];
    t->df_h = s->p[1];
    t->groups = s->p[2];
    t->nclasses = 2;
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
            topo_add_link(t, r, j, x * a + (j < i ? j : j + 1), i < (j < i ? j : j + 1) ? i : i - 1, 0,
                          TOPO_LINK_LOCAL);
        for (int y = 0; y < G; y++) {
            if (y == x) continue;
            int pa, pb, ra = topo_df_gateway(t, x, y, &pa), rb = topo_df_gateway(t, y, x, &pb);
            if (ra == r) topo_add_link(t, r, pa, rb, pb, 1, TOPO_LINK_GLOBAL);
        }
        for (int p = 0; p < t->nnet; p++) t->port_dim[r * t->nports + p] = DIM_X;
        double ang = 2 * M_PI * (x + 0.15 + 0.7 * (i + 0.5) / a) / G - M_PI / 2;
        t->x[r] = 0.5 + 0.4 * cos(ang);
        t->y[r] = 0.5 + 0.4 * sin(ang);
    }
}

/* minimal: local, global, local */
static int route_dragonfly(const topo *t, int r, int dr, int dest)
{
    (void)dest;
    int a = t->df_a, x = r / a, y = dr / a, port;
    if (x != y) {
        int gw = topo_df_gateway(t, x, y, &port);
        if (gw == r) return port;
        dr = gw;
    }
    int i = r % a, j = dr % a; /* the local port to router j of the group */
    return j < i ? j : j - 1;
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

static void name_dragonfly(topo *t)
{
    snprintf(t->name, sizeof t->name, "dragonfly:a=%d,p=%d,h=%d,g=%d", t->df_a, t->conc, t->df_h, t->groups);
}

static void port_name_dragonfly(const topo *t, int r, int p, char *buf, size_t len)
{
    (void)r;
    snprintf(buf, len, p < t->df_a - 1 ? "l%d" : "g%d", p < t->df_a - 1 ? p : p - (t->df_a - 1));
}

static void label_dragonfly(const topo *t, int r, char *buf, size_t len)
{
    snprintf(buf, len, "router %d (group %d)", r, topo_group(t, r));
}

static int facts_dragonfly(const topo *t, topo_fact *f, int max)
{
    int gl = 0;
    for (int l = 0; l < t->nlinks; l++) gl += t->links[l].kind == TOPO_LINK_GLOBAL;
    topo_fact all[] = {{"groups", t->groups},
                       {"routers_per_group", t->df_a},
                       {"global_links_per_router", t->df_h},
                       {"global_links", gl / 2}};
    int n = 0;
    for (; n < (int)(sizeof all / sizeof all[0]) && n < max; n++) f[n] = all[n];
    return n;
}

static int param_dragonfly(const topo *t, int i)
{
    return i == 0 ? t->df_a : i == 1 ? t->df_h : i == 2 ? t->groups : 0;
}

static const char *const dragonfly_names[] = {"dragonfly", NULL};

const topo_ops topo_dragonfly_ops = {
    .kind = TOPO_DRAGONFLY,
    .usage = "dragonfly:a=A,p=P,h=H[,g=G]",
    .names = dragonfly_names,
    .match = match_dragonfly,
    .parse = parse_dragonfly,
    .no_suffix = "p= gives the terminals per router",
    .size = size_dragonfly,
    .init = init_dragonfly,
    .wire = wire_dragonfly,
    .route = route_dragonfly,
    .routed_distances = 1,
    .name = name_dragonfly,
    .port_name = port_name_dragonfly,
    .router_label = label_dragonfly,
    .facts = facts_dragonfly,
    .describe = "  {groups} groups of {routers_per_group} routers (all-to-all local links), "
                "{global_links_per_router} global link(s) per router, one between every two groups;\n"
                "  minimal routing local-global-local, the global links are datelines (VC class 1 after them)\n",
    .drawing = TOPO_DRAW_GROUPS,
    .traits = TOPO_TRAIT_GROUPS,
    .param = param_dragonfly,
};
