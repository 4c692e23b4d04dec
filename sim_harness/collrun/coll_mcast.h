/* coll_mcast.h - `xnoc collective --algo multicast`: bcast and allgather on a
 * clos by hardware multicast, each multicast routed through the spines the
 * paper's routing control (net/clos_ctl.c) picks, the units replicating;
 * every byte checked after the run (docs/clos.md "Collectives with
 * hardware multicast"). */
#ifndef XNOC_COLL_MCAST_H
#define XNOC_COLL_MCAST_H

#include "collrun/coll_innet.h"

/* a->op: "bcast" (a->from: the root, default 0) or "allgather"; prints the report, returns the exit status */
int coll_mcast_cmd(const topo *t, const router_cfg *rc, const innet_args *a, const coll_exec_opts *xo);

#endif
