/* run.c - `xnoc run`: the same firmware image on every node of the RTL
 * network, until every node has exited (or tohost is written). */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "system/background.h"
#include "util/cli.h"
#include "cmd/cmd_opts.h"
#include "cmd/cmds.h"
#include "cmd/config_file.h"
#include "net/links_report.h"
#include "util/report.h"
#include "system/system.h"
#include "system/sys_view.h"

#define RUN_CONSOLE_KEEP 32 /* console lines per node in the report (the last ones) */

static const char *usage_text =
    "usage: xnoc run --topo T [options] FIRMWARE.elf\n"
    "\n"
    "Runs the RISC-V image on one RV32IMAFDC core per terminal, cycle by cycle against\n"
    "the RTL network, until every node has exited.  Exit status 0 only if every\n"
    "node exited 0 (or a core wrote 1 to tohost).\n"
    "  --topo T            mesh:AxB..., torus:AxB... (1-6 dimensions), octagon, fat-octagon (suffix :c=N),\n"
    "                      dragonfly:a=A,p=P,h=H[,g=G], clos:m=M,n=N,r=R\n" ROUTER_CFG_HELP
    "  --ports k           NI channels per terminal (1)\n"
    "  --max-cycles N      stop (and fail) after N network cycles (10000000; at least 1)\n"
    "  --events F.jsonl    one JSON line per message sent (GO) and delivered, and per packet\n"
    "                      at every router hop (inject, hop, eject; docs/firmware.md)\n"
    "  --trace F.vcd       waveforms of the RTL network (--trace-window A:B: cycles [A,B))\n"
    "  --watchdog N        fail when every node waits and nothing moved for N cycles\n"
    "                      (5000; 0 = off): names lost flits, deadlocks, stalls\n"
    "  --fail-undelivered  fail (exit 1) when a node ends with messages its firmware never\n"
    "                      took (in its ring, not released, or held in its NI); without\n"
    "                      it such messages are a warning naming node, source, tag, length\n"
    "  --spin-watchdog N   fail when a core loops N cycles touching no device, no new RAM\n"
    "                      page and no NI while the others wait or have exited (50000; 0 = off)\n"
    "  --ram KiB           RAM per node at 0x80000000 (256)\n"
    "  --clock-ratio N     core cycles per network cycle (1)\n"
    "  --arg NAME=V        argument for the firmware: NAME 0..7 (numbered register)\n"
    "                      or a name such as a, b, bytes (read with node_param())\n"
    "  --console-dir DIR   each node's console to DIR/nodeN.txt\n"
    "  --background-nodes SET  these terminals run synthetic traffic instead of the image:\n"
    "                      --background RATE[:BYTES] flits per cycle each (0.1), messages of\n"
    "                      BYTES (1024) to random others of the set (docs/dragonfly.md)\n"
    "  --json              one JSON object on stdout (consoles go to stderr)\n"
    "  --config F          options from F, lines key = value (run's options without \"--\";\n"
    "                      arg on several lines); the command line's options override the file's\n"
    "Live view (links, buffers, node states; see docs/view.md):\n";

/* --arg I=V (numbered register I) or --arg NAME=V (named, looked up by the
 * firmware through DEV_PARAM_NAME); a repeated name keeps the last value. */
