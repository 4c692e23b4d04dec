/* dev_regs.h - the node's device registers (console, exit, cycle counter,
 * topology, barrier, arguments...): byte offsets from DEV_BASE, the one map
 * the harness (sim_harness/system/system.c) and the firmware (xnoc.h) both use.
 * docs/ni.md describes each register. */
#ifndef XNOC_DEV_REGS_H
#define XNOC_DEV_REGS_H

#define DEV_BASE 0x10000000u
enum {
    DEV_ID = 0x00,
    DEV_NODES = 0x04,
    DEV_CONSOLE = 0x08,
    DEV_EXIT = 0x0C,
    DEV_CYCLE_LO = 0x10,
    DEV_CYCLE_HI = 0x14,
    DEV_TOPO_KIND = 0x18,
    DEV_TOPO_W = 0x1C,
    DEV_TOPO_H = 0x20,
    DEV_CONC = 0x24,
    DEV_PORTS = 0x28,
    DEV_BARRIER = 0x2C,
    DEV_PLAN = 0x30,
    DEV_RAM_SIZE = 0x34,
    DEV_ROUTERS = 0x38,
    DEV_ARG0 = 0x40, /* 8 words: --arg 0=V .. 7=V */
    DEV_PARAM_NAME = 0x60,
    DEV_PARAM_VALUE = 0x64,
    DEV_PARAM_FOUND = 0x68,
    DEV_ROUTE_DST = 0x6C,
    DEV_ROUTE_HOPS = 0x70,
    DEV_STEP = 0x74,
    DEV_NC_UNITS = 0x78,
    DEV_NC_MAX = 0x7C,
    DEV_BAR_CYCLE_LO = 0x80,
    DEV_BAR_CYCLE_HI = 0x84,
    DEV_TOPO_NDIMS = 0x88, /* mesh/torus dimensions, 0 on the octagon */
    DEV_TOPO_DIM0 = 0x8C,  /* 6 words: size of dimension d (dragonfly: a, h, g) */
    DEV_NC_SMAX = 0xA4,    /* longest OP STREAM payload (bytes) a streaming unit takes, 0 without */
};

#endif
