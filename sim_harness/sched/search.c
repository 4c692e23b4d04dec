/* search.c - the schedule search: heuristic first (greedy + improving
 * search, heuristic.c), then, with --exact, the SAT solver from the lower
 * bound up: the first satisfiable S is the optimum (every smaller S was
 * proven impossible, or S is the lower bound).
 *
 * Budgets (sched.h): the improving search stops after its tabu moves (over
 * the whole run), each SAT question after its conflicts, so the answer is
 * the same on any machine.  --time-limit is a safety net over
 * the whole run: when it passes first, the result says "time" (out of time)
 * and the caller must not present it as the budget's answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "sched/sched.h"

static int broadcast_type(coll_op op) { return op == OP_BCAST || op == OP_ALLGATHER || op == OP_MNB; }

int sched_check_size(const coll_sched *s, char *err, int errlen)
{
    long receivers = 0, work;
    for (int i = 0; i < s->nterms; i++) receivers += s->to[i];
    work = broadcast_type(s->op) ? (long)s->nmsgs * receivers : (long)s->nmsgs;
    if (s->op == OP_BARRIER || s->op == OP_REDUCE) work = s->nterms;
    if (work <= SCHED_MAX_DELIVERIES) return 0;
    snprintf(err, (size_t)errlen, "%s needs %ld (receiver, message) deliveries; xnoc sched schedules at most %ld",
             coll_op_name(s->op), work, SCHED_MAX_DELIVERIES);
    return -1;
}

/* The exact search from the bound up to h-1 steps; keeps s when nothing better. */
static void exact(coll_sched *s, const topo *t, sched_pathtab *P, const sched_opts *o, double deadline, int h,
                  sched_result *r)
{
    if (s->op == OP_REDUCE || s->op == OP_BARRIER) {
        r->sat_skipped = "no exact encoding for combining collectives";
        return;
    }
    coll_sched keep = *s;
    keep.xf = xmalloc((size_t)(s->nxfers + 1) * sizeof *keep.xf);
    memcpy(keep.xf, s->xf, (size_t)s->nxfers * sizeof *keep.xf);
    int found = 0;
    r->conflict_budget = o->conflicts; /* 0: sched_sat sets the default from the first CNF */
    sched_sat_set_progress(&(sched_sat_progress){o->progress, r->lower_bound});
    for (int S = r->lower_bound; S < h; S++) {
        if (sched_now() > deadline) {
            r->ended = "time";
            break;
        }
        if (o->progress) cli_progress("sched: is there a schedule with %d steps? (SAT)", S);
        long v = 0, c = 0, l = 0;
        int a = sched_sat(s, t, P, S, &r->conflict_budget, deadline, &v, &c, &l);
        if (v > r->sat_vars) r->sat_vars = v;
        if (c > r->sat_clauses) r->sat_clauses = c;
        r->sat_learned += l;
        if (r->nquestions < SCHED_MAX_QUESTIONS)
            r->q[r->nquestions] = (sched_question){S,
                                                   a == 1    ? "yes"
                                                   : a == 0  ? "no"
                                                   : a == -1 ? "budget"
                                                   : a == -3 ? "time"
                                                             : "too large",
                                                   l};
        r->nquestions++;
        if (a == 1) {
            r->steps = S;
            r->optimal = 1;
            found = 1;
            break;
        }
        if (a == 0) {
            r->proven_impossible = S;
            continue;
        }
        if (a == -2) r->sat_skipped = "the CNF would be too large";
        if (a == -3) r->ended = "time";
        break; /* the budget or the time ran out, or too large: unknown */
    }
    sched_sat_set_progress(NULL);
    if (!found) { /* back to the heuristic schedule */
        memcpy(s->xf, keep.xf, (size_t)keep.nxfers * sizeof *keep.xf);
        s->nxfers = keep.nxfers;
        s->nsteps = h;
        if (r->proven_impossible == h - 1) r->optimal = 1;
        else if (r->proven_impossible) r->optimal = 0;
    }
    free(keep.xf);
    if (o->progress) cli_progress_done();
}

int sched_run(coll_sched *s, const topo *t, const sched_opts *o, sched_result *r)
{
    double t0 = sched_now();
    memset(r, 0, sizeof *r);
    r->time_limit = o->time_limit > 0 ? o->time_limit : SCHED_DEFAULT_TIME_LIMIT;
    double deadline = t0 + r->time_limit;
    sched_bound b;
    sched_lower_bound(s, t, &b);
    r->lower_bound = b.value;
    s->detour = o->detour; /* recorded in the schedule file: --verify checks minimality against it */
    sched_pathtab *P = sched_paths_build(t, o->detour);
    for (int m = 0; m < s->nmsgs; m++) { /* every pair that must talk has a path */
        int a = s->msgs[m].origin, d = s->msgs[m].dest;
        if (d >= 0 && !sched_paths_get(P, t, a, d)->n) {
            sched_paths_free(P, t);
            return -1;
        }
    }
    sched_search q = {
        .seed = o->seed,
        .tries = s->nmsgs > 2000  ? 2
                 : s->nmsgs > 300 ? 8
                                  : 40,
        .lower = b.value,
        .moves = o->moves,
        .deadline = deadline,
        .progress = o->progress,
    };
    int h = sched_heuristic(s, t, P, &q, r);
    if (o->progress) cli_progress_done();
    if (h < 0) {
        sched_paths_free(P, t);
        return -1;
    }
    r->heuristic_steps = h;
    r->steps = h;
    r->optimal = h == b.value ? 1 : -1;
    if (o->exact && h > b.value && !r->ended) exact(s, t, P, o, deadline, h, r);
    /* a proof stands even if the clock ran out meanwhile; otherwise "time" wins */
    if (r->optimal == 1) r->ended = "proof";
    else if (!r->ended) r->ended = "budget";
    r->paths_capped = sched_paths_capped(P);
    sched_paths_free(P, t);
    r->seconds = sched_now() - t0;
    return r->steps;
}
