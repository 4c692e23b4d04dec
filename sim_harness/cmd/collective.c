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
#include "cmd/coll_exec.h"
#include "cmd/coll_innet.h"
#include "cmd/cmds.h"
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
    "                    allreduce combined in the routers' coding units along the mesh's or\n"
    "                    torus's dimension-ordered tree; docs/collectives.md)\n"
    "  --group-shape S   hnc: GWxGH nodes per group, or best (the shape xnoc ncmodel finds; default)\n"
    "  --multicast M     hnc: tree (default) or all-at-once, for every multicast of the scheme\n"
    "  --in-position P   hnc, combine: where each group's intermediate node sits: corner, median,\n"
    "                    boundary, best (xnoc ncmodel --help; default corner for tree, median\n"
    "                    for all-at-once)\n"
    "  --xor X           hnc: where the intermediate nodes XOR: unit (the router's coding unit,\n"
    "                    the default with ncu=1) or core (their firmware)\n"
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
    "  --events F.jsonl  one JSON line per message sent and delivered, and per packet at every\n"
    "                    router hop (inject, hop, eject; from the RTL's link taps)\n"
    "  --ram KiB         RAM per node (default: what the plan and its buffers need, at least 256)\n"
    "  --conflicts N     the exact schedule search's budget in SAT conflicts per step\n"
    "                    count, --moves N its improving search's in tabu moves\n"
    "                    (defaults: see xnoc sched --help)\n"
    "  --time-limit S    safety net in seconds for the schedule search (1800); if it\n"
    "                    passes before the budgets run out: \"out of time\", exit 1\n"
    "  --json            one JSON object on stdout\n"
    "Live view (links, buffers, each node's state and step; see docs/view.md):\n";

/* how the runs go: --clock-ratio, --trace, --events, --background (coll_exec.h) */
static coll_exec_opts xo = {.clock_ratio = 1, .bg_bytes = 1024};

/* The broadcast's own global and local link crossings: from the routers'
 * counters when nothing else runs (exact, whatever the routing), from its
 * routes under minimal routing with background traffic; unknown (0) with
 * background traffic and non-minimal routing, whose paths only the routers
 * know. */
static int df_link_packets(const coll_sched *s, const topo *t, const router_cfg *rc, const coll_outcome *o, int bytes,
                           uint64_t *global, uint64_t *local)
{
    uint64_t pkt = 2 + ((uint64_t)bytes + 7) / 8;
    if (!xo.bg_mask) {
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
    fputs(json_is_true(report_get(j, "verified")) ? "verified byte-exact\n" : "VERIFICATION FAILED\n", f);
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
        fputs(!strcmp(json_string_value(report_get(j, "xor")), "unit") ? "routers' coding units"
                                                                       : "intermediate nodes' cores",
              f);
        report_printf(f, j,
                      ";\n  model hops {model_hops}; cycles per phase (the paper's letters): B+F group broadcast "
                      "and data to counterparts {cycles_per_phase.B_F}, C coding {cycles_per_phase.C}, D bundles "
                      "between intermediate nodes {cycles_per_phase.D}, E bundles into the groups "
                      "{cycles_per_phase.E} (delivered at {delivery_cycles}), G decoding {cycles_per_phase.G};\n"
                      "  XOR on cores {xor_core_cycles} cycles (the most any node spent)\n");
    }
}