static void parse_arg(sys_opts *o, const char *s)
{
    const char *eq = strchr(s, '=');
    size_t nl = eq ? (size_t)(eq - s) : 0;
    if (!eq || !nl || nl >= NODE_PARAM_LEN)
        cli_fail(EXIT_USAGE, "--arg '%s': expected NAME=VALUE (NAME: 0..%d or up to %d letters, digits, _)", s,
                 NODE_NARGS - 1, NODE_PARAM_LEN - 1);
    for (size_t i = 0; i < nl; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            cli_fail(EXIT_USAGE, "--arg '%s': the name may hold only letters, digits and _", s);
    long v = 0; /* util/cli's strict parser: decimal or 0x hex, nothing else */
    if (cli_parse_long(eq + 1, INT32_MIN, UINT32_MAX, &v))
        cli_fail(EXIT_USAGE, "--arg '%s': the value is not a 32-bit integer", s);
    if (isdigit((unsigned char)s[0])) {
        if (nl != 1 || s[0] - '0' >= NODE_NARGS)
            cli_fail(EXIT_USAGE, "--arg '%s': numbered arguments are 0..%d; names start with a letter", s,
                     NODE_NARGS - 1);
        o->args[s[0] - '0'] = (uint32_t)v;
        o->arg_given[s[0] - '0'] = 1;
        return;
    }
    int slot = 0;
    while (slot < o->nparams && (strlen(o->params[slot].name) != nl || strncmp(o->params[slot].name, s, nl))) slot++;
    if (slot == NODE_NPARAMS) cli_fail(EXIT_USAGE, "--arg '%s': more than %d named arguments", s, NODE_NPARAMS);
    if (slot == o->nparams) o->nparams++;
    memcpy(o->params[slot].name, s, nl);
    o->params[slot].name[nl] = 0;
    o->params[slot].value = (uint32_t)v;
}

/* The command line of `xnoc run`. */
typedef struct {
    cmd_opts co;
    view_opts vo;
    sys_opts o;
    const char *elf, *events_path, *bg_set, *bg_spec;
    uint64_t max_cycles;
    int fail_undelivered;
} run_cli;

/* The options into c; 1 after --help. */
static int parse_args(int argc, char **argv, run_cli *c)
{
    sys_opts *o = &c->o;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            fputs(view_usage, stdout);
            return 1;
        } else if (!strcmp(a, "--fail-undelivered")) c->fail_undelivered = 1;
        else if (cmd_opts_arg(&c->co, argc, argv, &i)) continue;
        else if (view_cli_arg(&c->vo, argc, argv, &i)) continue;
        else if (a[0] != '-') {
            if (c->elf) cli_fail(EXIT_USAGE, "one firmware image only ('%s' and '%s')", c->elf, a);
            c->elf = a;
        } else if (!v) cmd_bad_option(a, usage_text);
        else if (!strcmp(a, "--max-cycles")) {
            c->max_cycles = cli_u64(a, argv[++i]);
            if (!c->max_cycles)
                cli_fail(EXIT_USAGE, "--max-cycles 0: the run would stop before it starts (at least 1)");
        } else if (!strcmp(a, "--watchdog")) o->watchdog = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--spin-watchdog")) {
            o->spin_watchdog = cli_u64(a, argv[++i]);
            if (!o->spin_watchdog) o->spin_watchdog = SYS_SPIN_OFF;
        } else if (!strcmp(a, "--trace")) o->trace = argv[++i];
        else if (!strcmp(a, "--events")) c->events_path = argv[++i];
        else if (!strcmp(a, "--trace-window")) cli_window(a, argv[++i], &o->trace_from, &o->trace_to);
        else if (!strcmp(a, "--ram")) o->ram_kib = (uint32_t)cli_long(a, argv[++i], 4, 65536);
        else if (!strcmp(a, "--clock-ratio")) o->clock_ratio = (int)cli_long(a, argv[++i], 1, 1024);
        else if (!strcmp(a, "--console-dir")) o->console_dir = argv[++i];
        else if (!strcmp(a, "--arg")) parse_arg(o, argv[++i]);
        else if (!strcmp(a, "--background-nodes")) c->bg_set = argv[++i];
        else if (!strcmp(a, "--background")) c->bg_spec = argv[++i];
        else cmd_bad_option(a, usage_text);
    }
    return 0;
}

/* --background-nodes SET [--background RATE[:BYTES]] into c->o; the set, or NULL */
static unsigned char *background_nodes(run_cli *c, const topo *t)
{
    char err[512];
    if (c->bg_spec && !c->bg_set) cli_fail(EXIT_USAGE, "--background needs --background-nodes SET");
    if (!c->bg_set) return NULL;
    unsigned char *bg = xcalloc((size_t)t->nterms, 1);
    int nb = cli_set(c->bg_set, t->nterms, bg, err, sizeof err);
    if (nb < 0) cli_fail(EXIT_USAGE, "--background-nodes: %s", err);
    if (nb < 2 || nb >= t->nterms)
        cli_fail(EXIT_USAGE, "--background-nodes: %d terminal(s); it takes 2 to %d (one must run the image)", nb,
                 t->nterms - 1);
    c->o.bg_rate = 0.1;
    c->o.bg_bytes = 1024;
    if (c->bg_spec && background_parse(c->bg_spec, 0, &c->o.bg_rate, &c->o.bg_bytes, err, sizeof err))
        cli_fail(EXIT_USAGE, "%s", err);
    c->o.background = bg;
    c->o.bg_seed = 1;
    return bg;
}

