/* collective_report.h - the reports of `xnoc collective`: one builder per
 * family over one shared head (topology, op, algo, bytes, nodes, verified,
 * cycles, start_cycle), and one way out: JSON, or the text rendered from it,
 * then the error line and the exit status. */
#ifndef XNOC_COLLECTIVE_REPORT_H
#define XNOC_COLLECTIVE_REPORT_H

#include <jansson.h>

#include "collrun/coll_exec.h"
#include "collrun/coll_innet.h"
#include "collrun/coll_job.h"
#include "collrun/coll_mcast.h"
#include "collrun/coll_sw.h"

typedef enum {
    COLL_FAMILY_SCHED,
    COLL_FAMILY_INNET,
    COLL_FAMILY_SCAN,
    COLL_FAMILY_MCAST,
    COLL_FAMILY_SW
} collective_family;

/* a schedule's run (coll_execute): links (or NULL) the per-channel table, taken */
json_t *collective_report_sched(const coll_job *j, const router_cfg *rc, const coll_exec_opts *xo, coll_outcome *o,
                                double ts, double t1, json_t *links);
/* an in-network reduce or allreduce, a scan (op its name, func the unit operator) */
json_t *collective_report_innet(const topo *t, const char *op, int func, int bytes, const innet_result *m);
json_t *collective_report_scan(const topo *t, const char *op, int func, int bytes, const scan_result *s);
/* a reduce-scatter or allreduce on the cores (algo its --algo name) */
json_t *collective_report_sw(const topo *t, const char *op, const char *algo, int func, int bytes, const sw_result *s);
/* a collective by hardware multicast */
json_t *collective_report_mcast(const topo *t, const char *op, const mcast_opts *o, const mcast_result *m);

/* Prints report r (JSON, or its family's text) and its error line, frees it;
 * returns the exit status: 0 when verified, else 1 (or the signal's). */
int collective_report_emit(json_t *r, collective_family fam, int json);

#endif
