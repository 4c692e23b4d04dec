/* sched.h - conflict-free step schedules for collectives (the model of the
 * many-to-many scheduling paper on the octagon, docs/scheduling.md): wormhole, full-duplex links,
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
#include "net/topo.h"

/* One way of moving a message from terminal a to terminal b. */
typedef struct {
    int nch;
    int16_t ch[COLL_MAX_HOPS + 2]; /* channel ids (see sched_channel_*), < 2^15 for any topo.h network */
    int nports;
    int8_t ports[COLL_MAX_HOPS]; /* route: output port per router, last = ejection */
    int chan;                    /* injection channel at a */
} sched_path;

/* The candidate paths from one terminal to another. */
typedef struct {
    int n;
    sched_path *p;
} sched_paths;

/* Candidate paths of every pair, built on first use (paths.c). */
typedef struct sched_pathtab sched_pathtab;
/* Variants (route x injection x ejection channel) kept per pair at most. */
#define SCHED_MAX_VARIANTS 64

/* Channel ids: injection (term, c), ejection (term, c), then links. */
int sched_nchannels(const topo *t);
int sched_channel_inj(const topo *t, int term, int c);
int sched_channel_ej(const topo *t, int term, int c);
int sched_channel_link(const topo *t, int link);
void sched_channel_name(const topo *t, int ch, char *buf, int len);

/* Candidate paths between every pair, minimal + up to `detour` extra hops. */
sched_pathtab *sched_paths_build(const topo *t, int detour);
const sched_paths *sched_paths_get(sched_pathtab *P, const topo *t, int a, int b);
/* 1 if some pair had more routes than SCHED_MAX_VARIANTS and was sampled. */
int sched_paths_capped(const sched_pathtab *P);
void sched_paths_free(sched_pathtab *P, const topo *t);

/* Lower bound terms. */
typedef struct {
    int ports_inject, ports_absorb; /* per-terminal message counts / k */
    int log_bound;                  /* broadcast doubling: ceil(log_{k+1} N) */
    int cut_bound;                  /* max over router cuts of messages / capacity */
    int b0, b1, b2;                 /* the paper's cut widths (min cuts) */
    int paper;                      /* the paper's formula (eqs 2-11) */
    const char *largest;            /* name of the largest valid term */
    int value;                      /* the lower bound: max of the valid terms */
} sched_bound;

void sched_lower_bound(const coll_sched *s, const topo *t, sched_bound *b);
/* Messages that must cross from the routers with inA[r] = 1 to the others;
 * *cap = the links from A to the others. */
int sched_cut_demand(const coll_sched *s, const topo *t, const unsigned char *inA, int *cap);
/* The paper's formulas, testable with given cut widths (eqs 2 and 6). */
int sched_paper_mnb(int M, int N);
int sched_paper_mns(int M, int N, int Q, int b0, int b1, int b2);

/* Schedule search.  Fills s->xf with routes.  Returns steps, or -1.
 *
 * Budgets: the search stops on deterministic budgets - tabu moves for the
 * improving search, SAT conflicts for each question of the exact search -
 * so that the same question gets the same answer on a fast or a slow, idle
 * or busy machine.  The wall-clock time_limit is only a safety net: a search
 * stopped by it reports ended = "time" (out of time), and its answer must
 * not be taken as the budgets' answer.  0 in a budget field: the default. */
#define SCHED_DEFAULT_MOVES 2000000L /* tabu moves, all squeezes together, */
#define SCHED_MOVE_WORK 1e10         /* fewer where moves cost more (heuristic.c) */
/* SAT conflicts per question "is there a schedule with S steps?": by default
 * SCHED_CONFLICT_WORK / the clauses of the first question's CNF (a conflict
 * costs about the clauses' count: some 1-2 minutes of CPU), at most
 * SCHED_MAX_DEFAULT_CONFLICTS */
#define SCHED_CONFLICT_WORK 1.2e11
#define SCHED_MAX_DEFAULT_CONFLICTS 1000000L
#define SCHED_DEFAULT_TIME_LIMIT 1800.0 /* seconds: the safety net */
#define SCHED_MAX_QUESTIONS 32          /* SAT questions recorded in sched_result */
typedef struct {
    int detour;
    int exact;         /* use the SAT solver to reach / prove the optimum */
    long moves;        /* tabu moves for the improving search (0: the default, -1: none) */
    long conflicts;    /* SAT conflicts for each question of the exact search (0: the default) */
    double time_limit; /* safety net in seconds for the whole search (0: the default) */
    uint64_t seed;
    int progress;
} sched_opts;

