/* collective.c - `xnoc collective`: a collective run by firmware on every
 * node of the RTL network, from a synthesized schedule or a textbook
 * algorithm, verified byte for byte and timed against the model
 *     t = tau * t_s + V * t_1        (the paper's eq. 12)
 * with tau the schedule's steps, V the bytes the busiest terminal injects
 * or absorbs, and t_s, t_1 measured on this network with a single transfer
 * of two sizes through the same firmware. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cli.h"
#include "cmd/cmd_opts.h"
#include "exec/coll_exec.h"
#include "exec/coll_steps.h"
#include "exec/coll_image.h"
#include "exec/coll_innet.h"
#include "exec/coll_mcast.h"
#include "cmd/cmds.h"
#include "cmd/config_file.h"
#include "cmd/metrics.h"
#include "coll/coll.h"
#include "coll/coll_metrics.h"
#include "coll/coll_plan.h"
#include "coll/dfmodel.h"
#include "coll/hnc.h"
#include "system/background.h"
#include "net/links_report.h"
#include "util/report.h"
#include "system/system.h"
#include "system/sys_view.h"
#include "sched/sched.h"
#include "sched/sched_file.h"

static const char *usage_text =
    "usage: xnoc collective --topo T --op OP [--from SET --to SET] --bytes B [options]\n"
    "\n"
    "Runs a collective in firmware on every node of the RTL network and verifies\n"
    "every received byte.\n"
    "  --op OP           barrier, bcast, scatter, gather, reduce, allgather, alltoall, mnb, mns;\n"
    "                    allreduce with --algo innet; scan, exscan (inclusive and exclusive prefix\n"
    "                    reduction, --algo rd on the cores)\n"
    "  --bytes B         message size in bytes (64; barrier: 0)\n"
    "  --algo A          sched (synthesized schedule, default), tree, ring, rd, all-at-once,\n"
    "                    qcdoc (allgather on a torus, all 2D directions at once with --ports 2D;\n"
    "                    docs/qcdoc.md), hnc (allgather with hierarchical network coding on a\n"
    "                    2-D mesh/torus; docs/network-coding.md), combine (the same with message\n"
    "                    combining instead of coding, the paper's Sect. 6.5), innet (reduce and\n"
    "                    allreduce combined in the routers' coding units along a tree:\n"
    "                    mesh, torus, octagon, dragonfly, clos; docs/collectives.md), multicast\n"
    "                    (bcast, allgather and mnb on a clos by hardware multicast through the spines\n"
    "                    the paper's routing control picks; docs/clos.md)\n"
    "  --steps S         multicast: how multicasts are grouped in steps: assignment (default, the\n"
    "                    paper's multicast assignment: no two of a step share a destination) or\n"
    "                    packed (a step takes multicasts until the routing control blocks)\n"
    "  --group-shape S   hnc: GWxGH nodes per group, or best (the shape xnoc ncmodel finds; default)\n"
    "  --multicast M     hnc: tree (default) or all-at-once, for every multicast of the scheme\n"
    "  --in-position P   hnc, combine: where each group's intermediate node sits: corner, median,\n"
    "                    boundary, best (xnoc ncmodel --help; default corner for tree, median\n"
    "                    for all-at-once)\n"
    "  --xor X           hnc: where the intermediate nodes XOR: unit (the router's coding unit,\n"
    "                    the default with ncu=1) or core (their firmware)\n"
    "  --decode D        hnc, combine: who runs the XORs left to the nodes (decoding, copies, the\n"
    "                    intermediate node's coding with --xor core): core (a firmware loop,\n"
    "                    default) or ni (each NI's decode engine, 2 + len/8 cycles per XOR;\n"
    "                    docs/ni.md)\n"
    "                    llf, glf, forest (bcast on a dragonfly, topology-aware; docs/dragonfly.md)\n"
    "  --alloc random:N[:SEED]  the job: N random terminals (seed 1), in random rank order; the\n"
    "                    first is the root of a bcast unless --from names one; --to is the job\n"
    "  --background RATE[:BYTES]  the terminals outside the collective send BYTES-byte messages\n"
    "                    (1024) to random others of them, RATE flits per cycle each (exponential\n"
    "                    inter-arrival), while it runs (0: none)\n"
    "  --schedule FILE   run this schedule file (xnoc sched -o FILE)\n"
    "  --no-shipped      search a schedule even where schedules/ ships a proven one\n"
    "  --sync M          global (a barrier starts every step, default) or data (data-driven)\n"
    "  --reduce-op OP    reduce operator (also --redop): sum, prod, max, min, and, or, xor (sum;\n"
    "                    32-bit words, sum wraps mod 2^32, min/max signed); --algo innet: sum,\n"
    "                    sum64 (64-bit lanes), min, max, minu, maxu (unsigned), and, or, xor\n"
    "  --ports k         NI channels per terminal (1)\n" ROUTER_CFG_HELP "  --seed N          data pattern seed (1)\n"
    "  --clock-ratio N   core cycles per network cycle (1)\n"
    "  --max-cycles N    give up after N network cycles (50000000)\n"
    "  --watchdog N      fail when every node waits and nothing moved for N cycles (5000; 0 = off)\n"
    "  --spin-watchdog N fail when a core loops N cycles touching no device, no new RAM page and\n"
    "                    no NI while the others wait or have exited (50000; 0 = off)\n"
    "  --trace F.vcd     waveforms of the RTL network during the collective's run\n"
    "                    (--trace-window A:B: cycles [A,B); start_cycle in --json says\n"
    "                    where the timed region begins)\n"
    "  --distribute D    hnc, combine: phase E, the intermediate node's distribution of the other\n"
    "                    groups' bundles: a binomial tree of unicasts (tree, default) or one\n"
    "                    multicast per part that the coding units fork (unit: xnoc traffic only, for now)\n"
    "  --measure M       makespan (default) or steps: also the paper's measure, the sum of each global\n"
    "                    step's worst packet latency from injection (source queueing excluded) to\n"
    "                    ejection, read from the packet events; the makespan stays in the report\n"
    "  --events F.jsonl  one JSON line per message sent and delivered, and per packet at every\n"
    "                    router hop (inject, hop, eject; from the RTL's link taps)\n"
    "  --ram KiB         RAM per node (default: what the plan and its buffers need, at least 256)\n"
    "  --conflicts N     the exact schedule search's budget in SAT conflicts per step\n"
    "                    count, --moves N its improving search's in tabu moves\n"
    "                    (defaults: see xnoc sched --help)\n"
    "  --time-limit S    safety net in seconds for the schedule search (1800); if it\n"
    "                    passes before the budgets run out: \"out of time\", exit 1\n"
    "  --json            one JSON object on stdout\n"
    "  --config F        options from F, lines key = value (collective's options without \"--\");\n"
    "                    the command line's options override the file's\n"
    "Live view (links, buffers, each node's state and step; see docs/view.md):\n";

/* The broadcast's own global and local link crossings: from the routers'
 * counters when nothing else runs (exact, whatever the routing), from its
 * routes under minimal routing with background traffic; unknown (0) with
 * background traffic and non-minimal routing, whose paths only the routers
 * know. */
