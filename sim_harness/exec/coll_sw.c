/* coll_sw.c - software reduce-scatter and allreduce on the cores (coll_sw.h):
 * the plan of coll-innet.elf (INNET_KIND_RS, _SWAR), every node's data in its
 * RAM, the run, every result word against the host's reduction (coll/ncfunc.c),
 * the report with the model of docs/collectives.md "Software reductions". */
#include "exec/coll_sw.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/coll/innet.h"
#include "../../firmware/coll/reduce.h"
#include "coll/ncfunc.h"
#include "exec/coll_image.h"
#include "util/cli.h"
#include "util/report.h"

static const char *const rs_names[COLL_RS_NUM] = {"halving", "ring"};
static const char *const ar_names[COLL_AR_NUM] = {"rabenseifner", "ring", "reduce-bcast", "innet"};

int coll_sw_algo_parse(int rs, const char *name)
{
    int n = rs ? COLL_RS_NUM : COLL_AR_NUM;
    for (int i = 0; i < n; i++)
        if (!strcmp(name, rs ? rs_names[i] : ar_names[i])) return i;
    return -1;
}

const char *coll_sw_algo_list(int rs) { return rs ? "halving, ring" : "rabenseifner, ring, reduce-bcast, innet"; }

typedef struct {
    const uint32_t *plan;
    uint32_t seed;
} sw_fill;

static void fill_node(void *arg, int i, uint8_t *ram)
{
    const sw_fill *f = arg;
    uint32_t *w = (uint32_t *)(ram + COLL_IMAGE_PLAN);
    memcpy(w, f->plan, 4 * IP_WORDS);
    w[IP_MAGIC] = INNET_MAGIC;
    w[IP_BUF] = RAM_BASE + COLL_IMAGE_BUF;
    coll_image_data(ram, f->seed, i, w[IP_BYTES]);
}

/* The model (docs/collectives.md "Software reductions"): steps one after the other, each the
 * firmware's send (SW), 3 cycles per router of the longest route of the step, its F flits
 * (2 + bytes / 8) and, when it combines, C cycles per 32-bit word on the core; no contention. */
#define MODEL_SW 40 /* cycles of firmware per send (docs/network-coding.md: about 39) */
#define MODEL_C 4.4 /* core cycles per word combined (reduce.c, add32: measured 4.45 at 16 KiB) */
typedef struct {
    const topo *t;
    const router_cfg *rc;
    double cycles;
    int steps;
} model;

/* one step: terminal i sends `bytes` to peer(i) for every i; combine: the receiver combines them */
static void model_step(model *m, int dist, int xor_peer, uint32_t bytes, int combine)
{
    int P = m->t->nterms, H = 0;
    if (!bytes) return;
    for (int i = 0; i < P; i++) {
        int j = xor_peer ? i ^ dist : (i + dist) % P;
        if (j >= P || j == i) continue;
        int h = coll_image_route_routers(m->t, m->rc, i, j);
        if (h > H) H = h;
    }
    m->cycles += MODEL_SW + 3.0 * H + 2 + (bytes + 7) / 8 + (combine ? MODEL_C * bytes / 4 : 0);
    m->steps++;
}

static void model_eval(model *m, int rs, int algo, uint32_t bytes, uint32_t lane)
{
    int P = m->t->nterms, k = 0;
    while ((1 << k) < P) k++;
    uint32_t blk = (bytes / lane + (uint32_t)P - 1) / (uint32_t)P * lane; /* the largest block */
    if (rs ? algo == COLL_RS_RING : algo == COLL_AR_RING) {
        for (int s = 0; s < P - 1; s++) model_step(m, 1, 0, blk, 1);
        for (int s = 0; !rs && s < P - 1; s++) model_step(m, 1, 0, blk, 0);
    } else if (rs || algo == COLL_AR_RABENSEIFNER) {
        for (int s = 0; s < k; s++) model_step(m, rs ? P >> (s + 1) : 1 << s, 1, bytes >> (s + 1), 1);
        for (int s = k - 1; !rs && s >= 0; s--) model_step(m, 1 << s, 1, bytes >> (s + 1), 0);
    } else { /* reduce-bcast: log2 P combining steps up the binomial tree, log2 P down */
        for (int s = 0; s < k; s++) model_step(m, 1 << s, 1, bytes, 1);
        for (int s = k - 1; s >= 0; s--) model_step(m, 1 << s, 1, bytes, 0);
    }
}

static void sw_text(FILE *f, const json_t *j)
{
    report_printf(f, j, "{algo} {op} on {topology}, {bytes} bytes, --reduce-op {reduce_op}: ");
    coll_image_verified_text(f, j);
    report_printf(f, j,
                  "  {cycles} cycles = {bytes_per_cycle:%.3f} bytes per cycle (one link: 8); model "
                  "{model_cycles:%.0f} cycles in {model_steps} steps ");
    fprintf(f, "(measured: %+.1f%%)\n", coll_image_measured_pct(j));
    report_printf(f, j,
                  "  combining on the cores: at most {combine_cycles} cycles for {combine_words} words "
                  "({cycles_per_word:%.2f} cycles per word)\n");
    report_printf(f, j, "  {link_flits} flits on router-to-router links\n");
}

