/* coll_innet.c - in-network reduce and allreduce, and the scans on the
 * cores (coll_innet.h): the plan of build/firmware/coll-innet.elf and every
 * node's data placed in its RAM, the run on the RTL network, every result
 * word checked against the host's reduction (coll/ncfunc.c, the units'
 * operators), the model of docs/collectives.md "In-network reduction". */
#include "collrun/coll_innet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/coll/innet.h"
#include "../../firmware/coll/pattern.h"
#include "../../firmware/coll/reduce.h"
#include "../../firmware/lib/flit.h"
#include "coll/ncfunc.h"
#include "collrun/coll_image.h"
#include "net/netbuild.h"
#include "net/netgen.h"
#include "system/system.h"
#include "util/cli.h"

int innet_chunk_bytes(const router_cfg *rc) { return 8 * rc->ncmax < 256 ? 8 * rc->ncmax : 256; }
/* a streaming reduction's result that reaches terminals without a slot: its chunks as long as the lanes take */
static int chunk_by_smax(const router_cfg *rc, int all) { return rc->stream && !all; }
int innet_reduce_chunk_bytes(const router_cfg *rc, int all)
{
    return chunk_by_smax(rc, all) ? 8 * rc->smax : innet_chunk_bytes(rc);
}
const char *innet_chunk_option(const router_cfg *rc, int all, int *value)
{
    *value = chunk_by_smax(rc, all) ? rc->smax : rc->ncmax;
    return chunk_by_smax(rc, all) ? "smax" : "ncmax";
}
/* chunks in flight: a slot unit holds at most W + 1 groups (firmware/coll/innet.h); a
 * streaming unit holds none (docs/network-coding.md "Streaming reduction"): every chunk */
int innet_window(const router_cfg *rc) { return rc->stream ? INNET_MAX_CHUNKS : rc->slots - 1; }

int innet_chunks(int kind, int func, int bytes, int nt, int chunk)
{
    if (kind != INNET_KIND_RS) return (bytes + chunk - 1) / chunk;
    uint32_t lane = coll_lane_bytes(func), n = 0; /* a reduce-scatter's blocks in chunks of their own */
    for (int b = 0; b < nt; b++)
        n += (coll_block_len((uint32_t)bytes, lane, (uint32_t)nt, (uint32_t)b) + chunk - 1) / chunk;
    return (int)n;
}

int innet_scan_steps(const topo *t)
{
    int steps = 0;
    while ((1 << steps) < t->nterms) steps++;
    return steps;
}

/* the collective's name in the error lines ("word 3 of the reduce") */
static const char *kind_name(int kind)
{
    static const char *const names[] = {"reduce", "allreduce", "scan", "exscan"};
    if (kind == INNET_KIND_RS) return "reducescatter";
    return kind >= 0 && kind < 4 ? names[kind] : "?";
}

/* the firmware's tree (firmware/coll/innet.c) on the host: parent of router r, -1 at the root */
static int tree_parent(const topo *t, int r, int root)
{
    int stride[8], s = 1;
    for (int d = 0; d < t->ndims; d++) stride[d] = s, s *= t->dims[d];
    for (int d = t->ndims - 1; d >= 0; d--) {
        int c = topo_coord(t, r, d), rc = topo_coord(t, root, d);
        if (c != rc) return r + (c < rc ? stride[d] : -stride[d]);
    }
    return -1;
}

/* Other topologies: the routes from the root's router to every router's
 * unit (the routing table, netgen_route), walked backwards: r's parent is
 * the router before it on the route from the root.  The root's multicast
 * follows the same routes down.  -2: a route that does not arrive. */
static int route_parent(const topo *t, const router_cfg *rc, int r, int root)
{
    int cur = root, prev = -1;
    for (int hops = 0; cur != r; hops++) {
        int p = netgen_route(t, rc, cur, t->nterms + r),
            l = p >= 0 && p < t->nports ? t->out_link[cur * t->nports + p] : -1;
        if (l < 0 || hops > t->nrouters) return -2;
        prev = cur;
        cur = t->links[l].dst;
    }
    return prev;
}

