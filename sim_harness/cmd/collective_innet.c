/* collective_innet.c - `xnoc collective --algo innet`, `--op scan`,
 * `--op reducescatter`, `--op allreduce` on the cores and `--algo multicast`
 * (collective.h): their options checked, the engine's run
 * (collrun/coll_innet.c, coll_sw.c, coll_mcast.c), the report
 * (collective_report.c). */
#include <stdlib.h>
#include <string.h>

#include "../../firmware/coll/innet.h"
#include "../../firmware/coll/reduce.h"
#include "cmd/collective.h"
#include "cmd/collective_report.h"
#include "coll/coll.h"
#include "coll/ncfunc.h"
#include "collrun/coll_innet.h"
#include "collrun/coll_mcast.h"
#include "collrun/coll_sw.h"
#include "util/cli.h"

int collective_is_innet(const coll_cli *c)
{
    int scan = c->opname && (!strcmp(c->opname, "scan") || !strcmp(c->opname, "exscan"));
    if (scan && strcmp(c->algo_s, "rd") && strcmp(c->algo_s, "sched") && strcmp(c->algo_s, "innet"))
        cli_fail(EXIT_USAGE,
                 "--op %s: --algo rd (recursive doubling on the cores, the default) or innet (the routers' "
                 "streaming units), not %s",
                 c->opname, c->algo_s);
    return scan || !strcmp(c->algo_s, "innet");
}

/* An engine's refusal or failure before the run: exit 2 or 1, one line
 * (the algorithm named when its planning said no). */
static void engine_fail(int st, const coll_image_result *run, const char *algo)
{
    int code = st == COLLRUN_FAILED ? EXIT_RUNFAIL : EXIT_USAGE;
    if (run->planning) cli_fail(code, "--algo %s: %s", algo, run->error);
    cli_fail(code, "%s", run->error);
}

/* at most INNET_MAX_CHUNKS chunks (the firmware's counters and tags), named by the option that
 * sets the chunk */
static void check_chunks(const router_cfg *rc, int kind, int all, int func, int bytes, int nt)
{
    int chunk = innet_reduce_chunk_bytes(rc, all), nchunks = innet_chunks(kind, func, bytes, nt, chunk), v;
    const char *opt = innet_chunk_option(rc, all, &v);
    if (nchunks > INNET_MAX_CHUNKS)
        cli_fail(EXIT_USAGE, "--bytes %d: %d chunks of %d bytes (--router %s=%d%s), at most %d", bytes, nchunks, chunk,
                 opt, v, kind == INNET_KIND_RS ? "; each terminal's block in chunks of its own" : "", INNET_MAX_CHUNKS);
}

/* --op scan / exscan --algo innet: what the routers must have (docs/network-coding.md
 * "In-network scan"); the chain's links are the engine's to check */
static void scan_innet_check(const coll_cli *c, const topo *t, int func, int bytes)
{
    const router_cfg *rc = &c->co.rc;
    if (!rc->ncu || !rc->stream)
        cli_fail(EXIT_USAGE,
                 "--op %s --algo innet: the scan runs through the streaming units, --router stream=1 (--algo rd "
                 "runs it on the cores)",
                 c->opname);
    if (func >= NC_FUNC_NUM)
        cli_fail(EXIT_USAGE, "--reduce-op %s: the units have no 64-bit product (docs/synth.md); --algo rd runs it",
                 nc_redop_name(func));
    if (rc->ncu_ops == NCU_OPS_XOR && func != NC_FUNC_XOR)
        cli_fail(EXIT_USAGE,
                 "--reduce-op %s: the units were built with --router ncu_ops=xor, which combine by XOR only",
                 nc_redop_name(func));
    if (rc->vcs < 1 + t->conc)
        cli_fail(EXIT_USAGE,
                 "--router vcs=%d: a unit sends its prefix and its %d terminals' results at once, one VC each: "
                 "vcs=%d at least",
                 rc->vcs, t->conc, 1 + t->conc);
    if (t->conc + 1 > 15)
        cli_fail(EXIT_USAGE, "--op %s --algo innet: a unit would combine %d contributions (at most 15)", c->opname,
                 t->conc + 1);
    check_chunks(rc, INNET_KIND_SCAN, 0, func, bytes, t->nterms);
}

