/* traffic.c - `xnoc traffic`: BookSim-style synthetic traffic on the RTL
 * network, with every flit checked at its destination.
 *
 * Each terminal creates packets (Bernoulli, `rate` flits/terminal/cycle)
 * into an unbounded source queue; its NI sends them one at a time per
 * injection channel on a class-0 VC, honouring credits.  Packets created in
 * the measurement window are measured; the run drains until every measured
 * packet has arrived (or says it saturated).  Latency runs from creation to
 * the tail's arrival, so it includes source queueing.
 *
 * Payload check: a head carries src, sequence number and length with a
 * checksum in its free bits; body flit i carries hash(src, seq, i).  Any
 * corrupted, misrouted, duplicated, out-of-order or lost flit is an error.
 *
 * Zero-load model (docs/router.md): a packet of L flits crossing H routers
 * arrives 1 + 3*H + L - 1 cycles after it is created: one cycle on the
 * registered NI-to-router link, three per router, then one per body flit.  --pattern allpairs sends
 * one packet at a time for every (src, dst) pair and reports the largest
 * deviation from that model (0 when the RTL matches it exactly).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "../../firmware/lib/ni_regs.h"
#include "util/cli.h"
#include "util/suggest.h"
#include "util/select.h"
#include "cmd/cmd_opts.h"
#include "cmd/cmds.h"
#include "net/links_report.h"
#include "util/report.h"
#include "net/net.h"
#include "net/topo.h"
#include "system/test_hooks.h"
#include "cmd/traffic_nc.h"
#include "cmd/traffic_sim.h"
#include "cmd/traffic_stats.h"
#include "view/view.h"

static const char *usage_text =
    "usage: xnoc traffic --topo T [--pattern P] [--rate R] [--packet L] [options]\n"
    "\n"
    "Synthetic traffic on the RTL network; every flit is checked at its destination.\n"
    "  --topo T          mesh:AxB..., torus:AxB... (1-6 dimensions), octagon, fat-octagon (suffix :c=N),\n"
    "                    dragonfly:a=A,p=P,h=H[,g=G]\n" ROUTER_CFG_HELP
    "  --ports k         injection/ejection channels per terminal (1)\n"
    "  --pattern P       uniform (default), transpose, bitcomp, neighbor, hotspot, incast\n"
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
    "  --json            one JSON object on stdout\n";

/* The report's top-level keys (some only in some runs): `xnoc sweep` checks
 * its metrics against this section of --help (sweep_help_options). */
static const char *report_keys_text =
    "\nReport keys:\n"
    "  topology router ports pattern packet packet_mean packet_lengths injection cycles warmup\n"
    "  measured_cycles offered throughput injection_rate min_latency avg_latency p50_latency p99_latency\n"
    "  max_latency min_network_latency avg_network_latency p50_network_latency p99_network_latency\n"
    "  max_network_latency min_queueing_latency avg_queueing_latency p50_queueing_latency\n"
    "  p99_queueing_latency max_queueing_latency avg_hops min_hops max_hops hops_histogram\n"
    "  nonminimal_packets model_excess_avg model_excess_max created_packets injected_packets\n"
    "  delivered_packets measured_packets errors interrupted error_kinds first_error saturated\n"
    "  drain_timed_out pairs zero_load_max_deviation zero_load_total_deviation links link_stalls\n"
    "  max_link_stalls occupancy_samples occupancy_every avg_vc_occupancy max_link_occupancy xor_ops\n"
    "  coded_packets mc_copies units coding terminals\n";

/* Names the first router port/VC holding flits, for the watchdog. */
static int describe_stall(sim *s, char *buf, size_t len)
{
    if (links_first_held(s->t, s->net, s->rc.vcs, buf, len)) return 1;
    snprintf(buf, len, "no router holds flits (they wait in the NIs)");
    return 0;
}

/* The q-quantile of v[0..n) (the ceil(q n)-th smallest; v is reordered). */
static double percentile(uint64_t *v, size_t n, double q)
{
    if (!n) return 0;
    size_t i = (size_t)ceil(q * (double)n);
    if (i > 0) i--;
    if (i >= n) i = n - 1;
    return (double)select_kth_u64(v, n, i);
}

