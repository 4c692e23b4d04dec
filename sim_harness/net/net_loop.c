/* net_loop.c - the cycle loop both engines share (net_loop.h). */
#include "net/net_loop.h"

#include <stdio.h>
#include <stdlib.h>

#include "net/links_report.h"
#include "util/cli.h"

void net_loop_init(net_loop *l, xnoc_net *net, const topo *t, int vcs, int nch)
{
    *l = (net_loop){.net = net, .t = t, .vcs = vcs, .nch = nch};
    l->inj = xcalloc((size_t)nch, sizeof *l->inj);
    l->ej = xcalloc((size_t)nch, sizeof *l->ej);
    l->injc = xcalloc((size_t)nch, sizeof *l->injc);
    l->ejc = xcalloc((size_t)nch, sizeof *l->ejc);
    l->spurious_inj_credit = getenv("XNOC_TEST_SPURIOUS_INJ_CREDIT") != NULL;
    l->spurious_ej_credit = getenv("XNOC_TEST_SPURIOUS_CREDIT") != NULL;
    l->no_eject_credit = getenv("XNOC_TEST_NO_EJECT_CREDIT") != NULL;
}

void net_loop_free(net_loop *l)
{
    free(l->inj);
    free(l->ej);
    free(l->injc);
    free(l->ejc);
    l->inj = l->ej = NULL;
    l->injc = l->ejc = NULL;
}

int net_loop_cycle(net_loop *l, uint64_t now, net_loop_terminals fn, void *arg)
{
    int nch = l->nch;
    if (l->spurious_inj_credit && now == 0) l->injc[0] = (xnoc_credit){.valid = 1, .vc = 0};
    int stop = fn(arg, l, now);
    if (stop) return stop;
    if (l->no_eject_credit)
        for (int ch = 0; ch < nch; ch++) l->ejc[ch].valid = 0;
    if (l->spurious_ej_credit && now == 5) /* the router's ejection credits now exceed its view of buf */
        l->ejc[0] = (xnoc_credit){.valid = 1, .vc = 0};
    net_cycle(l->net, l->inj, l->ejc, l->ej, l->injc);
    /* one pass over the channels: a flit injected now moved now; one the
     * network presents moves when the terminal takes it, at now + 1 */
    int in = 0, out = 0;
    for (int ch = 0; ch < nch; ch++) {
        in |= l->inj[ch].valid;
        out |= l->ej[ch].valid;
    }
    if (out) l->last_move = now + 1;
    else if (in) l->last_move = now;
    return 0;
}

int net_loop_stall_line(const net_loop *l, uint64_t now, uint64_t quiet, const char *with, char *buf, size_t len)
{
    char where[200];
    int held = links_first_held(l->t, l->net, l->vcs, where, sizeof where);
    snprintf(buf, len, "%s at cycle %llu: no flit moved for %llu cycles%s; %s", held ? "deadlock" : "stall",
             (unsigned long long)now, (unsigned long long)quiet, with ? with : "",
             held ? where : "no router holds flits (they wait at the terminals)");
    return held;
}
