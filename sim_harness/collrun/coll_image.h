/* coll_image.h - what the runners of build/firmware/coll-innet.elf share
 * (coll_innet.c: reduce, allreduce and the scans; coll_mcast.c: bcast and
 * allgather by multicast): the image run with a plan and data in every
 * node's RAM, the timed region, the checks of every node's words after the
 * run, the network's counters and the result every runner's carries (its
 * report is cmd/collective_report.c's). */
#ifndef XNOC_COLL_IMAGE_H
#define XNOC_COLL_IMAGE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../firmware/coll/innet.h"
#include "collrun/coll_exec.h"
#include "system/system.h"

#define COLL_IMAGE_PLAN (64u * 1024)                     /* the plan's words (IP_*) in every node's RAM */
#define COLL_IMAGE_BUF (COLL_IMAGE_PLAN + 4u * IP_WORDS) /* the data after it */

/* RAM per node (KiB, at least 256) for `need` bytes of plan, data and work
 * area, the stack beside them. */
uint32_t coll_image_ram_kib(uint32_t need);

/* Places node i's plan and data into its RAM (ram: the node's first byte). */
typedef void (*coll_image_fill)(void *arg, int node, uint8_t *ram);

/* The result of one run of the image. */
typedef struct {
    sys *sy;                      /* the system after the run (coll_image_done frees it) */
    int verified;                 /* the run ended well and every check so far passed */
    char error[8192];             /* the first thing that went wrong, or "" */
    uint64_t cycles, start_cycle; /* the timed region (coll_image_timed) */
} coll_image;

/* Runs the image with ram_kib KiB per node, fill()ed, as xo says (clock
 * ratio, watchdogs), for at most max_cycles.  Sets everything in *ci;
 * returns COLLRUN_REFUSED (ci->error says why, no system) when the system
 * cannot be built, else COLLRUN_RAN. */
int coll_image_run(coll_image *ci, const topo *t, const router_cfg *rc, const coll_exec_opts *xo, uint32_t ram_kib,
                   uint64_t max_cycles, coll_image_fill fill, void *arg);

/* Node i's plan words after the run. */
static inline const uint32_t *coll_image_plan(const coll_image *ci, int i)
{
    return (const uint32_t *)(ci->sy->nodes[i].core.ram + COLL_IMAGE_PLAN);
}

/* 1 when node i completed (IP_STATUS 1); else, the first time, the error
 * "node i did not complete the WHAT (status S)" and verified = 0. */
int coll_image_completed(coll_image *ci, int i, const char *what);

/* Compares `words` 32-bit words at byte `off` of node i's RAM with want[]:
 * the first that differs sets the error "node i: word k of WHAT is 0xG,
 * LABEL 0xE" and verified = 0.  Returns verified. */
int coll_image_check(coll_image *ci, int i, uint32_t off, const uint8_t *want, uint32_t words, const char *what,
                     const char *label);

/* Node i's contribution (coll_pattern, broadcast data) at COLL_IMAGE_BUF of
 * its RAM, and every node's combined by the unit operator func (coll/ncfunc.c,
 * the host's reduction) into want[0..bytes) for nt nodes. */
void coll_image_data(uint8_t *ram, uint32_t seed, int i, uint32_t bytes);
/* The plan words every node shares (IP_WORDS) into node i's RAM, with the
 * magic and the data's address, and node i's data (IP_BYTES of them); returns
 * the node's plan words, for what is its own. */
uint32_t *coll_image_place(uint8_t *ram, const uint32_t *plan, uint32_t seed, int i);
void coll_image_expect(uint8_t *want, uint32_t seed, int nt, int func, uint32_t bytes);
/* routers on the table's route from terminal a to terminal b (the NI model's H) */
int coll_image_route_routers(const topo *t, const router_cfg *rc, int a, int b);

/* The network's counters after the run. */
typedef struct {
    uint64_t link_flits;          /* flits on router-to-router links */
    uint64_t stalls, link_stalls; /* stalled flit-cycles at every port, at link ports */
    uint64_t absorbed, combined;  /* the units: packets absorbed, flits combined */
    uint64_t coded, copies;       /* results sent, multicast copies */
} coll_image_counts;
void coll_image_counters(const coll_image *ci, coll_image_counts *c);

/* What every runner of the image reports: how the run ended, the timed
 * region, the RAM per node and the network's counters. */
typedef struct {
    int verified;
    char error[8192];
    int planning; /* refused or failed while planning the collective (not while building the system) */
    uint64_t cycles, start_cycle;
    uint32_t ram_kib;
    coll_image_counts c;
} coll_image_result;

/* The end of a run: *r from ci (and its counters), the system freed. */
void coll_image_end(coll_image *ci, uint32_t ram_kib, coll_image_result *r);

#endif
