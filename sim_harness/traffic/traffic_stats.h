/* traffic_stats.h - the statistics of a synthetic-traffic run (traffic_run.c)
 * beyond throughput: latency split into source queueing and network
 * latency, the measured injection rate, hop distribution, per-link stall
 * counts and sampled VC buffer occupancy, and the latency histogram
 * (docs/traffic.md relates each figure to BookSim2's). */
#ifndef XNOC_TRAFFIC_STATS_H
#define XNOC_TRAFFIC_STATS_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "traffic/traffic_sim.h"

/* VC occupancy is sampled every TRAFFIC_OCC_EVERY cycles of the window
 * (each sample reads every router input VC through the debug port). */
#define TRAFFIC_OCC_EVERY 100

typedef struct {
    uint64_t samples;
    uint64_t *sum; /* [r * nports + p]: flits in input port p of router r, summed over VCs and samples */
    uint64_t by_vc[ROUTER_MAX_VCS]; /* flits in VC v of the router-to-router input ports, summed */
    uint32_t *word;                 /* [r]: one sample of one port and VC of every router */
    long link_ports;                /* such ports */
} traffic_occ;

void traffic_occ_init(traffic_occ *o, const topo *t);
/* One sample, if cycle now is due (in the window, every TRAFFIC_OCC_EVERY cycles). */
void traffic_occ_sample(traffic_occ *o, sim *s, uint64_t now);
void traffic_occ_free(traffic_occ *o);

/* Sets the latency (total, queueing, network: min/avg/p50/p99/max), hop and
 * injection-rate keys on report o over the measured, delivered packets, and
 * stalls/occupancy on o's "links" entries (links_json's array); vcs: VCs per port. */
void traffic_stats_json(json_t *o, sim *s, traffic_occ *occ, int vcs, int one_at_a_time);
/* The text lines of the figures above (templates over o). */
void traffic_stats_print(FILE *f, const json_t *o, int one_at_a_time);
/* Writes the latency histogram of the measured, delivered packets as CSV
 * to f and closes it: "bin,count,network,queueing", bin = lower edge in
 * cycles, width bin_width; rows only for bins with a nonzero count.  -1
 * with errno on failure. */
int traffic_histogram_csv(FILE *f, const sim *s, uint64_t bin_width);

#endif
