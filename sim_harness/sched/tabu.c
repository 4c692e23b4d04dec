/* tabu.c - the improving search for personalized collectives: squeeze a
 * conflict-free schedule of S+1 steps into S steps.
 *
 * Min-conflicts tabu search over (step, path) per message: messages of the
 * dropped step go to random steps, then repeatedly a conflicted message
 * moves to the (step, path) whose channels are least occupied, never
 * straight back to where it was (tabu), with a random move now and then
 * against plateaus.  The conflicted messages are kept in a lazy list (a
 * step-channel cell lists its occupants, so a move puts the messages it
 * collides with on the list), so one move costs O(steps x paths x hops)
 * rather than a pass over all messages; a full scan confirms success.
 * It stops after a budget of moves (deterministic: the same schedule on any
 * machine), or out of time at the wall-clock safety net.
 */
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "sched/sched.h"

typedef struct {
    const coll_sched *s;
    const topo *t;
    sched_pathtab *P;
    int nch;
    int *occ;          /* [step * nch + channel] transfers using it */
    int *head;         /* [step * nch + channel] first occupant node, -1 none */
    int *next;         /* [m * SLOTS + i] next node in the same cell */
    int *list, nl;     /* messages that may be conflicted, each once */
    unsigned char *in; /* [m] m is on the list */
} board;

static void push(board *b, int m)
{
    if (b->in[m]) return;
    b->in[m] = 1;
    b->list[b->nl++] = m;
}

static const sched_path *path_of(board *b, const sched_place *pl, int m)
{
    return &sched_paths_get(b->P, b->t, b->s->msgs[m].origin, b->s->msgs[m].dest)->p[pl[m].path];
}

/* Tabu tenure: a message may not return to the step it left for 1-3 moves;
 * 1 move in 20 is random.  Longer tenures (10 + 0.6 x conflicts, TabuCol's)
 * measured worse here: 18 instead of 17 steps on fat-octagon all-to-all. */
#define TENURE_MIN 1
#define TENURE_RAND 3
#define NOISE 20
#define SLOTS (COLL_MAX_HOPS + 2) /* channel slots per message: node m * SLOTS + i */

/* Adds (d = 1) or removes (d = -1) message m's path, keeping every cell's
 * occupants; on adding, the messages m now collides with go onto the list. */
static void mark(board *b, int m, int step, const sched_path *p, int d)
{
    for (int i = 0; i < p->nch; i++) {
        int j = step * b->nch + p->ch[i], node = m * SLOTS + i;
        b->occ[j] += d;
        if (d > 0) {
            for (int x = b->head[j]; x >= 0; x = b->next[x]) push(b, x / SLOTS);
            b->next[node] = b->head[j];
            b->head[j] = node;
            if (b->occ[j] > 1) push(b, m);
        } else {
            int *at = &b->head[j];
            while (*at != node) at = &b->next[*at];
            *at = b->next[node];
        }
    }
}

static int conflicted(board *b, const sched_place *pl, int m)
{
    const sched_path *p = path_of(b, pl, m);
    for (int i = 0; i < p->nch; i++)
        if (b->occ[pl[m].step * b->nch + p->ch[i]] > 1) return 1;
    return 0;
}

int sched_squeeze(const coll_sched *s, const topo *t, sched_pathtab *P, sched_place *pl, int S, long *moves,
                  double deadline, uint64_t *rs, int progress)
{
    int nm = s->nmsgs;
    size_t cells = (size_t)S * (size_t)sched_nchannels(t);
    board b = {s,
               t,
               P,
               sched_nchannels(t),
               xcalloc(cells, sizeof(int)),
               xmalloc(cells * sizeof(int)),
               xmalloc((size_t)nm * SLOTS * sizeof(int)),
               xmalloc((size_t)nm * sizeof(int)),
               0,
               xcalloc((size_t)nm, 1)};
    for (size_t j = 0; j < cells; j++) b.head[j] = -1;
    long *tabu = xcalloc((size_t)nm * (size_t)S, sizeof *tabu); /* [m * S + st]: m may not return before */
    for (int m = 0; m < nm; m++) {
        if (pl[m].step >= S) pl[m].step = (int)(sched_rand(rs) % (uint64_t)S);
        mark(&b, m, pl[m].step, path_of(&b, pl, m), 1);
    }
    long it = 0;
    int ok = 0; /* 1 solved, 0 the move budget ran out, -1 out of time */
    double last_report = sched_now();
    for (;;) {
        if (b.nl == 0) { /* the list ran dry: a full scan decides */
            for (int m = 0; m < nm; m++)
                if (conflicted(&b, pl, m)) push(&b, m);
            if (!b.nl) {
                ok = 1;
                break;
            }
        }
        if (it >= *moves) break; /* the budget: the same moves on any machine */
        if ((it & 255) == 0) {
            double now = sched_now();
            if (now > deadline) { /* the safety net only */
                ok = -1;
                break;
            }
            if (progress && now - last_report > 0.5) {
                cli_progress("sched: tabu search for %d steps: %d conflicted message(s), %ld moves", S, b.nl, it);
                last_report = now;
            }
        }
        int li = (int)(sched_rand(rs) % (uint64_t)b.nl), m = b.list[li];
        if (!conflicted(&b, pl, m)) { /* resolved meanwhile */
            b.list[li] = b.list[--b.nl];
            b.in[m] = 0;
            continue;
        }
        it++;
        const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
        mark(&b, m, pl[m].step, &c->p[pl[m].path], -1);
        int best = 1 << 30, bs = pl[m].step, bp = pl[m].path, ties = 0;
        for (int st = 0; st < S; st++)
            for (int pi = 0; pi < c->n; pi++) {
                if (st == pl[m].step && pi == pl[m].path) continue; /* m moves */
                int cost = 0;
                const sched_path *p = &c->p[pi];
                for (int i = 0; i < p->nch && cost <= best; i++) cost += b.occ[st * b.nch + p->ch[i]];
                if (cost > 0 && tabu[(long)m * S + st] > it) continue; /* tabu unless it solves m */
                if (cost < best) {
                    best = cost;
                    bs = st;
                    bp = pi;
                    ties = 1;
                } else if (cost == best && sched_rand(rs) % (uint64_t)++ties == 0) {
                    bs = st;
                    bp = pi;
                }
            }
        if (sched_rand(rs) % NOISE == 0) { /* noise: a random move now and then */
            bs = (int)(sched_rand(rs) % (uint64_t)S);
            bp = (int)(sched_rand(rs) % (uint64_t)c->n);
        }
        if (bs != pl[m].step) tabu[(long)m * S + pl[m].step] = it + TENURE_MIN + (long)(sched_rand(rs) % TENURE_RAND);
        pl[m].step = bs;
        pl[m].path = bp;
        mark(&b, m, bs, &c->p[bp], 1); /* m leaves the list lazily once conflict-free */
    }
    *moves -= it;
    free(b.occ);
    free(b.head);
    free(b.next);
    free(b.list);
    free(b.in);
    free(tabu);
    return ok;
}
