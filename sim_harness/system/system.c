/* system.c - nodes, their devices, and the system clock loop (see system.h). */
#include "system/system.h"
#include "net/hop_log.h"

#include "system/background.h"

#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "core/elf_load.h"
#include "core/htif.h"

static void console_flush(node *nd)
{
    nd->line[nd->linelen] = 0;
    sys_console_keep(nd, nd->line);
    if (nd->console) fprintf(nd->console, "%s\n", nd->line);
    else fprintf(nd->sys->o.console_out, "[node %d] %s\n", nd->id, nd->line);
    nd->linelen = 0;
}

static void console_putc(node *nd, char ch)
{
    if (ch == '\n' || nd->linelen == (int)sizeof nd->line - 1) console_flush(nd);
    if (ch != '\n') nd->line[nd->linelen++] = ch;
}

static void node_exit(sys *s, node *nd, int code)
{
    if (nd->state == NODE_EXITED) return;
    if (nd->linelen) console_flush(nd);
    nd->state = NODE_EXITED;
    nd->exit_code = code;
    nd->exit_cycle = s->cycle;
    s->running--;
    /* a barrier no longer waits for a node that has left */
    if (s->bar_count && s->bar_count >= s->running) {
        s->bar_gen++;
        s->bar_cycle = s->cycle;
        s->bar_count = 0;
    }
}

/* DEV_PARAM_NAME: firmware hands over the address of a NUL-terminated name;
 * the lookup happens here, once, so reading the value is one load. */
static int param_select(node *nd, uint32_t addr)
{
    const rv32 *c = &nd->core;
    char name[NODE_PARAM_LEN];
    nd->param_sel = -1;
    for (uint32_t i = 0;; i++) {
        uint32_t off = addr + i - c->ram_base;
        if (off >= c->ram_size) return RV32_MMIO_FAULT;
        if (i == NODE_PARAM_LEN) return RV32_MMIO_OK; /* longer than any name: not given */
        name[i] = (char)c->ram[off];
        if (!name[i]) break;
    }
    sys_opts *o = &nd->sys->o;
    for (int i = 0; i < o->nparams; i++)
        if (!strcmp(o->params[i].name, name)) {
            nd->param_sel = i;
            o->params[i].read = 1;
        }
    return RV32_MMIO_OK;
}

