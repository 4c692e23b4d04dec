/* hnc.c - the hierarchical network-coded all-to-all broadcast as a
 * schedule (hnc.h). */
#include "coll/hnc.h"
#include "util/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/ncmodel.h"
#include "../../firmware/lib/ni_regs.h" /* NI_MAX_PACKET */

/* The layout: group g's member of rank r (r = ly * gw + lx, so that the
 * rank's high bits are y bits: the model's tree order). */
typedef struct {
    const topo *t;
    int gw, gh, gx, gy, M, G;
    ncm_place px, py;
} layout;

/* the rank of group g's IN */
static int in_rank(const layout *L, int g)
{
    return ncm_place_off(&L->py, g / L->gx, L->gy, L->gh) * L->gw + ncm_place_off(&L->px, g % L->gx, L->gx, L->gw);
}

static int member(const layout *L, int g, int r)
{
    int c[2] = {(g % L->gx) * L->gw + r % L->gw, (g / L->gx) * L->gh + r / L->gw};
    return topo_router_at(L->t, c); /* one terminal per router */
}

/* A multicast of message msg from rank `root` of group g's members (or of
 * the INs when ins) to all of them, in steps step0.. (tree: log2 M of them;
 * all-at-once: one). */
static void multicast(coll_sched *s, const layout *L, int ins, int g, int root, int msg, int step0, int all_at_once)
{
    int n = ins ? L->G : L->M, bits = coll_ceil_log2(n);
#define NODE(r) (ins ? member(L, (r), in_rank(L, (r))) : member(L, g, (r)))
    if (all_at_once) {
        for (int v = 0; v < n; v++)
            if (v != root) coll_add(s, step0, NODE(root), NODE(v), msg);
        return;
    }
    for (int i = 0; i < bits; i++) {
        int b = bits - 1 - i;
        for (int v = 0; v < n; v++) /* the holders: ranks that agree with root below bit b+1 */
            if (!((v ^ root) & ((2 << b) - 1))) coll_add(s, step0 + i, NODE(v), NODE(v ^ (1 << b)), msg);
    }
#undef NODE
}

static int shape_from_model(const topo *t, const hnc_opts *o, hnc_info *info, char *err, int errlen)
{
    ncm_net n = {.w = t->dims[0],
                 .h = t->dims[1],
                 .torus = t->kind == TOPO_TORUS,
                 .mc = o->all_at_once ? NCM_ALL_AT_ONCE : NCM_TREE,
                 .in_pos = o->in_pos,
                 .combine = o->combine};
    ncm_coded c;
    if (ncm_check(&n, err, errlen)) return -1;
    if (!o->gw) {
        if (ncm_best(&n, 0, &c)) {
            snprintf(err, (size_t)errlen, "%s has no group shape of at least two groups of two", t->name);
            return -1;
        }
    } else if (!ncm_shape_ok(&n, o->gw, o->gh) || ncm_coded_eval(&n, o->gw, o->gh, &c, err, errlen)) {
        snprintf(err, (size_t)errlen,
                 "--group-shape %dx%d must tile %dx%d into at least two groups of at least 2 nodes%s", o->gw, o->gh,
                 n.w, n.h, n.mc == NCM_TREE ? ", with power-of-two sides for tree multicasts" : "");
        return -1;
    }
    info->gw = c.gw;
    info->gh = c.gh;
    info->groups = c.groups;
    info->group_size = c.group_size;
    info->in_x = c.in_x;
    info->in_y = c.in_y;
    info->px = c.px;
    info->py = c.py;
    info->model_hops = c.coded_hops;
    return 0;
}

/* hnc_build's job: a 2-D mesh or torus of one terminal per router, an
 * all-to-all broadcast from and to every terminal, at least a byte. */
static int check_job(const coll_sched *s, const topo *t, const hnc_opts *o, char *err, int errlen)
{
    if ((t->kind != TOPO_MESH && t->kind != TOPO_TORUS) || t->ndims != 2 || t->conc != 1) {
        snprintf(err, (size_t)errlen,
                 "hnc runs on a 2-D mesh or torus with one terminal per router (mesh:WxH, torus:WxH), not %s", t->name);
        return -1;
    }
    if (s->op != OP_ALLGATHER && s->op != OP_MNB) {
        snprintf(err, (size_t)errlen, "hnc is an all-to-all broadcast: --op allgather, not %s", coll_op_name(s->op));
        return -1;
    }
    for (int i = 0; i < s->nterms; i++)
        if (!s->from[i] || !s->to[i]) {
            snprintf(err, (size_t)errlen, "hnc broadcasts from every terminal to every terminal: drop --from/--to");
            return -1;
        }
    if (o->bytes < 1) {
        snprintf(err, (size_t)errlen, "hnc needs --bytes of at least 1");
        return -1;
    }
    return 0;
}

