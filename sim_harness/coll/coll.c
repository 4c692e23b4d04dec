/* coll.c - what each collective must deliver, and the checker that a
 * schedule delivers it. */
#include "coll/coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"

static const char *op_names[OP_COUNT] = {
    "barrier", "bcast", "scatter", "gather", "reduce", "allgather", "alltoall", "mnb", "mns",
};
static const char *algo_names[ALGO_COUNT] = {"sched", "tree", "ring", "rd",     "all-at-once", "qcdoc",
                                             "hnc",   "llf",  "glf",  "forest", "combine"};

const char *coll_op_name(coll_op op) { return op < OP_COUNT ? op_names[op] : "?"; }
const char *coll_algo_name(coll_algo a) { return a < ALGO_COUNT ? algo_names[a] : "?"; }

int coll_op_parse(const char *s)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (!strcmp(s, op_names[i])) return i;
    return -1;
}

int coll_algo_parse(const char *s)
{
    for (int i = 0; i < ALGO_COUNT; i++)
        if (!strcmp(s, algo_names[i])) return i;
    return -1;
}

int coll_add_msg(coll_sched *s, int origin, int dest, int parts)
{
    /* capacity: the power of two at or above nmsgs (only this function grows msgs), so a
     * million messages (alltoall on mesh:32x32) cost 21 copies, not a million (minutes under ASan) */
    if (!(s->nmsgs & (s->nmsgs - 1)))
        s->msgs = xrealloc(s->msgs, (size_t)(s->nmsgs ? 2 * s->nmsgs : 1) * sizeof *s->msgs);
    s->msgs[s->nmsgs].origin = origin;
    s->msgs[s->nmsgs].dest = dest;
    s->msgs[s->nmsgs].parts = parts;
    return s->nmsgs++;
}

static void add_msg(coll_sched *s, int origin, int dest) { coll_add_msg(s, origin, dest, 1); }

coll_xor *coll_add_xor(coll_sched *s, int step, int node)
{
    if (s->nxors == s->xcap) {
        s->xcap = s->xcap ? 2 * s->xcap : 64;
        s->xors = xrealloc(s->xors, (size_t)s->xcap * sizeof *s->xors);
    }
    coll_xor *x = &s->xors[s->nxors++];
    memset(x, 0, sizeof *x);
    x->step = step;
    x->node = node;
    if (step + 1 > s->nsteps) s->nsteps = step + 1;
    return x;
}

int coll_xfer_bytes(const coll_sched *s, const coll_xfer *x, int bytes)
{
    if (x->len) return x->len;
    int parts = s->msgs[x->msg].parts; /* a bundle's parts lie a slot stride apart */
    return parts > 1 ? parts * ((bytes + 7) & ~7) : bytes;
}

static int first_member(const unsigned char *m, int n)
{
    for (int i = 0; i < n; i++)
        if (m[i]) return i;
    return -1;
}

int coll_init(coll_sched *s, const topo *t, coll_op op, const char *from, const char *to, char *err, int errlen)
{
    int n = t->nterms;
    memset(s, 0, sizeof *s);
    s->op = op;
    s->nterms = n;
    s->detour = -1;
    s->from = xcalloc((size_t)n, 1);
    s->to = xcalloc((size_t)n, 1);
    int rooted_from = op == OP_BCAST || op == OP_SCATTER;
    int rooted_to = op == OP_GATHER || op == OP_REDUCE;
    const char *dfrom = rooted_from ? "0" : "all", *dto = rooted_to ? "0" : "all";
    if (op == OP_BARRIER && (from || to)) {
        snprintf(err, (size_t)errlen, "barrier takes every terminal: no --from/--to");
        return -1;
    }
    char e[200];
    int nf = cli_set(from ? from : dfrom, n, s->from, e, sizeof e);
    if (nf < 0) {
        snprintf(err, (size_t)errlen, "--from: %s", e);
        return -1;
    }
    int nt = cli_set(to ? to : dto, n, s->to, e, sizeof e);
    if (nt < 0) {
        snprintf(err, (size_t)errlen, "--to: %s", e);
        return -1;
    }
    if ((rooted_from && nf != 1) || (rooted_to && nt != 1)) {
        snprintf(err, (size_t)errlen, "%s has one root: --%s must name a single terminal", coll_op_name(op),
                 rooted_from ? "from" : "to");
        return -1;
    }
    s->root = rooted_from ? first_member(s->from, n) : rooted_to ? first_member(s->to, n) : -1;
    for (int o = 0; o < n; o++) {
        if (!s->from[o]) continue;
        switch (op) {
        case OP_BCAST:
        case OP_ALLGATHER:
        case OP_MNB: add_msg(s, o, -1); break;
        case OP_REDUCE:
        case OP_BARRIER:
            add_msg(s, o, -1); /* o's partial result / arrival token */
            break;
        case OP_SCATTER:
        case OP_GATHER:
        case OP_ALLTOALL:
        case OP_MNS:
            for (int d = 0; d < n; d++)
                if (s->to[d] && d != o) add_msg(s, o, d);
            break;
        default: break;
        }
    }
    if (op == OP_REDUCE && !s->from[s->root]) add_msg(s, s->root, -1);
    return 0;
}

void coll_free(coll_sched *s)
{
    free(s->from);
    free(s->to);
    free(s->msgs);
    free(s->xf);
    free(s->xors);
    free(s->rank_order);
    memset(s, 0, sizeof *s);
}