static int dev_mmio(node *nd, uint32_t off, int is_store, uint32_t *val)
{
    sys *s = nd->sys;
    const topo *t = s->t;
    if (is_store) {
        switch (off) {
        case DEV_CONSOLE: console_putc(nd, (char)*val); return RV32_MMIO_OK;
        case DEV_EXIT: node_exit(s, nd, (int)*val); return RV32_MMIO_OK;
        case DEV_PARAM_NAME: return param_select(nd, *val);
        case DEV_STEP:
            nd->step = (int)*val;
            if (!s->step_c0) s->step_c0 = s->cycle ? s->cycle : 1;
            return RV32_MMIO_OK;
        case DEV_ROUTE_DST:
            if (*val >= (uint32_t)s->n) return RV32_MMIO_FAULT;
            nd->route_dst = *val;
            return RV32_MMIO_OK;
        case DEV_BARRIER:
            nd->bar_target = s->bar_gen + 1;
            if (++s->bar_count >= s->running) {
                s->bar_gen++;
                s->bar_cycle = s->cycle;
                s->bar_count = 0;
            }
            return RV32_MMIO_OK;
        default: return RV32_MMIO_FAULT;
        }
    }
    switch (off) {
    case DEV_ID: *val = (uint32_t)nd->id; return RV32_MMIO_OK;
    case DEV_NODES: *val = (uint32_t)s->n; return RV32_MMIO_OK;
    case DEV_CYCLE_LO: *val = (uint32_t)s->cycle; return RV32_MMIO_OK;
    case DEV_CYCLE_HI: *val = (uint32_t)(s->cycle >> 32); return RV32_MMIO_OK;
    case DEV_TOPO_KIND: *val = (uint32_t)t->kind; return RV32_MMIO_OK;
    case DEV_TOPO_W: *val = (uint32_t)t->w; return RV32_MMIO_OK;
    case DEV_TOPO_H: *val = (uint32_t)t->h; return RV32_MMIO_OK;
    case DEV_CONC: *val = (uint32_t)t->conc; return RV32_MMIO_OK;
    case DEV_PORTS: *val = (uint32_t)t->k; return RV32_MMIO_OK;
    case DEV_ROUTERS: *val = (uint32_t)t->nrouters; return RV32_MMIO_OK;
    case DEV_BARRIER:
        if (nd->bar_target > s->bar_gen) return RV32_MMIO_STALL;
        *val = (uint32_t)s->bar_gen;
        return RV32_MMIO_OK;
    case DEV_PLAN: *val = s->o.plan_addr; return RV32_MMIO_OK;
    case DEV_RAM_SIZE: *val = nd->core.ram_size; return RV32_MMIO_OK;
    case DEV_PARAM_VALUE: *val = nd->param_sel < 0 ? 0 : s->o.params[nd->param_sel].value; return RV32_MMIO_OK;
    case DEV_PARAM_FOUND: *val = nd->param_sel >= 0; return RV32_MMIO_OK;
    case DEV_NC_UNITS: *val = (uint32_t)nd->ni.units; return RV32_MMIO_OK;
    case DEV_NC_MAX: *val = (uint32_t)nd->ni.nc_max_bytes; return RV32_MMIO_OK;
    case DEV_NC_SMAX: *val = (uint32_t)nd->ni.nc_smax_bytes; return RV32_MMIO_OK;
    case DEV_BAR_CYCLE_LO: *val = (uint32_t)s->bar_cycle; return RV32_MMIO_OK;
    case DEV_BAR_CYCLE_HI: *val = (uint32_t)(s->bar_cycle >> 32); return RV32_MMIO_OK;
    case DEV_TOPO_NDIMS: *val = (uint32_t)t->ndims; return RV32_MMIO_OK;
    case DEV_TOPO_DIM0:
    case DEV_TOPO_DIM0 + 4:
    case DEV_TOPO_DIM0 + 8:
    case DEV_TOPO_DIM0 + 12:
    case DEV_TOPO_DIM0 + 16:
    case DEV_TOPO_DIM0 + 20: {
        /* sizes; dragonfly a, h, g; clos m, n, r */
        *val = (uint32_t)topo_param(t, (int)(off - DEV_TOPO_DIM0) / 4);
        return RV32_MMIO_OK;
    }
    case DEV_ROUTE_HOPS: /* routers on the deterministic route, both ends included */
        *val = (uint32_t)topo_distance(t, topo_term_router(t, nd->id), topo_term_router(t, (int)nd->route_dst)) + 1;
        return RV32_MMIO_OK;
    default:
        if (off >= DEV_ARG0 && off < DEV_ARG0 + 4 * NODE_NARGS) {
            *val = s->o.args[(off - DEV_ARG0) / 4];
            s->o.arg_read[(off - DEV_ARG0) / 4] = 1;
            return RV32_MMIO_OK;
        }
        return RV32_MMIO_FAULT;
    }
}

/* Whether a device read is progress for the spin watchdog (system/guard.c):
 * not a clock (the cycle counters change on every read), not a poll that
 * returns what the same register returned last time. */
static int read_progress(node *nd, uint32_t addr, uint32_t val)
{
    uint32_t off = addr - DEV_BASE;
    if (off == DEV_CYCLE_LO || off == DEV_CYCLE_HI) return 0;
    if (addr - NI_BASE < 0x1000) {
        uint32_t r = (addr - NI_BASE) & 0x3f; /* a send channel's go-cycle: a clock too */
        if ((addr - NI_BASE) < 0x400 && (r == NI_S_GO_CYCLE_LO || r == NI_S_GO_CYCLE_HI)) return 0;
    }
    unsigned i = (addr >> 2) & 7;
    int same = nd->poll_addr[i] == addr && nd->poll_val[i] == val;
    nd->poll_addr[i] = addr;
    nd->poll_val[i] = val;
    return !same;
}

