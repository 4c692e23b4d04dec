/* traffic_run.c - the synthetic-traffic engine's run (traffic.h): the
 * terminals' state, the cycle loop (inputs, new packets, injection, one
 * network cycle through the loop both engines share, net/net_loop.h; drain,
 * stall watchdog) and what the run found afterwards. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "util/cli.h"
#include "net/net.h"
#include "traffic/traffic.h"
#include "traffic/traffic_nc.h"

/* the per-terminal and per-channel arrays of s (n terminals, nch channels) */
static void sim_alloc(sim *s, int n, int vcs, int buf)
{
    s->ep = xcalloc((size_t)s->nch, sizeof *s->ep);
    for (int ch = 0; ch < s->nch; ch++) ep_init(&s->ep[ch], vcs, buf);
    s->is = xcalloc((size_t)s->nch, sizeof *s->is);
    s->es = xcalloc((size_t)s->nch * (size_t)vcs, sizeof *s->es);
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
}

int traffic_one_at_a_time(const traffic_run *r)
{
    return r->o.pattern == PAT_ALLPAIRS || r->o.pattern == PAT_UNITPAIRS || r->o.pattern == PAT_ALLGATHER;
}

/* traffic_open's refusal: what it opened so far freed, *why set (err is) */
static traffic_run *refuse(traffic_run *r, traffic_refusal *why, traffic_refusal w)
{
    nc_gen_free(r->s.nc);
    net_close(r->s.net);
    free(r->s.hooks);
    free(r);
    *why = w;
    return NULL;
}

traffic_run *traffic_open(const traffic_opts *o, traffic_refusal *why, char *err, size_t errlen)
{
    const topo *t = o->t;
    traffic_run *r = xcalloc(1, sizeof *r);
    r->o = *o;
    traffic_pattern_setup(t, o->pattern, o->seed);
    if (!r->o.drain) r->o.drain = 10 * o->cycles + 10000;
    sim *s = &r->s;
    s->t = t;
    s->rc = o->rc;
    s->pattern = o->pattern;
    s->len = o->sizes.hi;
    s->sizes = o->sizes;
    s->rate = o->rate;
    s->warmup = o->warmup;
    s->window = o->cycles;
    s->drain = r->o.drain;
    s->hooks = xcalloc((size_t)t->nterms, sizeof *s->hooks);
    for (int term = 0; term < t->nterms; term++) test_hooks_init(&s->hooks[term], term);
    const char *bd = getenv("XNOC_TEST_BAD_DEST");
    s->bad_dest = -1;
    if (bd && cli_parse_long(bd, 0, FLIT_MAX_ADDRS, &s->bad_dest)) {
        snprintf(err, errlen, "XNOC_TEST_BAD_DEST=%s: not an address 0..%d", bd, FLIT_MAX_ADDRS);
        return refuse(r, why, TRAFFIC_OPEN_TEST_HOOK);
    }
    s->net = net_open(t, &o->rc, 1, err, errlen);
    if (!s->net) return refuse(r, why, TRAFFIC_OPEN_NET);
    if (o->trace && net_trace(s->net, o->trace, o->trace_from, o->trace_to, err, errlen))
        return refuse(r, why, TRAFFIC_OPEN_TRACE);
    traffic_seed(o->seed);
    if (o->coding || o->pattern == PAT_UNITPAIRS || o->fanout ||
        (o->pattern == PAT_ALLGATHER && (o->coll.xor_unit || o->coll.unit_mcast)))
        s->nc = nc_gen_new(t, &o->rc, o->fanout ? o->rate : o->coding, o->seed);
    if (o->fanout) nc_gen_multicast(s->nc, o->fanout, o->inject_mask);
    if (o->pattern == PAT_ALLGATHER && !(s->coll = tcoll_new(t, &o->coll, o->sizes.hi, err, errlen)))
        return refuse(r, why, TRAFFIC_OPEN_ALLGATHER);
    if (s->coll) s->on_arrived = tcoll_arrived;
    if (s->coll && s->nc) nc_gen_on_done(s->nc, tcoll_unit_done, s->coll);
    if (s->coll && s->nc) nc_gen_on_delivery(s->nc, tcoll_unit_delivered, s->coll);
    int n = t->nterms;
    s->nch = n * o->ports;
    net_loop_init(&r->loop, s->net, t, o->rc.vcs, s->nch); /* the channels: the shared loop's */
    s->inj = r->loop.inj;
    s->ej = r->loop.ej;
    s->injc = r->loop.injc;
    s->ejc = r->loop.ejc;
    sim_alloc(s, n, o->rc.vcs, o->rc.buf);
    if (traffic_one_at_a_time(r)) { /* one packet at a time, every ordered pair, in a fixed order */
        s->warmup = 0;
        s->window = UINT64_MAX / 4;
    }
    traffic_occ_init(&r->occ, t);
    r->p_new = o->rate / traffic_sizes_mean(&o->sizes);
    r->p_on = o->alpha ? r->p_new * (o->alpha + o->beta) / o->alpha : 0;
    /* on/off: each terminal's state, started from the stationary distribution P(on) = alpha / (alpha + beta) */
    r->on = xcalloc((size_t)n, 1);
    for (int src = 0; src < n && o->alpha; src++) r->on[src] = traffic_rng_unit() < o->alpha / (o->alpha + o->beta);
    r->end_measure = s->warmup + s->window;
    if (s->nc) nc_gen_window(s->nc, s->warmup, r->end_measure);
    r->deadline = r->end_measure + r->o.drain;
    return r;
}

