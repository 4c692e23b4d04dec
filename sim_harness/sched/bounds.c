/* bounds.c - lower bounds on the number of steps of a collective.
 *
 * Valid bounds (the "lower_bound" reported and used to claim optimality):
 *   ports   a terminal injects / absorbs at most k messages per step
 *   log     a broadcast message reaches at most (k+1)^s holders in s steps;
 *           a combining collective needs ceil(log_{k+1} n) rounds
 *   cut     for every cut of the routers into A and B: the messages that
 *           must cross from A to B (once each for broadcast data) divided by
 *           the A->B links; every cut for <= 16 routers, bisections beyond
 * The paper's formulas (eqs 2-11) are reported beside them, not used: they
 * are estimates, not bounds (eq. 6 adds two maxima of terms that can
 * overlap in time; its b0 term counts every pair inside Q as crossing Q's
 * bisection).  Cut widths from exact max-flow / min-cut over the channel
 * graph (terminal channels carry k): b1 = T\Q -> Q, b2 = Q -> R\Q, both one
 * direction; b0 = Q's bisection in channels of both directions, which is
 * how the paper counts B_C (Table 1's P^2/(2 B_C)) and what reproduces its
 * Table 2.  Like the paper's columns, "paper" is the formula or the port
 * limit, whichever is larger.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "util/cli.h"

static int cdiv(int a, int b) { return b > 0 ? (a + b - 1) / b : (a > 0 ? 1 << 29 : 0); }

static int ceil_log(int n, int base)
{
    int s = 0;
    long v = 1;
    while (v < n) {
        v *= base;
        s++;
    }
    return s;
}

int sched_paper_mnb(int M, int N)
{
    int l = ceil_log(N, 2);
    return l > M ? l : M;
}

/* Eq. 6; a cut width <= 0 (not applicable / not computed) drops its terms. */
int sched_paper_mns(int M, int N, int Q, int b0, int b1, int b2)
{
    int mn = b1 > 0 && b2 > 0 ? (b1 < b2 ? b1 : b2) : b1 > 0 ? b1 : b2;
    int t1a = b1 > 0 ? cdiv((M - Q) * Q, b1) : 0, t1b = b2 > 0 ? cdiv(Q * (N - Q), b2) : 0;
    int t2a = mn > 0 ? cdiv((M - Q) * (N - Q), mn) : 0, t2b = b0 > 0 ? cdiv(Q * (Q - 1), 2 * b0) : 0;
    return (t1a > t1b ? t1a : t1b) + (t2a > t2b ? t2a : t2b);
}

static int broadcast_type(coll_op op) { return op == OP_BCAST || op == OP_ALLGATHER || op == OP_MNB; }

/* ------------------------------------------------- max flow (unit links) */

typedef struct {
    int n;
    int *cap;
} flowg; /* dense capacities, nodes: terminals then routers */

static int bfs_augment(flowg *g, int s, int t, int *prev, int *queue)
{
    for (int i = 0; i < g->n; i++) prev[i] = -1;
    prev[s] = s;
    int h = 0, q = 0;
    queue[q++] = s;
    while (h < q) {
        int u = queue[h++];
        for (int v = 0; v < g->n; v++)
            if (prev[v] < 0 && g->cap[u * g->n + v] > 0) {
                prev[v] = u;
                if (v == t) return 1;
                queue[q++] = v;
            }
    }
    return 0;
}

/* Max flow from terminal set X to terminal set Y over the channel graph. */
static int maxflow(const topo *t, const unsigned char *X, const unsigned char *Y)
{
    int T = t->nterms, R = t->nrouters, n = T + R + 2, S = n - 2, D = n - 1;
    flowg g = {n, xcalloc((size_t)n * (size_t)n, sizeof(int))};
    for (int i = 0; i < T; i++) {
        int r = T + topo_term_router(t, i);
        g.cap[i * n + r] += t->k;
        g.cap[r * n + i] += t->k;
        if (X[i]) g.cap[S * n + i] = 1 << 20;
        if (Y[i]) g.cap[i * n + D] = 1 << 20;
    }
    for (int l = 0; l < t->nlinks; l++) g.cap[(T + t->links[l].src) * n + T + t->links[l].dst] += 1;
    int *prev = xmalloc((size_t)n * sizeof *prev), *queue = xmalloc((size_t)n * sizeof *queue), flow = 0;
    /* a terminal in both sets would be an infinite path: the caller avoids it */
    while (bfs_augment(&g, S, D, prev, queue) && flow < 1 << 19) {
        int f = 1 << 20;
        for (int v = D; v != S; v = prev[v]) {
            int c = g.cap[prev[v] * n + v];
            if (c < f) f = c;
        }
        for (int v = D; v != S; v = prev[v]) {
            g.cap[prev[v] * n + v] -= f;
            g.cap[v * n + prev[v]] += f;
        }
        flow += f;
    }
    free(prev);
    free(queue);
    free(g.cap);
    return flow;
}

