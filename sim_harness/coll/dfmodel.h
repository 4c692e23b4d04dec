/* dfmodel.h - the link-use formulas of the dragonfly broadcast paper
 * (Dorier et al., Sect. III-E), evaluated two ways: exactly, by walking the
 * routing function over every ordered pair of distinct terminals, and by the
 * paper's closed forms (which assume g = a*h + 1; docs/dragonfly.md says
 * where the printed ones go wrong).
 */
#ifndef XNOC_DFMODEL_H
#define XNOC_DFMODEL_H

#include "net/topo.h"

typedef struct {
    /* per message between two random distinct terminals, exact */
    double p_global, p_local[3], e_local;
    /* the paper's closed forms: P(1 global), P(0 local), P(1 local), E(local)
     * derived from them, and E(local) as printed */
    double paper_p_global, paper_p_local0, paper_p_local1, paper_e_local, paper_e_local_printed;
} dfm_probs;

void dfm_eval(const topo *t, dfm_probs *p);

/* TREE over n random terminals: n-1 messages, each the expectation above */
static inline double dfm_tree_global(const dfm_probs *p, int n) { return (n - 1) * p->p_global; }
static inline double dfm_tree_local(const dfm_probs *p, int n) { return (n - 1) * p->e_local; }
/* LLF, GLF, FOREST on a job spanning g groups: at most g-1 global and
 * 2(g-1) + g(a-1) local link crossings */
static inline int dfm_bound_global(int g) { return g - 1; }
static inline int dfm_bound_local(int g, int a) { return 2 * (g - 1) + g * (a - 1); }
/* the expected number of groups n random terminals span */
double dfm_expected_groups(const topo *t, int n);

#endif