/* 1. flits and credits the network presents in this cycle */
static void step_inputs(traffic_run *r)
{
    sim *s = &r->s;
    uint64_t now = r->now;
    for (int ch = 0; ch < s->nch; ch++) {
        if (s->ej[ch].valid) traffic_receive(s, ch, &s->ej[ch], now);
        if (s->injc[ch].valid && !ep_credit_in(&s->ep[ch], &s->injc[ch]))
            traffic_error(s, &s->err_corrupt, "cycle %llu: credit overflow on injection channel %d VC %d",
                          (unsigned long long)now, ch, s->injc[ch].vc);
        ep_credit_out(&s->ep[ch], &s->ejc[ch]); /* for the flit just taken, or none */
    }
}

/* allpairs: the zero-load deviation of the packet that arrived, then the
 * next pair; 1 when every pair is done */
static int step_allpairs(traffic_run *r)
{
    sim *s = &r->s;
    int n = s->t->nterms;
    if (r->ap_busy && s->pk.v[s->pk.n - 1].done) {
        packet *p = &s->pk.v[s->pk.n - 1];
        int H = traffic_packet_hops(s->t, p) + 1;
        uint64_t model = 1 + 3 * (uint64_t)H + (uint64_t)(p->len - 1), lat = p->arrived - p->created;
        uint64_t dev = lat > model ? lat - model : model - lat;
        r->ap_sum_dev += dev;
        if (dev > r->ap_max_dev) r->ap_max_dev = dev;
        r->ap_pairs++;
        r->ap_busy = 0;
    }
    if (!r->ap_busy) {
        if (r->ap_src >= n) return 1;
        traffic_create(s, r->ap_src, r->ap_dst, r->now, 1);
        traffic_index_packet(s, s->pk.n - 1);
        r->ap_busy = 1;
        if (++r->ap_dst == n) {
            r->ap_dst = 0;
            r->ap_src++;
        }
    }
    return 0;
}

/* unitpairs: terminal ap_src through unit ap_dst, to the next terminal; 1 when done */
static int step_unitpairs(traffic_run *r)
{
    sim *s = &r->s;
    int n = s->t->nterms, src = r->ap_src, u = r->ap_dst;
    if (nc_gen_busy(s->nc)) return 0;
    if (src >= n) return 1;
    nc_gen_probe(s->nc, r->now, src, u, (src + 1 + u) % n == src ? (src + 1) % n : (src + 1 + u) % n, s->len,
                 traffic_create_nc, s);
    if (++r->ap_dst == s->t->nrouters) {
        r->ap_dst = 0;
        r->ap_src++;
    }
    return 0;
}

