/* ncmodel_cmd.c - `xnoc ncmodel`: hop counts of the all-to-all broadcast,
 * conventional and with hierarchical network coding (coll/ncmodel.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "cmd/cmds.h"
#include "cmd/cmd_opts.h"
#include "coll/ncmodel.h"
#include "util/report.h"

static const char *usage_text =
    "usage: xnoc ncmodel --topo mesh:WxH|torus:WxH [--group-shape GWxGH|best]\n"
    "                    [--group-size N] [--multicast tree|all-at-once] [--sweep] [--json]\n"
    "                    [--in-position corner|median|boundary|best] [--objective hops|longest]\n"
    "                    [--algo coded|combine]\n"
    "\n"
    "Aggregate unicast path hops of the all-to-all broadcast (every node's data\n"
    "to every other node) on a 2-D mesh or torus of up to 256x256, as the\n"
    "network-coding paper counts them: conventional (a multicast from every\n"
    "node) and with hierarchical network coding (steps B intra-group broadcast,\n"
    "D coded messages between intermediate nodes, E coded messages into each\n"
    "group, F counterpart unicasts between groups).  --group-shape best (the\n"
    "default) tries every shape that divides the network and reports the one\n"
    "with the fewest hops (of N nodes with --group-size N); --sweep lists every shape (the paper's Fig. 6 and\n"
    "Fig. 15 columns).  Trees are binomial over XOR ranks, farthest partner\n"
    "first (power-of-two sides).\n"
    "  --in-position P   where each group's intermediate node sits: corner (0,0 of every group; the\n"
    "                    tree default), median (the same offset nearest the group; the all-at-once\n"
    "                    default), boundary (paired neighbouring groups' shared edge, Fig. 7), best\n"
    "                    (every rule and offset, for the objective)\n"
    "  --objective O     what best minimizes (shape and placement): hops (aggregate, default) or\n"
    "                    longest (the longer of M-hops and G-hops, then hops)\n"
    "  --algo A          coded (default) or combine (message combining, Sect. 6.5: no F, the INs\n"
    "                    send their group's M data as one message)\n"
    "docs/network-coding.md.\n";

static int parse_wh(const char *s, int *w, int *h)
{
    long a, b;
    if (cli_parse_pair(s, 'x', 1, 100000, &a, &b)) return -1;
    *w = (int)a;
    *h = (int)b;
    return 0;
}

static json_t *coded_json(const ncm_coded *c)
{
    json_t *o =
        json_pack("{s:i,s:i,s:[i,i],s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:i,s:i}", "group_size", c->group_size, "num_groups",
                  c->groups, "intermediate_node", c->in_x, c->in_y, "coded_hops", c->coded_hops, "hops_b", c->hops_b,
                  "hops_d", c->hops_d, "hops_e", c->hops_e, "hops_f", c->hops_f, "unicasts", c->unicasts,
                  "payload_hops", c->payload_hops, "m_hops", c->m_hops, "g_hops", c->g_hops);
    /* Fig. 15's columns (M-d1 = gw, M-d2 = gh, G-dN = groups along that dimension) */
    json_object_set_new(o, "m_d1", json_integer(c->m_d[0]));
    json_object_set_new(o, "m_d2", json_integer(c->m_d[1]));
    json_object_set_new(o, "g_d1", json_integer(c->g_d[0]));
    json_object_set_new(o, "g_d2", json_integer(c->g_d[1]));
    json_object_set_new(o, "g_d1_hops", json_integer(c->g_d_hops[0]));
    json_object_set_new(o, "g_d2_hops", json_integer(c->g_d_hops[1]));
    json_object_set_new(o, "in_rule", json_pack("[s,s]", ncm_place_rule(&c->px), ncm_place_rule(&c->py)));
    return o;
}