/* What the run ended with, beyond the system's own state. */
typedef struct {
    int r;            /* sys_run's result */
    int status;       /* this command's exit status */
    int *undelivered; /* [node] messages its firmware never took */
    char undel_first[600];
    char tohost_msg[200];
} run_end;

/* warnings (--arg never read, messages never taken), the consoles' last
 * lines, and the exit status into e */
static void finish(sys *s, const run_cli *c, run_end *e)
{
    int r = e->r;
    if (r == 0) { /* an --arg the firmware never looked at is most likely a typo */
        for (int i = 0; i < s->o.nparams; i++)
            if (!s->o.params[i].read) cli_error("warning: the firmware never read --arg %s", s->o.params[i].name);
        for (int i = 0; i < NODE_NARGS; i++)
            if (s->o.arg_given[i] && !s->o.arg_read[i]) cli_error("warning: the firmware never read --arg %d", i);
    }
    /* messages a node's firmware never took: after a run that ended normally a
     * warning, or with --fail-undelivered a failed run */
    e->undelivered = xcalloc((size_t)s->n, sizeof *e->undelivered);
    for (int i = 0; i < s->n; i++) {
        char line[600];
        if (!(e->undelivered[i] = sys_undelivered(s, i, line, sizeof line)) || r) continue;
        if (!e->undel_first[0]) snprintf(e->undel_first, sizeof e->undel_first, "%s", line);
        cli_error("%s%s", c->fail_undelivered ? "" : "warning: ", line);
    }
    e->status = c->fail_undelivered && e->undel_first[0];
    for (int i = 0; i < s->n; i++) {
        node *nd = &s->nodes[i];
        if (nd->linelen) {
            nd->line[nd->linelen] = 0;
            sys_console_keep(nd, nd->line);
            fprintf(c->o.console_out, "[node %d] %s\n", i, nd->line);
            nd->linelen = 0;
        }
        if (!s->halted && nd->state == NODE_EXITED && nd->exit_code) e->status = 1;
    }
    if (s->halted && s->tohost_value != 1) {
        snprintf(e->tohost_msg, sizeof e->tohost_msg, "tohost: test %u failed (node %d wrote %u)", s->tohost_value >> 1,
                 s->tohost_node, s->tohost_value);
        e->status = 1;
    }
    if (r) e->status = r == 3 && cli_interrupted ? cli_signal_status(cli_interrupted) : 1;
}

/* node i's entry in the report */
static json_t *node_json(const sys *s, int i, int undelivered)
{
    const node *nd = &s->nodes[i];
    json_t *e =
        json_pack("{s:i,s:I,s:I,s:I,s:I,s:I}", "node", i, "instructions", (json_int_t)nd->core.instret, "packets_sent",
                  (json_int_t)nd->ni.packets_sent, "packets_received", (json_int_t)nd->ni.packets_recv, "flits_sent",
                  (json_int_t)nd->ni.flits_sent, "ring_full_cycles", (json_int_t)nd->ni.full_cycles);
    /* network cycle the node exited in; null while it still runs */
    json_object_set_new(e, "cycles", nd->state == NODE_EXITED ? json_integer((json_int_t)nd->exit_cycle) : json_null());
    json_object_set_new(e, "exit_code", nd->state == NODE_EXITED ? json_integer(nd->exit_code) : json_null());
    json_object_set_new(e, "state",
                        json_string(nd->state == NODE_EXITED       ? "exited"
                                    : nd->state == NODE_BACKGROUND ? "background traffic"
                                    : nd->state == NODE_FAULTED    ? "faulted"
                                                                   : "still running"));
    /* packets this NI sent to coding units, and with MC = 1 (mask flits) */
    json_object_set_new(e, "unit_packets_sent", json_integer((json_int_t)nd->ni.coded_sent));
    json_object_set_new(e, "mc_packets_sent", json_integer((json_int_t)nd->ni.mc_sent));
    /* messages its firmware never took, if any (like "error": absent when there is none) */
    if (undelivered) json_object_set_new(e, "undelivered", json_integer(undelivered));
    /* what the firmware printed: its last RUN_CONSOLE_KEEP lines, and how many came before them */
    json_t *con = json_array();
    for (int l = 0; l < nd->con_n; l++)
        json_array_append_new(con, json_string(nd->con[(nd->con_first + l) % RUN_CONSOLE_KEEP]));
    json_object_set_new(e, "console", con);
    json_object_set_new(e, "console_dropped", json_integer(nd->con_dropped));
    return e;
}

