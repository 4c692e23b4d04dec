/* metrics.c - the one table of report keys, their labels and units
 * (metrics.h). */
#include "cmd/metrics.h"

#include <stdlib.h>
#include <string.h>

#include "util/cli.h"

#define T(key, label, unit)                                                                                            \
    {                                                                                                                  \
        "traffic", key, label, unit, 0                                                                                 \
    }
#define O(key, label, unit)                                                                                            \
    {                                                                                                                  \
        "traffic", key, label, unit, 1                                                                                 \
    }
#define C(key, label, unit)                                                                                            \
    {                                                                                                                  \
        "collective", key, label, unit, 0                                                                              \
    }
#define CO(key, label, unit)                                                                                           \
    {                                                                                                                  \
        "collective", key, label, unit, 1                                                                              \
    }

static const metric table[] = {
    /* the run */
    T("topology", "topology", ""),
    T("router", "router parameters", ""),
    T("ports", "channels per terminal", ""),
    T("pattern", "traffic pattern", ""),
    T("packet", "packet length", "flits"),
    T("packet_mean", "mean packet length", "flits"),
    T("packet_lengths", "measured packets by length", "packets"),
    T("injection", "injection process", ""),
    T("cycles", "cycles simulated", "cycles"),
    T("warmup", "warm-up", "cycles"),
    T("measured_cycles", "measurement window", "cycles"),
    /* load */
    T("offered", "offered load", "flits/terminal/cycle"),
    T("throughput", "accepted load", "flits/terminal/cycle"),
    T("rate_unit", "multicast:F: offered and throughput count multicasts/terminal/cycle instead", ""),
    T("offered_multicasts", "multicast:F: requests made in the window", "multicasts"),
    T("accepted_multicasts", "multicast:F: multicasts whose last copy arrived in the window", "multicasts"),
    T("measured_multicasts", "multicast:F: requests of the window delivered whole (the latency's sample)",
      "multicasts"),
    T("accepted_copy_flits", "multicast:F: flits of every copy ejected in the window", "flits/terminal/cycle"),
    T("coding_throughput", "--coding: coding groups' flits ejected in the window", "flits/terminal/cycle"),
    T("injection_rate", "injected load", "flits/terminal/cycle"),
    /* latency: creation to tail arrival, and its two parts */
    T("min_latency", "min latency", "cycles"),
    T("avg_latency", "avg latency", "cycles"),
    T("p50_latency", "median latency", "cycles"),
    T("p99_latency", "p99 latency", "cycles"),
    T("max_latency", "max latency", "cycles"),
    T("min_network_latency", "min network latency", "cycles"),
    T("avg_network_latency", "avg network latency", "cycles"),
    T("p50_network_latency", "median network latency", "cycles"),
    T("p99_network_latency", "p99 network latency", "cycles"),
    T("max_network_latency", "max network latency", "cycles"),
    T("min_queueing_latency", "min source queueing", "cycles"),
    T("avg_queueing_latency", "avg source queueing", "cycles"),
    T("p50_queueing_latency", "median source queueing", "cycles"),
    T("p99_queueing_latency", "p99 source queueing", "cycles"),
    T("max_queueing_latency", "max source queueing", "cycles"),
    /* routes */
    T("avg_hops", "avg hops", "hops"),
    T("min_hops", "min hops", "hops"),
    T("max_hops", "max hops", "hops"),
    T("hops_histogram", "measured packets by hops", "packets"),
    T("nonminimal_packets", "packets routed non-minimally", "packets"),
    T("model_excess_avg", "avg latency above the zero-load model", "cycles"),
    T("model_excess_max", "max latency above the zero-load model", "cycles"),
    /* packets and errors */
    T("created_packets", "packets created", "packets"),
    T("injected_packets", "packets injected", "packets"),
    T("delivered_packets", "packets delivered", "packets"),
    T("measured_packets", "packets measured", "packets"),
    T("errors", "errors", ""),
    T("ok", "no error and the run not stopped", ""),
    T("error", "why the run stopped (a partial report)", ""),
    T("error_kind", "kind of the stop: stall, deadlock, ...", ""),
    T("interrupted", "interrupted", ""),
    T("error_kinds", "errors by kind", ""),
    T("first_error", "first error", ""),
    T("saturated", "saturated", ""),
    T("drain_timed_out", "drain timed out", ""),
    T("pairs", "pairs checked one at a time", "pairs"),
    T("zero_load_max_deviation", "max deviation from the zero-load model", "cycles"),
    T("zero_load_total_deviation", "total deviation from the zero-load model", "cycles"),
    T("execution_cycles", "allgather: every node holds every datum", "cycles"),
    T("allgather", "allgather: algorithm, phases, packets, XORs", ""),
    /* links and buffers */
    T("links", "per-link table", ""),
    T("link_stalls", "stalled output cycles, all links", "cycles"),
    T("max_link_stalls", "stalled output cycles, busiest link", "cycles"),
    T("occupancy_samples", "occupancy samples", ""),
    T("occupancy_every", "occupancy sampling period", "cycles"),
    T("avg_vc_occupancy", "avg buffered flits per input VC", "flits"),
    T("link_vc_occupancy", "avg buffered flits per link input VC, by VC", "flits"),
    T("max_link_occupancy", "buffered flits at the fullest link input", "flits"),
    /* coding units */
    T("xor_ops", "XORed flits in the coding units", "flits"),
    T("coded_packets", "coded packets sent by the units", "packets"),
    T("mc_copies", "multicast copies sent by the units", "packets"),
    T("units", "per-unit table", ""),
    T("coding", "coding groups", ""),
    T("terminals", "per-terminal table", ""),
    /* options a sweep varies */
    O("rate", "offered load", "flits/terminal/cycle"),
    O("packet", "packet length", "flits"),
    O("cycles", "measurement window", "cycles"),
    O("warmup", "warm-up", "cycles"),
    O("drain", "drain limit", "cycles"),
    O("coding", "coding groups started", "groups/cycle"),
    O("ports", "channels per terminal", ""),
    O("seed", "random seed", ""),
    O("histogram-bin", "histogram bin width", "cycles"),
    O("xor-overhead", "XOR overhead at an NI", "cycles"),
    /* xnoc collective --json, every algorithm's top-level keys (docs/collectives.md) */
    C("topology", "topology", ""),
    C("op", "collective", ""),
    C("algo", "algorithm", ""),
    C("sync", "step synchronization", ""),
    C("bytes", "message size", "bytes"),
    C("ports", "channels per terminal", ""),
    C("nodes", "terminals", ""),
    C("verified", "verified byte-exact", ""),
    C("error", "error", ""),
    C("cycles", "collective time", "cycles"),
    C("makespan", "collective time", "cycles"),
    C("start_cycle", "start of the timed region", "cycles"),
    C("steps", "steps", "steps"),
    C("lower_bound", "lower bound on the steps", "steps"),
    C("message_rounds", "message rounds", "rounds"),
    C("schedule_source", "schedule source", ""),
    C("schedule_file", "schedule file", ""),
    C("search_ended", "schedule search ended by", ""),
    C("optimal", "schedule proven optimal", ""),
    C("cycles_per_step", "cycles per step", "cycles"),
    C("routers_per_step", "routers per step", "routers"),
    C("t_s", "step start-up time t_s", "cycles"),
    C("t_1", "time per byte t_1", "cycles/byte"),
    C("volume_bytes", "the model's volume V", "bytes"),
    C("model_cycles", "modelled time", "cycles"),
    C("stalled_flit_cycles", "stalled flit-cycles", "flit-cycles"),
    C("link_stalled_flit_cycles", "stalled flit-cycles at link outputs", "flit-cycles"),
    C("worst_stall", "most stalled router port", ""),
    C("flits", "flits sent", "flits"),
    C("busiest_channel", "busiest channel", ""),
    C("busiest_channel_flits", "flits on the busiest channel", "flits"),
    C("busiest_channel_utilization", "busiest channel utilization", ""),
    C("link_flits", "flits on router-to-router links", "flits"),
    C("link_flits_expected", "flits on router-to-router links, from the routes", "flits"),
    C("link_counters_agree", "link counters agree with the routes", ""),
    C("unicasts", "unicasts", "messages"),
    C("hops", "aggregate path hops", "hops"),
    C("avg_hops", "avg hops", "hops"),
    C("ram_kib", "RAM per node", "KiB"),
    C("links", "per-link table", ""),
    C("background", "background traffic", ""),
    C("combine_cycles", "combining on the cores", "cycles"),
    C("network_cycles", "time outside combining", "cycles"),
    /* --algo innet and multicast: the routers' coding units */
    C("reduce_op", "reduce operator", ""),
    C("unit_func", "coding unit function", ""),
    C("root", "root terminal", ""),
    C("root_router", "root router", ""),
    C("tree_depth", "tree depth", "hops"),
    C("max_fan_in", "max fan-in", "inputs"),
    C("chunks", "chunks", "chunks"),
    C("chunk_bytes", "chunk size", "bytes"),
    C("window", "chunks in flight", "chunks"),
    C("model_round_trip", "modelled round trip", "cycles"),
    C("model_per_chunk", "modelled time per chunk", "cycles"),
    C("model_unit_input", "modelled unit input time", "cycles"),
    C("model_window", "modelled window time", "cycles"),
    C("model_root", "modelled root time", "cycles"),
    C("model_bound", "model's bound", "cycles"),
    C("unit_packets_absorbed", "packets absorbed by the units", "packets"),
    C("combined_flits", "flits combined in the units", "flits"),
    C("coded_packets", "results sent by the units", "packets"),
    C("mc_copies", "multicast copies sent by the units", "packets"),
    C("multicasts", "multicasts", "multicasts"),
    C("blocked", "multicasts blocked", "multicasts"),
    C("spines_used", "spines used", "spines"),
    C("step_rule", "multicast step rule", ""),
    C("steps_output_conflict", "steps closed by an output conflict", "steps"),
    C("steps_unroutable", "steps closed by an unroutable multicast", "steps"),
    /* --algo hnc and combine */
    C("group_shape", "group shape", ""),
    C("in_position", "intermediate node position", ""),
    C("group_size", "group size", "terminals"),
    C("num_groups", "groups", "groups"),
    C("intermediate_position", "intermediate node", ""),
    C("multicast", "multicast scheme", ""),
    C("xor", "where the XORs run", ""),
    C("distribute", "phase E: binomial tree or the units' multicast", ""),
    C("model_hops", "modelled coded hops", "hops"),
    C("decode", "who decodes (core or ni)", ""),
    C("xor_core_cycles", "XOR time on the cores (decode ni: waiting for the NI)", "cycles"),
    C("cycles_per_phase", "cycles per phase", "cycles"),
    C("delivery_cycles", "delivery time", "cycles"),
    /* dragonfly broadcasts */
    C("global_link_packets", "global link crossings", "packets"),
    C("local_link_packets", "local link crossings", "packets"),
    C("groups_in_job", "groups in the job", "groups"),
    C("job_terminals", "terminals in the job", "terminals"),
    C("model_tree_global_links", "modelled tree global crossings", "packets"),
    C("model_tree_local_links", "modelled tree local crossings", "packets"),
    C("bound_global_links", "bound on global crossings", "packets"),
    C("bound_local_links", "bound on local crossings", "packets"),
    /* options a sweep of collective varies */
    CO("bytes", "message size", "bytes"),
    CO("ports", "channels per terminal", ""),
    CO("seed", "data pattern seed", ""),
    CO("clock-ratio", "core cycles per network cycle", ""),
    CO("ram", "RAM per node", "KiB"),
    /* what "area": true adds to every report of a sweep (sweep.c, docs/synth.md) */
    {"*", "cells_per_router", "router + coding unit area", "cells", 0},
    {"*", "router_cells", "router area", "cells", 0},
    {"*", "unit_cells", "coding unit area", "cells", 0},
    {"*", "network_cells", "network area", "cells", 0},
};

