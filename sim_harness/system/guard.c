/* guard.c - firmware bugs found in thousands of cycles, not millions: the
 * stack guard (sp below the image's __stack_bottom), the spin watchdog (a
 * core looping without touching anything while the others wait or have
 * left) - and each node's last console lines for the report. */
#include <stdlib.h>
#include <string.h>

#include "system/system.h"
#include "util/cli.h"

int sys_stack_guard(sys *s, node *nd)
{
    uint32_t sp = nd->core.x[2];
    if (sp >= s->stack_bottom) { /* crt0 has set sp (it starts at 0) */
        nd->stack_armed = 1;
        return 0;
    }
    if (!nd->stack_armed) return 0;
    char sym[200];
    elf_symbolize(&s->elf, nd->core.pc, sym, sizeof sym);
    nd->state = NODE_FAULTED;
    snprintf(s->fault, sizeof s->fault,
             "stack overflow on node %d (sp 0x%08x, limit 0x%08x) at PC 0x%08x%s, cycle %llu: the stack grew down "
             "past __stack_bottom, the end of the image's data and bss (deep recursion or large local arrays; "
             "--ram KiB gives it more room)",
             nd->id, sp, s->stack_bottom, nd->core.pc, sym, (unsigned long long)s->cycle);
    return 1;
}

/* what changes whenever a core does something others could see or that
 * could end its loop: a device access (a store, or a read that returns a
 * new value: polling an unchanged NI status or reading a clock is not one,
 * system.c read_progress), a RAM page touched for the first time, a flit
 * through its NI */
static uint64_t activity(const node *nd)
{
    return nd->dev_accesses * 0x9E3779B97F4A7C15ull + nd->core.pages_touched * 131 + nd->ni.flits_sent * 31 +
           nd->ni.flits_recv * 37;
}

int sys_spin_watchdog(sys *s)
{
    uint64_t limit = s->o.spin_watchdog ? s->o.spin_watchdog : SYS_SPIN_DEFAULT;
    if (limit == SYS_SPIN_OFF) return 0;
    int spinner = -1, nspin = 0, busy = 0, idle = 0; /* idle: nodes that exited or wait */
    for (int i = 0; i < s->n; i++) {
        node *nd = &s->nodes[i];
        idle += nd->state == NODE_EXITED;
        if (nd->state == NODE_EXITED || nd->state == NODE_BACKGROUND || nd->state == NODE_FAULTED) continue;
        uint64_t a = activity(nd);
        int waits = nd->last_stop == RV32_STALL || nd->last_stop == RV32_WFI;
        if (a != nd->spin_sig || waits) {
            nd->spin_sig = a; /* waiting on a device is not spinning: the stall watchdog judges that */
            nd->spin_since = s->cycle;
        }
        if (waits) {
            idle++;
            continue;
        }
        if (s->cycle - nd->spin_since < limit) busy = 1; /* this node still does something */
        else {
            if (spinner < 0) spinner = i;
            nspin++;
        }
    }
    /* every node computing (a compute kernel, a one-node run) is not a hang
     * anyone waits on: only a loop the others wait for, or left behind, is */
    if (spinner < 0 || busy || !idle) return 0;
    node *nd = &s->nodes[spinner];
    char sym[200];
    elf_symbolize(&s->elf, nd->core.pc, sym, sizeof sym);
    char also[64] = "";
    if (nspin > 1) snprintf(also, sizeof also, " (and %d more node(s) like it)", nspin - 1);
    snprintf(s->fault, sizeof s->fault,
             "node %d loops at PC 0x%08x%s (cycle %llu): no device access (reads of an unchanged register or a "
             "clock aside), no new RAM page and no NI traffic for %llu cycles%s%s (--spin-watchdog N sets the "
             "limit, 0 turns it off)",
             spinner, nd->core.pc, sym, (unsigned long long)s->cycle, (unsigned long long)(s->cycle - nd->spin_since),
             also, " while every other node has exited or waits");
    nd->state = NODE_FAULTED;
    return 1;
}

#define CONSOLE_LINE_MAX 200

void sys_console_keep(node *nd, const char *line)
{
    int keep = nd->sys->o.console_keep;
    if (keep <= 0) return;
    if (!nd->con) nd->con = xcalloc((size_t)keep, sizeof *nd->con);
    char *l = xasprintf("%.*s", CONSOLE_LINE_MAX, line);
    for (char *c = l; *c; c++) /* JSON strings: printable ASCII, the rest as '?' */
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) *c = '?';
    if (nd->con_n < keep) nd->con[(nd->con_first + nd->con_n++) % keep] = l;
    else { /* full: the oldest goes */ free(nd->con[nd->con_first]);
        nd->con[nd->con_first] = l;
        nd->con_first = (nd->con_first + 1) % keep;
        nd->con_dropped++;
    }
}

/* The progress line of a run: the phase, the cycle against --max-cycles
 * and the time that is left at most. */
void sys_progress(const sys *s, uint64_t max_cycles, uint64_t c0, double t0)
{
    int exited = 0, step = -1, posted = 0, sent = 0;
    for (int i = 0; i < s->n; i++) {
        const node *nd = &s->nodes[i];
        if (nd->state == NODE_BACKGROUND) continue;
        if (nd->state == NODE_EXITED) {
            exited++;
            continue;
        }
        if (nd->step >= 0 && (step < 0 || nd->step < step)) step = nd->step;
        posted |= nd->ni.nposted > 0 || nd->ni.ring_size > 0;
        sent |= nd->ni.packets_sent > 0;
    }
    char phase[64];
    if (exited) snprintf(phase, sizeof phase, "finishing, %d node(s) exited", exited);
    else if (step >= 0) snprintf(phase, sizeof phase, "collective step %d", step);
    else if (s->o.plan_addr) snprintf(phase, sizeof phase, "%s", posted || s->bar_gen ? "set-up" : "boot");
    else snprintf(phase, sizeof phase, "%s", posted || sent || s->bar_gen ? "running" : "boot");
    char rate[80], expect[96] = "";
    uint64_t end = s->o.expect_cycles && s->step_c0 ? s->step_c0 + s->o.expect_cycles : 0;
    if (end) snprintf(expect, sizeof expect, ", the model ends it near %llu", (unsigned long long)end);
    cli_rate_eta(s->cycle - c0, end > s->cycle ? end - c0 : 0, t0, rate, sizeof rate);
    (void)max_cycles;
    cli_progress("cycle %llu (%s; %d of %d node(s) running%s), %s%s", (unsigned long long)s->cycle, phase, s->running,
                 s->n, expect, rate, end > s->cycle ? "" : ", no estimate");
}
