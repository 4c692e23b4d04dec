/* search.c - heuristic first, then the SAT solver from the lower bound up:
 * the first S that is satisfiable is the optimum (every smaller S was
 * proven impossible, or S is the lower bound). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "sched/sched.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int sched_run(coll_sched *s, const topo *t, const sched_opts *o, sched_result *r)
{
    double t0 = now_s();
    memset(r, 0, sizeof *r);
    sched_bound b;
    sched_lower_bound(s, t, &b);
    r->lower_bound = b.value;
    sched_paths *P = sched_paths_build(t, o->detour);
    for (int m = 0; m < s->nmsgs; m++) {   /* every pair that must talk has a path */
        int a = s->msgs[m].origin, d = s->msgs[m].dest;
        if (d >= 0 && !sched_paths_get(P, t, a, d)->n) {
            sched_paths_free(P, t);
            return -1;
        }
    }
    int tries = s->nmsgs > 2000 ? 2 : s->nmsgs > 300 ? 8 : 40;
    int h = sched_heuristic(s, t, P, o->seed, tries);
    r->heuristic_steps = h;
    r->steps = h;
    r->optimal = h == b.value ? 1 : -1;
    int combining = s->op == OP_REDUCE || s->op == OP_BARRIER;
    if (o->exact && !combining && h > b.value) {
        coll_sched keep = *s;
        keep.xf = malloc((size_t)(s->nxfers + 1) * sizeof *keep.xf);
        memcpy(keep.xf, s->xf, (size_t)s->nxfers * sizeof *keep.xf);
        int found = 0;
        for (int S = b.value; S < h; S++) {
            double left = o->time_limit - (now_s() - t0);
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
            break;   /* time is up: unknown */
        }
        if (!found) {
            /* back to the heuristic schedule */
            memcpy(s->xf, keep.xf, (size_t)keep.nxfers * sizeof *keep.xf);
            s->nxfers = keep.nxfers;
            s->nsteps = h;
            if (r->proven_impossible == h - 1) r->optimal = 1;
        }
        free(keep.xf);
        if (o->progress) cli_progress_done();
    }
    sched_paths_free(P, t);
    r->seconds = now_s() - t0;
    return r->steps;
}
