/* netgen.h - from the topology description to the RTL network: the Verilog
 * netlist that wires identical routers together, the per-channel part of the
 * C++ glue around the verilated model, and the configuration words (routing tables, port
 * attributes) loaded into the routers at reset. */
#ifndef XNOC_NETGEN_H
#define XNOC_NETGEN_H

#include <stdio.h>
#include "net.h"
#include "topo.h"

#define NET_FW(rc) ((rc)->pw + 5)

/* Writes module xnoc_network for t and rc. */
void netgen_verilog(FILE *f, const topo *t, const router_cfg *rc);

/* Writes xnoc_io.inc for t: drive_inputs() / read_outputs(), one straight
 * line per terminal channel, included by sim_harness/glue/xnoc_glue.cpp. */
void netgen_glue_io(FILE *f, const topo *t);

/* One config write: router, kind (0 table, 1 port attributes), addr, data. */
typedef struct { int router, kind, addr, data; } netgen_cfg;

/* All config writes for t; returns a malloc'ed array and its length. */
netgen_cfg *netgen_config(const topo *t, int *n);

#endif