coll_xfer *coll_add(coll_sched *s, int step, int src, int dst, int msg)
{
    if (s->nxfers == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->xf = xrealloc(s->xf, (size_t)s->cap * sizeof *s->xf);
    }
    coll_xfer *x = &s->xf[s->nxfers++];
    memset(x, 0, sizeof *x);
    x->step = step;
    x->src = src;
    x->dst = dst;
    x->msg = msg;
    if (step + 1 > s->nsteps) s->nsteps = step + 1;
    return x;
}

int coll_msg_of(const coll_sched *s, int origin, int dest)
{
    for (int m = 0; m < s->nmsgs; m++)
        if (s->msgs[m].origin == origin && s->msgs[m].dest == dest) return m;
    return -1;
}

static int combining(coll_op op) { return op == OP_REDUCE || op == OP_BARRIER; }

/* Combining collectives: every node carries a vector of how often each
 * origin's value is folded into its partial result; a transfer adds the
 * sender's vector (as of the start of the step) to the receiver's.  Reduce
 * needs exactly one of each contributor at the root; a barrier needs every
 * node to have heard (transitively) from every node. */
static int check_combining(const coll_sched *s, char *err, int errlen)
{
    int n = s->nterms, rc = 0;
    int *cnt = xcalloc((size_t)n * (size_t)n, sizeof *cnt), *next = xcalloc((size_t)n * (size_t)n, sizeof *next);
    int *sent = xcalloc((size_t)n, sizeof *sent);
    for (int i = 0; i < n; i++) cnt[i * n + i] = s->op == OP_BARRIER || s->from[i];
    for (int st = 0; st < s->nsteps && !rc; st++) {
        memcpy(next, cnt, (size_t)n * (size_t)n * sizeof *cnt);
        for (int x = 0; x < s->nxfers; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st) continue;
            if (s->op == OP_REDUCE && sent[f->src]) {
                snprintf(err, (size_t)errlen, "step %d: terminal %d sends its partial result twice", st, f->src);
                rc = -1;
                break;
            }
            sent[f->src] = 1;
            for (int o = 0; o < n; o++) next[f->dst * n + o] += cnt[f->src * n + o];
        }
        memcpy(cnt, next, (size_t)n * (size_t)n * sizeof *cnt);
    }
    for (int i = 0; i < n && !rc; i++) {
        if (s->op == OP_REDUCE && i != s->root) continue;
        for (int o = 0; o < n && !rc; o++) {
            int c = cnt[i * n + o];
            if (s->op == OP_REDUCE && c != s->from[o]) {
                snprintf(err, (size_t)errlen, "reduce: root %d combines the value of terminal %d %d time(s)", i, o, c);
                rc = -1;
            } else if (s->op == OP_BARRIER && c == 0) {
                snprintf(err, (size_t)errlen, "barrier: terminal %d leaves without hearing from terminal %d", i, o);
                rc = -1;
            }
        }
    }
    free(cnt);
    free(next);
    free(sent);
    return rc;
}

int coll_check(const coll_sched *s, char *err, int errlen)
{
    if (combining(s->op)) return check_combining(s, err, errlen);
    int n = s->nterms, rc = 0;
    /* since[node*nmsgs + m] = first step at whose end node holds m, or -1 */
    int *since = xmalloc((size_t)n * (size_t)s->nmsgs * sizeof *since);
    for (int i = 0; i < n * s->nmsgs; i++) since[i] = -1;
    for (int m = 0; m < s->nmsgs; m++) since[s->msgs[m].origin * s->nmsgs + m] = -2; /* from the start */
    for (int st = 0; st < s->nsteps && !rc; st++) {
        for (int x = 0; x < s->nxfers && !rc; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st) continue;
            if (f->msg < 0 || f->msg >= s->nmsgs) {
                snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d carries unknown message %d", st, f->src,
                         f->dst, f->msg);
                rc = -1;
                break;
            }
            int h = since[f->src * s->nmsgs + f->msg];
            if (h == -1 || h >= st) {
                snprintf(err, (size_t)errlen, "step %d: terminal %d forwards message %d (from %d) before holding it",
                         st, f->src, f->msg, s->msgs[f->msg].origin);
                rc = -1;
                break;
            }
            int *d = &since[f->dst * s->nmsgs + f->msg];
            if (*d == -1) *d = st;
        }
    }
    for (int m = 0; m < s->nmsgs && !rc; m++) {
        const coll_msg *g = &s->msgs[m];
        for (int i = 0; i < n && !rc; i++) {
            int need = g->dest >= 0 ? i == g->dest : (s->to[i] && i != g->origin);
            if (need && since[i * s->nmsgs + m] == -1) {
                snprintf(err, (size_t)errlen, "message %d (from %d) never reaches terminal %d", m, g->origin, i);
                rc = -1;
            }
        }
    }
    free(since);
    return rc;
}

/* ---- building blocks of the algorithms (coll_builtin.c, dfbcast.c, hnc.c) */

int coll_ceil_log2(int n)
{
    int l = 0;
    while ((1 << l) < n) l++;
    return l;
}

/* Binomial tree over ranks 0..n-1: in step i, rank j < 2^i sends to j + 2^i. */
int coll_tree_bcast(coll_sched *s, const int *u, int n, int msg, int step0)
{
    int L = coll_ceil_log2(n);
    for (int i = 0; i < L; i++)
        for (int j = 0; j < (1 << i) && j + (1 << i) < n; j++) coll_add(s, step0 + i, u[j], u[j + (1 << i)], msg);
    return L;
}
