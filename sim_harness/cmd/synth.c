/* synth.c - a network's router area from yosys (synth.h), and `xnoc synth`. */
#include "cmd/synth.h"

/* Paths here are bounded by PATH_MAX; a truncated command would fail loudly. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/fnv.h"
#include "util/proc.h"
#include "util/report.h"
#include "cmd/cmd_opts.h"
#include "cmd/cmds.h"
#include "net/model_cache.h"
#include "net/netbuild.h"
#include "net/netgen.h"

/* The design total of yosys's `stat`: the last "Number of cells" section;
 * flip-flops are its $_DFF* / $_SDFF* cells, muxes its $_MUX_ cells. */
static int parse_stat(const char *log, synth_area *a)
{
    FILE *f = fopen(log, "r");
    if (!f) return -1;
    char line[512];
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        const char *c = strstr(line, "Number of cells:");
        long n = 0;
        if (c) {
            a->cells = atol(c + strlen("Number of cells:"));
            a->flip_flops = a->muxes = 0;
            seen = 1;
        } else if ((c = strstr(line, "$_DFF")) || (c = strstr(line, "$_SDFF"))) {
            if (sscanf(strchr(c, ' ') ? strchr(c, ' ') : "", "%ld", &n) == 1) a->flip_flops += n;
        } else if ((c = strstr(line, "$_MUX_ "))) {
            if (sscanf(c + 7, "%ld", &n) == 1) a->muxes += n;
        }
    }
    fclose(f);
    return seen ? 0 : -1;
}

static int load_cached(const char *path, synth_area *a)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) return -1;
    int ok = json_unpack(j, "{s:I, s:I, s:I}", "cells", (json_int_t *)&a->cells, "flip_flops",
                         (json_int_t *)&a->flip_flops, "muxes", (json_int_t *)&a->muxes) == 0;
    json_decref(j);
    return ok ? 0 : -1;
}