/* The text report, rendered from the JSON report (util/report.h). */
static void print_text(const json_t *o)
{
    report_printf(stdout, o,
                  "all-to-all broadcast on {topology}, {multicast} multicasts, {algo}\n"
                  "  conventional: {conventional_hops:%.0f} hops in {conventional_unicasts:%.0f} unicasts\n"
                  "  coded, groups {group_shape} ({num_groups} groups of {group_size}, intermediate node at "
                  "({intermediate_node.0},{intermediate_node.1}) of group 0, {in_position}): {coded_hops:%.0f} hops "
                  "({reduction_percent:%.1f}% fewer)\n"
                  "    B intra-group {hops_b:%.0f}, D between intermediate nodes {hops_d:%.0f}, E into the groups "
                  "{hops_e:%.0f}, F counterparts {hops_f:%.0f}\n"
                  "    longest path inside a group {m_hops} hops, between intermediate nodes {g_hops}\n");
    const json_t *shapes = report_get(o, "shapes");
    if (!shapes) return;
    printf("  shape   size groups  M-d1 M-d2 M-hops  G-d1 G-d2 G-d1-hops G-d2-hops G-hops      coded hops  IN\n");
    for (size_t i = 0; i < json_array_size(shapes); i++) {
        const json_t *e = json_array_get(shapes, i);
        report_printf(stdout, e,
                      "  {group_shape:%-7s} {group_size:%4d} {num_groups:%6d} {m_d1:%5d} {m_d2:%4d} {m_hops:%6d} "
                      "{g_d1:%5d} {g_d2:%4d} {g_d1_hops:%9d} {g_d2_hops:%9d} {g_hops:%6d} {coded_hops:%15.0f}  "
                      "({intermediate_node.0},{intermediate_node.1})");
        fputs(json_is_true(report_get(e, "best")) ? " best\n" : "\n", stdout);
    }
}

