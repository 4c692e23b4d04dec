/* search.c - the schedule search: heuristic first (greedy + improving
 * search, heuristic.c), then, with --exact, the SAT solver from the lower
 * bound up: the first satisfiable S is the optimum (every smaller S was
 * proven impossible, or S is the lower bound).
 *
 * Time: --time-limit covers the whole run.  The improving search gets at
 * most 5 s (20 s beyond 1000 messages), a quarter of the limit with
 * --exact, since the SAT solver both finds and proves.
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
static void exact(coll_sched *s, const topo *t, sched_pathtab *P, const sched_opts *o, double t0, int h,
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
    for (int S = r->lower_bound; S < h; S++) {
        double left = o->time_limit - (sched_now() - t0);
        if (left <= 0) break;
        if (o->progress) cli_progress("sched: is there a schedule with %d steps? (SAT)", S);
        long v = 0, c = 0;
        int a = sched_sat(s, t, P, S, left, &v, &c);
        if (v > r->sat_vars) r->sat_vars = v;
        if (c > r->sat_clauses) r->sat_clauses = c;
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
        break; /* time is up or too large: unknown */
    }
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
    double improve = s->nmsgs > 1000 ? 20.0 : 5.0, limit = o->exact ? o->time_limit / 4 : o->time_limit;
    sched_search q = {
        .seed = o->seed,
        .tries = s->nmsgs > 2000  ? 2
                 : s->nmsgs > 300 ? 8
                                  : 40,
        .lower = b.value,
        .deadline = t0 + (improve < limit ? improve : limit),
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
    if (o->exact && h > b.value) exact(s, t, P, o, t0, h, r);
    r->paths_capped = sched_paths_capped(P);
    sched_paths_free(P, t);
    r->seconds = sched_now() - t0;
    return r->steps;
}