#define DATA(g, r) coll_msg_of(s, member(L, (g), (r)), -1)

/* C, in step `step`: the intermediate nodes code (or, combining, copy)
 * their group's data into its bundle, on the core or through the router's
 * unit. */
static void phase_c(coll_sched *s, const layout *L, const hnc_opts *o, const int *bundle, const int *zero, int step)
{
    const topo *t = L->t;
    int M = L->M, G = L->G;
    for (int g = 0; g < G && o->combine; g++) { /* copy the group's data into the combined message */
        int in = member(L, g, in_rank(L, g));
        coll_xor *z = coll_add_xor(s, step, in);
        *z = (coll_xor){
            .step = step, .node = in, .dmsg = zero[in], .amsg = coll_msg_of(s, in, -1), .bmsg = coll_msg_of(s, in, -1)};
        for (int i = 0; i < M; i++) {
            coll_xor *x = coll_add_xor(s, step, in);
            *x = (coll_xor){
                .step = step, .node = in, .dmsg = bundle[g], .dpart = i, .amsg = DATA(g, i), .bmsg = zero[in]};
        }
    }
    for (int g = 0; g < G && !o->combine; g++) {
        int in = member(L, g, in_rank(L, g));
        for (int i = 0; i + 1 < M; i++) {
            if (!o->xor_unit) {
                coll_xor *x = coll_add_xor(s, step, in);
                *x = (coll_xor){.step = step,
                                .node = in,
                                .dmsg = bundle[g],
                                .dpart = i,
                                .amsg = DATA(g, i),
                                .bmsg = DATA(g, i + 1)};
                continue;
            }
            int unit = t->nterms + topo_term_router(t, in), nch = (o->bytes + o->chunk - 1) / o->chunk;
            for (int c = 0; c < nch; c++) {
                int off = c * o->chunk, len = o->bytes - off < o->chunk ? o->bytes - off : o->chunk, tag = i * nch + c;
                for (int d = 0; d < 2; d++) {
                    coll_xfer *x = coll_add(s, step, in, unit, DATA(g, i + d));
                    x->off = off, x->len = len, x->tag = tag, x->out_dest = in;
                }
                coll_xfer *x = coll_add(s, step, unit, in, bundle[g]);
                x->part = i, x->off = off, x->len = len, x->tag = tag;
            }
        }
    }
}

/* G, in step `step` (XORs on every core, no traffic): decode group h from
 * its bundle and the counterpart's datum, outwards from rank r (combining:
 * copy the other groups' data out), every result verified. */
static void phase_g(coll_sched *s, const layout *L, const hnc_opts *o, const int *bundle, const int *zero, int step)
{
    int M = L->M, G = L->G;
    for (int g = 0; g < G && o->combine; g++) /* copy the other groups' data out (verified) */
        for (int r = 0; r < M; r++) {
            int node = member(L, g, r);
            if (r != in_rank(L, g)) {
                coll_xor *z = coll_add_xor(s, step, node);
                *z = (coll_xor){.step = step, .node = node, .dmsg = zero[node], .amsg = DATA(g, r), .bmsg = DATA(g, r)};
            }
            for (int h = 0; h < G; h++)
                for (int i = 0; i < M && h != g; i++) {
                    coll_xor *x = coll_add_xor(s, step, node);
                    *x = (coll_xor){.step = step,
                                    .node = node,
                                    .dmsg = DATA(h, i),
                                    .amsg = bundle[h],
                                    .apart = i,
                                    .bmsg = zero[node],
                                    .verify = 1};
                }
        }
    for (int g = 0; g < G && !o->combine; g++)
        for (int r = 0; r < M; r++)
            for (int h = 0; h < G; h++) {
                if (h == g) continue;
                int node = member(L, g, r);
                for (int i = r; i + 1 < M; i++) {
                    coll_xor *x = coll_add_xor(s, step, node);
                    *x = (coll_xor){.step = step,
                                    .node = node,
                                    .dmsg = DATA(h, i + 1),
                                    .amsg = bundle[h],
                                    .apart = i,
                                    .bmsg = DATA(h, i),
                                    .verify = 1};
                }
                for (int i = r - 1; i >= 0; i--) {
                    coll_xor *x = coll_add_xor(s, step, node);
                    *x = (coll_xor){.step = step,
                                    .node = node,
                                    .dmsg = DATA(h, i),
                                    .amsg = bundle[h],
                                    .apart = i,
                                    .bmsg = DATA(h, i + 1),
                                    .verify = 1};
                }
            }
}
#undef DATA