/* --op scan / exscan: the options, the run on the cores, the report */
static int run_scan(const coll_cli *c, const topo *t, int kind, int func)
{
    int bytes = c->bytes < 0 ? 64 : c->bytes, lane = (int)coll_lane_bytes(func);
    if (bytes <= 0 || bytes % lane)
        cli_fail(EXIT_USAGE, "--bytes %d: --reduce-op %s combines %d-bit lanes, use a multiple of %d", bytes,
                 nc_redop_name(func), 8 * lane, lane);
    if (c->from) cli_fail(EXIT_USAGE, "--from: a scan has no root (every terminal gets its prefix)");
    int innet = !strcmp(c->algo_s, "innet");
    if (innet) scan_innet_check(c, t, func, bytes);
    innet_opts o = {.kind = kind,
                    .innet = innet,
                    .func = func,
                    .bytes = bytes,
                    .root = -1,
                    .seed = (uint32_t)c->co.seed,
                    .max_cycles = c->xo.max_cycles};
    scan_result r;
    int st = collrun_scan(t, &c->co.rc, &o, &c->xo, &r);
    if (st) engine_fail(st, &r.run, innet ? "innet" : "rd");
    return collective_report_emit(collective_report_scan(t, c->opname, func, bytes, &r), COLL_FAMILY_SCAN, c->co.json);
}

/* --algo innet: the options against the routers and the topology, the run, the report */
static int run_reduction(const coll_cli *c, const topo *t, int kind, int func)
{
    const router_cfg *rc = &c->co.rc;
    int all = kind == INNET_KIND_ALLREDUCE, nt = t->nterms, rs = kind == INNET_KIND_RS;
    if (!rc->ncu)
        cli_fail(EXIT_USAGE, "--algo innet: the routers have no coding units (--router ncu=0); use --algo sched, "
                             "tree or rd");
    if (func >= NC_FUNC_NUM)
        cli_fail(EXIT_USAGE,
                 "--reduce-op %s: the units have no 64-bit product (docs/synth.md); the cores run it: --op %s "
                 "--algo %s",
                 nc_redop_name(func), c->opname,
                 all  ? "rabenseifner, ring or reduce-bcast"
                 : rs ? "halving or ring"
                      : "tree or sched");
    if (rc->ncu_ops == NCU_OPS_XOR && func != NC_FUNC_XOR)
        cli_fail(EXIT_USAGE,
                 "--reduce-op %s: the units were built with --router ncu_ops=xor, which combine by XOR only",
                 nc_redop_name(func));
    if (innet_window(rc) < 1)
        cli_fail(EXIT_USAGE, "--algo innet: --router slots=%d, a window of one chunk needs 2 slots", rc->slots);
    int bytes = c->bytes < 0 ? 64 : c->bytes, lane = (int)coll_lane_bytes(func);
    if (bytes <= 0 || bytes % lane)
        cli_fail(EXIT_USAGE, "--bytes %d: --reduce-op %s combines %d-bit lanes, use a multiple of %d", bytes,
                 nc_redop_name(func), 8 * lane, lane);
    /* many packets of a few flits in flight deadlock the streaming units' lanes (a reduce with
     * --router smax=1 too; docs/collectives-results.md "Reduce-scatter through the streaming units") */
    uint32_t blk = coll_block_len((uint32_t)bytes, (uint32_t)lane, (uint32_t)nt, 0);
    if (rs && blk < 64)
        cli_fail(EXIT_USAGE,
                 "--bytes %d: a reduce-scatter through the streaming units needs blocks of at least 64 bytes (%d "
                 "terminals: --bytes %d or more); smaller ones can deadlock the units' lanes",
                 bytes, nt, 64 * nt);
    check_chunks(rc, kind, all, func, bytes, nt);
    int root = -1;
    if (c->from && rs) cli_fail(EXIT_USAGE, "--from: a reduce-scatter has no root (every terminal gets its block)");
    if (c->from) {
        long v;
        if (cli_parse_long(c->from, 0, nt - 1, &v))
            cli_fail(EXIT_USAGE, "--from '%s': the root is one terminal, 0..%d", c->from, nt - 1);
        if (all)
            cli_fail(EXIT_USAGE, "--from: an allreduce has no root to choose (its tree's root is the middle router)");
        root = (int)v;
    }
    innet_opts o = {.kind = kind,
                    .func = func,
                    .bytes = bytes,
                    .root = root,
                    .seed = (uint32_t)c->co.seed,
                    .max_cycles = c->xo.max_cycles};
    innet_result r;
    int st = collrun_innet(t, rc, &o, &c->xo, &r);
    if (st) engine_fail(st, &r.run, "innet");
    return collective_report_emit(collective_report_innet(t, c->opname, func, bytes, &r), COLL_FAMILY_INNET,
                                  c->co.json);
}

