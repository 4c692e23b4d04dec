/* dfbcast.c - the topology-aware broadcasts of the dragonfly paper
 * (Dorier et al., Sect. III) as step schedules with table routing:
 *
 *   llf     Local Links First: (1) a binomial tree from the root to one
 *           terminal on every used router of the root group; (2) those
 *           holders send, each in series, to one terminal of every remote
 *           group (a group goes to the holder on the router with the global
 *           link to it, else to the least loaded holder; the receiver is a
 *           terminal on the router at the other end of that link if the job
 *           has one there); (3) in every remote group a binomial tree to one
 *           terminal per used router; (4) on every router a binomial tree to
 *           its other terminals
 *   glf     Global Links First: (1) a binomial tree from the root to one
 *           terminal of every group; then (3) and (4) in every group
 *   forest  LLF with step (2) as one binomial tree per root-group holder
 *           over the remote groups it serves
 *
 * TREE, the topology-oblivious binomial tree, is `--algo tree` (over the
 * members in rank order: with --alloc, the allocation's random order).
 * Phases follow each other in globally synchronized steps; every phase's
 * trees run in parallel in the same steps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "util/cli.h"

typedef struct {
    const topo *t;
    coll_sched *s;
    int msg, root;
    unsigned char *job; /* [terminal] member of the broadcast */
    int *holder;        /* [router]: the terminal that holds the data there, or -1 */
    int *u;             /* scratch list */
} df;

/* the first job terminal on router r, or -1 */
static int first_on_router(const df *d, int r)
{
    for (int j = 0; j < d->t->conc; j++)
        if (d->job[r * d->t->conc + j]) return r * d->t->conc + j;
    return -1;
}

/* the first job terminal of group x, or -1 */
static int first_in_group(const df *d, int x)
{
    for (int i = 0; i < d->t->df_a; i++) {
        int v = first_on_router(d, x * d->t->df_a + i);
        if (v >= 0) return v;
    }
    return -1;
}

/* Phase "group": in group x, from terminal src (a holder) to one terminal
 * per other used router; marks the holders.  Returns the tree's steps. */
static int group_phase(df *d, int x, int src, int step0)
{
    const topo *t = d->t;
    int n = 0;
    d->u[n++] = src;
    d->holder[topo_term_router(t, src)] = src;
    for (int i = 0; i < t->df_a; i++) {
        int r = x * t->df_a + i, v = first_on_router(d, r);
        if (v < 0 || d->holder[r] >= 0) continue;
        d->u[n++] = v;
        d->holder[r] = v;
    }
    return coll_tree_bcast(d->s, d->u, n, d->msg, step0);
}

/* Phase "router": on every used router, from its holder to its other job terminals. */
static int router_phase(df *d, int step0)
{
    const topo *t = d->t;
    int steps = 0;
    for (int r = 0; r < t->nrouters; r++) {
        if (d->holder[r] < 0) continue;
        int n = 0;
        d->u[n++] = d->holder[r];
        for (int j = 0; j < t->conc; j++) {
            int v = r * t->conc + j;
            if (d->job[v] && v != d->holder[r]) d->u[n++] = v;
        }
        int L = coll_tree_bcast(d->s, d->u, n, d->msg, step0);
        if (L > steps) steps = L;
    }
    return steps;
}

/* LLF's and FOREST's step (2): root-group holders to one terminal of every
 * remote group.  recv[y]: the receiver in group y.  Returns the steps. */