static int tree_depth(const int *parent, int r)
{
    int d = 0;
    for (int p = parent[r]; p >= 0; p = parent[p]) d++;
    return d;
}

/* The model (docs/collectives.md "In-network reduction"): one chunk's round trip L through
 * the tree at zero load, walked router by router, and the cost of every further chunk.
 *   up:   a terminal's contribution reaches its unit's input SW + 3 + F cycles after its
 *         send starts (SW: the firmware's send, F flits); a unit absorbs one flit per cycle,
 *         the packets of a chunk one after the other in the order their tails arrive
 *         (done = max(done + F, tail + 1)), waits xorlat + 1 cycles and sends the result,
 *         whose tail reaches the parent's unit 2 routers x 3 cycles + F later (the root's:
 *         the root terminal, 3 + F later);
 *   turn: the root terminal sends the result down (SW) as one multicast of D = F + M flits
 *         (allreduce; reduce: an 8-byte acknowledgement, D = 3 + M) to its unit;
 *   down: a unit absorbs the multicast (done = tail + 1) and sends one copy per port in port
 *         order (dimension ports, then terminals), each after the previous one: an MC copy of
 *         D flits to the unit behind the port if two or more terminals lie behind it, a plain
 *         copy (D - M flits) to the terminal if one.
 * L is the time from the first send to the last terminal's result.  A further chunk costs
 * the largest of: the busiest unit's input P (every packet of a chunk it absorbs), the
 * window's (L + (W - 1) P) / W (W chunks in flight per round trip, and in a chunk's round
 * trip the busiest unit also absorbs the other W - 1), and the root terminal's part (its
 * result in, the multicast out, its two sends).  T = L + (chunks - 1) x that. */
#define MODEL_SW 40 /* cycles of firmware per send (docs/network-coding.md: about 39) */
typedef struct {
    double L, per_chunk, unit_in, window, root;
    const char *bound;
} innet_model;

/* the tree as the model sees it: every router's parent (-1: the root or not in the tree), the
 * terminal contributions its unit takes (and the routers they pass, 1: its own terminals'), the
 * terminals it hands the multicast to */
typedef struct {
    const int *parent, *nterm, *thops, *drecv;
} innet_tree;

static double down_walk(const topo *t, const innet_tree *tr, int r, double tail, int D, int Dp, double *last)
{
    /* unit r absorbed a multicast whose tail arrived at `tail`: its copies in port order */
    const int *parent = tr->parent;
    double e = tail + 1;
    for (int p = 0; p < t->nnet; p++) {
        int l = t->out_link[r * t->nports + p];
        if (l < 0) continue;
        int q = t->links[l].dst;
        if (parent[q] != r) continue;
        int behind = 0; /* terminals in q's subtree */
        for (int v = 0; v < t->nrouters; v++) {
            int a = v;
            while (a >= 0 && a != q) a = parent[a];
            if (a == q) behind += tr->drecv[v];
        }
        if (behind >= 2) {
            e += D;
            down_walk(t, tr, q, e + 6, D, Dp, last);
        } else {
            e += Dp;
            if (e + 6 > *last) *last = e + 6;
        }
    }
    for (int c = 0; c < tr->drecv[r]; c++) { /* the terminals of r */
        e += Dp;
        if (e + 3 > *last) *last = e + 3;
    }
    return e;
}

static double up_walk(const topo *t, const router_cfg *rc, const innet_tree *tr, int r, int F)
{
    /* the tail arrival times at r's unit: its terminals' contributions, its children's results */
    double arr[32];
    int n = 0;
    for (int c = 0; c < tr->nterm[r] && n < 32; c++) arr[n++] = MODEL_SW + 3 * tr->thops[r] + F;
    for (int q = 0; q < t->nrouters && n < 32; q++)
        if (tr->parent[q] == r) arr[n++] = up_walk(t, rc, tr, q, F) + rc->xorlat + 1 + 6 + F;
    for (int i = 1; i < n; i++) /* in the order they arrive */
        for (int k = i; k > 0 && arr[k] < arr[k - 1]; k--) {
            double x = arr[k];
            arr[k] = arr[k - 1];
            arr[k - 1] = x;
        }
    double done = 0;
    for (int i = 0; i < n; i++) done = done + F > arr[i] + 1 ? done + F : arr[i] + 1;
    return done;
}