/* Synthesizes module `top` with `params` ("K=V ...") or takes it from the cache. */
static int synth_module(const char *top, synth_area *a, int noshare, int progress, char *err, size_t errlen)
{
    char srcs[8192], yver[128] = "?";
    uint64_t h = FNV1A_INIT;
    if (netbuild_rtl_sources(srcs, sizeof srcs, &h, err, errlen)) return -1;
    for (char *r = srcs, *w = srcs;; r++) /* a yosys script takes paths unquoted */
        if (*r != '\'' && !(*w++ = *r)) break;
    FILE *p = popen("yosys -V 2>/dev/null", "r");
    if (!p || !fgets(yver, sizeof yver, p)) {
        if (p) pclose(p);
        snprintf(err, errlen, "yosys not found: run 'make deps' (it installs Debian's yosys)");
        return -1;
    }
    pclose(p);
    h = fnv1a_str(fnv1a_str(fnv1a_str(h, yver), top), a->params);
    if (noshare) h = fnv1a_str(h, "-noshare");
    char *cache = xasprintf("%s/cache", cli_build_dir());
    mkdir(cli_build_dir(), 0777);
    mkdir(cache, 0777);
    char *path = xasprintf("%s/synth-%s-%016llx.json", cache, top, (unsigned long long)h);
    char *lockp = xasprintf("%s.lock", path), *dir = NULL, *ys = NULL, *log = NULL, *outp = NULL, *tmp = NULL;
    char *what = NULL, *chp = xstrdup(""), *params = xstrdup(a->params);
    int lock = -1, rc = -1;
    if (!load_cached(path, a)) {
        rc = 0;
        goto out;
    }
    lock = open(lockp, O_CREAT | O_RDWR, 0666); /* concurrent sweep points: one synthesis */
    if (lock >= 0) flock(lock, LOCK_EX);
    if (!load_cached(path, a)) {
        rc = 0;
        goto out;
    }
    dir = xasprintf("%s/synth-%016llx.tmp%d", cache, (unsigned long long)h, (int)getpid());
    mkdir(dir, 0777);
    for (char *save = NULL, *kv = strtok_r(params, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        if (eq) *eq = 0;
        char *more = xasprintf("%s -set %s %s", chp, kv, eq ? eq + 1 : "");
        free(chp);
        chp = more;
    }
    ys = xasprintf("%s/s.ys", dir);
    log = xasprintf("%s/yosys.log", dir);
    outp = xasprintf("%s/yosys.out", dir);
    FILE *f = fopen(ys, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", ys, strerror(errno));
        goto out;
    }
    fprintf(f, "read_verilog -sv %s\nchparam%s %s\nsynth -top %s%s\nstat\n", srcs, chp, top, top,
            noshare ? " -noshare" : "");
    fclose(f);
    if (progress && !cli_progress_enabled()) progress = 0;
    /* the parameters once; the progress lines name the module only */
    if (progress) fprintf(stderr, "xnoc %s: synthesizing %s %s (yosys; cached afterwards)\n", cli_cmd, top, a->params);
    what = xasprintf("synthesizing %s (yosys)", top);
    /* an argument vector in the synthesis folder: no path reaches a shell */
    char *argv[] = {"yosys", "-q", "-l", "yosys.log", "s.ys", NULL};
    if (proc_run_argv(argv, dir, outp, what, progress, cli_now()) || parse_stat(log, a)) {
        snprintf(err, errlen, "yosys failed on %s %s; see %s", top, a->params, log);
        goto out;
    }
    json_t *j = json_pack("{s:s, s:s, s:I, s:I, s:I}", "module", top, "params", a->params, "cells",
                          (json_int_t)a->cells, "flip_flops", (json_int_t)a->flip_flops, "muxes", (json_int_t)a->muxes);
    tmp = xasprintf("%s.tmp%d", path, (int)getpid());
    if (json_dump_file(j, tmp, JSON_COMPACT) || rename(tmp, path)) {
        json_decref(j);
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto out;
    }
    json_decref(j);
    proc_rm_tree(dir); /* a leftover temporary folder is harmless */
    rc = 0;
out:
    if (lock >= 0) close(lock);
    free(cache), free(path), free(lockp), free(dir), free(ys), free(log), free(outp), free(tmp), free(what);
    free(chp), free(params);
    return rc;
}

int synth_network(const topo *t, const router_cfg *rc, int progress, synth_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    /* the router has a port for each of the unit's lanes past the first (router_lanes) */
    int P = netgen_ports(t, rc), NG = router_groups(t, rc), L = router_lanes(t, rc);
    snprintf(r->router.params, sizeof r->router.params,
             "NumPorts=%d NumVcs=%d BufDepth=%d NumAddrs=%d NumClasses=%d NumGroups=%d RouteBits=%d", P + L - 1,
             rc->vcs, rc->buf, netgen_addresses(t, rc), router_classes(t, rc), NG, topo_port_bits(t));
    /* yosys's SAT-based sharing outgrows 9 GB on the group table's conditional reads (docs/synth.md) */
    r->noshare = NG > 1;
    if (synth_module("xnoc_router", &r->router, r->noshare, progress, err, errlen)) return -1;
    if (!rc->ncu) return 0;
    r->has_unit = 1;
    /* the unit as the network has it, and its other operator set: what the operators cost */
    synth_area *ops[2] = {&r->unit_xor, &r->unit_all};
    char lanes[32] = "";
    if (L > 1)
        snprintf(lanes, sizeof lanes, " NumLanes=%d%s%s", L, t->kind == TOPO_CLOS ? " LaneReserve=1" : "",
                 rc->stream ? " Stream=1" : "");
    for (int o = 0; o < 2; o++) {
        snprintf(
            ops[o]->params, sizeof ops[o]->params,
            "NumPorts=%d NumVcs=%d BufDepth=%d NumAddrs=%d NumTerms=%d NumSlots=%d XorLat=%d MaxFlits=%d Timeout=%d "
            "NcuOps=%d%s",
            P, rc->vcs, rc->buf, netgen_addresses(t, rc), t->nterms, rc->slots, rc->xorlat, rc->ncmax, rc->timeout, o,
            lanes);
        if (synth_module("xnoc_ncu", ops[o], 0, progress, err, errlen)) return -1;
    }
    r->unit = rc->ncu_ops == NCU_OPS_XOR ? r->unit_xor : r->unit_all;
    return 0;
}

/* ---- xnoc synth */

static const char usage_text[] =
    "usage: xnoc synth --topo T [--router K=V,...] [--ports k] [--json]\n"
    "\n"
    "The area of the network's router, and of its coding unit (ncu=1), synthesized by\n"
    "yosys to generic gates with the parameters this network gives them (cached in\n"
    "build/cache/; 15-60 s per new configuration).  Cells are yosys's gate library\n"
    "($_AND_, $_MUX_, $_DFF_...): a technology-independent size (docs/synth.md).\n"
    "The unit is synthesized with XOR only and with every combining operator\n"
    "(ncu_ops=xor|all); the network's choice counts in the totals.\n"
    "  --topo T          any topology xnoc runs\n" ROUTER_CFG_HELP "  --ports k         NI channels per terminal (1)\n"
    "  --json            one JSON object on stdout\n";

static json_t *area_json(const synth_area *a)
{
    return json_pack("{s:s, s:I, s:I, s:I}", "params", a->params, "cells", (json_int_t)a->cells, "flip_flops",
                     (json_int_t)a->flip_flops, "muxes", (json_int_t)a->muxes);
}

int cmd_synth(int argc, char **argv)
{
    char err[600];
    cmd_opts co;
    cmd_opts_init(&co, OPT_NET);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!cmd_opts_arg(&co, argc, argv, &i)) cmd_bad_option(a, usage_text);
    }
    topo *t = cmd_opts_topo(&co);
    router_cfg rc = co.rc;
    int json = co.json;
    synth_result r;
    if (synth_network(t, &rc, 1, &r, err, sizeof err)) cli_fail(EXIT_RUNFAIL, "%s", err);
    long per = r.router.cells + (r.has_unit ? r.unit.cells : 0);
    json_t *o =
        json_pack("{s:s, s:i, s:o, s:o, s:I, s:I, s:b}", "topology", t->name, "routers", t->nrouters, "router",
                  area_json(&r.router), "unit", r.has_unit ? area_json(&r.unit) : json_null(), "cells_per_router",
                  (json_int_t)per, "network_cells", (json_int_t)per * t->nrouters, "noshare", r.noshare);
    if (r.has_unit) { /* the combining operators' cost: the unit with XOR only and with all of them */
        long x = r.unit_xor.cells, a = r.unit_all.cells;
        json_object_set_new(o, "ncu_ops", json_string(rc.ncu_ops == NCU_OPS_XOR ? "xor" : "all"));
        json_object_set_new(o, "unit_ops",
                            json_pack("{s:I, s:I, s:I, s:f}", "xor_cells", (json_int_t)x, "all_cells", (json_int_t)a,
                                      "operator_cells", (json_int_t)(a - x), "operator_percent", /* one decimal */
                                      x ? round(1000.0 * (double)(a - x) / (double)x) / 10 : 0.0));
    }
    if (json) {
        json_dumpf(o, stdout, JSON_COMPACT);
        putchar('\n');
    } else { /* the text is written from the JSON report (util/report.h) */
        report_printf(stdout, o, "{topology}: {routers} routers\n");
        report_printf(stdout, o,
                      "  router       {router.params:%-58s} {router.cells:%8ld} cells {router.flip_flops:%7ld} "
                      "flip-flops {router.muxes:%7ld} muxes");
        fputs(r.noshare ? " (synth -noshare)\n" : "\n", stdout);
        if (r.has_unit)
            report_printf(stdout, o,
                          "  coding unit  {unit.params:%-58s} {unit.cells:%8ld} cells {unit.flip_flops:%7ld} "
                          "flip-flops {unit.muxes:%7ld} muxes\n");
        if (r.has_unit)
            report_printf(stdout, o,
                          "  unit operators ({ncu_ops}): XOR only {unit_ops.xor_cells:%ld} cells, all "
                          "{unit_ops.all_cells:%ld} cells (+{unit_ops.operator_cells:%ld}, "
                          "{unit_ops.operator_percent}%)\n");
        report_printf(stdout, o, "  per router {cells_per_router:%ld} cells, the network {network_cells:%ld} cells\n");
    }
    json_decref(o);
    topo_free(t);
    return 0;
}
