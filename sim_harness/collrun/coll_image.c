/* coll_image.c - the runners of coll-innet.elf share this (coll_image.h). */
#include "collrun/coll_image.h"

#include <stdlib.h>
#include <string.h>

#include "../../firmware/coll/pattern.h"
#include "coll/ncfunc.h"
#include "net/netgen.h"
#include "util/cli.h"

#define STACK_RESERVE (32u * 1024)

uint32_t coll_image_ram_kib(uint32_t need)
{
    uint32_t kib = (need + STACK_RESERVE + 65535) / 65536 * 64;
    return kib < 256 ? 256 : kib;
}

void coll_image_data(uint8_t *ram, uint32_t seed, int i, uint32_t bytes)
{
    for (uint32_t k = 0; k < bytes / 4; k++) {
        uint32_t v = coll_pattern(seed, i, -1, k);
        memcpy(ram + COLL_IMAGE_BUF + 4 * k, &v, 4);
    }
}

uint32_t *coll_image_place(uint8_t *ram, const uint32_t *plan, uint32_t seed, int i)
{
    uint32_t *w = (uint32_t *)(ram + COLL_IMAGE_PLAN);
    memcpy(w, plan, 4 * IP_WORDS);
    w[IP_MAGIC] = INNET_MAGIC;
    w[IP_BUF] = RAM_BASE + COLL_IMAGE_BUF;
    coll_image_data(ram, seed, i, w[IP_BYTES]);
    return w;
}

void coll_image_expect(uint8_t *want, uint32_t seed, int nt, int func, uint32_t bytes)
{
    uint8_t *mine = xmalloc(bytes + (size_t)COLL_IMAGE_BUF);
    for (int i = 0; i < nt; i++) {
        coll_image_data(mine, seed, i, bytes);
        if (i == 0) memcpy(want, mine + COLL_IMAGE_BUF, bytes);
        else nc_func_combine(func, want, mine + COLL_IMAGE_BUF, bytes);
    }
    free(mine);
}

int coll_image_route_routers(const topo *t, const router_cfg *rc, int a, int b)
{
    int cur = topo_term_router(t, a), dst = topo_term_router(t, b), h = 1;
    while (cur != dst && h <= t->nrouters) {
        int p = netgen_route(t, rc, cur, b), l = p >= 0 && p < t->nports ? t->out_link[cur * t->nports + p] : -1;
        if (l < 0) break;
        cur = t->links[l].dst;
        h++;
    }
    return h;
}

/* the timed region: the first node's start to the last node's end (nodes that completed) */
static void timed(coll_image *ci)
{
    uint64_t s = UINT64_MAX, e = 0;
    for (int i = 0; i < ci->sy->n; i++) {
        const uint32_t *w = coll_image_plan(ci, i);
        if (w[IP_STATUS] != 1) continue;
        uint64_t t0 = (uint64_t)w[IP_T0_HI] << 32 | w[IP_T0_LO], t1 = (uint64_t)w[IP_T1_HI] << 32 | w[IP_T1_LO];
        if (t0 < s) s = t0;
        if (t1 > e) e = t1;
    }
    ci->start_cycle = s == UINT64_MAX ? 0 : s;
    ci->cycles = e > s ? e - s : 0;
}

int coll_image_run(coll_image *ci, const topo *t, const router_cfg *rc, const coll_exec_opts *xo, uint32_t ram_kib,
                   uint64_t max_cycles, coll_image_fill fill, void *arg)
{
    char err[512], *elf = xasprintf("%s/firmware/coll-innet.elf", cli_build_dir());
    sys_opts o = {.ram_kib = ram_kib,
                  .clock_ratio = xo->clock_ratio,
                  .console_out = stderr,
                  .watchdog = xo->watchdog == UINT64_MAX ? 0
                              : xo->watchdog             ? xo->watchdog
                                                         : SYS_WATCHDOG_DEFAULT,
                  .spin_watchdog = xo->spin_watchdog,
                  .plan_addr = RAM_BASE + COLL_IMAGE_PLAN};
    sys *sy = sys_create(t, rc, &o, elf, err, sizeof err);
    free(elf);
    if (!sy) {
        ci->sy = NULL;
        ci->verified = 0;
        snprintf(ci->error, sizeof ci->error, "%s", err);
        return COLLRUN_REFUSED;
    }
    for (int i = 0; i < t->nterms; i++) {
        memset(sy->nodes[i].core.ram + COLL_IMAGE_PLAN, 0, 4 * IP_WORDS);
        fill(arg, i, sy->nodes[i].core.ram);
    }
    int r = sys_run(sy, max_cycles);
    cli_progress_done();
    ci->sy = sy;
    ci->verified = !r;
    ci->error[0] = 0;
    if (r) snprintf(ci->error, sizeof ci->error, "%s", sys_error(sy));
    timed(ci);
    return COLLRUN_RAN;
}

int coll_image_completed(coll_image *ci, int i, const char *what)
{
    uint32_t st = coll_image_plan(ci, i)[IP_STATUS];
    if (st == 1) return 1;
    if (ci->verified) snprintf(ci->error, sizeof ci->error, "node %d did not complete the %s (status %u)", i, what, st);
    ci->verified = 0;
    return 0;
}

int coll_image_check(coll_image *ci, int i, uint32_t off, const uint8_t *want, uint32_t words, const char *what,
                     const char *label)
{
    const uint8_t *got = ci->sy->nodes[i].core.ram + off;
    for (uint32_t k = 0; k < words && ci->verified; k++) {
        uint32_t g, e;
        memcpy(&g, got + 4 * k, 4);
        memcpy(&e, want + 4 * k, 4);
        if (g != e) {
            snprintf(ci->error, sizeof ci->error, "node %d: word %u of %s is 0x%08x, %s 0x%08x", i, k, what, g, label,
                     e);
            ci->verified = 0;
        }
    }
    return ci->verified;
}

void coll_image_counters(const coll_image *ci, coll_image_counts *c)
{
    const topo *t = ci->sy->t;
    xnoc_net *n = ci->sy->net;
    memset(c, 0, sizeof *c);
    for (int l = 0; l < t->nlinks; l++) c->link_flits += net_link_flits(n, t->links[l].src, t->links[l].src_port);
    for (int q = 0; q < t->nrouters; q++) {
        for (int p = 0; p < t->nports; p++) {
            uint64_t v = net_port_stalls(n, q, p);
            c->stalls += v;
            if (t->out_link[q * t->nports + p] >= 0) c->link_stalls += v;
        }
        net_unit u;
        net_unit_stats(n, q, &u);
        c->absorbed += u.contributions;
        c->combined += u.xor_ops;
        c->coded += u.coded;
        c->copies += u.replicated;
    }
}

void coll_image_end(coll_image *ci, uint32_t ram_kib, coll_image_result *r)
{
    coll_image_counters(ci, &r->c);
    r->verified = ci->verified;
    snprintf(r->error, sizeof r->error, "%s", ci->error);
    r->cycles = ci->cycles;
    r->start_cycle = ci->start_cycle;
    r->ram_kib = ram_kib;
    sys_free(ci->sy);
    ci->sy = NULL;
}
