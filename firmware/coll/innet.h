/* innet.h - reduce and allreduce inside the network: the routers' coding
 * units combine the contributions along a spanning tree (firmware/coll/
 * innet.c; docs/collectives.md "In-network reduction").  Also the layout of
 * the small plan `xnoc collective --algo innet` places in a node's RAM for
 * build/firmware/coll-innet.elf, one definition for the firmware and the
 * harness (sim_harness/cmd/coll_innet.c). */
#ifndef XNOC_INNET_H
#define XNOC_INNET_H

#include <stdint.h>

/* Chunks of one reduction in flight per terminal (the window): a terminal
 * sends chunk k only after it has the result (allreduce) or the root's
 * acknowledgement (reduce) of chunk k - INNET_WINDOW.  A unit then holds at
 * most INNET_WINDOW + 1 groups at once, within its 4 slots (the default
 * --router slots), so no contribution waits at a unit's input for a slot
 * that only a contribution behind it could free. */
#define INNET_WINDOW 3
/* Another window (routers built with --router slots=S take S - 1); < 1: the default. */
void coll_innet_set_window(int w);
#define INNET_MAX_CHUNKS 256 /* 64 KiB in chunks of 256 bytes */

/* return values of coll_innet */
enum { INNET_OK = 0, INNET_NO_UNITS = -1, INNET_TOPOLOGY = -2, INNET_LENGTH = -3, INNET_OP = -4 };

/* The dimension-ordered tree of a mesh or torus, rooted at router `root`
 * (wrap-around links are not used): router r's parent is its neighbour one
 * step towards the root in the highest dimension where their coordinates
 * differ.  The root's unit multicasts along dimension-order routes (lowest
 * dimension first), which is the same tree walked down.  Returns the
 * parent (-1 at the root); *count: the contributions r's unit combines
 * (its children plus its terminals). */
int innet_parent(int r, int root, int *count);
/* A tree of the caller's instead (the harness's, on topologies other than
 * mesh and torus: the routes from the root's router, walked backwards):
 * this terminal's router's parent (-1 at the root), the contributions its
 * unit combines, and the parent's.  count 0: back to the dimension-ordered
 * tree.  With a tree given, coll_innet needs an explicit root. */
void coll_innet_set_tree(int parent, int count, int parent_count);
/* the tree coll_innet_set_tree gave (1), or none (0: *parent.. untouched) */
int innet_given_tree(int *parent, int *count, int *parent_count);
/* The router whose unit takes this terminal's contributions (-1: its own
 * router's, the default).  A clos's spines have no terminals: the root
 * terminal feeds the spine at the tree's root directly, and that spine is
 * then the root's unit (its result comes from there, the multicast goes
 * down from there). */
void coll_innet_set_unit(int router);
/* the tree's depth: the most router-to-router links from a router to the root */
int innet_depth(int root);
/* buf[0..len) of every terminal combined by the unit operator op
 * (NC_FUNC_*, firmware/lib/flit.h), inside the network: the result lands in
 * buf of every terminal (allreduce) or of terminal root only (reduce;
 * root = -1: the first terminal of the middle router).  len: a multiple of
 * 4 bytes (8 for NC_FUNC_ADD64), at most INNET_MAX_CHUNKS chunks.  Every
 * terminal must call it with the same arguments; NI channel 0 carries it.
 * Returns INNET_OK or a negative INNET_* (nothing was sent). */
int coll_innet(void *buf, uint32_t len, int op, int root, int all);
/* the allreduce: coll_allreduce(buf, len, op, COLL_AR_INNET, 0) (reduce.h) */
static inline int coll_reduce(void *buf, uint32_t len, int op, int root) { return coll_innet(buf, len, op, root, 0); }
/* coll_innet on routers whose units stream (built with --router stream=1; firmware/coll/
 * innet_stream.c, docs/network-coding.md "Streaming reduction"), on a mesh's own tree or
 * on a tree given by coll_innet_set_tree (the harness's: one link from every router to
 * its parent, the root's routes down along the same links; then root >= 0): every
 * contribution goes as NC_STREAM into its own lane of its router's unit and is combined
 * flit by flit; the root's unit multicasts an allreduce's result to every terminal itself
 * (a reduce's goes to the root).  No unit holds a chunk, so there is no window: every
 * chunk's receive is posted and the chunk sent, then the results are waited for. */
