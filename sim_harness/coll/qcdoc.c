/* qcdoc.c - counting the QCDOC all-gather (qcdoc.h): which step and
 * channel every offset's data takes, per-step message sizes and loads. */
#include "coll/qcdoc.h"
#include "util/cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* offset index -> signed ring values v[d] in (-t/2, t/2] */
static void offset_values(const qcdoc_model *m, long idx, int *v)
{
    for (int d = 0; d < m->ndims; d++) {
        int t = m->dims[d], x = (int)(idx % t);
        idx /= t;
        v[d] = 2 * x <= t ? x : x - t;
    }
}

/* The channels an offset's data may arrive over in its step: (dimension,
 * travel sign) pairs; returns how many, and the block and hop. */
static int options(const qcdoc_model *m, const int *v, int *b, int *l, int *od, int *os)
{
    int nb = 0, lo = 0, n = 0;
    for (int d = 0; d < m->ndims; d++) {
        int a = abs(v[d]);
        if (!a) continue;
        nb++;
        if (!lo || a < lo) lo = a;
    }
    for (int d = 0; d < m->ndims; d++) {
        int a = abs(v[d]);
        if (a != lo) continue;
        int both = 2 * a == m->dims[d];                /* half way round an even ring: either way */
        if (both || v[d] > 0) od[n] = d, os[n++] = -1; /* origin on the + side: travels - */
        if (both || v[d] < 0) od[n] = d, os[n++] = +1;
    }
    *b = nb;
    *l = lo;
    return n;
}

/* Whole messages, after the greedy pass: move data off a step's most
 * loaded channel to another of its channels while that lowers the step's
 * load (single moves until none helps). */
static void rebalance(qcdoc_model *m)
{
    int v[TOPO_MAX_DIMS], od[2 * TOPO_MAX_DIMS], os[2 * TOPO_MAX_DIMS], b, l;
    for (int moved = 1; moved;) {
        moved = 0;
        for (long i = 1; i < m->nodes; i++) {
            int j = m->step_of[i];
            double *wh = &m->whole[(size_t)j * (size_t)m->nch];
            double top = qcdoc_step_whole(m, j);
            int cur = qcdoc_chan(m->dim_of[i], m->sign_of[i]);
            if (wh[cur] < top) continue;
            offset_values(m, i, v);
            int n = options(m, v, &b, &l, od, os);
            for (int o = 0; o < n; o++) {
                int c = qcdoc_chan(od[o], os[o]);
                if (wh[c] + 1 < top) {
                    wh[cur] -= 1;
                    wh[c] += 1;
                    m->dim_of[i] = od[o];
                    m->sign_of[i] = os[o];
                    moved = 1;
                    break;
                }
            }
        }
    }
}