int hnc_build(coll_sched *s, const topo *t, const hnc_opts *o, hnc_info *info, char *err, int errlen)
{
    if (check_job(s, t, o, err, errlen)) return -1;
    memset(info, 0, sizeof *info);
    if (shape_from_model(t, o, info, err, errlen)) return -1;
    int nparts = o->combine ? info->group_size : info->group_size - 1;
    long bundle_bytes = (long)nparts * ((o->bytes + 7) & ~7);
    if (bundle_bytes > NI_MAX_PACKET) { /* a bundle travels as one packet (the model's one unicast) */
        snprintf(err, (size_t)errlen,
                 "a %s of %d %smessages of %d bytes is %ld bytes, more than one packet takes (%u): "
                 "use --bytes %d or less, or smaller groups (--group-shape)",
                 o->combine ? "combined message" : "bundle", nparts, o->combine ? "" : "coded ", o->bytes, bundle_bytes,
                 NI_MAX_PACKET, (int)(NI_MAX_PACKET / (unsigned)nparts) & ~7);
        return -1;
    }
    layout L = {.t = t, .gw = info->gw, .gh = info->gh, .gx = t->dims[0] / info->gw, .gy = t->dims[1] / info->gh};
    L.M = L.gw * L.gh;
    L.G = L.gx * L.gy;
    L.px = info->px;
    L.py = info->py;
    int M = L.M, G = L.G, aao = o->all_at_once, LM = aao ? 1 : coll_ceil_log2(M), LG = aao ? 1 : coll_ceil_log2(G);
    int *bundle = xmalloc((size_t)G * sizeof *bundle);
    for (int g = 0; g < G; g++) bundle[g] = coll_add_msg(s, member(&L, g, in_rank(&L, g)), -2, o->combine ? M : M - 1);
    /* combining: a zero per node (its datum XOR itself; part 0 of a two-part scratch message) */
    int *zero = NULL;
    if (o->combine) {
        zero = xmalloc((size_t)s->nterms * sizeof *zero);
        for (int v = 0; v < s->nterms; v++) zero[v] = coll_add_msg(s, v, -2, 2);
    }
#define DATA(g, r) coll_msg_of(s, member(&L, (g), (r)), -1)

    /* B and F from step 0 */
    int step = 0;
    info->first_step[HNC_B] = 0;
    for (int g = 0; g < G; g++)
        for (int r = 0; r < M; r++) {
            multicast(s, &L, 0, g, r, DATA(g, r), 0, aao);
            for (int h = 0; h < G && !o->combine; h++)
                if (h != g) coll_add(s, 0, member(&L, g, r), member(&L, h, r), DATA(g, r));
        }
    step = LM;
    /* C: a step of its own, on the IN's core or through its router's unit */
    info->first_step[HNC_C] = step;
    phase_c(s, &L, o, bundle, zero, step);
    step++;
    /* D: the INs exchange bundles */
    info->first_step[HNC_D] = step;
    for (int g = 0; g < G; g++) multicast(s, &L, 1, 0, g, bundle[g], step, aao);
    step += LG;
    /* E: each IN multicasts the other groups' bundles into its group */
    info->first_step[HNC_E] = step;
    for (int g = 0, mc = 0; g < G; g++)
        for (int h = 0; h < G; h++) {
            if (h == g) continue;
            if (!o->unit_mcast) {
                multicast(s, &L, 0, g, in_rank(&L, g), bundle[h], step, aao);
                continue;
            }
            /* one packet per part and chunk of the units' limit from the IN, forked by the units */
            int in = member(&L, g, in_rank(&L, g)), nch = (o->bytes + o->chunk - 1) / o->chunk;
            for (int i = 0; i < nparts; i++)
                for (int c = 0; c < nch; c++) {
                    int off = c * o->chunk, len = o->bytes - off < o->chunk ? o->bytes - off : o->chunk;
                    mc++;
                    for (int r = 0; r < M; r++) {
                        if (r == in_rank(&L, g)) continue;
                        coll_xfer *x = coll_add(s, step, in, member(&L, g, r), bundle[h]);
                        x->mc = mc, x->part = i, x->off = off, x->len = len, x->tag = HNC_MC_TAG | (mc & 0x7fff);
                    }
                }
        }
    step += o->unit_mcast ? 1 : LM;
    /* G: a step of its own (XORs on every core, no traffic), so that the
     * steps before it are the delivery: decode group h from its bundle and
     * the counterpart's datum, outwards from rank r */
    info->first_step[HNC_G] = step;
    phase_g(s, &L, o, bundle, zero, step);
#undef DATA
    free(bundle);
    free(zero);
    s->nsteps = ++step;
    info->first_step[HNC_PHASES] = step;
    /* each sender's sends of a step round robin over its channels (unit
     * contributions stay on channel 0, so that a pair's two arrive together) */
    int *next = xcalloc((size_t)s->nterms * (size_t)s->nsteps, sizeof *next);
    for (int x = 0; x < s->nxfers; x++) {
        coll_xfer *f = &s->xf[x];
        if (f->src < s->nterms && f->dst < s->nterms && !f->mc) f->chan = next[f->step * s->nterms + f->src]++ % t->k;
    }
    free(next);
    return hnc_check(s, err, errlen);
}

