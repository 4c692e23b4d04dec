/* sched_unit.c - lower-bound formulas, exact mode against brute force on
 * tiny networks, and every synthesized schedule against the verifier. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

static int fails;
static void expect(int cond, const char *what, const char *detail)
{
    printf("%s %s%s%s\n", cond ? "ok" : "FAIL", what, cond ? "" : ": ", cond ? "" : detail);
    fails += !cond;
}

/* smallest S for which some (step, path) assignment of the personalized
 * messages has no channel conflict: exhaustive search */
static int brute(const coll_sched *s, const topo *t, sched_pathtab *P, int S, int m, int *occ)
{
    if (m == s->nmsgs) return 1;
    const sched_paths *c = sched_paths_get(P, t, s->msgs[m].origin, s->msgs[m].dest);
    int nch = sched_nchannels(t);
    for (int st = 0; st < S; st++)
        for (int pi = 0; pi < c->n; pi++) {
            const sched_path *p = &c->p[pi];
            int ok = 1;
            for (int i = 0; i < p->nch; i++) ok &= !occ[st * nch + p->ch[i]];
            if (!ok) continue;
            for (int i = 0; i < p->nch; i++) occ[st * nch + p->ch[i]] = 1;
            int r = brute(s, t, P, S, m + 1, occ);
            for (int i = 0; i < p->nch; i++) occ[st * nch + p->ch[i]] = 0;
            if (r) return 1;
        }
    return 0;
}

int main(void)
{
    char err[300], name[160];
    expect(sched_paper_mnb(9, 11) == 9, "paper-9-to-11-mnb", "eq. 2 should give 9");
    expect(sched_paper_mns(9, 11, 4, 1, 5, 6) == 12, "paper-9-to-11-mns", "eq. 6 with b1=5 b2=6 b0=1 should give 12");

    /* exact == brute force on tiny cases */
    struct {
        const char *topo, *op, *from, *to;
        int k;
    } tiny[] = {
        {"mesh:2x1:c=2", "mns", "0-1", "2-3", 1}, {"mesh:2x2", "alltoall", NULL, NULL, 1},
        {"mesh:3x1", "alltoall", NULL, NULL, 1},  {"mesh:2x1:c=2", "alltoall", NULL, NULL, 2},
        {"mesh:2x2", "scatter", "0", NULL, 1},    {"mesh:2x2", "gather", NULL, "3", 2},
    };
    for (size_t i = 0; i < sizeof tiny / sizeof *tiny; i++) {
        topo *t = topo_parse(tiny[i].topo, tiny[i].k, err, sizeof err);
        coll_sched s;
        coll_init(&s, t, coll_op_parse(tiny[i].op), tiny[i].from, tiny[i].to, err, sizeof err);
        sched_pathtab *P = sched_paths_build(t, 0);
        int nch = sched_nchannels(t), bf = 0;
        for (int S = 1; S <= s.nmsgs && !bf; S++) {
            int *occ = calloc((size_t)S * (size_t)nch, sizeof *occ);
            if (brute(&s, t, P, S, 0, occ)) bf = S;
            free(occ);
        }
        sched_opts o = {.exact = 1, .seed = 3}; /* the default budgets */
        sched_result r;
        sched_run(&s, t, &o, &r);
        snprintf(name, sizeof name, "exact-equals-brute-force-%s-%s-k%d", tiny[i].topo, tiny[i].op, tiny[i].k);
        snprintf(err, sizeof err, "exact %d (optimal %d, ended by %s), brute force %d", r.steps, r.optimal, r.ended,
                 bf);
        expect(r.steps == bf && r.optimal == 1 && !strcmp(r.ended, "proof"), name, err);
        sched_paths_free(P, t);
        coll_free(&s);
        topo_free(t);
    }

    /* every synthesized schedule passes the verifier */
    const char *topos[] = {"octagon", "fat-octagon", "mesh:3x2", "mesh:4x4", "torus:3x3", "mesh:2x2:c=2"};
    for (size_t ti = 0; ti < sizeof topos / sizeof *topos; ti++)
        for (int k = 1; k <= 2; k++) {
            topo *t = topo_parse(topos[ti], k, err, sizeof err);
            for (int op = 0; op < OP_COUNT; op++) {
                coll_sched s;
                const char *from = NULL, *to = NULL;
                if (op == OP_MNB || op == OP_MNS) {
                    from = "0-3";
                    to = "2-5";
                }
                coll_init(&s, t, (coll_op)op, from, to, err, sizeof err);
                sched_opts o = {.exact = 0, .seed = 1};
                sched_result r;
                int st = sched_run(&s, t, &o, &r);
                snprintf(name, sizeof name, "verified-%s-k%d-%s", topos[ti], k, coll_op_name((coll_op)op));
                int v = st > 0 ? sched_verify(&s, t, err, sizeof err) : -1;
                if (st <= 0) snprintf(err, sizeof err, "no schedule");
                expect(st > 0 && v == 0 && r.steps >= r.lower_bound, name, err);
                coll_free(&s);
            }
            topo_free(t);
        }
    return fails != 0;
}
