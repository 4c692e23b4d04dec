/* sat.c - "is there a schedule with S steps?" as CNF for CaDiCaL.
 *
 * Personalized collectives: x(m, p, s) = message m goes in step s along
 * candidate path p.  Every message is sent at least once; every channel
 * carries at most one transfer per step (sequential-counter at-most-one).
 * With k = 1, the messages of the busiest source all need its one injection
 * channel, so they are pairwise in different steps: message i of that source
 * is fixed to step i (steps are interchangeable: no loss of solutions).
 *
 * Broadcast collectives: x(m, u, v, p, s) = holder u forwards message m to v
 * in step s along p; h(m, v, s) = v holds m after step s.  A send needs
 * the sender to hold the message after the previous step; holding needs an
 * earlier holding or a delivery in this step; every receiver holds every
 * message it needs after step S-1.
 */
#include <ccadical.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "sched/sched.h"

typedef struct {
    CCaDiCaL *s;
    int nvars;
    long nclauses;
} cnf;

static int newvar(cnf *c) { return ++c->nvars; }
static void add(cnf *c, int lit)
{
    ccadical_add(c->s, lit);
    if (!lit) c->nclauses++;
}

/* at most one of lits[0..n-1] (sequential counter for long lists) */
static void amo(cnf *c, const int *l, int n)
{
    if (n <= 1) return;
    if (n <= 5) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                add(c, -l[i]);
                add(c, -l[j]);
                add(c, 0);
            }
        return;
    }
    int prev = 0;
    for (int i = 0; i < n; i++) {
        int s = newvar(c);
        add(c, -l[i]); /* l_i -> s_i */
        add(c, s);
        add(c, 0);
        if (prev) {
            add(c, -prev); /* s_{i-1} -> s_i */
            add(c, s);
            add(c, 0);
            add(c, -prev); /* s_{i-1} -> not l_i */
            add(c, -l[i]);
            add(c, 0);
        }
        prev = s;
    }
}

/* per (step, channel): the variables that use it */
typedef struct {
    int *v;
    int n, cap;
} vlist;

static void push(vlist *L, int v)
{
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 8;
        L->v = xrealloc(L->v, (size_t)L->cap * sizeof *L->v);
    }
    L->v[L->n++] = v;
}

/* The solver's stopping rules: a budget of conflicts (CaDiCaL's own
 * "conflicts" limit, deterministic: the same search on any machine) and the
 * wall-clock deadline, only a safety net (terminate callback). */
typedef struct {
    double deadline;
    int out_of_time;
    long learned; /* clauses learned: one per conflict analysed (CaDiCaL resolves
                     a few conflicts by backtracking alone, so a lower bound) */
    int S;        /* the question: a schedule of S steps? */
    long budget;  /* its conflict budget */
} stopping;

static sched_sat_progress sat_prog; /* sched_sat_set_progress */

void sched_sat_set_progress(const sched_sat_progress *p)
{
    if (p) sat_prog = *p;
    else memset(&sat_prog, 0, sizeof sat_prog);
}

static int terminate_cb(void *state)
{
    stopping *st = state;
    if (sched_now() > st->deadline) st->out_of_time = 1;
    /* CaDiCaL asks often: the progress line (throttled by cli_progress, a line every 5 s at least
     * while it solves) says which question and how far into its budget */
    if (sat_prog.on)
        cli_progress("sched: SAT question %d: a schedule of %d steps? (%ld of %ld conflicts so far)",
                     st->S - sat_prog.lower_bound + 1, st->S, st->learned, st->budget);
    return st->out_of_time;
}

static void learn_cb(void *state, int *clause)
{
    (void)clause;
    ((stopping *)state)->learned++;
}

static int broadcast_type(coll_op op) { return op == OP_BCAST || op == OP_ALLGATHER || op == OP_MNB; }

/* Variables the CNF for S steps would have (path variables plus one
 * sequential-counter variable per channel use), to refuse hopeless sizes
 * before building anything. */
static double estimate_vars(const coll_sched *s, const topo *t, sched_pathtab *P, int S)
{
    double v = 0;
    int n = s->nterms;
    if (!broadcast_type(s->op)) {
        for (int m = 0; m < s->nmsgs; m++) {
            const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
            for (int pi = 0; pi < c->n; pi++) v += (double)S * (1 + c->p[pi].nch);
        }
        return v;
    }
    double into = 0; /* path variables into all members, per message and step */
    for (int u = 0; u < n; u++)
        for (int w = 0; w < n && (s->from[u] || s->to[u]); w++) {
            if (u == w || !(s->from[w] || s->to[w])) continue;
            const sched_paths *c = sched_paths_get(P, t, u, w);
            for (int pi = 0; pi < c->n; pi++) into += 1 + c->p[pi].nch;
        }
    return (double)s->nmsgs * S * (into + n);
}

