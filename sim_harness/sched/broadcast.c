/* broadcast.c - heuristic schedules for broadcast-type collectives (bcast,
 * allgather, mnb: any holder may forward a message from the step after it
 * arrived).
 *
 * Candidates: the textbook algorithms of coll_builtin (ring, binomial tree,
 * recursive doubling) with every logical step routed over free candidate
 * paths (a step that does not fit conflict-free is split), and randomized
 * greedy rounds: step by step, every still-missing (receiver, message) is
 * served, in random order, by some holder with a free path.  The shortest
 * schedule wins.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "util/cli.h"

/* one step's channel occupancy */
typedef struct {
    int nch, layers;
    unsigned char *busy; /* [layer * nch + channel] */
} layers;

static void layers_reset(layers *o, int nch, int n)
{
    if (n > o->layers || nch != o->nch) {
        o->busy = xrealloc(o->busy, (size_t)n * (size_t)nch);
        o->layers = n;
    }
    o->nch = nch;
    memset(o->busy, 0, (size_t)o->layers * (size_t)nch);
}

static int path_free(const layers *o, int L, const sched_path *p)
{
    for (int i = 0; i < p->nch; i++)
        if (o->busy[(size_t)L * (size_t)o->nch + (size_t)p->ch[i]]) return 0;
    return 1;
}

static void path_take(layers *o, int L, const sched_path *p)
{
    for (int i = 0; i < p->nch; i++) o->busy[(size_t)L * (size_t)o->nch + (size_t)p->ch[i]] = 1;
}

/* Keeps the shorter of the schedule in s and the one in best. */
void sched_keep_best(coll_sched *s, coll_sched *best, int steps)
{
    if (steps <= 0 || (best->nsteps > 0 && steps >= best->nsteps)) return;
    free(best->xf);
    best->xf = xmalloc((size_t)(s->nxfers + 1) * sizeof *best->xf);
    memcpy(best->xf, s->xf, (size_t)s->nxfers * sizeof *best->xf);
    best->nxfers = s->nxfers;
    best->nsteps = steps;
}

/* Puts best back into s; returns its steps or -1. */
int sched_take_best(coll_sched *s, coll_sched *best)
{
    if (best->nsteps > 0) {
        if (s->cap < best->nxfers) {
            s->cap = best->nxfers;
            s->xf = xrealloc(s->xf, (size_t)s->cap * sizeof *s->xf);
        }
        memcpy(s->xf, best->xf, (size_t)best->nxfers * sizeof *best->xf);
        s->nxfers = best->nxfers;
        s->nsteps = best->nsteps;
    }
    free(best->xf);
    best->xf = NULL;
    return best->nsteps > 0 ? best->nsteps : -1;
}

/* Routes a textbook algorithm's steps with free candidate paths; a logical
 * step that does not fit splits into several steps (later ones shift, so
 * causality is kept). */
int sched_route_builtin(coll_sched *s, const topo *t, sched_pathtab *P, coll_algo algo)
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
    int nch = sched_nchannels(t), cap = 64, shift = 0, rc = 0;
    layers o = {0};
    s->nxfers = 0;
    s->nsteps = 0;
    for (int st = 0; st < tree.nsteps && !rc; st++) {
        layers_reset(&o, nch, cap);
        int used = 1;
        for (int x = 0; x < tree.nxfers && !rc; x++) {
            coll_xfer *f = &tree.xf[x];
            if (f->step != st) continue;
            const sched_paths *c = sched_paths_get(P, t, f->src, f->dst);
            int placed = 0;
            for (int L = 0; L < cap && !placed; L++)
                for (int pi = 0; pi < c->n && !placed; pi++)
                    if (path_free(&o, L, &c->p[pi])) {
                        path_take(&o, L, &c->p[pi]);
                        sched_set_route(coll_add(s, st + shift + L, f->src, f->dst, f->msg), &c->p[pi]);
                        if (L + 1 > used) used = L + 1;
                        placed = 1;
                    }
            if (!placed) rc = -1;
        }
        shift += used - 1;
    }
    free(tree.xf);
    free(o.busy);
    if (rc) return -1;
    return coll_check(s, err, sizeof err) ? -1 : s->nsteps;
}

