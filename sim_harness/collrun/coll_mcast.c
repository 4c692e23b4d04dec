/* coll_mcast.c - `xnoc collective --algo multicast` (coll_mcast.h): the
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

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/coll/innet.h"
#include "../../firmware/coll/mcast.h"
#include "../../firmware/coll/pattern.h"
#include "coll/coll.h"
#include "collrun/coll_image.h"
#include "net/clos_ctl.h"
#include "net/netbuild.h"
#include "system/system.h"
#include "util/cli.h"
#include "util/report.h"

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

/* the text of the report, rendered from it */
static void mcast_text(FILE *f, const json_t *j)
{
    report_printf(f, j, "multicast {op} on {topology}, {bytes} bytes: ");
    coll_image_verified_text(f, j);
    report_printf(
        f, j,
        "  {cycles} cycles; {multicasts} multicast(s) in {steps} step(s) through {spines_used} spine "
        "route(s) (the routing control, net/clos_ctl.c; {blocked} blocked beside a step's others), "
        "{step_rule} steps ({steps_output_conflict} closed by an output conflict, {steps_unroutable} because the "
        "control could not route the next), "
        "{chunks} chunk(s) of {chunk_bytes} bytes\n"
        "  {link_flits} flits on router-to-router links (expected {link_flits_expected}), "
        "{stalled_flit_cycles} stalled flit-cycles ({link_stalled_flit_cycles} at link ports); units: "
        "{unit_packets_absorbed} packets absorbed, "
        "{mc_copies} copies\n");
}

