/* dfmodel.c - see dfmodel.h. */
#include "coll/dfmodel.h"

#include <string.h>

/* local and global links on the routed path from router ra to router rb */
static void path_links(const topo *t, int ra, int rb, int *local, int *global)
{
    *local = *global = 0;
    for (int r = ra; r != rb;) {
        const topo_link *l = &t->links[t->out_link[r * t->nports + topo_route_router(t, r, rb)]];
        if (l->kind == TOPO_LINK_GLOBAL) ++*global;
        else ++*local;
        r = l->dst;
    }
}

void dfm_eval(const topo *t, dfm_probs *p)
{
    memset(p, 0, sizeof *p);
    double pairs = 0, cnt_local[3] = {0}, glob = 0, P = t->conc;
    for (int ra = 0; ra < t->nrouters; ra++)
        for (int rb = 0; rb < t->nrouters; rb++) {
            double w = ra == rb ? P * (P - 1) : P * P; /* terminal pairs between the two routers */
            int l, g;
            path_links(t, ra, rb, &l, &g);
            pairs += w;
            glob += w * g;
            cnt_local[l > 2 ? 2 : l] += w;
        }
    p->p_global = glob / pairs;
    for (int i = 0; i < 3; i++) p->p_local[i] = cnt_local[i] / pairs;
    p->e_local = p->p_local[1] + 2 * p->p_local[2];
    double a = t->df_a, h = t->df_h, g = t->groups, D = g * a * P - 1;
    p->paper_p_global = 1 - (a * P - 1) / D;
    p->paper_p_local0 = (P - 1) / D + h * P / D;
    p->paper_p_local1 = (2 * h + 1) * (a - 1) * P / D;
    p->paper_e_local = p->paper_p_local1 + 2 * (1 - p->paper_p_local0 - p->paper_p_local1);
    p->paper_e_local_printed = 2 - (2 + P * (1 + 2 * h * a + a)) / D;
}

double dfm_expected_groups(const topo *t, int n)
{
    /* 1 - P(no terminal of a group among n): C(N - m, n) / C(N, n), m = a*p terminals per group */
    int N = t->nterms, m = t->df_a * t->conc;
    double miss = 1;
    for (int i = 0; i < n; i++) miss *= (double)(N - m - i) / (double)(N - i);
    if (miss < 0) miss = 0;
    return t->groups * (1 - miss);
}