/* One randomized greedy round; at most `holders` holders are tried per
 * missing (receiver, message), so big networks stay fast. */
static int greedy(coll_sched *s, const topo *t, sched_pathtab *P, uint64_t *rs, int holders)
{
    int n = s->nterms, nm = s->nmsgs;
    unsigned char *hold = xcalloc((size_t)n * (size_t)nm, 1);
    int *hl = xmalloc((size_t)n * (size_t)nm * sizeof *hl), *nh = xcalloc((size_t)nm, sizeof *nh);
    int *pairs = xmalloc((size_t)n * (size_t)nm * sizeof *pairs),
        *fresh = xmalloc((size_t)n * (size_t)nm * sizeof *fresh);
    layers o = {0};
    for (int m = 0; m < nm; m++) {
        hold[s->msgs[m].origin * nm + m] = 1;
        hl[m * n + nh[m]++] = s->msgs[m].origin;
    }
    s->nxfers = 0;
    s->nsteps = 0;
    int step = 0;
    for (;; step++) {
        int np = 0, nf = 0;
        for (int r = 0; r < n; r++)
            for (int m = 0; m < nm; m++)
                if (s->to[r] && !hold[r * nm + m]) pairs[np++] = r * nm + m;
        if (!np) break;
        if (step > 4 * (n + nm) + 8) { /* cannot happen with a path between every pair; be safe */
            step = -1;
            break;
        }
        for (int i = np - 1; i > 0; i--) {
            int j = (int)(sched_rand(rs) % (uint64_t)(i + 1)), x = pairs[i];
            pairs[i] = pairs[j];
            pairs[j] = x;
        }
        layers_reset(&o, sched_nchannels(t), 1);
        for (int i = 0; i < np; i++) {
            int r = pairs[i] / nm, m = pairs[i] % nm, cnt = nh[m] < holders ? nh[m] : holders;
            int off = (int)(sched_rand(rs) % (uint64_t)nh[m]), placed = 0;
            for (int j = 0; j < cnt && !placed; j++) {
                int u = hl[m * n + (j + off) % nh[m]];
                const sched_paths *c = sched_paths_get(P, t, u, r);
                for (int pi = 0; pi < c->n && !placed; pi++)
                    if (path_free(&o, 0, &c->p[pi])) {
                        path_take(&o, 0, &c->p[pi]);
                        sched_set_route(coll_add(s, step, u, r, m), &c->p[pi]);
                        fresh[nf++] = r * nm + m;
                        placed = 1;
                    }
            }
        }
        for (int i = 0; i < nf; i++) { /* received this step: may forward from the next */
            int r = fresh[i] / nm, m = fresh[i] % nm;
            hold[r * nm + m] = 1;
            hl[m * n + nh[m]++] = r;
        }
    }
    free(hold);
    free(hl);
    free(nh);
    free(pairs);
    free(fresh);
    free(o.busy);
    return step < 0 ? -1 : s->nsteps;
}

int sched_broadcast(coll_sched *s, const topo *t, sched_pathtab *P, const sched_search *q, sched_result *r)
{
    coll_sched best = {0};
    uint64_t rs = q->seed * 0x9E3779B97F4A7C15ull + 1;
    /* a ring is optimal for all-to-all broadcast when its hops are link-disjoint */
    sched_keep_best(s, &best, sched_route_builtin(s, t, P, ALGO_RING));
    sched_keep_best(s, &best, sched_route_builtin(s, t, P, ALGO_TREE));
    sched_keep_best(s, &best, sched_route_builtin(s, t, P, ALGO_RD));
    r->greedy_steps = best.nsteps; /* the first constructive schedule: textbook or one greedy round */
    for (int tr = 0; tr < q->tries && best.nsteps != q->lower; tr++) {
        if (tr > 0 && sched_now() > q->deadline) { /* the safety net only */
            r->ended = "time";
            break;
        }
        int g = greedy(s, t, P, &rs, tr % 2 ? 8 : 1 << 30);
        if (tr == 0 && g > 0 && (r->greedy_steps <= 0 || g < r->greedy_steps)) r->greedy_steps = g;
        sched_keep_best(s, &best, g);
    }
    return sched_take_best(s, &best);
}