int cmd_collective(int argc, char **argv)
{
    cli_catch_sigint();
    const char *spec = NULL, *opname = NULL, *from = NULL, *to = NULL, *algo_s = "sched", *file = NULL;
    const char *shape_s = NULL, *mcast_s = NULL, *xor_s = NULL, *alloc_s = NULL, *inpos_s = NULL;
    router_cfg rc;
    router_cfg_default(&rc);
    int k = 1, json = 0, bytes = -1, sync = SYNC_GLOBAL, redop = RED_SUM, use_shipped = 1;
    const char *redop_s = NULL, *redop_opt = "--reduce-op";
    uint64_t seed = 1, max_cycles = 50000000;
    uint32_t ram_kib = 0;
    double exact_limit = 0; /* 0: the defaults (sched.h) */
    long exact_conflicts = 0, exact_moves = 0;
    char err[512];
    view_opts vo;
    view_opts_default(&vo);
    cmd_opts co;
    cmd_opts_init(&co, OPT_NET | OPT_SEED);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            fputs(view_usage, stdout);
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) continue;
        else if (!strcmp(a, "--no-shipped")) use_shipped = 0;
        else if (view_cli_arg(&vo, argc, argv, &i)) continue;
        else if (!v) cmd_bad_option(a, usage_text);
        else if (!strcmp(a, "--op")) opname = argv[++i];
        else if (!strcmp(a, "--from")) from = argv[++i];
        else if (!strcmp(a, "--to")) to = argv[++i];
        else if (!strcmp(a, "--bytes")) bytes = (int)cli_long(a, argv[++i], 0, 65536);
        else if (!strcmp(a, "--algo")) algo_s = argv[++i];
        else if (!strcmp(a, "--schedule")) file = argv[++i];
        else if (!strcmp(a, "--group-shape")) shape_s = argv[++i];
        else if (!strcmp(a, "--alloc")) alloc_s = argv[++i];
        else if (!strcmp(a, "--background")) {
            if (background_parse(argv[++i], 1, &xo.bg_rate, &xo.bg_bytes, err, sizeof err))
                cli_fail(EXIT_USAGE, "%s", err);
        } else if (!strcmp(a, "--multicast")) mcast_s = argv[++i];
        else if (!strcmp(a, "--in-position")) inpos_s = argv[++i];
        else if (!strcmp(a, "--xor")) xor_s = argv[++i];
        else if (!strcmp(a, "--sync")) {
            const char *m = argv[++i];
            if (!strcmp(m, "global")) sync = SYNC_GLOBAL;
            else if (!strcmp(m, "data")) sync = SYNC_DATA;
            else cli_fail(EXIT_USAGE, "--sync: '%s' is neither global nor data", m);
        } else if (!strcmp(a, "--redop") || !strcmp(a, "--reduce-op")) {
            redop_opt = a;
            redop_s = argv[++i];
        } else if (!strcmp(a, "--max-cycles")) max_cycles = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--trace")) xo.trace_path = argv[++i];
        else if (!strcmp(a, "--events")) {
            if (!(xo.events = fopen(argv[++i], "w"))) cli_fail(EXIT_USAGE, "--events %s: %s", argv[i], strerror(errno));
        } else if (!strcmp(a, "--trace-window")) cli_window(a, argv[++i], &xo.trace_from, &xo.trace_to);
        else if (!strcmp(a, "--watchdog")) {
            xo.watchdog = cli_u64(a, argv[++i]);
            if (!xo.watchdog) xo.watchdog = UINT64_MAX; /* 0 = off, as for run */
        } else if (!strcmp(a, "--spin-watchdog")) {
            xo.spin_watchdog = cli_u64(a, argv[++i]);
            if (!xo.spin_watchdog) xo.spin_watchdog = SYS_SPIN_OFF;
        } else if (!strcmp(a, "--ram")) ram_kib = (uint32_t)cli_long(a, argv[++i], 64, 1024 * 1024);
        else if (!strcmp(a, "--clock-ratio")) xo.clock_ratio = (int)cli_long(a, argv[++i], 1, 1024);
        else if (!strcmp(a, "--time-limit")) exact_limit = cli_double(a, argv[++i], 0.01, 86400);
        else if (!strcmp(a, "--conflicts")) exact_conflicts = cli_long(a, argv[++i], 1, 1000000000000L);
        else if (!strcmp(a, "--moves")) {
            exact_moves = cli_long(a, argv[++i], 0, 1000000000000L);
            if (!exact_moves) exact_moves = -1; /* none (0 in sched_opts is the default) */
        } else cmd_bad_option(a, usage_text);
    }
    spec = co.topo;
    rc = co.rc;
    k = co.ports;
    json = co.json;
    seed = co.seed;
    topo *t = NULL;
    coll_sched s;
    int scan = opname && (!strcmp(opname, "scan") || !strcmp(opname, "exscan"));
    if (scan && !strcmp(algo_s, "innet"))
        cli_fail(EXIT_USAGE,
                 "--op %s --algo innet: a scan inside the network is not built yet; --algo rd runs it "
                 "on the cores",
                 opname);
    if (scan && strcmp(algo_s, "rd") && strcmp(algo_s, "sched"))
        cli_fail(EXIT_USAGE, "--op %s: --algo rd (recursive doubling, the default) is the one scan algorithm, not %s",
                 opname, algo_s);
    if (!strcmp(algo_s, "innet") || scan) { /* in the routers' coding units, or a scan (coll_innet.c) */
        if (file || shape_s || mcast_s || xor_s || inpos_s || alloc_s || to || xo.bg_rate > 0)
            cli_fail(EXIT_USAGE, "--algo innet and --op scan take --topo, --op, --bytes, --reduce-op, --from "
                                 "(reduce's root), --router, --seed and the run options, not --schedule, --to, "
                                 "--alloc, --background or the hnc options");
        if (!spec) cli_fail(EXIT_USAGE, "--topo is required (see xnoc collective --help)");
        if (!opname) cli_fail(EXIT_USAGE, "--op is required: reduce or allreduce with --algo innet");
        if (redop_s && innet_redop_parse(redop_s) < 0)
            cli_fail(EXIT_USAGE,
                     "%s: unknown operator '%s' (with --algo innet: sum, sum64, min, max, minu, maxu, and, or, xor)",
                     redop_opt, redop_s);
        t = topo_parse(spec, k, err, sizeof err);
        if (!t) cli_fail(EXIT_USAGE, "%s", err);
        innet_args ia = {.op = opname,
                         .redop = redop_s,
                         .from = from,
                         .bytes = bytes,
                         .seed = (uint32_t)seed,
                         .max_cycles = max_cycles,
                         .json = json};
        int st = coll_innet_cmd(t, &rc, &ia, &xo);
        topo_free(t);
        return st;
    }
    if (redop_s && (redop = coll_redop_parse(redop_s)) < 0)
        cli_fail(EXIT_USAGE, "%s: unknown operator '%s' (sum, prod, max, min, and, or, xor)", redop_opt, redop_s);
    if (opname && !strcmp(opname, "allreduce"))
        cli_fail(EXIT_USAGE, "--op allreduce: only --algo innet runs it (reduce + bcast in software: two runs)");
    int algo = coll_algo_parse(algo_s);
    if (algo < 0)
        cli_fail(EXIT_USAGE,
                 "--algo: unknown algorithm '%s' (sched, tree, ring, rd, all-at-once, qcdoc, hnc, llf, glf, forest, "
                 "combine, innet)",
                 algo_s);
    hnc_opts ho = {.xor_unit = rc.ncu, .chunk = 8 * rc.ncmax};
    hnc_info hi = {0};
    int hnc_family = algo == ALGO_HNC || algo == ALGO_COMBINE;
    if (!hnc_family && (shape_s || mcast_s || xor_s || inpos_s))
        cli_fail(EXIT_USAGE,
                 "--group-shape, --multicast, --in-position and --xor are options of --algo hnc (and combine)");
    if (algo == ALGO_COMBINE && xor_s)
        cli_fail(EXIT_USAGE, "--xor: --algo combine copies on the intermediate nodes' cores, it does not code");
    if (algo == ALGO_COMBINE) ho.combine = 1, ho.xor_unit = 0;
    if (inpos_s) {
        int p = ncm_in_position_parse(inpos_s);
        if (p < 0) cli_fail(EXIT_USAGE, "--in-position '%s': corner, median, boundary or best", inpos_s);
        ho.in_pos = (ncm_in_position)p;
    }
    if (shape_s && strcmp(shape_s, "best")) {
        long gw, gh;
        cli_pair("--group-shape", shape_s, 'x', 1, 65536, "GWxGH such as 4x2, or best", &gw, &gh);
        ho.gw = (int)gw;
        ho.gh = (int)gh;
    }
    if (mcast_s && strcmp(mcast_s, "tree") && !(ho.all_at_once = !strcmp(mcast_s, "all-at-once")))
        cli_fail(EXIT_USAGE, "--multicast '%s': tree or all-at-once", mcast_s);
    if (xor_s) {
        if (!strcmp(xor_s, "unit")) ho.xor_unit = 1;
        else if (!strcmp(xor_s, "core")) ho.xor_unit = 0;
        else
            cli_fail(EXIT_USAGE,
                     "--xor '%s': unit (the routers' coding units) or core (the intermediate nodes' firmware)", xor_s);
        if (ho.xor_unit && !rc.ncu)
            cli_fail(EXIT_USAGE, "--xor unit: the routers have no coding units (--router ncu=0); use --xor core");
    }
    sched_result sr = {0};
    char *source = NULL; /* the schedule file run, if any */
    const char *source_kind = "builtin";
    if (file) {
        source_kind = "file";
        source = xstrdup(file);
        int r = sched_file_read(file, &t, &s, err, sizeof err);
        if (r == 0 && sched_verify(&s, t, err, sizeof err)) r = -1;
        if (r) cli_fail(EXIT_USAGE, "--schedule %s: %s", file, err);
        /* the file says what it is; options that say otherwise are a mistake, not a wish */
        if (spec) {
            topo *want = topo_parse(spec, k, err, sizeof err);
            if (!want) cli_fail(EXIT_USAGE, "%s", err);
            if (strcmp(want->name, t->name) || want->k != t->k)
                cli_fail(EXIT_USAGE, "--schedule %s is for %s (k=%d), not --topo %s (k=%d)", file, t->name, t->k,
                         want->name, want->k);
            topo_free(want);
        }
        if (opname && coll_op_parse(opname) != (int)s.op)
            cli_fail(EXIT_USAGE, "--schedule %s is a %s, not --op %s", file, coll_op_name(s.op), opname);
        if (from || to) cli_fail(EXIT_USAGE, "--schedule %s: the sets come from the file (drop --from/--to)", file);
        sched_bound b;
        sched_lower_bound(&s, t, &b);
        sr.lower_bound = b.value;
        sr.steps = s.nsteps;
        algo = ALGO_SCHED;
    } else {
        if (!spec) cli_fail(EXIT_USAGE, "--topo is required (see xnoc collective --help)");
        if (!opname)
            cli_fail(EXIT_USAGE,
                     "--op is required (barrier, bcast, scatter, gather, reduce, allgather, alltoall, mnb, mns)");
        int op = coll_op_parse(opname);
        if (op < 0)
            cli_fail(EXIT_USAGE,
                     "--op: unknown collective '%s' (barrier, bcast, scatter, gather, reduce, allgather, alltoall, "
                     "mnb, mns)",
                     opname);
        t = topo_parse(spec, k, err, sizeof err);
        if (!t) cli_fail(EXIT_USAGE, "%s", err);
        int *order = NULL, norder = 0;
        char *alloc_from = NULL, *alloc_to = NULL;
        if (alloc_s) {
            if (to) cli_fail(EXIT_USAGE, "--alloc gives the job: drop --to");
            order = random_alloc(alloc_s, t->nterms, &norder);
            alloc_sets((coll_op)op, order, norder, from, &alloc_from, &alloc_to);
            from = alloc_from;
            to = alloc_to;
        }
        if (coll_init(&s, t, (coll_op)op, from, to, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
        s.rank_order = order;
        s.nranks = norder;
        if (order && s.root >= 0 && !s.to[s.root] && !s.from[s.root])
            cli_fail(EXIT_USAGE, "--alloc: the root %d is not in the job", s.root);
        free(alloc_from);
        free(alloc_to);
        sched_bound b;
        sched_lower_bound(&s, t, &b);
        sr.lower_bound = b.value;
        int shipped = 0;
        if (algo == ALGO_SCHED && use_shipped) { /* a proven schedule in the repository comes first */
            coll_sched f;
            int opt;
            shipped = sched_file_shipped(t, &s, &f, &opt, &source, err, sizeof err);
            if (shipped < 0) cli_error("%s (searching instead)", err);
            if (shipped == 1) {
                coll_free(&s);
                s = f;
                sr.optimal = opt;
                source_kind = "shipped";
            } else {
                free(source);
                source = NULL;
            }
        }
        if (algo == ALGO_SCHED && shipped != 1) {
            source_kind = "search";
            sched_opts so = {.exact = 1,
                             .moves = exact_moves,
                             .conflicts = exact_conflicts,
                             .time_limit = exact_limit,
                             .seed = 1,
                             .progress = !json && cli_progress_enabled()};
            if (sched_run(&s, t, &so, &sr) < 0)
                cli_fail(EXIT_RUNFAIL, "no schedule found for %s on %s", opname, t->name);
            if (!strcmp(sr.ended, "time")) /* its schedule would depend on the machine's speed */
                cli_fail(EXIT_RUNFAIL,
                         "out of time: the schedule search's --time-limit %g s passed before its budgets (--moves, "
                         "--conflicts) ran out, so its schedule would depend on the machine's speed: raise "
                         "--time-limit or lower the budgets",
                         sr.time_limit);
        } else if (hnc_family) {
            ho.bytes = bytes < 0 ? 64 : bytes;
            if (hnc_build(&s, t, &ho, &hi, err, sizeof err)) cli_fail(EXIT_USAGE, "--algo %s: %s", algo_s, err);
        } else if (algo != ALGO_SCHED && coll_builtin(&s, t, (coll_algo)algo, err, sizeof err)) {
            cli_fail(EXIT_USAGE, "--algo %s: %s", algo_s, err);
        }
        sr.steps = s.nsteps;
    }
    if (bytes < 0) bytes = s.op == OP_BARRIER ? 0 : 64;
    if (s.op == OP_BARRIER) bytes = 0;
    if (s.op == OP_REDUCE && (bytes % 4 || bytes == 0))
        cli_fail(EXIT_USAGE, "--bytes %d: reduce combines 32-bit words, use a multiple of 4", bytes);
    int nsteps = s.nsteps;

    view *vw = NULL;
    char caption[200];
    snprintf(caption, sizeof caption, "%s %s, %d B", coll_op_name(s.op), coll_algo_name((coll_algo)algo), bytes);
    if (view_wanted(&vo)) {
        vo.title = caption;
        if (!(vw = view_open(t, &vo, err, sizeof err))) cli_fail(EXIT_USAGE, "%s", err);
    }
    double ts = 0, t1 = 0;
    coll_calibrate(t, &rc, xo.clock_ratio, &ts, &t1);
    coll_outcome o;
    json_t *links = NULL;
    if (xo.trace_to && !xo.trace_path) cli_fail(EXIT_USAGE, "--trace-window needs --trace F.vcd");
    unsigned char *bg_mask = NULL;
    if (xo.bg_rate > 0) {
        xo.bg_mask = bg_mask = xcalloc((size_t)s.nterms, 1);
        int nbg = 0;
        for (int v = 0; v < s.nterms; v++) nbg += bg_mask[v] = !s.from[v] && !s.to[v] && v != s.root;
        if (nbg < 2)
            cli_fail(EXIT_USAGE, "--background: %d terminal(s) outside the collective; it needs at least two", nbg);
    }
    xo.measured = 1;
    coll_execute(t, &rc, &s, bytes, sync, (uint32_t)seed, redop, max_cycles, ram_kib, &xo, &o, json ? &links : NULL,
                 vw);
    if (vw) view_close(vw);
    uint64_t volume = coll_busiest_volume(&s, bytes);
    int rounds = coll_message_rounds(&s, t);
    double util = o.cycles ? (double)o.busiest_flits / (double)o.cycles : 0;
    if (o.combine_cycles > o.cycles) o.combine_cycles = o.cycles;
    double model = nsteps * ts + (double)volume * t1;
    uint64_t hops, hops_flits;
    int unicasts;
    coll_schedule_hops(&s, t, bytes, &hops, &hops_flits, &unicasts);
    int hops_ok = hops_flits == o.link_flits;
    uint64_t phase_cycles[HNC_PHASES] = {0};
    for (int p = 0; hnc_family && p < HNC_PHASES; p++)
        for (int st = hi.first_step[p]; st < hi.first_step[p + 1] && st < nsteps; st++)
            phase_cycles[p] += o.step_cycles[st];
    /* One report: the JSON object; the text is written from it (util/report.h). */
    json_t *j = json_object(), *per = json_array();
    json_object_set_new(j, "topology", json_string(t->name));
    json_object_set_new(j, "op", json_string(coll_op_name(s.op)));
    json_object_set_new(j, "algo", json_string(coll_algo_name((coll_algo)algo)));
    json_object_set_new(j, "sync", json_string(sync == SYNC_GLOBAL ? "global" : "data"));
    json_object_set_new(j, "bytes", json_integer(bytes));
    json_object_set_new(j, "ports", json_integer(t->k));
    json_object_set_new(j, "nodes", json_integer(t->nterms));
    json_object_set_new(j, "verified", json_boolean(o.verified));
    json_object_set_new(j, "cycles", json_integer((json_int_t)o.cycles));
    json_object_set_new(j, "start_cycle", json_integer((json_int_t)o.start_cycle));
    json_object_set_new(j, "steps", json_integer(nsteps));
    json_object_set_new(j, "lower_bound", json_integer(sr.lower_bound));
    json_object_set_new(j, "message_rounds", json_integer(rounds));
    json_object_set_new(j, "schedule_source", json_string(source_kind));
    if (sr.ended) json_object_set_new(j, "search_ended", json_string(sr.ended)); /* proof or budget */
    if (source) {
        size_t l = strlen(cli_src_dir()); /* shipped: relative to the repository */
        const char *rel = !strncmp(source, cli_src_dir(), l) && source[l] == '/' ? source + l + 1 : source;
        json_object_set_new(j, "schedule_file", json_string(rel));
    }
    json_object_set_new(j, "optimal", algo != ALGO_SCHED ? json_null() : sr.optimal == 1 ? json_true() : json_null());
    for (int st = 0; st < nsteps; st++) json_array_append_new(per, json_integer((json_int_t)o.step_cycles[st]));
    json_object_set_new(j, "cycles_per_step", per);
    json_object_set_new(j, "t_s", json_real(ts));
    json_object_set_new(j, "t_1", json_real(t1));
    json_object_set_new(j, "volume_bytes", json_integer((json_int_t)volume));
    json_object_set_new(j, "model_cycles", json_real(model));
    json_object_set_new(j, "stalled_flit_cycles", json_integer((json_int_t)o.stalls));
    if (o.worst_stalls)
        json_object_set_new(j, "worst_stall",
                            json_pack("{s:s,s:I}", "channel", o.worst, "cycles", (json_int_t)o.worst_stalls));
    json_object_set_new(j, "flits", json_integer((json_int_t)o.flits));
    json_object_set_new(j, "busiest_channel", json_string(o.busiest));
    json_object_set_new(j, "busiest_channel_flits", json_integer((json_int_t)o.busiest_flits));
    /* the schedule's aggregate unicast path hops (the network-coding paper's count, xnoc
     * ncmodel), given when the routers' link counters carry exactly the flits they imply */
    json_object_set_new(j, "link_flits", json_integer((json_int_t)o.link_flits));
    json_object_set_new(j, "link_flits_expected", json_integer((json_int_t)hops_flits));
    json_object_set_new(j, "unicasts", json_integer(unicasts));
    json_object_set_new(j, "hops", hops_ok ? json_integer((json_int_t)hops) : json_null());
    if (t->kind == TOPO_DRAGONFLY) { /* the dragonfly paper's metrics: link crossings by kind */
        uint64_t pkt = 2 + ((uint64_t)bytes + 7) / 8, gl, ll;
        int known = df_link_packets(&s, t, &rc, &o, bytes, &gl, &ll);
        json_object_set_new(j, "makespan", json_integer((json_int_t)o.cycles));
        json_object_set_new(j, "global_link_packets", known ? json_integer((json_int_t)gl) : json_null());
        json_object_set_new(j, "local_link_packets", known ? json_integer((json_int_t)ll) : json_null());
        /* minimal routing: the routers' counters carry exactly the routes' crossings (without background) */
        if (rc.routing == ROUTING_MIN) {
            uint64_t rg, rl;
            coll_schedule_df_links(&s, t, &rg, &rl);
            json_object_set_new(j, "link_counters_agree",
                                json_boolean(o.global_flits == rg * pkt && o.link_flits - o.global_flits == rl * pkt));
        }
        json_object_set_new(j, "avg_hops", known && unicasts ? json_real((double)(gl + ll) / unicasts) : json_null());
        int gj = coll_groups_in_job(&s, t), members = 0;
        for (int v = 0; v < s.nterms; v++) members += s.from[v] || s.to[v];
        dfm_probs dp;
        dfm_eval(t, &dp);
        json_object_set_new(j, "groups_in_job", json_integer(gj));
        json_object_set_new(j, "job_terminals", json_integer(members));
        /* the paper's formulas (xnoc dfmodel): TREE's expectation over random jobs of this
         * size, the topology-aware algorithms' bounds for the groups this job spans */
        json_object_set_new(j, "model_tree_global_links", json_real(dfm_tree_global(&dp, members)));
        json_object_set_new(j, "model_tree_local_links", json_real(dfm_tree_local(&dp, members)));
        json_object_set_new(j, "bound_global_links", json_integer(dfm_bound_global(gj)));
        json_object_set_new(j, "bound_local_links", json_integer(dfm_bound_local(gj, t->df_a)));
    }
    if (hnc_family) {
        json_object_set_new(j, "group_shape", json_sprintf("%dx%d", hi.gw, hi.gh));
        json_object_set_new(j, "in_position",
                            json_string(ncm_in_position_name(ho.in_pos        ? ho.in_pos
                                                             : ho.all_at_once ? NCM_IN_MEDIAN
                                                                              : NCM_IN_CORNER)));
        json_object_set_new(j, "group_size", json_integer(hi.group_size));
        json_object_set_new(j, "num_groups", json_integer(hi.groups));
        json_object_set_new(j, "intermediate_position", json_pack("[i,i]", hi.in_x, hi.in_y));
        json_object_set_new(j, "multicast", json_string(ho.all_at_once ? "all-at-once" : "tree"));
        json_object_set_new(j, "xor", json_string(ho.xor_unit ? "unit" : "core"));
        json_object_set_new(j, "model_hops", json_integer((json_int_t)hi.model_hops));
        json_object_set_new(j, "xor_core_cycles", json_integer((json_int_t)o.combine_cycles));
        json_object_set_new(j, "cycles_per_phase",
                            json_pack("{s:I,s:I,s:I,s:I,s:I}", "B_F", (json_int_t)phase_cycles[HNC_B], "C",
                                      (json_int_t)phase_cycles[HNC_C], "D", (json_int_t)phase_cycles[HNC_D], "E",
                                      (json_int_t)phase_cycles[HNC_E], "G", (json_int_t)phase_cycles[HNC_G]));
        /* up to the last coded message's arrival: what the network (and the NIs) decide */
        json_object_set_new(j, "delivery_cycles", json_integer((json_int_t)(o.cycles - phase_cycles[HNC_G])));
    }
    json_object_set_new(j, "busiest_channel_utilization", json_real(util));
    if (s.op == OP_REDUCE) {
        json_object_set_new(j, "combine_cycles", json_integer((json_int_t)o.combine_cycles));
        json_object_set_new(j, "network_cycles", json_integer((json_int_t)(o.cycles - o.combine_cycles)));
    }
    json_object_set_new(j, "ram_kib", json_integer(o.ram_kib));
    if (xo.bg_mask)
        json_object_set_new(j, "background",
                            json_pack("{s:i,s:f,s:i,s:I,s:I,s:I}", "nodes", o.bg.nodes, "rate", xo.bg_rate, "bytes",
                                      xo.bg_bytes, "messages_sent", (json_int_t)o.bg.sent, "messages_received",
                                      (json_int_t)o.bg.received, "messages_waiting", (json_int_t)o.bg.waiting));
    if (o.error[0]) json_object_set_new(j, "error", json_string(o.error));
    if (links) json_object_set_new(j, "links", links);
    if (json) {
        json_dumpf(j, stdout, JSON_COMPACT);
        putchar('\n');
    } else print_text(j);
    json_decref(j);
    if (o.error[0]) cli_error("%s", o.error);
    int rc_exit = o.verified ? 0 : cli_interrupted ? cli_signal_status(cli_interrupted) : EXIT_RUNFAIL;
    if (xo.events) fclose(xo.events);
    free(bg_mask);
    free(o.step_cycles);
    coll_free(&s);
    topo_free(t);
    return rc_exit;
}
