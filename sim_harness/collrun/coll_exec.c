/* coll_exec.c - a collective's plan run by the firmware on the emulated
 * system, verified and timed (coll_exec.h). */
#include "collrun/coll_exec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/fnv.h"
#include "coll/coll_plan.h"
#include "net/links_report.h"
#include "net/netbuild.h"
#include "system/system.h"
#include "system/sys_view.h"

/* Where things go in a node's RAM: the image from RAM_BASE (coll.elf is
 * ~12 KiB with its 4 KiB ring for strays), the plan at PLAN_OFFSET, the slot
 * buffers right after the plan, the stack at the top. */
#define PLAN_OFFSET (64u * 1024)
#define STACK_RESERVE (32u * 1024)

/* The busiest channel of the run (router links, injection and ejection
 * channels): its name and flits. */
static void busiest_channel(const topo *t, sys *sy, coll_outcome *out)
{
    char pn[32];
    for (int l = 0; l < t->nlinks; l++) {
        const topo_link *L = &t->links[l];
        uint64_t f = net_link_flits(sy->net, L->src, L->src_port);
        out->link_flits += f;
        if (L->kind == TOPO_LINK_GLOBAL) out->global_flits += f; /* the dragonfly's global links */
        if (f > out->busiest_flits) {
            out->busiest_flits = f;
            snprintf(out->busiest, sizeof out->busiest, "r%d.%s->r%d", L->src,
                     links_port_name(t, L->src, L->src_port, pn, sizeof pn), L->dst);
        }
    }
    for (int term = 0; term < t->nterms; term++) {
        int r = topo_term_router(t, term);
        for (int c = 0; c < t->k; c++) {
            uint64_t fi = sy->nodes[term].ni.inj_flits[c], fe = net_link_flits(sy->net, r, topo_term_port(t, term, c));
            if (fi > out->busiest_flits) {
                out->busiest_flits = fi;
                snprintf(out->busiest, sizeof out->busiest, "t%d.%d->r%d (injection)", term, c, r);
            }
            if (fe > out->busiest_flits) {
                out->busiest_flits = fe;
                snprintf(out->busiest, sizeof out->busiest, "r%d->t%d.%d (ejection)", r, term, c);
            }
        }
    }
}

/* What went wrong on node i, from its status word and how it ended, or NULL. */
static const char *status_error(int i, const node *nd, const uint32_t *res, char *buf, size_t len)
{
    switch (res[PR_STATUS]) {
    case PS_DONE:
        if (nd->state == NODE_EXITED && !nd->exit_code) return NULL;
        snprintf(buf, len, "node %d did not complete the collective (status %u)", i, (unsigned)PS_NOT_RUN);
        break;
    case PS_UNEXPECTED:
        snprintf(buf, len, "node %d: a message from terminal %u with tag %u matched no receive of the plan", i,
                 res[PR_GOT], res[PR_EXPECTED]);
        break;
    case PS_OVERLAP:
        snprintf(buf, len, "node %d: the firmware image ends at 0x%08x, above the plan at 0x%08x", i, res[PR_GOT],
                 RAM_BASE + PLAN_OFFSET);
        break;
    default: snprintf(buf, len, "node %d did not complete the collective (status %u)", i, res[PR_STATUS]);
    }
    return buf;
}

/* every node's plan freed; returns st */
static int exec_free_plans(int n, uint32_t **plans, int *nw, int st)
{
    for (int i = 0; i < n; i++) free(plans[i]);
    free(plans);
    free(nw);
    return st;
}

/* Runs schedule s on the network, checks every node's buffers afterwards
 * and collects the timing.  ram_kib 0: sized for the plan and buffers. */