static int df_link_packets(const coll_sched *s, const topo *t, const router_cfg *rc, const coll_outcome *o, int bytes,
                           int background, uint64_t *global, uint64_t *local)
{
    uint64_t pkt = 2 + ((uint64_t)bytes + 7) / 8;
    if (!background) {
        *global = o->global_flits / pkt;
        *local = (o->link_flits - o->global_flits) / pkt;
        return 1;
    }
    if (rc->routing != ROUTING_MIN) return 0;
    coll_schedule_df_links(s, t, global, local);
    return 1;
}

/* --alloc random:N[:SEED]: N distinct terminals in random order (seeded). */
static int *random_alloc(const char *spec, int nterms, int *n)
{
    long N = 0;
    uint64_t seed = 1;
    if (strncmp(spec, "random:", 7)) cli_fail(EXIT_USAGE, "--alloc '%s': expected random:N or random:N:SEED", spec);
    const char *ns = spec + 7, *colon = strchr(ns, ':');
    char *num = colon ? xasprintf("%.*s", (int)(colon - ns), ns) : xstrdup(ns);
    int rn = cli_parse_long(num, 2, nterms, &N),
        bad = rn == CLI_NOT_NUMBER || (colon && cli_parse_u64(colon + 1, &seed));
    free(num);
    if (bad) cli_fail(EXIT_USAGE, "--alloc '%s': expected random:N or random:N:SEED", spec);
    if (rn) cli_fail(EXIT_USAGE, "--alloc %s: N must be 2..%d (the terminals)", spec, nterms);
    int *perm = xmalloc((size_t)nterms * sizeof *perm);
    for (int i = 0; i < nterms; i++) perm[i] = i;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int i = 0; i < N; i++) { /* Fisher-Yates, the first N places */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int j = i + (int)(x % (uint64_t)(nterms - i)), tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    *n = (int)N;
    return perm;
}

/* The sets an allocation gives: a rooted op's root is --from (or the
 * allocation's first terminal), the job its other side; else both sides. */
static void alloc_sets(coll_op op, const int *order, int n, const char *from, char **fs, char **ts)
{
    size_t cap = (size_t)n * 6 + 16;
    char *job = xmalloc(cap), *root = xmalloc(16);
    size_t len = 0;
    for (int i = 0; i < n; i++) len += (size_t)snprintf(job + len, cap - len, i ? ",%d" : "%d", order[i]);
    snprintf(root, 16, "%d", order[0]);
    int rooted_from = op == OP_BCAST || op == OP_SCATTER, rooted_to = op == OP_GATHER || op == OP_REDUCE;
    *fs = rooted_from ? (from ? xstrdup(from) : xstrdup(root)) : from ? xstrdup(from) : xstrdup(job);
    *ts = rooted_to ? xstrdup(root) : xstrdup(job);
    if (rooted_to) { /* the root receives; the job sends */
        free(*fs);
        *fs = xstrdup(job);
    }
    free(job);
    free(root);
}

/* The text report, rendered from the JSON report (util/report.h). */
static void print_text(const json_t *j)
{
    FILE *f = stdout;
    int steps = (int)json_integer_value(report_get(j, "steps"));
    report_printf(f, j, "{algo} {op} on {topology}, {bytes} bytes, ");
    fprintf(f, "%s steps", !strcmp(json_string_value(report_get(j, "sync")), "global") ? "global" : "data-driven");
    report_printf(f, j, ", k={ports}: ");
    coll_image_verified_text(f, j);
    int rounds = json_integer_value(report_get(j, "message_rounds")) != steps;
    if (rounds) /* a step sends several messages on a channel: the bound counts rounds, not steps */
        report_printf(f, j,
                      "  {message_rounds} message rounds (the most messages one channel sends in a step, summed over "
                      "the steps;\n  the lower bound counts these)\n");
    double model = json_number_value(report_get(j, "model_cycles"));
    double cycles = json_number_value(report_get(j, "cycles"));
    report_printf(f, j,
                  rounds ? "  {cycles} cycles in {steps} steps (lower bound {lower_bound} message rounds);"
                         : "  {cycles} cycles in {steps} steps (lower bound {lower_bound});");
    report_printf(f, j,
                  " model tau*t_s + V*t_1 = {steps}*{t_s:%.1f} + {volume_bytes}*{t_1:%.3f} = {model_cycles:%.0f} "
                  "cycles ");
    fprintf(f,
            "(measured: %+.1f%%, %s the model)\n  cycles per step:", model > 0 ? 100.0 * (cycles - model) / model : 0.0,
            cycles >= model ? "above" : "below");
    const json_t *per = report_get(j, "cycles_per_step");
    for (size_t st = 0; st < json_array_size(per) && st < 20; st++)
        fprintf(f, " %lld", (long long)json_integer_value(json_array_get(per, st)));
    fputs(json_array_size(per) > 20 ? " ...\n" : "\n", f);
    if (report_get(j, "paper_step_latency"))
        report_printf(
            f, j,
            "  the paper's measure (--measure steps): the sum of each step's worst latency from "
            "injection, {paper_step_latency} cycles ({packets_timed} packets); the makespan stays {cycles}\n");
    report_printf(f, j, "  contention: {stalled_flit_cycles} stalled flit-cycles");
    if (report_get(j, "worst_stall")) report_printf(f, j, ", most at {worst_stall.channel}");
    const char *busiest = json_string_value(report_get(j, "busiest_channel"));
    fprintf(f, "\n  busiest channel: %s", busiest && *busiest ? busiest : "none");
    report_printf(f, j, ", {busiest_channel_flits} flits, ");
    fprintf(f, "%.1f%% of the cycles\n", 100 * json_number_value(report_get(j, "busiest_channel_utilization")));
    if (report_get(j, "combine_cycles"))
        report_printf(f, j,
                      "  combining on the cores: {combine_cycles} cycles (the most any node spent), network and step "
                      "overhead: {network_cycles}\n");
    if (json_is_integer(report_get(j, "hops")))
        report_printf(f, j,
                      "  {unicasts} unicasts, {hops} aggregate path hops, {link_flits} flits on router-to-router "
                      "links\n");
    else
        report_printf(f, j,
                      "  {unicasts} unicasts, aggregate path hops unknown (the link counters disagree: {link_flits} "
                      "flits on router-to-router links, the routes imply {link_flits_expected})\n");
    if (report_get(j, "makespan")) {
        if (json_is_integer(report_get(j, "global_link_packets")))
            report_printf(f, j,
                          "  dragonfly: makespan {makespan} cycles, {global_link_packets} packets on global links, "
                          "{local_link_packets} on local links, job of {groups_in_job} groups\n");
        else
            report_printf(f, j,
                          "  dragonfly: makespan {makespan} cycles (link crossings unknown: background traffic and "
                          "non-minimal routing), job of {groups_in_job} groups\n");
    }
    if (report_get(j, "background"))
        report_printf(f, j,
                      "  background: {background.nodes} terminals, {background.rate:%.3f} flits/cycle each in "
                      "{background.bytes}-byte messages: {background.messages_sent} sent, "
                      "{background.messages_received} received during the run\n");
    if (report_get(j, "group_shape")) {
        report_printf(f, j,
                      "  {algo}: groups {group_shape} ({num_groups} groups of {group_size} nodes), intermediate node "
                      "at ({intermediate_position.0},{intermediate_position.1}) of group 0 ({in_position}), "
                      "{multicast} multicasts, ");
        fputs(!strcmp(json_string_value(report_get(j, "algo")), "combine") ? "copies" : "XOR", f);
        fputs(" in the ", f);
        const char *xw = json_string_value(report_get(j, "xor"));
        fputs(!strcmp(xw, "unit") ? "routers' coding units"
              : !strcmp(xw, "ni") ? "intermediate nodes' NIs (decode engines)"
                                  : "intermediate nodes' cores",
              f);
        report_printf(f, j,
                      ";\n  model hops {model_hops}; cycles per phase (the paper's letters): B+F group broadcast "
                      "and data to counterparts {cycles_per_phase.B_F}, C coding {cycles_per_phase.C}, D bundles "
                      "between intermediate nodes {cycles_per_phase.D}, E bundles into the groups "
                      "{cycles_per_phase.E} (delivered at {delivery_cycles}), G decoding {cycles_per_phase.G};\n");
        report_printf(f, j,
                      !strcmp(json_string_value(report_get(j, "decode")), "ni")
                          ? "  XOR in the NIs' decode engines: {xor_core_cycles} cycles (the most any core waited)\n"
                          : "  XOR on cores {xor_core_cycles} cycles (the most any node spent)\n");
    }
}

