/* mcast.c - broadcast and allgather by hardware multicast (mcast.h): one
 * packet per chunk and route to the route's unit (REPLICATE, the route's
 * mask), received in place by posted receives matched on (source, tag). */
#include "mcast.h"

#include "innet.h"
#include "xnoc.h"

_Static_assert(MCAST_MASK_WORDS == NC_MASK_MAX, "mcast_route.mask is a coding mask");

static volatile uint32_t got[256]; /* chunks landed, per source */
static uint32_t chunk_bytes(void)
{
    uint32_t c = (uint32_t)nc_max_bytes() & ~7u;
    return c > 256 ? 256 : c;
}

static int has(const mcast_plan *p, int s) { return (int)(p->sources[s / 64] >> (s % 64)) & 1; }

int coll_mcast_post(uint8_t *buf, uint32_t len, const mcast_plan *p)
{
    uint32_t chunk = chunk_bytes();
    int nt = node_count(), me = node_id();
    if (!nc_units()) return INNET_NO_UNITS;
    if (!len || !chunk || (len + chunk - 1) / chunk > INNET_MAX_CHUNKS || nt > 256) return INNET_LENGTH;
    uint32_t n = (len + chunk - 1) / chunk;
    for (int s = 0; s < nt; s++) {
        got[s] = 0;
        if (s == me || !has(p, s)) continue;
        uint8_t *b = buf + (p->per_source ? (uint32_t)s * len : 0);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t off = k * chunk, l = len - off < chunk ? len - off : chunk;
            noc_post(s, (uint16_t)(MCAST_TAG + k), b + off, l, &got[s]);
        }
    }
    return (int)n;
}

int coll_mcast_run(uint8_t *buf, uint32_t len, const mcast_plan *p)
{
    uint32_t chunk = chunk_bytes(), n = (len + chunk - 1) / chunk;
    int nt = node_count(), me = node_id();
    for (int s = 0; s < nt; s++) /* the sources of the earlier steps first */
        if (s != me && has(p, s) && p->src_step[s] < p->step) noc_ct_wait(&got[s], n);
    if (p->nroutes) {
        const uint8_t *b = buf + (p->per_source ? (uint32_t)me * len : 0);
        for (uint64_t i = 0; i < p->nroutes && i < MCAST_MAX_ROUTES; i++) {
            noc_code c = {.mc = 1, .op = NC_REPLICATE, .out_dest = NC_NONE, .mask = p->route[i].mask};
            noc_set_code(0, &c);
            for (uint32_t k = 0; k < n; k++) {
                uint32_t off = k * chunk, l = len - off < chunk ? len - off : chunk;
                noc_send_inline(0, nc_unit((int)p->route[i].router), 0, 0, 0, b + off, l, (uint16_t)(MCAST_TAG + k));
            }
        }
        noc_send_wait(0);
        noc_set_code(0, NULL);
    }
    for (int s = 0; s < nt; s++)
        if (s != me && has(p, s)) noc_ct_wait(&got[s], n);
    return INNET_OK;
}
