/* traffic.c - `xnoc traffic`: its options into traffic_opts, the engine
 * (traffic/traffic.h: synthetic traffic on the RTL network, every flit
 * checked at its destination), then the report, as JSON or as text lines
 * rendered from it. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "util/cli.h"
#include "util/suggest.h"
#include "cmd/booksim_cfg.h"
#include "cmd/cmd_opts.h"
#include "cmd/config_file.h"
#include "cmd/metrics.h"
#include "cmd/cmds.h"
#include "coll/coll.h"
#include "net/links_report.h"
#include "util/report.h"
#include "net/topo.h"
#include "traffic/traffic.h"
#include "traffic/traffic_nc.h"
#include "view/view.h"

static const char *usage_text =
    "usage: xnoc traffic --topo T [--pattern P] [--rate R] [--packet L] [options]\n"
    "\n"
    "Synthetic traffic on the RTL network; every flit is checked at its destination.\n"
    "  --topo T          mesh:AxB..., torus:AxB... (1-6 dimensions), octagon, fat-octagon (suffix :c=N),\n"
    "                    dragonfly:a=A,p=P,h=H[,g=G], clos:m=M,n=N,r=R\n" ROUTER_CFG_HELP
    "  --ports k         injection/ejection channels per terminal (1)\n"
    "  --pattern P       uniform (default; never to the source itself, unlike BookSim2's), transpose,\n"
    "                    bitcomp, neighbor, hotspot (a quarter to terminal 0), hotspot:NODES[:WEIGHTS]\n"
    "                    (BookSim2's: every packet to one of NODES by weight, 0,5:3,1), incast\n"
    "                    (everyone to terminal 0), groupshift (dragonfly: to the same terminal\n"
    "                    of the next group), or allpairs (one packet at a time\n"
    "                    for every src/dst pair: the zero-load latency check), or\n"
    "                    unitpairs (one single-contribution coding group at a time from\n"
    "                    every terminal through every router's coding unit: the unit's\n"
    "                    zero-load latency check; --packet = data flits);\n"
    "                    tornado (each coordinate x of k to x + ceil(k/2) - 1 mod k; octagon,\n"
    "                    dragonfly: terminal i to i + ceil(n/2) - 1 mod n), bitrev (bit-reversed\n"
    "                    terminal number), shuffle (rotated left one bit; both need power-of-two\n"
    "                    terminals), randperm (a random cyclic permutation drawn from --seed)\n"
    "                    multicast:F (each terminal, with probability --rate a cycle, multicasts to F random\n"
    "                    terminals through the coding units, every copy checked; on a clos through\n"
    "                    the stages: the spines the paper's routing control picks, docs/clos.md;\n"
    "                    a request waits at its source until ports and unit slots are free; offered,\n"
    "                    accepted and latency count multicasts, docs/traffic.md)\n"
    "                    allgather:A (A = tree, hnc or combine: the all-to-all broadcast's schedule as\n"
    "                    traffic, no cores: each NI sends its packets in schedule order as soon as it\n"
    "                    holds their data, a datum is one packet of --packet L flits, XORs at the NIs\n"
    "                    (hnc's coding: see --xor);\n"
    "                    reports execution_cycles and the phases, docs/network-coding.md)\n"
    "  --group-shape S   allgather:hnc|combine: GWxGH nodes per group, or best (default)\n"
    "  --in-position P   allgather:hnc|combine: corner, median, boundary or best (xnoc collective)\n"
    "  --xor-overhead N  allgather: cycles an NI takes per XOR (coding, decoding, copying), 0..1000 (1)\n"
    "  --xor X           allgather:hnc: the intermediate node's coding in its router's unit (unit,\n"
    "                    the default with units) or at its NI (ni, the default with --router ncu=0)\n"
    "  --distribute D    allgather:hnc|combine: phase E, each intermediate node's distribution of the\n"
    "                    other groups' bundles: a binomial tree of unicasts (tree, default) or one\n"
    "                    multicast per bundle part that the coding units fork (unit)\n"
    "  --measure M       allgather: makespan (default: data-driven, each send as soon as its data\n"
    "                    is held) or steps (the paper's reading: synchronized steps, and beside the\n"
    "                    run's makespan the sum of each step's worst latency from injection)\n"
    "  --sources SET     only these terminals inject, e.g. 1,2 or 0-7 (all)\n"
    "  --rate R          offered load, flits/terminal/cycle, 0 < R <= 1 (0.1)\n"
    "  --packet L        flits per packet, 1..64 (1); A-B: uniform over A..B; A,B[,...]: each\n"
    "                    length equally likely (1,4: bimodal)\n"
    "  --injection P     bernoulli (default), or onoff:ALPHA,BETA: per terminal a Markov on/off\n"
    "                    process (off->on with probability ALPHA, on->off with BETA per cycle)\n"
    "                    injecting only when on, at the rate that makes the average --rate\n"
    "  --cycles N        measurement window (10000); --warmup N (1000)\n"
    "  --drain N         give up draining after N cycles: saturated (10 x cycles)\n"
    "  --seed S          random seed (1)\n"
    "  --coding R        also start R coding groups per cycle (network-wide): multicasts,\n"
    "                    XOR-coded groups, coded multicasts through the routers' coding\n"
    "                    units, each delivery checked byte for byte (docs/network-coding.md);\n"
    "                    their packets go ahead of the background's source queues, and a group\n"
    "                    whose units have no free slot is dropped (counted)\n"
    "  --trace F.vcd     waveforms; --trace-window A:B limits them to cycles [A,B)\n"
    "  --histogram F.csv latency histogram of the measured packets: bin,count,network,queueing\n"
    "                    (bin: lower edge, cycles; total, network and source-queueing latency)\n"
    "  --histogram-bin W its bin width in cycles (1)\n"
    "  --json            one JSON object on stdout\n"
    "  --config F        options from F, lines key = value (traffic's options, or BookSim2's keys:\n"
    "                    docs/traffic.md); the command line's options override the file's; every\n"
    "                    refusal of the file is listed at once\n"
    "  --config-lenient F  the same, but BookSim2's microarchitecture and simulation-control keys\n"
    "                    are ignored (one warning lists them) and values above xnoc's limits run at\n"
    "                    the limit\n";

/* The --pattern name's number, or exit 2 naming the near miss. */
static int pattern_of(const char *pat, int *fanout, tcoll_opts *co)
{
    *fanout = 0;
    if (!strcmp(pat, "multicast")) cli_fail(EXIT_USAGE, "--pattern multicast: give the fanout, multicast:F");
    if (!strcmp(pat, "allgather") || !strncmp(pat, "allgather:", 10)) {
        const char *a = pat[9] ? pat + 10 : "";
        co->algo = !strcmp(a, "tree")      ? ALGO_TREE
                   : !strcmp(a, "hnc")     ? ALGO_HNC
                   : !strcmp(a, "combine") ? ALGO_COMBINE
                                           : -1;
        if (co->algo < 0)
            cli_fail(EXIT_USAGE, "--pattern %s: %s algorithm (allgather:tree, allgather:hnc or allgather:combine)", pat,
                     *a ? "unknown" : "give the");
        return PAT_ALLGATHER;
    }
    if (!strncmp(pat, "hotspot:", 8)) return PAT_HOTSPOT; /* its nodes: check_on_topo */
    if (!strncmp(pat, "multicast:", 10)) {
        *fanout = (int)cli_long("--pattern multicast:F", pat + 10, 1, 1023);
        return PAT_MULTICAST;
    }
    for (int i = 0; i < NPAT; i++)
        if (!strcmp(pat, traffic_pattern_names[i])) return i;
    const char *near = suggest_pick(pat, traffic_pattern_names, NPAT);
    cli_fail(EXIT_USAGE,
             "--pattern: unknown pattern '%s' (%s%s%suniform, transpose, bitcomp, neighbor, hotspot[:NODES], incast, "
             "allpairs, unitpairs, groupshift, tornado, bitrev, shuffle, randperm, multicast:F, allgather:A)",
             pat, near ? "did you mean " : "", near ? near : "", near ? "? " : "");
}

