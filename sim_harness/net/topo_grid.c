/* topo_grid.c - the mesh and the torus: "mesh:AxB...", "torus:AxB..." (1 to
 * TOPO_MAX_DIMS dimensions), dimension-order routing; a torus closes every
 * ring with a wrap link, the ring's dateline. */
#include "net/topo_kind.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 32

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

static size_t match_mesh(const char *spec) { return strncmp(spec, "mesh:", 5) ? 0 : 5; }
static size_t match_torus(const char *spec) { return strncmp(spec, "torus:", 6) ? 0 : 6; }

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

static int parse_grid(const char *spec, size_t len, topo_shape *s, const char **rest, char *err, size_t errlen)
{
    int torus = spec[0] == 't', lo = torus ? 2 : 1;
    const char *kind = torus ? "torus" : "mesh";
    if (parse_dims(spec + len, s->dims, &s->nd, rest)) {
        snprintf(err, errlen, "topology '%s': expected sizes AxB... (1 to %d dimensions) such as %s:4x4 or %s:4x4x4",
                 spec, TOPO_MAX_DIMS, kind, kind);
        return -1;
    }
    for (int d = 0; d < s->nd; d++)
        if (s->dims[d] < lo || s->dims[d] > MAX_SIDE) {
            snprintf(err, errlen, "topology '%s': each side must be %d..%d", spec, lo, MAX_SIDE);
            return -1;
        }
    return 0;
}

static void size_grid(const topo_shape *s, topo_size *z)
{
    z->nnet = s->nd <= 2 ? 4 : 2 * s->nd; /* 2-D and smaller keep four ports (x+ x- y+ y-) */
    z->nrouters = 1;
    for (int d = 0; d < s->nd; d++) z->nrouters *= s->dims[d];
    z->nterms = z->nrouters * s->conc;
}

static void init_grid(topo *t, const topo_shape *s)
{
    t->ndims = s->nd;
    t->w = t->h = 1;
    for (int d = 0; d < t->ndims; d++) {
        t->dims[d] = s->dims[d];
        if (d % 2 == 0) t->w *= s->dims[d];
        else t->h *= s->dims[d];
    }
    t->nclasses = t->kind == TOPO_MESH ? 1 : 2;
}

/* Dimension d's links: port 2d (+) to coordinate c+1, 2d+1 (-) back; a
 * torus closes every ring, the wrap link in each direction is the ring's
 * dateline.  A ring of 2 gets both: two links between the same routers. */
static void wire_grid(topo *t)
{
    int c[TOPO_MAX_DIMS], wrap = t->kind == TOPO_TORUS;
    for (int r = 0; r < t->nrouters; r++) {
        for (int d = 0; d < t->ndims; d++) c[d] = topo_coord(t, r, d);
        for (int d = 0; d < t->ndims; d++) {
            int n = t->dims[d], x = c[d];
            if (wrap ? n > 1 : x + 1 < n) {
                c[d] = (x + 1) % n;
                int nb = topo_router_at(t, c), w = wrap && x == n - 1;
                topo_link_kind lk = w ? TOPO_LINK_WRAP : TOPO_LINK_LOCAL;
                c[d] = x;
                topo_add_link(t, r, 2 * d, nb, 2 * d + 1, w, lk);
                topo_add_link(t, nb, 2 * d + 1, r, 2 * d, w, lk);
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

/* Dimension-order step along one ring of size n: +1, -1 or 0.  Ties (exactly
 * half way round) go the positive way so the choice is deterministic. */
static int ring_step(int from, int to, int n)
{
    int d = ((to - from) % n + n) % n;
    if (d == 0) return 0;
    return d <= n / 2 ? 1 : -1;
}

/* dimension order: the lowest dimension whose coordinate differs */
static int route_grid(const topo *t, int r, int dr, int dest)
{
    (void)dest;
    for (int d = 0; d < t->ndims; d++) {
        int x = topo_coord(t, r, d), dx = topo_coord(t, dr, d), step;
        if (t->kind == TOPO_MESH) step = dx > x ? 1 : dx < x ? -1 : 0;
        else step = ring_step(x, dx, t->dims[d]);
        if (step) return step > 0 ? 2 * d : 2 * d + 1;
    }
    return -1; /* not reached: dr != r */
}

static void name_grid(topo *t)
{
    int n = snprintf(t->name, sizeof t->name, "%s:", t->kind == TOPO_MESH ? "mesh" : "torus");
    for (int d = 0; d < t->ndims; d++)
        n += snprintf(t->name + n, sizeof t->name - (size_t)n, d ? "x%d" : "%d", t->dims[d]);
    if (t->conc > 1) snprintf(t->name + n, sizeof t->name - (size_t)n, ":c=%d", t->conc);
}

static void port_name_grid(const topo *t, int r, int p, char *buf, size_t len)
{
    static const char axis[TOPO_MAX_DIMS] = {'x', 'y', 'z', 'u', 'v', 'w'};
    (void)t;
    (void)r;
    snprintf(buf, len, "%c%c", p % 2 ? '-' : '+', axis[p / 2]);
}

static void label_grid(const topo *t, int r, char *buf, size_t len)
{
    char at[64];
    int n = 0;
    for (int d = 0; d < t->ndims; d++)
        n += snprintf(at + n, sizeof at - (size_t)n, "%s%d", d ? "," : "", topo_coord(t, r, d));
    snprintf(buf, len, "router %d (%s)", r, at);
}

static int param_grid(const topo *t, int i) { return i < t->ndims ? t->dims[i] : 0; }

static const char *const mesh_names[] = {"mesh", NULL}, *const torus_names[] = {"torus", NULL};

const topo_ops topo_mesh_ops = {
    .kind = TOPO_MESH,
    .usage = "mesh:AxB...",
    .names = mesh_names,
    .match = match_mesh,
    .parse = parse_grid,
    .size = size_grid,
    .init = init_grid,
    .wire = wire_grid,
    .route = route_grid,
    .name = name_grid,
    .port_name = port_name_grid,
    .router_label = label_grid,
    .drawing = TOPO_DRAW_GRID,
    .traits = TOPO_TRAIT_GRID,
    .param = param_grid,
};

const topo_ops topo_torus_ops = {
    .kind = TOPO_TORUS,
    .usage = "torus:AxB... (1 to 6 dimensions)",
    .names = torus_names,
    .match = match_torus,
    .parse = parse_grid,
    .size = size_grid,
    .init = init_grid,
    .wire = wire_grid,
    .route = route_grid,
    .name = name_grid,
    .port_name = port_name_grid,
    .router_label = label_grid,
    .drawing = TOPO_DRAW_GRID,
    .traits = TOPO_TRAIT_GRID | TOPO_TRAIT_WRAP,
    .param = param_grid,
};
