/* sched.h - conflict-free step schedules for collectives (the model of
 * many-to-many-scheduling-octagon.txt): wormhole, full-duplex links,
 * k-port terminals, synchronized steps; in one step no two transfers share
 * a directed channel (injection, ejection or router link), so a terminal
 * injects and absorbs at most k messages; broadcast data may be forwarded
 * by any node that holds it from an earlier step.
 *
 * Personalized collectives (scatter, gather, alltoall, mns) send every
 * message straight from its origin to its destination (any candidate
 * path); broadcast collectives (bcast, allgather, mnb) may forward;
 * reduce and barrier combine along a binomial tree.
 */
#ifndef XNOC_SCHED_H
#define XNOC_SCHED_H

#include <stdint.h>
#include "coll/coll.h"
#include "topo.h"

/* One way of moving a message from terminal a to terminal b. */
typedef struct {
    int nch;
    int ch[COLL_MAX_HOPS + 2];     /* channel ids (see sched_channel_*) */
    int nports;
    int8_t ports[COLL_MAX_HOPS];   /* route: output port per router, last = ejection */
    int chan;                      /* injection channel at a */
} sched_path;

typedef struct {
    int n;
    sched_path *p;
} sched_paths;

/* Channel ids: injection (term, c), ejection (term, c), then links. */
int sched_nchannels(const topo *t);
int sched_channel_inj(const topo *t, int term, int c);
int sched_channel_ej(const topo *t, int term, int c);
int sched_channel_link(const topo *t, int link);
void sched_channel_name(const topo *t, int ch, char *buf, int len);

/* Candidate paths between every pair, minimal + up to `detour` extra hops. */
sched_paths *sched_paths_build(const topo *t, int detour);
const sched_paths *sched_paths_get(const sched_paths *all, const topo *t, int a, int b);
void sched_paths_free(sched_paths *all, const topo *t);

/* Lower bound terms. */
typedef struct {
    int ports_inject, ports_absorb;  /* per-terminal message counts / k */
    int log_bound;                   /* broadcast doubling: ceil(log_{k+1} N) */
    int cut_bound;                   /* max over router cuts of messages / capacity */
    int b0, b1, b2;                  /* the paper's cut widths (min cuts) */
    int paper;                       /* the paper's formula (eqs 2-11) */
    const char *largest;             /* name of the largest valid term */
    int value;                       /* the lower bound: max of the valid terms */
} sched_bound;

void sched_lower_bound(const coll_sched *s, const topo *t, sched_bound *b);
/* The paper's formulas, testable with given cut widths (eqs 2 and 6). */
int sched_paper_mnb(int M, int N);
int sched_paper_mns(int M, int N, int Q, int b0, int b1, int b2);

/* Schedule search.  Fills s->xf with routes.  Returns steps, or -1. */
typedef struct {
    int detour;
    int exact;              /* use the SAT solver to reach / prove the optimum */
    double time_limit;      /* seconds for the exact search */
    uint64_t seed;
    int progress;
} sched_opts;

typedef struct {
    int steps, lower_bound;
    int optimal;            /* 1 proven, 0 proven not at the bound, -1 unknown */
    int heuristic_steps;    /* before the exact search */
    int proven_impossible;  /* largest S proven infeasible (0 if none) */
    double seconds;
    long sat_vars, sat_clauses;
} sched_result;

int sched_heuristic(coll_sched *s, const topo *t, const sched_paths *P, uint64_t seed, int tries);
/* Is there a schedule with S steps?  1 yes (s filled), 0 no (proof), -1 unknown (time). */
int sched_sat(coll_sched *s, const topo *t, const sched_paths *P, int S, double time_limit, long *vars,
              long *clauses);
int sched_run(coll_sched *s, const topo *t, const sched_opts *o, sched_result *r);

/* Conflict-free check on top of coll_check(): every transfer's route is a
 * real path from src to dst, no channel is used twice in a step. */
int sched_verify(const coll_sched *s, const topo *t, char *err, int errlen);

#endif