typedef struct {
    int var, m, u, v, p, s;
} xvar;

/* at least one of the variables using channel ch, in every step */
static void busy_every_step(cnf *c, const vlist *use, int S, int nch, int ch)
{
    for (int st = 0; st < S; st++) {
        const vlist *L = &use[st * nch + ch];
        for (int i = 0; i < L->n; i++) add(c, L->v[i]);
        add(c, 0);
    }
}

/* Implied clauses that spare the solver a counting argument (CDCL is weak
 * at pigeonhole reasoning): a terminal with k*S messages to send (receive)
 * uses each of its channels in every step, and when the messages that must
 * cross a router cut fill its links in all S steps, every crossing link
 * carries one in every step.  Both follow from the constraints, so they
 * change no answer, only the time to it. */
static void tight_channels(cnf *c, const coll_sched *s, const topo *t, int S, const vlist *use, int nch)
{
    int n = s->nterms, *inj = xcalloc((size_t)n, sizeof *inj), *ej = xcalloc((size_t)n, sizeof *ej);
    for (int m = 0; m < s->nmsgs; m++) {
        inj[s->msgs[m].origin]++;
        ej[s->msgs[m].dest]++;
    }
    for (int i = 0; i < n; i++)
        for (int ch = 0; ch < t->k; ch++) {
            if (inj[i] == t->k * S) busy_every_step(c, use, S, nch, sched_channel_inj(t, i, ch));
            if (ej[i] == t->k * S) busy_every_step(c, use, S, nch, sched_channel_ej(t, i, ch));
        }
    free(inj);
    free(ej);
    int R = t->nrouters;
    if (R > 16) return;
    unsigned char *inA = xcalloc((size_t)R, 1);
    for (unsigned long mask = 1; mask + 1 < 1ul << R; mask++) {
        for (int r = 0; r < R; r++) inA[r] = (mask >> r) & 1;
        int cap, demand = sched_cut_demand(s, t, inA, &cap);
        if (!demand || demand != cap * S) continue;
        for (int l = 0; l < t->nlinks; l++)
            if (inA[t->links[l].src] && !inA[t->links[l].dst])
                busy_every_step(c, use, S, nch, sched_channel_link(t, l));
    }
    free(inA);
}

