/* router_cfg.h - the router parameters of a network (what --router sets):
 * VCs, buffers, coding units, routing mode, and what they ask of routers
 * and senders (VC classes, group table, Valiant head bits).  Pure data and
 * functions of the topology: the netlist generator, the model builder, the
 * NIs and the traffic generator share it without the running network. */
#ifndef XNOC_ROUTER_CFG_H
#define XNOC_ROUTER_CFG_H

#include <stddef.h>
#include <stdint.h>

#include "../../firmware/lib/link_flit.h"
#include "net/topo.h"

/* Limits of --router that other layers size arrays by (the NI's credits,
 * reassembly buffers and owed credits): the parser enforces them. */
#define ROUTER_MAX_VCS (1 << LINK_VC_W) /* the link flit's VC field: 8 */
#define ROUTER_MAX_BUF 64               /* flits per VC buffer */

typedef struct {
    int vcs;     /* virtual channels per port, 1..8 (default 2) */
    int buf;     /* input buffer depth per VC, flits (default 8) */
    int ncu;     /* 1: every router has a network-coding unit on an extra port */
    int slots;   /* coding slots per unit (default 4) */
    int xorlat;  /* cycles from a completed coding group to its result (default 1) */
    int ncmax;   /* longest payload a unit handles, flits (default 32 = 256 bytes) */
    int timeout; /* cycles an incomplete coding group may wait before it is reported */
    int ncu_ops; /* NCU_OPS_*: the units' combining operators (default all; xor: the XOR-only unit) */
    int lanes;   /* the units' output links into their router, 1..16; 0 (default): router_lanes decides */
    int stream;  /* 1: the units combine reductions flit by flit, a lane per router port (xnoc_ncu_stream) */
    int smax;    /* longest streaming payload, flits (default 256 = 2 KiB; a length counter, nothing stored) */
    int routing; /* ROUTING_*: dragonfly minimal, Valiant or UGAL (default minimal) */
    int threads; /* threads: the flat model's Verilator threads (another build), the tile build's own (default 1) */
    int model;   /* MODEL_*: how the network is built (not the RTL: the same cycles either way) */
    /* the terminals' NIs (not part of the RTL: no rebuild) */
    int sendq; /* send descriptors an NI channel holds (default 1: GO stalls while it sends) */
} router_cfg;

enum { ROUTING_MIN, ROUTING_VALIANT, ROUTING_UGAL };
/* --router ncu_ops=xor|all: the coding units' Verilog parameter NcuOps (0, 1) */
enum { NCU_OPS_XOR, NCU_OPS_ALL };
/* --router model=flat|tile: the whole network verilated as one netlist (net/netgen.c), or one
 * router configuration verilated once and wired by the harness (rtl/xnoc_tile.sv,
 * net/netbuild.c netbuild_tile).  Without model=, net.c decides (MODEL_DEFAULT): XNOC_MODEL=
 * flat|tile in the environment (the tests' way to run a whole group on one build), else tile
 * wherever the tile serves: a new router configuration is ready in seconds whatever the
 * network, where a flat build takes minutes (docs/performance.md "The default"), a unit's
 * multicast lanes included (router_lanes > 1: a clos's by default; the tile's NumLanes).
 * threads=N does not choose: the flat build is verilated with
 * --threads N, the tile build evaluates its tiles on N threads (glue/xnoc_tile_glue.cpp
 * xg_threads). */
enum { MODEL_DEFAULT, MODEL_FLAT, MODEL_TILE };

void router_cfg_default(router_cfg *rc);
/* VC classes the routers use: the topology's, 3 on a dragonfly with
 * non-minimal routing (one more per global hop); and the group-table
 * entries (the groups then, else 1). */
int router_classes(const topo *t, const router_cfg *rc);
int router_groups(const topo *t, const router_cfg *rc);
/* The lanes of a coding unit: links both ways between it and its router (the
 * router has lanes-1 more ports): a unit absorbs that many packets and sends
 * that many (a multicast's copies) in the same cycle (rtl/xnoc_ncu_emit.sv,
 * docs/router.md "Multicast lanes").  lanes= if given; by default on a clos
 * max(n, r) (a spine's or a leaf's fanout: every copy at once), 1 elsewhere
 * and without units. */
int router_lanes(const topo *t, const router_cfg *rc);
/* 1 where a unit of several lanes keeps a slot per lane for multicasts: a
 * clos, whose units send to units without cycles (rtl/xnoc_ncu_slots.sv;
 * on a mesh the reserve deadlocked a coding group); the unit's LaneReserve,
 * in the flat netlist and the tile alike. */
int router_lane_reserve(const topo *t, const router_cfg *rc);
/* The head bits non-minimal routing adds to a table-routed packet from
 * terminal src to address dst (firmware/lib/flit.h VAL, UGAL, VGROUP): for
 * another group's terminal, an intermediate group drawn uniformly from the
 * others (rng: the sender's state); 0 for everything else. */
uint64_t routing_head_bits(const topo *t, const router_cfg *rc, int src, uint32_t dst, uint64_t *rng);
/* --router's keys, ranges and defaults as every command's --help prints them:
 * one text beside the parser's table (router_cfg.c), so no command lists a
 * stale or partial set. */
#define ROUTER_CFG_HELP                                                                                                \
    "  --router K=V,...  router parameters, comma-separated [default]:\n"                                              \
    "      vcs=1..8 [2] virtual channels per port; buf=1..64 [8] flits per VC buffer;\n"                               \
    "      threads=1..16 [1] threads: the flat build's Verilator threads, the tile build's own;\n"                     \
    "      coding units: ncu=0|1 [1], ncu_ops=xor|all [all] combining operators, slots=1..16 [4],\n"                   \
    "      xorlat=1..64 [1] cycles, ncmax=1..256 [32] flits, timeout=100..1000000 [100000] cycles,\n"                  \
    "      lanes=1..16 [clos: max(n,r), else 1] unit links both ways (copies sent in the same cycle);\n"               \
    "      stream=0|1 [0] streaming reduction lanes in the units, one per router port (innet on a mesh);\n"            \
    "      smax=1..1024 [256] flits: the longest packet a streaming lane takes (stream=1; nothing stored);\n"          \
    "      dragonfly routing=min|valiant|ugal [min] (valiant and ugal need vcs=3 or 6);\n"                             \
    "      model=flat|tile [tile] one netlist per network, or one\n"                                                   \
    "      router model wired at run time (docs/performance.md);\n"                                                    \
    "      the NIs: sendq=1..16 [1] send descriptors per channel (no model rebuild)\n"

/* Parses "vcs=4,buf=4" on top of the current values; one line into err. */
int router_cfg_parse(router_cfg *rc, const char *s, char *err, size_t errlen);

#endif
