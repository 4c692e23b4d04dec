/* coll_exec.h - a collective's plan run by the firmware on the emulated
 * system: every node's plan encoded into its RAM, the run on the RTL
 * network, every node's buffers verified and the steps timed
 * (coll_execute), and the model's t_s and t_1 measured on the same network
 * with the same firmware (coll_calibrate).  `xnoc collective` is the caller. */
#ifndef XNOC_COLL_EXEC_H
#define XNOC_COLL_EXEC_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "system/background.h"
#include "coll/coll.h"
#include "net/net.h"
#include "net/topo.h"
#include "view/view.h"

/* What an engine call of collrun/ returns: it ran (its result says how
 * that went), or it refused the configuration before running (the command's
 * usage error, exit 2) or failed before running (exit 1); the result's error
 * says why, in words about the network and the collective, not options. */
enum { COLLRUN_RAN = 0, COLLRUN_REFUSED, COLLRUN_FAILED };

typedef struct {
    int verified, fault;
    int output_failed; /* a picture, --events or console file could not be written: error says which */
    char error[8192];  /* the run's error line (sys_error: grouped, uncut up to this size) */
    uint64_t cycles;
    uint64_t *step_cycles;
    uint64_t stalls;
    char worst[128];
    uint64_t worst_stalls;
    uint64_t flits;
    uint64_t combine_cycles; /* reduce: the most any node spent combining */
    char busiest[64];        /* the channel that carried the most flits */
    uint64_t busiest_flits;
    uint64_t link_flits;   /* flits on router-to-router links, all of them */
    uint64_t global_flits; /* dragonfly: of them on global links */
    uint32_t ram_kib;
    uint32_t need_kib;     /* refused: the RAM per node the plan needs (more than coll_exec_opts.ram_kib) */
    uint64_t start_cycle;  /* network cycle the timed region began in */
    background_stats_t bg; /* --background */
} coll_outcome;

/* How a run goes: the collective's data (bytes per message, the data
 * pattern's seed, the reduce operator), its steps' synchronization
 * (SYNC_GLOBAL or SYNC_DATA), its budget; every run (the calibration too, so
 * the model matches) takes clock_ratio; only the measured run (measured =
 * 1) is traced, logs events and has background traffic. */
typedef struct {
    int bytes;
    int sync;
    uint32_t seed;
    int redop;              /* NC_FUNC_ADD32, ... (firmware/lib/flit.h; coll/ncfunc.h names them) */
    int ni_decode;          /* extended plans: the NIs' decode engines XOR, not the cores (--decode ni) */
    uint64_t max_cycles;    /* give up after this many network cycles */
    uint64_t expect_cycles; /* the model's cycles from the first step to the end (progress ETA), 0: none */
    uint32_t ram_kib;       /* RAM per node; 0: sized for the plan and buffers */
    int clock_ratio;        /* core cycles per network cycle */
    int measured;
    const char *trace_path; /* --trace F.vcd [--trace-window A:B] */
    uint64_t trace_from, trace_to;
    FILE *events;                 /* --events F.jsonl */
    const char *events_path;      /* its name, for a write error */
    const unsigned char *bg_mask; /* --background: [terminal] 1 = runs synthetic traffic */
    double bg_rate;
    int bg_bytes;
    uint64_t watchdog;      /* --watchdog N (0: the default, SYS_WATCHDOG_DEFAULT; UINT64_MAX: off) */
    uint64_t spin_watchdog; /* --spin-watchdog N (0: the default; SYS_SPIN_OFF: off) */
} coll_exec_opts;

/* Runs schedule s on the network as x says, checks every node's buffers
 * afterwards and collects the timing.  links (or NULL): the per-channel
 * report; vw (or NULL): the view.  Returns COLLRUN_RAN, or COLLRUN_REFUSED
 * (out->error; out->need_kib when x->ram_kib is too small). */
int coll_execute(const topo *t, const router_cfg *rc, coll_sched *s, const coll_exec_opts *x, coll_outcome *out,
                 json_t **links, view *vw);

/* t_s and t_1 of the model on this network, cached by content (the
 * model's hash, the whole router configuration, the clock ratio, the
 * firmware).  Returns COLLRUN_RAN, or COLLRUN_REFUSED with the reason in err. */
int coll_calibrate(const topo *t, const router_cfg *rc, int clock_ratio, double *ts, double *t1, char *err,
                   size_t errlen);

#endif
