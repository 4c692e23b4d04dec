/* innet_stream.c - reduce and allreduce through streaming units (innet.h
 * coll_innet_stream): the tree is innet.c's dimension-ordered one on a mesh,
 * else the one the harness gives (coll_innet_set_tree: every edge one link,
 * the root's routes down along the same edges, docs/network-coding.md
 * "Streaming reduction"); a unit's
 * streaming combiner (rtl/xnoc_ncu_stream.sv) takes each contributor on a
 * lane of its own (the NI picks a terminal's, a unit names its parent's
 * from the routing table), so nothing here but the head fields differs from
 * a plain send.  No unit holds a chunk (the lanes' buffers are the network's
 * own), so no window and no acknowledgements are needed: the loop posts a
 * chunk's receive and sends the chunk, one after the other, and its stores
 * (about 30 instructions) overlap the last chunk's flits on the link: only
 * the GO waits for the channel (noc_send_next_inline).  A reduce's chunks are
 * as long as the lanes take (--router smax, 2 KiB by default): each chunk
 * costs the terminal's loop and the units' head and meta flits once. */
#include "innet.h"
#include "reduce.h"

#include "xnoc.h"

static volatile uint32_t ct[INNET_MAX_CHUNKS];
static uint16_t next_tag = 0x6000;

/* given: the harness's tree (gp, gc, gpc: coll_innet_set_tree's), a constant in each caller, so
 * that the mesh's code is as it was to the instruction */
static inline __attribute__((always_inline)) int stream(void *buf, uint32_t len, int op, int root, int all, int given,
                                                        int gp, int gc, int gpc)
{
    if (op < 0 || op >= NC_FUNC_NUM) return INNET_OP;
    /* a reduce's chunks stream all the way (the lanes' limit, --router smax); an allreduce's
     * result is multicast from the root's slots, so its chunks fit a slot (ncmax, at most 256) */
    uint32_t lane = op == NC_FUNC_ADD64 ? 8 : 4, chunk = (uint32_t)nc_max_bytes() & ~7u;
    if (chunk > 256) chunk = 256;
    if (!all) chunk = (uint32_t)nc_stream_max_bytes() & ~7u;
    if (!len || len % lane || !chunk || (len + chunk - 1) / chunk > INNET_MAX_CHUNKS) return INNET_LENGTH;
    int me = node_id(), nd = node_ndims();
    if (root < 0 && given) return INNET_TOPOLOGY;
    if (root < 0) { /* the first terminal of the middle router, as coll_innet */
        int r = 0;
        for (int d = 0, s = 1; d < nd && d < 6; s *= node_dim(d), d++) r += (node_dim(d) - 1) / 2 * s;
        root = r * (int)DEV(DEV_CONC);
    }
    if (root >= node_count()) return INNET_TOPOLOGY;
    int r = nc_router_of(me), rr = nc_router_of(root), cnt, pcnt = 0;
    int parent = given ? gp : innet_parent(r, rr, &cnt);
    if (given) cnt = gc, pcnt = gpc;
    else if (parent >= 0) innet_parent(parent, rr, &pcnt);
    uint32_t n = (len + chunk - 1) / chunk;
    uint16_t tag = next_tag;
    next_tag = (uint16_t)(next_tag + n >= 0x7F00 ? 0x6000 : next_tag + n);

    /* the root's unit: an allreduce's result multicast to every terminal, a reduce's to the root */
    noc_code up = {.op = NC_STREAM, .count = cnt};
    if (parent >= 0) up.out_dest = nc_unit(parent), up.out_op = NC_STREAM, up.out_count = pcnt;
    else if (all) up.out_dest = nc_unit(rr), up.out_mc = 1, up.out_op = NC_REPLICATE;
    else up.out_dest = root, up.out_op = NC_REPLICATE;
    int recv = all || me == root, src = nc_unit(rr), to = nc_unit(r);
    noc_set_func(0, op);
    noc_set_code(0, &up);
    uint8_t *p = buf;
    for (uint32_t k = 0, l = chunk; k < n; k++, p += chunk) {
        if (k == n - 1) l = len - k * chunk;
        if (recv) ct[k] = 0, noc_post_inline(src, (uint16_t)(tag + k), p, l, &ct[k]);
        noc_send_next_inline(0, to, p, l, (uint16_t)(tag + k));
    }
    for (uint32_t k = 0; recv && k < n; k++) noc_ct_wait(&ct[k], 1);
    noc_send_wait(0);
    noc_set_code(0, NULL);
    noc_set_func(0, NC_FUNC_XOR);
    return INNET_OK;
}

static __attribute__((noinline)) int stream_given(void *buf, uint32_t len, int op, int root, int all)
{
    int gp, gc, gpc;
    if (!innet_given_tree(&gp, &gc, &gpc)) return INNET_TOPOLOGY;
    return stream(buf, len, op, root, all, 1, gp, gc, gpc);
}

int coll_innet_stream(void *buf, uint32_t len, int op, int root, int all)
{
    if (!nc_units()) return INNET_NO_UNITS;
    /* a mesh (its tree down is its tree up), or a tree of the harness's that was shown to be */
    if (DEV(DEV_TOPO_KIND) != XNOC_KIND_MESH) return stream_given(buf, len, op, root, all);
    return stream(buf, len, op, root, all, 0, 0, 0, 0);
}

