/* traffic_nc.h - coding groups and multicasts for `xnoc traffic --coding R`.
 *
 * A generator of network-coding work for the routers' coding units, mixed
 * into the synthetic background traffic and checked byte for byte:
 *   multicast      a terminal sends one MC packet (REPLICATE) to its router's
 *                  unit with a random set of destination terminals; every
 *                  destination must receive the payload once;
 *   coded          2..4 terminals send ENCODE contributions (same tag) to a
 *                  random unit; one terminal must receive their XOR;
 *   coded+mc       the same, the XOR leaving as a multicast (out_mc) from a
 *                  second unit to a random set of terminals.
 * Packets use the NI framing (docs/ni.md: head, meta, mask flits, data).
 *
 * Slot budget: a group starts only if every unit it passes through (the
 * coding unit, each unit of a replication tree, with multiplicity) has a
 * free slot in the budget of --router slots, else it is dropped (counted,
 * not retried); a group gives its slots back when its last delivery
 * arrives.  The packets wait in their sources' coding queues, which go
 * ahead of the background traffic (traffic_gen.c).  With that budget a unit always has a
 * slot for the packet at its input, so units always consume and the
 * network's own deadlock freedom carries over (docs/network-coding.md).
 */
#ifndef XNOC_TRAFFIC_NC_H
#define XNOC_TRAFFIC_NC_H

#include <jansson.h>
#include <stdint.h>
#include "net/net.h"
#include "net/topo.h"

typedef struct nc_gen nc_gen;

/* rate: groups started per cycle (network-wide, 0 < rate <= 1). */
nc_gen *nc_gen_new(const topo *t, const router_cfg *rc, double rate, uint64_t seed);
void nc_gen_free(nc_gen *g);

/* --pattern multicast:F: from now on nc_gen_step starts only multicasts,
 * each terminal of sources[] one to F random destinations with probability
 * rate per cycle; on a clos through the stages, the spines chosen by the paper's
 * routing control (net/clos_ctl.h), one MC packet per chosen spine
 * (traffic_nc.c, start_multicast). */
void nc_gen_multicast(nc_gen *g, int fanout, const unsigned char *sources);

/* The measurement window [from, to): groups started in it are measured
 * (their latency, creation to the tail of the last copy, is kept), groups
 * offered in it and delivered whole in it are counted, and so are the flits
 * ejected at their destinations in it (every copy of a multicast). */
void nc_gen_window(nc_gen *g, uint64_t from, uint64_t to);
typedef struct {
    uint64_t offered;             /* groups offered in the window (started, or refused, blocked, dropped) */
    uint64_t accepted;            /* groups delivered whole (last copy's tail) in the window */
    uint64_t flits;               /* flits ejected at destinations in the window, every copy */
    const uint64_t *src_accepted; /* [term] multicast:F: accepted by source */
    const uint64_t *lat;   /* latencies of the measured groups delivered whole: creation to the last copy's tail */
    const uint64_t *lat_q; /* [i] the part of lat[i] a multicast:F request waited at its source to start */
    size_t nlat;
} nc_window;
void nc_gen_window_stats(nc_gen *g, nc_window *w);
/* multicast:F: whether a measured request is still waiting or in flight;
 * dropping the requests still waiting at their sources (the drain's end). */
int nc_gen_measured_pending(const nc_gen *g);
void nc_gen_drop_queued(nc_gen *g);

/* Maybe starts a group at cycle now; every packet it needs is handed to
 * emit(arg, source terminal, flits, nflits) (copied by the callee). */
typedef void nc_emit_fn(void *arg, int src, const uint64_t *flits, int nflits);
void nc_gen_step(nc_gen *g, uint64_t now, nc_emit_fn *emit, void *arg);

/* Zero-load probe (--pattern unitpairs): one coding group of a single
 * contribution (count 1) of `flits` data flits from terminal src through
 * the unit of router u to terminal dst.  Its delivery is compared with the
 * model 3*(H1 + H2) + 2*F + xorlat + 3 cycles (F = 2 + flits: head, meta,
 * data; H1, H2 routers on the way to and from the unit, both counting the
 * unit's router); the deviations are kept for nc_gen_probe_result(). */
void nc_gen_probe(nc_gen *g, uint64_t now, int src, int u, int dst, int flits, nc_emit_fn *emit, void *arg);
/* One XOR in a unit (--pattern allgather:hnc, the intermediate node's
 * coding): terminal src sends two ENCODE contributions (count 2) of `flits`
 * random data flits to the unit of router u, whose XOR goes to terminal
 * dst, checked byte for byte.  Returns the group's tag, or -1 (nothing
 * sent) while u's slots are all budgeted. */
int nc_gen_pair(nc_gen *g, uint64_t now, int src, int u, int dst, int flits, nc_emit_fn *emit, void *arg);
/* One multicast through a unit (--pattern allgather:hnc|combine --distribute
 * unit, phase E): terminal src sends ONE MC packet (REPLICATE) of `flits`
 * random data flits to the unit of its own router, with the mask dests
 * ([terminal] 1: a destination); the units replicate it along the routes
 * and every copy is checked byte for byte.  Returns the group's tag, or -1
 * (nothing sent) while a unit of its tree has no slot left in the budget. */
int nc_gen_mcast(nc_gen *g, uint64_t now, int src, const unsigned char *dests, int flits, nc_emit_fn *emit, void *arg);
/* fn(arg, tag, now) for every group delivered whole, from now on */
typedef void nc_done_fn(void *arg, int tag, uint64_t now);
void nc_gen_on_done(nc_gen *g, nc_done_fn *fn, void *arg);
/* fn(arg, tag, term, now) for every copy delivered whole to a terminal */
typedef void nc_deliver_fn(void *arg, int tag, int term, uint64_t now);
void nc_gen_on_delivery(nc_gen *g, nc_deliver_fn *fn, void *arg);
void nc_gen_probe_result(const nc_gen *g, uint64_t *probes, uint64_t *max_dev, uint64_t *sum_dev);

/* Whether a head flit is in the NI framing (not the background's). */
static inline int nc_is_head(uint64_t w) { return !(w >> 63); }

/* A flit ejected at terminal term on VC vc that belongs to an NC packet
 * (its head satisfied nc_is_head).  Returns 0, or -1 with one line in err. */
int nc_gen_flit(nc_gen *g, int term, int vc, const xnoc_flit *f, uint64_t now, char *err, size_t errlen);

/* Groups started and not yet fully delivered, and multicast:F requests waiting. */
int nc_gen_busy(const nc_gen *g);
/* Names the oldest outstanding group (for a stall or lost report). */
void nc_gen_describe_pending(const nc_gen *g, char *buf, size_t len);

/* "coding": {...} into j; its summary line(s) to f, rendered from that
 * object c (so text and --json never disagree). */
void nc_gen_json(const nc_gen *g, json_t *j);
void nc_gen_text(FILE *f, const json_t *c);

#endif
