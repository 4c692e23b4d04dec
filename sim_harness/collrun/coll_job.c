/* coll_job.c - the schedule a collective runs (coll_job.h). */
#include "collrun/coll_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collrun/coll_exec.h"
#include "sched/sched_file.h"
#include "util/cli.h"

int coll_job_read(coll_job *j, const char *file, char *err, size_t errlen)
{
    j->source_kind = "file";
    j->source = xstrdup(file);
    int r = sched_file_read(file, &j->t, &j->s, err, errlen);
    if (r == 0 && sched_verify(&j->s, j->t, err, errlen)) r = -1;
    if (r) return COLLRUN_REFUSED;
    sched_bound b;
    sched_lower_bound(&j->s, j->t, &b);
    j->sr.lower_bound = b.value;
    j->sr.steps = j->s.nsteps;
    j->algo = ALGO_SCHED;
    return COLLRUN_RAN;
}

int coll_job_sets(coll_job *j, topo *t, coll_op op, const char *from, const char *to, int *order, int n, char *err,
                  size_t errlen)
{
    j->t = t;
    if (!j->source_kind) j->source_kind = "builtin";
    if (coll_init(&j->s, t, op, from, to, err, errlen)) {
        free(order);
        return COLLRUN_REFUSED;
    }
    j->s.rank_order = order;
    j->s.nranks = n;
    return COLLRUN_RAN;
}

int *coll_job_random_order(int nterms, int n, uint64_t seed)
{
    int *perm = xmalloc((size_t)nterms * sizeof *perm);
    for (int i = 0; i < nterms; i++) perm[i] = i;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int i = 0; i < n; i++) { /* Fisher-Yates, the first n places */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int k = i + (int)(x % (uint64_t)(nterms - i)), tmp = perm[i];
        perm[i] = perm[k];
        perm[k] = tmp;
    }
    return perm;
}

void coll_job_alloc_sets(coll_op op, const int *order, int n, const char *from, char **fs, char **ts)
{
    size_t cap = (size_t)n * 6 + 16;
    char *job = xmalloc(cap), *root = xmalloc(16);
    size_t len = 0;
    for (int i = 0; i < n; i++) len += (size_t)snprintf(job + len, cap - len, i ? ",%d" : "%d", order[i]);
    snprintf(root, 16, "%d", order[0]);
    int rooted_from = op == OP_BCAST || op == OP_SCATTER, rooted_to = op == OP_GATHER || op == OP_REDUCE;
    *fs = rooted_from ? (from ? xstrdup(from) : xstrdup(root)) : from ? xstrdup(from) : xstrdup(job);
    *ts = rooted_to ? xstrdup(root) : xstrdup(job);
    if (rooted_to) { /* the root receives; the job sends */
        free(*fs);
        *fs = xstrdup(job);
    }
    free(job);
    free(root);
}

/* algo sched: a proven schedule the repository ships, else a search */
static int choose_sched(coll_job *j, const coll_job_choice *c, char *err, size_t errlen)
{
    if (c->use_shipped) { /* a proven schedule in the repository comes first */
        coll_sched f;
        int opt;
        int shipped = sched_file_shipped(j->t, &j->s, &f, &opt, &j->source, err, errlen);
        if (shipped < 0) cli_error("%s (searching instead)", err);
        if (shipped == 1) {
            coll_free(&j->s);
            j->s = f;
            j->sr.optimal = opt;
            j->source_kind = "shipped";
            return COLLRUN_RAN;
        }
        free(j->source);
        j->source = NULL;
    }
    j->source_kind = "search";
    if (sched_run(&j->s, j->t, &c->search, &j->sr) < 0) {
        snprintf(err, errlen, "no schedule found for %s on %s", coll_op_name(j->s.op), j->t->name);
        return COLLRUN_FAILED;
    }
    if (!strcmp(j->sr.ended, "time")) { /* its schedule would depend on the machine's speed */
        snprintf(err, errlen, "out of time");
        return COLLRUN_FAILED;
    }
    return COLLRUN_RAN;
}

int coll_job_choose(coll_job *j, const coll_job_choice *c, char *err, size_t errlen)
{
    sched_bound b;
    sched_lower_bound(&j->s, j->t, &b);
    j->sr.lower_bound = b.value;
    int st = COLLRUN_RAN;
    if (j->algo == ALGO_SCHED) st = choose_sched(j, c, err, errlen);
    else if (j->hnc_family) {
        if (hnc_build(&j->s, j->t, &j->ho, &j->hi, err, (int)errlen)) st = COLLRUN_REFUSED;
    } else if (coll_builtin(&j->s, j->t, (coll_algo)j->algo, err, (int)errlen)) st = COLLRUN_REFUSED;
    if (!st) j->sr.steps = j->s.nsteps;
    return st;
}

void coll_job_free(coll_job *j)
{
    free(j->source);
    coll_free(&j->s);
    topo_free(j->t);
    j->source = NULL;
    j->t = NULL;
}
