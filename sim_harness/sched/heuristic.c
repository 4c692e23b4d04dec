/* heuristic.c - fast schedules for any size.
 *
 * Personalized collectives: first-fit decreasing (longest paths first, ties
 * random) into the earliest step where some candidate path is free, from
 * several random orders; then a min-conflicts tabu search tries to squeeze
 * the schedule into one step less, again and again.
 * Broadcast collectives: step by step, every still-missing (receiver,
 * message) is served, in random order, by any holder with a free path.
 * Combining collectives: the binomial tree, with free paths per step.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/sched.h"

static uint64_t rs;
static uint64_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* channel occupancy per step: occ[step * nch + ch] = count */
typedef struct {
    int nch, cap;
    int *occ;
} occupancy;

static void occ_reset(occupancy *o, int nch, int steps)
{
    o->nch = nch;
    if (steps > o->cap) {
        o->cap = steps;
        o->occ = realloc(o->occ, (size_t)steps * (size_t)nch * sizeof *o->occ);
    }
    memset(o->occ, 0, (size_t)o->cap * (size_t)nch * sizeof *o->occ);
}

static int path_free(const occupancy *o, int step, const sched_path *p)
{
    for (int i = 0; i < p->nch; i++)
        if (o->occ[step * o->nch + p->ch[i]]) return 0;
    return 1;
}

static void path_mark(occupancy *o, int step, const sched_path *p, int d)
{
    for (int i = 0; i < p->nch; i++) o->occ[step * o->nch + p->ch[i]] += d;
}

static void set_route(coll_xfer *x, const sched_path *p)
{
    x->chan = p->chan;
    x->nports = p->nports;
    memcpy(x->ports, p->ports, (size_t)p->nports);
}

/* ---------------------------------------------------- personalized */

typedef struct { int step, path; } place;

static int first_fit(const coll_sched *s, const topo *t, const sched_paths *P, const int *order, place *pl,
                     occupancy *o, int max_steps)
{
    occ_reset(o, sched_nchannels(t), max_steps);
    int steps = 0;
    for (int i = 0; i < s->nmsgs; i++) {
        int m = order[i];
        const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
        int done = 0;
        for (int st = 0; st < max_steps && !done; st++) {
            int off = c->n ? (int)(rnd() % (uint64_t)c->n) : 0;
            for (int j = 0; j < c->n; j++) {
                int pi = (j + off) % c->n;
                if (path_free(o, st, &c->p[pi])) {
                    path_mark(o, st, &c->p[pi], 1);
                    pl[m].step = st;
                    pl[m].path = pi;
                    if (st + 1 > steps) steps = st + 1;
                    done = 1;
                    break;
                }
            }
        }
        if (!done) return -1;
    }
    return steps;
}

/* Min-conflicts tabu search for a schedule with S steps; pl is the start
 * and, on success, the answer. */
static int squeeze(const coll_sched *s, const topo *t, const sched_paths *P, place *pl, int S, double deadline)
{
    int nch = sched_nchannels(t), nm = s->nmsgs;
    int *occ = calloc((size_t)S * (size_t)nch, sizeof *occ);
    int *tabu = calloc((size_t)nm, sizeof *tabu);
    for (int m = 0; m < nm; m++) {
        if (pl[m].step >= S) pl[m].step = (int)(rnd() % (uint64_t)S);
        const sched_path *p = &sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest)->p[pl[m].path];
        for (int i = 0; i < p->nch; i++) occ[pl[m].step * nch + p->ch[i]]++;
    }
    long it = 0;
    int ok = 0;
    for (;;) {
        /* conflicting messages */
        int conflicted = 0, pick = -1;
        for (int m = 0; m < nm; m++) {
            const sched_path *p = &sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest)->p[pl[m].path];
            int c = 0;
            for (int i = 0; i < p->nch; i++) c += occ[pl[m].step * nch + p->ch[i]] > 1;
            if (c) {
                conflicted++;
                if (rnd() % (uint64_t)conflicted == 0) pick = m;
            }
        }
        if (!conflicted) {
            ok = 1;
            break;
        }
        if ((it & 63) == 0 && now_s() > deadline) break;
        it++;
        int m = pick;
        const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
        const sched_path *cur = &c->p[pl[m].path];
        for (int i = 0; i < cur->nch; i++) occ[pl[m].step * nch + cur->ch[i]]--;
        int best = 1 << 30, bs = pl[m].step, bp = pl[m].path, ties = 0;
        for (int st = 0; st < S; st++)
            for (int pi = 0; pi < c->n; pi++) {
                if (st == pl[m].step && pi == pl[m].path && tabu[m] > it) continue;
                int cost = 0;
                for (int i = 0; i < c->p[pi].nch; i++) cost += occ[st * nch + c->p[pi].ch[i]];
                if (cost < best) {
                    best = cost;
                    bs = st;
                    bp = pi;
                    ties = 1;
                } else if (cost == best && rnd() % (uint64_t)++ties == 0) {
                    bs = st;
                    bp = pi;
                }
            }
        if (rnd() % 20 == 0) {   /* noise: a random move now and then */
            bs = (int)(rnd() % (uint64_t)S);
            bp = (int)(rnd() % (uint64_t)c->n);
        }
        tabu[m] = (int)it + 5;
        pl[m].step = bs;
        pl[m].path = bp;
        for (int i = 0; i < c->p[bp].nch; i++) occ[bs * nch + c->p[bp].ch[i]]++;
    }
    free(occ);
    free(tabu);
    return ok;
}

