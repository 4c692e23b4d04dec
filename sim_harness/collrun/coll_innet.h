/* coll_innet.h - reduce and allreduce combined inside the network by the
 * routers' coding units, along the dimension-ordered tree of a mesh or torus
 * (firmware/coll/innet.h) or the route tree of other topologies, and the
 * scans by recursive doubling on the cores: every word checked against the
 * host's own reduction after the run.  `xnoc collective --algo innet` and
 * `--op scan` check the options and render the report (cmd/). */
#ifndef XNOC_COLL_INNET_H
#define XNOC_COLL_INNET_H

#include <stdint.h>

#include "collrun/coll_image.h"
#include "net/router_cfg.h"
#include "net/topo.h"

/* What to run. */
typedef struct {
    int kind; /* INNET_KIND_REDUCE, _ALLREDUCE, _SCAN or _EXSCAN (firmware/coll/innet.h) */
    int func; /* the unit operator, NC_FUNC_* (coll/ncfunc.h nc_redop_parse: --reduce-op) */
    int bytes; /* a multiple of coll_lane_bytes(func) (firmware/coll/reduce.h); reduce, allreduce: at most INNET_MAX_CHUNKS chunks */
    int root;  /* reduce: the root terminal, -1: the default (the middle router's first terminal, ...) */
    int innet; /* scan, exscan: 1 through the routers' streaming units (a chain), 0 on the cores */
    uint32_t seed;
    uint64_t max_cycles;
} innet_opts;

/* How it went: the run, the tree, the model (docs/collectives.md "In-network reduction"). */
typedef struct {
    coll_image_result run;
    int root, root_router, depth, max_fan_in, chunks, chunk_bytes, window;
    double model_cycles, model_round_trip, model_per_chunk, model_unit_input, model_window, model_root;
    const char *model_bound;
} innet_result;

/* A scan's: its steps, the most routers a step's messages pass, the model. */
#define SCAN_MAX_STEPS 32
typedef struct {
    coll_image_result run;
    int steps, routers_per_step[SCAN_MAX_STEPS];
    double model_cycles;
    /* innet: the chain's units, links, most links of an edge, packets a unit sends per data
     * flit (its prefix and its terminals' results, interleaved on one link), chunks */
    int chain_units, chain_links, chain_max_links, per_flit, chunks;
} scan_result;

/* the bytes of a chunk (the units' ncmax flits, at most 256), the chunks in
 * flight (a unit holds window + 1 groups), a scan's steps */
int innet_chunk_bytes(const router_cfg *rc);
/* a reduction's chunk: a streaming reduce's as long as the lanes take (--router smax: its
 * result reaches the root without a slot), else innet_chunk_bytes */
int innet_reduce_chunk_bytes(const router_cfg *rc, int all);
/* the --router option that sets that chunk ("smax" or "ncmax") and its value, for refusals */
const char *innet_chunk_option(const router_cfg *rc, int all, int *value);
int innet_window(const router_cfg *rc);
/* the chunks of a reduction of `bytes` (kind INNET_KIND_*): a reduce-scatter's blocks (reduce.h
 * coll_block_len over nt terminals) each in chunks of its own */
int innet_chunks(int kind, int func, int bytes, int nt, int chunk);
int innet_scan_steps(const topo *t);

/* Runs a reduce or allreduce (o->kind) as o says, every result word checked.
 * Returns COLLRUN_RAN (r says how it went), COLLRUN_REFUSED (a unit would
 * combine more than 15 contributions; or the system cannot be built) or
 * COLLRUN_FAILED (a router the root's routes do not reach); r->run.error
 * says why, r->run.planning when the tree refused it. */
int collrun_innet(const topo *t, const router_cfg *rc, const innet_opts *o, const coll_exec_opts *xo, innet_result *r);
/* Runs a scan or exscan (o->kind) on the cores, or (o->innet) through the streaming units
 * along the chain of routers in id order, every node's prefix checked.  innet: COLLRUN_REFUSED
 * with run.planning when the chain's edges do not take disjoint links (or terminals are not
 * numbered router by router). */
int collrun_scan(const topo *t, const router_cfg *rc, const innet_opts *o, const coll_exec_opts *xo, scan_result *r);

#endif
