/* system.h - the emulated system: one node (RV32IM core + RAM + devices + NI)
 * per terminal of the RTL network, clocked together.
 *
 * Node memory map (docs/ni.md):
 *   0x8000_0000  RAM (default 256 KiB)
 *   0x1000_0000  node devices (DEV_*)
 *   0x1000_1000  network interface (ni.h)
 */
#ifndef XNOC_SYSTEM_H
#define XNOC_SYSTEM_H

#include <stdint.h>
#include <stdio.h>
#include "net/net.h"
#include "net/net_loop.h"
#include "system/ni.h"
#include "core/rv32.h"
#include "core/elf_load.h"
#include "net/topo.h"

#define RAM_BASE 0x80000000u
#include "../../firmware/lib/dev_regs.h" /* the device register map: one home for harness and firmware */
#define NODE_NARGS 8                     /* numbered arguments: --arg 0=V .. --arg 7=V */
#define NODE_NPARAMS 16                  /* named arguments: --arg NAME=V */
#define NODE_PARAM_LEN 16                /* longest name + 1 */

typedef struct {
    char name[NODE_PARAM_LEN];
    uint32_t value;
    int read; /* some node's firmware looked it up */
} node_param;

enum {
    NODE_RUNNING,
    NODE_WAITING,
    NODE_EXITED,
    NODE_FAULTED,
    NODE_BACKGROUND
}; /* background: no core, synthetic traffic */

typedef struct node {
    int id;
    rv32 core;
    ni ni;
    int state, exit_code;
    uint64_t exit_cycle; /* network cycle the node exited in */
    int param_sel;       /* named argument DEV_PARAM_NAME selected, or -1 */
    uint32_t route_dst;  /* terminal DEV_ROUTE_HOPS describes */
    int last_stop;       /* rv32_run's last answer */
    int step;            /* collective step the firmware reported (DEV_STEP), -1 = none */
    uint32_t stall_addr; /* MMIO address the core is stalled on */
    uint64_t bar_target; /* barrier generation this node waits for */
    char line[512];
    int linelen;
    FILE *console;
    struct sys *sys;
    /* firmware bugs (system/guard.c): device accesses, the spin watchdog's
     * activity signature and the cycle it last changed; the stack guard
     * arms once sp has been above the stack bottom */
    uint64_t dev_accesses, spin_sig, spin_since;
    /* the last value each of a few device registers returned (by address,
     * direct-mapped): a read that returns the same again is a poll, and a
     * timer read is a clock: neither counts as a device access (progress) */
    uint32_t poll_addr[8], poll_val[8];
    int stack_armed;
    /* the console's last o.console_keep lines, oldest first from con_first
     * (a ring), and how many older ones were dropped (system/guard.c) */
    char **con;
    int con_n, con_first, con_dropped;
} node;

typedef struct {
    uint32_t ram_kib;
    int clock_ratio;         /* core cycles per network cycle */
    const char *console_dir; /* per-node console files, or NULL */
    FILE *console_out;       /* where "[node N] text" lines go */
    uint32_t args[NODE_NARGS];
    uint8_t arg_given[NODE_NARGS], arg_read[NODE_NARGS];
    node_param params[NODE_NPARAMS];
    int nparams;
    uint32_t plan_addr;
    uint64_t watchdog;               /* cycles of no progress that end the run as a stall (0: off) */
    const char *trace;               /* --trace F.vcd: the RTL network's waveforms */
    FILE *events;                    /* --events F.jsonl: messages sent and delivered, packets at every hop, or NULL */
    uint64_t trace_from, trace_to;   /* --trace-window A:B, cycles [A, B) */
    const unsigned char *background; /* [terminal] 1: runs synthetic traffic (background.h), not the image; or NULL */
    double bg_rate;                  /* flits per cycle each background terminal offers */
    int bg_bytes;                    /* its message size */
    uint64_t bg_seed;
    /* a core that touches no device, no new RAM page and no NI traffic for
     * this many cycles while every other node has exited or waits is stuck
     * in a loop: 0 = SYS_SPIN_DEFAULT, SYS_SPIN_OFF = never */
    uint64_t spin_watchdog;
    /* the collective's model: cycles from its first step to its end, for the
     * progress line's ETA (0: no model, no estimate) */
    uint64_t expect_cycles;
    int console_keep; /* lines of each node's console kept for the report (sys_console) */
} sys_opts;

#define SYS_WATCHDOG_DEFAULT 5000
#define SYS_SPIN_DEFAULT 50000
#define SYS_SPIN_OFF UINT64_MAX

