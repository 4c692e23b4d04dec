/* links_report.h - per-channel flit counts and utilization, for every
 * command's report: router-to-router links from the routers' counters,
 * injection channels from the caller's counts, ejection channels from the
 * routers' terminal ports. */
#ifndef XNOC_LINKS_REPORT_H
#define XNOC_LINKS_REPORT_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include "net/net.h"
#include "net/topo.h"

/* inj_flits[ch] (ch = term*k + c): flits injected on each injection channel. */
json_t *links_json(const topo *t, xnoc_net *n, const uint64_t *inj_flits, uint64_t cycles);
/* Human table of the `top` busiest router-to-router links, rendered from
 * report o: its "links" (links_json's array) over its "cycles". */
void links_text(FILE *f, const json_t *o, int top);
/* Coding-unit counters (no-op without units): sets xor_ops, coded_packets,
 * mc_copies and units [{router, coded, xor_ops, replicated, contributions,
 * slot_max, slot_busy_cycles, slots_in_use}] on j. */
void units_json(json_t *j, const topo *t, xnoc_net *n);
/* One summary line, and a line per active unit, rendered from report o's
 * "units" (units_json); unit numbers follow the nterms terminals. */
void units_text(FILE *f, const json_t *o, int nterms);
/* Short name of a port: "+x", "cw", "t3.0" (terminal 3 channel 0). */
const char *links_port_name(const topo *t, int router, int port, char *buf, size_t len);

/* "router 3 port 1 (-x) VC 0 holds 8 flit(s)" for the first input VC that
 * buffers flits (the watchdogs' evidence of a deadlock); 0 and "" if the
 * routers are empty. */
int links_first_held(const topo *t, xnoc_net *n, int vcs, char *buf, size_t len);

#endif