static int path_len(const coll_sched *s, const topo *t, const sched_paths *P, int m)
{
    const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
    return c->n ? c->p[0].nch : 0;
}

static int personalized(coll_sched *s, const topo *t, const sched_paths *P, int tries, int lower)
{
    int nm = s->nmsgs, best = -1, maxs = nm + 1;
    int *order = malloc((size_t)nm * sizeof *order);
    place *pl = malloc((size_t)nm * sizeof *pl), *bestpl = malloc((size_t)nm * sizeof *pl);
    occupancy o = {0};
    for (int tr = 0; tr < tries; tr++) {
        for (int i = 0; i < nm; i++) order[i] = i;
        for (int i = nm - 1; i > 0; i--) {
            int j = (int)(rnd() % (uint64_t)(i + 1)), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        /* longest first (stable over the random order) */
        for (int i = 1; i < nm; i++) {
            int x = order[i], l = path_len(s, t, P, x), j = i - 1;
            while (j >= 0 && path_len(s, t, P, order[j]) < l) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
        int st = first_fit(s, t, P, order, pl, &o, maxs);
        if (st > 0 && (best < 0 || st < best)) {
            best = st;
            memcpy(bestpl, pl, (size_t)nm * sizeof *pl);
        }
        if (best == lower) break;
    }
    /* squeeze one step at a time while time allows */
    double deadline = now_s() + (nm > 1000 ? 20.0 : 5.0);
    while (best > lower && best > 1) {
        memcpy(pl, bestpl, (size_t)nm * sizeof *pl);
        if (!squeeze(s, t, P, pl, best - 1, deadline)) break;
        best--;
        memcpy(bestpl, pl, (size_t)nm * sizeof *pl);
    }
    s->nxfers = 0;
    s->nsteps = 0;
    for (int m = 0; m < nm && best > 0; m++) {
        const sched_path *p = &sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest)->p[bestpl[m].path];
        set_route(coll_add(s, bestpl[m].step, s->msgs[m].origin, s->msgs[m].dest, m), p);
    }
    free(order);
    free(pl);
    free(bestpl);
    free(o.occ);
    return best;
}

/* ------------------------------------------------------- broadcast */

static int broadcast(coll_sched *s, const topo *t, const sched_paths *P)
{
    int n = s->nterms, nm = s->nmsgs, nch = sched_nchannels(t);
    unsigned char *hold = calloc((size_t)n * (size_t)nm, 1), *newh = calloc((size_t)n * (size_t)nm, 1);
    int *pairs = malloc((size_t)n * (size_t)nm * sizeof *pairs), np;
    occupancy o = {0};
    for (int m = 0; m < nm; m++) hold[s->msgs[m].origin * nm + m] = 1;
    s->nxfers = 0;
    s->nsteps = 0;
    int step = 0;
    for (;; step++) {
        np = 0;
        for (int r = 0; r < n; r++)
            for (int m = 0; m < nm; m++)
                if (s->to[r] && !hold[r * nm + m]) pairs[np++] = r * nm + m;
        if (!np) break;
        if (step > 4 * (n + nm) + 8) {
            step = -1;
            break;
        }
        for (int i = np - 1; i > 0; i--) {
            int j = (int)(rnd() % (uint64_t)(i + 1)), x = pairs[i];
            pairs[i] = pairs[j];
            pairs[j] = x;
        }
        occ_reset(&o, nch, 1);
        memcpy(newh, hold, (size_t)n * (size_t)nm);
        for (int i = 0; i < np; i++) {
            int r = pairs[i] / nm, m = pairs[i] % nm, off = (int)(rnd() % (uint64_t)n), placed = 0;
            if (newh[r * nm + m]) continue;
            for (int j = 0; j < n && !placed; j++) {
                int u = (j + off) % n;
                if (u == r || !hold[u * nm + m]) continue;
                const sched_paths *c = sched_paths_get(P, t, u, r);
                for (int pi = 0; pi < c->n; pi++)
                    if (path_free(&o, 0, &c->p[pi])) {
                        path_mark(&o, 0, &c->p[pi], 1);
                        set_route(coll_add(s, step, u, r, m), &c->p[pi]);
                        newh[r * nm + m] = 1;
                        placed = 1;
                        break;
                    }
            }
        }
        memcpy(hold, newh, (size_t)n * (size_t)nm);
    }
    free(hold);
    free(newh);
    free(pairs);
    free(o.occ);
    return step < 0 ? -1 : s->nsteps;
}

/* ------------------------------------- built-in algorithms, routed */

/* Routes a textbook algorithm's steps (coll_builtin) with free candidate
 * paths; a transfer that finds no free path moves to an extra step right
 * after (later steps shift, so causality is kept). */
static int route_builtin(coll_sched *s, const topo *t, const sched_paths *P, coll_algo algo)
{
    char err[200];
    coll_sched tree = *s;
    tree.nxfers = tree.cap = 0;
    tree.xf = NULL;
    tree.nsteps = 0;
    if (coll_builtin(&tree, t, algo, err, sizeof err)) {
        free(tree.xf);
        return -1;
    }
    /* a textbook step may need several conflict-free sub-steps ("layers") */
    int nch = sched_nchannels(t), layers_cap = 64;
    occupancy o = {0};
    s->nxfers = 0;
    s->nsteps = 0;
    int shift = 0;
    for (int st = 0; st < tree.nsteps; st++) {
        occ_reset(&o, nch, layers_cap);
        int used = 1;
        for (int x = 0; x < tree.nxfers; x++) {
            coll_xfer *f = &tree.xf[x];
            if (f->step != st) continue;
            const sched_paths *c = sched_paths_get(P, t, f->src, f->dst);
            int placed = 0;
            for (int L = 0; L < layers_cap && !placed; L++)
                for (int pi = 0; pi < c->n; pi++)
                    if (path_free(&o, L, &c->p[pi])) {
                        path_mark(&o, L, &c->p[pi], 1);
                        set_route(coll_add(s, st + shift + L, f->src, f->dst, f->msg), &c->p[pi]);
                        if (L + 1 > used) used = L + 1;
                        placed = 1;
                        break;
                    }
            if (!placed) {
                free(tree.xf);
                free(o.occ);
                return -1;
            }
        }
        shift += used - 1;
    }
    free(tree.xf);
    free(o.occ);
    char e[200];
    return coll_check(s, e, sizeof e) ? -1 : s->nsteps;
}

static void keep_best(coll_sched *s, coll_sched *best, int steps);

/* Reduce: the binomial tree; barrier: the better of the tree (reduce, then
 * broadcast) and the butterfly (power-of-two members). */
static int combining(coll_sched *s, const topo *t, const sched_paths *P)
{
    coll_sched best = {0};
    keep_best(s, &best, route_builtin(s, t, P, ALGO_TREE));
    if (s->op == OP_BARRIER) keep_best(s, &best, route_builtin(s, t, P, ALGO_RD));
    if (best.nsteps > 0) {
        if (s->cap < best.nxfers) {
            s->cap = best.nxfers;
            s->xf = realloc(s->xf, (size_t)s->cap * sizeof *s->xf);
        }
        memcpy(s->xf, best.xf, (size_t)best.nxfers * sizeof *best.xf);
        s->nxfers = best.nxfers;
        s->nsteps = best.nsteps;
    }
    free(best.xf);
    return best.nsteps > 0 ? best.nsteps : -1;
}

/* Keeps the shorter of the schedule in s and the one in best. */
static void keep_best(coll_sched *s, coll_sched *best, int steps)
{
    if (steps <= 0 || (best->nsteps > 0 && steps >= best->nsteps)) return;
    free(best->xf);
    best->xf = malloc((size_t)(s->nxfers + 1) * sizeof *best->xf);
    memcpy(best->xf, s->xf, (size_t)s->nxfers * sizeof *best->xf);
    best->nxfers = s->nxfers;
    best->nsteps = steps;
}

int sched_heuristic(coll_sched *s, const topo *t, const sched_paths *P, uint64_t seed, int tries)
{
    rs = seed * 0x9E3779B97F4A7C15ull + 1;
    sched_bound b;
    switch (s->op) {
    case OP_BCAST: case OP_ALLGATHER: case OP_MNB: {
        coll_sched best = {0};
        /* textbook algorithms first (a ring is optimal for all-to-all broadcast
         * when its hops are link-disjoint), then randomized greedy rounds */
        keep_best(s, &best, route_builtin(s, t, P, ALGO_RING));
        keep_best(s, &best, route_builtin(s, t, P, ALGO_TREE));
        keep_best(s, &best, route_builtin(s, t, P, ALGO_RD));
        for (int tr = 0; tr < tries; tr++) keep_best(s, &best, broadcast(s, t, P));
        if (best.nsteps > 0) {
            if (s->cap < best.nxfers) {
                s->cap = best.nxfers;
                s->xf = realloc(s->xf, (size_t)s->cap * sizeof *s->xf);
            }
            memcpy(s->xf, best.xf, (size_t)best.nxfers * sizeof *best.xf);
            s->nxfers = best.nxfers;
            s->nsteps = best.nsteps;
        }
        free(best.xf);
        return best.nsteps > 0 ? best.nsteps : -1;
    }
    case OP_REDUCE: case OP_BARRIER:
        return combining(s, t, P);
    default:
        sched_lower_bound(s, t, &b);
        return personalized(s, t, P, tries, b.value);
    }
}