int coll_innet_scan_stream(void *buf, uint32_t len, int op, int exclusive)
{
    if (!nc_units()) return INNET_NO_UNITS;
    if (op < 0 || op >= NC_FUNC_NUM) return INNET_OP;
    /* chunks as long as the lanes take (--router smax): no slot holds one */
    uint32_t lane = op == NC_FUNC_ADD64 ? 8 : 4, chunk = (uint32_t)nc_stream_max_bytes() & ~7u;
    if (!len || len % lane || !chunk || (len + chunk - 1) / chunk > INNET_MAX_CHUNKS) return INNET_LENGTH;
    int conc = (int)DEV(DEV_CONC), r = nc_router_of(node_id()), nr = node_count() / conc;
    uint32_t n = (len + chunk - 1) / chunk;
    uint16_t tag = next_tag;
    next_tag = (uint16_t)(next_tag + n >= 0x7F00 ? 0x6000 : next_tag + n);
    /* router r's unit combines the prefix of router r - 1 (none at the first) with its terminals'
     * data and sends the prefix on to r + 1 (none from the last) */
    noc_code up = {.op = NC_SCAN, .count = conc + (r > 0), .out_mc = exclusive, .out_op = NC_SCAN};
    up.out_dest = r + 1 < nr ? nc_unit(r + 1) : NC_NONE;
    up.out_count = r + 1 < nr ? conc + 1 : 0;
    int to = nc_unit(r);
    noc_set_func(0, op);
    noc_set_code(0, &up);
    uint8_t *p = buf;
    for (uint32_t k = 0, l = chunk; k < n; k++, p += chunk) {
        if (k == n - 1) l = len - k * chunk;
        ct[k] = 0, noc_post_inline(to, (uint16_t)(tag + k), p, l, &ct[k]);
        noc_send_next_inline(0, to, p, l, (uint16_t)(tag + k));
    }
    for (uint32_t k = 0; k < n; k++) noc_ct_wait(&ct[k], 1);
    noc_send_wait(0);
    noc_set_code(0, NULL);
    noc_set_func(0, NC_FUNC_XOR);
    return INNET_OK;
}

/* The reduce-scatter (innet.h coll_innet_stream_rs): the reduce's up-streams, chunk by chunk in
 * block order (each block in chunks of its own), and the root's unit sends each chunk's result
 * to its block's owner instead of to the root: the root router's terminals name the owner as
 * out_dest, block by block (the unit's group takes its result head from them). */
int coll_innet_stream_rs(void *buf, uint32_t len, int op, int root)
{
    int gp = -1, gc = 0, gpc = 0, given = innet_given_tree(&gp, &gc, &gpc);
    if (!nc_units()) return INNET_NO_UNITS;
    if (DEV(DEV_TOPO_KIND) != XNOC_KIND_MESH && !given) return INNET_TOPOLOGY;
    if (op < 0 || op >= NC_FUNC_NUM) return INNET_OP;
    int me = node_id(), P = node_count(), nd = node_ndims();
    /* chunks as long as the lanes take (--router smax): the results go to terminals, never a slot */
    uint32_t lane = op == NC_FUNC_ADD64 ? 8 : 4, chunk = (uint32_t)nc_stream_max_bytes() & ~7u, n = 0;
    if (!len || len % lane || !chunk) return INNET_LENGTH;
    for (int b = 0; b < P; b++) n += (coll_block_len(len, lane, (uint32_t)P, (uint32_t)b) + chunk - 1) / chunk;
    if (n > INNET_MAX_CHUNKS) return INNET_LENGTH;
    if (root < 0 && given) return INNET_TOPOLOGY;
    if (root < 0) { /* the first terminal of the middle router, as coll_innet */
        int r = 0;
        for (int d = 0, s = 1; d < nd && d < 6; s *= node_dim(d), d++) r += (node_dim(d) - 1) / 2 * s;
        root = r * (int)DEV(DEV_CONC);
    }
    if (root >= P) return INNET_TOPOLOGY;
    int r = nc_router_of(me), rr = nc_router_of(root), cnt, pcnt = 0;
    int parent = given ? gp : innet_parent(r, rr, &cnt);
    if (given) cnt = gc, pcnt = gpc;
    else if (parent >= 0) innet_parent(parent, rr, &pcnt);
    uint16_t tag = next_tag;
    next_tag = (uint16_t)(next_tag + n >= 0x7F00 ? 0x6000 : next_tag + n);

    noc_code up = {.op = NC_STREAM, .count = cnt, .out_op = NC_REPLICATE};
    if (parent >= 0) up.out_dest = nc_unit(parent), up.out_op = NC_STREAM, up.out_count = pcnt;
    noc_set_func(0, op);
    if (parent >= 0) noc_set_code(0, &up);
    uint8_t *p = buf;
    uint32_t k = 0, k0 = 0, k1 = 0; /* this terminal's block: chunks k0..k1-1 */
    for (int b = 0; b < P; b++) {
        uint32_t off = coll_block_off(len, lane, (uint32_t)P, (uint32_t)b),
                 bl = coll_block_len(len, lane, (uint32_t)P, (uint32_t)b);
        if (!bl) continue;
        if (parent < 0) up.out_dest = b, noc_set_code(0, &up); /* the root's unit: block b to terminal b */
        if (b == me) k0 = k;
        for (uint32_t o = 0; o < bl; o += chunk, k++) {
            uint32_t l = bl - o < chunk ? bl - o : chunk;
            if (b == me) ct[k] = 0, noc_post_inline(nc_unit(rr), (uint16_t)(tag + k), p + off + o, l, &ct[k]);
            noc_send_next_inline(0, nc_unit(r), p + off + o, l, (uint16_t)(tag + k));
        }
        if (b == me) k1 = k;
    }
    for (k = k0; k < k1; k++) noc_ct_wait(&ct[k], 1);
    noc_send_wait(0);
    noc_set_code(0, NULL);
    noc_set_func(0, NC_FUNC_XOR);
    return INNET_OK;
}