int collective_innet(coll_cli *c)
{
    char err[512];
    if (c->file || c->shape_s || c->mcast_s || c->xor_s || c->inpos_s || c->alloc_s || c->to || c->xo.bg_rate > 0)
        cli_fail(EXIT_USAGE, "--algo innet and --op scan take --topo, --op, --bytes, --reduce-op, --from "
                             "(reduce's root), --router, --seed and the run options, not --schedule, --to, "
                             "--alloc, --background or the hnc options");
    if (!c->co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc collective --help)");
    if (!c->opname) cli_fail(EXIT_USAGE, "--op is required: reduce, allreduce or reducescatter with --algo innet");
    int func = nc_redop_parse(c->redop_s ? c->redop_s : "sum");
    if (func < 0) cli_fail(EXIT_USAGE, "%s: unknown operator '%s' (%s)", c->redop_opt, c->redop_s, NC_REDOP_LIST);
    topo *t = topo_parse(c->co.topo, c->co.ports, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    const char *op = c->opname;
    int st;
    if (!strcmp(op, "scan") || !strcmp(op, "exscan"))
        st = run_scan(c, t, strcmp(op, "scan") ? INNET_KIND_EXSCAN : INNET_KIND_SCAN, func);
    else if (!strcmp(op, "reduce") || !strcmp(op, "allreduce"))
        st = run_reduction(c, t, strcmp(op, "reduce") ? INNET_KIND_ALLREDUCE : INNET_KIND_REDUCE, func);
    else if (!strcmp(op, "reducescatter")) st = run_reduction(c, t, INNET_KIND_RS, func);
    else cli_fail(EXIT_USAGE, "--algo innet: --op %s is not a reduction (reduce or allreduce)", op);
    topo_free(t);
    return st;
}

/* the software reductions' --algo names (firmware/coll/reduce.h COLL_RS_*, COLL_AR_*) */
static const char *const rs_names[COLL_RS_NUM] = {"halving", "ring"};
static const char *const ar_names[COLL_AR_NUM] = {"rabenseifner", "ring", "reduce-bcast", "innet"};

int collective_is_software(const coll_cli *c)
{
    if (!c->opname || (strcmp(c->opname, "reducescatter") && strcmp(c->opname, "allreduce"))) return 0;
    if (!strcmp(c->opname, "reducescatter") && !strcmp(c->algo_s, "innet") && !c->co.rc.stream)
        cli_fail(EXIT_USAGE, "--op reducescatter --algo innet: a reduce-scatter inside the network runs through the "
                             "streaming units (--router stream=1); --algo halving or ring runs it on the cores");
    return strcmp(c->algo_s, "innet") != 0;
}

/* --algo: the algorithm of --op reducescatter (rs) or allreduce; sched (the default): recursive
 * halving where it runs (a power of two of terminals), else the ring */
static int sw_algo(const coll_cli *c, const topo *t, int rs)
{
    int n = rs ? COLL_RS_NUM : COLL_AR_INNET;
    if (!strcmp(c->algo_s, "sched")) return t->nterms & (t->nterms - 1) ? COLL_RS_RING : 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(c->algo_s, rs ? rs_names[i] : ar_names[i])) return i;
    cli_fail(EXIT_USAGE, "--algo %s: --op %s runs %s", c->algo_s, c->opname,
             rs ? "halving, ring" : "rabenseifner, ring, reduce-bcast, innet");
}