static int remote_phase(df *d, int forest, int *recv, int step0)
{
    const topo *t = d->t;
    int G = t->groups, a = t->df_a, x0 = topo_group(t, topo_term_router(t, d->root)), steps = 0;
    int *owner = xmalloc((size_t)G * sizeof *owner), *load = xcalloc((size_t)t->nrouters, sizeof *load);
    for (int y = 0; y < G; y++) {
        owner[y] = -1;
        if (y == x0 || first_in_group(d, y) < 0) continue;
        int pa, pb, ga = topo_df_gateway(t, x0, y, &pa), gb = topo_df_gateway(t, y, x0, &pb);
        recv[y] = first_on_router(d, gb) >= 0 ? first_on_router(d, gb) : first_in_group(d, y);
        if (d->holder[ga] >= 0) owner[y] = ga; /* the holder on the gateway router */
        else {                                 /* else the least loaded holder */
            for (int i = 0; i < a; i++) {
                int r = x0 * a + i;
                if (d->holder[r] >= 0 && (owner[y] < 0 || load[r] < load[owner[y]])) owner[y] = r;
            }
        }
        load[owner[y]]++;
    }
    for (int i = 0; i < a; i++) {
        int r = x0 * a + i, n = 0;
        if (d->holder[r] < 0) continue;
        d->u[n++] = d->holder[r];
        for (int y = 0; y < G; y++)
            if (owner[y] == r) d->u[n++] = recv[y];
        int L;
        if (forest) L = coll_tree_bcast(d->s, d->u, n, d->msg, step0);
        else { /* in series, one group per step */
            for (int k = 1; k < n; k++) coll_add(d->s, step0 + k - 1, d->u[0], d->u[k], d->msg);
            L = n - 1;
        }
        if (L > steps) steps = L;
    }
    free(owner);
    free(load);
    return steps;
}

int coll_dragonfly(coll_sched *s, const topo *t, coll_algo algo, char *err, int errlen)
{
    if (!topo_has(t, TOPO_TRAIT_GROUPS)) {
        snprintf(err, (size_t)errlen, "%s is a dragonfly broadcast: --topo dragonfly:a=A,p=P,h=H, not %s",
                 coll_algo_name(algo), t->name);
        return -1;
    }
    if (s->op != OP_BCAST) {
        snprintf(err, (size_t)errlen, "%s is a broadcast: --op bcast, not %s", coll_algo_name(algo),
                 coll_op_name(s->op));
        return -1;
    }
    df d = {.t = t, .s = s, .root = s->root, .msg = coll_msg_of(s, s->root, -1)};
    d.job = xcalloc((size_t)t->nterms, 1);
    d.holder = xmalloc((size_t)t->nrouters * sizeof *d.holder);
    d.u = xmalloc(((size_t)t->nterms + 1) * sizeof *d.u);
    int *recv = xmalloc((size_t)t->groups * sizeof *recv);
    for (int v = 0; v < t->nterms; v++) d.job[v] = s->to[v] || v == s->root;
    for (int r = 0; r < t->nrouters; r++) d.holder[r] = -1;
    for (int y = 0; y < t->groups; y++) recv[y] = -1;
    int x0 = topo_group(t, topo_term_router(t, s->root)), step = 0;
    if (algo == ALGO_GLF) {
        int n = 0; /* the root, then one terminal of every other group */
        d.u[n++] = s->root;
        for (int y = 0; y < t->groups; y++)
            if (y != x0 && first_in_group(&d, y) >= 0) d.u[n++] = recv[y] = first_in_group(&d, y);
        step += coll_tree_bcast(s, d.u, n, d.msg, step);
        recv[x0] = s->root;
        int L = 0;
        for (int y = 0; y < t->groups; y++)
            if (recv[y] >= 0) {
                int l = group_phase(&d, y, recv[y], step);
                if (l > L) L = l;
            }
        step += L;
    } else {
        step += group_phase(&d, x0, s->root, step);
        step += remote_phase(&d, algo == ALGO_FOREST, recv, step);
        int L = 0;
        for (int y = 0; y < t->groups; y++)
            if (y != x0 && recv[y] >= 0) {
                int l = group_phase(&d, y, recv[y], step);
                if (l > L) L = l;
            }
        step += L;
    }
    router_phase(&d, step);
    free(d.job);
    free(d.holder);
    free(d.u);
    free(recv);
    return 0;
}