/* Streaming units (--router stream=1): a group's head leaves unit r STREAM_FORM cycles after
 * its last member's head arrives (head and meta into the header registers, the group
 * formed), the data right behind it, a flit a cycle: the time r's result head leaves. */
#define STREAM_FORM 3
static double up_stream(const topo *t, const innet_tree *tr, int r)
{
    double last = tr->nterm[r] ? MODEL_SW + 3 * tr->thops[r] : 0;
    for (int q = 0; q < t->nrouters; q++)
        if (tr->parent[q] == r) {
            double a = up_stream(t, tr, q) + 6;
            if (a > last) last = a;
        }
    return last + STREAM_FORM;
}

/* The streaming units' model: a chunk streams up (up_stream) and, for an allreduce, is
 * multicast down from the root's slots as with the slot units (down_walk); a further chunk
 * costs its flits on the busiest tree link, one a cycle: a lower bound, the terminals'
 * per-chunk loop (docs/collectives-results.md "Streaming units") is not in it. */
static void model_stream(const topo *t, const innet_tree *tr, int rr, int all, int F, int D, int Dp, innet_model *m)
{
    double head = up_stream(t, tr, rr), h = 3 * tr->thops[rr];
    double last = head + h + F; /* a reduce's result: its tail at the root terminal */
    if (all) {
        last = 0;
        down_walk(t, tr, rr, head + 3 + D, D, Dp, &last); /* into the root unit's slots, then down */
    }
    m->L = last;
    m->unit_in = m->per_chunk = all ? D : F;
    m->window = m->root = 0;
    m->bound = "the tree's links, a flit a cycle";
}

static void model_eval(const topo *t, const router_cfg *rc, const innet_tree *tr, const int *cnt, int rr, int all,
                       int chunk, int bytes, int W, innet_model *m)
{
    int F = 2 + (chunk + 7) / 8, M = (t->nterms + t->nrouters + 63) / 64, nch = (bytes + chunk - 1) / chunk;
    if (nch == 1) F = 2 + (bytes + 7) / 8;
    int D = all ? F + M : 3 + M, Dp = D - M;
    if (rc->stream) {
        model_stream(t, tr, rr, all, F, D, Dp, m);
        return;
    }
    int h = 3 * tr->thops[rr]; /* the root terminal to the root's unit and back (a clos: 2 routers) */
    double root_in = up_walk(t, rc, tr, rr, F) + rc->xorlat + 1 + h + F; /* the result's tail at the root terminal */
    double last = 0;
    down_walk(t, tr, rr, root_in + MODEL_SW + 1 + h + D, D, Dp, &last);
    m->L = last;
    double in = 0;
    for (int r = 0; r < t->nrouters; r++) {
        double f = (double)cnt[r] * F;
        int mc = topo_has(t, TOPO_TRAIT_SPINES) ? tr->parent[r] >= 0 && tr->drecv[r] >= 2 : cnt[r] > t->conc;
        if (r == rr || mc) f += D; /* the multicast copy it replicates */
        if (f > in) in = f;
    }
    m->unit_in = in;
    m->window = (m->L + (W - 1) * in) / W;
    m->root = F + D + 2 * MODEL_SW;
    m->per_chunk = in, m->bound = "the busiest unit's input";
    if (m->window > m->per_chunk) m->per_chunk = m->window, m->bound = "the window";
    if (m->root > m->per_chunk) m->per_chunk = m->root, m->bound = "the root terminal";
}

/* node i's contribution, word w */
static uint32_t datum(uint32_t seed, int i, uint32_t w) { return coll_pattern(seed, i, -1, w); }

/* What every node of a run gets (coll_image_fill): the plan words all
 * share, its own (absent; the route tree when the firmware does not build
 * its own), its data at COLL_IMAGE_BUF. */
typedef struct {
    const uint32_t *plan; /* IP_WORDS words */
    uint32_t seed;
    int absent;                        /* the terminal that does not join (XNOC_TEST_ABSENT), or -1 */
    const int *parent, *cnt, *unit_of; /* the route tree by router, or parent NULL: the firmware's own */
    int clos;
} innet_fill;

