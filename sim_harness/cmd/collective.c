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

#include "cmd/cmds.h"
#include "cmd/collective.h"
#include "cmd/collective_report.h"
#include "collrun/coll_steps.h"
#include "cmd/config_file.h"
#include "cmd/metrics.h"
#include "coll/coll.h"
#include "coll/coll_metrics.h"
#include "coll/coll_plan.h"
#include "coll/hnc.h"
#include "coll/ncfunc.h"
#include "coll/ncmodel.h"
#include "collrun/coll_job.h"
#include "../../firmware/coll/reduce.h"
#include "system/background.h"
#include "util/suggest.h"
#include "system/system.h"
#include "util/cli.h"

static const char *usage_text =
    "usage: xnoc collective --topo T --op OP [--from SET --to SET] --bytes B [options]\n"
    "\n"
    "Runs a collective in firmware on every node of the RTL network and verifies\n"
    "every received byte.\n"
    "  --op OP           barrier, bcast, scatter, gather, reduce, allgather, alltoall, mnb, mns;\n"
    "                    allreduce (--algo rabenseifner, ring, reduce-bcast on the cores, or\n"
    "                    innet); reducescatter (--algo halving or ring on the cores: terminal i\n"
    "                    gets block i); scan, exscan (inclusive and exclusive prefix reduction,\n"
    "                    --algo rd on the cores, or innet: a chain through the routers' streaming\n"
    "                    units, --router stream=1 and vcs >= 1 + terminals per router;\n"
    "                    docs/network-coding.md \"In-network scan\")\n"
    "  --bytes B         message size in bytes (64; barrier: 0)\n"
    "  --algo A          sched (synthesized schedule, default), tree, ring, rd, all-at-once,\n"
    "                    qcdoc (allgather on a torus, all 2D directions at once with --ports 2D;\n"
    "                    docs/qcdoc.md), hnc (allgather with hierarchical network coding on a\n"
    "                    2-D mesh/torus; docs/network-coding.md), combine (the same with message\n"
    "                    combining instead of coding, the paper's Sect. 6.5), innet (reduce and\n"
    "                    allreduce combined in the routers' coding units along a tree:\n"
    "                    mesh, torus, octagon, dragonfly, clos; docs/collectives.md), multicast\n"
    "                    (bcast, allgather and mnb on a clos by hardware multicast through the spines\n"
    "                    the paper's routing control picks; docs/clos.md); allreduce and\n"
    "                    reducescatter: rabenseifner / halving (recursive halving, a power of two\n"
    "                    of terminals; the default there), ring (the default elsewhere),\n"
    "                    reduce-bcast (binomial trees; docs/collectives.md); llf, glf, forest\n"
    "                    (bcast on a dragonfly, topology-aware; docs/dragonfly.md)\n"
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
    "  --alloc random:N[:SEED]  the job: N random terminals (seed 1), in random rank order; the\n"
    "                    first is the root of a bcast unless --from names one; --to is the job\n"
    "  --background RATE[:BYTES]  the terminals outside the collective send BYTES-byte messages\n"
    "                    (1024) to random others of them, RATE flits per cycle each (exponential\n"
    "                    inter-arrival), while it runs (0: none)\n"
    "  --schedule FILE   run this schedule file (xnoc sched -o FILE)\n"
    "  --no-shipped      search a schedule even where schedules/ ships a proven one\n"
    "  --sync M          global (a barrier starts every step, default) or data (data-driven)\n"
    "  --reduce-op OP    the reduce operator of every reduction, in the network or on the cores\n"
    "                    (also --redop): sum, sum64, prod, prod64, min, max, minu, maxu, and, or,\n"
    "                    xor (sum; 32-bit lanes, 64-bit for sum64 and prod64; sums and products\n"
    "                    wrap; min/max signed, minu/maxu unsigned)\n"
    "  --ports k         NI channels per terminal (1)\n" ROUTER_CFG_HELP "  --seed N          data pattern seed (1)\n"
    "  --clock-ratio N   core cycles per network cycle (1)\n"
    "  --max-cycles N    give up after N network cycles (50000000; at least 1)\n"
    "  --watchdog N      fail when every node waits and nothing moved for N cycles (5000; 0 = off)\n"
    "  --spin-watchdog N fail when a core loops N cycles touching no device, no new RAM page and\n"
    "                    no NI while the others wait or have exited (50000; 0 = off)\n"
    "  --trace F.vcd     waveforms of the RTL network during the collective's run\n"
    "                    (--trace-window A:B: cycles [A,B); start_cycle in --json says\n"
    "                    where the timed region begins)\n"
    "  --distribute D    hnc, combine: phase E, the intermediate node's distribution of the other\n"
    "                    groups' bundles: a binomial tree of unicasts (tree, default) or one\n"
    "                    multicast per part and units' packet that the coding units fork (unit:\n"
    "                    build/firmware/coll-mc.elf runs it; every other plan runs on coll.elf)\n"
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
    *n = (int)N;
    return coll_job_random_order(nterms, (int)N, seed);
}

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
        } else if (!strcmp(a, "--max-cycles")) {
            xo->max_cycles = cli_u64(a, argv[++i]);
            if (!xo->max_cycles)
                cli_fail(EXIT_USAGE, "--max-cycles 0: the run would stop before it starts (at least 1)");
        } else if (!strcmp(a, "--trace")) xo->trace_path = argv[++i];
        else if (!strcmp(a, "--events")) {
            c->events_path = argv[i + 1];
            if (xo->events) fclose(xo->events); /* the last --events wins */
            if (!(xo->events = fopen(xo->events_path = argv[++i], "w")))
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

/* --op and --algo against every name the command runs (the schedule
 * engine's, innet's, scan's, multicast's), with a did-you-mean, before
 * anything is built */
static void check_names(const coll_cli *c)
{
    static const char *const ops[] = {"barrier",       "bcast",    "scatter", "gather", "reduce",
                                      "allgather",     "alltoall", "mnb",     "mns",    "allreduce",
                                      "reducescatter", "scan",     "exscan"};
    static const char *const algos[] = {"sched",     "tree",         "ring",    "rd",          "all-at-once", "qcdoc",
                                        "hnc",       "llf",          "glf",     "forest",      "combine",     "innet",
                                        "multicast", "rabenseifner", "halving", "reduce-bcast"};
    const struct {
        const char *opt, *v, *what;
        const char *const *names;
        size_t n;
    } chk[] = {{"--op", c->opname, "collective", ops, sizeof ops / sizeof *ops},
               {"--algo", c->algo_s, "algorithm", algos, sizeof algos / sizeof *algos}};
    for (size_t k = 0; k < 2; k++) {
        if (!chk[k].v) continue;
        size_t i = 0;
        while (i < chk[k].n && strcmp(chk[k].v, chk[k].names[i])) i++;
        if (i < chk[k].n) continue;
        const char *near = suggest_pick(chk[k].v, chk[k].names, chk[k].n);
        char *all = xstrdup("");
        for (i = 0; i < chk[k].n; i++) {
            char *x = xasprintf("%s%s%s", all, i ? ", " : "", chk[k].names[i]);
            free(all);
            all = x;
        }
        cli_fail(EXIT_USAGE, "%s: unknown %s '%s' (%s%s%s%s)", chk[k].opt, chk[k].what, chk[k].v,
                 near ? "did you mean " : "", near ? near : "", near ? "? " : "", all);
    }
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
    ho->unit_mcast = c->dist_s && !strcmp(c->dist_s, "unit"); /* coll-mc.elf runs it (coll_exec.c) */
    if (ho->unit_mcast && !c->co.rc.ncu)
        cli_fail(EXIT_USAGE, "--distribute unit: the routers have no coding units (--router ncu=0)");
}

/* --schedule FILE: the topology and schedule it holds, checked against the options */
static void job_from_file(const coll_cli *c, coll_job *j)
{
    char err[512];
    const char *file = c->file;
    if (coll_job_read(j, file, err, sizeof err)) cli_fail(EXIT_USAGE, "--schedule %s: %s", file, err);
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
    topo *t = topo_parse(c->co.topo, c->co.ports, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    int *order = NULL, norder = 0;
    char *alloc_from = NULL, *alloc_to = NULL;
    if (c->alloc_s) {
        if (to) cli_fail(EXIT_USAGE, "--alloc gives the job: drop --to");
        order = random_alloc(c->alloc_s, t->nterms, &norder);
        coll_job_alloc_sets((coll_op)op, order, norder, from, &alloc_from, &alloc_to);
        from = alloc_from;
        to = alloc_to;
    }
    if (coll_job_sets(j, t, (coll_op)op, from, to, order, norder, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
    if (order && j->s.root >= 0 && !j->s.to[j->s.root] && !j->s.from[j->s.root])
        cli_fail(EXIT_USAGE, "--alloc: the root %d is not in the job", j->s.root);
    free(alloc_from);
    free(alloc_to);
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
    j->ho.bytes = c->bytes < 0 ? 64 : c->bytes;
    coll_job_choice ch = {.use_shipped = c->use_shipped,
                          .search = {.exact = 1,
                                     .moves = c->exact_moves,
                                     .conflicts = c->exact_conflicts,
                                     .time_limit = c->exact_limit,
                                     .seed = 1,
                                     .progress = !c->co.json && cli_progress_enabled()}};
    int st = coll_job_choose(j, &ch, err, sizeof err);
    if (st == COLLRUN_REFUSED) cli_fail(EXIT_USAGE, "--algo %s: %s", c->algo_s, err);
    if (st && j->sr.ended && !strcmp(j->sr.ended, "time"))
        cli_fail(EXIT_RUNFAIL,
                 "out of time: the schedule search's --time-limit %g s passed before its budgets (--moves, "
                 "--conflicts) ran out, so its schedule would depend on the machine's speed: raise "
                 "--time-limit or lower the budgets",
                 j->sr.time_limit);
    if (st) cli_fail(EXIT_RUNFAIL, "%s", err);
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
static void report_steps(json_t *r, const coll_cli *c, const coll_outcome *o, int nterms, int nsteps)
{
    char err[512];
    uint64_t *worst = xcalloc((size_t)nsteps + 1, sizeof *worst), matched, unmatched, sum = 0;
    FILE *f = c->xo.events;
    fflush(f);
    if (c->events_path && !(f = fopen(c->events_path, "r")))
        cli_fail(EXIT_RUNFAIL, "--measure steps: reading %s back: %s", c->events_path, strerror(errno));
    if (coll_step_latencies(f, nterms, o->start_cycle, o->step_cycles, nsteps, worst, &matched, &unmatched, err,
                            sizeof err))
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
    (void)unmatched; /* none but a packet whose injection the events missed */
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
        .xo = {
            .clock_ratio = 1, .bg_bytes = 1024, .sync = SYNC_GLOBAL, .redop = NC_FUNC_ADD32, .max_cycles = 50000000}};
    view_opts_default(&c.vo);
    cmd_opts_init(&c.co, OPT_NET | OPT_SEED);
    {
        char *all = xasprintf("%s%s", usage_text, view_usage); /* the keys a config file may set */
        argv = cmd_config_expand(&argc, argv, all, NULL);
        free(all);
    }
    if (parse_args(argc, argv, &c)) return 0;
    check_names(&c);
    const router_cfg *rc = &c.co.rc;
    coll_exec_opts *xo = &c.xo;
    xo->seed = (uint32_t)c.co.seed;
    if ((!strcmp(c.algo_s, "multicast") || collective_is_software(&c) || collective_is_innet(&c)) && c.measure_s &&
        strcmp(c.measure_s, "makespan"))
        cli_fail(EXIT_USAGE, "--measure %s: not with --algo %s (its own engine)", c.measure_s, c.algo_s);
    if (!strcmp(c.algo_s, "multicast")) return collective_mcast(&c);
    if (c.steps_s) cli_fail(EXIT_USAGE, "--steps is an option of --algo multicast, not --algo %s", c.algo_s);
    if (collective_is_software(&c)) return collective_software(&c);
    if (collective_is_innet(&c)) return collective_innet(&c);
    if (c.redop_s && (xo->redop = nc_redop_parse(c.redop_s)) < 0)
        cli_fail(EXIT_USAGE, "%s: unknown operator '%s' (%s)", c.redop_opt, c.redop_s, NC_REDOP_LIST);
    int measure_steps = check_measure(&c);
    coll_job j = {0};
    check_algo(&c, &j);
    xo->ni_decode = c.decode_s && !strcmp(c.decode_s, "ni");
    build_job(&c, &j);
    coll_sched *s = &j.s;
    int bytes = c.bytes < 0 ? (s->op == OP_BARRIER ? 0 : 64) : c.bytes;
    if (s->op == OP_BARRIER) bytes = 0;
    uint32_t lane = coll_lane_bytes(xo->redop);
    if (s->op == OP_REDUCE && (bytes % (int)lane || bytes == 0))
        cli_fail(EXIT_USAGE, "--bytes %d: --reduce-op %s combines %u-bit lanes, use a multiple of %u", bytes,
                 nc_redop_name(xo->redop), 8 * lane, lane);
    xo->bytes = bytes;

    view *vw = NULL;
    char caption[200];
    snprintf(caption, sizeof caption, "%s %s, %d B", coll_op_name(s->op), coll_algo_name((coll_algo)j.algo), bytes);
    if (view_wanted(&c.vo)) {
        c.vo.title = caption;
        if (!(vw = view_open(j.t, &c.vo, err, sizeof err))) cli_fail(EXIT_USAGE, "%s", err);
    }
    double ts = 0, t1 = 0;
    if (coll_calibrate(j.t, rc, xo->clock_ratio, &ts, &t1, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
    coll_outcome o;
    json_t *links = NULL;
    if (xo->trace_to && !xo->trace_path) cli_fail(EXIT_USAGE, "--trace-window needs --trace F.vcd");
    unsigned char *bg_mask = xo->bg_rate > 0 ? background_mask(s) : NULL;
    xo->bg_mask = bg_mask;
    xo->measured = 1;
    xo->expect_cycles = (uint64_t)(s->nsteps * ts + (double)coll_busiest_volume(s, bytes) * t1); /* the model */
    if (coll_execute(j.t, rc, s, xo, &o, c.co.json ? &links : NULL, vw)) {
        if (o.need_kib) cli_fail(EXIT_USAGE, "--ram %u: %s", xo->ram_kib, o.error);
        cli_fail(EXIT_USAGE, "%s", o.error);
    }
    if (vw) view_close(vw);
    json_t *r = collective_report_sched(&j, rc, xo, &o, ts, t1, links);
    if (measure_steps) report_steps(r, &c, &o, j.s.nterms, j.s.nsteps);
    int rc_exit = collective_report_emit(r, COLL_FAMILY_SCHED, c.co.json);
    if (!rc_exit && o.output_failed) rc_exit = EXIT_RUNFAIL; /* emit printed the error line */
    int ev = cli_out_finish(xo->events);                     /* its last lines were written when the run ended */
    if (!rc_exit && ev) cli_fail(EXIT_RUNFAIL, "--events %s: %s", xo->events_path, strerror(ev));
    free(bg_mask);
    free(o.step_cycles);
    coll_job_free(&j);
    return rc_exit;
}
