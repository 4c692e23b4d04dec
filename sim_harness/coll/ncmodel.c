/* ncmodel.c - the closed forms behind ncmodel.h. */
#include "coll/ncmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"

static int pow2(int n) { return n > 0 && !(n & (n - 1)); }

/* hops between coordinates a and b of a line of k (ring if torus) */
static int dist1(int a, int b, int k, int torus)
{
    int d = abs(a - b);
    return torus && k - d < d ? k - d : d;
}

/* the largest dist1 between positions 0..k-1 spaced s apart */
static int farthest(int k, int s, int line, int torus)
{
    int m = 0;
    for (int d = 0; d < k; d++)
        if (dist1(0, d * s, line, torus) > m) m = dist1(0, d * s, line, torus);
    return m;
}

/* sum of dist1 over ordered pairs of a line of k, positions scaled by s in a
 * line of k*s routers (a torus wraps at k*s) */
static double pairs1(int k, int s, int torus)
{
    double t = 0;
    for (int d = 1; d < k; d++) {
        int hops = d * s;
        if (torus && k * s - hops < hops) hops = k * s - hops;
        t += 2.0 * (k - d) * hops; /* (a, a+d) and (a+d, a) */
    }
    return t;
}

/* Tree multicast within a w x h block whose neighbours are s_x, s_y routers
 * apart, in a line of the whole network's size (torus wrap): binomial tree
 * over XOR ranks, y bits then x bits, the highest bit first.  The hops are
 * the same for every root. */
static double tree_hops(int w, int h, int sx, int sy, int W, int H, int torus)
{
    int bx = 0, by = 0;
    while ((1 << bx) < w) bx++;
    while ((1 << by) < h) by++;
    double t = 0;
    int i = 0;
    for (int b = by - 1; b >= 0; b--, i++) t += (double)(1 << i) * dist1(0, (1 << b) * sy, H, torus);
    for (int b = bx - 1; b >= 0; b--, i++) t += (double)(1 << i) * dist1(0, (1 << b) * sx, W, torus);
    return t;
}

int ncm_check(const ncm_net *n, char *err, int errlen)
{
    if (n->w < 1 || n->h < 1 || n->w > 256 || n->h > 256 || n->w * n->h < 2) {
        snprintf(err, (size_t)errlen, "sides must be 1..256 with at least 2 nodes, not %dx%d", n->w, n->h);
        return -1;
    }
    if (n->mc == NCM_TREE && (!pow2(n->w) || !pow2(n->h))) {
        snprintf(err, (size_t)errlen,
                 "--multicast tree needs power-of-two sides (the XOR-ranked binomial tree), not %dx%d; "
                 "all-at-once takes any size",
                 n->w, n->h);
        return -1;
    }
    return 0;
}

double ncm_conventional(const ncm_net *n, double *unicasts)
{
    double N = (double)n->w * n->h;
    *unicasts = N * (N - 1);
    if (n->mc == NCM_TREE) return N * tree_hops(n->w, n->h, 1, 1, n->w, n->h, n->torus);
    return pairs1(n->w, 1, n->torus) * n->h * n->h + pairs1(n->h, 1, n->torus) * n->w * n->w;
}

int ncm_place_off(const ncm_place *p, int g, int k, int s)
{
    return p->mirror && !(g & 1) && g + 1 < k ? s - 1 - p->off : p->off;
}

static const char *pos_names[] = {"default", "corner", "median", "boundary", "best"};

int ncm_in_position_parse(const char *s)
{
    for (int i = NCM_IN_CORNER; i <= NCM_IN_BEST; i++)
        if (!strcmp(s, pos_names[i])) return i;
    return -1;
}

const char *ncm_in_position_name(ncm_in_position p) { return p <= NCM_IN_BEST ? pos_names[p] : "?"; }

const char *ncm_place_rule(const ncm_place *p) { return p->mirror ? "mirrored pairs" : "same offset"; }