/* --packet: one length (the house number checks) or a distribution */
static void packet_of(const char *spec, pkt_sizes *z)
{
    if (strchr(spec, ',') || (spec[0] && strchr(spec + 1, '-'))) { /* a distribution */
        const char *zwhy = traffic_sizes_parse(spec, z);
        if (zwhy) cli_fail(EXIT_USAGE, "--packet '%s': %s", spec, zwhy);
    } else {
        memset(z, 0, sizeof *z);
        z->lo = z->hi = (int)cli_long("--packet", spec, 1, 64);
    }
}

/* --injection bernoulli or onoff:ALPHA,BETA into o->alpha, o->beta */
static void injection_of(traffic_opts *o)
{
    const char *injection = o->injection;
    if (!strncmp(injection, "onoff:", 6)) {
        char *e1, *e2;
        double alpha = strtod(injection + 6, &e1);
        double beta = *e1 == ',' ? strtod(e1 + 1, &e2) : (e2 = e1, -1);
        if (*e1 != ',' || *e2 || e1 == injection + 6 || e2 == e1 + 1 || !(alpha > 0 && alpha <= 1) ||
            !(beta >= 0 && beta <= 1))
            cli_fail(EXIT_USAGE,
                     "--injection '%s': expected onoff:ALPHA,BETA (0 < ALPHA <= 1: off->on, 0 <= BETA <= 1: on->off, "
                     "per cycle)",
                     injection);
        double p_on = o->rate / traffic_sizes_mean(&o->sizes) * (alpha + beta) / alpha;
        if (p_on > 1)
            cli_fail(EXIT_USAGE,
                     "--injection %s: --rate %g needs %.3g packets/cycle in the on state (rate * (ALPHA+BETA) / ALPHA "
                     "/ mean packet length): at most 1",
                     injection, o->rate, p_on);
        o->alpha = alpha;
        o->beta = beta;
    } else if (strcmp(injection, "bernoulli")) {
        const char *names[] = {"bernoulli", "onoff"};
        const char *near = suggest_pick(injection, names, 2);
        cli_fail(EXIT_USAGE, "--injection: unknown process '%s' (%s%s%sbernoulli, onoff:ALPHA,BETA)", injection,
                 near ? "did you mean " : "", near ? near : "", near ? "? " : "");
    }
}