/* One report: the JSON object; the text is written from it (util/report.h). */
static json_t *report(const topo *t, sys *s, const run_cli *c, const run_end *e)
{
    int k = t->k;
    uint64_t instr = 0, packets = 0, flits = 0;
    for (int i = 0; i < s->n; i++) {
        instr += s->nodes[i].core.instret;
        packets += s->nodes[i].ni.packets_sent;
        flits += s->nodes[i].ni.flits_sent;
    }
    json_t *j = json_object(), *codes = json_array(), *nodes = json_array();
    json_object_set_new(j, "topology", json_string(t->name));
    json_object_set_new(j, "firmware", json_string(c->elf));
    json_object_set_new(j, "cycles", json_integer((json_int_t)s->cycle));
    json_object_set_new(j, "instructions", json_integer((json_int_t)instr));
    for (int i = 0; i < s->n; i++) {
        node *nd = &s->nodes[i];
        json_array_append_new(codes, nd->state == NODE_EXITED ? json_integer(nd->exit_code) : json_null());
        json_array_append_new(nodes, node_json(s, i, e->undelivered[i]));
    }
    json_object_set_new(j, "exit_codes", codes);
    json_object_set_new(j, "nodes", nodes);
    json_object_set_new(j, "packets", json_integer((json_int_t)packets));
    json_object_set_new(j, "flits", json_integer((json_int_t)flits));
    if (s->halted) json_object_set_new(j, "tohost", json_integer(s->tohost_value));
    json_object_set_new(j, "ok", json_boolean(!e->status));
    json_object_set_new(j, "exit_status", json_integer(e->status)); /* this command's */
    if (s->fault[0]) json_object_set_new(j, "error", json_string(sys_error(s)));
    else if (e->tohost_msg[0]) json_object_set_new(j, "error", json_string(e->tohost_msg));
    else if (e->status && c->fail_undelivered && e->undel_first[0])
        json_object_set_new(j, "error", json_string(e->undel_first));
    uint64_t *inj = xcalloc((size_t)(s->n * k), sizeof *inj);
    for (int i = 0; i < s->n; i++)
        for (int ch = 0; ch < k; ch++) inj[i * k + ch] = s->nodes[i].ni.inj_flits[ch];
    json_object_set_new(j, "links", links_json(t, s->net, inj, s->cycle));
    free(inj);
    units_json(j, t, s->net);
    if (s->bg) {
        background_stats_t b;
        background_stats(s->bg, &b);
        json_object_set_new(j, "background",
                            json_pack("{s:i,s:f,s:i,s:I,s:I,s:I}", "nodes", b.nodes, "rate", c->o.bg_rate, "bytes",
                                      c->o.bg_bytes, "messages_sent", (json_int_t)b.sent, "messages_received",
                                      (json_int_t)b.received, "messages_waiting", (json_int_t)b.waiting));
    }
    return j;
}

/* The text report, rendered from the JSON report j. */
static void print_text(const json_t *j, const topo *t, const sys *s)
{
    report_printf(stdout, j,
                  "xnoc run: {firmware} on {topology}: {cycles} cycles, {instructions} instructions, {packets} "
                  "packets ({flits} flits)\n");
    const json_t *nodes = report_get(j, "nodes"); /* each node renders as a report of its own */
    for (int i = 0; i < s->n; i++) {
        const json_t *nd = json_array_get(nodes, (size_t)i);
        printf("  node %2d: ", i);
        report_printf(stdout, nd,
                      s->nodes[i].state == NODE_EXITED ? "exit {exit_code:%-4d} at cycle {cycles:%-10d}"
                                                       : "{state:%-24s}");
        report_printf(stdout, nd,
                      " {instructions:%10u} instructions  {packets_sent:%6u} packets out  {packets_received:%6u} "
                      "in\n");
    }
    if (s->halted) printf("  tohost = %u (%s)\n", s->tohost_value, s->tohost_value == 1 ? "pass" : "fail");
    if (s->bg)
        report_printf(stdout, j,
                      "  background: {background.nodes} terminals, {background.rate:%.3f} flits/cycle each in "
                      "{background.bytes}-byte messages: {background.messages_sent} sent, "
                      "{background.messages_received} received\n");
    links_text(stdout, j, 6);
    units_text(stdout, j, t->nterms);
}

