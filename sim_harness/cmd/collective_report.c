/* collective_report.c - the reports of `xnoc collective` (collective_report.h):
 * one JSON object per run, its head the same for every family, and the text
 * rendered from it (util/report.h), so --json and the text never disagree. */
#include "cmd/collective_report.h"

#include <stdio.h>
#include <string.h>

#include "coll/coll_metrics.h"
#include "coll/coll_plan.h"
#include "coll/dfmodel.h"
#include "coll/ncfunc.h"
#include "coll/ncmodel.h"
#include "util/cli.h"
#include "util/report.h"

/* What every report starts with, in this order (absent: NULL or -1). */
typedef struct {
    const char *topology, *op, *algo;
    const char *sync;                  /* a schedule's: global or data */
    const char *reduce_op, *unit_func; /* the reductions' */
    int bytes, ports, nodes, verified;
    uint64_t cycles, start_cycle;
} report_head;

static json_t *head(const report_head *h)
{
    json_t *r = json_object();
    json_object_set_new(r, "topology", json_string(h->topology));
    json_object_set_new(r, "op", json_string(h->op));
    json_object_set_new(r, "algo", json_string(h->algo));
    if (h->sync) json_object_set_new(r, "sync", json_string(h->sync));
    if (h->reduce_op) json_object_set_new(r, "reduce_op", json_string(h->reduce_op));
    if (h->unit_func) json_object_set_new(r, "unit_func", json_string(h->unit_func));
    json_object_set_new(r, "bytes", json_integer(h->bytes));
    if (h->ports >= 0) json_object_set_new(r, "ports", json_integer(h->ports));
    json_object_set_new(r, "nodes", json_integer(h->nodes));
    json_object_set_new(r, "verified", json_boolean(h->verified));
    json_object_set_new(r, "cycles", json_integer((json_int_t)h->cycles));
    json_object_set_new(r, "start_cycle", json_integer((json_int_t)h->start_cycle));
    return r;
}

/* the image runs' head: no sync, no ports */
static json_t *image_head(const topo *t, const char *op, const char *algo, const char *reduce_op, const char *unit_func,
                          int bytes, const coll_image_result *run)
{
    return head(&(report_head){.topology = t->name,
                               .op = op,
                               .algo = algo,
                               .reduce_op = reduce_op,
                               .unit_func = unit_func,
                               .bytes = bytes,
                               .ports = -1,
                               .nodes = t->nterms,
                               .verified = run->verified,
                               .cycles = run->cycles,
                               .start_cycle = run->start_cycle});
}

/* the image runs' end: the RAM, the error if any */
static json_t *image_tail(json_t *r, const coll_image_result *run)
{
    json_object_set_new(r, "ram_kib", json_integer(run->ram_kib));
    if (run->error[0]) json_object_set_new(r, "error", json_string(run->error));
    return r;
}

/* The first line's end: "verified byte-exact" or "VERIFICATION FAILED". */
static void verified_text(FILE *f, const json_t *j)
{
    fputs(json_is_true(report_get(j, "verified")) ? "verified byte-exact\n" : "VERIFICATION FAILED\n", f);
}

/* 100 (cycles - model_cycles) / model_cycles of report j (0 without a model). */
static double measured_pct(const json_t *j)
{
    double model = json_number_value(report_get(j, "model_cycles")),
           cycles = json_number_value(report_get(j, "cycles"));
    return model > 0 ? 100.0 * (cycles - model) / model : 0.0;
}

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

