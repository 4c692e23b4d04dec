/* innet.c - reduce and allreduce inside the network (innet.h): every
 * terminal sends each chunk of its data as an ENCODE contribution to its
 * router's coding unit; a unit combines its children's results and its
 * terminals' contributions of a chunk (one coding group, tag = chunk) by the
 * head's FUNC and sends one packet to its parent's unit (out_op ENCODE);
 * the root's unit sends the result to the root terminal, which multicasts
 * it (allreduce) or an 8-byte acknowledgement (reduce) back down the same
 * tree through its unit (REPLICATE).  Chunks pipeline through the tree; a
 * window keeps every unit within its slots (innet.h INNET_WINDOW).  Results
 * and acknowledgements land in posted receives (zero copy). */
#include "innet.h"

#include "xnoc.h"

static volatile uint32_t ct[INNET_MAX_CHUNKS];
static uint64_t acks[INNET_MAX_CHUNKS]; /* reduce: the root's acknowledgements land here */
static const uint64_t ack_word;
static uint16_t next_tag = 0x6000; /* groups of successive calls get fresh tags */
static uint32_t window = INNET_WINDOW;

static int given_parent, given_count, given_pcount; /* coll_innet_set_tree (count 0: none) */
static int given_unit = -1; /* coll_innet_set_unit: the router whose unit this terminal feeds (-1: its own) */

void coll_innet_set_window(int w) { window = w >= 1 ? (uint32_t)w : INNET_WINDOW; }

void coll_innet_set_tree(int parent, int count, int parent_count)
{
    given_parent = parent;
    given_count = count > 0 ? count : 0;
    given_pcount = parent_count;
}

void coll_innet_set_unit(int router) { given_unit = router >= 0 ? router : -1; }

int innet_given_tree(int *parent, int *count, int *parent_count)
{
    if (!given_count) return 0;
    *parent = given_parent, *count = given_count, *parent_count = given_pcount;
    return 1;
}

/* the network's shape, read from the device once per call */
typedef struct {
    int nd, dim[6], stride[6];
} shape;

static void shape_read(shape *g)
{
    g->nd = node_ndims();
    if (g->nd > 6) g->nd = 6;
    for (int d = 0, s = 1; d < g->nd; d++) g->dim[d] = node_dim(d), g->stride[d] = s, s *= g->dim[d];
}

/* router r's coordinates (router = sum coord[d] * stride[d]) */
static void coords(const shape *g, int r, int *c)
{
    for (int d = 0; d < g->nd; d++) c[d] = r / g->stride[d] % g->dim[d];
}

/* The parent and the children, without walking the tree: the parent is one
 * step towards the root in the highest dimension hd where r and the root
 * differ; r's children are its neighbours q whose own hd is the dimension
 * of the step, away from the root: in dimension hd the one on the far side,
 * in every dimension above hd (where r sits on the root's line) both. */
static int tree_node(const shape *g, int r, int root, int *count)
{
    int c[6], rc[6], hd = -1, n = (int)DEV(DEV_CONC);
    coords(g, r, c);
    coords(g, root, rc);
    for (int d = g->nd - 1; d >= 0 && hd < 0; d--)
        if (c[d] != rc[d]) hd = d;
    for (int d = hd < 0 ? 0 : hd; d < g->nd; d++) {
        int up = c[d] + 1 < g->dim[d], down = c[d] > 0;
        if (d == hd) n += c[d] > rc[d] ? up : down;
        else n += up + down;
    }
    *count = n;
    return hd < 0 ? -1 : r + (c[hd] < rc[hd] ? g->stride[hd] : -g->stride[hd]);
}

int innet_parent(int r, int root, int *count)
{
    shape g;
    shape_read(&g);
    return tree_node(&g, r, root, count);
}

int innet_depth(int root)
{
    shape g;
    int rc[6], depth = 0;
    shape_read(&g);
    coords(&g, root, rc);
    for (int d = 0; d < g.nd; d++) {
        int far = g.dim[d] - 1 - rc[d];
        depth += rc[d] > far ? rc[d] : far;
    }
    return depth;
}

