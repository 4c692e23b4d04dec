/* coll_mcast.c - collectives by hardware multicast on a clos (coll_mcast.h): the
 * multicasts of a bcast or an allgather routed on the host by the paper's
 * routing control (net/clos_ctl.c: clos_connect over the destination sets of
 * the connections in flight), one route per chosen spine: the spine's unit
 * and the destinations on the leaves that spine connects (clos_owner).  An
 * allgather's n*r multicasts go in steps.  A step is the paper's multicast
 * assignment (--steps assignment, the default): a multicast joins the current
 * step unless one of its destinations is already taken in the step (every
 * terminal's one ejection link serves one connection at a time) or the
 * control cannot route it beside the step's others; an allgather's
 * multicasts reach every terminal, so one per step.  --steps packed ends a
 * step only when the control blocks (every output switch has n ports, each
 * multicast reaches every leaf: n per step, on n spines, when m >= n), so a
 * step's multicasts share the ejection links.  A source sends once it has
 * every earlier step's messages.  The routes and steps go to firmware/coll/mcast.c in the work
 * area of coll-innet.elf; every byte of every node checked after the run. */
#include "collrun/coll_mcast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/coll/innet.h"
#include "../../firmware/coll/mcast.h"
#include "../../firmware/coll/pattern.h"
#include "coll/coll.h"
#include "collrun/coll_image.h"
#include "collrun/coll_innet.h"
#include "net/clos_ctl.h"
#include "system/system.h"
#include "util/cli.h"

/* The routes of a multicast from terminal `src` to every terminal of `dst`
 * (a set over terminals), connected in c: returns the connection id, or
 * CLOS_BLOCKED / CLOS_INVALID (nothing connected). */
static int route_mc(const topo *t, clos_net *c, int src, const uint8_t *dst, mcast_plan *p)
{
    int n = t->clos_n, R = t->clos_r, m = t->clos_m;
    uint64_t req[CLOS_MAX_RW] = {0};
    for (int d = 0; d < t->nterms; d++)
        if (dst[d]) clos_add(req, d / n);
    int id = clos_connect(c, src / n, req, m, 0);
    if (id < 0) return id;
    int mid[64], k = clos_conn_mids(c, id, mid, 64);
    p->nroutes = (uint64_t)k;
    for (int i = 0; i < k; i++) {
        mcast_route *rt = &p->route[i];
        memset(rt, 0, sizeof *rt);
        rt->router = (uint64_t)(R + mid[i]);
        for (int leaf = 0; leaf < R; leaf++)
            if (clos_owner(c, mid[i], leaf) == id)
                for (int d = leaf * n; d < (leaf + 1) * n; d++)
                    if (dst[d]) rt->mask[d / 64] |= 1ull << (d % 64);
    }
    return id;
}

/* What every node gets (coll_image_fill): the plan words, its routes and
 * steps in the work area, the messages it sends. */
typedef struct {
    const mcast_plan *plans;
    const uint8_t *src; /* [terminal]: it multicasts its message */
    uint32_t seed, work;
    int bytes, root, all;
} mcast_fill;

static void fill_node(void *arg, int i, uint8_t *ram)
{
    const mcast_fill *f = arg;
    uint32_t *w = (uint32_t *)(ram + COLL_IMAGE_PLAN);
    w[IP_MAGIC] = INNET_MAGIC;
    w[IP_KIND] = INNET_KIND_MCAST;
    w[IP_BYTES] = (uint32_t)f->bytes;
    w[IP_ROOT] = (uint32_t)f->root;
    w[IP_BUF] = RAM_BASE + COLL_IMAGE_BUF;
    w[IP_WORK] = RAM_BASE + f->work;
    w[IP_WINDOW] = 1;
    memcpy(ram + f->work, &f->plans[i], sizeof f->plans[i]);
    if (!f->src[i]) return;
    for (uint32_t k = 0; k < (uint32_t)f->bytes / 4; k++) {
        uint32_t v = coll_pattern(f->seed, i, -1, k);
        memcpy(ram + COLL_IMAGE_BUF + (f->all ? (uint32_t)i * (uint32_t)f->bytes : 0) + 4 * k, &v, 4);
    }
}