/* One question to the SAT solver and its answer. */
typedef struct {
    int steps;
    const char *answer; /* "yes", "no", "budget" (conflicts ran out), "time", "too large" */
    long learned;       /* clauses learned: one per conflict analysed */
} sched_question;

typedef struct {
    int steps, lower_bound;
    int optimal;             /* 1 proven optimal; 0 the bound is proven unreachable
                               but the optimum is not settled; -1 unknown */
    int greedy_steps;        /* the first constructive (greedy) schedule */
    int heuristic_steps;     /* after the improving search, before SAT */
    int proven_impossible;   /* largest S proven infeasible (0 if none) */
    int paths_capped;        /* some pair's candidate routes were sampled */
    const char *sat_skipped; /* why the exact search did not run, or NULL */
    const char *ended;       /* "proof" (steps proven optimal), "budget" (a deterministic
                                budget ran out first) or "time" (time_limit passed: out of time) */
    long moves;              /* tabu moves made */
    long move_budget;        /* the budgets in force (defaults filled in) */
    long conflict_budget;    /* per question; 0 if no question was asked */
    double time_limit;       /* the safety net in force */
    int nquestions;          /* SAT questions asked, the first SCHED_MAX_QUESTIONS in q */
    sched_question q[SCHED_MAX_QUESTIONS];
    double seconds;
    long sat_vars, sat_clauses; /* of the largest CNF */
    long sat_learned;           /* over all questions */
} sched_result;

int sched_run(coll_sched *s, const topo *t, const sched_opts *o, sched_result *r);

/* Limits: a bigger collective is refused (one line) rather than run for
 * hours; a bigger CNF is not built (the heuristic schedule stands). */
#define SCHED_MAX_DELIVERIES 200000L
#define SCHED_MAX_SAT_VARS 4000000L
/* 0, or -1 and one line in err if the collective is beyond the limits. */
int sched_check_size(const coll_sched *s, char *err, int errlen);

/* ---- internal to the search (heuristic.c, tabu.c, broadcast.c, combining.c, sat.c) */
typedef struct {
    uint64_t seed;
    int tries;       /* randomized constructive rounds */
    int lower;       /* stop early at this many steps */
    long moves;      /* tabu moves for the improving search, all squeezes together
                        (0: the default for the collective's size, -1: none) */
    double deadline; /* sched_now() safety net: past it the search stops out of time */
    int progress;
} sched_search;

typedef struct {
    int step, path;
} sched_place;

double sched_now(void);
uint64_t sched_rand(uint64_t *state);
void sched_set_route(coll_xfer *x, const sched_path *p);
/* The heuristics set r->ended = "time" when they stop at q->deadline. */
int sched_heuristic(coll_sched *s, const topo *t, sched_pathtab *P, const sched_search *q, sched_result *r);
int sched_broadcast(coll_sched *s, const topo *t, sched_pathtab *P, const sched_search *q, sched_result *r);
int sched_combining(coll_sched *s, const topo *t, sched_pathtab *P, const sched_search *q, sched_result *r);
int sched_route_builtin(coll_sched *s, const topo *t, sched_pathtab *P, coll_algo algo);
void sched_keep_best(coll_sched *s, coll_sched *best, int steps);
int sched_take_best(coll_sched *s, coll_sched *best);
/* Min-conflicts tabu search for S steps from pl, at most *moves moves (the
 * moves made are subtracted): 1 and pl conflict-free on success, 0 the move
 * budget ran out, -1 the deadline passed (out of time). */
int sched_squeeze(const coll_sched *s, const topo *t, sched_pathtab *P, sched_place *pl, int S, long *moves,
                  double deadline, uint64_t *rs, int progress);
/* Is there a schedule with S steps?  1 yes (s filled), 0 no (proof),
 * -1 unknown: the budget of *conflicts ran out (0 there: the default for
 * this CNF, written back), -3 unknown: the deadline passed (out of time),
 * -2 the CNF would exceed SCHED_MAX_SAT_VARS. */
/* The SAT phase's progress line while CaDiCaL solves (NULL: none). */
typedef struct {
    int on, lower_bound; /* the first question asked */
} sched_sat_progress;
void sched_sat_set_progress(const sched_sat_progress *p);
int sched_sat(coll_sched *s, const topo *t, sched_pathtab *P, int S, long *conflicts, double deadline, long *vars,
              long *clauses, long *learned);

/* Conflict-free check on top of coll_check(): every transfer's route is a
 * real path from src to dst, no channel is used twice in a step. */
int sched_verify(const coll_sched *s, const topo *t, char *err, int errlen);

#endif
