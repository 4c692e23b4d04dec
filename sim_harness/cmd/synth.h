/* synth.h - the area of a network's router, by synthesis: yosys (Debian's
 * 0.23) maps the router, and its coding unit when the network has one, to
 * generic gates with exactly the parameters netgen gives that network.
 * Results are cached in build/cache/synth-*.json (a router takes 15-60 s),
 * keyed by the parameters, the RTL sources and the yosys version. */
#ifndef XNOC_SYNTH_H
#define XNOC_SYNTH_H

#include <stddef.h>

#include "net/net.h"
#include "net/topo.h"

typedef struct {
    char params[200]; /* "NumPorts=5 NumVcs=2 BufDepth=8 ..." (the module's parameters) */
    long cells, flip_flops, muxes;
} synth_area;

typedef struct {
    synth_area router, unit;       /* unit: only with rc->ncu, with the network's ncu_ops */
    synth_area unit_xor, unit_all; /* the same unit with XOR only (NcuOps=0) and every operator (1) */
    int has_unit;
    int noshare; /* synth -noshare (the group table: see docs/synth.md) */
} synth_result;

/* 0, or -1 with one line in err (yosys missing or failing: its log is named). */
int synth_network(const topo *t, const router_cfg *rc, int progress, synth_result *r, char *err, size_t errlen);

#endif
