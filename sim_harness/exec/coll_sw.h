/* coll_sw.h - `xnoc collective --op reducescatter` and `--op allreduce`
 * with a software algorithm (--algo halving, ring; rabenseifner, ring,
 * reduce-bcast): the firmware collective library's coll_reduce_scatter and
 * coll_allreduce (firmware/coll/reduce.c) on every core, every result word
 * checked against the host's reduction after the run. */
#ifndef XNOC_COLL_SW_H
#define XNOC_COLL_SW_H

#include "exec/coll_exec.h"
#include "exec/coll_innet.h"
#include "net/router_cfg.h"
#include "net/topo.h"

/* the algorithm (COLL_RS_* for reducescatter, COLL_AR_* for allreduce,
 * firmware/coll/reduce.h) of an --algo name, or -1; rs: 1 for reducescatter */
int coll_sw_algo_parse(int rs, const char *name);
/* the names coll_sw_algo_parse takes, for an error line */
const char *coll_sw_algo_list(int rs);
/* Runs a->op (reducescatter or allreduce) with algorithm algo and prints the
 * report; returns the exit status. */
int coll_sw_cmd(const topo *t, const router_cfg *rc, const innet_args *a, int algo, const coll_exec_opts *xo);

#endif