/* every measured packet (and multicast:F request) delivered */
static int measured_all_done(const sim *s)
{
    return s->measured_done == s->measured_total && !(s->nc && nc_gen_measured_pending(s->nc));
}

/* 2. new packets; 1 when the pairs one at a time are done */
static int step_new_packets(traffic_run *r)
{
    sim *s = &r->s;
    uint64_t now = r->now;
    if (r->o.pattern == PAT_ALLPAIRS) return step_allpairs(r);
    if (r->o.pattern == PAT_UNITPAIRS) return step_unitpairs(r);
    if (r->o.pattern == PAT_ALLGATHER) return tcoll_step(s->coll, s, now);
    if (now >= r->deadline || (now >= r->end_measure && measured_all_done(s))) return 0;
    for (int src = 0; src < s->t->nterms && r->o.pattern != PAT_MULTICAST; src++) {
        if (r->o.alpha) { /* Markov on/off: a transition, then Bernoulli at p_on while on */
            double u = traffic_rng_unit();
            r->on[src] = r->on[src] ? u >= r->o.beta : u < r->o.alpha;
            if (!r->on[src]) continue;
        }
        if (traffic_rng_unit() < (r->o.alpha ? r->p_on : r->p_new) && r->o.inject_mask[src]) {
            traffic_create(s, src, traffic_dest_of(s->t, r->o.pattern, src), now,
                           now >= s->warmup && now < r->end_measure);
            traffic_index_packet(s, s->pk.n - 1);
        }
    }
    if (s->nc && (now < r->end_measure || r->o.fanout)) nc_gen_step(s->nc, now, traffic_create_nc, s);
    return 0;
}

/* After the last measured packet: no new packets, packets not yet started
 * never enter the network, the rest drains completely.  1: all drained. */
static int drained(traffic_run *r)
{
    sim *s = &r->s;
    uint64_t now = r->now;
    int n = s->t->nterms;
    if (!traffic_one_at_a_time(r) && now + 1 >= r->deadline) r->saturated = 1;
    if (r->o.pattern == PAT_ALLPAIRS || !((now + 1 >= r->end_measure && measured_all_done(s)) || r->saturated))
        return 0;
    if (s->nc) nc_gen_drop_queued(s->nc);  /* multicast:F requests not yet started never start */
    for (int term = 0; term < n; term++) { /* coding-group packets (their own queue) still go */
        for (size_t q = s->queue_head[term]; q < s->qlen[term]; q++) s->pk.v[s->queue[term][q]].dropped = 1;
        s->qlen[term] = s->queue_head[term];
    }
    int busy = s->in_flight > 0 || (s->nc && nc_gen_busy(s->nc));
    for (int term = 0; term < n && !busy; term++)
        busy = s->queue_head[term] < s->qlen[term] || s->ncq_head[term] < s->ncq_len[term];
    for (int ch = 0; ch < s->nch && !busy; ch++) busy = s->is[ch].active;
    return !busy;
}

/* saturated: the drain ran out of time; what was sent still drains (above),
 * so that a packet that never arrives is known to be lost.  1: stalled
 * (the shared loop's rule: flits in flight, none moved for
 * TRAFFIC_STALL_CYCLES); r->stall_msg says where. */
static int stall_check(traffic_run *r)
{
    sim *s = &r->s;
    if (!net_loop_stalled(&r->loop, r->now, TRAFFIC_STALL_CYCLES, s->in_flight || (s->nc && nc_gen_busy(s->nc))))
        return 0;
    r->stalled = 1;
    char with[48];
    snprintf(with, sizeof with, " with %llu in flight", (unsigned long long)s->in_flight);
    r->net_held = net_loop_stall_line(&r->loop, r->now, net_loop_quiet(&r->loop, r->now), with, r->stall_msg,
                                      sizeof r->stall_msg);
    if (s->nc && nc_gen_busy(s->nc)) {
        size_t l = strlen(r->stall_msg);
        snprintf(r->stall_msg + l, sizeof r->stall_msg - l, "; ");
        nc_gen_describe_pending(s->nc, r->stall_msg + l + 2, sizeof r->stall_msg - l - 2);
    }
    return 1;
}