int qcdoc_build(qcdoc_model *m, int ndims, const int *dims, char *err, int errlen)
{
    memset(m, 0, sizeof *m);
    if (ndims < 1 || ndims > TOPO_MAX_DIMS) {
        snprintf(err, (size_t)errlen, "a torus of 1 to %d dimensions, not %d", TOPO_MAX_DIMS, ndims);
        return -1;
    }
    m->ndims = ndims;
    m->nodes = 1;
    int R = 0;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 2 || dims[d] > 64) {
            snprintf(err, (size_t)errlen, "dimension %d has size %d: each side must be 2..64", d, dims[d]);
            return -1;
        }
        m->dims[d] = dims[d];
        m->nodes *= dims[d];
        if (m->nodes > QCDOC_MAX_NODES) {
            snprintf(err, (size_t)errlen, "more than %ld nodes: too large to count offset by offset", QCDOC_MAX_NODES);
            return -1;
        }
        if (dims[d] / 2 > R) R = dims[d] / 2;
    }
    m->nch = 2 * ndims;
    /* which (block, hop) steps occur: step id = (b-1)*R + (l-1) before compaction */
    int nraw = ndims * R, v[TOPO_MAX_DIMS], od[2 * TOPO_MAX_DIMS], os[2 * TOPO_MAX_DIMS];
    int *jmap = xcalloc((size_t)nraw, sizeof *jmap);
    for (long i = 1; i < m->nodes; i++) {
        int b, l;
        offset_values(m, i, v);
        options(m, v, &b, &l, od, os);
        jmap[(b - 1) * R + l - 1] = 1;
    }
    for (int r = 0; r < nraw; r++) jmap[r] = jmap[r] ? m->nsteps++ : -1;
    m->block = xcalloc((size_t)m->nsteps, sizeof *m->block);
    m->level = xcalloc((size_t)m->nsteps, sizeof *m->level);
    for (int r = 0; r < nraw; r++)
        if (jmap[r] >= 0) m->block[jmap[r]] = r / R + 1, m->level[jmap[r]] = r % R + 1;
    m->msgs = xcalloc((size_t)m->nsteps, sizeof *m->msgs);
    m->tsplit = xcalloc((size_t)m->nsteps, sizeof *m->tsplit);
    size_t nmask = (size_t)1 << m->nch;
    double *cnt = xcalloc((size_t)m->nsteps * nmask, sizeof *cnt); /* data per (step, allowed channels) */
    m->whole = xcalloc((size_t)m->nsteps * (size_t)m->nch, sizeof *m->whole);
    m->step_of = xcalloc((size_t)m->nodes, sizeof *m->step_of);
    m->dim_of = xcalloc((size_t)m->nodes, sizeof *m->dim_of);
    m->sign_of = xcalloc((size_t)m->nodes, sizeof *m->sign_of);
    m->step_of[0] = -1;
    /* whole messages: the data with fewest choices first, each on its least
     * loaded channel, so that the flexible data fills around the rigid */
    for (int want = 1; want <= 2 * ndims; want++)
        for (long i = 1; i < m->nodes; i++) {
            int b, l;
            offset_values(m, i, v);
            int n = options(m, v, &b, &l, od, os), j = jmap[(b - 1) * R + l - 1];
            if (n != want) continue;
            m->msgs[j] += 1;
            double *wh = &m->whole[(size_t)j * (size_t)m->nch];
            int best = 0, ch[2 * TOPO_MAX_DIMS] = {0};
            unsigned mask = 0;
            for (int o = 0; o < n; o++) {
                ch[o] = qcdoc_chan(od[o], os[o]);
                mask |= 1u << ch[o];
                if (wh[ch[o]] < wh[ch[best]]) best = o;
            }
            cnt[(size_t)j * nmask + mask] += 1;
            wh[ch[best]] += 1;
            m->step_of[i] = j;
            m->dim_of[i] = od[best];
            m->sign_of[i] = os[best];
        }
    rebalance(m);
    /* Split data: the least possible largest channel load of a step is
     * max over channel sets S of (data that may only use channels in S) / |S|
     * (fractional load balancing: max-flow / min-cut), the subset sums by a
     * zeta transform. */
    for (int j = 0; j < m->nsteps; j++) {
        double *g = &cnt[(size_t)j * nmask];
        for (int c = 0; c < m->nch; c++)
            for (size_t S = 0; S < nmask; S++)
                if (S >> c & 1) g[S] += g[S ^ ((size_t)1 << c)];
        for (size_t S = 1; S < nmask; S++) m->tsplit[j] = fmax(m->tsplit[j], g[S] / __builtin_popcountl(S));
    }
    free(cnt);
    free(jmap);
    return 0;
}

void qcdoc_free(qcdoc_model *m)
{
    free(m->block);
    free(m->level);
    free(m->msgs);
    free(m->tsplit);
    free(m->whole);
    free(m->step_of);
    free(m->dim_of);
    free(m->sign_of);
    memset(m, 0, sizeof *m);
}

double qcdoc_step_whole(const qcdoc_model *m, int j)
{
    double mx = 0;
    for (int c = 0; c < m->nch; c++) mx = fmax(mx, m->whole[j * m->nch + c]);
    return mx;
}

double qcdoc_time(const qcdoc_model *m, int whole)
{
    double t = 0;
    for (int j = 0; j < m->nsteps; j++) t += whole ? qcdoc_step_whole(m, j) : m->tsplit[j];
    return t;
}

static double binom(int n, int k)
{
    double r = 1;
    for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return r;
}

double qcdoc_closed_form(const qcdoc_model *m, int b, int l)
{
    int t = m->dims[0];
    for (int d = 1; d < m->ndims; d++)
        if (m->dims[d] != t) return -1;
    int r = t / 2;
    double V = l <= r ? t - 2 * l + 1 : 0, V1 = l + 1 <= r ? t - 2 * (l + 1) + 1 : 0;
    return binom(m->ndims, b) * (pow(V, b) - pow(V1, b));
}
