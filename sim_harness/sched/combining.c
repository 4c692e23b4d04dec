/* combining.c - heuristic schedules for the combining collectives.
 *
 * Reduce (docs/scheduling.md): every contributor's value must be folded
 * into the root's result exactly once.  A node sends its partial result
 * (its value combined with every partial it received so far) once, and
 * then leaves; so the schedule is a tree, and a step is a matching of
 * senders onto receivers that are still active.  Greedy: step by step,
 * pair active nodes, nearest pairs first (random ties), over free paths,
 * a node either sending or receiving (up to k) in one step.
 *
 * Barrier: every terminal must hear, directly or through others, from
 * every terminal (a message carries everything its sender has heard by the
 * start of the step: 0-byte tokens, combined).  Greedy gossip: step by
 * step, the transfers that teach their receiver the most, nearest first,
 * over free paths, until everyone has heard from everyone.
 *
 * The textbook tree (reduce; barrier = reduce + broadcast) and butterfly
 * (barrier) routed over free paths compete; the shortest schedule wins.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "util/cli.h"

typedef struct {
    int u, v, key;
} cand;

static int by_key(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static int path_free(const unsigned char *busy, const sched_path *p)
{
    for (int i = 0; i < p->nch; i++)
        if (busy[p->ch[i]]) return 0;
    return 1;
}

static void path_take(unsigned char *busy, const sched_path *p)
{
    for (int i = 0; i < p->nch; i++) busy[p->ch[i]] = 1;
}

/* Tries candidate transfers in order; accepted ones get a free path. */
static int place(coll_sched *s, const topo *t, sched_pathtab *P, int step, int u, int v, unsigned char *busy)
{
    const sched_paths *c = sched_paths_get(P, t, u, v);
    for (int pi = 0; pi < c->n; pi++)
        if (path_free(busy, &c->p[pi])) {
            path_take(busy, &c->p[pi]);
            int m = coll_msg_of(s, u, -1);
            sched_set_route(coll_add(s, step, u, v, m < 0 ? 0 : m), &c->p[pi]);
            return 1;
        }
    return 0;
}

static int reduce_greedy(coll_sched *s, const topo *t, sched_pathtab *P, uint64_t *rs)
{
    int n = s->nterms, na = 0, step = 0;
    int *act = xmalloc((size_t)n * sizeof *act);
    unsigned char *role = xmalloc((size_t)n), *busy = xmalloc((size_t)sched_nchannels(t));
    cand *cs = xmalloc((size_t)n * (size_t)n * sizeof *cs);
    for (int i = 0; i < n; i++)
        if (s->from[i] || i == s->root) act[na++] = i;
    s->nxfers = 0;
    s->nsteps = 0;
    while (na > 1 && step <= 2 * n) {
        int nc = 0;
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++)
                if (i != j && act[i] != s->root) {
                    int d = topo_distance(t, topo_term_router(t, act[i]), topo_term_router(t, act[j]));
                    cs[nc++] = (cand){act[i], act[j], d * 4096 + (int)(sched_rand(rs) % 4096)};
                }
        qsort(cs, (size_t)nc, sizeof *cs, by_key);
        memset(role, 0, (size_t)n); /* 1 sends, 2 receives this step */
        memset(busy, 0, (size_t)sched_nchannels(t));
        for (int i = 0; i < nc; i++)
            if (role[cs[i].u] == 0 && role[cs[i].v] != 1 && place(s, t, P, step, cs[i].u, cs[i].v, busy)) {
                role[cs[i].u] = 1;
                role[cs[i].v] = 2;
            }
        int k = 0;
        for (int i = 0; i < na; i++)
            if (role[act[i]] != 1) act[k++] = act[i];
        na = k;
        step++;
    }
    free(act);
    free(role);
    free(busy);
    free(cs);
    return na == 1 ? s->nsteps : -1;
}

static int barrier_greedy(coll_sched *s, const topo *t, sched_pathtab *P, uint64_t *rs)
{
    int n = s->nterms, step = 0, W = (n + 63) / 64;
    uint64_t *K = xcalloc((size_t)n * (size_t)W, sizeof *K), *next = xmalloc((size_t)n * (size_t)W * sizeof *K);
    unsigned char *busy = xmalloc((size_t)sched_nchannels(t));
    cand *cs = xmalloc((size_t)n * (size_t)n * sizeof *cs);
    for (int i = 0; i < n; i++) K[i * W + i / 64] |= 1ull << (i % 64);
    s->nxfers = 0;
    s->nsteps = 0;
    for (;; step++) {
        int nc = 0, done = 1;
        for (int u = 0; u < n; u++)
            for (int v = 0; v < n; v++) {
                if (u == v) continue;
                int gain = 0;
                for (int w = 0; w < W; w++) gain += __builtin_popcountll(K[u * W + w] & ~K[v * W + w]);
                if (!gain) continue;
                done = 0;
                int d = topo_distance(t, topo_term_router(t, u), topo_term_router(t, v));
                cs[nc++] = (cand){u, v, -gain * 65536 + d * 1024 + (int)(sched_rand(rs) % 1024)};
            }
        if (done || step > 2 * n) break;
        qsort(cs, (size_t)nc, sizeof *cs, by_key);
        memset(busy, 0, (size_t)sched_nchannels(t));
        memcpy(next, K, (size_t)n * (size_t)W * sizeof *K);
        for (int i = 0; i < nc; i++)
            if (place(s, t, P, step, cs[i].u, cs[i].v, busy))
                for (int w = 0; w < W; w++) next[cs[i].v * W + w] |= K[cs[i].u * W + w];
        memcpy(K, next, (size_t)n * (size_t)W * sizeof *K);
    }
    free(K);
    free(next);
    free(busy);
    free(cs);
    return step > 2 * n ? -1 : s->nsteps;
}

int sched_combining(coll_sched *s, const topo *t, sched_pathtab *P, const sched_search *q, sched_result *r)
{
    coll_sched best = {0};
    uint64_t rs = q->seed * 0x9E3779B97F4A7C15ull + 1;
    sched_keep_best(s, &best, sched_route_builtin(s, t, P, ALGO_TREE));
    if (s->op == OP_BARRIER) sched_keep_best(s, &best, sched_route_builtin(s, t, P, ALGO_RD));
    r->greedy_steps = best.nsteps;
    for (int tr = 0; tr < q->tries && best.nsteps != q->lower; tr++) {
        if (tr > 0 && sched_now() > q->deadline) { /* the safety net only */
            r->ended = "time";
            break;
        }
        int g = s->op == OP_REDUCE ? reduce_greedy(s, t, P, &rs) : barrier_greedy(s, t, P, &rs);
        if (tr == 0 && g > 0 && (r->greedy_steps <= 0 || g < r->greedy_steps)) r->greedy_steps = g;
        sched_keep_best(s, &best, g);
    }
    return sched_take_best(s, &best);
}