static int node_mmio(void *ctx, uint32_t addr, int size, int is_store, uint32_t *val)
{
    node *nd = ctx;
    int r = RV32_MMIO_FAULT;
    if (size == 4 && addr - DEV_BASE < 0x1000) r = dev_mmio(nd, addr - DEV_BASE, is_store, val);
    else if (size == 4 && addr - NI_BASE < 0x1000) r = ni_mmio(&nd->ni, addr - NI_BASE, is_store, val);
    else if (size == 1 && is_store && addr == DEV_BASE + DEV_CONSOLE) r = dev_mmio(nd, DEV_CONSOLE, 1, val);
    if (r == RV32_MMIO_STALL) nd->stall_addr = addr;
    /* a store, a fault or a read that returns something new is an access the watchdog sees */
    nd->dev_accesses += is_store || r != RV32_MMIO_OK || read_progress(nd, addr, *val);
    return r;
}

sys *sys_create(const topo *t, const router_cfg *rc, const sys_opts *o, const char *elf, char *err, size_t errlen)
{
    uint32_t ram = o->ram_kib * 1024u;
    uint8_t *image = xcalloc(ram, 1);
    elf_info info;
    if (elf_load(elf, image, RAM_BASE, ram, &info, err, errlen)) {
        free(image);
        return NULL;
    }
    xnoc_net *net = net_open(t, rc, 1, err, errlen);
    if (!net) {
        free(image);
        elf_info_free(&info);
        return NULL;
    }
    hop_log *hops = NULL; /* before the trace: both swap the model for a variant of it */
    if (o->events) {
        char e[300];
        if (!(hops = hop_log_open(o->events, net, t, rc, e, sizeof e))) {
            snprintf(err, errlen, "--events: %s", e);
            net_close(net);
            free(image);
            elf_info_free(&info);
            return NULL;
        }
    }
    if (o->trace) {
        char e[300];
        if (net_trace(net, o->trace, o->trace_from, o->trace_to ? o->trace_to : UINT64_MAX, e, sizeof e)) {
            snprintf(err, errlen, "--trace: %s", e);
            hop_log_close(hops);
            net_close(net);
            free(image);
            elf_info_free(&info);
            return NULL;
        }
    }
    sys *s = xcalloc(1, sizeof *s);
    s->t = t;
    s->rc = *rc;
    s->net = net;
    s->hops = hops;
    s->o = *o;
    s->elf = info; /* its symbols name PCs in fault and stall lines */
    if (info.stack_bottom > RAM_BASE && info.stack_bottom - RAM_BASE < ram) s->stack_bottom = info.stack_bottom;
    if (!s->o.console_out) s->o.console_out = stdout;
    if (s->o.clock_ratio < 1) s->o.clock_ratio = 1;
    s->n = t->nterms;
    s->running = s->n;
    net_loop_init(&s->loop, net, t, rc->vcs, s->n * t->k);
    s->inj = s->loop.inj;
    s->ej = s->loop.ej;
    s->injc = s->loop.injc;
    s->ejc = s->loop.ejc;
    s->nodes = xcalloc((size_t)s->n, sizeof *s->nodes);
    for (int i = 0; i < s->n; i++) {
        node *nd = &s->nodes[i];
        nd->id = i;
        nd->sys = s;
        if (rv32_init(&nd->core, RAM_BASE, ram, (uint32_t)i)) {
            snprintf(err, errlen, "out of memory for %d nodes of %u KiB", s->n, o->ram_kib);
            sys_free(s);
            free(image);
            return NULL;
        }
        memcpy(nd->core.ram, image, ram);
        rv32_reset(&nd->core, info.entry);
        nd->core.tohost = info.tohost;
        nd->core.fromhost = info.fromhost;
        nd->core.mmio = node_mmio;
        nd->core.mmio_ctx = nd;
        ni_init(&nd->ni, t, rc, i, &nd->core);
        nd->ni.now = &s->cycle;
        nd->ni.events = o->events;
        nd->param_sel = -1;
        nd->step = -1;
        if (o->console_dir) {
            char path[4200];
            snprintf(path, sizeof path, "%s/node%d.txt", o->console_dir, i);
            nd->console = fopen(path, "w");
            if (!nd->console) {
                snprintf(err, errlen, "--console-dir: cannot create %s", path);
                sys_free(s);
                free(image);
                return NULL;
            }
        }
    }
    free(image);
    if (o->background) { /* those terminals run no image: background.c drives their NIs */
        for (int i = 0; i < s->n; i++)
            if (o->background[i]) {
                s->nodes[i].state = NODE_BACKGROUND;
                s->running--;
            }
        s->bg = background_create(s, o->background, o->bg_rate, o->bg_bytes ? o->bg_bytes : 1024, o->bg_seed);
    }
    return s;
}