int cmd_ncmodel(int argc, char **argv)
{
    const char *shape = "best";
    int sweep = 0, want_size = 0;
    ncm_net n = {.mc = NCM_TREE};
    cmd_opts co;
    cmd_opts_init(&co, OPT_TOPO | OPT_JSON);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) {
            continue;
        } else if (!strcmp(a, "--sweep")) {
            sweep = 1;
        } else if (!strcmp(a, "--group-size") && i + 1 < argc) {
            want_size = (int)cli_long(a, argv[++i], 2, 65535);
        } else if (!strcmp(a, "--group-shape") && i + 1 < argc) {
            shape = argv[++i];
        } else if (!strcmp(a, "--in-position") && i + 1 < argc) {
            const char *m = argv[++i];
            int p = ncm_in_position_parse(m);
            if (p < 0) cli_fail(EXIT_USAGE, "--in-position: unknown '%s' (corner, median, boundary, best)", m);
            n.in_pos = (ncm_in_position)p;
        } else if (!strcmp(a, "--objective") && i + 1 < argc) {
            const char *m = argv[++i];
            if (!strcmp(m, "hops")) n.objective = NCM_OBJ_HOPS;
            else if (!strcmp(m, "longest")) n.objective = NCM_OBJ_LONGEST;
            else cli_fail(EXIT_USAGE, "--objective: unknown '%s' (hops, longest)", m);
        } else if (!strcmp(a, "--algo") && i + 1 < argc) {
            const char *m = argv[++i];
            if (!strcmp(m, "coded")) n.combine = 0;
            else if (!strcmp(m, "combine")) n.combine = 1;
            else cli_fail(EXIT_USAGE, "--algo: unknown '%s' (coded, combine)", m);
        } else if (!strcmp(a, "--multicast") && i + 1 < argc) {
            const char *m = argv[++i];
            if (!strcmp(m, "tree")) n.mc = NCM_TREE;
            else if (!strcmp(m, "all-at-once")) n.mc = NCM_ALL_AT_ONCE;
            else cli_fail(EXIT_USAGE, "--multicast: unknown '%s' (tree, all-at-once)", m);
        } else {
            cmd_bad_option(a, usage_text);
        }
    }
    const char *spec = co.topo;
    int json = co.json;
    if (!spec) cli_fail(EXIT_USAGE, "--topo is required (see xnoc ncmodel --help)");
    if (!strncmp(spec, "mesh:", 5)) n.torus = 0;
    else if (!strncmp(spec, "torus:", 6)) n.torus = 1;
    else cli_fail(EXIT_USAGE, "--topo '%s': the model takes mesh:WxH or torus:WxH", spec);
    if (parse_wh(strchr(spec, ':') + 1, &n.w, &n.h))
        cli_fail(EXIT_USAGE, "--topo '%s': expected a size WxH such as mesh:32x32", spec);
    char err[256];
    if (ncm_check(&n, err, sizeof err)) cli_fail(EXIT_USAGE, "--topo %s: %s", spec, err);

    double uc, conv = ncm_conventional(&n, &uc);
    ncm_coded best = {0}, c;
    int have = 0;
    json_t *all = json_array();
    if (strcmp(shape, "best")) {
        int gw, gh;
        if (parse_wh(shape, &gw, &gh))
            cli_fail(EXIT_USAGE, "--group-shape '%s': expected GWxGH such as 8x4, or best", shape);
        if (ncm_coded_eval(&n, gw, gh, &best, err, sizeof err)) cli_fail(EXIT_USAGE, "--group-shape: %s", err);
        have = 1;
    }
    if (sweep) {
        for (int gh = 1; gh <= n.h; gh++)
            for (int gw = 1; gw <= n.w; gw++) {
                if (!ncm_shape_ok(&n, gw, gh) || (want_size && gw * gh != want_size)) continue;
                if (ncm_coded_eval(&n, gw, gh, &c, err, sizeof err)) continue;
                json_t *e = coded_json(&c);
                json_object_set_new(e, "group_shape", json_sprintf("%dx%d", c.gw, c.gh));
                json_array_append_new(all, e);
            }
    }
    if (!have && ncm_best(&n, want_size, &best))
        cli_fail(EXIT_USAGE, "--topo %s: no group shape%s divides it into groups", spec,
                 want_size ? " of that --group-size" : "");

    for (size_t i = 0; i < json_array_size(all); i++) { /* the chosen shape's row */
        json_t *e = json_array_get(all, i);
        int gw = 0, gh = 0;
        parse_wh(json_string_value(json_object_get(e, "group_shape")), &gw, &gh);
        json_object_set_new(e, "best", json_boolean(gw == best.gw && gh == best.gh));
    }
    const char *mcname = n.mc == NCM_TREE ? "tree" : "all-at-once";
    json_t *o = coded_json(&best);
    json_object_set_new(o, "group_shape", json_sprintf("%dx%d", best.gw, best.gh));
    json_object_set_new(o, "topology", json_sprintf("%s:%dx%d", n.torus ? "torus" : "mesh", n.w, n.h));
    json_object_set_new(o, "multicast", json_string(mcname));
    json_object_set_new(o, "nodes", json_integer((json_int_t)n.w * n.h));
    json_object_set_new(o, "shape_chosen", json_string(strcmp(shape, "best") ? "given" : "best"));
    json_object_set_new(o, "conventional_hops", json_real(conv));
    json_object_set_new(o, "conventional_unicasts", json_real(uc));
    json_object_set_new(o, "reduction", json_real(1.0 - best.coded_hops / conv));
    json_object_set_new(o, "reduction_percent", json_real(100.0 * (1.0 - best.coded_hops / conv)));
    ncm_in_position ip = n.in_pos ? n.in_pos : n.mc == NCM_TREE ? NCM_IN_CORNER : NCM_IN_MEDIAN;
    json_object_set_new(o, "in_position", json_string(ncm_in_position_name(ip)));
    json_object_set_new(o, "objective", json_string(n.objective == NCM_OBJ_LONGEST ? "longest" : "hops"));
    json_object_set_new(o, "algo", json_string(n.combine ? "combine" : "coded"));
    json_object_set_new(o, "intermediate_nodes",
                        json_pack("{s:[i,i],s:[s,s],s:[{s:i,s:i},{s:i,s:i}]}", "position_in_group", best.in_x,
                                  best.in_y, "rule", ncm_place_rule(&best.px), ncm_place_rule(&best.py), "placement",
                                  "mirror", best.px.mirror, "offset", best.px.off, "mirror", best.py.mirror, "offset",
                                  best.py.off));
    if (sweep) json_object_set_new(o, "shapes", all);
    else json_decref(all);
    if (json) {
        json_dumpf(o, stdout, JSON_COMPACT);
        putchar('\n');
    } else {
        print_text(o);
    }
    json_decref(o);
    return 0;
}
