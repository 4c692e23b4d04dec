/* qcdoc.h - the QCDOC all-gather on a D-dimensional torus (Deng, Glimm and
 * Davenport, "Global Communication Schemes on QCDOC"; docs/qcdoc.md).
 *
 * Every node's data is named by its offset v from the receiver (each
 * coordinate taken in (-t/2, t/2]).  Data with b non-zero coordinates
 * arrives in block b; within the block, in step l = the smallest non-zero
 * |v_d|, over dimension d (the "least advanced" one) from the neighbour one
 * hop nearer its origin, which received it (or held it, l = 1) one step
 * earlier.  Ties ("diagonally degenerate" data: several dimensions at the
 * smallest distance, or |v_d| = t/2 reachable both ways on an even ring)
 * give the data several possible channels.  The paper splits such data
 * among them; the model here splits it so that the most loaded channel of
 * the step is as low as it can be (on a regular torus the paper's even
 * split does that), and the firmware plan, which sends whole messages,
 * gives each to the least loaded of its channels in that step (data with
 * fewest choices first).  Empty (block, l) steps are skipped.
 *
 * All quantities are per node and the same for every node (the torus is
 * vertex-transitive), in units of one node's data.
 */
#ifndef XNOC_QCDOC_H
#define XNOC_QCDOC_H

#include "net/topo.h"

#define QCDOC_MAX_NODES 10000000L

typedef struct {
    int ndims, dims[TOPO_MAX_DIMS];
    long nodes;
    int nch; /* receive channels per node: 2 per dimension (+, - travel) */
    int nsteps;
    int *block, *level; /* [j]: step j's block b (non-zero coordinates) and hop l */
    double *msgs;       /* [j]: M_j, data each node receives in step j */
    double *tsplit;     /* [j]: step j's time with ties split: its least possible largest channel load */
    double *whole;      /* [j*nch + c]: the same with whole messages (the firmware plan) */
    /* per offset (index = mixed-radix coordinates, dimension 0 fastest):
     * step (-1 for the node itself), dimension and travel sign of the plan */
    int *step_of, *dim_of, *sign_of;
} qcdoc_model;

/* Builds the model of torus dims[0..ndims-1] (every side >= 2).
 * Returns 0, or -1 with one line in err. */
int qcdoc_build(qcdoc_model *m, int ndims, const int *dims, char *err, int errlen);
void qcdoc_free(qcdoc_model *m);

/* channel index of travel sign s (+1 / -1) along dimension d: 2d (+), 2d+1 (-),
 * the router's port numbering */
static inline int qcdoc_chan(int d, int s) { return 2 * d + (s > 0 ? 0 : 1); }

/* step j's largest channel load with whole messages */
double qcdoc_step_whole(const qcdoc_model *m, int j);
/* sum of the step times (the largest channel load of each step) */
double qcdoc_time(const qcdoc_model *m, int whole);

/* The paper's closed form for a regular torus (all sides t): M of block b,
 * hop l = C(D, b) * (V_l^b - V_{l+1}^b), V_l = t - 2l + 1 non-zero ring
 * values with |v| >= l (V_{r+1} = 0).  Returns -1 if not regular. */
double qcdoc_closed_form(const qcdoc_model *m, int b, int l);

#endif