int coll_mcast_max_terms(void) { return 256; }
int coll_mcast_max_addrs(void) { return 64 * MCAST_MASK_WORDS; }

/* The multicasts, routed in steps by the paper's control: every sender's
 * plan (its routes and step) in plans[], the counts in *r.  src[s] is cleared
 * for a sender with nobody to send to. */
static int route_steps(const topo *t, const mcast_opts *a, uint8_t *src, mcast_plan *plans, mcast_result *r)
{
    int nt = t->nterms, all = a->all;
    const uint8_t *rcv = a->rcv;
    clos_net *cn = clos_new(t->clos_m, t->clos_n, t->clos_r);
    int *ids = xmalloc((size_t)nt * sizeof *ids), nids = 0, steps = 1, spines = 0, blocked = 0, st = COLLRUN_RAN;
    int by_conflict = 0, by_block = 0;       /* the steps closed by an output conflict, by the control */
    uint8_t *taken = xcalloc((size_t)nt, 1); /* the destinations of the current step's multicasts */
    uint8_t *dst = xmalloc((size_t)nt);      /* a destination set */
    int senders = 0;
    for (int s = 0; s < nt && !st; s++) {
        int any = 0;
        for (int d = 0; d < nt; d++) any |= dst[d] = rcv[d] && d != s;
        if (!src[s] || !any) {
            src[s] = 0; /* (an mnb source whose only receiver is itself: nothing to send) */
            continue;
        }
        senders++;
        int conflict = 0; /* (assignment) a destination the step already serves: the output port is taken */
        for (int d = 0; d < nt && !a->packed && nids; d++) conflict |= dst[d] && taken[d];
        int id = conflict ? CLOS_INVALID : route_mc(t, cn, s, dst, &plans[s]);
        if (id < 0) { /* a new step: the step's connections end */
            if (id == CLOS_BLOCKED) blocked++;
            if (conflict) by_conflict++;
            else by_block++;
            for (int i = 0; i < nids; i++) clos_disconnect(cn, ids[i]);
            memset(taken, 0, (size_t)nt);
            nids = 0;
            steps++;
            id = route_mc(t, cn, s, dst, &plans[s]);
            if (id < 0) {
                snprintf(r->run.error, sizeof r->run.error,
                         "%s: the routing control cannot route a multicast from terminal %d on an idle network",
                         t->name, s);
                st = COLLRUN_REFUSED;
                break;
            }
        }
        char cerr[256];
        if (clos_check(cn, cerr, sizeof cerr)) { /* no link shared by two connections of a step, ... */
            snprintf(r->run.error, sizeof r->run.error, "the routing control's state after terminal %d: %s", s, cerr);
            st = COLLRUN_FAILED;
            break;
        }
        ids[nids++] = id;
        for (int d = 0; d < nt; d++) taken[d] |= dst[d];
        plans[s].step = (uint64_t)(steps - 1);
        spines += (int)plans[s].nroutes;
    }
    for (int s = 0; s < nt; s++) {
        plans[s].per_source = (uint64_t)all;
        for (int q = 0; q < nt; q++)
            if (src[q] && (rcv[s] || q == s)) { /* s receives q's message (or holds its own) */
                plans[s].sources[q / 64] |= 1ull << (q % 64);
                plans[s].src_step[q] = plans[q].step;
            }
    }
    r->multicasts = senders, r->steps = steps, r->blocked = blocked, r->spines_used = spines;
    r->steps_output_conflict = by_conflict, r->steps_unroutable = by_block;
    clos_free(cn);
    free(ids);
    free(taken);
    free(dst);
    if (st) r->run.planning = 1;
    return st;
}

