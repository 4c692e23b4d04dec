/* traffic_report.c - the JSON report of a synthetic-traffic run
 * (traffic.h): one object holds every figure; `xnoc traffic`'s text lines
 * are templates over it (util/report.h), so the two never disagree. */
#include <math.h>
#include <stdlib.h>

#include "../../firmware/lib/link_flit.h"
#include "util/cli.h"
#include "util/select.h"
#include "net/links_report.h"
#include "traffic/traffic.h"
#include "traffic/traffic_nc.h"

/* The q-quantile of v[0..n) (the ceil(q n)-th smallest; v is reordered). */
static double percentile(uint64_t *v, size_t n, double q)
{
    if (!n) return 0;
    size_t i = (size_t)ceil(q * (double)n);
    if (i > 0) i--;
    if (i >= n) i = n - 1;
    return (double)select_kth_u64(v, n, i);
}

/* topology, router, ports, pattern, packet (lengths), injection */
static void report_config(json_t *o, const traffic_run *r)
{
    const router_cfg *rc = &r->o.rc;
    const sim *s = &r->s;
    json_object_set_new(o, "topology", json_string(r->o.t->name));
    json_t *rj = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "vcs", rc->vcs, "buf", rc->buf, "pw", LINK_PAYLOAD_W, "ncu",
                           rc->ncu, "slots", rc->slots, "xorlat", rc->xorlat, "ncmax", rc->ncmax);
    if (rc->routing != ROUTING_MIN)
        json_object_set_new(rj, "routing", json_string(rc->routing == ROUTING_VALIANT ? "valiant" : "ugal"));
    if (rc->threads > 1) json_object_set_new(rj, "threads", json_integer(rc->threads));
    json_object_set_new(o, "router", rj);
    json_object_set_new(o, "ports", json_integer(r->o.ports));
    json_object_set_new(o, "pattern", json_string(traffic_pattern_names[r->o.pattern]));
    int len = r->o.sizes.hi;
    if (r->o.sizes.lo == r->o.sizes.hi) json_object_set_new(o, "packet", json_integer(len));
    else { /* a distribution: its spec, and the mean length */
        json_object_set_new(o, "packet", json_string(r->o.packet_spec));
        json_object_set_new(o, "packet_mean", json_real(traffic_sizes_mean(&r->o.sizes)));
        json_t *lh = json_array(); /* [L]: measured packets of L flits */
        for (int l = 0; l <= len; l++) {
            uint64_t c = 0;
            for (size_t i = 0; i < s->pk.n; i++) c += s->pk.v[i].measured && !s->pk.v[i].flits && s->pk.v[i].len == l;
            json_array_append_new(lh, json_integer((json_int_t)c));
        }
        json_object_set_new(o, "packet_lengths", lh);
    }
    if (r->o.alpha) json_object_set_new(o, "injection", json_string(r->o.injection));
}

