/* coll_builtin.c - the textbook collective algorithms, as step schedules
 * with table routing, for comparison with synthesized schedules:
 *
 *   tree         binomial tree rooted at the root (bcast, scatter, gather,
 *                reduce, barrier = reduce + bcast, allgather = gather + bcast)
 *   ring         neighbours on a logical ring of the members (bcast chain,
 *                allgather / mnb ring, scatter / gather / alltoall / mns as
 *                shifted pairwise exchanges, reduce chain)
 *   rd           recursive doubling (allgather / mnb, alltoall / mns as XOR
 *                pairwise exchange, barrier as butterfly; power-of-two sets)
 *   all-at-once  every message straight from its origin in one step
 *   qcdoc        the QCDOC all-gather on a torus (coll/qcdoc.h): neighbour
 *                transfers over all 2D directions at once, source routed so
 *                that both directions of a ring of 2 are used
 *   llf, glf, forest  the dragonfly broadcasts (coll/dfbcast.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "util/cli.h"
#include "coll/qcdoc.h"

/* Members of the collective (union of both sets), rotated so the root, if
 * any, comes first: index i of this list is "rank" i. */
static int members(const coll_sched *s, int *u)
{
    int n = 0, start = s->root >= 0 ? s->root : 0;
    if (s->rank_order) { /* the given order, the root first */
        if (s->root >= 0) u[n++] = s->root;
        for (int i = 0; i < s->nranks; i++)
            if (s->rank_order[i] != s->root) u[n++] = s->rank_order[i];
        return n;
    }
    for (int j = 0; j < s->nterms; j++) {
        int i = (start + j) % s->nterms;
        if (s->from[i] || s->to[i] || i == s->root) u[n++] = i;
    }
    return n;
}

static int own_msg(const coll_sched *s, int o) { return coll_msg_of(s, o, -1); }

/* Binomial tree over ranks 0..n-1: in step i, rank j < 2^i sends to j + 2^i.
 * The subtree of rank c that joined in step i is {c + m * 2^(i+1)}. */
static int in_subtree(int x, int c, int i) { return x >= c && (x - c) % (1 << (i + 1)) == 0; }

/* Gather / reduce: the tree run backwards; combining sends one partial. */
static void tree_up(coll_sched *s, const int *u, int n, int combine, int step0)
{
    int L = coll_ceil_log2(n);
    for (int i = L - 1, st = step0; i >= 0; i--, st++) {
        for (int j = 0; j < (1 << i) && j + (1 << i) < n; j++) {
            int c = j + (1 << i);
            if (combine) {
                coll_add(s, st, u[c], u[j], own_msg(s, u[c]));
                continue;
            }
            for (int m = 0; m < s->nmsgs; m++) {
                int o = s->msgs[m].origin, r;
                for (r = 0; r < n && u[r] != o; r++) {}
                if (r < n && in_subtree(r, c, i)) coll_add(s, st, u[c], u[j], m);
            }
        }
    }
}

static void tree_scatter(coll_sched *s, const int *u, int n)
{
    int L = coll_ceil_log2(n);
    for (int i = 0; i < L; i++)
        for (int j = 0; j < (1 << i) && j + (1 << i) < n; j++) {
            int c = j + (1 << i);
            for (int m = 0; m < s->nmsgs; m++) {
                int d = s->msgs[m].dest, r;
                for (r = 0; r < n && u[r] != d; r++) {}
                if (r < n && in_subtree(r, c, i)) coll_add(s, i, u[j], u[c], m);
            }
        }
}

/* Allgather as a broadcast tree from every member (the network-coding
 * paper's tree-based all-to-all broadcast, xnoc ncmodel's "tree"): binomial
 * trees over XOR-relabelled ranks, the farthest partner (highest bit)
 * first, every source's tree in the same steps.  On a mesh with
 * power-of-two sides rank bits are coordinate bits, so a transfer of bit b
 * crosses 2^b' links of one dimension. */