int collective_software(coll_cli *c)
{
    char err[512];
    int rs = !strcmp(c->opname, "reducescatter");
    if (c->file || c->shape_s || c->mcast_s || c->xor_s || c->inpos_s || c->alloc_s || c->to || c->xo.bg_rate > 0 ||
        c->decode_s)
        cli_fail(EXIT_USAGE,
                 "--op %s takes --topo, --bytes, --algo, --reduce-op, --router, --seed and the run options, not "
                 "--schedule, --to, --alloc, --background or the hnc options",
                 c->opname);
    if (!c->co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc collective --help)");
    topo *t = topo_parse(c->co.topo, c->co.ports, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    int algo = sw_algo(c, t, rs), func = nc_redop_parse(c->redop_s ? c->redop_s : "sum");
    const char *aname = rs ? rs_names[algo] : ar_names[algo];
    if (func < 0) cli_fail(EXIT_USAGE, "%s: unknown operator '%s' (%s)", c->redop_opt, c->redop_s, NC_REDOP_LIST);
    if (c->from) cli_fail(EXIT_USAGE, "--from: --op %s has no root (every terminal gets its part)", c->opname);
    int bytes = c->bytes < 0 ? 64 : c->bytes, lane = (int)coll_lane_bytes(func);
    if (bytes <= 0 || bytes % lane)
        cli_fail(EXIT_USAGE, "--bytes %d: --reduce-op %s combines %d-bit lanes, use a multiple of %d", bytes,
                 nc_redop_name(func), 8 * lane, lane);
    sw_opts o = {.rs = rs,
                 .algo = algo,
                 .func = func,
                 .bytes = bytes,
                 .seed = (uint32_t)c->co.seed,
                 .max_cycles = c->xo.max_cycles};
    sw_result r;
    int st = collrun_sw(t, &c->co.rc, &o, &c->xo, &r);
    if (st && r.run.planning) cli_fail(EXIT_USAGE, "--algo %s: %s; use --algo ring", aname, r.run.error);
    if (st) engine_fail(st, &r.run, aname);
    st = collective_report_emit(collective_report_sw(t, c->opname, aname, func, bytes, &r), COLL_FAMILY_SW, c->co.json);
    topo_free(t);
    return st;
}

/* --algo multicast: who sends (src) and who receives (rcv), and bcast's root, from --op, --from, --to */
static void mcast_sets(const coll_cli *c, const topo *t, int mnb, int all, uint8_t *src, uint8_t *rcv, int *root)
{
    int nt = t->nterms;
    *root = 0;
    if (mnb) {
        coll_sched cs;
        char serr[512];
        if (coll_init(&cs, t, OP_MNB, c->from, c->to, serr, sizeof serr)) cli_fail(EXIT_USAGE, "%s", serr);
        for (int i = 0; i < nt; i++) src[i] = cs.from[i], rcv[i] = cs.to[i];
        coll_free(&cs);
    } else if (c->from) {
        long v;
        if (all) cli_fail(EXIT_USAGE, "--from: an allgather has no root (every terminal multicasts)");
        if (cli_parse_long(c->from, 0, nt - 1, &v))
            cli_fail(EXIT_USAGE, "--from '%s': the root is one terminal, 0..%d", c->from, nt - 1);
        *root = (int)v;
    }
    if (c->to && !mnb) cli_fail(EXIT_USAGE, "--to: --op %s sends to every terminal (--op mnb takes --to)", c->opname);
    if (!mnb)
        for (int i = 0; i < nt; i++) src[i] = all || i == *root, rcv[i] = all || i != *root;
}

/* --algo multicast: the options against the clos and its routers, the run, the report */
static int run_mcast(const coll_cli *c, const topo *t)
{
    const router_cfg *rc = &c->co.rc;
    const char *op = c->opname;
    /* all: every source's message to its own place (allgather, mnb); mnb: the --from sources to the --to set */
    int mnb = !strcmp(op, "mnb"), all = mnb || !strcmp(op, "allgather");
    if (!all && strcmp(op, "bcast"))
        cli_fail(EXIT_USAGE, "--algo multicast: --op %s; it runs bcast, allgather and mnb", op);
    if (!topo_has(t, TOPO_TRAIT_SPINES))
        cli_fail(EXIT_USAGE, "--algo multicast: %s is not a clos (the routing control picks a clos's spines)", t->name);
    if (!rc->ncu) cli_fail(EXIT_USAGE, "--algo multicast: the routers have no coding units (--router ncu=0)");
    int nt = t->nterms, root;
    if (nt > coll_mcast_max_terms() || nt + t->nrouters > coll_mcast_max_addrs())
        cli_fail(EXIT_USAGE, "--algo multicast: %s has %d terminals, at most %d (and %d addresses)", t->name, nt,
                 coll_mcast_max_terms(), coll_mcast_max_addrs());
    uint8_t *src = xcalloc((size_t)nt, 1), *rcv = xcalloc((size_t)nt, 1);
    mcast_sets(c, t, mnb, all, src, rcv, &root);
    int bytes = c->bytes < 0 ? 64 : c->bytes;
    int chunk = innet_chunk_bytes(rc), nch = (bytes + chunk - 1) / chunk;
    if (bytes <= 0 || bytes % 4)
        cli_fail(EXIT_USAGE, "--bytes %d: --algo multicast sends whole 32-bit words, use a multiple of 4", bytes);
    if (nch > INNET_MAX_CHUNKS)
        cli_fail(EXIT_USAGE, "--bytes %d: %d chunks of %d bytes (--router ncmax=%d), at most %d", bytes, nch, chunk,
                 rc->ncmax, INNET_MAX_CHUNKS);
    mcast_opts o = {.name = op,
                    .src = src,
                    .rcv = rcv,
                    .all = all,
                    .root = root,
                    .packed = c->steps_s && !strcmp(c->steps_s, "packed"),
                    .bytes = bytes,
                    .seed = (uint32_t)c->co.seed,
                    .max_cycles = c->xo.max_cycles};
    mcast_result r;
    int st = collrun_mcast(t, rc, &o, &c->xo, &r);
    if (st) engine_fail(st, &r.run, "multicast");
    st = collective_report_emit(collective_report_mcast(t, op, &o, &r), COLL_FAMILY_MCAST, c->co.json);
    free(src);
    free(rcv);
    return st;
}

int collective_mcast(coll_cli *c)
{
    char err[512];
    if (c->file || c->shape_s || c->mcast_s || c->xor_s || c->inpos_s || c->alloc_s || c->redop_s || c->xo.bg_rate > 0)
        cli_fail(EXIT_USAGE, "--algo multicast takes --topo, --op, --bytes, --from (bcast's root, mnb's sources), "
                             "--to (mnb's receivers), --router, --seed and the run options, not --schedule, --alloc, "
                             "--background, --reduce-op or the hnc options");
    if (!c->co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc collective --help)");
    if (!c->opname) cli_fail(EXIT_USAGE, "--op is required: bcast, allgather or mnb with --algo multicast");
    int packed = c->steps_s && !strcmp(c->steps_s, "packed");
    if (c->steps_s && !packed && strcmp(c->steps_s, "assignment"))
        cli_fail(EXIT_USAGE, "--steps '%s': assignment or packed", c->steps_s);
    topo *t = topo_parse(c->co.topo, c->co.ports, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    int st = run_mcast(c, t);
    topo_free(t);
    return st;
}