/* Bisection width of the sub-network of set Q, in channels of both
 * directions as the paper counts it (Table 1: P^2 / (2 B_C)): the smallest
 * flow X -> Y plus flow Y -> X over the balanced splits of Q.  Exhaustive,
 * so only for up to BISECT_MAX members; -1 beyond. */
#define BISECT_MAX 16
static int bisection(const topo *t, const unsigned char *Q)
{
    int T = t->nterms, m[BISECT_MAX], nq = 0;
    for (int i = 0; i < T; i++)
        if (Q[i]) {
            if (nq == BISECT_MAX) return -1;
            m[nq++] = i;
        }
    if (nq < 2) return -1;
    unsigned char *X = xcalloc((size_t)T, 1), *Y = xcalloc((size_t)T, 1);
    int best = 1 << 29;
    for (unsigned long mask = 0; mask < 1ul << nq; mask++) {
        if (__builtin_popcountl(mask) != nq / 2 || !(mask & 1)) continue; /* member 0 on side X */
        for (int i = 0; i < nq; i++) {
            X[m[i]] = (mask >> i) & 1;
            Y[m[i]] = !X[m[i]];
        }
        int f = maxflow(t, X, Y);
        if (f < best) f += maxflow(t, Y, X);
        if (f < best) best = f;
    }
    free(X);
    free(Y);
    return best;
}

/* ------------------------------------------------------------ cut bound */

/* Messages that must cross from router set A to the rest, and the A -> B
 * links (*cap). */
int sched_cut_demand(const coll_sched *s, const topo *t, const unsigned char *inA, int *capp)
{
    int cap = 0, demand = 0;
    for (int l = 0; l < t->nlinks; l++) cap += inA[t->links[l].src] && !inA[t->links[l].dst];
    for (int m = 0; m < s->nmsgs; m++) {
        const coll_msg *g = &s->msgs[m];
        if (!inA[topo_term_router(t, g->origin)]) continue;
        if (g->dest >= 0) demand += !inA[topo_term_router(t, g->dest)];
        else {
            for (int d = 0; d < s->nterms; d++)
                if (s->to[d] && d != g->origin && !inA[topo_term_router(t, d)]) {
                    demand++; /* broadcast data crosses the cut once */
                    break;
                }
        }
    }
    *capp = cap;
    return demand;
}

static int cut_value(const coll_sched *s, const topo *t, const unsigned char *inA)
{
    int cap, demand = sched_cut_demand(s, t, inA, &cap);
    return demand ? cdiv(demand, cap) : 0;
}

static int cut_bound(const coll_sched *s, const topo *t)
{
    int R = t->nrouters, best = 0;
    unsigned char *inA = xcalloc((size_t)R, 1);
    if (R <= 16) {
        for (unsigned long mask = 1; mask + 1 < 1ul << R; mask++) {
            for (int r = 0; r < R; r++) inA[r] = (mask >> r) & 1;
            int v = cut_value(s, t, inA);
            if (v > best) best = v;
        }
    } else if (!topo_has(t, TOPO_TRAIT_RING)) {
        for (int dim = 0; dim < t->ndims; dim++) /* halves along each dimension */
            for (int side = 0; side < 2; side++) {
                for (int r = 0; r < R; r++) {
                    int c = topo_coord(t, r, dim), size = t->dims[dim];
                    inA[r] = side ? c >= size / 2 : c < size / 2;
                }
                int v = cut_value(s, t, inA);
                if (v > best) best = v;
            }
    }
    free(inA);
    return best;
}