int coll_sw_cmd(const topo *t, const router_cfg *rc, const innet_args *a, int algo, const coll_exec_opts *xo)
{
    int rs = !strcmp(a->op, "reducescatter"), nt = t->nterms;
    const char *aname = rs ? rs_names[algo] : ar_names[algo];
    int func = nc_redop_parse(a->redop ? a->redop : "sum");
    if (func < 0) cli_fail(EXIT_USAGE, "--reduce-op: unknown operator '%s' (%s)", a->redop, NC_REDOP_LIST);
    if (a->from) cli_fail(EXIT_USAGE, "--from: --op %s has no root (every terminal gets its part)", a->op);
    int bytes = a->bytes < 0 ? 64 : a->bytes;
    uint32_t lane = coll_lane_bytes(func);
    if (bytes <= 0 || bytes % (int)lane)
        cli_fail(EXIT_USAGE, "--bytes %d: --reduce-op %s combines %u-bit lanes, use a multiple of %u", bytes,
                 nc_redop_name(func), 8 * lane, lane);
    if ((nt & (nt - 1)) && (rs ? algo == COLL_RS_HALVING : algo == COLL_AR_RABENSEIFNER))
        cli_fail(EXIT_USAGE,
                 "--algo %s: recursive halving needs a power-of-two number of terminals, %s has %d; use "
                 "--algo ring",
                 aname, t->name, nt);
    uint32_t work = (COLL_IMAGE_BUF + (uint32_t)bytes + 7) / 8 * 8;
    uint32_t plan[IP_WORDS] = {0}, wbytes = coll_reduce_work((uint32_t)bytes, (uint32_t)nt, !rs, algo);
    plan[IP_KIND] = rs ? INNET_KIND_RS : INNET_KIND_SWAR;
    plan[IP_FUNC] = (uint32_t)func;
    plan[IP_BYTES] = (uint32_t)bytes;
    plan[IP_ALGO] = (uint32_t)algo;
    plan[IP_WORK] = RAM_BASE + work;
    uint32_t ram_kib = coll_image_ram_kib(work + wbytes);
    sw_fill fl = {.plan = plan, .seed = a->seed};
    coll_image ci;
    coll_image_run(&ci, t, rc, xo, ram_kib, a->max_cycles, fill_node, &fl);
    /* off the clock: terminal i's block i (reducescatter) or all of it against the host's reduction */
    uint8_t *want = xmalloc((size_t)bytes);
    coll_image_expect(want, a->seed, nt, func, (uint32_t)bytes);
    char *what = xasprintf("the %s", a->op);
    uint32_t cmax = 0, cwords = 0;
    for (int i = 0; i < nt && ci.verified; i++) {
        if (!coll_image_completed(&ci, i, a->op)) break;
        uint32_t off = rs ? coll_block_off((uint32_t)bytes, lane, (uint32_t)nt, (uint32_t)i) : 0;
        uint32_t n = rs ? coll_block_len((uint32_t)bytes, lane, (uint32_t)nt, (uint32_t)i) : (uint32_t)bytes;
        coll_image_check(&ci, i, COLL_IMAGE_BUF + off, want + off, n / 4, what, "the host's reduction");
        const uint32_t *w = coll_image_plan(&ci, i);
        if (w[IP_COMBINE_CYCLES] > cmax) cmax = w[IP_COMBINE_CYCLES], cwords = w[IP_COMBINE_WORDS];
    }
    free(what);
    free(want);
    coll_image_counts c;
    coll_image_counters(&ci, &c);
    model m = {.t = t, .rc = rc};
    model_eval(&m, rs, algo, (uint32_t)bytes, lane);
    json_t *j = json_object();
    json_object_set_new(j, "topology", json_string(t->name));
    json_object_set_new(j, "op", json_string(a->op));
    json_object_set_new(j, "algo", json_string(aname));
    json_object_set_new(j, "reduce_op", json_string(nc_redop_name(func)));
    json_object_set_new(j, "unit_func", json_string(nc_func_name(func)));
    json_object_set_new(j, "bytes", json_integer(bytes));
    json_object_set_new(j, "nodes", json_integer(nt));
    json_object_set_new(j, "verified", json_boolean(ci.verified));
    json_object_set_new(j, "cycles", json_integer((json_int_t)ci.cycles));
    json_object_set_new(j, "start_cycle", json_integer((json_int_t)ci.start_cycle));
    json_object_set_new(j, "bytes_per_cycle", json_real(ci.cycles ? (double)bytes / (double)ci.cycles : 0));
    json_object_set_new(j, "model_cycles", json_real(m.cycles));
    json_object_set_new(j, "model_steps", json_integer(m.steps));
    json_object_set_new(j, "combine_cycles", json_integer(cmax));
    json_object_set_new(j, "combine_words", json_integer(cwords));
    json_object_set_new(j, "cycles_per_word", json_real(cwords ? (double)cmax / cwords : 0));
    json_object_set_new(j, "link_flits", json_integer((json_int_t)c.link_flits));
    json_object_set_new(j, "ram_kib", json_integer(ram_kib));
    return coll_image_done(&ci, j, a->json, sw_text);
}
