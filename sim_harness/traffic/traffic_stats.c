/* traffic_stats.c - latency split, injection rate, hops, stalls, VC
 * occupancy and the latency histogram of a synthetic-traffic run. */
#include "traffic/traffic_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/report.h"
#include "util/select.h"

void traffic_occ_init(traffic_occ *o, const topo *t)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < t->nrouters * t->nports; i++) o->link_ports += i % t->nports < t->nnet && t->in_link[i] >= 0;
    o->sum = xcalloc((size_t)t->nrouters * (size_t)t->nports, sizeof *o->sum);
    o->word = xcalloc((size_t)t->nrouters, sizeof *o->word);
}

void traffic_occ_free(traffic_occ *o)
{
    free(o->sum);
    free(o->word);
    o->sum = NULL;
    o->word = NULL;
}

void traffic_occ_sample(traffic_occ *o, sim *s, uint64_t now)
{
    if (now < s->warmup || now >= s->warmup + s->window || (now - s->warmup) % TRAFFIC_OCC_EVERY) return;
    const topo *t = s->t;
    /* one read of a port and VC of every router (a model evaluation each, not one per router) */
    for (int p = 0; p < t->nports; p++)
        for (int vc = 0; vc < s->rc.vcs; vc++) {
            net_vc_occupancy_all(s->net, p, vc, o->word);
            for (int r = 0; r < t->nrouters; r++) {
                if (p < t->nnet && t->in_link[r * t->nports + p] < 0) continue; /* nothing attached */
                uint64_t v = o->word[r];
                o->sum[(size_t)r * (size_t)t->nports + (size_t)p] += v;
                if (p < t->nnet && vc < ROUTER_MAX_VCS) o->by_vc[vc] += v; /* a router-to-router input */
            }
        }
    o->samples++;
}

/* The q-quantile of v[0..n) (the ceil(q n)-th smallest; v is reordered). */
static double quantile(uint64_t *v, size_t n, double q)
{
    if (!n) return 0;
    size_t i = (size_t)ceil(q * (double)n);
    if (i > 0) i--;
    if (i >= n) i = n - 1;
    return (double)select_kth_u64(v, n, i);
}

/* min/avg/p50/p99/max of v[0..n) as "<stat>_<name>latency" keys (name "",
 * not all: min and p50 only, traffic_report.c sets the others) */
static void set_latency(json_t *o, const char *name, uint64_t *v, size_t n, int all)
{
    uint64_t mn = n ? UINT64_MAX : 0, mx = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < mn) mn = v[i];
        if (v[i] > mx) mx = v[i];
        sum += (double)v[i];
    }
    const char *stat[5] = {"min", "avg", "p50", "p99", "max"};
    double val[5] = {(double)mn, n ? sum / (double)n : 0, quantile(v, n, 0.5), quantile(v, n, 0.99), (double)mx};
    for (int k = 0; k < 5; k++) {
        if (!*name && !all && (k == 1 || k >= 3)) continue; /* avg/p99/max_latency: traffic_report.c's keys */
        char *key = xasprintf("%s_%slatency", stat[k], name);
        json_object_set_new(o, key, json_real(val[k]));
        free(key);
    }
}

static int measured(const packet *p) { return p->measured && p->done && !p->flits; }

/* The measured latencies, [i]: total, network, queueing (the caller frees
 * *tot, *net, *que); multicast:F: its requests, else the unicast packets. */
static size_t latencies(const sim *s, uint64_t **tot, uint64_t **net, uint64_t **que)
{
    size_t n = 0;
    nc_window w = {0};
    if (s->pattern == PAT_MULTICAST) nc_gen_window_stats(s->nc, &w);
    if (s->pattern == PAT_MULTICAST) n = w.nlat;
    else
        for (size_t i = 0; i < s->pk.n; i++) n += measured(&s->pk.v[i]);
    *tot = xmalloc((n + 1) * sizeof **tot);
    *net = xmalloc((n + 1) * sizeof **net);
    *que = xmalloc((n + 1) * sizeof **que);
    for (size_t i = 0, j = 0; i < (s->pattern == PAT_MULTICAST ? n : s->pk.n); i++) {
        const packet *p = &s->pk.v[i];
        if (s->pattern == PAT_MULTICAST) {
            (*tot)[j] = w.lat[i];
            (*que)[j] = w.lat_q[i];
        } else if (measured(p)) {
            (*tot)[j] = p->arrived - p->created;
            (*que)[j] = p->injected - p->created;
        } else continue;
        (*net)[j] = (*tot)[j] - (*que)[j];
        j++;
    }
    return n;
}