static int tree_allgather(coll_sched *s, const int *u, int n, char *err, int errlen)
{
    if (n & (n - 1)) {
        snprintf(err, (size_t)errlen, "tree %s needs a power-of-two number of members (XOR ranks), not %d",
                 coll_op_name(s->op), n);
        return -1;
    }
    int L = coll_ceil_log2(n);
    for (int a = 0; a < n; a++) {
        int m = own_msg(s, u[a]);
        if (m < 0) continue;
        for (int i = 0; i < L; i++) {
            int b = L - 1 - i;
            for (int v = 0; v < n; v++) /* the holders: ranks that agree with a below bit b+1 */
                if (!((v ^ a) & ((2 << b) - 1))) coll_add(s, i, u[v], u[v ^ (1 << b)], m);
        }
    }
    return 0;
}

static int algo_tree(coll_sched *s, const int *u, int n, char *err, int errlen)
{
    switch (s->op) {
    case OP_BCAST: coll_tree_bcast(s, u, n, own_msg(s, s->root), 0); return 0;
    case OP_SCATTER: tree_scatter(s, u, n); return 0;
    case OP_GATHER: tree_up(s, u, n, 0, 0); return 0;
    case OP_ALLGATHER:
    case OP_MNB: return tree_allgather(s, u, n, err, errlen);
    case OP_REDUCE: tree_up(s, u, n, 1, 0); return 0;
    case OP_BARRIER:
        tree_up(s, u, n, 1, 0);
        coll_tree_bcast(s, u, n, own_msg(s, u[0]), coll_ceil_log2(n));
        return 0;
    default:
        snprintf(err, (size_t)errlen,
                 "tree is defined for bcast, scatter, gather, reduce, barrier, allgather and mnb, not %s",
                 coll_op_name(s->op));
        return -1;
    }
}

static int algo_ring(coll_sched *s, const int *u, int n, char *err, int errlen)
{
    (void)err;
    (void)errlen;
    switch (s->op) {
    case OP_BCAST: /* a chain: rank i forwards in step i */
        for (int i = 0; i + 1 < n; i++) coll_add(s, i, u[i], u[i + 1], own_msg(s, s->root));
        return 0;
    case OP_REDUCE: /* a chain towards the root */
        for (int i = n - 1, st = 0; i > 0; i--, st++) coll_add(s, st, u[i], u[i - 1], own_msg(s, u[i]));
        return 0;
    case OP_BARRIER:
        for (int i = n - 1, st = 0; i > 0; i--, st++) coll_add(s, st, u[i], u[i - 1], own_msg(s, u[i]));
        for (int i = 0; i + 1 < n; i++) coll_add(s, n - 1 + i, u[i], u[i + 1], own_msg(s, u[0]));
        return 0;
    case OP_ALLGATHER:
    case OP_MNB: /* step t: rank i passes on the message of rank i - t */
        for (int t = 0; t + 1 < n; t++)
            for (int i = 0; i < n; i++) {
                int m = own_msg(s, u[(i - t + n) % n]);
                if (m >= 0) coll_add(s, t, u[i], u[(i + 1) % n], m);
            }
        return 0;
    default: /* personalized: step t, rank i -> rank i + t */
        for (int t = 1; t < n; t++)
            for (int i = 0; i < n; i++) {
                int m = coll_msg_of(s, u[i], u[(i + t) % n]);
                if (m >= 0) coll_add(s, t - 1, u[i], u[(i + t) % n], m);
            }
        return 0;
    }
}