static void fill_node(void *arg, int i, uint8_t *ram)
{
    const innet_fill *f = arg;
    uint32_t *w = coll_image_place(ram, f->plan, f->seed, i);
    w[IP_ABSENT] = i == f->absent;
    if (f->parent) { /* the route tree (clos: the spine's); mesh and torus: the firmware's own */
        int r = f->unit_of[i];
        w[IP_PARENT] = (uint32_t)f->parent[r];
        w[IP_COUNT] = (uint32_t)f->cnt[r];
        w[IP_PCOUNT] = f->parent[r] >= 0 ? (uint32_t)f->cnt[f->parent[r]] : 0;
        w[IP_UNIT] = f->clos ? (uint32_t)r + 1 : 0;
    }
}

/* The in-network scan's chain (docs/network-coding.md "In-network scan"): router r's unit
 * sends its prefix to router r + 1's along the routing table's route.  Deadlock-free when no
 * two edges of the chain share a link (each link then carries one edge's packets, and the
 * chain has no cycle).  Returns 0 (r's chain fields set) or -1 with err. */
static int scan_chain(const topo *t, const router_cfg *rc, scan_result *r, char *err, size_t errlen)
{
    int nr = t->nterms / t->conc, ok = 0;
    for (int i = 0; i < t->nterms; i++)
        if (topo_term_router(t, i) != i / t->conc) {
            snprintf(err, errlen, "%s numbers its terminals out of router order (terminal %d)", t->name, i);
            return -1;
        }
    uint8_t *used = xcalloc((size_t)t->nlinks, 1);
    r->chain_units = nr, r->chain_links = r->chain_max_links = 0;
    for (int q = 0; q + 1 < nr && !ok; q++) {
        int cur = q, hops = 0;
        while (cur != q + 1 && !ok) {
            int p = netgen_route(t, rc, cur, t->nterms + q + 1),
                l = p >= 0 && p < t->nports ? t->out_link[cur * t->nports + p] : -1;
            if (l < 0 || hops > nr) ok = snprintf(err, errlen, "no route from router %d to router %d", q, q + 1);
            else if (used[l])
                ok = snprintf(err, errlen,
                              "the scan's chain shares link %d->%d (router %d to %d and an earlier edge) on %s", cur,
                              t->links[l].dst, q, q + 1, t->name);
            else used[l] = 1, cur = t->links[l].dst, hops++;
        }
        r->chain_links += hops;
        if (hops > r->chain_max_links) r->chain_max_links = hops;
    }
    free(used);
    return ok ? -1 : 0;
}

/* The in-network scan's model (docs/collectives-results.md "In-network scan"): a fixed part
 * (the firmware around the chain: coding registers, the first post and send, the last wait),
 * the first chunk's walk down the chain (SCAN_UNIT cycles through each unit, 3 per link), and
 * the busiest unit's output link, which carries per_flit flits (its prefix and its terminals'
 * results in turn) per data flit, each packet's head and meta per chunk, and SCAN_CHUNK
 * cycles per chunk of group turn-around (the members' next headers are taken only after a
 * group's last flit).  The constants are fitted on mesh:8x8 at 64 B and 64 KiB. */
#define SCAN_FIXED 200
#define SCAN_UNIT 9
#define SCAN_CHUNK 14
static void scan_innet_model(const topo *t, const router_cfg *rc, int bytes, scan_result *r)
{
    int chunk = innet_reduce_chunk_bytes(rc, 0);
    r->chunks = (bytes + chunk - 1) / chunk;
    r->per_flit = 1 + t->conc;
    double walk = SCAN_FIXED + (double)(r->chain_units - 1) * SCAN_UNIT + 3.0 * r->chain_links;
    r->model_cycles = walk + (double)r->per_flit * ((bytes + 7) / 8 + 2 * r->chunks) + SCAN_CHUNK * r->chunks;
}

/* core cycles per word of a scan step combined (reduce.c's loop, add32: 4.45 alone; 5.0 fits mesh:8x8, 16 KiB) */
#define SCAN_COMBINE 5.0

