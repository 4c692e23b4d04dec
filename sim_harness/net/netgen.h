/* netgen.h - from the topology description to the RTL network: the Verilog
 * netlist that wires identical routers together, the per-channel part of the
 * C++ glue around the verilated model, and the configuration words (routing tables, port
 * attributes) loaded into the routers at reset. */
#ifndef XNOC_NETGEN_H
#define XNOC_NETGEN_H

#include <stdio.h>
#include "net/router_cfg.h"
#include "net/topo.h"

/* Writes module xnoc_network for t and rc.  monitor != 0 adds an output
 * per router port (mon_r<r>_p<p>_valid / _flit: the flit the router drives
 * on that output) and per coding unit (mon_u<r>_*: the flit the unit drives
 * into its router): the model variant behind hop-level events. */
void netgen_verilog(FILE *f, const topo *t, const router_cfg *rc, int monitor);

/* Writes xnoc_io.inc for t: drive_inputs() / read_outputs(), one straight
 * line per terminal channel, included by sim_harness/glue/xnoc_glue.cpp;
 * with monitor, read_monitor() (netgen_monitor_slots() flits: router r's
 * port p at r * ports + p, then unit r at routers * ports + r). */
void netgen_glue_io(FILE *f, const topo *t, const router_cfg *rc, int monitor);
int netgen_monitor_slots(const topo *t, const router_cfg *rc);

/* Router ports: the topology's, plus the coding unit's port (the last) when rc->ncu. */
int netgen_ports(const topo *t, const router_cfg *rc);
/* Addresses a head flit can name: terminals 0..nterms-1, then with coding
 * units the unit of router r at nterms + r. */
int netgen_addresses(const topo *t, const router_cfg *rc);
/* Output port at router r towards address addr (the routing table entry). */
int netgen_route(const topo *t, const router_cfg *rc, int r, int addr);

/* The configuration as rows written to every router at once (cfg_data_i
 * has a field per router: one cycle per row rather than one per router and row, which made loading
 * a 16x16 mesh cost 68,000 cycles).  Row i: kind (0 routing table, 1 port
 * attributes, 2 coding unit), addr (destination address, port, or unit
 * register), data[r] for router r: the output port netgen_route(t, rc, r, addr),
 * port_dim | dateline << PORT_DIM_W (3: flit.h), or a nibble of the router behind a port / of r. */
int netgen_config_rows(const topo *t, const router_cfg *rc);
void netgen_config_row(const topo *t, const router_cfg *rc, int row, int *kind, int *addr, uint8_t *data);

#endif