static int algo_rd(coll_sched *s, const int *u, int n, char *err, int errlen)
{
    if (n & (n - 1)) {
        snprintf(err, (size_t)errlen, "rd (recursive doubling) needs a power-of-two number of members, not %d", n);
        return -1;
    }
    int L = coll_ceil_log2(n);
    switch (s->op) {
    case OP_BCAST: coll_tree_bcast(s, u, n, own_msg(s, s->root), 0); return 0;
    case OP_REDUCE: tree_up(s, u, n, 1, 0); return 0;
    case OP_BARRIER: /* butterfly: after step i each knows 2^(i+1) */
        for (int i = 0; i < L; i++)
            for (int j = 0; j < n; j++) coll_add(s, i, u[j], u[j ^ (1 << i)], own_msg(s, u[j]));
        return 0;
    case OP_ALLGATHER:
    case OP_MNB: /* exchange everything held with rank j ^ 2^i */
        for (int i = 0; i < L; i++)
            for (int j = 0; j < n; j++)
                for (int r = 0; r < n; r++)
                    if ((r >> i) == (j >> i)) { /* rank r's message is held by j after i steps */
                        int m = own_msg(s, u[r]);
                        if (m >= 0) coll_add(s, i, u[j], u[j ^ (1 << i)], m);
                    }
        return 0;
    case OP_ALLTOALL:
    case OP_MNS:
    case OP_SCATTER:
    case OP_GATHER:
        for (int t = 1; t < n; t++)
            for (int j = 0; j < n; j++) {
                int m = coll_msg_of(s, u[j], u[j ^ t]);
                if (m >= 0) coll_add(s, t - 1, u[j], u[j ^ t], m);
            }
        return 0;
    default: snprintf(err, (size_t)errlen, "rd is not defined for %s", coll_op_name(s->op)); return -1;
    }
}

static int algo_all_at_once(coll_sched *s, const int *u, int n)
{
    if (s->op == OP_REDUCE || s->op == OP_BARRIER) {
        int root = s->op == OP_REDUCE ? s->root : u[0];
        for (int i = 0; i < n; i++)
            if (u[i] != root && (s->op == OP_BARRIER || s->from[u[i]])) coll_add(s, 0, u[i], root, own_msg(s, u[i]));
        if (s->op == OP_BARRIER)
            for (int i = 0; i < n; i++)
                if (u[i] != root) coll_add(s, 1, root, u[i], own_msg(s, root));
        return 0;
    }
    for (int m = 0; m < s->nmsgs; m++) {
        const coll_msg *g = &s->msgs[m];
        if (g->dest >= 0) {
            coll_add(s, 0, g->origin, g->dest, m);
            continue;
        }
        for (int d = 0; d < s->nterms; d++)
            if (s->to[d] && d != g->origin) coll_add(s, 0, g->origin, d, m);
    }
    return 0;
}

/* Drops transfers that deliver a message to a terminal that neither needs
 * it nor forwards it later (a ring passing data through non-receivers ends
 * with such hops).  Walks the steps backwards so forwards are known. */
static void prune(coll_sched *s)
{
    if (s->op == OP_REDUCE || s->op == OP_BARRIER) return;
    int n = s->nterms;
    unsigned char *fwd = xcalloc((size_t)n * (size_t)s->nmsgs, 1), *keep = xcalloc((size_t)s->nxfers, 1);
    for (int st = s->nsteps - 1; st >= 0; st--) {
        for (int x = 0; x < s->nxfers; x++) {
            coll_xfer *f = &s->xf[x];
            if (f->step != st) continue;
            const coll_msg *g = &s->msgs[f->msg];
            int need = g->dest >= 0 ? f->dst == g->dest : s->to[f->dst] && f->dst != g->origin;
            keep[x] = need || fwd[f->dst * s->nmsgs + f->msg];
        }
        for (int x = 0; x < s->nxfers; x++)
            if (s->xf[x].step == st && keep[x]) fwd[s->xf[x].src * s->nmsgs + s->xf[x].msg] = 1;
    }
    int j = 0;
    for (int x = 0; x < s->nxfers; x++)
        if (keep[x]) s->xf[j++] = s->xf[x];
    s->nxfers = j;
    s->nsteps = 0;
    for (int x = 0; x < j; x++)
        if (s->xf[x].step + 1 > s->nsteps) s->nsteps = s->xf[x].step + 1;
    free(fwd);
    free(keep);
}

/* The QCDOC all-gather: receiver g gets the data of offset v in step
 * step_of[v] from its neighbour one hop nearer the origin, over the link
 * of dimension dim_of[v] travelling sign_of[v]; send channel and ejection
 * channel are that direction's (mod k).  Within a step each sender's
 * sends alternate between its channels, so that with k = 2D all of them
 * stream at once. */