static void progress(traffic_run *r)
{
    sim *s = &r->s;
    uint64_t now = r->now;
    if (now - s->last_progress < 4096) return;
    s->last_progress = now;
    char rate[80];
    if (r->end_measure >= UINT64_MAX / 8) { /* a collective pattern: no end cycle, its packets made as it goes */
        cli_progress("cycle %llu: %llu of the %llu packets made so far delivered, %s, no estimate",
                     (unsigned long long)now, (unsigned long long)s->measured_done,
                     (unsigned long long)s->measured_total, cli_rate_eta(now, now, r->t0, rate, sizeof rate));
        return;
    }
    uint64_t target = now < r->end_measure ? r->end_measure : now;
    cli_progress("cycle %llu of %llu%s: %llu/%llu measured packets delivered, %s", (unsigned long long)now,
                 (unsigned long long)r->end_measure, now >= r->end_measure ? " (draining)" : "",
                 (unsigned long long)s->measured_done, (unsigned long long)s->measured_total,
                 cli_rate_eta(now, target, r->t0, rate, sizeof rate));
}

/* The engine's terminals in one cycle (net_loop_terminals): the flits and
 * credits the network presented, new packets, injection; 1 when the pairs
 * one at a time are done. */
static int terminals(void *arg, net_loop *l, uint64_t now)
{
    traffic_run *r = arg;
    (void)l;
    (void)now;
    step_inputs(r);
    if (step_new_packets(r)) return 1;
    sim *s = &r->s;
    traffic_inject(s, r->now);
    for (int ch = 0; ch < s->nch && s->bad_dest >= 0; ch++)
        if (s->inj[ch].valid && s->inj[ch].head && !(s->inj[ch].payload >> FLIT_SR_BIT & 1)) { /* a table-routed head */
            s->inj[ch].payload = (s->inj[ch].payload & ~(uint64_t)FLIT_MAX_ADDRS) | (uint64_t)s->bad_dest;
            s->bad_dest = -1;
        }
    return 0;
}

/* One cycle of the run; 1 when the run ends with it. */
static int cycle(traffic_run *r, view *vw)
{
    sim *s = &r->s;
    uint64_t now = r->now;
    s->now = now;
    if (net_loop_cycle(&r->loop, now, terminals, r)) return 1;
    traffic_occ_sample(&r->occ, s, now);
    if (vw && view_due(vw, now)) {
        view_sample vs = {.cycle = now, .inj_flits = s->inj_flits, .status = traffic_pattern_names[r->o.pattern]};
        view_sample_net(vw, s->net, &s->rc, &vs);
        int u = view_update(vw, &vs);
        if (u == VIEW_QUIT || u == VIEW_ERROR) { /* closed, or a picture could not be written (view_error) */
            r->interrupted = u == VIEW_QUIT ? 1 : 3;
            return 1;
        }
    }
    if (drained(r) || stall_check(r)) return 1;
    progress(r);
    if (cli_interrupted) { /* Ctrl-C: stop and report what was measured */
        r->interrupted = 2;
        return 1;
    }
    return 0;
}

const char *traffic_rtl_kind(int net_err) { return net_err == NET_ERR_TIMEOUT ? "unit_timeout" : "rtl_invariant"; }

/* what the run found once it ended: lost packets, RTL errors, a deadlock
 * (which ends the command), saturation */
