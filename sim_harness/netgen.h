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

/* The configuration as rows written to every router at once (cfg_bcast_i:
 * one cycle per row rather than one per router and row, which made loading
 * a 16x16 mesh cost 68,000 cycles).  Row i: kind (0 routing table, 1 port
 * attributes), addr (destination terminal or port), data[r] for router r:
 * the output port topo_route(t, r, addr), or port_dim | dateline << 2. */
int netgen_config_rows(const topo *t);
void netgen_config_row(const topo *t, int row, int *kind, int *addr, uint8_t *data);

#endif
