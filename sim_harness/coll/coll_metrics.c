/* coll_metrics.c - a schedule's model figures on a topology (coll_metrics.h). */
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "coll/coll_metrics.h"

/* The schedule's length in the step model's unit, one message per channel:
 * the most messages one send channel carries in a step, summed over the
 * steps (= the steps when every channel sends at most one per step; more
 * for the QCDOC all-gather, whose steps carry several). */
int coll_message_rounds(const coll_sched *s, const topo *t)
{
    int total = 0, *cnt = xcalloc((size_t)s->nterms * (size_t)t->k, sizeof *cnt);
    for (int st = 0; st < s->nsteps; st++) {
        int mx = 0;
        memset(cnt, 0, (size_t)s->nterms * (size_t)t->k * sizeof *cnt);
        for (int x = 0; x < s->nxfers; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st || f->src >= s->nterms) continue;
            int v = ++cnt[f->src * t->k + f->chan];
            if (v > mx) mx = v;
        }
        total += mx;
    }
    free(cnt);
    return total;
}

/* The aggregate unicast path hops of the schedule (the network-coding
 * paper's count: router-to-router links crossed, summed over the
 * terminal-to-terminal transfers; a source route's last port is the
 * ejection) and the link flits they must put on the routers' counters. */
void coll_schedule_hops(const coll_sched *s, const topo *t, int bytes, uint64_t *hops, uint64_t *flits, int *unicasts)
{
    *hops = *flits = 0;
    *unicasts = 0;
    for (int x = 0; x < s->nxfers; x++) {
        const coll_xfer *f = &s->xf[x];
        if (f->src >= s->nterms || f->dst >= s->nterms) continue; /* to or from a coding unit: no link */
        int h = f->nports ? f->nports - 1 : topo_distance(t, topo_term_router(t, f->src), topo_term_router(t, f->dst));
        *hops += (uint64_t)h;
        *flits += (uint64_t)h * (2 + ((uint64_t)coll_xfer_bytes(s, f, bytes) + 7) / 8);
        ++*unicasts;
    }
}

/* bytes the busiest terminal injects or absorbs */
uint64_t coll_busiest_volume(const coll_sched *s, int bytes)
{
    uint64_t *in = xcalloc((size_t)s->nterms, sizeof *in), *out = xcalloc((size_t)s->nterms, sizeof *out), v = 0;
    for (int x = 0; x < s->nxfers; x++) {
        const coll_xfer *f = &s->xf[x];
        uint64_t b = (uint64_t)coll_xfer_bytes(s, f, bytes);
        if (f->src < s->nterms) out[f->src] += b; /* (not a coding unit) */
        if (f->dst < s->nterms) in[f->dst] += b;
    }
    for (int i = 0; i < s->nterms; i++) {
        if (in[i] > v) v = in[i];
        if (out[i] > v) v = out[i];
    }
    free(in);
    free(out);
    return v;
}

/* dragonfly: the global and local links the schedule's packets cross
 * (their routes; the collective's own packets, whatever else runs) */
void coll_schedule_df_links(const coll_sched *s, const topo *t, uint64_t *global, uint64_t *local)
{
    *global = *local = 0;
    for (int x = 0; x < s->nxfers; x++) {
        const coll_xfer *f = &s->xf[x];
        if (f->src >= s->nterms || f->dst >= s->nterms) continue;
        int ports[COLL_MAX_HOPS + 8], n = f->nports, r = topo_term_router(t, f->src);
        if (n)
            for (int i = 0; i < n; i++) ports[i] = f->ports[i];
        else n = topo_route_ports(t, f->src, f->dst, ports, COLL_MAX_HOPS + 8);
        for (int i = 0; i < n && ports[i] < t->nnet; i++) {
            const topo_link *l = &t->links[t->out_link[r * t->nports + ports[i]]];
            ++*(l->kind == TOPO_LINK_GLOBAL ? global : local);
            r = l->dst;
        }
    }
}

/* dragonfly: groups with a member of the collective */
int coll_groups_in_job(const coll_sched *s, const topo *t)
{
    int n = 0;
    unsigned char *seen = xcalloc((size_t)t->groups, 1);
    for (int v = 0; v < s->nterms; v++) {
        int x = topo_group(t, topo_term_router(t, v));
        if ((s->from[v] || s->to[v]) && !seen[x]) seen[x] = 1, n++;
    }
    free(seen);
    return n;
}
