/* heuristic.c - fast schedules for any size.
 *
 * Personalized collectives: first-fit decreasing (longest paths first, ties
 * random) into the earliest step where some candidate path is free, from
 * several random orders; then the tabu search (tabu.c) squeezes the best
 * of them one step at a time while its budget of moves lasts.
 * Broadcast and combining collectives: broadcast.c.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "util/cli.h"

/* channel occupancy of the steps used so far, grown on demand */
typedef struct {
    int nch, steps;
    unsigned char *busy; /* [step * nch + channel] */
} occupancy;

static int path_free(occupancy *o, int step, const sched_path *p)
{
    if (step >= o->steps) {
        int ns = o->steps ? 2 * o->steps : 16;
        while (ns <= step) ns *= 2;
        o->busy = xrealloc(o->busy, (size_t)ns * (size_t)o->nch);
        memset(o->busy + (size_t)o->steps * (size_t)o->nch, 0, (size_t)(ns - o->steps) * (size_t)o->nch);
        o->steps = ns;
    }
    for (int i = 0; i < p->nch; i++)
        if (o->busy[(size_t)step * (size_t)o->nch + (size_t)p->ch[i]]) return 0;
    return 1;
}

/* the injection or the ejection channel of p is taken in step st */
static int busy_end(const occupancy *o, int st, const sched_path *p)
{
    const unsigned char *b = o->busy + (size_t)st * (size_t)o->nch;
    return b[p->ch[0]] || b[p->ch[p->nch - 1]];
}

static void path_take(occupancy *o, int step, const sched_path *p)
{
    for (int i = 0; i < p->nch; i++) o->busy[(size_t)step * (size_t)o->nch + (size_t)p->ch[i]] = 1;
}

/* Earliest step with a free candidate path, for each message in order. */
static int first_fit(const coll_sched *s, const topo *t, sched_pathtab *P, const int *order, sched_place *pl,
                     uint64_t *rs)
{
    occupancy o = {sched_nchannels(t), 0, NULL};
    int steps = 0;
    for (int i = 0; i < s->nmsgs; i++) {
        int m = order[i];
        const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
        if (!c->n) {
            steps = -1;
            break;
        }
        /* a message's channels are all free in some step past the last used one */
        for (int st = 0, done = 0; !done; st++) {
            int off = (int)(sched_rand(rs) % (uint64_t)c->n);
            for (int j = 0; j < c->n; j++) {
                int pi = (j + off) % c->n;
                if (!path_free(&o, st, &c->p[pi])) {
                    if (t->k == 1 && busy_end(&o, st, &c->p[pi])) break; /* every variant shares them */
                    continue;
                }
                path_take(&o, st, &c->p[pi]);
                pl[m] = (sched_place){st, pi};
                if (st + 1 > steps) steps = st + 1;
                done = 1;
                break;
            }
        }
    }
    free(o.busy);
    return steps;
}

static int route_len(const coll_sched *s, const topo *t, sched_pathtab *P, int m)
{
    const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
    return c->n ? c->p[0].nch : 0;
}

