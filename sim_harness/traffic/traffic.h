/* traffic.h - the synthetic-traffic engine behind `xnoc traffic`: BookSim-style
 * traffic on the RTL network, every flit checked at its destination.
 *
 *     traffic_run *r = traffic_open(&opts);   // the network, the terminals
 *     traffic_run_loop(r, vw);                // warm-up, window, drain
 *     json_t *o = traffic_report(r);          // every figure (the text is a template over it)
 *     traffic_free(r);
 *
 * Each terminal creates packets (Bernoulli or Markov on/off, `rate`
 * flits/terminal/cycle) into an unbounded source queue; its NI sends them
 * one at a time per injection channel on a class-0 VC, honouring credits.
 * Packets created in the measurement window are measured; the run drains
 * until every measured packet has arrived (or says it saturated).  Latency
 * runs from creation to the tail's arrival, so it includes source queueing.
 *
 * Payload check: a head carries src, sequence number and length with a
 * checksum in its free bits; body flit i carries hash(src, seq, i).  Any
 * corrupted, misrouted, duplicated, out-of-order or lost flit is an error.
 *
 * Zero-load model (docs/router.md): a packet of L flits crossing H routers
 * arrives 1 + 3*H + L - 1 cycles after it is created: one cycle on the
 * registered NI-to-router link, three per router, then one per body flit.
 * PAT_ALLPAIRS sends one packet at a time for every (src, dst) pair and
 * reports the largest deviation from that model (0 when the RTL matches it
 * exactly); PAT_UNITPAIRS does the same through every coding unit. */
#ifndef XNOC_TRAFFIC_H
#define XNOC_TRAFFIC_H

#include <jansson.h>
#include <stdint.h>

#include "net/net_loop.h"
#include "net/router_cfg.h"
#include "net/topo.h"
#include "traffic/traffic_coll.h"
#include "traffic/traffic_sim.h"
#include "traffic/traffic_stats.h"
#include "view/view.h"

/* What to run: the options of `xnoc traffic`, checked by the caller. */
typedef struct {
    const topo *t; /* the caller's; outlives the run */
    router_cfg rc;
    int ports; /* injection/ejection channels per terminal (t's k) */
    int pattern;
    int fanout; /* --pattern multicast:F: F destinations per multicast (0: not multicast) */
    pkt_sizes sizes;
    const char *packet_spec;        /* --packet as given (the report names a distribution by it) */
    const char *injection;          /* --injection as given */
    double alpha, beta;             /* on/off: off->on, on->off per cycle; alpha 0: Bernoulli */
    double rate, coding;            /* flits/terminal/cycle; coding groups per cycle (0: none) */
    uint64_t cycles, warmup, drain; /* drain 0: 10 x cycles + 10000 */
    uint64_t seed;
    const unsigned char *inject_mask; /* [terminal] 1: it injects */
    const char *trace;                /* --trace F.vcd (or NULL), cycles [trace_from, trace_to) */
    uint64_t trace_from, trace_to;
    tcoll_opts coll; /* --pattern allgather:A */
} traffic_opts;

/* A run stalls when flits are in flight and none has entered or left the
 * network for more than this many cycles (net_loop_stalled). */
#define TRAFFIC_STALL_CYCLES 2000

typedef struct {
    sim s;                       /* the engine's state (traffic_sim.h) */
    traffic_opts o;              /* a copy of the options */
    traffic_occ occ;             /* sampled VC occupancy */
    unsigned char *on;           /* on/off: [terminal] in the on state */
    double p_new, p_on;          /* packets per cycle: Bernoulli, and in the on state */
    int ap_src, ap_dst, ap_busy; /* allpairs/unitpairs: the next pair, one in flight */
    uint64_t ap_pairs, ap_max_dev, ap_sum_dev;
    net_loop loop; /* the cycle loop shared with firmware runs: channels, test hooks, stall evidence */
    uint64_t now, end_measure, deadline;
    uint64_t total_cycles;                                      /* cycles simulated (after traffic_run_loop) */
    int saturated, drain_timed_out, stalled, net_held, rtl_err; /* rtl_err: NET_ERR_* (net.h), 0: none */
    int interrupted; /* 1: the view was closed, 2: Ctrl-C, 3: a picture could not be written */
    char stall_msg[700];
    /* the run stopped before it drained (stall or deadlock): the line, its
     * kind ("deadlock", "stall", or after an RTL error traffic_rtl_kind's);
     * the report has ok false; NULL kind: it did not */
    char fail_msg[1400];
    const char *fail_kind;
    double t0; /* cli_now() at the start (progress) */
} traffic_run;

/* Why traffic_open refused: the network did not open, its trace did not,
 * the allgather pattern cannot run on it, a test hook's value is bad. */
typedef enum {
    TRAFFIC_OPEN_NET = 1,
    TRAFFIC_OPEN_TRACE,
    TRAFFIC_OPEN_ALLGATHER,
    TRAFFIC_OPEN_TEST_HOOK
} traffic_refusal;

/* Opens the network (and its trace) and prepares every terminal; NULL when
 * it cannot (*why says what, err the reason, for the command's one line). */
traffic_run *traffic_open(const traffic_opts *o, traffic_refusal *why, char *err, size_t errlen);
/* Runs warm-up, window and drain (or the pairs one at a time), showing the
 * view vw (or NULL).  A deadlock ends the command (exit 1) with one line;
 * lost packets and RTL invariant errors are counted in r->s. */
void traffic_run_loop(traffic_run *r, view *vw);
/* error_kinds' name of a net_describe_error kind: "unit_timeout" (a coding
 * group timed out at its unit) or "rtl_invariant" (a router or unit fault) */
const char *traffic_rtl_kind(int net_err);
/* The run's report: configuration, throughput, latency, errors, links,
 * units, coding and per-terminal figures (the caller frees it). */
json_t *traffic_report(traffic_run *r);
/* 1 for pairs one at a time (PAT_ALLPAIRS, PAT_UNITPAIRS). */
int traffic_one_at_a_time(const traffic_run *r);
void traffic_free(traffic_run *r);

#endif
