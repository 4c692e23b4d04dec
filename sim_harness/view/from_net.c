/* from_net.c - a sample's network part from the RTL routers' counters, so
 * a command's hook is three lines (view.h).  Kept apart from the rest of the
 * view: it is the only file that talks to net.h. */
#include <stdlib.h>

#include "view_impl.h"
#include "util/cli.h"

void view_sample_net(view *v, xnoc_net *n, const router_cfg *rc, view_sample *s)
{
    const topo *t = v->t;
    int nch = t->nterms * t->k;
    if (!v->net_links) {
        v->net_links = xcalloc((size_t)t->nlinks + 1, sizeof *v->net_links);
        v->net_ej = xcalloc((size_t)nch, sizeof *v->net_ej);
        v->net_buf = xcalloc((size_t)t->nrouters, sizeof *v->net_buf);
    }
    for (int i = 0; i < t->nlinks; i++) v->net_links[i] = net_link_flits(n, t->links[i].src, t->links[i].src_port);
    for (int term = 0; term < t->nterms; term++)
        for (int c = 0; c < t->k; c++)
            v->net_ej[term * t->k + c] = net_link_flits(n, topo_term_router(t, term), topo_term_port(t, term, c));
    for (int r = 0; r < t->nrouters; r++) {
        int sum = 0;
        for (int p = 0; p < t->nports; p++)
            for (int vc = 0; vc < rc->vcs; vc++) sum += net_vc_occupancy(n, r, p, vc);
        v->net_buf[r] = sum;
    }
    /* coding units: XOR and multicast badges from the units' own counters */
    if (net_has_units(n)) {
        if (!v->net_xor) v->net_xor = xcalloc((size_t)t->nrouters, sizeof *v->net_xor);
        if (!v->net_mc) v->net_mc = xcalloc((size_t)t->nrouters, sizeof *v->net_mc);
        if (v->net_xor && v->net_mc) {
            for (int r = 0; r < t->nrouters; r++) {
                net_unit u;
                net_unit_stats(n, r, &u);
                v->net_xor[r] = (uint32_t)u.xor_ops;
                v->net_mc[r] = (uint32_t)u.replicated;
            }
            s->xor_ops = v->net_xor;
            s->mcast_copies = v->net_mc;
        }
    }
    s->link_flits = v->net_links;
    s->ej_flits = v->net_ej;
    s->router_buffered = v->net_buf;
    s->router_capacity = t->nports * rc->vcs * rc->buf;
}