int coll_innet(void *buf, uint32_t len, int op, int root, int all)
{
    int kind = (int)DEV(DEV_TOPO_KIND);
    if (!nc_units()) return INNET_NO_UNITS;

    shape g;
    shape_read(&g);
    if (!given_count && ((kind != XNOC_KIND_MESH && kind != XNOC_KIND_TORUS) || g.nd < 1))
        return INNET_TOPOLOGY; /* mesh or torus */
    if (op < 0 || op >= NC_FUNC_NUM) return INNET_OP;
    uint32_t lane = op == NC_FUNC_ADD64 ? 8 : 4, chunk = (uint32_t)nc_max_bytes() & ~7u;
    if (chunk > 256) chunk = 256;
    if (!len || len % lane || !chunk || (len + chunk - 1) / chunk > INNET_MAX_CHUNKS) return INNET_LENGTH;
    int me = node_id(), nt = node_count(), conc = (int)DEV(DEV_CONC);
    if (root < 0 && given_count) return INNET_TOPOLOGY;
    if (root < 0) { /* the first terminal of the middle router */
        int r = 0;
        for (int d = 0; d < g.nd; d++) r += (g.dim[d] - 1) / 2 * g.stride[d];
        root = r * conc;
    }
    if (root >= nt) return INNET_TOPOLOGY;
    /* r: the router whose unit takes this terminal's contributions; rr: the tree's root (the
     * root terminal's unit, which need not be its own router's: a clos's spine) */
    int r = given_unit >= 0 ? given_unit : nc_router_of(me), cnt, pcnt = 0;
    int rr = me == root && given_unit >= 0 ? given_unit : nc_router_of(root);
    int parent = given_count ? given_parent : tree_node(&g, r, rr, &cnt);
    if (given_count) cnt = given_count, pcnt = given_pcount;
    else if (parent >= 0) tree_node(&g, parent, rr, &pcnt);
    uint32_t n = (len + chunk - 1) / chunk;
    uint16_t tag = next_tag;
    next_tag = (uint16_t)(next_tag + n >= 0x7F00 ? 0x6000 : next_tag + n);
    uint8_t *b = buf;

    uint64_t mask[NC_MASK_MAX] = {0}; /* every terminal but the root */
    for (int wd = 0; wd < NC_MASK_MAX && wd * 64 < nt; wd++)
        mask[wd] = nt - wd * 64 >= 64 ? ~0ull : (1ull << (nt - wd * 64)) - 1;
    mask[root / 64] &= ~(1ull << (root % 64));
    int src = me == root ? nc_unit(rr) : root;
    noc_code up = {.op = NC_ENCODE, .count = cnt};
    if (parent >= 0) up.out_dest = nc_unit(parent), up.out_op = NC_ENCODE, up.out_count = pcnt;
    else up.out_dest = root, up.out_op = NC_REPLICATE; /* the root's unit: the result to the root terminal */
    noc_code down = {.mc = 1, .op = NC_REPLICATE, .out_dest = NC_NONE, .mask = mask};
    noc_set_func(0, op);
    noc_set_code(0, &up);
    uint32_t mc = 0; /* the root: chunks multicast so far */
    for (uint32_t k = 0; k < n; k++) {
        if (me == root) {
            int switched = 0;
            for (; mc + window <= k; mc++) { /* results of the window's oldest chunks go down */
                uint32_t off = mc * chunk, l = len - off < chunk ? len - off : chunk;
                noc_ct_wait(&ct[mc], 1);
                if (!switched) noc_set_code(0, &down), switched = 1;
                noc_send_inline(0, nc_unit(rr), 0, 0, 0, all ? (const void *)(b + off) : &ack_word, all ? l : 8,
                                (uint16_t)(tag + mc));
            }
            if (switched) noc_set_code(0, &up);
        } else if (k >= window) {
            noc_ct_wait(&ct[k - window], 1);
        }
        uint32_t off = k * chunk, l = len - off < chunk ? len - off : chunk;
        /* chunk k's result (or acknowledgement) can only come after this contribution */
        ct[k] = 0;
        if (all || me == root) noc_post(src, (uint16_t)(tag + k), b + off, l, &ct[k]);
        else noc_post(src, (uint16_t)(tag + k), &acks[k], 8, &ct[k]);
        noc_send_inline(0, nc_unit(r), 0, 0, 0, b + off, l, (uint16_t)(tag + k));
    }
    if (me == root) {
        noc_set_code(0, &down);
        for (; mc < n; mc++) {
            uint32_t off = mc * chunk, l = len - off < chunk ? len - off : chunk;
            noc_ct_wait(&ct[mc], 1);
            noc_send_inline(0, nc_unit(rr), 0, 0, 0, all ? (const void *)(b + off) : &ack_word, all ? l : 8,
                            (uint16_t)(tag + mc));
        }
    } else {
        for (uint32_t k = n > window ? n - window : 0; k < n; k++) noc_ct_wait(&ct[k], 1);
    }

    noc_send_wait(0);
    noc_set_code(0, NULL);
    noc_set_func(0, NC_FUNC_XOR);
    return INNET_OK;
}
