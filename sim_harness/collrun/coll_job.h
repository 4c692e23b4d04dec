/* coll_job.h - the schedule `xnoc collective` runs, and where it came from:
 * a schedule file, a proven schedule the repository ships, a search
 * (sched/), the hierarchical network-coding scheme (coll/hnc.c) or a
 * textbook algorithm (coll/coll_builtin.c).  The command checks its options
 * (cmd/collective.c); coll_execute (coll_exec.h) runs the job. */
#ifndef XNOC_COLL_JOB_H
#define XNOC_COLL_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "coll/coll.h"
#include "coll/hnc.h"
#include "net/topo.h"
#include "sched/sched.h"

typedef struct {
    topo *t;
    coll_sched s;
    int algo; /* coll_algo */
    sched_result sr;
    char *source;            /* the schedule file run, if any */
    const char *source_kind; /* builtin, file, shipped, search */
    hnc_opts ho;             /* hnc and combine: the scheme's choices */
    hnc_info hi;
    int hnc_family; /* algo is hnc or combine */
} coll_job;

/* The job of schedule file `file`: its topology, schedule and lower bound
 * (algo sched).  Returns COLLRUN_RAN, or COLLRUN_REFUSED (err: what is wrong
 * with the file). */
int coll_job_read(coll_job *j, const char *file, char *err, size_t errlen);

/* The collective op on t (the job takes it) between the sets from and to
 * (coll_init's syntax), the ranks in `order` (n of them, or NULL; the job
 * takes it).  Returns COLLRUN_RAN, or COLLRUN_REFUSED (err: the sets). */
int coll_job_sets(coll_job *j, topo *t, coll_op op, const char *from, const char *to, int *order, int n, char *err,
                  size_t errlen);

/* An allocation of n of the nterms terminals, in random rank order (seeded):
 * the first n places of a permutation. */
int *coll_job_random_order(int nterms, int n, uint64_t seed);
/* The sets of an allocation: a rooted op's root is `from` (or the order's
 * first terminal), the job its other side; else both sides. */
void coll_job_alloc_sets(coll_op op, const int *order, int n, const char *from, char **fs, char **ts);

/* How the schedule is chosen for j->algo (sched: shipped, else searched
 * with `search`). */
typedef struct {
    int use_shipped;
    sched_opts search;
} coll_job_choice;

/* The schedule of j's sets by j->algo (and j->ho).  Returns COLLRUN_RAN,
 * COLLRUN_REFUSED (the algorithm cannot build it: err says why) or
 * COLLRUN_FAILED (the search found none, or ran out of time:
 * j->sr.ended "time"). */
int coll_job_choose(coll_job *j, const coll_job_choice *c, char *err, size_t errlen);

/* Frees the job (its topology too). */
void coll_job_free(coll_job *j);

#endif