int coll_mcast_cmd(const topo *t, const router_cfg *rc, const innet_args *a, const coll_exec_opts *xo)
{
    /* all: every source's message to its own place (allgather, mnb); mnb: the --from sources to the --to set */
    int mnb = !strcmp(a->op, "mnb"), all = mnb || !strcmp(a->op, "allgather");
    if (!all && strcmp(a->op, "bcast"))
        cli_fail(EXIT_USAGE, "--algo multicast: --op %s; it runs bcast, allgather and mnb", a->op);
    if (t->kind != TOPO_CLOS)
        cli_fail(EXIT_USAGE, "--algo multicast: %s is not a clos (the routing control picks a clos's spines)", t->name);
    if (!rc->ncu) cli_fail(EXIT_USAGE, "--algo multicast: the routers have no coding units (--router ncu=0)");
    int nt = t->nterms, nr = t->nrouters, root = 0;
    if (nt > 256 || nt + nr > 64 * MCAST_MASK_WORDS)
        cli_fail(EXIT_USAGE, "--algo multicast: %s has %d terminals, at most 256 (and %d addresses)", t->name, nt,
                 64 * MCAST_MASK_WORDS);
    /* src[s]: s multicasts; rcv[d]: d receives (every terminal but bcast's root, mnb's --to) */
    uint8_t *src = xcalloc((size_t)nt, 1), *rcv = xcalloc((size_t)nt, 1);
    if (mnb) {
        coll_sched cs;
        char serr[512];
        if (coll_init(&cs, t, OP_MNB, a->from, a->to, serr, sizeof serr)) cli_fail(EXIT_USAGE, "%s", serr);
        for (int i = 0; i < nt; i++) src[i] = cs.from[i], rcv[i] = cs.to[i];
        coll_free(&cs);
    } else if (a->from) {
        long v;
        if (all) cli_fail(EXIT_USAGE, "--from: an allgather has no root (every terminal multicasts)");
        if (cli_parse_long(a->from, 0, nt - 1, &v))
            cli_fail(EXIT_USAGE, "--from '%s': the root is one terminal, 0..%d", a->from, nt - 1);
        root = (int)v;
    }
    if (a->to && !mnb) cli_fail(EXIT_USAGE, "--to: --op %s sends to every terminal (--op mnb takes --to)", a->op);
    if (!mnb)
        for (int i = 0; i < nt; i++) src[i] = all || i == root, rcv[i] = all || i != root;
    int bytes = a->bytes < 0 ? 64 : a->bytes;
    int chunk = 8 * rc->ncmax < 256 ? 8 * rc->ncmax : 256, nch = (bytes + chunk - 1) / chunk;
    if (bytes <= 0 || bytes % 4)
        cli_fail(EXIT_USAGE, "--bytes %d: --algo multicast sends whole 32-bit words, use a multiple of 4", bytes);
    if (nch > INNET_MAX_CHUNKS)
        cli_fail(EXIT_USAGE, "--bytes %d: %d chunks of %d bytes (--router ncmax=%d), at most %d", bytes, nch, chunk,
                 rc->ncmax, INNET_MAX_CHUNKS);

    /* the multicasts, routed in steps by the paper's control */
    clos_net *cn = clos_new(t->clos_m, t->clos_n, t->clos_r);
    mcast_plan *plans = xcalloc((size_t)nt, sizeof *plans);
    int *ids = xmalloc((size_t)nt * sizeof *ids), nids = 0, steps = 1, spines = 0, blocked = 0;
    int by_conflict = 0, by_block = 0;       /* the steps closed by an output conflict, by the control */
    uint8_t *taken = xcalloc((size_t)nt, 1); /* the destinations of the current step's multicasts */
    uint8_t *dst = xmalloc((size_t)(nt > bytes ? nt : bytes)); /* a destination set, then a message */
    int senders = 0;
    for (int s = 0; s < nt; s++) {
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
            if (id < 0)
                cli_fail(EXIT_USAGE,
                         "--algo multicast: %s: the routing control cannot route a multicast "
                         "from terminal %d on an idle network",
                         t->name, s);
        }
        char cerr[256];
        if (clos_check(cn, cerr, sizeof cerr)) /* no link shared by two connections of a step, ... */
            cli_fail(EXIT_RUNFAIL, "--algo multicast: the routing control's state after terminal %d: %s", s, cerr);
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
    /* the flits each link should carry: per chunk of F flits and route, the source's up link
     * F + M, and down to each leaf it serves F + M (an MC copy to the leaf's unit, two or more
     * destinations there) or F (a plain copy to its one destination) */
    int M = (nt + nr + 63) / 64;
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

    /* the image */
    uint32_t space = (uint32_t)(all ? nt : 1) * (uint32_t)bytes, work = (COLL_IMAGE_BUF + space + 7) / 8 * 8;
    uint32_t ram_kib = coll_image_ram_kib(work + (uint32_t)sizeof(mcast_plan));
    mcast_fill fl = {
        .plans = plans, .seed = a->seed, .bytes = bytes, .root = root, .all = all, .work = work, .src = src};
    coll_image ci;
    coll_image_run(&ci, t, rc, xo, ram_kib, a->max_cycles, fill_node, &fl);
    for (int i = 0; i < nt && ci.verified; i++) {
        if (!coll_image_completed(&ci, i, a->op)) break;
        for (int s = 0; s < nt && ci.verified; s++) {
            if (!src[s] || (s != i && !rcv[i])) continue;
            for (uint32_t k = 0; k < (uint32_t)bytes / 4; k++) { /* terminal s's message, as the host has it */
                uint32_t e = coll_pattern(a->seed, s, -1, k);
                memcpy(dst + 4 * k, &e, 4);
            }
            char *what = xasprintf("terminal %d's message", s);
            coll_image_check(&ci, i, COLL_IMAGE_BUF + (all ? (uint32_t)s * (uint32_t)bytes : 0), dst,
                             (uint32_t)bytes / 4, what, "not");
            free(what);
        }
    }
    coll_image_counts c;
    coll_image_counters(&ci, &c);
    json_t *j = json_object();
    json_object_set_new(j, "topology", json_string(t->name));
    json_object_set_new(j, "op", json_string(a->op));
    json_object_set_new(j, "algo", json_string("multicast"));
    json_object_set_new(j, "bytes", json_integer(bytes));
    json_object_set_new(j, "nodes", json_integer(nt));
    json_object_set_new(j, "verified", json_boolean(ci.verified));
    json_object_set_new(j, "cycles", json_integer((json_int_t)ci.cycles));
    json_object_set_new(j, "start_cycle", json_integer((json_int_t)ci.start_cycle));
    if (!all) json_object_set_new(j, "root", json_integer(root));
    json_object_set_new(j, "multicasts", json_integer(senders));
    json_object_set_new(j, "steps", json_integer(steps));
    json_object_set_new(j, "blocked", json_integer(blocked));
    json_object_set_new(j, "step_rule", json_string(a->packed ? "packed" : "assignment"));
    json_object_set_new(j, "steps_output_conflict", json_integer(by_conflict));
    json_object_set_new(j, "steps_unroutable", json_integer(by_block));
    json_object_set_new(j, "spines_used", json_integer(spines));
    json_object_set_new(j, "chunks", json_integer(nch));
    json_object_set_new(j, "chunk_bytes", json_integer(chunk));
    json_object_set_new(j, "link_flits", json_integer((json_int_t)c.link_flits));
    json_object_set_new(j, "link_flits_expected", json_integer((json_int_t)expect));
    json_object_set_new(j, "stalled_flit_cycles", json_integer((json_int_t)c.stalls));
    json_object_set_new(j, "link_stalled_flit_cycles", json_integer((json_int_t)c.link_stalls));
    json_object_set_new(j, "unit_packets_absorbed", json_integer((json_int_t)c.absorbed));
    json_object_set_new(j, "mc_copies", json_integer((json_int_t)c.copies));
    json_object_set_new(j, "ram_kib", json_integer(ram_kib));
    clos_free(cn);
    free(plans);
    free(ids);
    free(taken);
    free(dst);
    free(src);
    free(rcv);
    return coll_image_done(&ci, j, a->json, mcast_text);
}
