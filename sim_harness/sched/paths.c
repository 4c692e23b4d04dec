/* paths.c - channels and candidate paths of the scheduling model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

int sched_nchannels(const topo *t) { return 2 * t->nterms * t->k + t->nlinks; }
int sched_channel_inj(const topo *t, int term, int c) { return term * t->k + c; }
int sched_channel_ej(const topo *t, int term, int c) { return t->nterms * t->k + term * t->k + c; }
int sched_channel_link(const topo *t, int link) { return 2 * t->nterms * t->k + link; }

void sched_channel_name(const topo *t, int ch, char *buf, int len)
{
    int tk = t->nterms * t->k;
    if (ch < tk) snprintf(buf, (size_t)len, "injection channel %d of terminal %d", ch % t->k, ch / t->k);
    else if (ch < 2 * tk) snprintf(buf, (size_t)len, "ejection channel %d of terminal %d", (ch - tk) % t->k, (ch - tk) / t->k);
    else {
        const topo_link *l = &t->links[ch - 2 * tk];
        snprintf(buf, (size_t)len, "link router %d port %d -> router %d", l->src, l->src_port, l->dst);
    }
}

typedef struct {
    const topo *t;
    int a, b;
    sched_paths *out;
} collect;

static int add_route(const int *ports, int nhops, void *arg)
{
    collect *c = arg;
    const topo *t = c->t;
    int ra = topo_term_router(t, c->a);
    for (int ci = 0; ci < t->k; ci++)
        for (int ce = 0; ce < t->k; ce++) {
            sched_paths *o = c->out;
            o->p = realloc(o->p, (size_t)(o->n + 1) * sizeof *o->p);
            sched_path *p = &o->p[o->n++];
            memset(p, 0, sizeof *p);
            p->chan = ci;
            p->ch[p->nch++] = sched_channel_inj(t, c->a, ci);
            int r = ra;
            for (int h = 0; h < nhops && h < COLL_MAX_HOPS - 1; h++) {
                int l = t->out_link[r * t->nports + ports[h]];
                p->ch[p->nch++] = sched_channel_link(t, l);
                p->ports[p->nports++] = (int8_t)ports[h];
                r = t->links[l].dst;
            }
            p->ports[p->nports++] = (int8_t)topo_term_port(t, c->b, ce);
            p->ch[p->nch++] = sched_channel_ej(t, c->b, ce);
        }
    return 0;
}

sched_paths *sched_paths_build(const topo *t, int detour)
{
    int n = t->nterms;
    sched_paths *all = calloc((size_t)n * (size_t)n, sizeof *all);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            if (a == b) continue;
            collect c = {t, a, b, &all[a * n + b]};
            topo_paths(t, topo_term_router(t, a), topo_term_router(t, b), detour, add_route, &c);
        }
    return all;
}

const sched_paths *sched_paths_get(const sched_paths *all, const topo *t, int a, int b)
{
    return &all[a * t->nterms + b];
}

void sched_paths_free(sched_paths *all, const topo *t)
{
    if (!all) return;
    for (int i = 0; i < t->nterms * t->nterms; i++) free(all[i].p);
    free(all);
}

/* ------------------------------------------------------------- verify */

int sched_verify(const coll_sched *s, const topo *t, char *err, int errlen)
{
    int nch = sched_nchannels(t);
    int *used = malloc((size_t)nch * sizeof *used);
    char name[128];
    int rc = 0;
    for (int st = 0; st < s->nsteps && !rc; st++) {
        for (int i = 0; i < nch; i++) used[i] = -1;
        for (int x = 0; x < s->nxfers && !rc; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st) continue;
            if (f->src < 0 || f->src >= t->nterms || f->dst < 0 || f->dst >= t->nterms || f->src == f->dst) {
                snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d names a bad terminal", st, f->src, f->dst);
                rc = -1;
                break;
            }
            if (f->chan < 0 || f->chan >= t->k) {
                snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d uses injection channel %d of %d (port limit)",
                         st, f->src, f->dst, f->chan, t->k);
                rc = -1;
                break;
            }
            /* walk the route */
            int chs[COLL_MAX_HOPS + 2], n = 0, r = topo_term_router(t, f->src);
            chs[n++] = sched_channel_inj(t, f->src, f->chan);
            for (int h = 0; h < f->nports && !rc; h++) {
                int p = f->ports[h];
                if (p < 0 || p >= t->nports) {
                    snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d: hop %d names port %d of a %d-port router",
                             st, f->src, f->dst, h, p, t->nports);
                    rc = -1;
                } else if (h == f->nports - 1) {
                    if (topo_port_term(t, r, p) != f->dst) {
                        snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d: the route ends at router %d port %d, not at terminal %d",
                                 st, f->src, f->dst, r, p, f->dst);
                        rc = -1;
                    } else chs[n++] = sched_channel_ej(t, f->dst, (p - t->nnet) % t->k);
                } else {
                    int l = p < t->nnet ? t->out_link[r * t->nports + p] : -1;
                    if (l < 0) {
                        snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d: hop %d leaves router %d by port %d, which has no link",
                                 st, f->src, f->dst, h, r, p);
                        rc = -1;
                    } else {
                        chs[n++] = sched_channel_link(t, l);
                        r = t->links[l].dst;
                    }
                }
            }
            if (rc) break;
            if (f->nports == 0) {
                snprintf(err, (size_t)errlen, "step %d: transfer %d -> %d has no route", st, f->src, f->dst);
                rc = -1;
                break;
            }
            for (int i = 0; i < n; i++) {
                if (used[chs[i]] >= 0) {
                    const coll_xfer *g = &s->xf[used[chs[i]]];
                    sched_channel_name(t, chs[i], name, sizeof name);
                    snprintf(err, (size_t)errlen, "step %d: transfers %d -> %d and %d -> %d both use %s", st, g->src,
                             g->dst, f->src, f->dst, name);
                    rc = -1;
                    break;
                }
                used[chs[i]] = x;
            }
        }
    }
    free(used);
    if (rc) return rc;
    return coll_check(s, err, errlen);
}
