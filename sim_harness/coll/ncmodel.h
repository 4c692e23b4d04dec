/* ncmodel.h - aggregate unicast path hops of the all-to-all broadcast on a
 * 2-D mesh or torus, conventional and with hierarchical network coding
 * (Shalaby, Fujiwara, Koibuchi; docs/network-coding.md "The quantitative
 * model").  Closed forms, no enumeration of packets: 256x256 in
 * milliseconds.
 *
 * Counting (the paper's): a unicast is one packet's path; its hops are the
 * router-to-router links of the minimal (dimension-order) route.
 *   conventional  every node multicasts its data to the N-1 others
 *   coded         A grouping into gw x gh blocks, one intermediate node (IN)
 *                 per group at the same position in every group;
 *                 B intra-group all-to-all broadcast;
 *                 D every IN multicasts its group's M-1 coded packets, as one
 *                   message, to the other INs;
 *                 E every IN multicasts each other group's coded message
 *                   to the M-1 nodes of its group;
 *                 F every node sends its data to its counterpart (same
 *                   position) in every other group;
 *                 G decoding (no traffic).
 * Multicasts are "tree" (binomial tree over XOR-relabelled ranks, the
 * farthest partner first: the variant that gives the paper's Fig. 2; the
 * nearest-first order costs about 4x more) or "all-at-once" (a unicast to
 * every destination).  Trees need power-of-two sides.
 */
#ifndef XNOC_NCMODEL_H
#define XNOC_NCMODEL_H

typedef enum { NCM_TREE, NCM_ALL_AT_ONCE } ncm_multicast;

typedef struct {
    int w, h, torus;
    ncm_multicast mc;
} ncm_net;

typedef struct {
    int gw, gh; /* group shape */
    int groups, group_size;
    int in_x, in_y; /* the intermediate node's position inside its group */
    double hops_b, hops_d, hops_e, hops_f, coded_hops;
    double unicasts;
    int m_hops, g_hops; /* longest intra-group path, longest path between INs */
} ncm_coded;

/* Conventional all-to-all broadcast: aggregate hops and unicasts. */
double ncm_conventional(const ncm_net *n, double *unicasts);
/* The coded scheme for one group shape (gw | w, gh | h, 1 < gw*gh < w*h).
 * Returns 0, or -1 with one line in err. */
int ncm_coded_eval(const ncm_net *n, int gw, int gh, ncm_coded *c, char *err, int errlen);
/* 1 if gw x gh groups tile the network (at least two groups of two; trees:
 * power-of-two sides). */
int ncm_shape_ok(const ncm_net *n, int gw, int gh);
/* The shape with the fewest coded hops (want_size != 0: of that many
 * nodes; ties: the first in y-major order of gh, gw).  0, or -1 if none. */
int ncm_best(const ncm_net *n, int want_size, ncm_coded *best);
/* Checks the network (sizes, trees need powers of two). */
int ncm_check(const ncm_net *n, char *err, int errlen);

#endif