int sys_close_outputs(sys *s, char *err, size_t errlen)
{
    hop_log_close(s->hops);
    s->hops = NULL;
    int bad = 0;
    for (int i = 0; i < s->n; i++) {
        node *nd = &s->nodes[i];
        if (!nd->console) continue;
        if (nd->linelen) console_flush(nd);
        int e = cli_out_finish(nd->console);
        nd->console = NULL;
        if (e && !bad++) snprintf(err, errlen, "--console-dir %s/node%d.txt: %s", s->o.console_dir, i, strerror(e));
    }
    return bad != 0;
}

void sys_free(sys *s)
{
    if (!s) return;
    elf_info_free(&s->elf);
    background_free(s->bg);
    hop_log_close(s->hops);
    for (int i = 0; i < s->n; i++) {
        node *nd = &s->nodes[i];
        if (nd->linelen) console_flush(nd);
        if (nd->console) fclose(nd->console);
        for (int l = 0; l < nd->con_n; l++) free(nd->con[l]);
        free(nd->con);
        ni_free(&nd->ni);
        rv32_free(&nd->core);
    }
    net_close(s->net);
    free(s->fault_full);
    free(s->nodes);
    net_loop_free(&s->loop);
    free(s);
}

void sys_describe(const sys *s, int i, char *buf, size_t len)
{
    const node *nd = &s->nodes[i];
    uint32_t pc = nd->core.pc, a = nd->stall_addr;
    char sym[200];
    elf_symbolize(&s->elf, pc, sym, sizeof sym);
    if (nd->state == NODE_EXITED) snprintf(buf, len, "node %d exited with %d", i, nd->exit_code);
    else if (nd->state == NODE_BACKGROUND) snprintf(buf, len, "node %d runs background traffic", i);
    else if (nd->last_stop == RV32_WFI && nd->ni.irq_en && (nd->core.mie >> IRQ_MEI & 1))
        snprintf(buf, len, "node %d is waiting for a packet (wfi) at PC 0x%08x%s", i, pc, sym);
    else if (nd->last_stop == RV32_WFI)
        snprintf(buf, len, "node %d is in wfi (waiting for an interrupt) at PC 0x%08x%s", i, pc, sym);
    else if (nd->last_stop == RV32_STALL && a == NI_BASE + NI_RECV + NI_R_WAIT)
        snprintf(buf, len, "node %d is waiting for a packet at PC 0x%08x%s", i, pc, sym);
    else if (nd->last_stop == RV32_STALL && a == NI_BASE + NI_MATCH + NI_M_CT_WAIT)
        snprintf(buf, len,
                 "node %d is waiting for posted receives (counter at 0x%08x is %u of %u; %d posted, not matched) at PC "
                 "0x%08x%s",
                 i, nd->ni.ct_addr, ni_ct_value(&nd->ni), nd->ni.ct_target, nd->ni.nposted, pc, sym);
    else if (nd->last_stop == RV32_STALL && (a == NI_BASE + NI_DEC + NI_D_WAIT || a == NI_BASE + NI_DEC + NI_D_GO))
        snprintf(buf, len, "node %d is waiting for its NI's decode engine (%u descriptors done) at PC 0x%08x%s", i,
                 nd->ni.dec.done, pc, sym);
    else if (nd->last_stop == RV32_STALL && a == DEV_BASE + DEV_BARRIER)
        snprintf(buf, len, "node %d is waiting at the barrier at PC 0x%08x%s", i, pc, sym);
    else if (nd->last_stop == RV32_STALL)
        snprintf(buf, len, "node %d is waiting for its send channel (0x%08x) at PC 0x%08x%s", i, a, pc, sym);
    else snprintf(buf, len, "node %d is running at PC 0x%08x%s", i, pc, sym);
    /* what the NI knows: messages it holds or the firmware has not read, beside the posted receives */
    char *held = sys_describe_ni(s, i);
    size_t l = strlen(buf);
    snprintf(buf + l, len - l, "%s", held);
    free(held);
}