int cmd_traffic(int argc, char **argv)
{
    cli_catch_sigint();
    const char *spec = NULL, *pat = NULL, *trace = NULL, *window = NULL, *sources = NULL, *histogram = NULL;
    uint64_t hist_bin = 1;
    const char *packet_spec = "1", *injection = "bernoulli";
    pkt_sizes sizes;
    double alpha = 0, beta = 0; /* --injection onoff:ALPHA,BETA */
    router_cfg rc;
    router_cfg_default(&rc);
    int k = 1, json = 0, len = 1;
    double rate = 0.1, coding = 0;
    uint64_t cycles = 10000, warmup = 1000, drain = 0, seed = 1;
    char err[512];
    view_opts vo;
    view_opts_default(&vo);
    view *vw = NULL;
    int interrupted = 0;
    cmd_opts co;
    cmd_opts_init(&co, OPT_NET | OPT_SEED);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            fputs(view_usage, stdout);
            fputs(report_keys_text, stdout);
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) continue;
        else if (view_cli_arg(&vo, argc, argv, &i)) continue;
        else if (!v) cmd_bad_option(a, usage_text);
        else if (!strcmp(a, "--pattern")) pat = argv[++i];
        else if (!strcmp(a, "--rate")) rate = cli_double(a, argv[++i], 1e-9, 1.0);
        else if (!strcmp(a, "--packet")) packet_spec = argv[++i];
        else if (!strcmp(a, "--injection")) injection = argv[++i];
        else if (!strcmp(a, "--cycles")) cycles = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--warmup")) warmup = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--drain")) drain = cli_u64(a, argv[++i]);
        else if (!strcmp(a, "--coding")) coding = cli_double(a, argv[++i], 1e-9, 1.0);
        else if (!strcmp(a, "--trace")) trace = argv[++i];
        else if (!strcmp(a, "--trace-window")) window = argv[++i];
        else if (!strcmp(a, "--sources")) sources = argv[++i];
        else if (!strcmp(a, "--histogram")) histogram = argv[++i];
        else if (!strcmp(a, "--histogram-bin")) hist_bin = (uint64_t)cli_long(a, argv[++i], 1, 1000000);
        else cmd_bad_option(a, usage_text);
    }
    spec = co.topo;
    rc = co.rc;
    k = co.ports;
    json = co.json;
    seed = co.seed;
    if (!spec) cli_fail(EXIT_USAGE, "--topo is required (see xnoc traffic --help)");
    if (!pat) pat = "uniform";
    int pattern = -1;
    for (int i = 0; i < NPAT; i++)
        if (!strcmp(pat, traffic_pattern_names[i])) pattern = i;
    if (pattern < 0) {
        const char *near = suggest_pick(pat, traffic_pattern_names, NPAT);
        cli_fail(EXIT_USAGE,
                 "--pattern: unknown pattern '%s' (%s%s%suniform, transpose, bitcomp, neighbor, hotspot, incast, "
                 "allpairs, unitpairs, groupshift, tornado, bitrev, shuffle, randperm)",
                 pat, near ? "did you mean " : "", near ? near : "", near ? "? " : "");
    }
    if (strchr(packet_spec, ',') || (packet_spec[0] && strchr(packet_spec + 1, '-'))) { /* a distribution */
        const char *zwhy = traffic_sizes_parse(packet_spec, &sizes);
        if (zwhy) cli_fail(EXIT_USAGE, "--packet '%s': %s", packet_spec, zwhy);
    } else { /* one length: the house number checks */
        memset(&sizes, 0, sizeof sizes);
        sizes.lo = sizes.hi = (int)cli_long("--packet", packet_spec, 1, 64);
    }
    len = sizes.hi;
    int fixed_len = sizes.lo == sizes.hi;
    if (!fixed_len && (pattern == PAT_UNITPAIRS || pattern == PAT_ALLPAIRS))
        cli_fail(EXIT_USAGE, "--packet %s: --pattern %s takes one length", packet_spec, pat);
    if (!strncmp(injection, "onoff:", 6)) {
        char *e1, *e2;
        alpha = strtod(injection + 6, &e1);
        beta = *e1 == ',' ? strtod(e1 + 1, &e2) : (e2 = e1, -1);
        if (*e1 != ',' || *e2 || e1 == injection + 6 || e2 == e1 + 1 || !(alpha > 0 && alpha <= 1) ||
            !(beta >= 0 && beta <= 1))
            cli_fail(EXIT_USAGE,
                     "--injection '%s': expected onoff:ALPHA,BETA (0 < ALPHA <= 1: off->on, 0 <= BETA <= 1: on->off, "
                     "per cycle)",
                     injection);
        double p_on = rate / traffic_sizes_mean(&sizes) * (alpha + beta) / alpha;
        if (p_on > 1)
            cli_fail(EXIT_USAGE,
                     "--injection %s: --rate %g needs %.3g packets/cycle in the on state (rate * (ALPHA+BETA) / ALPHA "
                     "/ mean packet length): at most 1",
                     injection, rate, p_on);
    } else if (strcmp(injection, "bernoulli")) {
        const char *names[] = {"bernoulli", "onoff"};
        const char *near = suggest_pick(injection, names, 2);
        cli_fail(EXIT_USAGE, "--injection: unknown process '%s' (%s%s%sbernoulli, onoff:ALPHA,BETA)", injection,
                 near ? "did you mean " : "", near ? near : "", near ? "? " : "");
    }
    if (alpha && (pattern == PAT_UNITPAIRS || pattern == PAT_ALLPAIRS))
        cli_fail(EXIT_USAGE, "--injection onoff: --pattern %s sends one packet at a time", pat);
    if (cycles == 0) cli_fail(EXIT_USAGE, "--cycles: must be at least 1");
    /* so that warmup + cycles + drain cannot wrap */
    if (cycles > 1000000000000ull) cli_fail(EXIT_USAGE, "--cycles %llu: at most 10^12", (unsigned long long)cycles);
    if (warmup > 1000000000000ull) cli_fail(EXIT_USAGE, "--warmup %llu: at most 10^12", (unsigned long long)warmup);
    if (drain > 10000000000000ull) cli_fail(EXIT_USAGE, "--drain %llu: at most 10^13", (unsigned long long)drain);
    uint64_t tfrom = 0, tto = UINT64_MAX;
    if (window && !trace) cli_fail(EXIT_USAGE, "--trace-window needs --trace F.vcd");
    if (window) cli_window("--trace-window", window, &tfrom, &tto);
    topo *t = topo_parse(spec, k, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    const char *why = traffic_pattern_check(t, pattern);
    if (why) cli_fail(EXIT_USAGE, "--pattern %s: %s", pat, why);
    traffic_pattern_setup(t, pattern, seed);
    if (!drain) drain = 10 * cycles + 10000;
    if (coding && !rc.ncu) cli_fail(EXIT_USAGE, "--coding needs routers with coding units (not --router ncu=0)");
    if ((coding || pattern == PAT_UNITPAIRS) && rc.routing != ROUTING_MIN)
        cli_fail(EXIT_USAGE,
                 "--coding and unitpairs take minimal routing (their NI-framed heads carry no Valiant bits)");
    if (coding && (pattern == PAT_ALLPAIRS || pattern == PAT_UNITPAIRS))
        cli_fail(EXIT_USAGE, "--coding does not combine with --pattern %s", pat);
    if (pattern == PAT_UNITPAIRS && !rc.ncu)
        cli_fail(EXIT_USAGE, "--pattern unitpairs needs routers with coding units (not --router ncu=0)");
    if (pattern == PAT_UNITPAIRS && len > rc.ncmax)
        cli_fail(EXIT_USAGE, "--pattern unitpairs: --packet %d exceeds the units' %d data flits (--router ncmax)", len,
                 rc.ncmax);
    unsigned char *inject_mask = xmalloc((size_t)t->nterms);
    memset(inject_mask, 1, (size_t)t->nterms);
    if (sources && cli_set(sources, t->nterms, inject_mask, err, sizeof err) < 0)
        cli_fail(EXIT_USAGE, "--sources: %s", err);
    if (pattern == PAT_INCAST) inject_mask[0] = 0;             /* the destination itself stays quiet */
    if (pattern != PAT_ALLPAIRS && pattern != PAT_UNITPAIRS) { /* somebody must have somewhere to send */
        int senders = 0, fixed = traffic_pattern_fixed(pattern);
        for (int src = 0; src < t->nterms; src++)
            senders += inject_mask[src] && (fixed ? traffic_dest_of(t, pattern, src) != src : t->nterms > 1);
        if (!senders)
            cli_fail(EXIT_USAGE, "--pattern %s%s%s: no source has another terminal to send to: nothing would be sent",
                     pat, sources ? " --sources " : "", sources ? sources : "");
    }

    FILE *hist_f = NULL; /* opened before the run: a bad path fails at once */
    if (histogram && !(hist_f = fopen(histogram, "w")))
        cli_fail(EXIT_USAGE, "--histogram %s: %s", histogram, strerror(errno));
    sim S = {.t = t,
             .rc = rc,
             .pattern = pattern,
             .len = len,
             .sizes = sizes,
             .rate = rate,
             .warmup = warmup,
             .window = cycles,
             .drain = drain};
    sim *s = &S;
    s->no_eject_credit = getenv("XNOC_TEST_NO_EJECT_CREDIT") != NULL;
    s->hooks = xcalloc((size_t)t->nterms, sizeof *s->hooks);
    for (int term = 0; term < t->nterms; term++) test_hooks_init(&s->hooks[term], term);
    s->spurious_credit = getenv("XNOC_TEST_SPURIOUS_CREDIT") != NULL;
    s->spurious_inj_credit = getenv("XNOC_TEST_SPURIOUS_INJ_CREDIT") != NULL;
    s->net = net_open(t, &rc, 1, err, sizeof err);
    if (!s->net) cli_fail(EXIT_USAGE, "%s", err);
    if (trace && net_trace(s->net, trace, tfrom, tto, err, sizeof err)) cli_fail(EXIT_USAGE, "--trace: %s", err);
    char title[128];
    snprintf(title, sizeof title, "traffic %s %.2f", traffic_pattern_names[pattern], rate);
    vo.title = title;
    if (view_wanted(&vo) && !(vw = view_open(t, &vo, err, sizeof err))) cli_fail(EXIT_USAGE, "%s", err);
    traffic_seed(seed);
    if (coding || pattern == PAT_UNITPAIRS) s->nc = nc_gen_new(t, &rc, coding, seed);
    int n = t->nterms;
    s->nch = n * k;
    s->inj = xcalloc((size_t)s->nch, sizeof *s->inj);
    s->ej = xcalloc((size_t)s->nch, sizeof *s->ej);
    s->ejc = xcalloc((size_t)s->nch, sizeof *s->ejc);
    s->injc = xcalloc((size_t)s->nch, sizeof *s->injc);
    s->ep = xcalloc((size_t)s->nch, sizeof *s->ep);
    for (int ch = 0; ch < s->nch; ch++) ep_init(&s->ep[ch], rc.vcs, rc.buf);
    s->is = xcalloc((size_t)s->nch, sizeof *s->is);
    s->es = xcalloc((size_t)s->nch * (size_t)rc.vcs, sizeof *s->es);
    s->inj_flits = xcalloc((size_t)s->nch, sizeof *s->inj_flits);
    s->src_window_flits = xcalloc((size_t)n, sizeof *s->src_window_flits);
    s->queue = xcalloc((size_t)n, sizeof *s->queue);
    s->queue_head = xcalloc((size_t)n, sizeof *s->queue_head);
    s->qlen = xcalloc((size_t)n, sizeof *s->qlen);
    s->qcap = xcalloc((size_t)n, sizeof *s->qcap);
    s->ncq = xcalloc((size_t)n, sizeof *s->ncq);
    s->ncq_head = xcalloc((size_t)n, sizeof *s->ncq_head);
    s->ncq_len = xcalloc((size_t)n, sizeof *s->ncq_len);
    s->ncq_cap = xcalloc((size_t)n, sizeof *s->ncq_cap);
    s->by_src = xcalloc((size_t)n, sizeof *s->by_src);
    s->by_src_n = xcalloc((size_t)n, sizeof *s->by_src_n);
    s->by_src_cap = xcalloc((size_t)n, sizeof *s->by_src_cap);

    /* allpairs: one packet at a time, every ordered pair, in a fixed order */
    int ap_src = 0, ap_dst = 0, ap_busy = 0;
    uint64_t ap_pairs = 0, ap_max_dev = 0, ap_sum_dev = 0;
    if (pattern == PAT_ALLPAIRS || pattern == PAT_UNITPAIRS) {
        s->warmup = 0;
        s->window = UINT64_MAX / 4;
    }

    traffic_occ occ;
    traffic_occ_init(&occ, t);
    double p_new = rate / traffic_sizes_mean(&sizes), p_on = alpha ? p_new * (alpha + beta) / alpha : 0;
    /* on/off: each terminal's state, started from the stationary distribution P(on) = alpha / (alpha + beta) */
    unsigned char *on = xcalloc((size_t)n, 1);
    for (int src = 0; src < n && alpha; src++) on[src] = traffic_rng_unit() < alpha / (alpha + beta);
    uint64_t now = 0, end_measure = s->warmup + s->window, last_move = 0, deadline = end_measure + drain;
    int saturated = 0, stalled = 0, net_held = 0;
    char stall_msg[700] = "";
    double run_t0 = cli_now();
    for (;; now++) {
        s->now = now;
        /* 1. flits and credits the network presents in this cycle */
        if (s->spurious_inj_credit && now == 0) s->injc[0] = (xnoc_credit){.valid = 1, .vc = 0};
        for (int ch = 0; ch < s->nch; ch++) {
            if (s->ej[ch].valid) {
                traffic_receive(s, ch, &s->ej[ch], now);
                last_move = now;
            }
            if (s->injc[ch].valid && !ep_credit_in(&s->ep[ch], &s->injc[ch]))
                traffic_error(s, &s->err_corrupt, "cycle %llu: credit overflow on injection channel %d VC %d",
                              (unsigned long long)now, ch, s->injc[ch].vc);
            ep_credit_out(&s->ep[ch], &s->ejc[ch]); /* for the flit just taken, or none */
        }
        /* 2. new packets */
        if (pattern == PAT_ALLPAIRS) {
            if (ap_busy && s->pk.v[s->pk.n - 1].done) {
                packet *p = &s->pk.v[s->pk.n - 1];
                int H = traffic_packet_hops(t, p) + 1;
                uint64_t model = 1 + 3 * (uint64_t)H + (uint64_t)(p->len - 1), lat = p->arrived - p->created;
                uint64_t dev = lat > model ? lat - model : model - lat;
                ap_sum_dev += dev;
                if (dev > ap_max_dev) ap_max_dev = dev;
                ap_pairs++;
                ap_busy = 0;
            }
            if (!ap_busy) {
                if (ap_src >= n) break;
                traffic_create(s, ap_src, ap_dst, now, 1);
                traffic_index_packet(s, s->pk.n - 1);
                ap_busy = 1;
                if (++ap_dst == n) {
                    ap_dst = 0;
                    ap_src++;
                }
            }
        } else if (pattern == PAT_UNITPAIRS) {
            if (!nc_gen_busy(s->nc)) { /* terminal ap_src through unit ap_dst, to the next terminal */
                if (ap_src >= n) break;
                nc_gen_probe(s->nc, now, ap_src, ap_dst,
                             (ap_src + 1 + ap_dst) % n == ap_src ? (ap_src + 1) % n : (ap_src + 1 + ap_dst) % n, len,
                             traffic_create_nc, s);
                if (++ap_dst == t->nrouters) {
                    ap_dst = 0;
                    ap_src++;
                }
            }
        } else if (now < deadline && !(now >= end_measure && s->measured_done == s->measured_total)) {
            for (int src = 0; src < n; src++) {
                if (alpha) { /* Markov on/off: a transition, then Bernoulli at p_on while on */
                    double u = traffic_rng_unit();
                    on[src] = on[src] ? u >= beta : u < alpha;
                    if (!on[src]) continue;
                }
                if (traffic_rng_unit() < (alpha ? p_on : p_new) && inject_mask[src]) {
                    traffic_create(s, src, traffic_dest_of(t, pattern, src), now,
                                   now >= s->warmup && now < end_measure);
                    traffic_index_packet(s, s->pk.n - 1);
                }
            }
            if (s->nc && now < end_measure) nc_gen_step(s->nc, now, traffic_create_nc, s);
        }
        if (s->spurious_credit && now == 5) { /* the router's ejection credits now exceed its view of buf */
            s->ejc[0].valid = 1;
            s->ejc[0].vc = 0;
        }
        /* 3. injection */
        traffic_inject(s, now);
        for (int ch = 0; ch < s->nch; ch++)
            if (s->inj[ch].valid) last_move = now;
        /* 4. one network cycle */
        net_cycle(s->net, s->inj, s->ejc, s->ej, s->injc);
        traffic_occ_sample(&occ, s, now);
        if (vw && view_due(vw, now)) {
            view_sample vs = {.cycle = now, .inj_flits = s->inj_flits, .status = traffic_pattern_names[pattern]};
            view_sample_net(vw, s->net, &rc, &vs);
            if (view_update(vw, &vs) == VIEW_QUIT) {
                interrupted = 1;
                break;
            }
        }

        /* After the last measured packet: no new packets, packets not yet
         * started never enter the network, the rest drains completely. */
        if (pattern != PAT_ALLPAIRS && pattern != PAT_UNITPAIRS && now + 1 >= deadline) saturated = 1;
        if (pattern != PAT_ALLPAIRS &&
            ((now + 1 >= end_measure && s->measured_done == s->measured_total) || saturated)) {
            for (int term = 0; term < n; term++) { /* coding-group packets (their own queue) still go */
                for (size_t q = s->queue_head[term]; q < s->qlen[term]; q++) s->pk.v[s->queue[term][q]].dropped = 1;
                s->qlen[term] = s->queue_head[term];
            }
            int busy = s->in_flight > 0 || (s->nc && nc_gen_busy(s->nc));
            for (int term = 0; term < n && !busy; term++)
                busy = s->queue_head[term] < s->qlen[term] || s->ncq_head[term] < s->ncq_len[term];
            for (int ch = 0; ch < s->nch && !busy; ch++) busy = s->is[ch].active;
            if (!busy) break;
        }
        /* saturated: the drain ran out of time; what was sent still drains
         * (above), so that a packet that never arrives is known to be lost */
        if ((s->in_flight || (s->nc && nc_gen_busy(s->nc))) && now - last_move > 2000) {
            stalled = 1;
            net_held = describe_stall(s, stall_msg, sizeof stall_msg);
            if (s->nc && nc_gen_busy(s->nc)) {
                size_t l = strlen(stall_msg);
                snprintf(stall_msg + l, sizeof stall_msg - l, "; ");
                nc_gen_describe_pending(s->nc, stall_msg + l + 2, sizeof stall_msg - l - 2);
            }
            break;
        }
        if (now - s->last_progress >= 4096) {
            s->last_progress = now;
            char rate[80];
            uint64_t target = now < end_measure ? end_measure : now;
            cli_progress("cycle %llu of %llu%s: %llu/%llu measured packets delivered, %s", (unsigned long long)now,
                         (unsigned long long)end_measure, now >= end_measure ? " (draining)" : "",
                         (unsigned long long)s->measured_done, (unsigned long long)s->measured_total,
                         cli_rate_eta(now, target, run_t0, rate, sizeof rate));
        }
        if (cli_interrupted) { /* Ctrl-C: stop and report what was measured */
            interrupted = 2;
            break;
        }
    }
    cli_progress_done();
    uint64_t total_cycles = now + 1;
    if (interrupted && now < s->warmup + s->window) /* the figures describe the cycles that ran */
        s->window = now > s->warmup ? now - s->warmup : 0;
    if (stalled && !net_held) {
        /* nothing in the network, nothing moving, flits owed: they were lost */
        for (size_t i = 0; i < s->pk.n; i++) {
            packet *p = &s->pk.v[i];
            if (p->sent && !p->done && !p->lost && !p->flits)
                traffic_lose(s, p, p->got, p->len, now, "never arrived, and the network is empty");
        }
        stalled = s->in_flight > 0 || (s->nc && nc_gen_busy(s->nc));
    }
    int rtl_err = net_error(s->net);
    if (rtl_err) {
        net_describe_error(s->net, s->first_error, sizeof s->first_error);
        if (s->nc && strstr(s->first_error, "time-out")) { /* whether source queueing could explain it */
            size_t l = strlen(s->first_error);
            snprintf(s->first_error + l, sizeof s->first_error - l,
                     "; coding packets waited at most %llu cycles at their sources",
                     (unsigned long long)s->nc_wait_max);
        }
    }
    if (stalled && !s->errors) {
        /* a stall after an RTL invariant broke: the broken invariant is the news */
        if (rtl_err)
            cli_fail(EXIT_RUNFAIL, "deadlock or stall at cycle %llu after an RTL error: %s", (unsigned long long)now,
                     s->first_error);
        cli_fail(EXIT_RUNFAIL, "deadlock or stall at cycle %llu: no flit moved for 2000 cycles with %llu in flight; %s",
                 (unsigned long long)now, (unsigned long long)s->in_flight, stall_msg);
    }
    if (rtl_err) s->errors++;
    /* lost: measured packets that never arrived, in a run that drained */
    if (!stalled && !interrupted)
        for (size_t i = 0; i < s->pk.n; i++)
            if (!s->pk.v[i].dropped && !s->pk.v[i].done && !s->pk.v[i].flits && !s->pk.v[i].lost)
                traffic_error(s, &s->err_lost, "packet %d#%u (%d -> %d) was lost", s->pk.v[i].src, s->pk.v[i].seq,
                              s->pk.v[i].src, s->pk.v[i].dst);
    if (!stalled && !interrupted && s->nc && nc_gen_busy(s->nc)) {
        char why[400];
        nc_gen_describe_pending(s->nc, why, sizeof why);
        traffic_error(s, &s->err_lost, "%s", why);
    }

    /* statistics over measured, delivered packets */
    uint64_t *lat = xmalloc((s->pk.n + 1) * sizeof *lat), nl = 0, hops = 0, nonmin = 0, lat_max = 0;
    double lat_sum = 0, dev_sum = 0;
    int64_t dev_max = 0;
    for (size_t i = 0; i < s->pk.n; i++) {
        packet *p = &s->pk.v[i];
        if (!p->measured || !p->done) continue;
        uint64_t l = p->arrived - p->created;
        int h = traffic_packet_hops(t, p);
        nonmin += p->val;
        uint64_t model = 1 + 3 * (uint64_t)(h + 1) + (uint64_t)(p->len - 1);
        lat[nl++] = l;
        if (l > lat_max) lat_max = l;
        lat_sum += (double)l;
        hops += (uint64_t)h;
        int64_t dev = (int64_t)l - (int64_t)model;
        dev_sum += (double)dev;
        if (dev > dev_max) dev_max = dev;
    }
    double avg = nl ? lat_sum / (double)nl : 0, p99 = percentile(lat, nl, 0.99), mx = (double)lat_max;
    int one_at_a_time = pattern == PAT_ALLPAIRS || pattern == PAT_UNITPAIRS;
    double offered = one_at_a_time ? 0 : rate;
    double thru = one_at_a_time ? 0 : (double)s->window_flits / ((double)s->window * n);
    /* saturated: the injecting terminals' flits accepted in the window fall
     * short of what they offered by more than 5% and by more than three
     * standard deviations of the Bernoulli injection (so that a short, light
     * run is not called saturated by chance), or the drain timed out */
    int drain_timed_out = saturated;
    {
        uint64_t got = 0;
        int nsrc = 0;
        for (int src = 0; src < n; src++)
            if (inject_mask[src]) {
                got += s->src_window_flits[src];
                nsrc++;
            }
        double expect = rate * (double)s->window * nsrc, short_by = expect - (double)got;
        if (!one_at_a_time && nsrc && short_by > 0.05 * expect && short_by > 3 * sqrt(expect)) saturated = 1;
    }

    /* One report: the JSON object holds every figure; the text lines are
     * templates over it (util/report.h), so the two never disagree. */
    json_t *o = json_object();
    json_object_set_new(o, "topology", json_string(t->name));
    json_t *rj = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "vcs", rc.vcs, "buf", rc.buf, "pw", LINK_PAYLOAD_W, "ncu",
                           rc.ncu, "slots", rc.slots, "xorlat", rc.xorlat, "ncmax", rc.ncmax);
    if (rc.routing != ROUTING_MIN)
        json_object_set_new(rj, "routing", json_string(rc.routing == ROUTING_VALIANT ? "valiant" : "ugal"));
    if (rc.threads > 1) json_object_set_new(rj, "threads", json_integer(rc.threads));
    json_object_set_new(o, "router", rj);
    json_object_set_new(o, "ports", json_integer(k));
    json_object_set_new(o, "pattern", json_string(traffic_pattern_names[pattern]));
    if (fixed_len) json_object_set_new(o, "packet", json_integer(len));
    else { /* a distribution: its spec, and the mean length */
        json_object_set_new(o, "packet", json_string(packet_spec));
        json_object_set_new(o, "packet_mean", json_real(traffic_sizes_mean(&sizes)));
        json_t *lh = json_array(); /* [L]: measured packets of L flits */
        for (int l = 0; l <= len; l++) {
            uint64_t c = 0;
            for (size_t i = 0; i < s->pk.n; i++) c += s->pk.v[i].measured && !s->pk.v[i].flits && s->pk.v[i].len == l;
            json_array_append_new(lh, json_integer((json_int_t)c));
        }
        json_object_set_new(o, "packet_lengths", lh);
    }
    if (alpha) json_object_set_new(o, "injection", json_string(injection));
    json_object_set_new(o, "cycles", json_integer((json_int_t)total_cycles));
    json_object_set_new(o, "warmup", json_integer((json_int_t)s->warmup));
    json_object_set_new(o, "measured_cycles",
                        json_integer(one_at_a_time ? (json_int_t)total_cycles : (json_int_t)s->window));
    json_object_set_new(o, "offered", json_real(offered));
    json_object_set_new(o, "throughput", json_real(thru));
    json_object_set_new(o, "avg_latency", json_real(avg));
    json_object_set_new(o, "p99_latency", json_real(p99));
    json_object_set_new(o, "max_latency", json_real(mx));
    json_object_set_new(o, "avg_hops", json_real(nl ? (double)hops / (double)nl : 0));
    if (rc.routing != ROUTING_MIN) /* measured packets that took the Valiant path */
        json_object_set_new(o, "nonminimal_packets", json_integer((json_int_t)nonmin));
    json_object_set_new(o, "model_excess_avg", json_real(nl ? dev_sum / (double)nl : 0));
    json_object_set_new(o, "model_excess_max", json_integer((json_int_t)dev_max));
    uint64_t delivered = 0, entered = 0, created = 0;
    for (size_t i = 0; i < s->pk.n; i++) { /* background packets; coding groups are under "coding" */
        if (s->pk.v[i].flits) continue;
        created++; /* injected: those that entered the network (the rest were still queued at the end) */
        delivered += s->pk.v[i].done;
        entered += !s->pk.v[i].dropped;
    }
    json_object_set_new(o, "created_packets", json_integer((json_int_t)created));
    json_object_set_new(o, "injected_packets", json_integer((json_int_t)entered));
    json_object_set_new(o, "delivered_packets", json_integer((json_int_t)delivered));
    json_object_set_new(o, "measured_packets", json_integer((json_int_t)s->measured_total));
    json_object_set_new(o, "errors", json_integer((json_int_t)s->errors));
    if (interrupted) json_object_set_new(o, "interrupted", json_true());
    json_object_set_new(o, "error_kinds",
                        json_pack("{s:I,s:I,s:I,s:I,s:I,s:b}", "corrupted", (json_int_t)s->err_corrupt, "misrouted",
                                  (json_int_t)s->err_misroute, "duplicated", (json_int_t)s->err_dup, "out_of_order",
                                  (json_int_t)s->err_order, "lost", (json_int_t)s->err_lost, "rtl_invariant", rtl_err));
    if (s->first_error[0]) json_object_set_new(o, "first_error", json_string(s->first_error));
    json_object_set_new(o, "saturated", json_boolean(saturated));
    json_object_set_new(o, "drain_timed_out", json_boolean(drain_timed_out));
    if (pattern == PAT_UNITPAIRS) nc_gen_probe_result(s->nc, &ap_pairs, &ap_max_dev, &ap_sum_dev);
    if (one_at_a_time) {
        json_object_set_new(o, "pairs", json_integer((json_int_t)ap_pairs));
        json_object_set_new(o, "zero_load_max_deviation", json_integer((json_int_t)ap_max_dev));
        json_object_set_new(o, "zero_load_total_deviation", json_integer((json_int_t)ap_sum_dev));
    }
    json_object_set_new(o, "links", links_json(t, s->net, s->inj_flits, total_cycles));
    traffic_stats_json(o, s, &occ, rc.vcs, one_at_a_time);
    units_json(o, t, s->net);
    if (s->nc) {
        nc_gen_json(s->nc, o);
        json_object_set_new(json_object_get(o, "coding"), "max_source_wait", json_integer((json_int_t)s->nc_wait_max));
    }
    /* per source: accepted flits/cycle in the window (fairness), latency */
    json_t *terms = json_array();
    for (int src = 0; src < n; src++) {
        double ls = 0;
        uint64_t ln = 0;
        for (size_t q = 0; q < s->by_src_n[src]; q++) {
            packet *p = &s->pk.v[s->by_src[src][q]];
            if (p->measured && p->done) {
                ls += (double)(p->arrived - p->created);
                ln++;
            }
        }
        json_array_append_new(
            terms, json_pack("{s:i,s:b,s:f,s:I,s:f}", "terminal", src, "injects", inject_mask[src], "accepted",
                             one_at_a_time ? 0.0 : (double)s->src_window_flits[src] / (double)s->window,
                             "measured_packets", (json_int_t)ln, "avg_latency", ln ? ls / (double)ln : 0.0));
    }
    if (traffic_pattern_fixed(pattern)) {                      /* the mapping each source sends to */
        for (size_t ti = 0; ti < json_array_size(terms); ti++) /* (no jansson foreach: cppcheck) */
            json_object_set_new(json_array_get(terms, ti), "dest", json_integer(traffic_dest_of(t, pattern, (int)ti)));
    }
    json_object_set_new(o, "terminals", terms);
    if (json) {
        json_dumpf(o, stdout, JSON_COMPACT);
        putchar('\n');
    } else {
        report_printf(
            stdout, o,
            "xnoc traffic: {topology}, router vcs={router.vcs} buf={router.buf}, k={ports}, pattern {pattern}, "
            "packet {packet} flit(s)\n");
        if (pattern == PAT_UNITPAIRS)
            report_printf(stdout, o,
                          "  {pairs} terminal/unit pairs one at a time: the coding unit's zero-load latency deviates "
                          "from\n  3*(H1+H2) + 2*F + xorlat + 3 by at most {zero_load_max_deviation} cycle(s)\n");
        else if (pattern == PAT_ALLPAIRS)
            report_printf(stdout, o,
                          "  {pairs} pairs one at a time: zero-load latency deviates from 1 + 3*H + L - 1 by at most "
                          "{zero_load_max_deviation} cycle(s)\n");
        else {
            report_printf(stdout, o, "  offered {offered:%.3f}, accepted {throughput:%.4f} flits/terminal/cycle");
            puts(json_is_true(report_get(o, "drain_timed_out"))
                     ? "  ** SATURATED: measured packets not all delivered in --drain **"
                 : json_is_true(report_get(o, "saturated")) ? "  ** SATURATED: accepted less than offered **"
                                                            : "");
        }
        traffic_stats_print(stdout, o, one_at_a_time);
        report_printf(stdout, o, "  avg {avg_hops:%.2f} hops; model excess avg {model_excess_avg:%.2f} cycles\n");
        report_printf(
            stdout, o,
            "  packets: {created_packets} created, {delivered_packets} delivered, {measured_packets} measured; "
            "cycles {cycles}; errors {errors}");
        if (report_get(o, "first_error")) report_printf(stdout, o, ": first: {first_error}");
        putchar('\n');
        links_print(stdout, t, s->net, total_cycles, 8);
        if (s->nc) nc_gen_print(s->nc, stdout);
        units_print(stdout, t, s->net);
    }
    json_decref(o);
    if (hist_f && traffic_histogram_csv(hist_f, s, hist_bin))
        cli_fail(EXIT_RUNFAIL, "--histogram %s: %s", histogram, strerror(errno));
    if (vw) {
        view_sample vs = {.cycle = total_cycles, .inj_flits = s->inj_flits, .status = "done"};
        view_sample_net(vw, s->net, &rc, &vs);
        if (view_finish(vw, &vs)) cli_error("view: %s", view_error(vw));
        view_close(vw);
    }
    if (interrupted)
        cli_error("interrupted at cycle %llu (%s)", (unsigned long long)total_cycles,
                  interrupted == 2 ? "Ctrl-C" : "view closed");
    int rc_exit = interrupted == 2 ? cli_signal_status(cli_interrupted) : s->errors || interrupted ? EXIT_RUNFAIL : 0;
    if (s->errors) cli_error("%llu error(s); first: %s", (unsigned long long)s->errors, s->first_error);
    net_close(s->net);
    for (int i = 0; i < n; i++) {
        free(s->queue[i]);
        free(s->ncq[i]);
        free(s->by_src[i]);
    }
    free(s->queue);
    free(s->queue_head);
    free(s->qlen);
    free(s->qcap);
    free(s->ncq);
    free(s->ncq_head);
    free(s->ncq_len);
    free(s->ncq_cap);
    free(s->by_src);
    free(s->by_src_n);
    free(s->by_src_cap);
    free(s->inj);
    free(s->ej);
    free(s->ejc);
    free(s->injc);
    free(s->ep);
    free(s->is);
    free(s->es);
    free(s->hooks);
    for (size_t i = 0; i < s->pk.n; i++) free(s->pk.v[i].flits);
    nc_gen_free(s->nc);
    free(s->inj_flits);
    free(s->pk.v);
    free(lat);
    traffic_occ_free(&occ);
    free(on);
    free(s->src_window_flits);
    free(inject_mask);
    traffic_pattern_free();
    topo_free(t);
    return rc_exit;
}
