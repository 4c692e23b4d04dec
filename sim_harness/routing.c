/* routing.c - what the routing mode asks of the routers and the senders:
 * VC classes, group-table size, and the Valiant / UGAL head bits (net.h).
 * Pure functions of the topology and router_cfg, shared by the NI, the
 * traffic generator and the netlist generator. */
#include "net.h"

#include "../firmware/lib/flit.h"
#include "splitmix.h"

int router_classes(const topo *t, const router_cfg *rc)
{
    return t->kind == TOPO_DRAGONFLY && rc->routing != ROUTING_MIN ? 3 : t->nclasses;
}

uint64_t routing_head_bits(const topo *t, const router_cfg *rc, int src, uint32_t dst, uint64_t *rng)
{
    if (rc->routing == ROUTING_MIN || t->kind != TOPO_DRAGONFLY || dst >= (uint32_t)t->nterms) return 0;
    int x = topo_group(t, topo_term_router(t, src)), y = topo_group(t, topo_term_router(t, (int)dst));
    if (x == y) return 0;   /* inside a group: minimal */
    uint64_t r = splitmix64(rng);
    int i = (int)(r % (uint64_t)(t->groups - 2)), lo = x < y ? x : y, hi = x < y ? y : x;
    if (i >= lo) i++;   /* skip both ends */
    if (i >= hi) i++;
    return 1ull << FLIT_VAL_BIT | (uint64_t)(rc->routing == ROUTING_UGAL) << FLIT_UGAL_BIT |
           FLIT_FIELD(i, FLIT_VGROUP_LSB, FLIT_VGROUP_W);
}

int router_groups(const topo *t, const router_cfg *rc)
{
    return t->kind == TOPO_DRAGONFLY && rc->routing != ROUTING_MIN ? t->groups : 1;
}