/* Knowledge: data messages per node (a bit each); bundle parts per node. */
int hnc_check(const coll_sched *s, char *err, int errlen)
{
    int n = s->nterms, nm = s->nmsgs, rc = 0, maxp = 1;
    for (int m = 0; m < nm; m++)
        if (s->msgs[m].parts > maxp) maxp = s->msgs[m].parts;
    /* has[(node * nm + m) * maxp + part] */
    unsigned char *has = xcalloc((size_t)n * (size_t)nm * (size_t)maxp, 1),
                  *next = xmalloc((size_t)n * (size_t)nm * (size_t)maxp);
#define HAS(a, node, m, p) a[((size_t)(node) * (size_t)nm + (size_t)(m)) * (size_t)maxp + (size_t)(p)]
    for (int m = 0; m < nm; m++)
        if (s->msgs[m].parts <= 1) HAS(has, s->msgs[m].origin, m, 0) = 1;
    for (int st = 0; st < s->nsteps && !rc; st++) {
        memcpy(next, has, (size_t)n * (size_t)nm * (size_t)maxp);
        /* unit contributions: (unit, tag) -> pieces held; results need both */
        for (int x = 0; x < s->nxfers && !rc; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st) continue;
            int parts = s->msgs[f->msg].parts > 1 ? s->msgs[f->msg].parts : 1;
            if (f->src >= n) { /* a unit's result: both contributions were sent this step */
                int got = 0;
                for (int y = 0; y < s->nxfers; y++) {
                    const coll_xfer *c = &s->xf[y];
                    got += c->step == st && c->dst == f->src && c->tag == f->tag && c->out_dest == f->dst;
                }
                if (got != 2) {
                    snprintf(err, (size_t)errlen, "hnc step %d: unit %d returns tag %d with %d contributions", st,
                             f->src, f->tag, got);
                    rc = -1;
                }
                if (!f->off) HAS(next, f->dst, f->msg, f->part) = 1;
                continue;
            }
            for (int p = 0; p < parts && !rc; p++)
                if (!HAS(has, f->src, f->msg, parts > 1 ? p : f->part)) {
                    snprintf(err, (size_t)errlen, "hnc step %d: node %d sends message %d part %d before holding it", st,
                             f->src, f->msg, p);
                    rc = -1;
                }
            if (f->dst < n)
                for (int p = 0; p < parts; p++) HAS(next, f->dst, f->msg, p) = 1;
        }
        memcpy(has, next, (size_t)n * (size_t)nm * (size_t)maxp);
        for (int x = 0; x < s->nxors && !rc; x++) { /* in order: a decoding chain uses what it just made */
            const coll_xor *c = &s->xors[x];
            if (c->step != st) continue;
            if (!HAS(has, c->node, c->amsg, c->apart) || !HAS(has, c->node, c->bmsg, c->bpart)) {
                snprintf(err, (size_t)errlen, "hnc step %d: node %d XORs message %d/%d with %d/%d before holding both",
                         st, c->node, c->amsg, c->apart, c->bmsg, c->bpart);
                rc = -1;
            }
            HAS(has, c->node, c->dmsg, c->dpart) = 1;
        }
    }
    for (int node = 0; node < n && !rc; node++)
        for (int m = 0; m < nm && !rc; m++)
            if (s->msgs[m].parts <= 1 && !HAS(has, node, m, 0)) {
                snprintf(err, (size_t)errlen, "hnc: node %d never learns the data of terminal %d", node,
                         s->msgs[m].origin);
                rc = -1;
            }
#undef HAS
    free(has);
    free(next);
    return rc;
}