/* the options that need no topology: pattern, packet, injection, cycles, trace window */
static void check_plain(traffic_opts *o, const char *pat, const char *window)
{
    o->pattern = pattern_of(pat, &o->fanout, &o->coll);
    packet_of(o->packet_spec, &o->sizes);
    int pairs = o->pattern == PAT_UNITPAIRS || o->pattern == PAT_ALLPAIRS || o->pattern == PAT_ALLGATHER;
    if (o->sizes.lo != o->sizes.hi && pairs)
        cli_fail(EXIT_USAGE, "--packet %s: --pattern %s takes one length", o->packet_spec, pat);
    injection_of(o);
    if (o->alpha && pairs) cli_fail(EXIT_USAGE, "--injection onoff: --pattern %s sends one packet at a time", pat);
    if (o->cycles == 0) cli_fail(EXIT_USAGE, "--cycles: must be at least 1");
    /* so that warmup + cycles + drain cannot wrap */
    if (o->cycles > 1000000000000ull)
        cli_fail(EXIT_USAGE, "--cycles %llu: at most 10^12", (unsigned long long)o->cycles);
    if (o->warmup > 1000000000000ull)
        cli_fail(EXIT_USAGE, "--warmup %llu: at most 10^12", (unsigned long long)o->warmup);
    if (o->drain > 10000000000000ull) cli_fail(EXIT_USAGE, "--drain %llu: at most 10^13", (unsigned long long)o->drain);
    o->trace_from = 0;
    o->trace_to = UINT64_MAX;
    if (window && !o->trace) cli_fail(EXIT_USAGE, "--trace-window needs --trace F.vcd");
    if (window) cli_window("--trace-window", window, &o->trace_from, &o->trace_to);
}

