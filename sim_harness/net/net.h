/* net.h - a running RTL network: the verilated netlist of a topology,
 * built (or taken from the build cache) and loaded by net_open().
 *
 * One call of net_cycle() is one network clock cycle.  Terminal channels are
 * numbered ch = term * k + c.  Timing contract:
 *   - inj[ch] is the flit the NI drives on injection channel ch during this
 *     cycle; the router writes it into its input buffer at the clock edge.
 *     The NI must hold a credit for inj[ch].vc (it starts with `buf` credits
 *     per VC and gets one back in inj_credit[ch] for every flit the router
 *     moves out of that buffer).
 *   - ej_credit[ch] returns credits for the ejection channel: the router
 *     assumes the NI has `buf` flit slots per VC on every ejection channel.
 *   - after the call, ej[ch] holds the flit the router drives on ejection
 *     channel ch in the next cycle, inj_credit[ch] a credit for the NI.
 */
#ifndef XNOC_NET_H
#define XNOC_NET_H

#include <stdint.h>
#include <stddef.h>
#include "../../firmware/lib/link_flit.h"
#include "net/router_cfg.h"
#include "net/topo.h"

/* A flit on a terminal channel, and a credit: the structs the C++ glue
 * (sim_harness/glue/xnoc_glue.cpp) reads and writes, declared once in
 * firmware/lib/link_flit.h with its layout asserted there. */
typedef link_flit xnoc_flit;
typedef link_credit xnoc_credit;

typedef struct xnoc_net xnoc_net;

/* Builds or reuses the cached model for (topology, router config), loads the
 * routing tables and resets it.  progress != 0 prints build progress to
 * stderr.  NULL + one line in err on failure. */
xnoc_net *net_open(const topo *t, const router_cfg *rc, int progress, char *err, size_t errlen);
void net_close(xnoc_net *n);

void net_cycle(xnoc_net *n, const xnoc_flit *inj, const xnoc_credit *ej_credit, xnoc_flit *ej, xnoc_credit *inj_credit);

uint64_t net_now(const xnoc_net *n); /* cycles since reset */
int net_error(xnoc_net *n);          /* sticky RTL invariant flag (any router) */

/* Router performance counters and status, read through the debug port. */
uint64_t net_link_flits(xnoc_net *n, int router, int port);      /* flits sent on out port */
uint64_t net_port_stalls(xnoc_net *n, int router, int port);     /* cycles a flit waited for out port */
int net_vc_occupancy(xnoc_net *n, int router, int port, int vc); /* flits buffered */
/* the same of every router at once, out[r] for router r (one model evaluation) */
void net_vc_occupancy_all(xnoc_net *n, int port, int vc, uint32_t *out);
uint32_t net_error_bits(xnoc_net *n, int router); /* 1 credit, 2 fifo, 4 bad VC, 8 bad route */

/* Coding units (rc.ncu): counters of the unit of a router. */
typedef struct {
    uint64_t coded;            /* result packets emitted by coding groups */
    uint64_t xor_ops;          /* data flits XORed into a slot that already held data */
    uint64_t replicated;       /* multicast copies emitted */
    uint64_t slot_busy_cycles; /* sum over cycles of slots in use */
    uint64_t contributions;    /* packets absorbed */
    uint64_t clocked_cycles;   /* cycles its gated clock ran since reset (the rest it was idle, clock off) */
    int slot_max, slots_in_use;
    uint32_t error_bits;
} net_unit;
int net_has_units(const xnoc_net *n);
void net_unit_stats(xnoc_net *n, int router, net_unit *u);
/* Slot state (0 free, 1 collecting, 2 XOR latency, 3 emitting) and its group. */
int net_unit_slot(xnoc_net *n, int router, int slot, int *tag, int *got, int *need);
/* One line naming the first router or unit with a sticky error, and its
 * kind: NET_ERR_ROUTER (an RTL invariant or assertion), NET_ERR_UNIT (a
 * coding unit refused a packet or group), NET_ERR_TIMEOUT (a coding group
 * incomplete at the unit's time-out, --router timeout); 0 if none. */
enum { NET_ERR_ROUTER = 1, NET_ERR_UNIT = 2, NET_ERR_TIMEOUT = 3 };
int net_describe_error(xnoc_net *n, char *buf, size_t len);

/* Link taps (hop-level events): before the first cycle, switch to the model
 * variant whose every router output is tapped (built and cached on first
 * use).  Afterwards, after each net_cycle(), net_monitor() holds the flit
 * on every router output and coding-unit output in cycle net_now(): router
 * r's port p at [r * P + p] (P = the topology's ports, plus the unit's), then
 * unit r's output into its router at [routers * P + r].  NULL before. */
int net_monitor_open(xnoc_net *n, char *err, size_t errlen);
const xnoc_flit *net_monitor(const xnoc_net *n);

/* Waveforms: cycles [from, to) of the run go to a VCD file. */
int net_trace(xnoc_net *n, const char *path, uint64_t from, uint64_t to, char *err, size_t errlen);

#endif
