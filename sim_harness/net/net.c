/* net.c - a running RTL network: load the cached model, configure, clock. */
#include "net/net.h"
#include "util/cli.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "../../firmware/lib/flit.h"
#include "../../firmware/lib/ni_regs.h"
#include "net/dbg_map.h"
#include "net/netbuild.h"
#include "net/netgen.h"

struct xnoc_net {
    const topo *t;
    router_cfg rc;
    void *so, *g;
    void *(*xg_new)(void);
    void (*xg_free)(void *);
    void (*xg_reset)(void *, int);
    void (*xg_cfg_row)(void *, int, int, const uint8_t *);
    void (*xg_cycle)(void *, const xnoc_flit *, const xnoc_credit *, xnoc_flit *, xnoc_credit *);
    uint32_t (*xg_dbg)(void *, int, int);
    void (*xg_dbg_all)(void *, int, int, uint32_t *);
    int (*xg_err)(void *);
    int (*xg_trace_open)(void *, const char *);
    void (*xg_trace_on)(void *, int);
    long (*xg_assert_count)(void *, const char **);
    int (*xg_monitor)(void *, xnoc_flit *);
    int (*xg_wire)(void *, int, int, const int *, const int *, int, const int *); /* tile builds only */
    int (*xg_threads)(void *, int);                                               /* tile builds only */
    xnoc_flit *mon; /* net_monitor_open(): the taps after every cycle, else NULL */
    int tile;       /* the tile build (router_cfg.h MODEL_*) */
    int variant;    /* NETBUILD_* of the loaded model */
    uint64_t now;
    uint64_t trace_from, trace_to;
    /* the routers' 32-bit counters, widened to 64 bits on every read */
    uint32_t *flits_last, *stalls_last;
    uint64_t *flits, *stalls;
};