/* The command line of `xnoc collective`. */
typedef struct {
    cmd_opts co;
    view_opts vo;
    const char *opname, *from, *to, *algo_s, *file;
    const char *steps_s; /* --algo multicast --steps */
    const char *shape_s, *mcast_s, *xor_s, *alloc_s, *inpos_s, *decode_s;
    const char *measure_s, *events_path; /* --measure; --events F.jsonl (read back by --measure steps) */
    const char *dist_s;                  /* --distribute unit|tree (hnc, combine: phase E) */
    int sync_given;                      /* --sync on the command line */
    const char *redop_s, *redop_opt;     /* --reduce-op (or its old name --redop) */
    int bytes, use_shipped;
    double exact_limit; /* 0: the defaults (sched.h) */
    long exact_conflicts, exact_moves;
    coll_exec_opts xo; /* how the run goes (exec/coll_exec.h) */
} coll_cli;

/* The schedule to run and where it came from. */
typedef struct {
    topo *t;
    coll_sched s;
    int algo;
    sched_result sr;
    char *source;            /* the schedule file run, if any */
    const char *source_kind; /* builtin, file, shipped, search */
    hnc_opts ho;
    hnc_info hi;
    int hnc_family;
} coll_job;

/* The options into c; 1 after --help. */
static int parse_args(int argc, char **argv, coll_cli *c)
{
    char err[512];
    coll_exec_opts *xo = &c->xo;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            fputs(view_usage, stdout);
            metrics_help(stdout, "collective"); /* the report's keys: xnoc sweep checks metrics against them */
            return 1;
        } else if (cmd_opts_arg(&c->co, argc, argv, &i)) continue;
        else if (!strcmp(a, "--no-shipped")) c->use_shipped = 0;
        else if (view_cli_arg(&c->vo, argc, argv, &i)) continue;
        else if (!v) cmd_bad_option(a, usage_text);
        else if (!strcmp(a, "--op")) c->opname = argv[++i];
        else if (!strcmp(a, "--from")) c->from = argv[++i];
        else if (!strcmp(a, "--to")) c->to = argv[++i];
        else if (!strcmp(a, "--bytes")) c->bytes = (int)cli_long(a, argv[++i], 0, 65536);
        else if (!strcmp(a, "--algo")) c->algo_s = argv[++i];
        else if (!strcmp(a, "--schedule")) c->file = argv[++i];
        else if (!strcmp(a, "--group-shape")) c->shape_s = argv[++i];
        else if (!strcmp(a, "--alloc")) c->alloc_s = argv[++i];
        else if (!strcmp(a, "--background")) {
            if (background_parse(argv[++i], 1, &xo->bg_rate, &xo->bg_bytes, err, sizeof err))
                cli_fail(EXIT_USAGE, "%s", err);
        } else if (!strcmp(a, "--multicast")) c->mcast_s = argv[++i];
        else if (!strcmp(a, "--steps")) c->steps_s = argv[++i];
        else if (!strcmp(a, "--in-position")) c->inpos_s = argv[++i];
        else if (!strcmp(a, "--xor")) c->xor_s = argv[++i];
        else if (!strcmp(a, "--decode")) c->decode_s = argv[++i];
        else if (!strcmp(a, "--measure")) c->measure_s = argv[++i];
        else if (!strcmp(a, "--distribute")) c->dist_s = argv[++i];
        else if (!strcmp(a, "--sync")) {
            const char *m = argv[++i];
            c->sync_given = 1;
            if (!strcmp(m, "global")) xo->sync = SYNC_GLOBAL;
            else if (!strcmp(m, "data")) xo->sync = SYNC_DATA;
            else cli_fail(EXIT_USAGE, "--sync: '%s' is neither global nor data", m);
        } else if (!strcmp(a, "--redop") || !strcmp(a, "--reduce-op")) {
            c->redop_opt = a;
            c->redop_s = argv[++i];
        } else if (!strcmp(a, "--max-cycles")) xo->max_cycles = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--trace")) xo->trace_path = argv[++i];
        else if (!strcmp(a, "--events")) {
            c->events_path = argv[i + 1];
            if (xo->events) fclose(xo->events); /* the last --events wins */
            if (!(xo->events = fopen(argv[++i], "w")))
                cli_fail(EXIT_USAGE, "--events %s: %s", argv[i], strerror(errno));
        } else if (!strcmp(a, "--trace-window")) cli_window(a, argv[++i], &xo->trace_from, &xo->trace_to);
        else if (!strcmp(a, "--watchdog")) {
            xo->watchdog = cli_u64(a, argv[++i]);
            if (!xo->watchdog) xo->watchdog = UINT64_MAX; /* 0 = off, as for run */
        } else if (!strcmp(a, "--spin-watchdog")) {
            xo->spin_watchdog = cli_u64(a, argv[++i]);
            if (!xo->spin_watchdog) xo->spin_watchdog = SYS_SPIN_OFF;
        } else if (!strcmp(a, "--ram")) xo->ram_kib = (uint32_t)cli_long(a, argv[++i], 64, 1024 * 1024);
        else if (!strcmp(a, "--clock-ratio")) xo->clock_ratio = (int)cli_long(a, argv[++i], 1, 1024);
        else if (!strcmp(a, "--time-limit")) c->exact_limit = cli_double(a, argv[++i], 0.01, 86400);
        else if (!strcmp(a, "--conflicts")) c->exact_conflicts = cli_long(a, argv[++i], 1, 1000000000000L);
        else if (!strcmp(a, "--moves")) {
            c->exact_moves = cli_long(a, argv[++i], 0, 1000000000000L);
            if (!c->exact_moves) c->exact_moves = -1; /* none (0 in sched_opts is the default) */
        } else cmd_bad_option(a, usage_text);
    }
    return 0;
}