/* the flits each link should carry: per chunk of F flits and route, the source's up link
 * F + M, and down to each leaf it serves F + M (an MC copy to the leaf's unit, two or more
 * destinations there) or F (a plain copy to its one destination) */
static uint64_t expected_flits(const topo *t, const uint8_t *src, const mcast_plan *plans, int bytes, int chunk)
{
    int nt = t->nterms, M = (nt + t->nrouters + 63) / 64, nch = (bytes + chunk - 1) / chunk;
    uint64_t expect = 0;
    for (int s = 0; s < nt; s++)
        for (uint64_t i = 0; i < (src[s] ? plans[s].nroutes : 0); i++)
            for (int k = 0; k < nch; k++) {
                int l = bytes - k * chunk < chunk ? bytes - k * chunk : chunk, F = 2 + (l + 7) / 8;
                expect += (uint64_t)(F + M);
                for (int leaf = 0; leaf < t->clos_r; leaf++) {
                    int dn = 0;
                    for (int d = leaf * t->clos_n; d < (leaf + 1) * t->clos_n; d++)
                        dn += (int)(plans[s].route[i].mask[d / 64] >> (d % 64) & 1);
                    expect += dn >= 2 ? (uint64_t)(F + M) : dn == 1 ? (uint64_t)F : 0;
                }
            }
    return expect;
}

/* every node's messages against the host's, after the run */
static void check_messages(coll_image *ci, const topo *t, const mcast_opts *a, const uint8_t *src)
{
    int nt = t->nterms, all = a->all, bytes = a->bytes;
    uint8_t *want = xmalloc((size_t)bytes);
    for (int i = 0; i < nt && ci->verified; i++) {
        if (!coll_image_completed(ci, i, a->name)) break;
        for (int s = 0; s < nt && ci->verified; s++) {
            if (!src[s] || (s != i && !a->rcv[i])) continue;
            for (uint32_t k = 0; k < (uint32_t)bytes / 4; k++) { /* terminal s's message, as the host has it */
                uint32_t e = coll_pattern(a->seed, s, -1, k);
                memcpy(want + 4 * k, &e, 4);
            }
            char *what = xasprintf("terminal %d's message", s);
            coll_image_check(ci, i, COLL_IMAGE_BUF + (all ? (uint32_t)s * (uint32_t)bytes : 0), want,
                             (uint32_t)bytes / 4, what, "not");
            free(what);
        }
    }
    free(want);
}

int collrun_mcast(const topo *t, const router_cfg *rc, const mcast_opts *a, const coll_exec_opts *xo, mcast_result *r)
{
    int nt = t->nterms, all = a->all, bytes = a->bytes;
    int chunk = innet_chunk_bytes(rc);
    memset(r, 0, sizeof *r);
    uint8_t *src = xmalloc((size_t)nt);
    memcpy(src, a->src, (size_t)nt);
    mcast_plan *plans = xcalloc((size_t)nt, sizeof *plans);
    int st = route_steps(t, a, src, plans, r);
    r->chunk_bytes = chunk, r->chunks = (bytes + chunk - 1) / chunk;
    r->link_flits_expected = st ? 0 : expected_flits(t, src, plans, bytes, chunk);
    /* the image */
    uint32_t space = (uint32_t)(all ? nt : 1) * (uint32_t)bytes, work = (COLL_IMAGE_BUF + space + 7) / 8 * 8;
    uint32_t ram_kib = coll_image_ram_kib(work + (uint32_t)sizeof(mcast_plan));
    mcast_fill fl = {
        .plans = plans, .seed = a->seed, .bytes = bytes, .root = a->root, .all = all, .work = work, .src = src};
    coll_image ci;
    if (!st && (st = coll_image_run(&ci, t, rc, xo, ram_kib, a->max_cycles, fill_node, &fl)))
        snprintf(r->run.error, sizeof r->run.error, "%s", ci.error);
    if (!st) {
        check_messages(&ci, t, a, src);
        coll_image_end(&ci, ram_kib, &r->run);
    }
    free(plans);
    free(src);
    return st;
}
