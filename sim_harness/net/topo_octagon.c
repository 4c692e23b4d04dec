/* topo_octagon.c - the octagon (Karim et al.): 8 routers, i linked to i+1,
 * i-1 and i+4 (mod 8), every destination within 2 hops; "fat-octagon" is
 * the octagon with two terminals per router. */
#include "net/topo_kind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static size_t match_octagon(const char *spec)
{
    if (!strncmp(spec, "fat-octagon", 11)) return 11;
    return strncmp(spec, "octagon", 7) ? 0 : 7;
}

static int parse_octagon(const char *spec, size_t len, topo_shape *s, const char **rest, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    s->conc = len == 11 ? 2 : 1;
    *rest = spec + len;
    return 0;
}

static void size_octagon(const topo_shape *s, topo_size *z)
{
    z->nnet = 3;
    z->nrouters = 8;
    z->nterms = 8L * s->conc;
}

static void init_octagon(topo *t, const topo_shape *s)
{
    (void)s;
    t->w = 8;
    t->h = 1;
    t->nclasses = 2;
}

static void wire_octagon(topo *t)
{
    for (int i = 0; i < 8; i++) {
        /* Both ring directions are one "dimension": a packet keeps its VC
         * class along the ring and is moved to class 1 on the wrap links. */
        topo_add_link(t, i, OCT_CW, (i + 1) % 8, OCT_CCW, i == 7, TOPO_LINK_LOCAL);
        topo_add_link(t, i, OCT_CCW, (i + 7) % 8, OCT_CW, i == 0, TOPO_LINK_LOCAL);
        topo_add_link(t, i, OCT_ACROSS, (i + 4) % 8, OCT_ACROSS, 0, TOPO_LINK_LOCAL);
        t->port_dim[i * t->nports + OCT_CW] = DIM_X;
        t->port_dim[i * t->nports + OCT_CCW] = DIM_X;
        t->port_dim[i * t->nports + OCT_ACROSS] = DIM_ACROSS;
        double a = (-90.0 - 22.5 + 45.0 * i) * M_PI / 180.0;
        t->x[i] = 0.5 + 0.42 * cos(a);
        t->y[i] = 0.5 + 0.42 * sin(a);
    }
}

static int route_octagon(const topo *t, int r, int dr, int dest)
{
    (void)dest;
    (void)t;
    int rel = ((dr - r) % 8 + 8) % 8;
    if (rel <= 2) return OCT_CW;
    if (rel >= 6) return OCT_CCW;
    return OCT_ACROSS;
}

static void name_octagon(topo *t)
{
    if (t->conc == 1) snprintf(t->name, sizeof t->name, "octagon");
    else if (t->conc == 2) snprintf(t->name, sizeof t->name, "fat-octagon");
    else snprintf(t->name, sizeof t->name, "octagon:c=%d", t->conc);
}

static void port_name_octagon(const topo *t, int r, int p, char *buf, size_t len)
{
    static const char *oct[] = {"cw", "ccw", "across"};
    (void)t;
    (void)r;
    snprintf(buf, len, "%s", oct[p]);
}

static void label_octagon(const topo *t, int r, char *buf, size_t len)
{
    (void)t;
    snprintf(buf, len, "router %d", r);
}

static int param_octagon(const topo *t, int i)
{
    (void)t;
    (void)i;
    return 0;
}

static const char *const octagon_names[] = {"octagon", "fat-octagon", NULL};

const topo_ops topo_octagon_ops = {
    .kind = TOPO_OCTAGON,
    .usage = "octagon, fat-octagon",
    .names = octagon_names,
    .match = match_octagon,
    .parse = parse_octagon,
    .size = size_octagon,
    .init = init_octagon,
    .wire = wire_octagon,
    .route = route_octagon,
    .name = name_octagon,
    .port_name = port_name_octagon,
    .router_label = label_octagon,
    .drawing = TOPO_DRAW_RING,
    .traits = TOPO_TRAIT_RING,
    .param = param_octagon,
};