void sched_lower_bound(const coll_sched *s, const topo *t, sched_bound *b)
{
    memset(b, 0, sizeof *b);
    int n = s->nterms, k = t->k;
    int *inj = xcalloc((size_t)n, sizeof *inj), *abs_ = xcalloc((size_t)n, sizeof *abs_);
    int M = 0, N = 0, Q = 0;
    for (int i = 0; i < n; i++) {
        M += s->from[i];
        N += s->to[i];
        Q += s->from[i] && s->to[i];
    }
    if (s->op == OP_REDUCE || s->op == OP_BARRIER) {
        int members = 0;
        for (int i = 0; i < n; i++) members += s->from[i] || s->to[i];
        /* a node's result (knowledge) grows at most (k+1)-fold per step */
        b->log_bound = ceil_log(members, k + 1);
        b->b0 = b->b1 = b->b2 = -1;
        b->value = b->log_bound;
        b->largest = "log";
        b->paper = b->log_bound;
        free(inj);
        free(abs_);
        return;
    }
    for (int m = 0; m < s->nmsgs; m++) {
        const coll_msg *g = &s->msgs[m];
        inj[g->origin]++;
        if (g->dest >= 0) abs_[g->dest]++;
        else {
            int needers = 0;
            for (int d = 0; d < n; d++)
                if (s->to[d] && d != g->origin) {
                    abs_[d]++;
                    needers++;
                }
            int l = ceil_log(needers + 1, k + 1);
            if (l > b->log_bound) b->log_bound = l;
        }
    }
    for (int i = 0; i < n; i++) {
        int a = cdiv(broadcast_type(s->op) ? (inj[i] > 0) : inj[i], k), c = cdiv(abs_[i], k);
        if (broadcast_type(s->op)) a = cdiv(inj[i], k);
        if (a > b->ports_inject) b->ports_inject = a;
        if (c > b->ports_absorb) b->ports_absorb = c;
    }
    b->cut_bound = cut_bound(s, t);
    b->value = b->ports_inject;
    b->largest = "ports (inject)";
    if (b->ports_absorb > b->value) {
        b->value = b->ports_absorb;
        b->largest = "ports (absorb)";
    }
    if (b->log_bound > b->value) {
        b->value = b->log_bound;
        b->largest = "log";
    }
    if (b->cut_bound > b->value) {
        b->value = b->cut_bound;
        b->largest = "cut";
    }

    /* the paper's cut widths: T\Q -> Q (b1), Q -> R\Q (b2), inside Q (b0); -1 = not applicable */
    unsigned char *X = xcalloc((size_t)n, 1), *Y = xcalloc((size_t)n, 1), *Qs = xcalloc((size_t)n, 1);
    for (int i = 0; i < n; i++) {
        X[i] = s->from[i] && !s->to[i];
        Y[i] = s->from[i] && s->to[i];
        Qs[i] = Y[i];
    }
    b->b1 = (M - Q && Q) ? maxflow(t, X, Y) : -1;
    for (int i = 0; i < n; i++) {
        X[i] = s->from[i] && s->to[i];
        Y[i] = s->to[i] && !s->from[i];
    }
    b->b2 = (Q && N - Q) ? maxflow(t, X, Y) : -1;
    b->b0 = bisection(t, Qs);
    int ports = b->ports_inject > b->ports_absorb ? b->ports_inject : b->ports_absorb;
    if (broadcast_type(s->op)) {
        int all_send = 1; /* every receiver is a transmitter: it absorbs M - 1 (eq. 7) */
        for (int i = 0; i < n; i++) all_send &= !s->to[i] || s->from[i];
        b->paper = sched_paper_mnb(M, N) - (all_send && M > 1);
        if (k > 1) b->paper = b->log_bound > ports ? b->log_bound : ports; /* eq. 2 is for k = 1 */
    } else {
        /* eq. 11 for disjoint sets: the link load, generalized to every cut */
        b->paper = Q == 0 ? b->cut_bound : sched_paper_mns(M, N, Q, b->b0, b->b1, b->b2);
        if (ports > b->paper) b->paper = ports; /* "limited also by the number of ports" */
    }
    free(X);
    free(Y);
    free(Qs);
    free(inj);
    free(abs_);
}