static void finish(traffic_run *r)
{
    sim *s = &r->s;
    uint64_t now = r->now;
    if (r->interrupted && now < s->warmup + s->window) /* the figures describe the cycles that ran */
        s->window = now > s->warmup ? now - s->warmup : 0;
    if (r->stalled && !r->net_held) {
        /* nothing in the network, nothing moving, flits owed: they were lost */
        for (size_t i = 0; i < s->pk.n; i++) {
            packet *p = &s->pk.v[i];
            if (p->sent && !p->done && !p->lost && !p->flits)
                traffic_lose(s, p, p->got, p->len, now, "never arrived, and the network is empty");
        }
        r->stalled = s->in_flight > 0 || (s->nc && nc_gen_busy(s->nc));
    }
    r->rtl_err = net_error(s->net);
    if (r->rtl_err) {
        r->rtl_err = net_describe_error(s->net, s->first_error, sizeof s->first_error);
        if (!r->rtl_err) r->rtl_err = NET_ERR_ROUTER;      /* flagged, no router or unit says more */
        if (s->nc && strstr(s->first_error, "time-out")) { /* whether source queueing could explain it */
            size_t l = strlen(s->first_error);
            snprintf(s->first_error + l, sizeof s->first_error - l,
                     "; coding packets waited at most %llu cycles at their sources",
                     (unsigned long long)s->nc_wait_max);
        }
    }
    if (r->stalled && !s->errors) {
        /* the run stops here; the command reports what was measured (ok false) and this line */
        if (r->rtl_err) { /* a stall after an RTL invariant broke: the broken invariant is the news */
            snprintf(r->fail_msg, sizeof r->fail_msg, "deadlock or stall at cycle %llu after an RTL error: %s",
                     (unsigned long long)now, s->first_error);
            r->fail_kind = traffic_rtl_kind(r->rtl_err);
        } else {
            snprintf(r->fail_msg, sizeof r->fail_msg, "%s", r->stall_msg);
            r->fail_kind = r->net_held ? "deadlock" : "stall";
        }
        return;
    }
    if (r->rtl_err) s->errors++;
    /* lost: measured packets that never arrived, in a run that drained */
    if (!r->stalled && !r->interrupted)
        for (size_t i = 0; i < s->pk.n; i++)
            if (!s->pk.v[i].dropped && !s->pk.v[i].done && !s->pk.v[i].flits && !s->pk.v[i].lost)
                traffic_error(s, &s->err_lost, "packet %d#%u (%d -> %d) was lost", s->pk.v[i].src, s->pk.v[i].seq,
                              s->pk.v[i].src, s->pk.v[i].dst);
    if (!r->stalled && !r->interrupted && s->nc && nc_gen_busy(s->nc)) {
        char why[400];
        nc_gen_describe_pending(s->nc, why, sizeof why);
        traffic_error(s, &s->err_lost, "%s", why);
    }
}

/* saturated: the injecting terminals' flits (multicast:F: multicasts, each
 * accepted when its last copy's tail arrives) accepted in the window fall
 * short of what they offered by more than 5% and by more than three
 * standard deviations of the Bernoulli injection (so that a short, light
 * run is not called saturated by chance), or the drain timed out */
static void saturation(traffic_run *r)
{
    sim *s = &r->s;
    r->drain_timed_out = r->saturated;
    uint64_t got = 0;
    int nsrc = 0;
    for (int src = 0; src < s->t->nterms; src++)
        if (r->o.inject_mask[src]) {
            got += s->src_window_flits[src];
            nsrc++;
        }
    if (r->o.pattern == PAT_MULTICAST) { /* multicasts: offered at --rate per source, accepted when whole */
        nc_window w;
        nc_gen_window_stats(s->nc, &w);
        got = w.accepted;
    }
    double expect = r->o.rate * (double)s->window * nsrc, short_by = expect - (double)got;
    if (!traffic_one_at_a_time(r) && nsrc && short_by > 0.05 * expect && short_by > 3 * sqrt(expect)) r->saturated = 1;
}

void traffic_run_loop(traffic_run *r, view *vw)
{
    r->t0 = cli_now();
    for (r->now = 0;; r->now++)
        if (cycle(r, vw)) break;
    cli_progress_done();
    r->total_cycles = r->now + 1;
    finish(r);
    saturation(r);
}

void traffic_free(traffic_run *r)
{
    if (!r) return;
    sim *s = &r->s;
    net_close(s->net);
    tcoll_free(s->coll);
    for (int i = 0; i < s->t->nterms; i++) {
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
    net_loop_free(&r->loop);
    free(s->ep);
    free(s->is);
    free(s->es);
    free(s->hooks);
    for (size_t i = 0; i < s->pk.n; i++) free(s->pk.v[i].flits);
    nc_gen_free(s->nc);
    free(s->inj_flits);
    free(s->pk.v);
    traffic_occ_free(&r->occ);
    free(r->on);
    free(s->src_window_flits);
    traffic_pattern_free();
    free(r);
}