/* --algo and the options of the hnc family into j */
static void check_algo(const coll_cli *c, coll_job *j)
{
    j->algo = coll_algo_parse(c->algo_s);
    if (j->algo < 0)
        cli_fail(EXIT_USAGE,
                 "--algo: unknown algorithm '%s' (sched, tree, ring, rd, all-at-once, qcdoc, hnc, llf, glf, forest, "
                 "combine, innet, multicast)",
                 c->algo_s);
    hnc_opts *ho = &j->ho;
    ho->xor_unit = c->co.rc.ncu;
    ho->chunk = 8 * c->co.rc.ncmax;
    j->hnc_family = j->algo == ALGO_HNC || j->algo == ALGO_COMBINE;
    if (c->decode_s && !j->hnc_family)
        cli_fail(EXIT_USAGE, "--decode is an option of --algo hnc and combine (their XORs), not --algo %s", c->algo_s);
    if (c->decode_s && strcmp(c->decode_s, "core") && strcmp(c->decode_s, "ni"))
        cli_fail(EXIT_USAGE, "--decode '%s': core (the nodes' firmware) or ni (the NIs' decode engines)", c->decode_s);
    if (!j->hnc_family && (c->shape_s || c->mcast_s || c->xor_s || c->inpos_s))
        cli_fail(EXIT_USAGE,
                 "--group-shape, --multicast, --in-position and --xor are options of --algo hnc (and combine)");
    if (j->algo == ALGO_COMBINE && c->xor_s)
        cli_fail(EXIT_USAGE, "--xor: --algo combine copies on the intermediate nodes' cores, it does not code");
    if (j->algo == ALGO_COMBINE) ho->combine = 1, ho->xor_unit = 0;
    if (c->inpos_s) {
        int p = ncm_in_position_parse(c->inpos_s);
        if (p < 0) cli_fail(EXIT_USAGE, "--in-position '%s': corner, median, boundary or best", c->inpos_s);
        ho->in_pos = (ncm_in_position)p;
    }
    if (c->shape_s && strcmp(c->shape_s, "best")) {
        long gw, gh;
        cli_pair("--group-shape", c->shape_s, 'x', 1, 65536, "GWxGH such as 4x2, or best", &gw, &gh);
        ho->gw = (int)gw;
        ho->gh = (int)gh;
    }
    if (c->mcast_s && strcmp(c->mcast_s, "tree") && !(ho->all_at_once = !strcmp(c->mcast_s, "all-at-once")))
        cli_fail(EXIT_USAGE, "--multicast '%s': tree or all-at-once", c->mcast_s);
    if (c->xor_s) {
        if (!strcmp(c->xor_s, "unit")) ho->xor_unit = 1;
        else if (!strcmp(c->xor_s, "core")) ho->xor_unit = 0;
        else
            cli_fail(EXIT_USAGE,
                     "--xor '%s': unit (the routers' coding units) or core (the intermediate nodes' firmware)",
                     c->xor_s);
        if (ho->xor_unit && !c->co.rc.ncu)
            cli_fail(EXIT_USAGE, "--xor unit: the routers have no coding units (--router ncu=0); use --xor core");
    }
    if (c->dist_s && !j->hnc_family)
        cli_fail(EXIT_USAGE, "--distribute is an option of --algo hnc and combine (their phase E), not --algo %s",
                 c->algo_s);
    if (c->dist_s && strcmp(c->dist_s, "unit") && strcmp(c->dist_s, "tree"))
        cli_fail(EXIT_USAGE, "--distribute '%s': unit or tree", c->dist_s);
    if (c->dist_s && !strcmp(c->dist_s, "unit")) /* the network-only engine has it: xnoc traffic --distribute unit */
        cli_fail(EXIT_USAGE,
                 "--distribute unit: not in the firmware yet; xnoc traffic --pattern allgather:%s "
                 "--distribute unit runs it on the network alone",
                 c->algo_s);
}

/* --schedule FILE: the topology and schedule it holds, checked against the options */
static void job_from_file(const coll_cli *c, coll_job *j)
{
    char err[512];
    const char *file = c->file;
    j->source_kind = "file";
    j->source = xstrdup(file);
    int r = sched_file_read(file, &j->t, &j->s, err, sizeof err);
    if (r == 0 && sched_verify(&j->s, j->t, err, sizeof err)) r = -1;
    if (r) cli_fail(EXIT_USAGE, "--schedule %s: %s", file, err);
    /* the file says what it is; options that say otherwise are a mistake, not a wish */
    if (c->co.topo) {
        topo *want = topo_parse(c->co.topo, c->co.ports, err, sizeof err);
        if (!want) cli_fail(EXIT_USAGE, "%s", err);
        if (strcmp(want->name, j->t->name) || want->k != j->t->k)
            cli_fail(EXIT_USAGE, "--schedule %s is for %s (k=%d), not --topo %s (k=%d)", file, j->t->name, j->t->k,
                     want->name, want->k);
        topo_free(want);
    }
    if (c->opname && coll_op_parse(c->opname) != (int)j->s.op)
        cli_fail(EXIT_USAGE, "--schedule %s is a %s, not --op %s", file, coll_op_name(j->s.op), c->opname);
    if (c->from || c->to) cli_fail(EXIT_USAGE, "--schedule %s: the sets come from the file (drop --from/--to)", file);
    sched_bound b;
    sched_lower_bound(&j->s, j->t, &b);
    j->sr.lower_bound = b.value;
    j->sr.steps = j->s.nsteps;
    j->algo = ALGO_SCHED;
}