/* --op scan / exscan: recursive doubling on the cores (firmware/coll/scan.c), every node's
 * result checked against the host's prefix reduction */
int collrun_scan(const topo *t, const router_cfg *rc, const innet_opts *a, const coll_exec_opts *xo, scan_result *r)
{
    int bytes = a->bytes, nt = t->nterms, kind = a->kind, func = a->func, steps = innet_scan_steps(t);
    int excl = kind == INNET_KIND_EXSCAN;
    memset(r, 0, sizeof *r);
    if (a->innet && scan_chain(t, rc, r, r->run.error, sizeof r->run.error)) {
        r->run.planning = 1;
        return COLLRUN_REFUSED;
    }
    uint32_t plan[IP_WORDS] = {0}, work = (COLL_IMAGE_BUF + (uint32_t)bytes + 7) / 8 * 8;
    plan[IP_STREAM] = (uint32_t)a->innet;
    plan[IP_KIND] = (uint32_t)kind;
    plan[IP_FUNC] = (uint32_t)func;
    plan[IP_BYTES] = (uint32_t)bytes;
    plan[IP_WORK] = RAM_BASE + work;
    uint32_t ram_kib = coll_image_ram_kib(work + (uint32_t)(1 + steps) * (uint32_t)bytes);
    innet_fill fl = {.plan = plan, .seed = a->seed, .absent = -1};
    coll_image ci;
    if (coll_image_run(&ci, t, rc, xo, ram_kib, a->max_cycles, fill_node, &fl)) {
        snprintf(r->run.error, sizeof r->run.error, "%s", ci.error);
        return COLLRUN_REFUSED;
    }
    /* off the clock: node i's result against the host's prefix over nodes 0..i (0..i-1) */
    uint8_t *incl = xmalloc((size_t)bytes), *mine = xmalloc((size_t)bytes), *want = xmalloc((size_t)bytes);
    for (int i = 0; i < nt && ci.verified; i++) {
        for (int k = 0; k < bytes / 4; k++) {
            uint32_t v = datum(a->seed, i, (uint32_t)k);
            memcpy(mine + 4 * k, &v, 4);
        }
        if (excl) { /* before this node's datum: terminal 0 gets the identity */
            if (i) memcpy(want, incl, (size_t)bytes);
            else
                for (int k = 0; k < bytes / 4; k++) {
                    uint32_t id = coll_identity_word(func, (uint32_t)k);
                    memcpy(want + 4 * k, &id, 4);
                }
        }
        if (i) nc_func_combine(func, incl, mine, (size_t)bytes);
        else memcpy(incl, mine, (size_t)bytes);
        if (!excl) memcpy(want, incl, (size_t)bytes);
        char *what = xasprintf("the %s", kind_name(kind));
        if (coll_image_completed(&ci, i, "scan"))
            coll_image_check(&ci, i, COLL_IMAGE_BUF, want, (uint32_t)bytes / 4, what, "the host's prefix");
        free(what);
    }
    if (a->innet) {
        scan_innet_model(t, rc, bytes, r);
        coll_image_end(&ci, ram_kib, &r->run);
        free(incl);
        free(mine);
        free(want);
        return COLLRUN_RAN;
    }
    /* the model: per step, a message (the firmware's send, 3 cycles per router, F flits) and
     * the combine on the core; exscan: one step more, a message to the next terminal and a
     * copy (about as costly per word as the combine) */
    int F = 2 + (bytes + 7) / 8;
    double model = 0;
    for (int st = 0; st < steps; st++) {
        int d = 1 << st, H = 0;
        for (int i = 0; i + d < nt; i++) {
            int h = coll_image_route_routers(t, rc, i, i + d);
            if (h > H) H = h;
        }
        model += MODEL_SW + 3.0 * H + F + (double)SCAN_COMBINE * bytes / 4;
        if (st < SCAN_MAX_STEPS) r->routers_per_step[st] = H;
    }
    if (excl) {
        int H = 0;
        for (int i = 0; i + 1 < nt; i++) {
            int h = coll_image_route_routers(t, rc, i, i + 1);
            if (h > H) H = h;
        }
        model += MODEL_SW + 3.0 * H + F + (double)SCAN_COMBINE * bytes / 4;
    }
    r->steps = steps;
    r->model_cycles = model;
    coll_image_end(&ci, ram_kib, &r->run);
    free(incl);
    free(mine);
    free(want);
    return COLLRUN_RAN;
}