int coll_execute(const topo *t, const router_cfg *rc, coll_sched *s, const coll_exec_opts *x, coll_outcome *out,
                 json_t **links, view *vw)
{
    int bytes = x->bytes;
    uint32_t ram_kib = x->ram_kib;
    memset(out, 0, sizeof *out);
    out->step_cycles = xcalloc((size_t)s->nsteps + 1, sizeof *out->step_cycles);
    /* a plan with unit multicasts (coll_xfer.mc: hnc's E with --distribute unit)
     * runs on coll-mc.elf, the interpreter built with them; coll.elf stays without */
    int mc = 0;
    for (int i = 0; i < s->nxfers && !mc; i++) mc = s->xf[i].mc != 0;
    char err[512], *elf = xasprintf("%s/firmware/%s.elf", cli_build_dir(), mc ? "coll-mc" : "coll");
    uint32_t plan_addr = RAM_BASE + PLAN_OFFSET, top = 0;
    uint32_t **plans = xcalloc((size_t)s->nterms, sizeof *plans);
    int *nw = xcalloc((size_t)s->nterms, sizeof *nw);
    for (int i = 0; i < s->nterms; i++) {
        uint32_t end;
        plans[i] = coll_plan_encode(s, t, i, bytes, x->sync, x->seed, x->redop, x->ni_decode, plan_addr, &nw[i], &end);
        if (end - RAM_BASE > top) top = end - RAM_BASE;
    }
    uint32_t need_kib = (top + STACK_RESERVE + 65535) / 65536 * 64;
    if (need_kib < 256) need_kib = 256;
    if (ram_kib && ram_kib < need_kib) {
        snprintf(out->error, sizeof out->error,
                 "this collective needs %u KiB per node (the plan and its %d-byte buffers)", need_kib, bytes);
        out->need_kib = need_kib;
        free(elf);
        return exec_free_plans(s->nterms, plans, nw, COLLRUN_REFUSED);
    }
    out->ram_kib = ram_kib ? ram_kib : need_kib;
    sys_opts o = {.ram_kib = out->ram_kib,
                  .clock_ratio = x->clock_ratio,
                  .console_out = stderr,
                  .watchdog = x->watchdog == UINT64_MAX ? 0
                              : x->watchdog             ? x->watchdog
                                                        : SYS_WATCHDOG_DEFAULT,
                  .spin_watchdog = x->spin_watchdog,
                  .expect_cycles = x->measured ? x->expect_cycles : 0};
    o.plan_addr = plan_addr;
    if (x->measured) { /* the measured run, not the calibration */
        o.trace = x->trace_path;
        o.trace_from = x->trace_from;
        o.trace_to = x->trace_to;
        o.events = x->events;
        o.background = x->bg_mask;
        o.bg_rate = x->bg_rate;
        o.bg_bytes = x->bg_bytes;
        o.bg_seed = 1;
    }
    sys *sy = sys_create(t, rc, &o, elf, err, sizeof err);
    free(elf);
    if (!sy) {
        snprintf(out->error, sizeof out->error, "%s", err);
        return exec_free_plans(s->nterms, plans, nw, COLLRUN_REFUSED);
    }
    for (int i = 0; i < s->nterms; i++) {
        memcpy(sy->nodes[i].core.ram + PLAN_OFFSET, plans[i], (size_t)nw[i] * 4);
    }
    sys_view *sv = vw ? sys_view_attach(sy, vw) : NULL;
    int r = sys_run(sy, x->max_cycles);
    cli_progress_done();
    if (sy->bg) background_stats(sy->bg, &out->bg);
    char oerr[600] = "";
    if (sv) {
        if (sys_view_finish(sv)) snprintf(oerr, sizeof oerr, "view: %s", view_error(vw));
        sys_view_free(sv);
    }
    if (r) {
        out->fault = 1;
        snprintf(out->error, sizeof out->error, "%s", sys_error(sy));
    }
    /* results: status, then the buffers checked against the pattern (off the clock) */
    cli_progress("verification: the buffers of %d node(s) against the pattern", s->nterms);
    uint64_t start = UINT64_MAX, end = 0;
    out->verified = !r;
    for (int i = 0; i < s->nterms; i++) {
        node *nd = &sy->nodes[i];
        if (nd->state == NODE_BACKGROUND) continue;
        /* the plan's layout from the harness's own copy (firmware may have
         * scribbled over its RAM); only the result area and the buffers are read back */
        const uint32_t *w = plans[i];
        const uint32_t *res = (const uint32_t *)(nd->core.ram + PLAN_OFFSET) + w[PH_RESULT_OFF];
        char why[300];
        const char *bad = status_error(i, nd, res, why, sizeof why);
        if (!bad && coll_plan_verify(w, nd->core.ram, RAM_BASE, nd->core.ram_size, why, sizeof why)) bad = why;
        if (bad) {
            if (out->verified && !out->error[0]) snprintf(out->error, sizeof out->error, "%s", bad);
            out->verified = 0;
        }
        uint64_t t0 = (uint64_t)res[PR_CYCLES_HI] << 32 | res[PR_CYCLES_LO];
        if (t0 < start) start = t0;
        if (res[PR_COMBINE] > out->combine_cycles) out->combine_cycles = res[PR_COMBINE];
    }
    cli_progress_done();
    /* a step lasts from the last node's end of the previous step (in global
     * mode, when the barrier lets everyone go) to the last node's end of it */
    uint64_t last = start;
    for (int st = 0; st < s->nsteps; st++) {
        uint64_t step_end = 0;
        for (int i = 0; i < s->nterms; i++) {
            if (sy->nodes[i].state == NODE_BACKGROUND) continue;
            const uint32_t *res = (const uint32_t *)(sy->nodes[i].core.ram + PLAN_OFFSET) + plans[i][PH_RESULT_OFF];
            uint64_t e = (uint64_t)res[PR_STEPS + 2 * st + 1] << 32 | res[PR_STEPS + 2 * st];
            if (e > step_end) step_end = e;
        }
        out->step_cycles[st] = step_end > last ? step_end - last : 0;
        if (step_end > last) last = step_end;
        if (step_end > end) end = step_end;
    }
    out->cycles = end > start ? end - start : 0;
    out->start_cycle = start;
    char pn[32];
    for (int rt = 0; rt < t->nrouters; rt++)
        for (int p = 0; p < t->nports; p++) {
            uint64_t v = net_port_stalls(sy->net, rt, p);
            out->stalls += v;
            if (v > out->worst_stalls) {
                out->worst_stalls = v;
                snprintf(out->worst, sizeof out->worst, "router %d port %d (%s)", rt, p,
                         links_port_name(t, rt, p, pn, sizeof pn));
            }
        }
    for (int i = 0; i < s->nterms; i++) out->flits += sy->nodes[i].ni.flits_sent;
    busiest_channel(t, sy, out);
    exec_free_plans(s->nterms, plans, nw, 0);
    if (links) {
        uint64_t *inj = xcalloc((size_t)(s->nterms * t->k), sizeof *inj);
        for (int i = 0; i < s->nterms; i++)
            for (int c = 0; c < t->k; c++) inj[i * t->k + c] = sy->nodes[i].ni.inj_flits[c];
        *links = links_json(t, sy->net, inj, out->cycles);
        free(inj);
    }
    if ((sys_close_outputs(sy, oerr, sizeof oerr) || oerr[0]) && !out->error[0]) { /* a failed run says why first */
        snprintf(out->error, sizeof out->error, "%s", oerr);
        out->output_failed = 1;
    }
    sys_free(sy);
    return COLLRUN_RAN;
}