/* The topology and the collective's sets (--from/--to or --alloc) into j->t, j->s. */
static void job_sets(const coll_cli *c, coll_job *j)
{
    char err[512];
    const char *from = c->from, *to = c->to;
    if (!c->co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc collective --help)");
    if (!c->opname)
        cli_fail(EXIT_USAGE,
                 "--op is required (barrier, bcast, scatter, gather, reduce, allgather, alltoall, mnb, mns)");
    int op = coll_op_parse(c->opname);
    if (op < 0)
        cli_fail(EXIT_USAGE,
                 "--op: unknown collective '%s' (barrier, bcast, scatter, gather, reduce, allgather, alltoall, "
                 "mnb, mns)",
                 c->opname);
    j->t = topo_parse(c->co.topo, c->co.ports, err, sizeof err);
    if (!j->t) cli_fail(EXIT_USAGE, "%s", err);
    int *order = NULL, norder = 0;
    char *alloc_from = NULL, *alloc_to = NULL;
    if (c->alloc_s) {
        if (to) cli_fail(EXIT_USAGE, "--alloc gives the job: drop --to");
        order = random_alloc(c->alloc_s, j->t->nterms, &norder);
        alloc_sets((coll_op)op, order, norder, from, &alloc_from, &alloc_to);
        from = alloc_from;
        to = alloc_to;
    }
    if (coll_init(&j->s, j->t, (coll_op)op, from, to, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
    j->s.rank_order = order;
    j->s.nranks = norder;
    if (order && j->s.root >= 0 && !j->s.to[j->s.root] && !j->s.from[j->s.root])
        cli_fail(EXIT_USAGE, "--alloc: the root %d is not in the job", j->s.root);
    free(alloc_from);
    free(alloc_to);
}

/* --algo sched: a proven schedule the repository ships, else a search */
static void job_sched(const coll_cli *c, coll_job *j)
{
    char err[512];
    int shipped = 0;
    if (c->use_shipped) { /* a proven schedule in the repository comes first */
        coll_sched f;
        int opt;
        shipped = sched_file_shipped(j->t, &j->s, &f, &opt, &j->source, err, sizeof err);
        if (shipped < 0) cli_error("%s (searching instead)", err);
        if (shipped == 1) {
            coll_free(&j->s);
            j->s = f;
            j->sr.optimal = opt;
            j->source_kind = "shipped";
            return;
        }
        free(j->source);
        j->source = NULL;
    }
    j->source_kind = "search";
    sched_opts so = {.exact = 1,
                     .moves = c->exact_moves,
                     .conflicts = c->exact_conflicts,
                     .time_limit = c->exact_limit,
                     .seed = 1,
                     .progress = !c->co.json && cli_progress_enabled()};
    if (sched_run(&j->s, j->t, &so, &j->sr) < 0)
        cli_fail(EXIT_RUNFAIL, "no schedule found for %s on %s", c->opname, j->t->name);
    if (!strcmp(j->sr.ended, "time")) /* its schedule would depend on the machine's speed */
        cli_fail(EXIT_RUNFAIL,
                 "out of time: the schedule search's --time-limit %g s passed before its budgets (--moves, "
                 "--conflicts) ran out, so its schedule would depend on the machine's speed: raise "
                 "--time-limit or lower the budgets",
                 j->sr.time_limit);
}

/* The schedule: a file, a proven or searched one, hnc, or a textbook algorithm. */
static void build_job(const coll_cli *c, coll_job *j)
{
    char err[512];
    j->source_kind = "builtin";
    if (c->file) {
        job_from_file(c, j);
        return;
    }
    job_sets(c, j);
    sched_bound b;
    sched_lower_bound(&j->s, j->t, &b);
    j->sr.lower_bound = b.value;
    if (j->algo == ALGO_SCHED) job_sched(c, j);
    else if (j->hnc_family) {
        j->ho.bytes = c->bytes < 0 ? 64 : c->bytes;
        if (hnc_build(&j->s, j->t, &j->ho, &j->hi, err, sizeof err))
            cli_fail(EXIT_USAGE, "--algo %s: %s", c->algo_s, err);
    } else if (coll_builtin(&j->s, j->t, (coll_algo)j->algo, err, sizeof err))
        cli_fail(EXIT_USAGE, "--algo %s: %s", c->algo_s, err);
    j->sr.steps = j->s.nsteps;
}

/* the dragonfly paper's metrics: link crossings by kind, the model's and the bounds' */
static void report_dragonfly(json_t *r, const coll_job *j, const router_cfg *rc, const coll_outcome *o, int bytes,
                             int background, int unicasts)
{
    const topo *t = j->t;
    const coll_sched *s = &j->s;
    uint64_t pkt = 2 + ((uint64_t)bytes + 7) / 8, gl, ll;
    int known = df_link_packets(s, t, rc, o, bytes, background, &gl, &ll);
    json_object_set_new(r, "makespan", json_integer((json_int_t)o->cycles));
    json_object_set_new(r, "global_link_packets", known ? json_integer((json_int_t)gl) : json_null());
    json_object_set_new(r, "local_link_packets", known ? json_integer((json_int_t)ll) : json_null());
    /* minimal routing: the routers' counters carry exactly the routes' crossings (without background) */
    if (rc->routing == ROUTING_MIN) {
        uint64_t rg, rl;
        coll_schedule_df_links(s, t, &rg, &rl);
        json_object_set_new(r, "link_counters_agree",
                            json_boolean(o->global_flits == rg * pkt && o->link_flits - o->global_flits == rl * pkt));
    }
    json_object_set_new(r, "avg_hops", known && unicasts ? json_real((double)(gl + ll) / unicasts) : json_null());
    int gj = coll_groups_in_job(s, t), members = 0;
    for (int v = 0; v < s->nterms; v++) members += s->from[v] || s->to[v];
    dfm_probs dp;
    dfm_eval(t, &dp);
    json_object_set_new(r, "groups_in_job", json_integer(gj));
    json_object_set_new(r, "job_terminals", json_integer(members));
    /* the paper's formulas (xnoc dfmodel): TREE's expectation over random jobs of this
     * size, the topology-aware algorithms' bounds for the groups this job spans */
    json_object_set_new(r, "model_tree_global_links", json_real(dfm_tree_global(&dp, members)));
    json_object_set_new(r, "model_tree_local_links", json_real(dfm_tree_local(&dp, members)));
    json_object_set_new(r, "bound_global_links", json_integer(dfm_bound_global(gj)));
    json_object_set_new(r, "bound_local_links", json_integer(dfm_bound_local(gj, t->df_a)));
}

/* hnc and combine: the groups, the intermediate nodes, the cycles per phase */
static void report_hnc(json_t *r, const coll_job *j, const coll_outcome *o, int ni_decode)
{
    const hnc_opts *ho = &j->ho;
    const hnc_info *hi = &j->hi;
    uint64_t phase_cycles[HNC_PHASES] = {0};
    for (int p = 0; p < HNC_PHASES; p++)
        for (int st = hi->first_step[p]; st < hi->first_step[p + 1] && st < j->s.nsteps; st++)
            phase_cycles[p] += o->step_cycles[st];
    json_object_set_new(r, "group_shape", json_sprintf("%dx%d", hi->gw, hi->gh));
    json_object_set_new(r, "in_position",
                        json_string(ncm_in_position_name(ho->in_pos        ? ho->in_pos
                                                         : ho->all_at_once ? NCM_IN_MEDIAN
                                                                           : NCM_IN_CORNER)));
    json_object_set_new(r, "group_size", json_integer(hi->group_size));
    json_object_set_new(r, "num_groups", json_integer(hi->groups));
    json_object_set_new(r, "intermediate_position", json_pack("[i,i]", hi->in_x, hi->in_y));
    json_object_set_new(r, "multicast", json_string(ho->all_at_once ? "all-at-once" : "tree"));
    json_object_set_new(r, "xor", json_string(ho->xor_unit ? "unit" : ni_decode ? "ni" : "core"));
    json_object_set_new(r, "distribute", json_string(ho->unit_mcast ? "unit" : "tree"));
    json_object_set_new(r, "model_hops", json_integer((json_int_t)hi->model_hops));
    json_object_set_new(r, "decode", json_string(ni_decode ? "ni" : "core"));
    json_object_set_new(r, "xor_core_cycles", json_integer((json_int_t)o->combine_cycles));
    json_object_set_new(r, "cycles_per_phase",
                        json_pack("{s:I,s:I,s:I,s:I,s:I}", "B_F", (json_int_t)phase_cycles[HNC_B], "C",
                                  (json_int_t)phase_cycles[HNC_C], "D", (json_int_t)phase_cycles[HNC_D], "E",
                                  (json_int_t)phase_cycles[HNC_E], "G", (json_int_t)phase_cycles[HNC_G]));
    /* up to the last coded message's arrival: what the network (and the NIs) decide */
    json_object_set_new(r, "delivery_cycles", json_integer((json_int_t)(o->cycles - phase_cycles[HNC_G])));
}

/* the run's identity, timing, the schedule's source and the model */
static void report_head(json_t *r, const coll_job *j, const coll_exec_opts *xo, const coll_outcome *o, double ts,
                        double t1)
{
    const coll_sched *s = &j->s;
    int nsteps = s->nsteps, bytes = xo->bytes;
    json_object_set_new(r, "topology", json_string(j->t->name));
    json_object_set_new(r, "op", json_string(coll_op_name(s->op)));
    json_object_set_new(r, "algo", json_string(coll_algo_name((coll_algo)j->algo)));
    json_object_set_new(r, "sync", json_string(xo->sync == SYNC_GLOBAL ? "global" : "data"));
    json_object_set_new(r, "bytes", json_integer(bytes));
    json_object_set_new(r, "ports", json_integer(j->t->k));
    json_object_set_new(r, "nodes", json_integer(j->t->nterms));
    json_object_set_new(r, "verified", json_boolean(o->verified));
    json_object_set_new(r, "cycles", json_integer((json_int_t)o->cycles));
    json_object_set_new(r, "start_cycle", json_integer((json_int_t)o->start_cycle));
    json_object_set_new(r, "steps", json_integer(nsteps));
    json_object_set_new(r, "lower_bound", json_integer(j->sr.lower_bound));
    json_object_set_new(r, "message_rounds", json_integer(coll_message_rounds(s, j->t)));
    json_object_set_new(r, "schedule_source", json_string(j->source_kind));
    if (j->sr.ended) json_object_set_new(r, "search_ended", json_string(j->sr.ended)); /* proof or budget */
    if (j->source) {
        size_t l = strlen(cli_src_dir()); /* shipped: relative to the repository */
        const char *rel = !strncmp(j->source, cli_src_dir(), l) && j->source[l] == '/' ? j->source + l + 1 : j->source;
        json_object_set_new(r, "schedule_file", json_string(rel));
    }
    json_object_set_new(r, "optimal",
                        j->algo != ALGO_SCHED ? json_null()
                        : j->sr.optimal == 1  ? json_true()
                                              : json_null());
    json_t *per = json_array();
    for (int st = 0; st < nsteps; st++) json_array_append_new(per, json_integer((json_int_t)o->step_cycles[st]));
    json_object_set_new(r, "cycles_per_step", per);
    uint64_t volume = coll_busiest_volume(s, bytes);
    json_object_set_new(r, "t_s", json_real(ts));
    json_object_set_new(r, "t_1", json_real(t1));
    json_object_set_new(r, "volume_bytes", json_integer((json_int_t)volume));
    json_object_set_new(r, "model_cycles", json_real(nsteps * ts + (double)volume * t1));
}

/* One report: the JSON object; the text is written from it (util/report.h). */
static json_t *report(const coll_job *j, const router_cfg *rc, const coll_exec_opts *xo, coll_outcome *o, double ts,
                      double t1, json_t *links)
{
    const coll_sched *s = &j->s;
    int bytes = xo->bytes;
    double util = o->cycles ? (double)o->busiest_flits / (double)o->cycles : 0;
    if (o->combine_cycles > o->cycles) o->combine_cycles = o->cycles;
    uint64_t hops, hops_flits;
    int unicasts;
    coll_schedule_hops(s, j->t, bytes, &hops, &hops_flits, &unicasts);
    json_t *r = json_object();
    report_head(r, j, xo, o, ts, t1);
    json_object_set_new(r, "stalled_flit_cycles", json_integer((json_int_t)o->stalls));
    if (o->worst_stalls)
        json_object_set_new(r, "worst_stall",
                            json_pack("{s:s,s:I}", "channel", o->worst, "cycles", (json_int_t)o->worst_stalls));
    json_object_set_new(r, "flits", json_integer((json_int_t)o->flits));
    json_object_set_new(r, "busiest_channel", json_string(o->busiest));
    json_object_set_new(r, "busiest_channel_flits", json_integer((json_int_t)o->busiest_flits));
    /* the schedule's aggregate unicast path hops (the network-coding paper's count, xnoc
     * ncmodel), given when the routers' link counters carry exactly the flits they imply */
    json_object_set_new(r, "link_flits", json_integer((json_int_t)o->link_flits));
    json_object_set_new(r, "link_flits_expected", json_integer((json_int_t)hops_flits));
    json_object_set_new(r, "unicasts", json_integer(unicasts));
    json_object_set_new(r, "hops", hops_flits == o->link_flits ? json_integer((json_int_t)hops) : json_null());
    if (j->t->kind == TOPO_DRAGONFLY) report_dragonfly(r, j, rc, o, bytes, xo->bg_mask != NULL, unicasts);
    if (j->hnc_family) report_hnc(r, j, o, xo->ni_decode);
    json_object_set_new(r, "busiest_channel_utilization", json_real(util));
    if (s->op == OP_REDUCE) {
        json_object_set_new(r, "combine_cycles", json_integer((json_int_t)o->combine_cycles));
        json_object_set_new(r, "network_cycles", json_integer((json_int_t)(o->cycles - o->combine_cycles)));
    }
    json_object_set_new(r, "ram_kib", json_integer(o->ram_kib));
    if (xo->bg_mask)
        json_object_set_new(r, "background",
                            json_pack("{s:i,s:f,s:i,s:I,s:I,s:I}", "nodes", o->bg.nodes, "rate", xo->bg_rate, "bytes",
                                      xo->bg_bytes, "messages_sent", (json_int_t)o->bg.sent, "messages_received",
                                      (json_int_t)o->bg.received, "messages_waiting", (json_int_t)o->bg.waiting));
    if (o->error[0]) json_object_set_new(r, "error", json_string(o->error));
    if (links) json_object_set_new(r, "links", links);
    return r;
}

/* --background: the terminals outside the collective, or exit 2 if fewer than two */
static unsigned char *background_mask(const coll_sched *s)
{
    unsigned char *bg_mask = xcalloc((size_t)s->nterms, 1);
    int nbg = 0;
    for (int v = 0; v < s->nterms; v++) nbg += bg_mask[v] = !s->from[v] && !s->to[v] && v != s->root;
    if (nbg < 2)
        cli_fail(EXIT_USAGE, "--background: %d terminal(s) outside the collective; it needs at least two", nbg);
    return bg_mask;
}

/* --algo innet (reduce, allreduce in the routers' units) or --op scan: run by
 * exec/coll_innet.c, which checks the other options first. */
static int innet_or_scan(const coll_cli *c)
{
    int scan = c->opname && (!strcmp(c->opname, "scan") || !strcmp(c->opname, "exscan"));
    if (scan && !strcmp(c->algo_s, "innet"))
        cli_fail(EXIT_USAGE,
                 "--op %s --algo innet: a scan inside the network is not built yet; --algo rd runs it "
                 "on the cores",
                 c->opname);
    if (scan && strcmp(c->algo_s, "rd") && strcmp(c->algo_s, "sched"))
        cli_fail(EXIT_USAGE, "--op %s: --algo rd (recursive doubling, the default) is the one scan algorithm, not %s",
                 c->opname, c->algo_s);
    return scan || !strcmp(c->algo_s, "innet");
}

static int run_innet(coll_cli *c)
{
    char err[512];
    if (c->file || c->shape_s || c->mcast_s || c->xor_s || c->inpos_s || c->alloc_s || c->to || c->xo.bg_rate > 0)
        cli_fail(EXIT_USAGE, "--algo innet and --op scan take --topo, --op, --bytes, --reduce-op, --from "
                             "(reduce's root), --router, --seed and the run options, not --schedule, --to, "
                             "--alloc, --background or the hnc options");
    if (!c->co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc collective --help)");
    if (!c->opname) cli_fail(EXIT_USAGE, "--op is required: reduce or allreduce with --algo innet");
    if (c->redop_s && innet_redop_parse(c->redop_s) < 0)
        cli_fail(EXIT_USAGE,
                 "%s: unknown operator '%s' (with --algo innet: sum, sum64, min, max, minu, maxu, and, or, xor)",
                 c->redop_opt, c->redop_s);
    topo *t = topo_parse(c->co.topo, c->co.ports, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    innet_args ia = {.op = c->opname,
                     .redop = c->redop_s,
                     .from = c->from,
                     .bytes = c->bytes,
                     .seed = (uint32_t)c->co.seed,
                     .max_cycles = c->xo.max_cycles,
                     .json = c->co.json};
    int st = coll_innet_cmd(t, &c->co.rc, &ia, &c->xo);
    topo_free(t);
    return st;
}

/* --algo multicast (bcast, allgather, mnb on a clos): run by exec/coll_mcast.c */
static int run_mcast(coll_cli *c)
{
    char err[512];
    if (c->file || c->shape_s || c->mcast_s || c->xor_s || c->inpos_s || c->alloc_s || c->redop_s || c->xo.bg_rate > 0)
        cli_fail(EXIT_USAGE, "--algo multicast takes --topo, --op, --bytes, --from (bcast's root, mnb's sources), "
                             "--to (mnb's receivers), --router, --seed and the run options, not --schedule, --alloc, "
                             "--background, --reduce-op or the hnc options");
    if (!c->co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc collective --help)");
    if (!c->opname) cli_fail(EXIT_USAGE, "--op is required: bcast, allgather or mnb with --algo multicast");
    int packed = c->steps_s && !strcmp(c->steps_s, "packed");
    if (c->steps_s && !packed && strcmp(c->steps_s, "assignment"))
        cli_fail(EXIT_USAGE, "--steps '%s': assignment or packed", c->steps_s);
    topo *t = topo_parse(c->co.topo, c->co.ports, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    innet_args ia = {.op = c->opname,
                     .from = c->from,
                     .to = c->to,
                     .packed = packed,
                     .bytes = c->bytes,
                     .seed = (uint32_t)c->co.seed,
                     .max_cycles = c->xo.max_cycles,
                     .json = c->co.json};
    int st = coll_mcast_cmd(t, &c->co.rc, &ia, &c->xo);
    topo_free(t);
    return st;
}

/* --measure makespan|steps; 1 for steps, which needs global steps and the
 * packet events (a temporary file unless --events names one) */
static int check_measure(coll_cli *c)
{
    const char *m = c->measure_s;
    if (!m || !strcmp(m, "makespan")) return 0;
    if (strcmp(m, "steps")) cli_fail(EXIT_USAGE, "--measure '%s': makespan or steps", m);
    if (c->sync_given && c->xo.sync != SYNC_GLOBAL)
        cli_fail(EXIT_USAGE, "--measure steps counts synchronized steps: drop --sync data");
    if (!c->xo.events && !(c->xo.events = tmpfile()))
        cli_fail(EXIT_RUNFAIL, "--measure steps: no temporary file for the packet events: %s", strerror(errno));
    return 1;
}

/* The paper's measure beside the makespan: each step's worst latency from injection */
static void report_steps(json_t *r, const coll_cli *c, const coll_outcome *o, int nsteps)
{
    char err[512];
    uint64_t *worst = xcalloc((size_t)nsteps + 1, sizeof *worst), matched, unmatched, sum = 0;
    FILE *f = c->xo.events;
    fflush(f);
    if (c->events_path && !(f = fopen(c->events_path, "r")))
        cli_fail(EXIT_RUNFAIL, "--measure steps: reading %s back: %s", c->events_path, strerror(errno));
    if (coll_step_latencies(f, o->start_cycle, o->step_cycles, nsteps, worst, &matched, &unmatched, err, sizeof err))
        cli_fail(EXIT_RUNFAIL, "--measure steps: %s", err);
    if (f != c->xo.events) fclose(f);
    json_t *per = json_array();
    for (int st = 0; st < nsteps; st++) {
        sum += worst[st];
        json_array_append_new(per, json_integer((json_int_t)worst[st]));
    }
    json_object_set_new(r, "measure", json_string("steps"));
    json_object_set_new(r, "paper_step_latency", json_integer((json_int_t)sum));
    json_object_set_new(r, "step_latencies", per);
    json_object_set_new(r, "packets_timed", json_integer((json_int_t)matched));
    free(worst);
    (void)unmatched; /* a unit's multicast copies: no injection of their own */
}

int cmd_collective(int argc, char **argv)
{
    cli_catch_sigint();
    char err[512];
    coll_cli c = {
        .algo_s = "sched",
        .bytes = -1,
        .use_shipped = 1,
        .redop_opt = "--reduce-op",
        .xo = {.clock_ratio = 1, .bg_bytes = 1024, .sync = SYNC_GLOBAL, .redop = RED_SUM, .max_cycles = 50000000}};
    view_opts_default(&c.vo);
    cmd_opts_init(&c.co, OPT_NET | OPT_SEED);
    {
        char *all = xasprintf("%s%s", usage_text, view_usage); /* the keys a config file may set */
        argv = cmd_config_expand(&argc, argv, all, NULL);
        free(all);
    }
    if (parse_args(argc, argv, &c)) return 0;
    const router_cfg *rc = &c.co.rc;
    coll_exec_opts *xo = &c.xo;
    xo->seed = (uint32_t)c.co.seed;
    int other = !strcmp(c.algo_s, "multicast") || innet_or_scan(&c);
    if (other && c.measure_s && strcmp(c.measure_s, "makespan"))
        cli_fail(EXIT_USAGE, "--measure %s: not with --algo %s (its own engine)", c.measure_s, c.algo_s);
    if (!strcmp(c.algo_s, "multicast")) return run_mcast(&c);
    if (c.steps_s) cli_fail(EXIT_USAGE, "--steps is an option of --algo multicast, not --algo %s", c.algo_s);
    if (innet_or_scan(&c)) return run_innet(&c);
    int measure_steps = check_measure(&c);
    if (c.redop_s && (xo->redop = coll_redop_parse(c.redop_s)) < 0)
        cli_fail(EXIT_USAGE, "%s: unknown operator '%s' (sum, prod, max, min, and, or, xor)", c.redop_opt, c.redop_s);
    if (c.opname && !strcmp(c.opname, "allreduce"))
        cli_fail(EXIT_USAGE, "--op allreduce: only --algo innet runs it (reduce + bcast in software: two runs)");
    coll_job j = {0};
    check_algo(&c, &j);
    xo->ni_decode = c.decode_s && !strcmp(c.decode_s, "ni");
    build_job(&c, &j);
    coll_sched *s = &j.s;
    int bytes = c.bytes < 0 ? (s->op == OP_BARRIER ? 0 : 64) : c.bytes;
    if (s->op == OP_BARRIER) bytes = 0;
    if (s->op == OP_REDUCE && (bytes % 4 || bytes == 0))
        cli_fail(EXIT_USAGE, "--bytes %d: reduce combines 32-bit words, use a multiple of 4", bytes);
    xo->bytes = bytes;

    view *vw = NULL;
    char caption[200];
    snprintf(caption, sizeof caption, "%s %s, %d B", coll_op_name(s->op), coll_algo_name((coll_algo)j.algo), bytes);
    if (view_wanted(&c.vo)) {
        c.vo.title = caption;
        if (!(vw = view_open(j.t, &c.vo, err, sizeof err))) cli_fail(EXIT_USAGE, "%s", err);
    }
    double ts = 0, t1 = 0;
    coll_calibrate(j.t, rc, xo->clock_ratio, &ts, &t1);
    coll_outcome o;
    json_t *links = NULL;
    if (xo->trace_to && !xo->trace_path) cli_fail(EXIT_USAGE, "--trace-window needs --trace F.vcd");
    unsigned char *bg_mask = xo->bg_rate > 0 ? background_mask(s) : NULL;
    xo->bg_mask = bg_mask;
    xo->measured = 1;
    coll_execute(j.t, rc, s, xo, &o, c.co.json ? &links : NULL, vw);
    if (vw) view_close(vw);
    json_t *r = report(&j, rc, xo, &o, ts, t1, links);
    if (measure_steps) report_steps(r, &c, &o, s->nsteps);
    if (c.co.json) {
        json_dumpf(r, stdout, JSON_COMPACT);
        putchar('\n');
    } else print_text(r);
    json_decref(r);
    if (o.error[0]) cli_error("%s", o.error);
    int rc_exit = o.verified ? 0 : cli_interrupted ? cli_signal_status(cli_interrupted) : EXIT_RUNFAIL;
    if (xo->events) fclose(xo->events);
    free(bg_mask);
    free(o.step_cycles);
    free(j.source);
    coll_free(s);
    topo_free(j.t);
    return rc_exit;
}
