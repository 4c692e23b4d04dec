/* netbuild_tile.c - the tile build: one router configuration, any network
 * (netbuild.h netbuild_tile()). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "net/model_cache.h"
#include "net/netbuild.h"
#include "net/netbuild_impl.h"
#include "net/netgen.h"
#include "util/cli.h"
#include "util/fnv.h"
#include "util/proc.h"

/* The routing table of a tile without a unit: the network's address count
 * rounded up to a power of two (16 at least), so networks of 9 to 16
 * terminals share a model, those of 17 to 32 the next, and so on; the tile
 * flags an address beyond the network's at run time (rtl/xnoc_tile.sv na_q).
 * A coding unit's address space stays exact: its mask length, its unit
 * addresses (terminals + router) and its mask check are the network's. */
int netbuild_tile_addrs(const topo *t, const router_cfg *rc)
{
    int na = netgen_addresses(t, rc), b = 16;
    if (rc->ncu) return na;
    while (b < na) b *= 2;
    return b + router_groups(t, rc) <= 1 << CFG_ADDR_W ? b : na; /* the group table follows it */
}

void netbuild_tile_params(const topo *t, const router_cfg *rc, netbuild_tile_p *tp)
{
    memset(tp, 0, sizeof *tp);
    tp->ports = t->nports;
    tp->vcs = rc->vcs;
    tp->buf = rc->buf;
    tp->addrs = netbuild_tile_addrs(t, rc);
    tp->classes = router_classes(t, rc);
    tp->groups = router_groups(t, rc);
    tp->route_bits = topo_port_bits(t);
    tp->ncu = rc->ncu;
    if (rc->ncu) { /* the unit's parameters matter only with a unit: without, one model serves them all */
        tp->terms = t->nterms;
        tp->slots = rc->slots;
        tp->xorlat = rc->xorlat;
        tp->ncmax = rc->ncmax;
        tp->timeout = rc->timeout;
        tp->ncu_ops = rc->ncu_ops == NCU_OPS_XOR ? 0 : 1;
    }
    /* a unit's lanes past the first: router ports inside the tile (netgen.c wire_lanes) */
    tp->lanes = router_lanes(t, rc);
    tp->lane_reserve = router_lane_reserve(t, rc);
    tp->stream = rc->ncu && rc->stream;
    tp->smax = tp->stream ? rc->smax : 0;
}

/* The tile's Verilog parameters as Verilator's -G options (heap words into a). */
static void tile_gparams(strv *a, const netbuild_tile_p *tp)
{
    strv_add(a, xasprintf("-GNumPorts=%d", tp->ports));
    strv_add(a, xasprintf("-GNumVcs=%d", tp->vcs));
    strv_add(a, xasprintf("-GBufDepth=%d", tp->buf));
    strv_add(a, xasprintf("-GNumAddrs=%d", tp->addrs));
    strv_add(a, xasprintf("-GNumClasses=%d", tp->classes));
    strv_add(a, xasprintf("-GNumGroups=%d", tp->groups));
    strv_add(a, xasprintf("-GRouteBits=%d", tp->route_bits));
    strv_add(a, xasprintf("-GNcu=%d", tp->ncu));
    if (tp->ncu) {
        strv_add(a, xasprintf("-GNumTerms=%d", tp->terms));
        strv_add(a, xasprintf("-GNumSlots=%d", tp->slots));
        strv_add(a, xasprintf("-GXorLat=%d", tp->xorlat));
        strv_add(a, xasprintf("-GMaxFlits=%d", tp->ncmax));
        strv_add(a, xasprintf("-GTimeout=%d", tp->timeout));
        strv_add(a, xasprintf("-GNcuOps=%d", tp->ncu_ops));
    }
    if (tp->lanes > 1) { /* one lane: the RTL's defaults (the tile of one lane keeps its -G list) */
        strv_add(a, xasprintf("-GNumLanes=%d", tp->lanes));
        strv_add(a, xasprintf("-GLaneReserve=%d", tp->lane_reserve));
    }
    if (tp->stream) {
        strv_add(a, xstrdup("-GStream=1"));
        strv_add(a, xasprintf("-GStreamMaxFlits=%d", tp->smax));
    }
}

/* The tile model's key: its parameters, the router sources with the tile, the
 * tile glue, the flags, the variant, the Verilator installed. */
static int tile_key(const netbuild_tile_p *tp, int variant, char ***srcs, uint64_t *key, char *err, size_t errlen)
{
    uint64_t h = FNV1A_INIT;
    *srcs = model_cache_rtl_paths(&h, 1, err, errlen);
    if (!*srcs) return -1;
    const char *glue_files[] = {"xnoc_tile_glue.cpp", "xnoc_glue_common.h", "xnoc_vl_printf.h",
                                "xnoc_vl_triggers.h", "xnoc_tile.vlt",      "../../firmware/lib/link_flit.h"};
    for (size_t i = 0; i < sizeof glue_files / sizeof *glue_files; i++) {
        char *g = xasprintf("%s/sim_harness/glue/%s", cli_src_dir(), glue_files[i]);
        int bad = model_cache_hash_file(g, &h);
        if (bad) snprintf(err, errlen, "cannot read the C++ glue %s: %s", g, strerror(errno));
        free(g);
        if (bad) return -1;
    }
    const char *opt = model_cache_cxx_opt();
    h = fnv1a(h, tp, sizeof *tp);
    h = fnv1a(h, VERILATOR_TILE_FLAGS, strlen(VERILATOR_TILE_FLAGS));
    h = fnv1a(h, opt, strlen(opt));
    h = fnv1a(h, &variant, sizeof variant);
    h = fnv1a(h, "unity-1", 7); /* compile_unity */
    const char *cxx[] = {TILE_CXX_FAST, TILE_CXX_SLOW, TILE_CXX_GLUE, TILE_CXX_LINK};
    for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++) h = fnv1a(h, cxx[i], strlen(cxx[i]) + 1);
    if (model_cache_verilator_id(&h)) {
        snprintf(err, errlen, "verilator not found: run 'make deps' (it installs Debian's verilator)");
        return -1;
    }
    *key = h;
    return 0;
}