void traffic_stats_json(json_t *o, sim *s, traffic_occ *occ, int vcs, int one_at_a_time)
{
    const topo *t = s->t;
    uint64_t *tot, *net, *que;
    size_t n = latencies(s, &tot, &net, &que);
    int hmax = 0;
    size_t npk = 0; /* measured unicast packets (a multicast's hops are a tree's: not counted) */
    for (size_t i = 0; i < s->pk.n; i++) {
        const packet *p = &s->pk.v[i];
        if (!measured(p)) continue;
        int h = traffic_packet_hops(t, p);
        if (h > hmax) hmax = h;
        npk++;
    }
    set_latency(o, "", tot, n, s->pattern == PAT_MULTICAST); /* multicast:F: all five here */
    set_latency(o, "queueing_", que, n, 0);
    set_latency(o, "network_", net, n, 0);
    free(tot);
    free(net);
    free(que);

    /* hop distribution: measured packets by router-to-router hops */
    uint64_t *hc = xcalloc((size_t)hmax + 1, sizeof *hc);
    int hmin = npk ? hmax : 0;
    for (size_t i = 0; i < s->pk.n; i++) {
        const packet *p = &s->pk.v[i];
        if (!measured(p)) continue;
        int h = traffic_packet_hops(t, p);
        hc[h]++;
        if (h < hmin) hmin = h;
    }
    json_t *ha = json_array();
    for (int h = 0; h <= hmax && npk; h++) json_array_append_new(ha, json_integer((json_int_t)hc[h]));
    free(hc);
    json_object_set_new(o, "min_hops", json_integer(hmin));
    json_object_set_new(o, "max_hops", json_integer(hmax));
    json_object_set_new(o, "hops_histogram", ha);

    /* measured injection rate: background flits that entered the network in
     * the window, per terminal and cycle (as throughput: over all terminals) */
    double inj = one_at_a_time || !s->window ? 0 : (double)s->window_inj_flits / ((double)s->window * t->nterms);
    json_object_set_new(o, "injection_rate", json_real(inj));

    /* stalls (whole run, like the links' flits) and sampled occupancy */
    json_t *links = json_object_get(o, "links");
    uint64_t stall_sum = 0, stall_max = 0, occ_flits = 0;
    long occ_vcs = 0;
    double occ_link_max = 0;
    for (size_t li = 0; li < json_array_size(links); li++) { /* (no jansson foreach: cppcheck) */
        json_t *L = json_array_get(links, li);
        const char *kind = json_string_value(json_object_get(L, "kind"));
        if (strcmp(kind, "inject")) { /* link, eject: the router's output port */
            int r = (int)json_integer_value(json_object_get(L, "src_router"));
            int p = (int)json_integer_value(json_object_get(L, "src_port"));
            uint64_t st = net_port_stalls(s->net, r, p);
            json_object_set_new(L, "stalls", json_integer((json_int_t)st));
            if (!strcmp(kind, "link")) {
                stall_sum += st;
                if (st > stall_max) stall_max = st;
            }
        }
        if (strcmp(kind, "eject")) { /* link, inject: the downstream router's input port */
            int r = (int)json_integer_value(json_object_get(L, "dst_router"));
            int p = !strcmp(kind, "link") ? (int)json_integer_value(json_object_get(L, "dst_port"))
                                          : topo_term_port(t, (int)json_integer_value(json_object_get(L, "terminal")),
                                                           (int)json_integer_value(json_object_get(L, "channel")));
            uint64_t f = occ->sum[(size_t)r * (size_t)t->nports + (size_t)p];
            double avg = occ->samples ? (double)f / (double)occ->samples : 0;
            json_object_set_new(L, "occupancy", json_real(avg));
            if (!strcmp(kind, "link") && avg > occ_link_max) occ_link_max = avg;
            occ_flits += f;
            occ_vcs += vcs;
        }
    }
    json_object_set_new(o, "link_stalls", json_integer((json_int_t)stall_sum));
    json_object_set_new(o, "max_link_stalls", json_integer((json_int_t)stall_max));
    json_object_set_new(o, "occupancy_samples", json_integer((json_int_t)occ->samples));
    json_object_set_new(o, "occupancy_every", json_integer(TRAFFIC_OCC_EVERY));
    json_object_set_new(o, "avg_vc_occupancy",
                        json_real(occ->samples && occ_vcs ? (double)occ_flits / ((double)occ->samples * occ_vcs) : 0));
    json_object_set_new(o, "max_link_occupancy", json_real(occ_link_max));
    json_t *byvc = json_array(); /* [v]: mean flits in VC v of a router-to-router input port */
    for (int v = 0; v < vcs && v < ROUTER_MAX_VCS; v++)
        json_array_append_new(byvc,
                              json_real(occ->samples && occ->link_ports
                                            ? (double)occ->by_vc[v] / ((double)occ->samples * (double)occ->link_ports)
                                            : 0));
    json_object_set_new(o, "link_vc_occupancy", byvc);
}