/* One dimension of k groups of side s in a line of L routers: the INs' positions */
typedef struct {
    int far;       /* the longest IN-to-IN distance */
    double pairs;  /* sum over ordered pairs of groups of the IN-to-IN distance */
    double tree;   /* tree multicast among the INs along this dimension, bit order from i0 */
    double spread; /* sum over groups of the distances from the IN to its group's positions */
} dim_cost;

static void dim_eval(int k, int s, int L, int torus, const ncm_place *p, int i0, dim_cost *d)
{
    memset(d, 0, sizeof *d);
    int *pos = xmalloc((size_t)k * sizeof *pos);
    for (int g = 0; g < k; g++) pos[g] = g * s + ncm_place_off(p, g, k, s);
    for (int a = 0; a < k; a++) {
        for (int b = a + 1; b < k; b++) {
            int h = dist1(pos[a], pos[b], L, torus);
            d->pairs += 2.0 * h;
            if (h > d->far) d->far = h;
        }
        int o = pos[a] - a * s;
        for (int u = 0; u < s; u++) d->spread += dist1(o, u, L, torus);
    }
    /* XOR-ranked binomial tree, highest bit first: partners across bit b
     * are the same distance apart from every root (docs) */
    int bits = 0;
    while ((1 << bits) < k) bits++;
    for (int b = bits - 1, i = i0; b >= 0; b--, i++)
        if ((1 << b) < k) d->tree += (double)(1 << i) * dist1(pos[0], pos[1 << b], L, torus);
    free(pos);
}

static int bits_of(int k)
{
    int b = 0;
    while ((1 << b) < k) b++;
    return b;
}

static void eval_placed(const ncm_net *n, int gw, int gh, const ncm_place *px, const ncm_place *py, ncm_coded *c)
{
    int gx = n->w / gw, gy = n->h / gh, torus = n->torus;
    double M = (double)gw * gh, G = (double)gx * gy, N = M * G;
    c->gw = gw;
    c->gh = gh;
    c->group_size = gw * gh;
    c->groups = gx * gy;
    c->px = *px;
    c->py = *py;
    c->in_x = ncm_place_off(px, 0, gx, gw);
    c->in_y = ncm_place_off(py, 0, gy, gh);
    dim_cost dx, dy;
    dim_eval(gy, gh, n->h, torus, py, 0, &dy);
    dim_eval(gx, gw, n->w, torus, px, bits_of(gy), &dx);
    /* every ordered pair of groups: counterparts are exactly the groups' offset apart */
    double group_pairs = pairs1(gx, gw, torus) * gy * gy + pairs1(gy, gh, torus) * gx * gx;
    if (n->mc == NCM_TREE) {
        double t_in = tree_hops(gw, gh, 1, 1, n->w, n->h, torus);
        c->hops_b = N * t_in;
        c->hops_d = G > 1 ? G * (dx.tree + dy.tree) : 0;
        c->hops_e = G * (G - 1) * t_in; /* the same from every root of the group's tree */
    } else {
        c->hops_b = G * (pairs1(gw, 1, torus) * gh * gh + pairs1(gh, 1, torus) * gw * gw);
        c->hops_d = dx.pairs * gy * gy + dy.pairs * gx * gx;
        c->hops_e = (G - 1) * (dx.spread * gy * gh + dy.spread * gx * gw);
    }
    if (n->combine) {
        c->hops_f = 0;
        c->unicasts = N * (M - 1) + G * (G - 1) + G * (G - 1) * (M - 1);
        c->payload_hops = c->hops_b + M * (c->hops_d + c->hops_e);
    } else {
        c->hops_f = M * group_pairs;
        c->unicasts = N * (M - 1) + G * (G - 1) + G * (G - 1) * (M - 1) + N * (G - 1);
        c->payload_hops = c->hops_b + (M - 1) * (c->hops_d + c->hops_e) + c->hops_f;
    }
    c->coded_hops = c->hops_b + c->hops_d + c->hops_e + c->hops_f;
    c->m_d[0] = gw, c->m_d[1] = gh, c->g_d[0] = gx, c->g_d[1] = gy;
    c->m_hops = farthest(gw, 1, n->w, torus) + farthest(gh, 1, n->h, torus);
    c->g_d_hops[0] = dx.far;
    c->g_d_hops[1] = dy.far;
    c->g_hops = dx.far + dy.far;
}