/* the running nodes' states, grouped, after s->fault (system/diagnose.c) */
static void sys_describe_waiting(sys *s)
{
    char **what = xcalloc((size_t)s->n, sizeof *what);
    for (int i = 0; i < s->n; i++) {
        if (s->nodes[i].state == NODE_EXITED || s->nodes[i].state == NODE_BACKGROUND) continue;
        size_t cap = 1024;
        for (;;) { /* the whole description */
            what[i] = xrealloc(what[i], cap);
            what[i][cap - 2] = 0;
            sys_describe(s, i, what[i], cap);
            if (!what[i][cap - 2]) break;
            cap *= 2;
        }
    }
    sys_group_states(s, what);
}

int sys_undelivered(const sys *s, int i, char *buf, size_t len)
{
    enum { SHOWN = 4 };
    ni_msg_left m[SHOWN];
    buf[0] = 0;
    if (s->nodes[i].state == NODE_BACKGROUND) return 0;
    int n = ni_undelivered(&s->nodes[i].ni, m, SHOWN);
    if (!n) return 0;
    size_t l = (size_t)snprintf(buf, len, "node %d ends with %d undelivered message(s):", i, n);
    for (int j = 0; j < n && j < SHOWN && l < len; j++)
        l +=
            (size_t)snprintf(buf + l, len - l, "%s from %s %u (tag %u, %u bytes) %s", j ? ";" : "",
                             m[j].src < (uint32_t)s->n ? "terminal" : "unit", m[j].src, m[j].tag, m[j].len, m[j].where);
    if (n > SHOWN && l < len) snprintf(buf + l, len - l, "; and %d more", n - SHOWN);
    return n;
}

static void fault_line(sys *s, node *nd)
{
    rv32 *c = &nd->core;
    int access = c->fault_cause == CAUSE_LOAD_ACCESS || c->fault_cause == CAUSE_STORE_ACCESS;
    nd->state = NODE_FAULTED;
    char sym[200];
    elf_symbolize(&s->elf, c->fault_pc, sym, sizeof sym);
    if (access && c->fault_tval - DEV_BASE < 0x2000) {
        const char *why =
            nd->ni.refused[0] && c->fault_tval >= NI_BASE ? nd->ni.refused : "no such register, or the wrong access";
        snprintf(
            s->fault, sizeof s->fault,
            "node %d: %s at device register 0x%08x (PC 0x%08x%s, instruction 0x%08x, cycle %llu): %s, no trap handler",
            nd->id, rv32_cause_name(c->fault_cause), c->fault_tval, c->fault_pc, sym, c->fault_insn,
            (unsigned long long)s->cycle, why);
    } else if (c->fault_cause == CAUSE_ILLEGAL)
        snprintf(s->fault, sizeof s->fault,
                 "node %d: illegal instruction 0x%08x at PC 0x%08x%s (cycle %llu), no trap handler", nd->id,
                 c->fault_insn, c->fault_pc, sym, (unsigned long long)s->cycle);
    else if (c->fault_cause == CAUSE_LOAD_ACCESS || c->fault_cause == CAUSE_STORE_ACCESS ||
             c->fault_cause == CAUSE_FETCH_ACCESS)
        snprintf(s->fault, sizeof s->fault,
                 "node %d: %s at address 0x%08x (PC 0x%08x%s, instruction 0x%08x, cycle %llu): outside RAM and "
                 "devices, no trap handler",
                 nd->id, rv32_cause_name(c->fault_cause), c->fault_tval, c->fault_pc, sym, c->fault_insn,
                 (unsigned long long)s->cycle);
    else
        snprintf(
            s->fault, sizeof s->fault,
            "node %d: %s (cause %u, tval 0x%08x) at PC 0x%08x%s (instruction 0x%08x, cycle %llu) with no trap handler",
            nd->id, rv32_cause_name(c->fault_cause), c->fault_cause, c->fault_tval, c->fault_pc, sym, c->fault_insn,
            (unsigned long long)s->cycle);
}

/* Something that changes whenever a core makes progress: instructions;
 * with background traffic (whose links never rest) also the flits the
 * image's nodes send and receive.  Flits at the terminals are the shared
 * loop's evidence (net_loop.h: last_move). */