/* --pattern allgather:A and its options (one length, no background options) */
static void check_allgather(traffic_opts *o, const char *pat, const char *shape, const char *inpos, const char *xo,
                            const char *sources, const char *xorw, const char *measure, const char *dist)
{
    int ag = o->pattern == PAT_ALLGATHER, hf = ag && o->coll.algo != ALGO_TREE;
    o->coll.xor_overhead = 1;
    if ((shape || inpos) && !hf)
        cli_fail(EXIT_USAGE, "--group-shape and --in-position are options of --pattern allgather:hnc|combine");
    if (xo && !ag) cli_fail(EXIT_USAGE, "--xor-overhead is an option of --pattern allgather:A");
    if (measure && !ag) cli_fail(EXIT_USAGE, "--measure is an option of --pattern allgather:A");
    if (measure && strcmp(measure, "makespan") && strcmp(measure, "steps"))
        cli_fail(EXIT_USAGE, "--measure '%s': makespan or steps", measure);
    o->coll.sync_steps = measure && !strcmp(measure, "steps");
    if (dist && !hf) cli_fail(EXIT_USAGE, "--distribute is an option of --pattern allgather:hnc|combine");
    if (dist && strcmp(dist, "unit") && strcmp(dist, "tree"))
        cli_fail(EXIT_USAGE, "--distribute '%s': unit or tree", dist);
    o->coll.unit_mcast = dist && !strcmp(dist, "unit");
    if (o->coll.unit_mcast && !o->rc.ncu)
        cli_fail(EXIT_USAGE, "--distribute unit needs routers with coding units (not --router ncu=0)");
    if (o->coll.unit_mcast && o->sizes.hi > o->rc.ncmax)
        cli_fail(EXIT_USAGE, "--packet %d: --distribute unit takes at most the units' %d data flits (--router ncmax)",
                 o->sizes.hi, o->rc.ncmax);
    if (xorw && !(ag && o->coll.algo == ALGO_HNC))
        cli_fail(EXIT_USAGE, "--xor is an option of --pattern allgather:hnc");
    if (xorw && strcmp(xorw, "unit") && strcmp(xorw, "ni")) cli_fail(EXIT_USAGE, "--xor '%s': unit or ni", xorw);
    if (xorw && !strcmp(xorw, "unit") && !o->rc.ncu)
        cli_fail(EXIT_USAGE, "--xor unit needs routers with coding units (not --router ncu=0)");
    o->coll.xor_unit = ag && o->coll.algo == ALGO_HNC && o->rc.ncu && (!xorw || !strcmp(xorw, "unit"));
    if (o->coll.xor_unit && o->sizes.hi > o->rc.ncmax)
        cli_fail(EXIT_USAGE, "--packet %d: --xor unit takes at most the units' %d data flits (--router ncmax)",
                 o->sizes.hi, o->rc.ncmax);
    if (!ag) return;
    if (o->coding) cli_fail(EXIT_USAGE, "--coding does not combine with --pattern %s", pat);
    if (sources) cli_fail(EXIT_USAGE, "--sources does not combine with --pattern %s (every terminal takes part)", pat);
    if (xo) o->coll.xor_overhead = (int)cli_long("--xor-overhead", xo, 0, 1000);
    if (inpos) {
        int p = ncm_in_position_parse(inpos);
        if (p < 0) cli_fail(EXIT_USAGE, "--in-position '%s': corner, median, boundary or best", inpos);
        o->coll.in_pos = (ncm_in_position)p;
    }
    if (shape && strcmp(shape, "best")) {
        long gw, gh;
        cli_pair("--group-shape", shape, 'x', 1, 65536, "GWxGH such as 4x2, or best", &gw, &gh);
        o->coll.gw = (int)gw;
        o->coll.gh = (int)gh;
    }
}

/* the options against the topology and the router: pattern, coding, sources */
/* How many terminals a run may have.  Synthetic unicast traffic under
 * minimal routing needs nothing beyond the head's 12-bit address
 * (firmware/lib/flit.h; the traffic head carries a 12-bit source too,
 * traffic_check.c), so it runs networks up to the address format's 4,095
 * terminals (tests/bignet.t.sh); collectives' schedules, coding-unit
 * traffic and non-minimal routing's 10-bit source keep the harness's 1,024
 * (topo_parse).  Coding units add an address per router: net.c refuses
 * those networks, naming --router ncu=0 as the way out. */
static int traffic_max_terms(const traffic_opts *o)
{
    int plain = o->pattern != PAT_ALLGATHER && o->pattern != PAT_MULTICAST && o->pattern != PAT_UNITPAIRS &&
                !o->coding && o->rc.routing == ROUTING_MIN;
    return plain ? FLIT_MAX_ADDRS : TOPO_MAX_TERMS;
}

/* A network within the address format's limit but not this run's: one line
 * naming the option that keeps the lower one. */
static void too_big(const cmd_opts *co, const traffic_opts *o, const char *pat, const char *err)
{
    char e2[512];
    topo *u = topo_parse_max(co->topo, o->ports, FLIT_MAX_ADDRS, e2, sizeof e2);
    if (!u) cli_fail(EXIT_USAGE, "%s", err);
    int n = u->nterms;
    topo_free(u);
    char *why = o->rc.routing != ROUTING_MIN ? xasprintf("--router routing=%s (a 10-bit source in the head)",
                                                         o->rc.routing == ROUTING_VALIANT ? "valiant" : "ugal")
                : o->coding                  ? xasprintf("--coding")
                                             : xasprintf("--pattern %s", pat);
    cli_fail(EXIT_USAGE,
             "topology '%s' has %d terminals: %s keeps the harness's %d (synthetic unicast patterns with minimal "
             "routing run up to %d)",
             co->topo, n, why, TOPO_MAX_TERMS, FLIT_MAX_ADDRS);
}

