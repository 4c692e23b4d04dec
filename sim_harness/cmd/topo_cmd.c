/* topo_cmd.c - `xnoc topo`: show what a topology string means: routers,
 * terminals, links, and the route between two terminals. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/ni_regs.h"
#include "util/cli.h"
#include "util/report.h"
#include "cmd/cmds.h"
#include "cmd/cmd_opts.h"
#include "net/topo.h"

static const char *usage_text = "usage: xnoc topo --topo T [--ports k] [--route SRC:DST] [--json]\n"
                                "\n"
                                "Describes topology T: routers, terminals, ports, directed links and the\n"
                                "deterministic route from terminal SRC to terminal DST (docs/topologies.md).\n"
                                "  T: {topo-kinds};\n"
                                "     suffix :c=N for N terminals per router\n";

static const char *port_name(const topo *t, int r, int p)
{
    static char buf[16];
    if (p >= t->nnet) return "term";
    topo_port_name_at(t, r, p, buf, sizeof buf);
    return buf;
}

int cmd_topo(int argc, char **argv)
{
    const char *route = NULL;
    cmd_opts co;
    cmd_opts_init(&co, OPT_TOPO | OPT_PORTS | OPT_JSON);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cmd_usage_print(stdout, usage_text);
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) {
            continue;
        } else if (!strcmp(a, "--route") && i + 1 < argc) {
            route = argv[++i];
        } else {
            cmd_bad_option(a, usage_text);
        }
    }
    const char *spec = co.topo;
    int k = co.ports, json = co.json;
    if (!spec) cli_fail(EXIT_USAGE, "--topo is required (see xnoc topo --help)");
    char err[256];
    topo *t = topo_parse(spec, k, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);

    int src = -1, dst = -1, ports[64], n = 0;
    if (route) {
        long a, b;
        if (cli_parse_pair(route, ':', 0, t->nterms - 1, &a, &b))
            cli_fail(EXIT_USAGE, "--route '%s': expected SRC:DST with terminals 0..%d", route, t->nterms - 1);
        src = (int)a;
        dst = (int)b;
        n = topo_route_ports(t, src, dst, ports, 64);
    }

    json_t *o = json_object(), *links = json_array();
    json_object_set_new(o, "topology", json_string(t->name));
    json_object_set_new(o, "routers", json_integer(t->nrouters));
    json_object_set_new(o, "terminals", json_integer(t->nterms));
    json_object_set_new(o, "terminals_per_router", json_integer(t->conc));
    json_object_set_new(o, "channels_per_terminal", json_integer(t->k));
    json_object_set_new(o, "ports_per_router", json_integer(t->nports));
    json_object_set_new(o, "network_ports", json_integer(t->nnet));
    json_object_set_new(o, "directed_links", json_integer(t->nlinks));
    json_object_set_new(o, "vc_classes", json_integer(t->nclasses));
    if (t->ndims) {
        json_t *d = json_array();
        for (int i = 0; i < t->ndims; i++) json_array_append_new(d, json_integer(t->dims[i]));
        json_object_set_new(o, "dims", d);
    }
    topo_fact facts[8]; /* the kind's own figures (dragonfly: groups, ...) */
    for (int i = 0, nf = topo_facts(t, facts, 8); i < nf; i++)
        json_object_set_new(o, facts[i].key, json_integer(facts[i].value));
    int diam = 0;
    for (int i = 0; i < t->nrouters * t->nrouters; i++) diam = t->dist[i] > diam ? t->dist[i] : diam;
    json_object_set_new(o, "diameter", json_integer(diam));
    for (int l = 0; l < t->nlinks; l++) {
        const topo_link *L = &t->links[l];
        json_array_append_new(links, json_pack("{s:i,s:i,s:s,s:i,s:i,s:b}", "src_router", L->src, "src_port",
                                               L->src_port, "src_port_name", port_name(t, L->src, L->src_port),
                                               "dst_router", L->dst, "dst_port", L->dst_port, "dateline", L->dateline));
    }
    json_object_set_new(o, "links", links);
    if (route) {
        json_t *r = json_array(), *hops = json_array();
        for (int i = 0, rt = topo_term_router(t, src); i < n; i++) {
            json_array_append_new(r, json_integer(ports[i]));
            json_array_append_new(hops, json_pack("{s:i,s:i,s:s}", "router", rt, "port", ports[i], "port_name",
                                                  port_name(t, rt, ports[i])));
            if (ports[i] < t->nnet) rt = t->links[t->out_link[rt * t->nports + ports[i]]].dst;
        }
        json_object_set_new(o, "route", r);
        json_object_set_new(o, "route_hops", hops);
        json_object_set_new(o, "route_src", json_integer(src));
        json_object_set_new(o, "route_dst", json_integer(dst));
    }
    if (json) {
        json_dumpf(o, stdout, JSON_COMPACT);
        putchar('\n');
    } else { /* the text is written from the JSON report (util/report.h) */
        /* a Clos's terminals hang on its leaves only (its spines have none) */
        report_printf(stdout, o,
                      topo_has(t, TOPO_TRAIT_SPINES) ? "{topology}: {routers} routers, {terminals} terminals "
                                                       "({terminals_per_router} per leaf, "
                                                     : "{topology}: {routers} routers, {terminals} terminals "
                                                       "({terminals_per_router} per router, ");
        report_printf(stdout, o,
                      "{channels_per_terminal} channel(s) each), {ports_per_router} ports per router, "
                      "{directed_links} directed links, {vc_classes} VC class(es)\n");
        if (topo_describe(t)) report_printf(stdout, o, topo_describe(t));
        /* array elements render as reports of their own */
        const json_t *lk = report_get(o, "links"), *hop = report_get(o, "route_hops");
        for (int l = 0; l < t->nlinks; l++) {
            printf("  link %3d: ", l);
            report_printf(stdout, json_array_get(lk, (size_t)l),
                          "router {src_router} {src_port_name:%-6s} -> router {dst_router}");
            puts(t->links[l].dateline ? "  (dateline)" : "");
        }
        if (route) {
            report_printf(stdout, o, "route {route_src} -> {route_dst}:");
            for (int i = 0; i < n; i++) {
                report_printf(stdout, json_array_get(hop, (size_t)i), " r{router}.{port_name}");
                fputs(i + 1 < n ? " ->" : "", stdout);
            }
            report_printf(stdout, json_array_get(hop, (size_t)n - 1), " (port {port}, ");
            report_printf(stdout, o, "terminal {route_dst})\n");
        }
    }
    json_decref(o);
    topo_free(t);
    return 0;
}