static uint64_t progress_sig(sys *s)
{
    uint64_t g = 0;
    for (int i = 0; i < s->n; i++) {
        const node *nd = &s->nodes[i];
        if (nd->state == NODE_BACKGROUND) continue;
        g += nd->core.instret * 0x9E3779B97F4A7C15ull;
        if (s->bg) g += nd->ni.flits_sent * 31 + nd->ni.flits_recv * 37;
    }
    return g;
}

/* The watchdog: every running node waits on a device register (or sleeps
 * in wfi), no coding unit holds a group (those time out on their own), no
 * core has made progress and no flit has moved (the shared loop's stall
 * rule) for o.watchdog cycles: nothing ever will.  Says what is stuck: a
 * message whose flits stopped arriving while the network is empty (lost),
 * flits held in a router (deadlock), or nodes waiting for what nobody
 * sends. */
static int watchdog(sys *s)
{
    uint64_t sig = progress_sig(s);
    if (sig != s->wd_sig) {
        s->wd_sig = sig;
        s->wd_since = s->cycle;
        return 0;
    }
    /* quiet: the cores made no progress and (without background traffic) no flit moved */
    uint64_t quiet = s->cycle - s->wd_since;
    if (!s->bg && net_loop_quiet(&s->loop, s->cycle) < quiet) quiet = net_loop_quiet(&s->loop, s->cycle);
    if (quiet < s->o.watchdog) return 0;
    for (int i = 0; i < s->n; i++) {
        const node *nd = &s->nodes[i];
        if (nd->state != NODE_EXITED && nd->state != NODE_BACKGROUND && nd->last_stop != RV32_STALL &&
            nd->last_stop != RV32_WFI)
            return 0;
    }
    const topo *t = s->t;
    if (net_has_units(s->net))
        for (int r = 0; r < t->nrouters; r++) {
            net_unit u;
            net_unit_stats(s->net, r, &u);
            if (u.slots_in_use) return 0;
        }
    if (s->bg) { /* the links carry background traffic: only the image's nodes can be judged */
        snprintf(s->fault, sizeof s->fault,
                 "stall at cycle %llu: every running node waits and none has sent or received a flit "
                 "for %llu cycles (background traffic runs on)",
                 (unsigned long long)s->cycle, (unsigned long long)quiet);
        sys_describe_waiting(s);
        return 1;
    }
    char line[400];
    int held = net_loop_stall_line(&s->loop, s->cycle, quiet, NULL, line, sizeof line);
    if (!held)
        for (int i = 0; i < s->n; i++) {
            const ni *n = &s->nodes[i].ni;
            for (int c = 0; c < n->k; c++)
                for (int v = 0; v < n->vcs; v++) {
                    const ni_asm *a = &n->rx[c][v];
                    if (!a->active) continue;
                    if (a->meta)
                        snprintf(s->fault, sizeof s->fault,
                                 "network interface of node %d: channel %d VC %d: the message from terminal %u (tag "
                                 "%u) stopped "
                                 "after %u of its %u bytes and the network is empty: its last flit(s) were lost (cycle "
                                 "%llu)",
                                 i, c, v, a->src, a->tag, a->got, a->len, (unsigned long long)s->cycle);
                    else
                        snprintf(s->fault, sizeof s->fault,
                                 "network interface of node %d: channel %d VC %d: a message stopped after its head and "
                                 "the network "
                                 "is empty: its other flits were lost (cycle %llu)",
                                 i, c, v, (unsigned long long)s->cycle);
                    return 1;
                }
        }
    if (held) snprintf(s->fault, sizeof s->fault, "%s; every node waits", line);
    else
        snprintf(s->fault, sizeof s->fault,
                 "stall at cycle %llu: every running node waits and nothing is in flight (for %llu cycles)",
                 (unsigned long long)s->cycle, (unsigned long long)quiet);
    sys_describe_waiting(s);
    return 1;
}

/* HTIF syscalls (htif.h): SYS_write prints on the node's console (both
 * fds), SYS_exit ends the node as DEV_EXIT does. */
static void htif_write(void *ctx, int fd, const uint8_t *buf, uint32_t len)
{
    (void)fd;
    for (uint32_t i = 0; i < len; i++) console_putc(ctx, (char)buf[i]);
}

static void htif_exit(void *ctx, int code)
{
    node *nd = ctx;
    node_exit(nd->sys, nd, code);
}