/* t_s and t_1: terminal 0 and a terminal one router away exchange one
 * message in two globally synchronized steps; the second step (barrier
 * included, like every step of a collective but the first) lasts t_s + m *
 * t_1.  t_1 comes from 1032 and 2056 bytes (both long enough that the
 * transfer, not the step's fixed work, ends the step), t_s from 8 bytes. */
static int calibrate_run(const topo *t, const router_cfg *rc, int clock_ratio, double *ts, double *t1, int *verified,
                         char *err, size_t errlen);

/* A cache file is read as untrusted: exactly "calib4 KEY TS T1\n" with
 * this configuration's KEY (a file copied from another is not it) and
 * finite values of a network (0 < t_s < 10^7 cycles, 0 <= t_1 < 10^4
 * cycles/byte); 1 if so. */
static int calib_parse(const char *text, size_t len, uint64_t key, double *ts, double *t1)
{
    char want[40], end = 0;
    unsigned long long k = 0;
    double a = 0, b = 0;
    int n = -1;
    snprintf(want, sizeof want, "calib4 %016llx ", (unsigned long long)key);
    if (strlen(text) != len || strncmp(text, want, strlen(want)) ||
        sscanf(text, "calib4 %16llx %lf %lf%c%n", &k, &a, &b, &end, &n) != 4 || end != '\n' || (size_t)n != len)
        return 0;
    if (k != key || !isfinite(a) || !isfinite(b) || a <= 0 || a >= 1e7 || b < 0 || b >= 1e4) return 0;
    *ts = a;
    *t1 = b;
    return 1;
}