const metric *metric_find(const char *cmd, const char *key, int opt_first)
{
    const metric *second = NULL;
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        const metric *m = &table[i];
        if (strcmp(m->key, key) || (strcmp(m->cmd, cmd) && strcmp(m->cmd, "*"))) continue;
        if (m->opt == !!opt_first) return m;
        if (!second) second = m;
    }
    return second;
}

void metrics_help(FILE *f, const char *cmd)
{
    fprintf(f, "\nReport keys:\n");
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        const metric *m = &table[i];
        if (m->opt || strcmp(m->cmd, cmd)) continue;
        fprintf(f, "  %-26s %s%s%s%s\n", m->key, m->label, *m->unit ? " (" : "", m->unit, *m->unit ? ")" : "");
    }
}

char *metric_axis_label(const char *cmd, const char *key, int opt_first)
{
    const metric *m = metric_find(cmd, key, opt_first);
    if (!m) return xstrdup(key);
    return *m->unit ? xasprintf("%s (%s)", m->label, m->unit) : xstrdup(m->label);
}

char *metric_axis_labels(const char *cmd, char *const *keys, size_t n)
{
    if (n <= 1) return n ? metric_axis_label(cmd, keys[0], 0) : xstrdup("");
    const metric *first = metric_find(cmd, keys[0], 0);
    const char *unit = first ? first->unit : "";
    int same = 1;
    for (size_t i = 0; i < n; i++) {
        const metric *m = metric_find(cmd, keys[i], 0);
        same &= m && !strcmp(m->unit, unit);
    }
    char *o = xstrdup("");
    for (size_t i = 0; i < n; i++) {
        const metric *m = metric_find(cmd, keys[i], 0);
        char *part = same ? xstrdup(m->label) : metric_axis_label(cmd, keys[i], 0);
        char *more = xasprintf("%s%s%s", o, i ? ", " : "", part);
        free(part);
        free(o);
        o = more;
    }
    if (same && *unit) {
        char *more = xasprintf("%s (%s)", o, unit);
        free(o);
        o = more;
    }
    return o;
}