static void check_on_topo(traffic_opts *o, const char *pat, const char *sources)
{
    const topo *t = o->t;
    const router_cfg *rc = &o->rc;
    char err[512];
    const char *why = traffic_pattern_check(t, o->pattern);
    if (why) cli_fail(EXIT_USAGE, "--pattern %s: %s", pat, why);
    if (!strncmp(pat, "hotspot:", 8) && (why = traffic_hotspots(pat + 8, t->nterms)))
        cli_fail(EXIT_USAGE, "--pattern %s: %s (%s has %d terminals)", pat, why, t->name, t->nterms);
    traffic_pattern_setup(t, o->pattern, o->seed); /* randperm's mapping, for the senders check (traffic_open
                                                      draws the same again) */
    if (o->coding && !rc->ncu) cli_fail(EXIT_USAGE, "--coding needs routers with coding units (not --router ncu=0)");
    if (o->fanout && !rc->ncu)
        cli_fail(EXIT_USAGE, "--pattern %s needs routers with coding units (not --router ncu=0)", pat);
    if (o->fanout && rc->routing != ROUTING_MIN)
        cli_fail(EXIT_USAGE, "--pattern %s takes minimal routing (NI-framed heads carry no Valiant bits)", pat);
    if (o->fanout && o->coding) cli_fail(EXIT_USAGE, "--coding does not combine with --pattern %s", pat);
    if (o->fanout >= t->nterms)
        cli_fail(EXIT_USAGE, "--pattern %s: fanout %d, but %s has %d other terminals", pat, o->fanout, t->name,
                 t->nterms - 1);
    if ((o->coding || o->pattern == PAT_UNITPAIRS) && rc->routing != ROUTING_MIN)
        cli_fail(EXIT_USAGE,
                 "--coding and unitpairs take minimal routing (their NI-framed heads carry no Valiant bits)");
    if (o->coding && (o->pattern == PAT_ALLPAIRS || o->pattern == PAT_UNITPAIRS))
        cli_fail(EXIT_USAGE, "--coding does not combine with --pattern %s", pat);
    if (o->pattern == PAT_UNITPAIRS && !rc->ncu)
        cli_fail(EXIT_USAGE, "--pattern unitpairs needs routers with coding units (not --router ncu=0)");
    if (o->pattern == PAT_UNITPAIRS && o->sizes.hi > rc->ncmax)
        cli_fail(EXIT_USAGE, "--pattern unitpairs: --packet %d exceeds the units' %d data flits (--router ncmax)",
                 o->sizes.hi, rc->ncmax);
    unsigned char *inject_mask = xmalloc((size_t)t->nterms);
    memset(inject_mask, 1, (size_t)t->nterms);
    if (sources && cli_set(sources, t->nterms, inject_mask, err, sizeof err) < 0)
        cli_fail(EXIT_USAGE, "--sources: %s", err);
    if (o->pattern == PAT_INCAST) inject_mask[0] = 0;                /* the destination itself stays quiet */
    if (o->pattern != PAT_ALLPAIRS && o->pattern != PAT_UNITPAIRS) { /* somebody must have somewhere to send */
        int senders = 0, fixed = traffic_pattern_fixed(o->pattern);
        for (int src = 0; src < t->nterms; src++)
            senders += inject_mask[src] && (fixed ? traffic_dest_of(t, o->pattern, src) != src : t->nterms > 1);
        if (!senders)
            cli_fail(EXIT_USAGE, "--pattern %s%s%s: no source has another terminal to send to: nothing would be sent",
                     pat, sources ? " --sources " : "", sources ? sources : "");
    }
    o->inject_mask = inject_mask;
}