/* cycles, offered, throughput, latency, hops and the zero-load model's excess */
static void report_figures(json_t *o, const traffic_run *r)
{
    const sim *s = &r->s;
    const topo *t = r->o.t;
    uint64_t *lat = xmalloc((s->pk.n + 1) * sizeof *lat), nl = 0, hops = 0, nonmin = 0, lat_max = 0;
    double lat_sum = 0, dev_sum = 0;
    int64_t dev_max = 0;
    for (size_t i = 0; i < s->pk.n; i++) { /* statistics over measured, delivered packets */
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
    int one = traffic_one_at_a_time(r);
    double avg = nl ? lat_sum / (double)nl : 0, p99 = percentile(lat, nl, 0.99), mx = (double)lat_max;
    double thru = one ? 0 : (double)s->window_flits / ((double)s->window * t->nterms);
    double offered = one ? 0 : r->o.rate;
    if (r->o.pattern == PAT_MULTICAST) { /* per multicast, as --rate offers them (docs/traffic.md) */
        nc_window w;
        nc_gen_window_stats(s->nc, &w);
        thru = s->window ? (double)w.accepted / ((double)s->window * t->nterms) : 0;
        json_object_set_new(o, "accepted_copy_flits",
                            json_real(s->window ? (double)w.flits / ((double)s->window * t->nterms) : 0));
        int nsrc = 0;
        for (int src = 0; src < t->nterms; src++) nsrc += r->o.inject_mask[src];
        offered = r->o.rate * nsrc / t->nterms; /* per terminal, like the throughput (--sources) */
        json_object_set_new(o, "offered_multicasts", json_integer((json_int_t)w.offered));
        json_object_set_new(o, "accepted_multicasts", json_integer((json_int_t)w.accepted));
        json_object_set_new(o, "measured_multicasts", json_integer((json_int_t)w.nlat));
    }
    if (r->o.pattern == PAT_MULTICAST) json_object_set_new(o, "rate_unit", json_string("multicasts"));
    else if (s->nc && !one) { /* --coding: the groups' flits at their destinations, beside the background's */
        nc_window w;
        nc_gen_window_stats(s->nc, &w);
        json_object_set_new(o, "coding_throughput", json_real((double)w.flits / ((double)s->window * t->nterms)));
    }
    json_object_set_new(o, "cycles", json_integer((json_int_t)r->total_cycles));
    json_object_set_new(o, "warmup", json_integer((json_int_t)s->warmup));
    json_object_set_new(o, "measured_cycles", json_integer(one ? (json_int_t)r->total_cycles : (json_int_t)s->window));
    json_object_set_new(o, "offered", json_real(offered));
    json_object_set_new(o, "throughput", json_real(thru));
    json_object_set_new(o, "avg_latency", json_real(avg));
    json_object_set_new(o, "p99_latency", json_real(p99));
    json_object_set_new(o, "max_latency", json_real(mx));
    json_object_set_new(o, "avg_hops", json_real(nl ? (double)hops / (double)nl : 0));
    if (r->o.rc.routing != ROUTING_MIN) /* measured packets that took the Valiant path */
        json_object_set_new(o, "nonminimal_packets", json_integer((json_int_t)nonmin));
    json_object_set_new(o, "model_excess_avg", json_real(nl ? dev_sum / (double)nl : 0));
    json_object_set_new(o, "model_excess_max", json_integer((json_int_t)dev_max));
    free(lat);
}

/* packet counts, errors, saturation, the pairs' zero-load deviation */
static void report_outcome(json_t *o, traffic_run *r)
{
    const sim *s = &r->s;
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
    if (r->interrupted) json_object_set_new(o, "interrupted", json_true());
    json_object_set_new(o, "ok", json_boolean(!s->errors && !r->fail_kind));
    if (r->fail_kind) { /* the run stopped (stall, deadlock): what it measured until then, and why */
        json_object_set_new(o, "error", json_string(r->fail_msg));
        json_object_set_new(o, "error_kind", json_string(r->fail_kind));
    }
    json_object_set_new(o, "error_kinds",
                        json_pack("{s:I,s:I,s:I,s:I,s:I,s:b,s:b}", "corrupted", (json_int_t)s->err_corrupt, "misrouted",
                                  (json_int_t)s->err_misroute, "duplicated", (json_int_t)s->err_dup, "out_of_order",
                                  (json_int_t)s->err_order, "lost", (json_int_t)s->err_lost, "rtl_invariant",
                                  r->rtl_err && r->rtl_err != NET_ERR_TIMEOUT, "unit_timeout",
                                  r->rtl_err == NET_ERR_TIMEOUT));
    if (s->first_error[0]) json_object_set_new(o, "first_error", json_string(s->first_error));
    json_object_set_new(o, "saturated", json_boolean(r->saturated));
    json_object_set_new(o, "drain_timed_out", json_boolean(r->drain_timed_out));
    if (r->o.pattern == PAT_UNITPAIRS) nc_gen_probe_result(s->nc, &r->ap_pairs, &r->ap_max_dev, &r->ap_sum_dev);
    if (s->coll) tcoll_json(s->coll, o);
    else if (traffic_one_at_a_time(r)) {
        json_object_set_new(o, "pairs", json_integer((json_int_t)r->ap_pairs));
        json_object_set_new(o, "zero_load_max_deviation", json_integer((json_int_t)r->ap_max_dev));
        json_object_set_new(o, "zero_load_total_deviation", json_integer((json_int_t)r->ap_sum_dev));
    }
}

/* per source: accepted flits/cycle in the window (fairness), latency */
static json_t *report_terminals(const traffic_run *r)
{
    const sim *s = &r->s;
    const topo *t = r->o.t;
    json_t *terms = json_array();
    const uint64_t *acc = s->src_window_flits; /* multicast:F: multicasts accepted whole */
    if (r->o.pattern == PAT_MULTICAST) {
        nc_window w;
        nc_gen_window_stats(s->nc, &w);
        acc = w.src_accepted;
    }
    for (int src = 0; src < t->nterms; src++) {
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
            terms, json_pack("{s:i,s:b,s:f,s:I,s:f}", "terminal", src, "injects", r->o.inject_mask[src], "accepted",
                             traffic_one_at_a_time(r) ? 0.0 : (double)acc[src] / (double)s->window, "measured_packets",
                             (json_int_t)ln, "avg_latency", ln ? ls / (double)ln : 0.0));
    }
    if (traffic_pattern_fixed(r->o.pattern)) {                 /* the mapping each source sends to */
        for (size_t ti = 0; ti < json_array_size(terms); ti++) /* (no jansson foreach: cppcheck) */
            json_object_set_new(json_array_get(terms, ti), "dest",
                                json_integer(traffic_dest_of(t, r->o.pattern, (int)ti)));
    }
    return terms;
}

json_t *traffic_report(traffic_run *r)
{
    sim *s = &r->s;
    json_t *o = json_object();
    report_config(o, r);
    report_figures(o, r);
    report_outcome(o, r);
    json_object_set_new(o, "links", links_json(r->o.t, s->net, s->inj_flits, r->total_cycles));
    traffic_stats_json(o, s, &r->occ, r->o.rc.vcs, traffic_one_at_a_time(r));
    units_json(o, r->o.t, s->net);
    if (s->nc) {
        nc_gen_json(s->nc, o);
        json_object_set_new(json_object_get(o, "coding"), "max_source_wait", json_integer((json_int_t)s->nc_wait_max));
    }
    json_object_set_new(o, "terminals", report_terminals(r));
    return o;
}