/* The tree of a reduction rooted at terminal `root` (-1: the default, set
 * in *root): every router's parent, the contributions its unit takes (cnt),
 * its terminals' (nterm) and their routers (thops), the terminals it hands
 * the multicast to (drecv), every terminal's unit.  Returns COLLRUN_RAN or
 * COLLRUN_FAILED (a router the root's routes do not reach, err says which). */
typedef struct {
    int *cnt, *parent, *nterm, *thops, *drecv, *unit_of;
    int root, rr, depth, maxcnt;
    int own; /* 1: the firmware builds the tree itself (innet.c, the dimension-ordered one) */
} innet_plan;

/* the router at the far end of router r's port p (-1: no link there) */
static int link_dst(const topo *t, int r, int p)
{
    int l = p >= 0 && p < t->nports ? t->out_link[r * t->nports + p] : -1;
    return l < 0 ? -1 : t->links[l].dst;
}

/* Streaming units on a tree of routes (docs/network-coding.md "Streaming reduction",
 * "Other networks"): every edge one link each way (a router's route to its parent's unit
 * is the link to the parent, the parent's route to its unit the link back), the root's
 * routes to every terminal along the edges down (the multicast's copies follow them), and
 * a unit's children on lanes of their own (a child's lane: 1 + its port towards the
 * parent).  COLLRUN_REFUSED with err's line where one does not hold. */
static int stream_tree_check(const topo *t, const router_cfg *rc, const innet_plan *p, char *err, size_t errlen)
{
    int nr = t->nrouters, np = t->nports, st = COLLRUN_RAN;
    int *owner = xcalloc((size_t)nr * (size_t)np, sizeof *owner); /* the child on a unit's lane, + 1 */
    for (int r = 0; r < nr && !st; r++) {
        int q = p->parent[r];
        if (q < 0) continue;
        int up = netgen_route(t, rc, r, t->nterms + q);
        if (link_dst(t, r, up) != q || link_dst(t, q, netgen_route(t, rc, q, t->nterms + r)) != r) {
            snprintf(err, errlen,
                     "router %d's parent %d in the tree is not one link away both ways (streaming needs one)", r, q);
            st = COLLRUN_REFUSED;
        } else if (owner[q * np + up]) {
            snprintf(err, errlen,
                     "routers %d and %d reach router %d's unit through the same port %d, so on one lane (the streaming "
                     "units take a child's lane from that port)",
                     owner[q * np + up] - 1, r, q, up);
            st = COLLRUN_REFUSED;
        } else owner[q * np + up] = r + 1;
    }
    for (int i = 0; i < t->nterms && !st; i++) {
        int cur = p->rr, dst = topo_term_router(t, i);
        for (int hops = 0; cur != dst && !st; hops++) {
            int nx = link_dst(t, cur, netgen_route(t, rc, cur, i));
            if (nx < 0 || p->parent[nx] != cur || hops > nr) {
                snprintf(err, errlen, "the route from the root's router %d to terminal %d leaves the tree at router %d",
                         p->rr, i, cur);
                st = COLLRUN_REFUSED;
            }
            cur = nx;
        }
    }
    free(owner);
    return st;
}

