/* dfmodel_cmd.c - `xnoc dfmodel`: the dragonfly paper's link-use formulas
 * for a topology and a job size (coll/dfmodel.h). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "util/cli.h"
#include "cmd/cmds.h"
#include "cmd/cmd_opts.h"
#include "coll/dfmodel.h"
#include "util/report.h"

static const char *usage_text = "usage: xnoc dfmodel --topo dragonfly:a=A,p=P,h=H[,g=G] [--alloc N] [--json]\n"
                                "\n"
                                "The link use of broadcasts on a dragonfly with minimal routing (Dorier et al.,\n"
                                "Sect. III-E): per message between two random terminals the probability of a\n"
                                "global link and of 0, 1, 2 local links, exactly (every ordered pair of\n"
                                "terminals along the routing function) and by the paper's closed forms; for a\n"
                                "broadcast over N random terminals (--alloc N, default all) the expected\n"
                                "global and local link crossings of TREE, and the bounds g-1 and\n"
                                "2(g-1)+g(a-1) of LLF, GLF and FOREST (g: the groups the job spans). Up to\n"
                                "65,536 terminals and 4,096 routers (dragonfly:a=16,p=8,h=8: the paper's 16,512).\n"
                                "docs/dragonfly.md.\n"
                                "  --json   one JSON object on stdout\n";

int cmd_dfmodel(int argc, char **argv)
{
    int n = 0;
    cmd_opts co;
    cmd_opts_init(&co, OPT_TOPO | OPT_JSON);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) continue;
        else if (!strcmp(a, "--alloc") && i + 1 < argc) n = (int)cli_long(a, argv[++i], 2, 1 << 20);
        else cmd_bad_option(a, usage_text);
    }
    const char *spec = co.topo;
    int json = co.json;
    if (!spec) cli_fail(EXIT_USAGE, "--topo is required (see xnoc dfmodel --help)");
    char err[256];
    topo *t = topo_parse_max(spec, 1, 65536, err, sizeof err); /* a model: larger than the RTL runs */
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    if (!topo_has(t, TOPO_TRAIT_GROUPS))
        cli_fail(EXIT_USAGE, "--topo %s: the model is for dragonfly:a=A,p=P,h=H[,g=G]", t->name);
    if (!n) n = t->nterms;
    if (n > t->nterms) cli_fail(EXIT_USAGE, "--alloc %d: the topology has %d terminals", n, t->nterms);
    dfm_probs p;
    dfm_eval(t, &p);
    double eg = n == t->nterms ? t->groups : dfm_expected_groups(t, n);
    int gfull = n == t->nterms ? t->groups : (int)(eg + 0.999999);
    json_t *o = json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i}", "topology", t->name, "groups", t->groups,
                          "routers_per_group", t->df_a, "terminals_per_router", t->conc, "global_links_per_router",
                          t->df_h, "terminals", t->nterms, "alloc", n);
    json_object_set_new(o, "p_global", json_real(p.p_global));
    json_object_set_new(o, "p_local", json_pack("[f,f,f]", p.p_local[0], p.p_local[1], p.p_local[2]));
    json_object_set_new(o, "e_local", json_real(p.e_local));
    json_object_set_new(o, "paper",
                        json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}", "p_global", p.paper_p_global, "p_local0",
                                  p.paper_p_local0, "p_local1", p.paper_p_local1, "e_local", p.paper_e_local,
                                  "e_local_printed", p.paper_e_local_printed, "p_local2",
                                  1 - p.paper_p_local0 - p.paper_p_local1));
    json_object_set_new(o, "tree_global_links", json_real(dfm_tree_global(&p, n)));
    json_object_set_new(o, "tree_local_links", json_real(dfm_tree_local(&p, n)));
    json_object_set_new(o, "expected_groups", json_real(eg));
    json_object_set_new(o, "bound_global_links", json_integer(dfm_bound_global(gfull)));
    json_object_set_new(o, "bound_local_links", json_integer(dfm_bound_local(gfull, t->df_a)));
    json_object_set_new(o, "bound_groups", json_integer(gfull));
    if (json) {
        json_dumpf(o, stdout, JSON_COMPACT);
        putchar('\n');
    } else {
        report_printf(stdout, o,
                      "{topology}, minimal routing, a message between two random terminals (of {terminals}):\n"
                      "  P(1 global link)  {p_global:%.4f}   (paper: {paper.p_global:%.4f})\n"
                      "  P(0 local links)  {p_local.0:%.4f}   (paper: {paper.p_local0:%.4f})\n"
                      "  P(1 local link)   {p_local.1:%.4f}   (paper: {paper.p_local1:%.4f})\n"
                      "  P(2 local links)  {p_local.2:%.4f}   (paper: {paper.p_local2:%.4f})\n"
                      "  E(local links)    {e_local:%.4f}   (paper's terms: {paper.e_local:%.4f}; its printed closed "
                      "form: {paper.e_local_printed:%.4f})\n"
                      "broadcast over {alloc} random terminals (spanning {expected_groups:%.2f} groups on average):\n"
                      "  TREE: {tree_global_links:%.1f} global and {tree_local_links:%.1f} local link crossings "
                      "expected\n"
                      "  LLF, GLF, FOREST over {bound_groups} groups: at most {bound_global_links} global and "
                      "{bound_local_links} local\n");
    }
    json_decref(o);
    topo_free(t);
    return 0;
}