/* The text report: lines rendered from the JSON report o. */
static void print_text(const json_t *o, const traffic_run *r)
{
    int pattern = r->o.pattern, one_at_a_time = traffic_one_at_a_time(r);
    int mc = report_get(o, "offered_multicasts") != NULL;
    report_printf(
        stdout, o,
        mc ? "xnoc traffic: {topology}, router vcs={router.vcs} buf={router.buf}, k={ports}, pattern "
             "{pattern}:{coding.fanout}, payload 1-{coding.max_payload} bytes\n"
           : "xnoc traffic: {topology}, router vcs={router.vcs} buf={router.buf}, k={ports}, pattern {pattern}, "
             "packet {packet} flit(s)");
    if (!mc && report_get(o, "injection")) report_printf(stdout, o, ", injection {injection}"); /* on/off */
    if (!mc) putchar('\n');
    if (pattern == PAT_UNITPAIRS)
        report_printf(stdout, o,
                      "  {pairs} terminal/unit pairs one at a time: the coding unit's zero-load latency deviates "
                      "from\n  3*(H1+H2) + 2*F + xorlat + 3 by at most {zero_load_max_deviation} cycle(s)\n");
    else if (pattern == PAT_ALLPAIRS)
        report_printf(stdout, o,
                      "  {pairs} pairs one at a time: zero-load latency deviates from 1 + 3*H + L - 1 by at most "
                      "{zero_load_max_deviation} cycle(s)\n");
    else if (pattern != PAT_ALLGATHER) {
        report_printf(stdout, o,
                      mc ? "  offered {offered:%.4f}, accepted {throughput:%.4f} multicasts/terminal/cycle"
                         : "  offered {offered:%.3f}, accepted {throughput:%.4f} flits/terminal/cycle");
        if (report_get(o, "coding_throughput"))
            report_printf(stdout, o, " (+ {coding_throughput:%.4f} of coding groups)");
        puts(json_is_true(report_get(o, "drain_timed_out"))
                 ? "  ** SATURATED: measured packets not all delivered in --drain **"
             : json_is_true(report_get(o, "saturated")) ? "  ** SATURATED: accepted less than offered **"
                                                        : "");
    }
    traffic_stats_print(stdout, o, one_at_a_time);
    if (!mc) report_printf(stdout, o, "  avg {avg_hops:%.2f} hops; model excess avg {model_excess_avg:%.2f} cycles\n");
    report_printf(stdout, o,
                  mc ? "  multicasts in the window: {offered_multicasts} offered, {accepted_multicasts} accepted, "
                       "{measured_multicasts} measured; cycles {cycles}; errors {errors}"
                     : "  packets: {created_packets} created, {delivered_packets} delivered, {measured_packets} "
                       "measured; cycles {cycles}; errors {errors}");
    if (report_get(o, "first_error")) report_printf(stdout, o, ": first: {first_error}");
    putchar('\n');
    links_text(stdout, o, 8);
    if (report_get(o, "coding")) nc_gen_text(stdout, report_get(o, "coding"));
    if (report_get(o, "allgather")) tcoll_text(stdout, report_get(o, "allgather"));
    units_text(stdout, o, r->o.t->nterms);
}