void traffic_stats_print(FILE *f, const json_t *o, int one_at_a_time)
{
    if (report_get(o, "accepted_copy_flits")) { /* multicast:F */
        report_printf(f, o,
                      "  latency   min {min_latency:%.0f}  avg {avg_latency:%.2f}  p50 {p50_latency:%.0f}  p99 "
                      "{p99_latency:%.0f}  max {max_latency:%.0f}  (creation to the last copy's tail)\n"
                      "  network   min {min_network_latency:%.0f}  avg {avg_network_latency:%.2f}  p50 "
                      "{p50_network_latency:%.0f}  p99 {p99_network_latency:%.0f}  max {max_network_latency:%.0f}  "
                      "(start to the last copy's tail)\n"
                      "  queueing  min {min_queueing_latency:%.0f}  avg {avg_queueing_latency:%.2f}  p50 "
                      "{p50_queueing_latency:%.0f}  p99 {p99_queueing_latency:%.0f}  max {max_queueing_latency:%.0f}  "
                      "(creation to start: waiting for leaf ports and unit slots)\n");
        report_printf(f, o,
                      "  copies accepted {accepted_copy_flits:%.4f} flits/terminal/cycle in the window\n"
                      "  link stalls {link_stalls} cycles (at most {max_link_stalls} on "
                      "one link); VC occupancy avg {avg_vc_occupancy:%.3f} flits ({occupancy_samples} samples, every "
                      "{occupancy_every} cycles)\n");
        return;
    }
    report_printf(f, o,
                  "  latency   min {min_latency:%.0f}  avg {avg_latency:%.2f}  p50 {p50_latency:%.0f}  p99 "
                  "{p99_latency:%.0f}  max {max_latency:%.0f}  (creation to tail ejection)\n"
                  "  network   min {min_network_latency:%.0f}  avg {avg_network_latency:%.2f}  p50 "
                  "{p50_network_latency:%.0f}  p99 {p99_network_latency:%.0f}  max {max_network_latency:%.0f}  (head "
                  "injection to tail ejection)\n"
                  "  queueing  min {min_queueing_latency:%.0f}  avg {avg_queueing_latency:%.2f}  p50 "
                  "{p50_queueing_latency:%.0f}  p99 {p99_queueing_latency:%.0f}  max {max_queueing_latency:%.0f}  "
                  "(creation to head injection)\n");
    if (!one_at_a_time) report_printf(f, o, "  injected {injection_rate:%.4f} flits/terminal/cycle in the window\n");
    report_printf(f, o,
                  "  hops {min_hops}..{max_hops}; link stalls {link_stalls} cycles (at most {max_link_stalls} on one "
                  "link); VC occupancy avg {avg_vc_occupancy:%.3f} flits ({occupancy_samples} samples, every "
                  "{occupancy_every} cycles)\n");
}

int traffic_histogram_csv(FILE *f, const sim *s, uint64_t bin_width)
{
    uint64_t *tot, *net, *que, maxbin = 0;
    size_t n = latencies(s, &tot, &net, &que);
    for (size_t i = 0; i < n; i++)
        if (tot[i] / bin_width > maxbin) maxbin = tot[i] / bin_width;
    uint64_t *c = xcalloc((size_t)(3 * (maxbin + 1)), sizeof *c);
    for (size_t i = 0; i < n; i++) {
        c[3 * (tot[i] / bin_width)]++;
        c[3 * (net[i] / bin_width) + 1]++;
        c[3 * (que[i] / bin_width) + 2]++;
    }
    free(tot);
    free(net);
    free(que);
    fprintf(f, "bin,count,network,queueing\n");
    for (uint64_t b = 0; b <= maxbin; b++)
        if (c[3 * b] || c[3 * b + 1] || c[3 * b + 2])
            fprintf(f, "%llu,%llu,%llu,%llu\n", (unsigned long long)(b * bin_width), (unsigned long long)c[3 * b],
                    (unsigned long long)c[3 * b + 1], (unsigned long long)c[3 * b + 2]);
    free(c);
    int e = cli_out_finish(f);
    errno = e;
    return e ? -1 : 0;
}
