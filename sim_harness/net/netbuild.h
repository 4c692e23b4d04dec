/* netbuild.h - verilate and compile a network once, cache it, reuse it.
 *
 * The cache and its keys are net/model_cache.[ch] (every model verified
 * against its manifest before it is loaded); netbuild.c the steps every
 * build takes, netbuild_flat.c the flat network, netbuild_tile.c the tile.
 * Builds happen in a private directory renamed into place, under a lock, so
 * concurrent runs of the same configuration build it once. */
#ifndef XNOC_NETBUILD_H
#define XNOC_NETBUILD_H

#include <stddef.h>
#include <stdint.h>
#include "net/router_cfg.h"
#include "net/topo.h"

/* Model variants; each is cached on its own.  The plain model is the fast one. */
enum {
    NETBUILD_TRACE = 1,   /* verilated with --trace: VCD waveforms */
    NETBUILD_ASSERT = 2,  /* verilated with --assert -DXNOC_ASSERT: the RTL's named invariants */
    NETBUILD_MONITOR = 4, /* every router output tapped to the top level: hop-level events */
};

/* Returns the path of the shared object for (t, rc, variant) in *path
 * (heap: the caller frees it), building it first if needed: Verilator,
 * make and g++ run from argument vectors, never through a shell, so a
 * build folder (XNOC_BUILD) may hold any character.  0 on success, -1
 * with one line in err (and *path NULL). */
int netbuild(const topo *t, const router_cfg *rc, int variant, int progress, char **path, char *err, size_t errlen);

/* The model's content hash for (t, rc, variant): the cache key above, the
 * one its folder is named by (caches of results measured on the model,
 * such as the collective calibration, key on it).  0, or -1 with err. */
int netbuild_key(const topo *t, const router_cfg *rc, int variant, uint64_t *key, char *err, size_t errlen);

/* Points every call of a duplicated per-module function of the verilated
 * C++ in objdir at one copy (net/dedupe.c: why); *moved = calls redirected. */
int netbuild_dedupe(const char *objdir, int *moved, char *err, size_t errlen);

/* The tile build (--router model=tile): rtl/xnoc_tile.sv (a router and its
 * coding unit) verilated once per parameter set below, cached by content like
 * the networks, and compiled with sim_harness/glue/xnoc_tile_glue.cpp into a
 * shared object that wires any network of tiles from link tables at load
 * time (net.c).  Without a coding unit the routing table's size is a
 * bucket (netbuild_tile_addrs); the other network-dependent parameters are
 * exact (ports, route bits, classes, groups, and with a unit its address
 * space): networks of the same router port count, address bucket, classes
 * and groups share one model. */
typedef struct {
    int ports, vcs, buf, addrs, classes, groups, route_bits;
    int ncu, terms, slots, xorlat, ncmax, timeout, ncu_ops; /* 0 without a unit */
    int lanes, lane_reserve; /* the unit's multicast lanes (router_lanes; 1 without a unit) and their reserve */
    int stream;              /* 1: lanes 1.. are the streaming combiner's (--router stream=1) */
    int smax;                /* with stream: its longest packet, flits (--router smax=) */
} netbuild_tile_p;
void netbuild_tile_params(const topo *t, const router_cfg *rc, netbuild_tile_p *tp);
/* The tile's routing-table entries for (t, rc): netgen_addresses() or more. */
int netbuild_tile_addrs(const topo *t, const router_cfg *rc);
/* As netbuild() for the tile of (t, rc): *path the tile's shared object.
 * NETBUILD_MONITOR is ignored (every tile has its taps). */
int netbuild_tile(const topo *t, const router_cfg *rc, int variant, int progress, char **path, char *err,
                  size_t errlen);
int netbuild_tile_key(const topo *t, const router_cfg *rc, int variant, uint64_t *key, char *err, size_t errlen);

/* The variant net_open() uses: NETBUILD_ASSERT when XNOC_RTL_ASSERT=1. */
int netbuild_default_variant(void);

#endif
