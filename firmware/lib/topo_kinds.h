/* topo_kinds.h - the topology kinds' numbers, one list for both sides: what
 * the node device's DEV_TOPO_KIND register reads (firmware/lib/runtime.c,
 * firmware/coll/innet.c) and the harness's topo_kind (sim_harness/net/topo.h
 * takes its values from here).  tests/abi.t.sh greps the firmware for a kind
 * compared with a bare number, and shows that the check bites. */
#ifndef XNOC_TOPO_KINDS_H
#define XNOC_TOPO_KINDS_H

#define XNOC_KIND_MESH 0
#define XNOC_KIND_TORUS 1
#define XNOC_KIND_OCTAGON 2
#define XNOC_KIND_DRAGONFLY 3
#define XNOC_KIND_CLOS 4
#define XNOC_KIND_ANYNET 5

#endif
