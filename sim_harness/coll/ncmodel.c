/* ncmodel.c - the closed forms behind ncmodel.h. */
#include "coll/ncmodel.h"

#include <stdio.h>
#include <stdlib.h>

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

int ncm_coded_eval(const ncm_net *n, int gw, int gh, ncm_coded *c, char *err, int errlen)
{
    if (gw < 1 || gh < 1 || n->w % gw || n->h % gh || gw * gh < 2 || gw * gh == n->w * n->h) {
        snprintf(err, (size_t)errlen,
                 "group shape %dx%d must divide %dx%d into at least two groups of at least 2 nodes", gw, gh, n->w,
                 n->h);
        return -1;
    }
    int gx = n->w / gw, gy = n->h / gh, torus = n->torus;
    double M = (double)gw * gh, G = (double)gx * gy, N = M * G;
    c->gw = gw;
    c->gh = gh;
    c->group_size = gw * gh;
    c->groups = gx * gy;
    /* every ordered pair of groups: counterparts are exactly the groups' offset apart */
    double group_pairs = pairs1(gx, gw, torus) * gy * gy + pairs1(gy, gh, torus) * gx * gx;
    c->in_x = c->in_y = 0;
    if (n->mc == NCM_TREE) {
        double t_in = tree_hops(gw, gh, 1, 1, n->w, n->h, torus);
        c->hops_b = N * t_in;
        c->hops_d = G > 1 ? G * tree_hops(gx, gy, gw, gh, n->w, n->h, torus) : 0;
        c->hops_e = G * (G - 1) * t_in;
    } else {
        c->hops_b = G * (pairs1(gw, 1, torus) * gh * gh + pairs1(gh, 1, torus) * gw * gw);
        c->hops_d = group_pairs;
        /* the IN where the sum of distances to its group is least (a median) */
        double best = -1;
        for (int y = 0; y < gh; y++)
            for (int x = 0; x < gw; x++) {
                double s = 0;
                for (int v = 0; v < gh; v++)
                    for (int u = 0; u < gw; u++) s += dist1(x, u, n->w, torus) + dist1(y, v, n->h, torus);
                if (best < 0 || s < best) best = s, c->in_x = x, c->in_y = y;
            }
        c->hops_e = G * (G - 1) * best;
    }
    c->hops_f = M * group_pairs;
    c->coded_hops = c->hops_b + c->hops_d + c->hops_e + c->hops_f;
    c->unicasts = N * (M - 1) + G * (G - 1) + G * (G - 1) * (M - 1) + N * (G - 1);
    c->m_hops = farthest(gw, 1, n->w, torus) + farthest(gh, 1, n->h, torus);
    c->g_hops = farthest(gx, gw, n->w, torus) + farthest(gy, gh, n->h, torus);
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
            if (!found || c.coded_hops < best->coded_hops) *best = c;
            found = 1;
        }
    return found ? 0 : -1;
}