static void shuffle_longest_first(int nm, int *order, const int *len, uint64_t *rs)
{
    for (int i = 0; i < nm; i++) order[i] = i;
    for (int i = nm - 1; i > 0; i--) {
        int j = (int)(sched_rand(rs) % (uint64_t)(i + 1)), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    /* stable counting sort by decreasing length keeps the random tie order */
    int maxl = 0;
    for (int m = 0; m < nm; m++)
        if (len[m] > maxl) maxl = len[m];
    int *cnt = xcalloc((size_t)maxl + 2, sizeof *cnt), *out = xmalloc((size_t)nm * sizeof *out);
    for (int i = 0; i < nm; i++) cnt[maxl - len[order[i]] + 1]++;
    for (int l = 1; l <= maxl + 1; l++) cnt[l] += cnt[l - 1];
    for (int i = 0; i < nm; i++) out[cnt[maxl - len[order[i]]]++] = order[i];
    memcpy(order, out, (size_t)nm * sizeof *order);
    free(cnt);
    free(out);
}

/* The default budget of tabu moves: SCHED_DEFAULT_MOVES, fewer where a
 * move costs more.  A move weighs every (step, candidate path) of the
 * message, each channel by channel, so its cost is about steps x the
 * channels of the message's candidate paths; SCHED_MOVE_WORK of those
 * units is some 10-20 s of CPU (mesh:8x8 all-to-all: 407,916 moves, 13 s). */
static long default_moves(const coll_sched *s, const topo *t, sched_pathtab *P, int steps)
{
    double ch = 0;
    for (int m = 0; m < s->nmsgs; m++) {
        const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
        for (int pi = 0; pi < c->n; pi++) ch += c->p[pi].nch;
    }
    double per_move = (ch / (s->nmsgs ? s->nmsgs : 1)) * (steps > 1 ? steps : 1);
    double n = SCHED_MOVE_WORK / per_move;
    return n < SCHED_DEFAULT_MOVES ? (long)n + 1 : SCHED_DEFAULT_MOVES;
}

static int personalized(coll_sched *s, const topo *t, sched_pathtab *P, const sched_search *q, sched_result *r)
{
    int nm = s->nmsgs, best = -1;
    int *order = xmalloc((size_t)nm * sizeof *order), *len = xmalloc((size_t)nm * sizeof *len);
    sched_place *pl = xmalloc((size_t)nm * sizeof *pl), *bestpl = xmalloc((size_t)nm * sizeof *pl);
    uint64_t rs = q->seed * 0x9E3779B97F4A7C15ull + 1;
    for (int m = 0; m < nm; m++) len[m] = route_len(s, t, P, m);
    for (int tr = 0; tr < q->tries; tr++) {
        if (tr > 0 && sched_now() > q->deadline) { /* the safety net only */
            r->ended = "time";
            break;
        }
        shuffle_longest_first(nm, order, len, &rs);
        int st = first_fit(s, t, P, order, pl, &rs);
        if (st < 0) break;
        if (best < 0 || st < best) {
            best = st;
            memcpy(bestpl, pl, (size_t)nm * sizeof *pl);
        }
        if (best <= q->lower) break;
    }
    r->greedy_steps = best;
    long moves = q->moves > 0 ? q->moves : q->moves < 0 ? 0 : default_moves(s, t, P, best);
    r->move_budget = moves;
    /* squeeze one step at a time while the budget of moves lasts */
    while (best > q->lower && best > 1 && !r->ended) {
        memcpy(pl, bestpl, (size_t)nm * sizeof *pl);
        int ok = sched_squeeze(s, t, P, pl, best - 1, &moves, q->deadline, &rs, q->progress);
        if (ok < 0) r->ended = "time";
        if (ok <= 0) break;
        best--;
        memcpy(bestpl, pl, (size_t)nm * sizeof *pl);
    }
    r->moves = r->move_budget - moves;
    s->nxfers = 0;
    s->nsteps = 0;
    for (int m = 0; m < nm && best > 0; m++) {
        const sched_path *p = &sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest)->p[bestpl[m].path];
        sched_set_route(coll_add(s, bestpl[m].step, s->msgs[m].origin, s->msgs[m].dest, m), p);
    }
    free(order);
    free(len);
    free(pl);
    free(bestpl);
    return best;
}

int sched_heuristic(coll_sched *s, const topo *t, sched_pathtab *P, const sched_search *q, sched_result *r)
{
    switch (s->op) {
    case OP_BCAST:
    case OP_ALLGATHER:
    case OP_MNB: return sched_broadcast(s, t, P, q, r);
    case OP_REDUCE:
    case OP_BARRIER: return sched_combining(s, t, P, q, r);
    default: return personalized(s, t, P, q, r);
    }
}