/* The text of a schedule's report, rendered from it (util/report.h). */
static void sched_text(FILE *f, const json_t *j)
{
    int steps = (int)json_integer_value(report_get(j, "steps"));
    report_printf(f, j, "{algo} {op} on {topology}, {bytes} bytes, ");
    fprintf(f, "%s steps", !strcmp(json_string_value(report_get(j, "sync")), "global") ? "global" : "data-driven");
    report_printf(f, j, ", k={ports}: ");
    verified_text(f, j);
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
    fprintf(f, "(measured: %+.1f%%, %s the model)\n  cycles per step:", measured_pct(j),
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

/* the schedule's source and the model */
static void report_sched_head(json_t *r, const coll_job *j, const coll_exec_opts *xo, const coll_outcome *o, double ts,
                              double t1)
{
    const coll_sched *s = &j->s;
    int nsteps = s->nsteps, bytes = xo->bytes;
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

json_t *collective_report_sched(const coll_job *j, const router_cfg *rc, const coll_exec_opts *xo, coll_outcome *o,
                                double ts, double t1, json_t *links)
{
    const coll_sched *s = &j->s;
    int bytes = xo->bytes;
    double util = o->cycles ? (double)o->busiest_flits / (double)o->cycles : 0;
    if (o->combine_cycles > o->cycles) o->combine_cycles = o->cycles;
    uint64_t hops, hops_flits;
    int unicasts;
    coll_schedule_hops(s, j->t, bytes, &hops, &hops_flits, &unicasts);
    json_t *r = head(&(report_head){.topology = j->t->name,
                                    .op = coll_op_name(s->op),
                                    .algo = coll_algo_name((coll_algo)j->algo),
                                    .sync = xo->sync == SYNC_GLOBAL ? "global" : "data",
                                    .bytes = bytes,
                                    .ports = j->t->k,
                                    .nodes = j->t->nterms,
                                    .verified = o->verified,
                                    .cycles = o->cycles,
                                    .start_cycle = o->start_cycle});
    report_sched_head(r, j, xo, o, ts, t1);
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
    if (topo_has(j->t, TOPO_TRAIT_GROUPS)) report_dragonfly(r, j, rc, o, bytes, xo->bg_mask != NULL, unicasts);
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

/* the text of a scan's report, rendered from it */
static void scan_text(FILE *f, const json_t *j)
{
    if (!strcmp(json_string_value(json_object_get(j, "algo")), "innet")) {
        report_printf(f, j, "innet {op} on {topology}, {bytes} bytes, --reduce-op {reduce_op}: ");
        verified_text(f, j);
        report_printf(f, j,
                      "  {cycles} cycles through the streaming units: a chain of {chain_units} units over "
                      "{chain_links} links (at most {chain_max_links} an edge), {chunks} chunk(s), {per_flit} "
                      "packets out of a unit per data flit; model {model_cycles:%.0f} cycles ");
        fprintf(f, "(measured: %+.1f%%)\n", measured_pct(j));
        report_printf(f, j, "  {link_flits} flits on router-to-router links\n");
        return;
    }
    report_printf(f, j, "rd {op} on {topology}, {bytes} bytes, --reduce-op {reduce_op}: ");
    verified_text(f, j);
    report_printf(f, j,
                  "  {cycles} cycles in {steps} steps (recursive doubling on the cores); model {model_cycles:%.0f} "
                  "cycles ");
    fprintf(f, "(measured: %+.1f%%)\n", measured_pct(j));
    report_printf(f, j, "  {link_flits} flits on router-to-router links\n");
}

json_t *collective_report_scan(const topo *t, const char *op, int func, int bytes, const scan_result *s)
{
    json_t *j = image_head(t, op, s->chain_units ? "innet" : "rd", nc_redop_name(func),
                           s->chain_units ? nc_func_name(func) : NULL, bytes, &s->run);
    if (s->chain_units) {
        json_object_set_new(j, "chain_units", json_integer(s->chain_units));
        json_object_set_new(j, "chain_links", json_integer(s->chain_links));
        json_object_set_new(j, "chain_max_links", json_integer(s->chain_max_links));
        json_object_set_new(j, "chunks", json_integer(s->chunks));
        json_object_set_new(j, "per_flit", json_integer(s->per_flit));
        json_object_set_new(j, "model_cycles", json_real(s->model_cycles));
        json_object_set_new(j, "link_flits", json_integer((json_int_t)s->run.c.link_flits));
        return image_tail(j, &s->run);
    }
    json_t *per = json_array();
    for (int st = 0; st < s->steps && st < SCAN_MAX_STEPS; st++)
        json_array_append_new(per, json_integer(s->routers_per_step[st]));
    json_object_set_new(j, "steps", json_integer(s->steps));
    json_object_set_new(j, "routers_per_step", per);
    json_object_set_new(j, "model_cycles", json_real(s->model_cycles));
    json_object_set_new(j, "link_flits", json_integer((json_int_t)s->run.c.link_flits));
    return image_tail(j, &s->run);
}

/* the text of a reduction's report, rendered from it */
static void innet_text(FILE *f, const json_t *j)
{
    report_printf(f, j,
                  "innet {op} on {topology}, {bytes} bytes, --reduce-op {reduce_op} (unit operator {unit_func}): ");
    verified_text(f, j);
    report_printf(f, j,
                  "  {cycles} cycles; tree: root terminal {root} (router {root_router}), depth {tree_depth}, at "
                  "most {max_fan_in} contributions per unit; {chunks} chunk(s) of {chunk_bytes} bytes, window "
                  "{window}\n");
    report_printf(f, j, "  model: round trip {model_round_trip:%.0f} + ");
    fprintf(f, "%lld", (long long)json_integer_value(report_get(j, "chunks")) - 1);
    report_printf(f, j, " x {model_per_chunk:%.1f} per chunk (bound: {model_bound}) = {model_cycles:%.0f} cycles ");
    fprintf(f, "(measured: %+.1f%%)\n", measured_pct(j));
    report_printf(f, j,
                  "  coding units: {unit_packets_absorbed} packets absorbed, {combined_flits} flits combined, "
                  "{coded_packets} results, {mc_copies} multicast copies; {link_flits} flits on router-to-router "
                  "links\n");
}

json_t *collective_report_innet(const topo *t, const char *op, int func, int bytes, const innet_result *m)
{
    json_t *j = image_head(t, op, "innet", nc_redop_name(func), nc_func_name(func), bytes, &m->run);
    const coll_image_counts *c = &m->run.c;
    json_object_set_new(j, "root", json_integer(m->root));
    json_object_set_new(j, "root_router", json_integer(m->root_router));
    json_object_set_new(j, "tree_depth", json_integer(m->depth));
    json_object_set_new(j, "max_fan_in", json_integer(m->max_fan_in));
    json_object_set_new(j, "chunks", json_integer(m->chunks));
    json_object_set_new(j, "chunk_bytes", json_integer(m->chunk_bytes));
    json_object_set_new(j, "window", json_integer(m->window));
    json_object_set_new(j, "model_cycles", json_real(m->model_cycles));
    json_object_set_new(j, "model_round_trip", json_real(m->model_round_trip));
    json_object_set_new(j, "model_per_chunk", json_real(m->model_per_chunk));
    json_object_set_new(j, "model_unit_input", json_real(m->model_unit_input));
    json_object_set_new(j, "model_window", json_real(m->model_window));
    json_object_set_new(j, "model_root", json_real(m->model_root));
    json_object_set_new(j, "model_bound", json_string(m->model_bound));
    json_object_set_new(j, "link_flits", json_integer((json_int_t)c->link_flits));
    json_object_set_new(j, "unit_packets_absorbed", json_integer((json_int_t)c->absorbed));
    json_object_set_new(j, "combined_flits", json_integer((json_int_t)c->combined));
    json_object_set_new(j, "coded_packets", json_integer((json_int_t)c->coded));
    json_object_set_new(j, "mc_copies", json_integer((json_int_t)c->copies));
    return image_tail(j, &m->run);
}

/* the text of a software reduce-scatter's or allreduce's report, rendered from it */
static void sw_text(FILE *f, const json_t *j)
{
    report_printf(f, j, "{algo} {op} on {topology}, {bytes} bytes, --reduce-op {reduce_op}: ");
    verified_text(f, j);
    report_printf(f, j,
                  "  {cycles} cycles = {bytes_per_cycle:%.3f} bytes per cycle (one link: 8); model "
                  "{model_cycles:%.0f} cycles in {model_steps} steps ");
    fprintf(f, "(measured: %+.1f%%)\n", measured_pct(j));
    report_printf(f, j,
                  "  combining on the cores: at most {combine_cycles} cycles for {combine_words} words "
                  "({cycles_per_word:%.2f} cycles per word)\n");
    report_printf(f, j, "  {link_flits} flits on router-to-router links\n");
}

json_t *collective_report_sw(const topo *t, const char *op, const char *algo, int func, int bytes, const sw_result *s)
{
    json_t *j = image_head(t, op, algo, nc_redop_name(func), nc_func_name(func), bytes, &s->run);
    uint64_t cyc = s->run.cycles;
    json_object_set_new(j, "bytes_per_cycle", json_real(cyc ? (double)bytes / (double)cyc : 0));
    json_object_set_new(j, "model_cycles", json_real(s->model_cycles));
    json_object_set_new(j, "model_steps", json_integer(s->model_steps));
    json_object_set_new(j, "combine_cycles", json_integer(s->combine_cycles));
    json_object_set_new(j, "combine_words", json_integer(s->combine_words));
    json_object_set_new(j, "cycles_per_word",
                        json_real(s->combine_words ? (double)s->combine_cycles / s->combine_words : 0));
    json_object_set_new(j, "link_flits", json_integer((json_int_t)s->run.c.link_flits));
    return image_tail(j, &s->run);
}

/* the text of a multicast collective's report, rendered from it */
static void mcast_text(FILE *f, const json_t *j)
{
    report_printf(f, j, "multicast {op} on {topology}, {bytes} bytes: ");
    verified_text(f, j);
    report_printf(
        f, j,
        "  {cycles} cycles; {multicasts} multicast(s) in {steps} step(s) through {spines_used} spine "
        "route(s) (the routing control, net/clos_ctl.c; {blocked} blocked beside a step's others), "
        "{step_rule} steps ({steps_output_conflict} closed by an output conflict, {steps_unroutable} because the "
        "control could not route the next), "
        "{chunks} chunk(s) of {chunk_bytes} bytes\n"
        "  {link_flits} flits on router-to-router links (expected {link_flits_expected}), "
        "{stalled_flit_cycles} stalled flit-cycles ({link_stalled_flit_cycles} at link ports); units: "
        "{unit_packets_absorbed} packets absorbed, "
        "{mc_copies} copies\n");
}

json_t *collective_report_mcast(const topo *t, const char *op, const mcast_opts *o, const mcast_result *m)
{
    json_t *j = image_head(t, op, "multicast", NULL, NULL, o->bytes, &m->run);
    const coll_image_counts *c = &m->run.c;
    if (!o->all) json_object_set_new(j, "root", json_integer(o->root));
    json_object_set_new(j, "multicasts", json_integer(m->multicasts));
    json_object_set_new(j, "steps", json_integer(m->steps));
    json_object_set_new(j, "blocked", json_integer(m->blocked));
    json_object_set_new(j, "step_rule", json_string(o->packed ? "packed" : "assignment"));
    json_object_set_new(j, "steps_output_conflict", json_integer(m->steps_output_conflict));
    json_object_set_new(j, "steps_unroutable", json_integer(m->steps_unroutable));
    json_object_set_new(j, "spines_used", json_integer(m->spines_used));
    json_object_set_new(j, "chunks", json_integer(m->chunks));
    json_object_set_new(j, "chunk_bytes", json_integer(m->chunk_bytes));
    json_object_set_new(j, "link_flits", json_integer((json_int_t)c->link_flits));
    json_object_set_new(j, "link_flits_expected", json_integer((json_int_t)m->link_flits_expected));
    json_object_set_new(j, "stalled_flit_cycles", json_integer((json_int_t)c->stalls));
    json_object_set_new(j, "link_stalled_flit_cycles", json_integer((json_int_t)c->link_stalls));
    json_object_set_new(j, "unit_packets_absorbed", json_integer((json_int_t)c->absorbed));
    json_object_set_new(j, "mc_copies", json_integer((json_int_t)c->copies));
    return image_tail(j, &m->run);
}

int collective_report_emit(json_t *r, collective_family fam, int json)
{
    static void (*const text[])(FILE *, const json_t *) = {
        [COLL_FAMILY_SCHED] = sched_text, [COLL_FAMILY_INNET] = innet_text, [COLL_FAMILY_SCAN] = scan_text,
        [COLL_FAMILY_MCAST] = mcast_text, [COLL_FAMILY_SW] = sw_text,
    };
    if (json) {
        json_dumpf(r, stdout, JSON_COMPACT);
        putchar('\n');
    } else text[fam](stdout, r);
    const json_t *err = json_object_get(r, "error");
    if (err) cli_error("%s", json_string_value(err));
    int verified = json_is_true(json_object_get(r, "verified"));
    json_decref(r);
    return verified ? 0 : cli_interrupted ? cli_signal_status(cli_interrupted) : EXIT_RUNFAIL;
}