int coll_innet_stream(void *buf, uint32_t len, int op, int root, int all);
/* The scan through streaming units (docs/network-coding.md "In-network scan"): a chain of the
 * routers in id order (a mesh's rows one after another, an octagon's ring), each unit combining
 * the prefix from the one before with its terminals' data flit by flit, sending the prefix on and
 * each terminal its result: inclusive, or exclusive (terminal 0: the operator's identity).  The
 * harness checks that the network suits it (link-disjoint chain edges).  Chunks as long as the
 * streaming lanes take (--router smax). */
int coll_innet_scan_stream(void *buf, uint32_t len, int op, int exclusive);

/* The reduce-scatter through streaming units (--op reducescatter --algo innet --router
 * stream=1): as coll_innet_stream's reduce, but the root's unit sends the result of block b
 * (reduce.h coll_block_off, coll_block_len; each block in chunks of its own) to terminal b,
 * down the tree's edges; terminal i ends with block i of the combined buffer in place. */
int coll_innet_stream_rs(void *buf, uint32_t len, int op, int root);

/* ---- the plan of coll-innet.elf (32-bit words at DEV_PLAN) ---- */
/* IP_KIND: what the image runs (scan: software, firmware/coll/scan.h) */
enum {
    INNET_KIND_REDUCE,
    INNET_KIND_ALLREDUCE,
    INNET_KIND_SCAN,
    INNET_KIND_EXSCAN,
    INNET_KIND_MCAST,
    INNET_KIND_RS,   /* coll_reduce_scatter (reduce.h), IP_ALGO: COLL_RS_*, the work area at IP_WORK */
    INNET_KIND_SWAR, /* coll_allreduce in software, IP_ALGO: COLL_AR_*, the work area at IP_WORK */
};
/* INNET_KIND_MCAST: bcast or allgather by hardware multicast (mcast.h), the plan
 * (mcast_plan) at IP_WORK */
#define INNET_MAGIC 0x544E4E49u /* "INNT" */
enum {
    IP_MAGIC,
    IP_KIND,   /* INNET_KIND_* */
    IP_FUNC,   /* NC_FUNC_* */
    IP_BYTES,  /* the message */
    IP_ROOT,   /* the reduce's root terminal (-1: the default) */
    IP_BUF,    /* address of the data (in: this node's contribution, out: the result) */
    IP_STATUS, /* written by the firmware: 1 done, 2 + -(coll_innet's value) refused */
    IP_T0_LO,  /* cycle stamps of the timed region: its start (after the barrier) */
    IP_T0_HI,
    IP_T1_LO, /* and its end */
    IP_T1_HI,
    IP_WINDOW, /* chunks in flight (coll_innet_set_window) */
    IP_PARENT, /* coll_innet_set_tree's arguments (IP_COUNT 0: the mesh's own tree) */
    IP_COUNT,
    IP_PCOUNT,
    IP_WORK,           /* scan: the work area (scan.h) */
    IP_ABSENT,         /* 1: this node does not join (XNOC_TEST_ABSENT: the failure path of a missing contribution) */
    IP_UNIT,           /* coll_innet_set_unit's router + 1 (0: the terminal's own router) */
    IP_ALGO,           /* INNET_KIND_RS, _SWAR: the algorithm */
    IP_COMBINE_CYCLES, /* written by the firmware (RS, SWAR): cycles combining on the core */
    IP_COMBINE_WORDS,  /* and the 32-bit words combined */
    IP_STREAM,         /* 1: the units stream (coll-innet.elf runs coll_innet_stream); 2: with kind
                          REDUCE, the reduce-scatter coll_innet_stream_rs */
    IP_WORDS = 24
};

#endif