#define LOAD(sym)                                                                                                      \
    do {                                                                                                               \
        *(void **)&n->sym = dlsym(n->so, #sym);                                                                        \
        if (!n->sym) {                                                                                                 \
            snprintf(err, errlen, "network model %s lacks %s: rebuild it (rm -rf build/cache)", path, #sym);           \
            goto fail;                                                                                                 \
        }                                                                                                              \
    } while (0)

/* Whether rc runs on tiles: model=, else XNOC_MODEL=, else the default:
 * tiles, every network (a unit's multicast lanes included: rtl/xnoc_tile.sv
 * NumLanes; router_cfg.h MODEL_*). */
static int use_tiles(const router_cfg *rc)
{
    if (rc->model != MODEL_DEFAULT) return rc->model == MODEL_TILE;
    const char *e = getenv("XNOC_MODEL");
    if (e && *e) return !strcmp(e, "tile");
    return 1;
}

static xnoc_net *open_model(const topo *t, const router_cfg *rc, int variant, int progress, char *err, size_t errlen)
{
    if (rc->routing != ROUTING_MIN && t->kind != TOPO_DRAGONFLY) {
        snprintf(err, errlen, "--router routing=%s is for dragonflies; %s routes deterministically",
                 rc->routing == ROUTING_VALIANT ? "valiant" : "ugal", t->name);
        return NULL;
    }
    if (rc->routing != ROUTING_MIN && (t->groups < 3 || t->groups > 1 << FLIT_VGROUP_W)) {
        snprintf(err, errlen,
                 "--router routing=%s needs 3..%d groups (an intermediate group apart from both ends), not %d",
                 rc->routing == ROUTING_VALIANT ? "valiant" : "ugal", 1 << FLIT_VGROUP_W, t->groups);
        return NULL;
    }
    int nc = router_classes(t, rc);
    if (rc->vcs < nc || (nc == 3 && rc->vcs % 3)) {
        snprintf(err, errlen, "%s%s needs %s VCs per port for deadlock freedom (--router vcs=%d)", t->name,
                 nc == 3 ? " with non-minimal routing" : "",
                 nc == 3   ? "a multiple of 3"
                 : nc == 2 ? "at least 2"
                           : "at least 1",
                 nc);
        return NULL;
    }
    if (netgen_addresses(t, rc) + router_groups(t, rc) > (1 << CFG_ADDR_W) ||
        netgen_addresses(t, rc) > FLIT_MAX_ADDRS || netgen_ports(t, rc) > 32) {
        snprintf(err, errlen,
                 "%s with coding units needs %d addresses and %d router ports (limits %d and 32): use --router ncu=0",
                 t->name, netgen_addresses(t, rc), netgen_ports(t, rc), FLIT_MAX_ADDRS);
        return NULL;
    }
    int tile = use_tiles(rc);
    if (netgen_ports(t, rc) + router_lanes(t, rc) - 1 > 32) {
        snprintf(err, errlen, "%s: --router lanes=%d gives routers %d ports (limit 32)", t->name, router_lanes(t, rc),
                 netgen_ports(t, rc) + router_lanes(t, rc) - 1);
        return NULL;
    }
    if (rc->stream && (!rc->ncu || (rc->lanes && rc->lanes != t->nports + 1))) {
        snprintf(err, errlen,
                 "--router stream=1 needs coding units with a lane per router port and lane 0 (ncu=1, lanes=%d on %s)",
                 t->nports + 1, t->name);
        return NULL;
    }
    char *path;
    if (tile ? netbuild_tile(t, rc, variant, progress, &path, err, errlen)
             : netbuild(t, rc, variant, progress, &path, err, errlen))
        return NULL;
    xnoc_net *n = xcalloc(1, sizeof *n);
    n->t = t;
    n->variant = variant;
    n->tile = tile;
    n->rc = *rc;
    n->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!n->so) {
        snprintf(err, errlen, "cannot load the network model %s: %s", path, dlerror());
        free(path);
        free(n);
        return NULL;
    }
    LOAD(xg_new);
    LOAD(xg_free);
    LOAD(xg_reset);
    LOAD(xg_cfg_row);
    LOAD(xg_cycle);
    LOAD(xg_dbg);
    LOAD(xg_dbg_all);
    LOAD(xg_err);
    LOAD(xg_trace_open);
    LOAD(xg_trace_on);
    LOAD(xg_assert_count);
    LOAD(xg_monitor);
    if (tile) {
        LOAD(xg_wire);
        LOAD(xg_threads);
    }
    free(path);
    return n;
fail:
    dlclose(n->so);
    free(path);
    free(n);
    return NULL;
}

/* The tile build's link tables (xnoc_tile_glue.cpp xg_wire): per router port
 * i = r * nports + p, the port whose output flit drives its input and the
 * port whose input credit returns to its output (-1 none, -2 - ch a terminal
 * channel), and each terminal channel's port. */
static void wire_tiles(xnoc_net *n)
{
    const topo *t = n->t;
    int np = t->nports, nr = t->nrouters, nch = t->nterms * t->k;
    int *in = xmalloc((size_t)nr * (size_t)np * sizeof *in), *cr = xmalloc((size_t)nr * (size_t)np * sizeof *cr);
    int *chp = xmalloc(((size_t)nch + 1) * sizeof *chp);
    for (int r = 0; r < nr; r++)
        for (int p = 0; p < np; p++) {
            int i = r * np + p, term = topo_port_term(t, r, p), li = t->in_link[i], lo = t->out_link[i];
            if (term >= 0) {
                int ch = term * t->k + (p - t->nnet) % t->k;
                in[i] = cr[i] = -2 - ch;
                chp[ch] = i;
                continue;
            }
            in[i] = li >= 0 ? t->links[li].src * np + t->links[li].src_port : -1;
            cr[i] = lo >= 0 ? t->links[lo].dst * np + t->links[lo].dst_port : -1;
        }
    if (n->xg_wire(n->g, nr, np, in, cr, nch, chp))
        cli_fail(EXIT_RUNFAIL, "the router tile model does not fit %s", t->name);
    n->xg_threads(n->g, n->rc.threads); /* threads=N: the tiles evaluated on N threads */
    free(in);
    free(cr);
    free(chp);
}

/* The tile build's extra config rows (rtl/xnoc_tile.sv na_q): its routing
 * table has netbuild_tile_addrs() entries, na of them the network's; the
 * group table follows the whole table, the entries from na on route like an
 * address beyond the flat router's table (port 0; the tile flags them), and
 * the network's address count goes into config kind 3 (its low byte at
 * address 0, its high byte at 1). */
static void tile_rows(xnoc_net *n, uint8_t *data)
{
    const topo *t = n->t;
    int na = netgen_addresses(t, &n->rc), nb = netbuild_tile_addrs(t, &n->rc);
    memset(data, 0, (size_t)t->nrouters);
    for (int a = na; a < nb; a++) n->xg_cfg_row(n->g, 0, a, data);
    for (int b = 0; b < 2; b++) {
        memset(data, na >> 8 * b & 0xFF, (size_t)t->nrouters);
        n->xg_cfg_row(n->g, 3, b, data);
    }
}

static void configure(xnoc_net *n)
{
    const topo *t = n->t;
    n->g = n->xg_new();
    if (n->xg_wire) wire_tiles(n);
    n->xg_reset(n->g, 1);
    uint8_t *data = xmalloc((size_t)t->nrouters);
    int na = netgen_addresses(t, &n->rc), shift = n->tile ? netbuild_tile_addrs(t, &n->rc) - na : 0;
    for (int row = 0; row < netgen_config_rows(t, &n->rc); row++) {
        int kind, addr;
        netgen_config_row(t, &n->rc, row, &kind, &addr, data);
        if (kind == 0 && addr >= na) addr += shift; /* a group row: after the tile's whole table */
        n->xg_cfg_row(n->g, kind, addr, data);
    }
    if (n->tile) tile_rows(n, data);
    free(data);
    n->xg_reset(n->g, 1);
    n->xg_reset(n->g, 0);
    size_t np = (size_t)t->nrouters * (size_t)t->nports;
    n->flits_last = xcalloc(np, sizeof *n->flits_last);
    n->stalls_last = xcalloc(np, sizeof *n->stalls_last);
    n->flits = xcalloc(np, sizeof *n->flits);
    n->stalls = xcalloc(np, sizeof *n->stalls);
    n->now = 0;
}

xnoc_net *net_open(const topo *t, const router_cfg *rc, int progress, char *err, size_t errlen)
{
    xnoc_net *n = open_model(t, rc, netbuild_default_variant(), progress, err, errlen);
    if (n) configure(n);
    return n;
}

void net_close(xnoc_net *n)
{
    if (!n) return;
    n->xg_free(n->g);
    dlclose(n->so);
    free(n->flits_last);
    free(n->stalls_last);
    free(n->flits);
    free(n->stalls);
    free(n->mon);
    free(n);
}

/* Before the first cycle: the same network from the model variant with
 * `add` (NETBUILD_*) too, configured and reset. */
static int swap_model(xnoc_net *n, int add, const char *what, char *err, size_t errlen)
{
    if (n->now != 0) {
        snprintf(err, errlen, "%s must start before the first cycle", what);
        return -1;
    }
    xnoc_net *tn = open_model(n->t, &n->rc, n->variant | add, 1, err, errlen);
    if (!tn) return -1;
    n->xg_free(n->g);
    dlclose(n->so);
    free(n->flits_last);
    free(n->stalls_last);
    free(n->flits);
    free(n->stalls);
    const topo *t = n->t;
    xnoc_flit *mon = n->mon;
    *n = *tn;
    free(tn);
    n->t = t;
    n->mon = mon;
    configure(n);
    return 0;
}

int net_monitor_open(xnoc_net *n, char *err, size_t errlen)
{
    if (n->mon) return 0;
    if (n->tile) { /* every tile model has its taps: no other model */
        if (n->now != 0) {
            snprintf(err, errlen, "monitoring must start before the first cycle");
            return -1;
        }
    } else if (swap_model(n, NETBUILD_MONITOR, "monitoring", err, errlen)) return -1;
    n->mon = xcalloc((size_t)netgen_monitor_slots(n->t, &n->rc), sizeof *n->mon);
    if (n->xg_monitor(n->g, n->mon) != netgen_monitor_slots(n->t, &n->rc)) {
        snprintf(err, errlen, "the network model has no link taps (a stale cache entry?)");
        return -1;
    }
    return 0;
}

const xnoc_flit *net_monitor(const xnoc_net *n) { return n->mon; }

int net_trace(xnoc_net *n, const char *path, uint64_t from, uint64_t to, char *err, size_t errlen)
{
    /* Swap in the model variant built with --trace. */
    if (swap_model(n, NETBUILD_TRACE, "tracing", err, errlen)) return -1;
    if (n->xg_trace_open(n->g, path)) {
        snprintf(err, errlen, "cannot open the trace file %s", path);
        return -1;
    }
    n->trace_from = from;
    n->trace_to = to;
    n->xg_trace_on(n->g, from == 0);
    return 0;
}

void net_cycle(xnoc_net *n, const xnoc_flit *inj, const xnoc_credit *ej_credit, xnoc_flit *ej, xnoc_credit *inj_credit)
{
    if (n->trace_to) {
        if (n->now == n->trace_from) n->xg_trace_on(n->g, 1);
        if (n->now == n->trace_to) n->xg_trace_on(n->g, 0);
    }
    n->xg_cycle(n->g, inj, ej_credit, ej, inj_credit);
    if (n->mon) n->xg_monitor(n->g, n->mon);
    n->now++;
}

uint64_t net_now(const xnoc_net *n) { return n->now; }
/* Router whose named assertion (or its coding unit's) failed first (assert
 * builds: the message names the instance, "...u_r<id>..." or "...u_u<id>..."),
 * or -1. */
static int assert_router(xnoc_net *n, const char **msg)
{
    const char *text;
    if (n->xg_assert_count(n->g, &text) <= 0) return -1;
    if (msg) *msg = text;
    const char *u = strstr(text, "u_r"); /* a router's assertion, or its coding unit's (u_u<id>) */
    if (!u) u = strstr(text, "u_u");
    return u ? atoi(u + 3) : 0;
}

int net_error(xnoc_net *n) { return n->xg_err(n->g) || assert_router(n, NULL) >= 0; }

static uint64_t widen(xnoc_net *n, uint32_t *last, uint64_t *acc, int r, int p, int kind)
{
    size_t i = (size_t)r * (size_t)n->t->nports + (size_t)p;
    uint32_t v = n->xg_dbg(n->g, r, DBG_ROUTER(kind, p));
    acc[i] += (uint32_t)(v - last[i]);
    last[i] = v;
    return acc[i];
}

uint64_t net_link_flits(xnoc_net *n, int router, int port)
{
    return widen(n, n->flits_last, n->flits, router, port, DBG_KIND_FLITS);
}

uint64_t net_port_stalls(xnoc_net *n, int router, int port)
{
    return widen(n, n->stalls_last, n->stalls, router, port, DBG_KIND_STALLS);
}

int net_vc_occupancy(xnoc_net *n, int router, int port, int vc)
{
    return (int)n->xg_dbg(n->g, router, DBG_OCC(port, vc));
}

void net_vc_occupancy_all(xnoc_net *n, int port, int vc, uint32_t *out)
{
    n->xg_dbg_all(n->g, DBG_OCC(port, vc), n->t->nrouters, out);
}

uint32_t net_error_bits(xnoc_net *n, int router)
{
    return n->xg_dbg(n->g, router, DBG_ROUTER(DBG_KIND_ERR, 0)) | (assert_router(n, NULL) == router ? 16u : 0u);
}

/* ---- coding units (their window of the router's debug bus: net/dbg_map.h) ---- */
static uint32_t unit_reg(xnoc_net *n, int router, int reg) { return n->xg_dbg(n->g, router, DBG_UNIT(reg)); }

int net_has_units(const xnoc_net *n) { return n->rc.ncu; }

void net_unit_stats(xnoc_net *n, int router, net_unit *u)
{
    memset(u, 0, sizeof *u);
    if (!n->rc.ncu) return;
    u->coded = unit_reg(n, router, DBG_UNIT_CODED);
    u->xor_ops = unit_reg(n, router, DBG_UNIT_XOR);
    u->replicated = unit_reg(n, router, DBG_UNIT_REPL);
    u->slot_max = (int)unit_reg(n, router, DBG_UNIT_SLOT_MAX);
    u->slot_busy_cycles = unit_reg(n, router, DBG_UNIT_BUSY);
    u->slots_in_use = (int)unit_reg(n, router, DBG_UNIT_INUSE);
    u->contributions = unit_reg(n, router, DBG_UNIT_CONTRIB);
    u->error_bits = unit_reg(n, router, DBG_UNIT_ERR);
    u->clocked_cycles = unit_reg(n, router, DBG_UNIT_CLOCKED);
}

int net_unit_slot(xnoc_net *n, int router, int slot, int *tag, int *got, int *need)
{
    uint32_t v = unit_reg(n, router, DBG_UNIT_SLOT0 + slot);
    *tag = (int)(v >> 16);
    *need = (int)(v >> 8 & 15);
    *got = (int)(v >> 4 & 15);
    return (int)(v & 3);
}

static const char *const unit_err_text[8] = {
    "malformed packet (not a head, SR set, or op/MC not ENCODE or REPLICATE+mask, or wrong length)",
    "packet longer than the unit's limit (--router ncmax)",
    "contributions of different lengths in one coding group",
    "conflicting count or out_* fields in one coding group",
    "coding group incomplete at the time-out (--router timeout)",
    "a result with nowhere to go (no out_dest, OUT_MC without a mask, or a subtree behind a terminal port)",
    "mask bit beyond the last address",
    "input buffer overflow (credit protocol)",
};

/* The failed assertion, from Verilator's message "[t] %Error: FILE:LINE:
 * Assertion failed in TOP.xnoc_network.INSTANCE.NAME: 'assert' failed.":
 * "INSTANCE.NAME (FILE:LINE)"; the message itself if it is not one. */
static void assert_summary(const char *text, char *out, size_t len)
{
    const char *at = strstr(text, "%Error: "), *in = strstr(text, ": Assertion failed in ");
    const char *end = in ? strstr(in, ": 'assert'") : NULL;
    if (!at || !in || !end || at > in) {
        snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
        return;
    }
    at += strlen("%Error: ");
    const char *path = in + strlen(": Assertion failed in ");
    const char *top = strstr(path, "xnoc_network.");
    if (top && top < end) path = top + strlen("xnoc_network.");
    snprintf(out, len, "%.*s (%.*s)", (int)(end - path), path, (int)(in - at), at);
}

int net_describe_error(xnoc_net *n, char *buf, size_t len)
{
    const topo *t = n->t;
    const char *text = "";
    int ar = assert_router(n, &text);
    /* the router whose assertion failed first, then any other with error bits */
    for (int k = -1; k < t->nrouters; k++) {
        int r = k < 0 ? ar : k;
        if (r < 0 || r >= t->nrouters) continue;
        uint32_t b = net_error_bits(n, r);
        if (b) {
            char what[256] = "";
            if (r == ar) {
                strcpy(what, "; assertion ");
                assert_summary(text, what + strlen(what), sizeof what - strlen(what));
            }
            snprintf(buf, len,
                     "router %d flags an RTL invariant violation (bits 0x%x: 1 credit, 2 buffer, 4 VC, 8 route, "
                     "16 assertion)%s",
                     r, b, what);
            return NET_ERR_ROUTER;
        }
    }
    if (!n->rc.ncu) return 0;
    for (int r = 0; r < t->nrouters; r++) {
        uint32_t b = unit_reg(n, r, DBG_UNIT_ERR);
        if (!b) continue;
        uint32_t info = unit_reg(n, r, DBG_UNIT_EINFO);
        int code = (int)(info >> 16 & 15);
        char seen[64]; /* count 0: the contributor that gives the group's count has not arrived */
        if (info >> 24 & 15) snprintf(seen, sizeof seen, "%u of %u contributions", info >> 20 & 15, info >> 24 & 15);
        else snprintf(seen, sizeof seen, "%u contribution(s), the count not yet given", info >> 20 & 15);
        snprintf(buf, len, "coding unit of router %d (address %d): %s; slot %u, tag 0x%04x, %s (error bits 0x%x)", r,
                 t->nterms + r, unit_err_text[code & 7], info >> 28, info & 0xFFFF, seen, b);
        return (code & 7) == 4 ? NET_ERR_TIMEOUT : NET_ERR_UNIT;
    }
    return 0;
}