typedef struct sys {
    const topo *t;
    router_cfg rc;
    xnoc_net *net;
    sys_opts o;
    int n;
    node *nodes;
    net_loop loop;           /* the cycle loop shared with the traffic engine: channels, test hooks, stall evidence */
    xnoc_flit *inj, *ej;     /* the loop's channels */
    xnoc_credit *injc, *ejc; /* (aliases of loop.inj, ...) */
    uint64_t cycle;
    uint64_t bar_gen;
    uint64_t bar_cycle; /* network cycle the last barrier released in */
    uint64_t step_c0;   /* network cycle a node first reported a collective step (0: none yet) */
    int bar_count, running;
    int halted; /* tohost written */
    uint32_t tohost_value;
    int tohost_node;
    char fault[700];           /* first fault, one line */
    uint64_t wd_sig, wd_since; /* watchdog: the cores' progress signature and the cycle it last changed */
    elf_info elf;              /* the image: entry, symbols */
    /* Called after every network cycle when set (the live view): a non-zero
     * answer stops the run, sys_run() returns 3 and s->fault says why. */
    int (*on_cycle)(struct sys *s, void *arg);
    void *on_cycle_arg;
    struct background *bg; /* background terminals, or NULL */
    struct hop_log *hops;  /* --events: packet events from the link taps, or NULL */
    char *fault_full;      /* the whole diagnosis when fault[] cannot hold it (sys_error), or NULL */
    uint32_t stack_bottom; /* the image's __stack_bottom (stack guard), 0 = none */
} sys;

/* Builds the network (or takes it from the cache) and one node per terminal,
 * each loaded with the same ELF image.  NULL + one line in err on failure. */
sys *sys_create(const topo *t, const router_cfg *rc, const sys_opts *o, const char *elf, char *err, size_t errlen);
/* Ends the run's outputs: the --events hop log's last lines, every
 * --console-dir file flushed and closed.  0, or 1 with one line in err
 * naming the file and the reason of a failed write (a full disk). */
int sys_close_outputs(sys *s, char *err, size_t errlen);
void sys_free(sys *s);

/* Runs until every node has exited, tohost is written, a fault, or
 * max_cycles network cycles.  Returns 0 when every node exited (or tohost),
 * 1 on a fault (a stall the watchdog saw included: every running node
 * waits on a device and nothing has moved for o.watchdog cycles), 2 on the
 * cycle limit (s->fault says why, naming nodes), 3 when on_cycle asked to
 * stop. */
int sys_run(sys *s, uint64_t max_cycles);

/* What node i is doing, in words ("waiting for a packet at PC 0x...") */
void sys_describe(const sys *s, int i, char *buf, size_t len);

/* The messages node i's NI holds that its firmware never took (in the ring
 * and not released, or held, or still arriving), in words: "node 0 ends
 * with 2 undelivered message(s): from terminal 1 (tag 8, 16 bytes) in its
 * receive ring, not released; ..."; returns their number (0: buf empty). */
int sys_undelivered(const sys *s, int i, char *buf, size_t len);

/* The run's error line, complete: s->fault, or the longer diagnosis it
 * begins (a stall naming every node); "" when there is none. */
const char *sys_error(const sys *s);

/* ---- firmware bugs and diagnoses (system/guard.c, system/diagnose.c) ---- */
/* The stack guard: 1 (and s->fault) when node nd's sp went below the
 * image's __stack_bottom. */
int sys_stack_guard(sys *s, node *nd);
/* The spin watchdog (every 256 cycles): 1 (and s->fault) when a core has
 * looped without touching a device, a new RAM page or its NI for
 * o.spin_watchdog cycles while every other running node waits or loops
 * the same way and at least one node waits or has exited (a run in which
 * every node computes is left alone). */
int sys_spin_watchdog(sys *s);
/* Appends ": nodes 0-12, 14 are waiting for ...; node 13 is ..." to
 * s->fault, what[i] being node i's sys_describe() (NULL: not listed):
 * identical states grouped, the whole line in s->fault_full when it does
 * not fit.  Frees what[] and its strings. */
void sys_group_states(sys *s, char **what);
/* What node i's NI holds that the firmware does not take: messages held
 * for want of a ring or ring room, unread ring messages, posted receives
 * not yet matched; "" when nothing.  Heap string. */
char *sys_describe_ni(const sys *s, int i);
/* The progress line (cli_progress): phase, cycle, and an ETA against the
 * collective's model (o.expect_cycles) once its first step began, else "no
 * estimate" (--max-cycles is a limit, not an expectation). */
void sys_progress(const sys *s, uint64_t max_cycles, uint64_t c0, double t0);
/* A console line of node nd for the report (the last o.console_keep kept). */
void sys_console_keep(node *nd, const char *line);

#endif
