/* traffic_nc_impl.h - what the coding-group generator's files share
 * (traffic_nc.c: groups, packets, budgets, starts; traffic_nc_check.c:
 * every delivery checked, the report); not for other folders. */
#ifndef XNOC_TRAFFIC_NC_IMPL_H
#define XNOC_TRAFFIC_NC_IMPL_H

#include <stdint.h>

#include "../../firmware/lib/flit.h"
#include "net/clos_ctl.h"
#include "traffic/traffic_nc.h"

enum { KIND_MC, KIND_CODED, KIND_CODED_MC, NKIND };
extern const char *const nc_kind_names[NKIND]; /* "multicast", "coded", "coded+multicast" */

enum { OP_REPLICATE = 0, OP_ENCODE = 1 };
#define OUT_NONE FLIT_NONE
#define MAX_CONTRIB 4

typedef struct {
    int active, kind;
    uint16_t tag;
    int len, nflits;           /* payload bytes, data flits */
    uint64_t *data;            /* expected payload, nflits words (zero padded) */
    int src;                   /* meta source the receivers must see */
    unsigned char *want;       /* [term] 1: must receive once, 2: received */
    int pending;               /* receipts still to come */
    int *uses;                 /* [router] slots this group holds */
    uint64_t started, created; /* created: multicast:F, the request entered its source's queue */
    int64_t model;             /* probe: expected latency, else -1 */
    int conn;                  /* clos multicast: the routing control's connection id, else -1 */
    int measured;              /* started in the measurement window (nc_gen_window) */
} group;

typedef struct {
    int active;
    group *g;
    int got; /* flits so far: head, meta, data */
} rx_state;

struct nc_gen {
    const topo *t;
    router_cfg rc;
    double rate;
    uint64_t rng;
    int na, mflits; /* addresses, mask flits per MC packet */
    group **by_tag; /* [65536] active group with that tag */
    int *load;      /* [router] slots budgeted */
    rx_state *rx;   /* [term * vcs + vc] */
    uint16_t next_tag;
    /* statistics */
    uint64_t started[NKIND], completed[NKIND], deliveries, packets_sent, dropped;
    uint64_t lat_sum, lat_max;
    int max_load;
    uint64_t probes, probe_max_dev, probe_sum_dev;
    /* --pattern multicast:F (nc_gen_multicast) */
    int fanout;             /* F destination terminals per multicast; 0: the --coding mix */
    unsigned char *sources; /* [term] 1: may start multicasts (--sources) */
    clos_net *clos;         /* a clos topology: the paper's routing control over its spines */
    uint64_t blocked;       /* multicasts the control algorithm could not route */
    uint64_t refused;       /* multicasts whose source leaf or an output leaf had all n ports busy */
    uint64_t mids;          /* middle switches (spines) chosen, summed over the routed multicasts */
    nc_done_fn *on_done;    /* nc_gen_on_done: told of every group delivered whole */
    void *done_arg;
    /* the measurement window [w0, w1) (nc_gen_window): BookSim-style figures */
    uint64_t w0, w1;
    uint64_t offered_w;    /* groups offered (multicast:F: a source's draw) in the window */
    uint64_t done_w;       /* groups whose last delivery arrived in the window */
    uint64_t flits_w;      /* flits ejected at destinations in the window (every copy counts) */
    uint64_t *src_done_w;  /* [term] multicast:F: done_w by source */
    uint64_t *lat, *lat_q; /* latencies of the measured groups delivered whole, their waits to start */
    size_t nlat, latcap;
    /* multicast:F: per source, the requests waiting to start, oldest first
     * (a request the control refuses or blocks, or whose units have no
     * free slot, waits and tries again next cycle: BookSim's source queue) */
    group ***mq;
    size_t *mq_head, *mq_len, *mq_cap;
    uint64_t queued, queued_max;   /* requests waiting now, at most */
    uint64_t meas_made, meas_done; /* measured requests made, delivered whole */
    nc_deliver_fn *on_delivery;    /* nc_gen_on_delivery: told of every copy delivered */
    void *delivery_arg;
};

/* frees a group's buffers (traffic_nc.c) */
void nc_group_free(group *gr);

/* now is in the measurement window [w0, w1) (nc_gen_window) */
static inline int in_window(const nc_gen *g, uint64_t now) { return now >= g->w0 && now < g->w1; }

#endif
