/* coll_sw.h - reduce-scatter and allreduce in software on the cores: the
 * firmware collective library's coll_reduce_scatter and coll_allreduce
 * (firmware/coll/reduce.c) run by coll-innet.elf on every node, every result
 * word checked against the host's reduction after the run.  `xnoc
 * collective --op reducescatter` and `--op allreduce --algo rabenseifner |
 * ring | reduce-bcast` check the options and render the report (cmd/). */
#ifndef XNOC_COLL_SW_H
#define XNOC_COLL_SW_H

#include <stdint.h>

#include "collrun/coll_image.h"
#include "net/router_cfg.h"
#include "net/topo.h"

/* What to run. */
typedef struct {
    int rs;    /* 1: coll_reduce_scatter (algo COLL_RS_*), 0: coll_allreduce (COLL_AR_*, not innet) */
    int algo;  /* firmware/coll/reduce.h; halving and rabenseifner need a power of two of terminals */
    int func;  /* the operator, NC_FUNC_* */
    int bytes; /* a multiple of coll_lane_bytes(func) */
    uint32_t seed;
    uint64_t max_cycles;
} sw_opts;

/* How it went: the run, the most cycles a core spent combining (and its words), the model
 * (docs/collectives.md "Software reductions"). */
typedef struct {
    coll_image_result run;
    uint32_t combine_cycles, combine_words;
    double model_cycles;
    int model_steps;
} sw_result;

/* Runs it as o says, every result word checked.  Returns COLLRUN_RAN (r says how it went)
 * or COLLRUN_REFUSED (the system cannot be built, or recursive halving on a count of
 * terminals that is not a power of two); r->run.error says why. */
int collrun_sw(const topo *t, const router_cfg *rc, const sw_opts *o, const coll_exec_opts *xo, sw_result *r);

#endif
