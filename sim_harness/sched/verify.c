/* verify.c - the independent schedule checker: it trusts nothing the
 * scheduler computed, only the topology and the collective's definition.
 *
 * Per step: every transfer names real terminals, an injection channel
 * below k, and a route that is a walk over existing links from src's
 * router ending at an ejection port of dst; no directed channel (injection,
 * ejection, link) carries two transfers, which also keeps every terminal
 * within k sends and k receives.  Personalized messages go straight from
 * their origin to their destination, once.  Then coll_check() for the
 * collective's meaning: deliveries, forwarding only what is held, reduce
 * combining every contribution exactly once, barrier hearing from all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "util/cli.h"

static int personalized(coll_op op) { return op == OP_SCATTER || op == OP_GATHER || op == OP_ALLTOALL || op == OP_MNS; }

/* The channels of f's route into chs (returns how many), or -1 and err. */
static int route_channels(const topo *t, const coll_xfer *f, int *chs, char *err, int errlen)
{
    int n = 0, r = topo_term_router(t, f->src);
    if (f->nports == 0) {
        snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d has no route", f->step, f->src, f->dst);
        return -1;
    }
    chs[n++] = sched_channel_inj(t, f->src, f->chan);
    for (int h = 0; h < f->nports; h++) {
        int p = f->ports[h];
        if (p < 0 || p >= t->nports) {
            snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d: hop %d names port %d of a %d-port router",
                     f->step, f->src, f->dst, h, p, t->nports);
            return -1;
        }
        if (h == f->nports - 1) {
            if (topo_port_term(t, r, p) != f->dst) {
                snprintf(err, (size_t)errlen,
                         "step %d: transfer %d -> %d: the route ends at router %d port %d, not at terminal %d", f->step,
                         f->src, f->dst, r, p, f->dst);
                return -1;
            }
            chs[n++] = sched_channel_ej(t, f->dst, (p - t->nnet) % t->k);
            return n;
        }
        int l = p < t->nnet ? t->out_link[r * t->nports + p] : -1;
        if (l < 0) {
            snprintf(err, (size_t)errlen,
                     "step %d: transfer %d -> %d: hop %d leaves router %d by port %d, which has no link", f->step,
                     f->src, f->dst, h, r, p);
            return -1;
        }
        chs[n++] = sched_channel_link(t, l);
        r = t->links[l].dst;
    }
    return n;
}

static int check_xfer(const coll_sched *s, const topo *t, const coll_xfer *f, char *err, int errlen)
{
    int st = f->step;
    if (f->src < 0 || f->src >= t->nterms || f->dst < 0 || f->dst >= t->nterms || f->src == f->dst) {
        snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d names a bad terminal", st, f->src, f->dst);
        return -1;
    }
    if (f->chan < 0 || f->chan >= t->k) {
        snprintf(err, (size_t)errlen,
                 "step %d: transfer %d -> %d uses injection channel %d, but terminals have %d (port limit)", st, f->src,
                 f->dst, f->chan, t->k);
        return -1;
    }
    if (f->msg < 0 || f->msg >= s->nmsgs) {
        snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d carries unknown message %d", st, f->src, f->dst,
                 f->msg);
        return -1;
    }
    const coll_msg *g = &s->msgs[f->msg];
    if (personalized(s->op) && (f->src != g->origin || f->dst != g->dest)) {
        snprintf(err, (size_t)errlen,
                 "step %d: transfer %d -> %d carries message %d (%d -> %d): personalized messages go straight from "
                 "origin to destination",
                 st, f->src, f->dst, f->msg, g->origin, g->dest);
        return -1;
    }
    return 0;
}

int sched_verify(const coll_sched *s, const topo *t, char *err, int errlen)
{
    int nch = sched_nchannels(t), rc = 0;
    int *used = xmalloc((size_t)nch * sizeof *used);
    /* first step a (receiver, message) arrived, to refuse duplicates */
    int *got = xmalloc((size_t)s->nmsgs * (size_t)t->nterms * sizeof *got + 1);
    for (int i = 0; i < s->nmsgs * t->nterms; i++) got[i] = -1;
    for (int m = 0; m < s->nmsgs; m++) got[m * t->nterms + s->msgs[m].origin] = -2; /* held from the start */
    int combining = s->op == OP_REDUCE || s->op == OP_BARRIER;
    char name[128];
    for (int st = 0; st < s->nsteps && !rc; st++) {
        for (int i = 0; i < nch; i++) used[i] = -1;
        for (int x = 0; x < s->nxfers && !rc; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st) continue;
            int chs[COLL_MAX_HOPS + 2], n;
            if (check_xfer(s, t, f, err, errlen) || (n = route_channels(t, f, chs, err, errlen)) < 0) {
                rc = -1;
                break;
            }
            for (int i = 0; i < n && !rc; i++) {
                if (used[chs[i]] >= 0) {
                    const coll_xfer *g = &s->xf[used[chs[i]]];
                    sched_channel_name(t, chs[i], name, sizeof name);
                    snprintf(err, (size_t)errlen, "step %d: transfers %d -> %d and %d -> %d both use %s", st, g->src,
                             g->dst, f->src, f->dst, name);
                    rc = -1;
                }
                used[chs[i]] = x;
            }
            int minimal = topo_distance(t, topo_term_router(t, f->src), topo_term_router(t, f->dst));
            if (!rc && s->detour >= 0 && f->nports - 1 > minimal + s->detour) {
                snprintf(err, (size_t)errlen,
                         "step %d: transfer %d -> %d crosses %d links, more than the minimal %d + detour %d", st,
                         f->src, f->dst, f->nports - 1, minimal, s->detour);
                rc = -1;
            }
            int *seen = &got[f->msg * t->nterms + f->dst];
            if (!rc && !combining && *seen == -2) {
                snprintf(err, (size_t)errlen, "step %d: terminal %d receives message %d, its own", st, f->dst, f->msg);
                rc = -1;
            } else if (!rc && !combining && *seen >= 0) {
                snprintf(err, (size_t)errlen, "step %d: terminal %d receives message %d again (first in step %d)", st,
                         f->dst, f->msg, *seen);
                rc = -1;
            }
            if (*seen == -1) *seen = st;
        }
    }
    free(used);
    free(got);
    if (rc) return rc;
    return coll_check(s, err, errlen);
}