int netbuild_tile_key(const topo *t, const router_cfg *rc, int variant, uint64_t *key, char *err, size_t errlen)
{
    netbuild_tile_p tp;
    netbuild_tile_params(t, rc, &tp);
    char **srcs = NULL;
    int r = tile_key(&tp, variant & ~NETBUILD_MONITOR, &srcs, key, err, errlen);
    strv_free(srcs);
    return r;
}

int netbuild_tile(const topo *t, const router_cfg *rc, int variant, int progress, char **path, char *err, size_t errlen)
{
    progress = progress && cli_progress_enabled();
    variant &= ~NETBUILD_MONITOR; /* every tile model has its taps */
    int trace = variant & NETBUILD_TRACE, asserts = variant & NETBUILD_ASSERT;
    netbuild_tile_p tp;
    netbuild_tile_params(t, rc, &tp);
    char **srcs = NULL;
    uint64_t h;
    *path = NULL;
    if (tile_key(&tp, variant, &srcs, &h, err, errlen)) {
        strv_free(srcs);
        return -1;
    }
    char *lanes = tp.lanes > 1 ? xasprintf(" of %d lanes", tp.lanes) : xstrdup("");
    char *what = xasprintf("router p=%d addrs=%d vcs=%d buf=%d%s%s", tp.ports, tp.addrs, tp.vcs, tp.buf,
                           tp.ncu ? " with a coding unit" : "", lanes);
    free(lanes);
    char *lw =
        tp.lanes > 1 ? xasprintf("-l%d%s%s", tp.lanes, tp.lane_reserve ? "r" : "", tp.stream ? "s" : "") : xstrdup("");
    char *dir = xasprintf("%s/cache/tile-p%d-a%d-c%d-g%d-s%d-v%d-b%d%s%s%s%s-%016llx", cli_build_dir(), tp.ports,
                          tp.addrs, tp.classes, tp.groups, tp.route_bits, tp.vcs, tp.buf, tp.ncu ? "-u" : "", lw,
                          trace ? "-trace" : "", asserts ? "-assert" : "", (unsigned long long)h);
    free(lw);
    *path = xasprintf("%s/tile.so", dir);
    strv vl = {0}, defs = {0}; /* verilator's words; the tile's own flags of the glue's compile */
    strv_add(&vl, xstrdup("verilator"));
    strv_words(&vl, VERILATOR_TILE_FLAGS);
    strv_words(&vl, asserts ? VERILATOR_ASSERT : VERILATOR_FAST);
    if (trace) strv_add(&vl, xstrdup("--trace"));
    tile_gparams(&vl, &tp);
    strv_add(&vl, xasprintf("%s/sim_harness/glue/xnoc_tile.vlt", cli_src_dir())); /* the router inlined */
    strv_add(&defs, xasprintf("-DXNOC_NP=%d", tp.ports));
    strv_add(&defs, xasprintf("-DXNOC_NCU=%d", tp.ncu));
    char *name = xasprintf("the %s", what);
    char *wait_line = xasprintf("xnoc: waiting for another xnoc building the %s", what);
    char *start_line = xasprintf("xnoc: building the %s%s%s (first use, cached afterwards, any network): verilating...",
                                 what, trace ? " with tracing" : "", asserts ? " with assertions" : "");
    char *glue = xasprintf("%s/sim_harness/glue/xnoc_tile_glue.cpp", cli_src_dir());
    build_job j = {.dir = dir,
                   .key = h,
                   .config = strrchr(dir, '/') + 1,
                   .so = *path,
                   .name = name,
                   .model_word = "tile",
                   .wait_line = wait_line,
                   .start_line = start_line,
                   .done_line = "router tile built",
                   .verilating = "building the router tile: verilating",
                   .vl_words = vl.v,
                   .srcs = srcs,
                   .extra_src = NULL,
                   .trace = trace,
                   .asserts = asserts,
                   .prepare = NULL,
                   .step = NULL, /* nothing to do on the verilated tile */
                   .step_note = NULL,
                   .ctx = NULL,
                   .mc = {.top = "xnoc_tile",
                          .so = "tile.so",
                          .what = "building the router tile: compiling",
                          .first = "-std=gnu++17",
                          .glue = glue,
                          .defs = defs.v,
                          .include_tmp = 0,
                          .unity = 1}};
    int r = netbuild_model(&j, path, progress, err, errlen);
    strv_free(vl.v);
    strv_free(defs.v);
    strv_free(srcs);
    free(what);
    free(dir);
    free(name);
    free(wait_line);
    free(start_line);
    free(glue);
    return r;
}
