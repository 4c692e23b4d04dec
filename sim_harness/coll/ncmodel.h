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
 * Message combining (Sect. 6.5; ncm_net.combine) replaces C-G: the IN
 * combines its group's M data (B gave them to it) into one message, D the
 * INs exchange those, E every IN multicasts each other group's combined
 * message into its group; no F.  A combined message carries M data, a
 * coded bundle M-1: payload_hops weighs every unicast by what it carries.
 *
 * Intermediate-node placement (docs/network-coding.md "Where the
 * intermediate nodes sit"), per dimension: the same offset in every group
 * (corner: 0; median: the offset nearest the group's nodes), or mirrored in
 * pairs of neighbouring groups 2i, 2i+1 (boundary: group 2i's IN on its last
 * column, 2i+1's on its first, the paired groups' shared edge, Fig. 7).
 * best searches both rules and every offset for the objective.
 *
 * Multicasts are "tree" (binomial tree over XOR-relabelled ranks, the
 * farthest partner first: the variant that gives the paper's Fig. 2; the
 * nearest-first order costs about 4x more) or "all-at-once" (a unicast to
 * every destination).  Trees need power-of-two sides.
 */
#ifndef XNOC_NCMODEL_H
#define XNOC_NCMODEL_H

typedef enum { NCM_TREE, NCM_ALL_AT_ONCE } ncm_multicast;
/* NCM_IN_DEFAULT: corner for trees, median for all-at-once (the rules
 * before placement was a parameter) */
typedef enum { NCM_IN_DEFAULT, NCM_IN_CORNER, NCM_IN_MEDIAN, NCM_IN_BOUNDARY, NCM_IN_BEST } ncm_in_position;
/* what best (shape and placement) minimizes: aggregate hops, or the
 * longer of M-hops and G-hops (the paper's "balance", Fig. 15-17) */
typedef enum { NCM_OBJ_HOPS, NCM_OBJ_LONGEST } ncm_objective;

typedef struct {
    int w, h, torus;
    ncm_multicast mc;
    ncm_in_position in_pos;
    ncm_objective objective;
    int combine; /* message combining instead of coding */
} ncm_net;

/* an IN placement along one dimension */
typedef struct {
    int mirror; /* 0: offset off in every group; 1: groups 2i at side-1-off, 2i+1 at off */
    int off;
} ncm_place;

typedef struct {
    int gw, gh; /* group shape */
    int groups, group_size;
    int in_x, in_y; /* the intermediate node's position inside group 0 */
    ncm_place px, py;
    double hops_b, hops_d, hops_e, hops_f, coded_hops; /* coded_hops: the scheme's total (combine too) */
    double unicasts, payload_hops;
    int m_hops, g_hops; /* longest intra-group path, longest path between INs */
    int m_d[2], g_d[2]; /* group sides, groups per dimension (Fig. 15's M-d1/2, G-d1/2) */
    int g_d_hops[2];    /* longest IN-to-IN hops per dimension (G-d1-hops, G-d2-hops) */
} ncm_coded;

/* the offset inside its group of the IN of the group with index g along a
 * dimension of k groups of side s */
int ncm_place_off(const ncm_place *p, int g, int k, int s);
/* "corner", "median", "boundary", "best"; -1 if unknown */
int ncm_in_position_parse(const char *s);
const char *ncm_in_position_name(ncm_in_position p);
/* the rule a placement follows ("same offset" / "mirrored pairs") */
const char *ncm_place_rule(const ncm_place *p);
/* 1 if a is better than b under the objective */
int ncm_better(const ncm_net *n, const ncm_coded *a, const ncm_coded *b);

/* Conventional all-to-all broadcast: aggregate hops and unicasts. */
double ncm_conventional(const ncm_net *n, double *unicasts);
/* The coded scheme for one group shape (gw | w, gh | h, 1 < gw*gh < w*h).
 * Returns 0, or -1 with one line in err. */
int ncm_coded_eval(const ncm_net *n, int gw, int gh, ncm_coded *c, char *err, int errlen);
/* 1 if gw x gh groups tile the network (at least two groups of two; trees:
 * power-of-two sides). */
int ncm_shape_ok(const ncm_net *n, int gw, int gh);
/* The best shape under n->objective (want_size != 0: of that many nodes;
 * ties: the first in y-major order of gh, gw).  0, or -1 if none. */
int ncm_best(const ncm_net *n, int want_size, ncm_coded *best);
/* Checks the network (sizes, trees need powers of two). */
int ncm_check(const ncm_net *n, char *err, int errlen);

#endif