static int node_htif(sys *s, node *nd)
{
    htif_host h = {htif_write, htif_exit, nd};
    char why[300];
    nd->dev_accesses++;
    if (!htif_serve(&nd->core, &h, why, sizeof why)) return 0;
    nd->state = NODE_FAULTED;
    snprintf(s->fault, sizeof s->fault, "node %d at PC 0x%08x, cycle %llu: %s", nd->id, nd->core.pc - 4,
             (unsigned long long)s->cycle, why);
    return 1;
}

/* The system's part of a network cycle (net_loop_terminals): every core
 * runs its share, the background terminals, then every NI with the
 * channels; 1 on a fault (s->fault says it). */
static int sys_terminals(void *arg, net_loop *l, uint64_t now)
{
    sys *s = arg;
    int k = s->t->k, ratio = s->o.clock_ratio;
    (void)now;
    for (int i = 0; i < s->n; i++) {
        node *nd = &s->nodes[i];
        if (nd->state == NODE_EXITED || nd->state == NODE_BACKGROUND) continue;
        rv32 *c = &nd->core;
        uint64_t c0 = c->cycle;
        if (nd->last_stop == RV32_WFI && !rv32_wakeup(c)) {
            c->cycle = c0 + (uint64_t)ratio;
            continue;
        }
        nd->last_stop = rv32_run(c, (uint32_t)ratio);
        c->cycle = c0 + (uint64_t)ratio;
        if (s->stack_bottom && sys_stack_guard(s, nd)) return 1;
        if (nd->last_stop == RV32_FAULT) {
            fault_line(s, nd);
            return 1;
        }
        if (nd->last_stop == RV32_HTIF && node_htif(s, nd)) return 1;
        if (nd->last_stop == RV32_HALT) {
            s->halted = 1;
            s->tohost_value = c->tohost_value;
            s->tohost_node = i;
        }
    }
    if (s->bg) background_cycle(s->bg, s);
    for (int i = 0; i < s->n; i++) {
        ni *n = &s->nodes[i].ni;
        ni_cycle(n, &l->ej[i * k], &l->injc[i * k], &l->inj[i * k], &l->ejc[i * k]);
        if (n->error[0]) {
            snprintf(s->fault, sizeof s->fault, "network interface of node %d: %s (cycle %llu)", i, n->error,
                     (unsigned long long)s->cycle);
            return 1;
        }
    }
    return 0;
}

int sys_run(sys *s, uint64_t max_cycles)
{
    uint64_t run_c0 = s->cycle;
    double run_t0 = cli_now();
    while (s->running > 0 && !s->halted) {
        if (s->cycle >= max_cycles) {
            snprintf(s->fault, sizeof s->fault, "--max-cycles %llu reached with %d node(s) running",
                     (unsigned long long)max_cycles, s->running);
            sys_describe_waiting(s);
            return 2;
        }
        if (net_loop_cycle(&s->loop, s->cycle, sys_terminals, s)) return 1;
        s->cycle++;
        if (s->hops) hop_log_cycle(s->hops, s->inj, s->cycle);
        if (net_error(s->net)) { /* a router or coding unit flagged an invariant or a bad packet */
            char why[300];
            net_describe_error(s->net, why, sizeof why);
            snprintf(s->fault, sizeof s->fault, "cycle %llu: %s", (unsigned long long)s->cycle, why);
            return 1;
        }
        if (s->on_cycle && s->on_cycle(s, s->on_cycle_arg)) {
            snprintf(s->fault, sizeof s->fault, "interrupted at cycle %llu (view closed)",
                     (unsigned long long)s->cycle);
            return 3;
        }
        if ((s->cycle & 255) == 0) {
            if (s->o.watchdog && watchdog(s)) return 1;
            if (sys_spin_watchdog(s)) return 1;
            if (cli_interrupted) { /* Ctrl-C: stop here; the caller reports what ran */
                snprintf(s->fault, sizeof s->fault, "interrupted at cycle %llu (Ctrl-C)", (unsigned long long)s->cycle);
                return 3;
            }
        }
        if ((s->cycle & 0xfff) == 0) sys_progress(s, max_cycles, run_c0, run_t0);
    }
    return 0;
}
