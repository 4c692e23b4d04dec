/* hnc.h - hierarchical network-coded all-to-all broadcast (Shalaby,
 * Fujiwara, Koibuchi, Sect. 3, Fig. 3-4) as a collective schedule for the
 * firmware library: the same steps the model (coll/ncmodel.h) counts, run
 * on the RTL network and verified byte for byte.
 *
 * On a 2-D mesh or torus of W x H terminals cut into groups of gw x gh:
 *   A  grouping; the intermediate node (IN) of every group where the model
 *      puts it (--in-position; default tree: (0,0) of every group,
 *      all-at-once: the model's median)
 *   B  intra-group all-to-all broadcast of every node's data
 *   F  every node sends its data to its counterpart in every other group
 *      (with B, from the first step on)
 *   C  the IN codes its group's data d_0..d_{M-1} (XOR-rank order) into the
 *      bundle d_0^d_1, d_1^d_2, ..., d_{M-2}^d_{M-1}: on its core (--xor
 *      core) or in its router's coding unit (--xor unit: two ENCODE
 *      contributions per coded message and chunk, the result back to the IN)
 *   D  the INs exchange their bundles (a multicast over the INs)
 *   E  every IN multicasts every other group's bundle into its group
 *   G  every node decodes each other group from the bundle and the datum
 *      of its counterpart there (F): a chain of XORs on its core, in a step
 *      of its own, so that the steps before it are the delivery
 * Message combining (combine, Sect. 6.5) runs B, then C: the IN copies its
 * group's M data into one combined message (XOR with a zero it makes from
 * its own datum, on its core), D the INs exchange those, E every IN
 * multicasts the other groups' combined messages into its group, G every
 * node copies the data out (verified); no F.
 * Multicasts are binomial trees over XOR ranks, farthest partner first (the
 * model's "tree"), or a unicast to every destination ("all-at-once").
 * Steps are globally synchronized: each step's traffic is table-routed
 * unicasts, deadlock-free as every other collective (docs/network-coding.md).
 */
#ifndef XNOC_HNC_H
#define XNOC_HNC_H

#include "coll/coll.h"
#include "coll/ncmodel.h"
#include "net/topo.h"

typedef struct {
    int gw, gh;             /* group shape; 0: the model's best */
    int all_at_once;        /* multicast: 0 tree, 1 all-at-once */
    int xor_unit;           /* 1: the IN's router's coding unit XORs */
    int chunk;              /* --xor unit: the longest packet a unit takes (bytes) */
    int bytes;              /* message size */
    ncm_in_position in_pos; /* where the INs sit (ncmodel.h; 0: the model's default) */
    int combine;            /* message combining (Sect. 6.5) instead of coding */
    int unit_mcast;         /* E in one step: each bundle leaves its IN once, as a multicast its router's
                             * coding unit replicates to the group (coll_xfer.mc), not a binomial tree */
} hnc_opts;

enum { HNC_B, HNC_C, HNC_D, HNC_E, HNC_G, HNC_PHASES }; /* F runs with B */
#define HNC_MC_TAG 0x8000 /* unit_mcast: E's pieces are tagged HNC_MC_TAG | id (message ids stay below) */

typedef struct {
    int gw, gh, groups, group_size;
    int in_x, in_y;                 /* the IN's position inside group 0 */
    ncm_place px, py;               /* and in every group (ncm_place_off) */
    int first_step[HNC_PHASES + 1]; /* phase p: steps [first_step[p], first_step[p+1]) */
    double model_hops;              /* the model's coded hops for this shape (ncmodel) */
} hnc_info;

/* Builds the schedule into s (an allgather over every terminal, from
 * coll_init).  0, or -1 with one line in err. */
int hnc_build(coll_sched *s, const topo *t, const hnc_opts *o, hnc_info *info, char *err, int errlen);

/* Replays the schedule: every transfer's sender holds what it sends, every
 * XOR's operands are known, and at the end every node knows every datum.
 * 0, or -1 with one line in err (a defect in hnc_build). */
int hnc_check(const coll_sched *s, char *err, int errlen);

#endif