/* placement within one shape: hops objective (hops, then G-hops); longest (G-hops, then hops) */
static int place_better(const ncm_net *n, const ncm_coded *a, const ncm_coded *b)
{
    if (n->objective == NCM_OBJ_LONGEST && a->g_hops != b->g_hops) return a->g_hops < b->g_hops;
    if (a->coded_hops != b->coded_hops) return a->coded_hops < b->coded_hops;
    return a->g_hops < b->g_hops;
}

int ncm_better(const ncm_net *n, const ncm_coded *a, const ncm_coded *b)
{
    if (n->objective == NCM_OBJ_LONGEST) {
        int la = a->m_hops > a->g_hops ? a->m_hops : a->g_hops, lb = b->m_hops > b->g_hops ? b->m_hops : b->g_hops;
        if (la != lb) return la < lb;
    }
    return a->coded_hops < b->coded_hops;
}

/* the offset nearest the group's positions along one dimension (the first of the least) */
static int median_off(int s, int L, int torus)
{
    int best = 0;
    double bs = -1;
    for (int o = 0; o < s; o++) {
        double t = 0;
        for (int u = 0; u < s; u++) t += dist1(o, u, L, torus);
        if (bs < 0 || t < bs) bs = t, best = o;
    }
    return best;
}

int ncm_coded_eval(const ncm_net *n, int gw, int gh, ncm_coded *c, char *err, int errlen)
{
    if (gw < 1 || gh < 1 || n->w % gw || n->h % gh || gw * gh < 2 || gw * gh == n->w * n->h) {
        snprintf(err, (size_t)errlen,
                 "group shape %dx%d must divide %dx%d into at least two groups of at least 2 nodes", gw, gh, n->w,
                 n->h);
        return -1;
    }
    ncm_in_position ip = n->in_pos;
    if (ip == NCM_IN_DEFAULT) ip = n->mc == NCM_TREE ? NCM_IN_CORNER : NCM_IN_MEDIAN;
    ncm_place px = {0, 0}, py = {0, 0};
    if (ip == NCM_IN_MEDIAN) {
        px.off = median_off(gw, n->w, n->torus);
        py.off = median_off(gh, n->h, n->torus);
    } else if (ip == NCM_IN_BOUNDARY) {
        px.mirror = py.mirror = 1;
    }
    eval_placed(n, gw, gh, &px, &py, c);
    if (ip != NCM_IN_BEST) return 0;
    /* every rule and offset, one dimension at a time: every cost is a sum
     * (or, G-hops, a sum of maxima) over the two dimensions, so the best of
     * each is the best pair */
    for (int dim = 0; dim < 2; dim++) {
        int side = dim ? gh : gw;
        ncm_coded t;
        for (int mirror = 0; mirror < 2; mirror++)
            for (int off = 0; off < side; off++) {
                ncm_place q = {mirror, off}, bx = c->px, by = c->py;
                if (dim) by = q;
                else bx = q;
                eval_placed(n, gw, gh, &bx, &by, &t);
                if (place_better(n, &t, c)) *c = t;
            }
    }
    return 0;
}

int ncm_shape_ok(const ncm_net *n, int gw, int gh)
{
    if (gw < 1 || gh < 1 || n->w % gw || n->h % gh || gw * gh < 2 || gw * gh == n->w * n->h) return 0;
    return n->mc != NCM_TREE || (!(gw & (gw - 1)) && !(gh & (gh - 1)));
}

int ncm_best(const ncm_net *n, int want_size, ncm_coded *best)
{
    char err[200];
    ncm_coded c;
    int found = 0;
    for (int gh = 1; gh <= n->h; gh++)
        for (int gw = 1; gw <= n->w; gw++) {
            if (!ncm_shape_ok(n, gw, gh) || (want_size && gw * gh != want_size)) continue;
            if (ncm_coded_eval(n, gw, gh, &c, err, sizeof err)) continue;
            if (!found || ncm_better(n, &c, best)) *best = c;
            found = 1;
        }
    return found ? 0 : -1;
}