static int algo_qcdoc(coll_sched *s, const topo *t, char *err, int errlen)
{
    if (!topo_has(t, TOPO_TRAIT_WRAP) || t->conc != 1) {
        snprintf(err, (size_t)errlen, "qcdoc runs on a torus with one terminal per router (torus:AxBx...), not %s",
                 t->name);
        return -1;
    }
    if (s->op != OP_ALLGATHER) {
        snprintf(err, (size_t)errlen, "qcdoc is an allgather, not %s", coll_op_name(s->op));
        return -1;
    }
    for (int i = 0; i < s->nterms; i++)
        if (!s->from[i] || !s->to[i]) {
            snprintf(err, (size_t)errlen, "qcdoc gathers from and to every node (terminal %d is left out)", i);
            return -1;
        }
    qcdoc_model m;
    if (qcdoc_build(&m, t->ndims, t->dims, err, errlen)) return -1;
    int N = t->nrouters, g0[TOPO_MAX_DIMS], c[TOPO_MAX_DIMS];
    long *order = xmalloc((size_t)N * sizeof *order);
    for (int j = 0; j < m.nsteps; j++) {
        /* this step's offsets, round robin over the channels */
        int n = 0;
        for (int round = 0, more = 1; more; round++) {
            more = 0;
            for (int ch = 0; ch < m.nch; ch++) {
                int seen = 0;
                for (long i = 1; i < N; i++) {
                    if (m.step_of[i] != j || qcdoc_chan(m.dim_of[i], m.sign_of[i]) != ch) continue;
                    if (seen++ == round) {
                        order[n++] = i;
                        more = 1;
                        break;
                    }
                }
            }
        }
        for (int e = 0; e < n; e++) {
            long i = order[e];
            int d = m.dim_of[i], sg = m.sign_of[i], ch = qcdoc_chan(d, sg);
            for (int g = 0; g < N; g++) {
                long rest = i;
                for (int q = 0; q < t->ndims; q++) { /* origin = g + offset, sender = g - sign * e_d */
                    g0[q] = topo_coord(t, g, q);
                    c[q] = (g0[q] + (int)(rest % t->dims[q])) % t->dims[q];
                    rest /= t->dims[q];
                }
                int origin = topo_router_at(t, c);
                g0[d] = (g0[d] - sg + t->dims[d]) % t->dims[d];
                int sender = topo_router_at(t, g0);
                coll_xfer *x = coll_add(s, j, sender, g, coll_msg_of(s, origin, -1));
                x->chan = ch % t->k;
                x->nports = 2;
                x->ports[0] = (int8_t)ch;                              /* the link: port 2d (+) or 2d+1 (-) */
                x->ports[1] = (int8_t)topo_term_port(t, g, ch % t->k); /* into the receiver's channel */
            }
        }
    }
    free(order);
    qcdoc_free(&m);
    return 0;
}

int coll_builtin(coll_sched *s, const topo *t, coll_algo a, char *err, int errlen)
{
    int *u = xmalloc((size_t)s->nterms * sizeof *u);
    int n = members(s, u), rc;
    switch (a) {
    case ALGO_TREE: rc = algo_tree(s, u, n, err, errlen); break;
    case ALGO_RING: rc = algo_ring(s, u, n, err, errlen); break;
    case ALGO_RD: rc = algo_rd(s, u, n, err, errlen); break;
    case ALGO_ALL_AT_ONCE: rc = algo_all_at_once(s, u, n); break;
    case ALGO_QCDOC: rc = algo_qcdoc(s, t, err, errlen); break;
    case ALGO_LLF:
    case ALGO_GLF:
    case ALGO_FOREST: rc = coll_dragonfly(s, t, a, err, errlen); break;
    default: snprintf(err, (size_t)errlen, "'%s' is not a built-in algorithm", coll_algo_name(a)); rc = -1;
    }
    free(u);
    if (rc == 0) prune(s);
    return rc;
}