int cmd_traffic(int argc, char **argv)
{
    cli_catch_sigint();
    const char *pat = "uniform", *window = NULL, *sources = NULL, *histogram = NULL, *shape = NULL, *inpos = NULL,
               *xo = NULL, *xorw = NULL, *measure = NULL, *dist = NULL;
    uint64_t hist_bin = 1;
    traffic_opts o = {.packet_spec = "1", .injection = "bernoulli", .rate = 0.1, .cycles = 10000, .warmup = 1000};
    char err[512];
    view_opts vo;
    view_opts_default(&vo);
    view *vw = NULL;
    cmd_opts co;
    cmd_opts_init(&co, OPT_NET | OPT_SEED);
    {
        char *all = xasprintf("%s%s", usage_text, view_usage); /* the keys a config file may set */
        argv = cmd_config_expand(&argc, argv, all, &booksim_cfg);
        free(all);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            fputs(view_usage, stdout);
            metrics_help(stdout, "traffic"); /* the report's keys: xnoc sweep checks metrics against them */
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) continue;
        else if (view_cli_arg(&vo, argc, argv, &i)) continue;
        else if (!v) cmd_bad_option(a, usage_text);
        else if (!strcmp(a, "--pattern")) pat = argv[++i];
        else if (!strcmp(a, "--rate")) o.rate = cli_double(a, argv[++i], 1e-9, 1.0);
        else if (!strcmp(a, "--packet")) o.packet_spec = argv[++i];
        else if (!strcmp(a, "--injection")) o.injection = argv[++i];
        else if (!strcmp(a, "--cycles")) o.cycles = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--warmup")) o.warmup = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--drain")) o.drain = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--coding")) o.coding = cli_double(a, argv[++i], 1e-9, 1.0);
        else if (!strcmp(a, "--trace")) o.trace = argv[++i];
        else if (!strcmp(a, "--trace-window")) window = argv[++i];
        else if (!strcmp(a, "--sources")) sources = argv[++i];
        else if (!strcmp(a, "--group-shape")) shape = argv[++i];
        else if (!strcmp(a, "--in-position")) inpos = argv[++i];
        else if (!strcmp(a, "--xor-overhead")) xo = argv[++i];
        else if (!strcmp(a, "--xor")) xorw = argv[++i];
        else if (!strcmp(a, "--measure")) measure = argv[++i];
        else if (!strcmp(a, "--distribute")) dist = argv[++i];
        else if (!strcmp(a, "--histogram")) histogram = argv[++i];
        else if (!strcmp(a, "--histogram-bin")) hist_bin = (uint64_t)cli_long(a, argv[++i], 1, 1000000);
        else cmd_bad_option(a, usage_text);
    }
    o.rc = co.rc;
    o.ports = co.ports;
    o.seed = co.seed;
    if (!co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc traffic --help)");
    check_plain(&o, pat, window);
    check_allgather(&o, pat, shape, inpos, xo, sources, xorw, measure, dist);
    topo *t = topo_parse_max(co.topo, o.ports, traffic_max_terms(&o), err, sizeof err);
    if (!t) too_big(&co, &o, pat, err);
    o.t = t;
    check_on_topo(&o, pat, sources);
    FILE *hist_f = NULL; /* opened before the run: a bad path fails at once */
    if (histogram && !(hist_f = fopen(histogram, "w")))
        cli_fail(EXIT_USAGE, "--histogram %s: %s", histogram, strerror(errno));

    traffic_refusal why;
    traffic_run *r = traffic_open(&o, &why, err, sizeof err);
    if (!r)
        cli_fail(EXIT_USAGE, "%s%s",
                 why == TRAFFIC_OPEN_TRACE       ? "--trace: "
                 : why == TRAFFIC_OPEN_ALLGATHER ? "--pattern allgather: "
                                                 : "",
                 err);
    char title[128];
    snprintf(title, sizeof title, "traffic %s %.2f", traffic_pattern_names[o.pattern], o.rate);
    vo.title = title;
    if (view_wanted(&vo) && !(vw = view_open(t, &vo, err, sizeof err))) cli_fail(EXIT_USAGE, "%s", err);
    traffic_run_loop(r, vw);
    json_t *rep = traffic_report(r);
    if (co.json) {
        json_dumpf(rep, stdout, JSON_COMPACT);
        putchar('\n');
    } else print_text(rep, r);
    json_decref(rep);
    if (hist_f && traffic_histogram_csv(hist_f, &r->s, hist_bin))
        cli_fail(EXIT_RUNFAIL, "--histogram %s: %s", histogram, strerror(errno));
    char verr[600] = ""; /* a picture that could not be written fails the run */
    if (vw) {
        view_sample vs = {.cycle = r->total_cycles, .inj_flits = r->s.inj_flits, .status = "done"};
        view_sample_net(vw, r->s.net, &o.rc, &vs);
        if (r->interrupted == 3 || view_finish(vw, &vs)) snprintf(verr, sizeof verr, "view: %s", view_error(vw));
        view_close(vw);
    }
    int interrupted = r->interrupted ? r->interrupted : verr[0] ? 3 : 0;
    if (verr[0]) cli_error("%s", verr);
    else if (interrupted)
        cli_error("interrupted at cycle %llu (%s)", (unsigned long long)r->total_cycles,
                  interrupted == 2 ? "Ctrl-C" : "view closed");
    int rc_exit = interrupted == 2                             ? cli_signal_status(cli_interrupted)
                  : r->s.errors || interrupted || r->fail_kind ? EXIT_RUNFAIL
                                                               : 0;
    if (r->fail_kind) cli_error("%s", r->fail_msg);
    else if (r->s.errors) cli_error("%llu error(s); first: %s", (unsigned long long)r->s.errors, r->s.first_error);
    traffic_free(r);
    free((void *)o.inject_mask);
    topo_free(t);
    return rc_exit;
}