/* Cached by content, never by a file's time: build/cache/calib4-TOPO-KEY.txt,
 * KEY the hash of the model's own cache key (net/netbuild.h: the netlist,
 * rtl/, the glue, Verilator, the build flags), the whole router
 * configuration (the NIs' part too: sendq), the clock ratio and the
 * firmware image's bytes.  An RTL change that moves a latency changes the
 * model's key, so no calibration measured before it is reused. */
int coll_calibrate(const topo *t, const router_cfg *rc, int clock_ratio, double *ts, double *t1, char *err,
                   size_t errlen)
{
    uint64_t model, h = FNV1A_INIT;
    if (netbuild_key(t, rc, netbuild_default_variant(), &model, err, errlen)) return COLLRUN_REFUSED;
    h = fnv1a(h, &model, sizeof model);
    /* router_cfg is ints only (no padding): every field, present and future */
    h = fnv1a(h, rc, sizeof *rc);
    h = fnv1a(h, &clock_ratio, sizeof clock_ratio);
    char *elf = xasprintf("%s/firmware/coll.elf", cli_build_dir());
    size_t n = 0;
    char *image = cli_slurp(elf, &n);
    h = fnv1a(h, image ? image : "", n);
    free(image);
    free(elf);
    char *path = xasprintf("%s/cache/calib4-%s-%016llx.txt", cli_build_dir(), t->name, (unsigned long long)h);
    for (char *c = path + strlen(cli_build_dir()) + 7; *c; c++)
        if (*c == ':' || *c == '=' || *c == '/') *c = '_';
    size_t len = 0;
    char *text = cli_slurp(path, &len);
    if (text) {
        int ok = calib_parse(text, len, h, ts, t1);
        free(text);
        if (ok) {
            free(path);
            return COLLRUN_RAN;
        }
        cli_error("warning: %s is not a calibration of this configuration (damaged, or copied from another): "
                  "measured again",
                  path);
    }
    int verified = 1;
    int st = calibrate_run(t, rc, clock_ratio, ts, t1, &verified, err, errlen);
    if (st || !verified || cli_interrupted) { /* a Ctrl-C'd run measured nothing: nothing to cache */
        free(path);
        return st;
    }
    char *tmp = xasprintf("%s.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (f) {
        fprintf(f, "calib4 %016llx %.6f %.6f\n", (unsigned long long)h, *ts, *t1);
        if (fclose(f) == 0) rename(tmp, path);
        else remove(tmp);
    }
    free(tmp);
    free(path);
    return COLLRUN_RAN;
}

/* *verified cleared when a run did not verify (an interrupted one) */
static int calibrate_run(const topo *t, const router_cfg *rc, int clock_ratio, double *ts, double *t1, int *verified,
                         char *err, size_t errlen)
{
    coll_exec_opts x = {.clock_ratio = clock_ratio, .sync = SYNC_GLOBAL, .seed = 1, .max_cycles = 10000000};
    int dst = -1;
    for (int d = 0; d < t->nterms && dst < 0; d++)
        if (topo_distance(t, 0, topo_term_router(t, d)) == 1) dst = d;
    if (dst < 0 && t->nterms > 1) dst = 1; /* a single router: the neighbour terminal */
    if (dst < 0) {
        *ts = *t1 = 0;
        return COLLRUN_RAN;
    }
    double tm[3];
    int sizes[3] = {8, 1032, 2056};
    for (int i = 0; i < 3; i++) {
        coll_sched s;
        char serr[200], set[32];
        snprintf(set, sizeof set, "0,%d", dst);
        coll_init(&s, t, OP_MNS, set, set, serr, sizeof serr);
        coll_add(&s, 0, 0, dst, coll_msg_of(&s, 0, dst));
        coll_add(&s, 1, dst, 0, coll_msg_of(&s, dst, 0));
        coll_outcome o;
        x.bytes = sizes[i];
        int st = coll_execute(t, rc, &s, &x, &o, NULL, NULL);
        tm[i] = (double)o.step_cycles[1];
        *verified &= o.verified;
        if (st) snprintf(err, errlen, "%s", o.error);
        free(o.step_cycles);
        coll_free(&s);
        if (st) return st;
    }
    *t1 = (tm[2] - tm[1]) / 1024.0;
    *ts = tm[0] - 8 * *t1;
    return COLLRUN_RAN;
}
