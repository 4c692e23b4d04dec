/* coll_sw.c - software reduce-scatter and allreduce on the cores (coll_sw.h):
 * the plan of coll-innet.elf (INNET_KIND_RS, _SWAR), every node's data in its
 * RAM, the run, every result word against the host's reduction (coll/ncfunc.c),
 * the model of docs/collectives.md "Software reductions". */
#include "collrun/coll_sw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/coll/innet.h"
#include "../../firmware/coll/reduce.h"
#include "collrun/coll_exec.h"
#include "util/cli.h"

typedef struct {
    const uint32_t *plan;
    uint32_t seed;
} sw_fill;

static void fill_node(void *arg, int i, uint8_t *ram)
{
    const sw_fill *f = arg;
    coll_image_place(ram, f->plan, f->seed, i);
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

int collrun_sw(const topo *t, const router_cfg *rc, const sw_opts *o, const coll_exec_opts *xo, sw_result *r)
{
    int nt = t->nterms, rs = o->rs, algo = o->algo, bytes = o->bytes;
    uint32_t lane = coll_lane_bytes(o->func);
    memset(r, 0, sizeof *r);
    if ((nt & (nt - 1)) && (rs ? algo == COLL_RS_HALVING : algo == COLL_AR_RABENSEIFNER)) {
        snprintf(r->run.error, sizeof r->run.error,
                 "recursive halving needs a power-of-two number of terminals, %s has %d", t->name, nt);
        r->run.planning = 1;
        return COLLRUN_REFUSED;
    }
    uint32_t work = (COLL_IMAGE_BUF + (uint32_t)bytes + 7) / 8 * 8;
    uint32_t plan[IP_WORDS] = {0}, wbytes = coll_reduce_work((uint32_t)bytes, (uint32_t)nt, !rs, algo);
    plan[IP_KIND] = rs ? INNET_KIND_RS : INNET_KIND_SWAR;
    plan[IP_FUNC] = (uint32_t)o->func;
    plan[IP_BYTES] = (uint32_t)bytes;
    plan[IP_ALGO] = (uint32_t)algo;
    plan[IP_WORK] = RAM_BASE + work;
    uint32_t ram_kib = coll_image_ram_kib(work + wbytes);
    sw_fill fl = {.plan = plan, .seed = o->seed};
    coll_image ci;
    if (coll_image_run(&ci, t, rc, xo, ram_kib, o->max_cycles, fill_node, &fl)) {
        snprintf(r->run.error, sizeof r->run.error, "%s", ci.error);
        return COLLRUN_REFUSED;
    }
    /* off the clock: terminal i's block i (reducescatter) or all of it against the host's reduction */
    uint8_t *want = xmalloc((size_t)bytes);
    coll_image_expect(want, o->seed, nt, o->func, (uint32_t)bytes);
    const char *name = rs ? "reducescatter" : "allreduce";
    char *what = xasprintf("the %s", name);
    for (int i = 0; i < nt && ci.verified; i++) {
        if (!coll_image_completed(&ci, i, name)) break;
        uint32_t off = rs ? coll_block_off((uint32_t)bytes, lane, (uint32_t)nt, (uint32_t)i) : 0;
        uint32_t n = rs ? coll_block_len((uint32_t)bytes, lane, (uint32_t)nt, (uint32_t)i) : (uint32_t)bytes;
        coll_image_check(&ci, i, COLL_IMAGE_BUF + off, want + off, n / 4, what, "the host's reduction");
        const uint32_t *w = coll_image_plan(&ci, i);
        if (w[IP_COMBINE_CYCLES] > r->combine_cycles)
            r->combine_cycles = w[IP_COMBINE_CYCLES], r->combine_words = w[IP_COMBINE_WORDS];
    }
    free(what);
    free(want);
    model m = {.t = t, .rc = rc};
    model_eval(&m, rs, algo, (uint32_t)bytes, lane);
    r->model_cycles = m.cycles;
    r->model_steps = m.steps;
    coll_image_end(&ci, ram_kib, &r->run);
    return COLLRUN_RAN;
}
