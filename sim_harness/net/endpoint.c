/* endpoint.c - a terminal channel's credits (see endpoint.h). */
#include "net/endpoint.h"

#include <string.h>

void ep_init(endpoint *e, int vcs, int buf)
{
    memset(e, 0, sizeof *e);
    e->vcs = vcs;
    e->buf = buf;
    for (int v = 0; v < vcs; v++) e->credits[v] = buf;
}

int ep_credit_in(endpoint *e, const xnoc_credit *c)
{
    if (c->vc >= e->vcs || e->credits[c->vc] >= e->buf) return 0;
    e->credits[c->vc]++;
    return 1;
}

int ep_pick_vc(const endpoint *e, int vpc, int first)
{
    for (int i = 0; i < vpc; i++) {
        int v = (first + i) % vpc;
        if (e->credits[v] > 0) return v;
    }
    return -1;
}

/* A router that keeps to its credits sends at most vcs * buf flits the
 * terminal has not yet returned a credit for; one more is refused rather
 * than written over the oldest. */
int ep_owe(endpoint *e, int vc)
{
    if (e->owed_len >= e->vcs * e->buf) return 0; /* vcs * buf <= EP_MAX_OWED (router_cfg's limits) */
    e->owed[(e->owed_head + e->owed_len) % EP_MAX_OWED] = (uint8_t)vc;
    e->owed_len++;
    return 1;
}

void ep_credit_out(endpoint *e, xnoc_credit *c)
{
    c->valid = 0;
    if (!e->owed_len) return;
    c->valid = 1;
    c->vc = e->owed[e->owed_head];
    e->owed_head = (e->owed_head + 1) % EP_MAX_OWED;
    e->owed_len--;
}
