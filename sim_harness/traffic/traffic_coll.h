/* traffic_coll.h - the all-to-all broadcast (allgather) as synthetic
 * traffic, the paper's execution-time experiment on the network alone
 * (`xnoc traffic --pattern allgather:tree|hnc|combine`, docs/network-coding.md).
 *
 * The schedule is the one `xnoc collective` runs (coll_builtin's binomial
 * tree, hnc_build's hierarchical network coding or message combining), but
 * no core runs it: every terminal's NI sends its transfers in schedule
 * order, each as soon as the NI holds what it carries (data-driven: a
 * phase starts at a node when the packets it depends on have arrived).
 * A datum is one packet of --packet L flits; a coded bundle of P parts is
 * P packets, each sent as soon as its part exists (the paper's coded
 * packets travel as soon as their two operands have arrived).
 *
 * hnc's coding at the intermediate node (IN) is done by the IN's router's
 * coding unit (xor_unit: two ENCODE contributions of L data flits from the
 * IN, the XOR back to the IN, traffic_nc.h nc_gen_pair), or like every
 * other XOR (decoding, combining's copies) by the node's NI, one XOR at a time, each
 * taking xor_overhead cycles once both operands are held (the paper's
 * "overhead to compute XOR", Sect. 5.6: 1 by default, 1..35 evaluated).
 *
 * With unit_mcast (--distribute unit), phase E is one step: the IN sends
 * each bundle part once, as an MC packet to its router's coding unit with
 * the group's other members in the mask (traffic_nc.h nc_gen_mcast); the
 * units fork the copies along the routes and every copy is checked.
 *
 * Execution cycles: the cycle by which every node holds every datum (the
 * maximum end-to-end completion).  Every flit is checked by the engine.
 *
 * With sync_steps (`--measure steps`) the steps are synchronized: no send
 * or XOR of step s+1 starts before every packet and XOR of step s is done.
 * Beside the makespan of that run it reports the paper's measure (Sect.
 * 5.3): the sum over the steps of each step's worst packet latency counted
 * from injection (the head entering the network, so source queueing at the
 * NI is excluded; a unit's XOR from its second contribution's injection to
 * the result's arrival). */
#ifndef XNOC_TRAFFIC_COLL_H
#define XNOC_TRAFFIC_COLL_H

#include <jansson.h>
#include <stdint.h>

#include "coll/ncmodel.h"
#include "net/topo.h"

typedef struct tcoll tcoll;

typedef struct {
    int algo;               /* ALGO_TREE, ALGO_HNC or ALGO_COMBINE (coll/coll.h) */
    int gw, gh;             /* hnc, combine: group shape; 0: the model's best */
    ncm_in_position in_pos; /* hnc, combine: where the intermediate nodes sit */
    int xor_overhead;       /* cycles per XOR at an NI */
    int xor_unit;           /* hnc: the IN's coding XORs in its router's unit (nc_gen_pair), not its NI */
    int unit_mcast;         /* hnc, combine: E's bundles leave the IN once, as unit multicasts (--distribute unit) */
    int sync_steps;         /* --measure steps: step s+1 starts when step s is complete (the paper's reading) */
} tcoll_opts;

struct sim; /* traffic_sim.h */

/* Builds the schedule on t with packets of len flits; NULL with one line in
 * err if the algorithm does not apply. */
tcoll *tcoll_new(const topo *t, const tcoll_opts *o, int len, char *err, int errlen);
void tcoll_free(tcoll *c);
/* Releases every packet whose content its source now holds, and the NIs'
 * XORs, at cycle now; 1 when every node holds every datum. */
int tcoll_step(tcoll *c, struct sim *s, uint64_t now);
/* The packet with index idx (in s->pk) arrived whole at cycle now. */
void tcoll_arrived(tcoll *c, size_t idx, uint64_t now);
/* A unit's XOR (xor_unit) with this tag arrived at cycle now (nc_done_fn; arg: the tcoll). */
void tcoll_unit_done(void *arg, int tag, uint64_t now);
/* A copy of a unit multicast (unit_mcast) with this tag reached terminal term (nc_deliver_fn). */
void tcoll_unit_delivered(void *arg, int tag, int term, uint64_t now);
/* "allgather": {...} into j; its lines of text to f, rendered from that
 * object a (so text and --json never disagree). */
void tcoll_json(const tcoll *c, json_t *j);
void tcoll_text(FILE *f, const json_t *a);

#endif
