/* mcast.h - broadcast and allgather by hardware multicast through the
 * routers' coding units (firmware/coll/mcast.c; docs/clos.md "Collectives
 * with hardware multicast"): a source sends each chunk of its message once
 * per route, a route being a unit and the mask of the terminals it serves
 * (on a clos: one spine the paper's routing control chose, net/clos_ctl.c,
 * and the destinations on the leaves that spine connects); the units
 * replicate.  Also the layout of the routes `xnoc collective --algo
 * multicast` places in a node's work area (IP_WORK, innet.h). */
#ifndef XNOC_MCAST_H
#define XNOC_MCAST_H

#include <stdint.h>

#define MCAST_MAX_ROUTES 32
#define MCAST_MASK_WORDS 4 /* NC_MASK_MAX (firmware/lib/xnoc.h) */
#define MCAST_TAG 0x4000   /* chunk k of every source's message: tag MCAST_TAG + k */

/* One route: the router whose unit replicates, and the terminals it sends to. */
typedef struct {
    uint64_t router;
    uint64_t mask[MCAST_MASK_WORDS];
} mcast_route;

/* The work area (64-bit words at IP_WORK): this node's routes and its step,
 * then every source's step (allgather: a source sends once it has the
 * messages of every source of an earlier step), then the routes. */
typedef struct {
    uint64_t nroutes, step;
    uint64_t per_source; /* 1: source s's message at buf + s * len (allgather); 0: at buf (bcast) */
    uint64_t sources[4]; /* bit s: terminal s sends a message */
    uint64_t src_step[256];
    mcast_route route[MCAST_MAX_ROUTES];
} mcast_plan;

/* Posts the receives of `len` bytes from every other source into its place
 * in buf, chunk by chunk; call before the barrier.  Returns the chunks per
 * message, or a negative INNET_* (innet.h). */
int coll_mcast_post(uint8_t *buf, uint32_t len, const mcast_plan *p);
/* Waits for the messages of every source of an earlier step than this
 * node's, sends this node's message along its routes (none: it only
 * receives), then waits for every posted message.  INNET_OK. */
int coll_mcast_run(uint8_t *buf, uint32_t len, const mcast_plan *p);

#endif