static int plan_tree(const topo *t, const router_cfg *rc, int root, innet_plan *p, char *err, size_t errlen)
{
    int nr = t->nrouters, nt = t->nterms, clos = topo_has(t, TOPO_TRAIT_SPINES);
    int meshlike = topo_has(t, TOPO_TRAIT_GRID);
    /* streaming on a torus: the routes' tree (wrap-around links and all), the multicast's own */
    p->own = meshlike && !(rc->stream && topo_has(t, TOPO_TRAIT_WRAP));
    int *cnt = p->cnt = xcalloc((size_t)nr, sizeof *cnt), *parent = p->parent = xcalloc((size_t)nr, sizeof *parent);
    int *nterm = p->nterm = xcalloc((size_t)nr, sizeof *nterm), *thops = p->thops = xcalloc((size_t)nr, sizeof *thops),
        *drecv = p->drecv = xcalloc((size_t)nr, sizeof *drecv),
        *unit_of = p->unit_of = xcalloc((size_t)nt, sizeof *unit_of);
    if (root < 0 && clos) root = 0;
    if (root < 0 && meshlike) { /* as the firmware: the first terminal of the middle router */
        int r = 0, s = 1;
        for (int d = 0; d < t->ndims; d++) r += (t->dims[d] - 1) / 2 * s, s *= t->dims[d];
        root = r * t->conc;
    } else if (root < 0) { /* the router whose route tree is shallowest (the lowest such id) */
        int best = -1;
        for (int q = 0; q < nr; q++) {
            int dq = 0;
            for (int r = 0; r < nr; r++) parent[r] = route_parent(t, rc, r, q);
            for (int r = 0; r < nr; r++) {
                int d = tree_depth(parent, r);
                if (d > dq) dq = d;
            }
            if (best < 0 || dq < best) best = dq, root = q * t->conc;
        }
    }
    int rr = topo_term_router(t, root), depth = 0, maxcnt = 0;
    for (int i = 0; i < nt; i++) unit_of[i] = topo_term_router(t, i);
    if (clos) {
        /* docs/collectives.md "In-network reduction": every leaf's unit combines its terminals
         * and sends one packet up to spine S = root mod m, whose unit combines the leaves; the
         * spines have no terminals, so the root terminal feeds S's unit directly (its
         * contribution names the result's destination: the root terminal), and the root's
         * multicast goes down through S.  The root's leaf combines its other terminals. */
        int R = t->clos_r, S = R + root % t->clos_m, rl = rr;
        for (int r = 0; r < nr; r++) parent[r] = -1, thops[r] = 1;
        for (int i = 0; i < R; i++) {
            nterm[i] = drecv[i] = t->conc - (i == rl);
            if (nterm[i] > 0) parent[i] = S;
        }
        nterm[S] = 1, thops[S] = 2, rr = S, unit_of[root] = S;
    } else {
        for (int r = 0; r < nr; r++) {
            parent[r] = p->own ? tree_parent(t, r, rr) : route_parent(t, rc, r, rr);
            if (parent[r] == -2) {
                snprintf(err, errlen, "no route from router %d to router %d", rr, r);
                return COLLRUN_FAILED;
            }
            nterm[r] = drecv[r] = t->conc, thops[r] = 1;
        }
    }
    for (int r = 0; r < nr; r++) {
        int q = parent[r], d = tree_depth(parent, r);
        cnt[r] += nterm[r];
        if (q >= 0) cnt[q]++;
        if (d > depth) depth = d;
    }
    for (int r = 0; r < nr; r++)
        if (cnt[r] > maxcnt) maxcnt = cnt[r];
    p->root = root, p->rr = rr, p->depth = depth, p->maxcnt = maxcnt;
    return COLLRUN_RAN;
}

static void plan_free(innet_plan *p)
{
    free(p->cnt);
    free(p->parent);
    free(p->nterm);
    free(p->thops);
    free(p->drecv);
    free(p->unit_of);
}