int cmd_run(int argc, char **argv)
{
    cli_catch_sigint();
    run_cli c = {
        .o = {.ram_kib = 256, .clock_ratio = 1, .watchdog = SYS_WATCHDOG_DEFAULT, .console_keep = RUN_CONSOLE_KEEP},
        .max_cycles = 10000000};
    char err[512];
    cmd_opts_init(&c.co, OPT_NET);
    view_opts_default(&c.vo);
    {
        static const char *const repeat[] = {"arg", NULL};
        static const cfg_dialect own = {.repeat = repeat};
        char *all = xasprintf("%s%s", usage_text, view_usage); /* the keys a config file may set */
        argv = cmd_config_expand(&argc, argv, all, &own);
        free(all);
    }
    if (parse_args(argc, argv, &c)) return 0;
    sys_opts *o = &c.o;
    if (!c.co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc run --help)");
    if (o->trace_to && !o->trace) cli_fail(EXIT_USAGE, "--trace-window needs --trace F.vcd");
    if (c.events_path && !(o->events = fopen(c.events_path, "w")))
        cli_fail(EXIT_USAGE, "--events %s: %s", c.events_path, strerror(errno));
    if (!c.elf) cli_fail(EXIT_USAGE, "no firmware image given (xnoc run --topo T FIRMWARE.elf)");
    topo *t = cmd_opts_topo(&c.co);
    unsigned char *bg = background_nodes(&c, t);
    if (o->console_dir) mkdir(o->console_dir, 0777);
    o->console_out = c.co.json ? stderr : stdout;
    view *vw = NULL;
    sys_view *sv = NULL;
    char *caption = NULL;     /* the view's title */
    if (view_wanted(&c.vo)) { /* before the (slow) build: a bad frames directory fails at once */
        const char *base = strrchr(c.elf, '/');
        caption = xasprintf("run %s", base ? base + 1 : c.elf);
        c.vo.title = caption;
        if (!(vw = view_open(t, &c.vo, err, sizeof err))) cli_fail(EXIT_USAGE, "%s", err);
    }
    sys *s = sys_create(t, &c.co.rc, o, c.elf, err, sizeof err);
    if (!s) cli_fail(EXIT_USAGE, "%s", err);
    if (vw) sv = sys_view_attach(s, vw);
    run_end e = {.r = sys_run(s, c.max_cycles)};
    cli_progress_done();
    char verr[600] = ""; /* the last picture could not be written: the run fails, after its report */
    if (sv) {
        if (sys_view_finish(sv)) snprintf(verr, sizeof verr, "view: %s", view_error(vw));
        sys_view_free(sv);
        view_close(vw);
    }
    free(caption);
    finish(s, &c, &e);
    json_t *j = report(t, s, &c, &e);
    if (c.co.json) {
        json_dumpf(j, stdout, JSON_COMPACT);
        putchar('\n');
    } else print_text(j, t, s);
    json_decref(j);
    fflush(stdout);
    if (s->fault[0]) cli_error("%s", sys_error(s));
    else if (e.tohost_msg[0]) cli_error("%s", e.tohost_msg);
    else if (e.status) {
        for (int i = 0; i < s->n; i++)
            if (s->nodes[i].exit_code) {
                cli_error("node %d exited with %d", i, s->nodes[i].exit_code);
                break;
            }
    }
    int status = e.status;
    free(e.undelivered);
    char oerr[4400]; /* outputs lost to a write error (a full disk): the run failed */
    int obad = sys_close_outputs(s, oerr, sizeof oerr), ev = cli_out_finish(o->events);
    if (!status && verr[0]) cli_fail(EXIT_RUNFAIL, "%s", verr);
    if (!status && obad) cli_fail(EXIT_RUNFAIL, "%s", oerr);
    if (!status && ev) cli_fail(EXIT_RUNFAIL, "--events %s: %s", c.events_path, strerror(ev));
    sys_free(s);
    free(bg);
    topo_free(t);
    return status;
}