int sched_sat(coll_sched *s, const topo *t, sched_pathtab *P, int S, long *conflicts, double deadline, long *vars,
              long *clauses, long *learned)
{
    int n = s->nterms, nm = s->nmsgs, nch = sched_nchannels(t);
    int bcast = broadcast_type(s->op);
    if (estimate_vars(s, t, P, S) > SCHED_MAX_SAT_VARS) return -2;
    stopping stop = {deadline, 0, 0, S, 0};
    cnf c = {ccadical_init(), 0, 0};
    /* false first: most path variables are false in any schedule; measured
     * on fat-octagon all-to-all at 16 steps 43 s -> 2.6 s, UNSAT proofs
     * unchanged (docs/scheduling.md) */
    ccadical_set_option(c.s, "phase", 0);
    vlist *use = xcalloc((size_t)S * (size_t)nch, sizeof *use);
    xvar *xs = NULL;
    int nx = 0, capx = 0;
#define NEWX(M, U, V, PI, ST)                                                                                          \
    do {                                                                                                               \
        if (nx == capx) {                                                                                              \
            capx = capx ? 2 * capx : 1024;                                                                             \
            xs = xrealloc(xs, (size_t)capx * sizeof *xs);                                                              \
        }                                                                                                              \
        xs[nx] = (xvar){newvar(&c), M, U, V, PI, ST};                                                                  \
        const sched_path *pp_ = &sched_paths_get(P, t, U, V)->p[PI];                                                   \
        for (int i_ = 0; i_ < pp_->nch; i_++) push(&use[(ST)*nch + pp_->ch[i_]], xs[nx].var);                          \
        nx++;                                                                                                          \
    } while (0)

    if (!bcast) {
        /* symmetry breaking: the busiest source's messages in steps 0, 1, ... */
        int *cnt = xcalloc((size_t)n, sizeof *cnt), busiest = 0;
        for (int m = 0; m < nm; m++) cnt[s->msgs[m].origin]++;
        for (int i = 1; i < n; i++)
            if (cnt[i] > cnt[busiest]) busiest = i;
        int rank = 0;
        for (int m = 0; m < nm; m++) {
            const coll_msg *g = &s->msgs[m];
            const sched_paths *cand = sched_paths_get(P, t, g->origin, g->dest);
            int fixed = -1;
            if (t->k == 1 && g->origin == busiest) fixed = rank++;
            if (fixed >= S) { /* more messages than steps from one port: impossible */
                add(&c, 0);
                continue;
            }
            int first = nx;
            for (int st = 0; st < S; st++) {
                if (fixed >= 0 && st != fixed) continue;
                for (int pi = 0; pi < cand->n; pi++) NEWX(m, g->origin, g->dest, pi, st);
            }
            for (int i = first; i < nx; i++) add(&c, xs[i].var);
            add(&c, 0);
        }
        free(cnt);
    } else {
        /* h(m, v, s): index ((m * n) + v) * S + s */
        int *h = xmalloc((size_t)nm * (size_t)n * (size_t)S * sizeof *h);
        for (int i = 0; i < nm * n * S; i++) h[i] = newvar(&c);
        unsigned char *member = xcalloc((size_t)n, 1);
        for (int i = 0; i < n; i++) member[i] = s->from[i] || s->to[i];
        for (int m = 0; m < nm; m++) {
            int o = s->msgs[m].origin;
            for (int v = 0; v < n; v++) {
                if (!member[v] || v == o) continue;
                for (int st = 0; st < S; st++) {
                    int first = nx;
                    for (int u = 0; u < n; u++) {
                        if (u == v || !member[u] || (u != o && st == 0)) continue;
                        const sched_paths *cand = sched_paths_get(P, t, u, v);
                        for (int pi = 0; pi < cand->n; pi++) {
                            NEWX(m, u, v, pi, st);
                            if (u != o) { /* the sender must hold m already */
                                add(&c, -xs[nx - 1].var);
                                add(&c, h[(m * n + u) * S + st - 1]);
                                add(&c, 0);
                            }
                        }
                    }
                    /* holding after st needs holding after st-1 or a delivery in st */
                    add(&c, -h[(m * n + v) * S + st]);
                    if (st > 0) add(&c, h[(m * n + v) * S + st - 1]);
                    for (int i = first; i < nx; i++) add(&c, xs[i].var);
                    add(&c, 0);
                }
                if (s->to[v]) {
                    add(&c, h[(m * n + v) * S + S - 1]);
                    add(&c, 0);
                }
            }
        }
        free(h);
        free(member);
    }
    for (int i = 0; i < S * nch; i++) amo(&c, use[i].v, use[i].n);
    if (!bcast) tight_channels(&c, s, t, S, use, nch);

    if (*conflicts <= 0) { /* the default: about the same CPU time whatever the CNF's size */
        double d = SCHED_CONFLICT_WORK / (double)(c.nclauses ? c.nclauses : 1);
        *conflicts = d < SCHED_MAX_DEFAULT_CONFLICTS ? (long)d + 1 : SCHED_MAX_DEFAULT_CONFLICTS;
    }
    stop.budget = *conflicts;
    ccadical_set_terminate(c.s, &stop, terminate_cb);
    ccadical_set_learn(c.s, &stop, INT_MAX, learn_cb);
    ccadical_limit(c.s, "conflicts", *conflicts < INT_MAX ? (int)*conflicts : INT_MAX);
    int r = ccadical_solve(c.s);
    if (vars) *vars = c.nvars;
    if (clauses) *clauses = c.nclauses;
    if (learned) *learned = stop.learned;
    int answer = r == 10 ? 1 : r == 20 ? 0 : stop.out_of_time ? -3 : -1;
    if (answer == 1) {
        s->nxfers = 0;
        s->nsteps = 0;
        if (!bcast) {
            unsigned char *sent = xcalloc((size_t)nm, 1);
            for (int i = 0; i < nx; i++)
                if (!sent[xs[i].m] && ccadical_val(c.s, xs[i].var) > 0) {
                    sent[xs[i].m] = 1;
                    sched_set_route(coll_add(s, xs[i].s, xs[i].u, xs[i].v, xs[i].m),
                                    &sched_paths_get(P, t, xs[i].u, xs[i].v)->p[xs[i].p]);
                }
            free(sent);
        } else {
            /* keep each (message, receiver)'s first delivery, in step order */
            unsigned char *got = xcalloc((size_t)nm * (size_t)n, 1);
            for (int st = 0; st < S; st++)
                for (int i = 0; i < nx; i++) {
                    xvar *x = &xs[i];
                    if (x->s != st || got[x->m * n + x->v] || ccadical_val(c.s, x->var) <= 0) continue;
                    got[x->m * n + x->v] = 1;
                    sched_set_route(coll_add(s, st, x->u, x->v, x->m), &sched_paths_get(P, t, x->u, x->v)->p[x->p]);
                }
            free(got);
        }
        s->nsteps = S;
    }
    for (int i = 0; i < S * nch; i++) free(use[i].v);
    free(use);
    free(xs);
    ccadical_release(c.s);
    return answer;
}