/* The reduction's planning and run, *r filled; returns as collrun_innet. */
static int innet_run(const topo *t, const router_cfg *rc, const innet_opts *a, const coll_exec_opts *xo,
                     const innet_plan *p, innet_result *r)
{
    int all = a->kind == INNET_KIND_ALLREDUCE, func = a->func, W = innet_window(rc), bytes = a->bytes, nt = t->nterms,
        root = p->root;
    int chunk = innet_reduce_chunk_bytes(rc, all), nchunks = innet_chunks(a->kind, func, bytes, nt, chunk);
    /* XNOC_TEST_ABSENT=T: terminal T does not join (the failure path of a missing contribution) */
    const char *ab = getenv("XNOC_TEST_ABSENT");
    int absent = ab && *ab ? atoi(ab) : -1;

    /* every node's data, and the expected results */
    uint32_t words = (uint32_t)bytes / 4;
    uint8_t *expect = xmalloc((size_t)bytes);
    coll_image_expect(expect, a->seed, nt, func, (uint32_t)bytes);

    uint32_t plan[IP_WORDS] = {0}, ram_kib = coll_image_ram_kib(COLL_IMAGE_BUF + (uint32_t)bytes);
    /* a reduce-scatter: the reduce's plan, IP_STREAM 2 (coll-innet.elf's main stays as it was) */
    plan[IP_KIND] = a->kind == INNET_KIND_RS ? INNET_KIND_REDUCE : (uint32_t)a->kind;
    plan[IP_FUNC] = (uint32_t)func;
    plan[IP_BYTES] = (uint32_t)bytes;
    plan[IP_ROOT] = (uint32_t)root;
    plan[IP_WINDOW] = (uint32_t)W;
    plan[IP_STREAM] = a->kind == INNET_KIND_RS ? 2u : (uint32_t)rc->stream;
    innet_fill fl = {.plan = plan,
                     .seed = a->seed,
                     .absent = absent,
                     .parent = p->own ? NULL : p->parent,
                     .cnt = p->cnt,
                     .unit_of = p->unit_of,
                     .clos = topo_has(t, TOPO_TRAIT_SPINES)};
    coll_image ci;
    if (coll_image_run(&ci, t, rc, xo, ram_kib, a->max_cycles, fill_node, &fl)) {
        snprintf(r->run.error, sizeof r->run.error, "%s", ci.error);
        free(expect);
        return COLLRUN_REFUSED;
    }
    /* after the run, off the clock: every result word against the host's reduction */
    char *what = xasprintf("the %s", kind_name(a->kind));
    uint32_t lane = coll_lane_bytes(func);
    for (int i = 0; i < nt && ci.verified; i++) {
        if (!coll_image_completed(&ci, i, "reduction")) continue;
        if (a->kind == INNET_KIND_RS) { /* terminal i: block i */
            uint32_t off = coll_block_off((uint32_t)bytes, lane, (uint32_t)nt, (uint32_t)i),
                     n = coll_block_len((uint32_t)bytes, lane, (uint32_t)nt, (uint32_t)i);
            if (n) coll_image_check(&ci, i, COLL_IMAGE_BUF + off, expect + off, n / 4, what, "the host's reduction");
        } else if (all || i == root)
            coll_image_check(&ci, i, COLL_IMAGE_BUF, expect, words, what, "the host's reduction");
    }
    free(what);
    coll_image_end(&ci, ram_kib, &r->run);
    innet_model m;
    innet_tree tr = {.parent = p->parent, .nterm = p->nterm, .thops = p->thops, .drecv = p->drecv};
    model_eval(t, rc, &tr, p->cnt, p->rr, all, chunk, bytes, W, &m);
    r->root = root, r->root_router = p->rr, r->depth = p->depth, r->max_fan_in = p->maxcnt;
    r->chunks = nchunks, r->chunk_bytes = chunk, r->window = W;
    r->model_cycles = m.L + (nchunks - 1) * m.per_chunk;
    r->model_round_trip = m.L, r->model_per_chunk = m.per_chunk, r->model_unit_input = m.unit_in;
    r->model_window = m.window, r->model_root = m.root, r->model_bound = m.bound;
    free(expect);
    return COLLRUN_RAN;
}

int collrun_innet(const topo *t, const router_cfg *rc, const innet_opts *a, const coll_exec_opts *xo, innet_result *r)
{
    memset(r, 0, sizeof *r);
    innet_plan p;
    int st = plan_tree(t, rc, a->root, &p, r->run.error, sizeof r->run.error);
    if (!st && p.maxcnt > 15) {
        snprintf(r->run.error, sizeof r->run.error, "a unit would combine %d contributions (at most 15)", p.maxcnt);
        st = COLLRUN_REFUSED;
    }
    if (!st && rc->stream && !p.own) st = stream_tree_check(t, rc, &p, r->run.error, sizeof r->run.error);
    if (st) r->run.planning = 1;
    else st = innet_run(t, rc, a, xo, &p, r);
    plan_free(&p);
    return st;
}
