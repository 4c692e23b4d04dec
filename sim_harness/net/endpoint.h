/* endpoint.h - the terminal's side of one network channel's flow control,
 * the timing contract of net.h as code, shared by the NI (system/ni.c) and
 * the synthetic-traffic terminal (traffic/traffic*.c):
 *   - injection: one credit per slot of the router's input VC buffers
 *     (`buf` per VC at reset), spent per flit sent, one back per credit the
 *     router returns; the VC a new packet takes;
 *   - ejection: the credits the terminal owes the router for flits it has
 *     taken off the link, returned one per cycle in the order owed.
 * A credit the router returns for a VC it owes nothing on (more than `buf`,
 * or a VC >= vcs) is refused: the caller reports it with where and when. */
#ifndef XNOC_ENDPOINT_H
#define XNOC_ENDPOINT_H

#include <stdint.h>

#include "net/net.h"
#include "net/router_cfg.h"

#define EP_MAX_OWED (ROUTER_MAX_VCS * ROUTER_MAX_BUF) /* every slot of every VC */

typedef struct {
    int vcs, buf;
    int credits[ROUTER_MAX_VCS]; /* injection: free slots of the router's VC buffers */
    uint8_t owed[EP_MAX_OWED];   /* ejection: VC ids of the credits owed, oldest first */
    int owed_head, owed_len;
} endpoint;

void ep_init(endpoint *e, int vcs, int buf);

/* Takes a credit the router returned (c->valid set): 1, or 0 if it is
 * refused (VC >= vcs, or that VC's credits already at buf). */
int ep_credit_in(endpoint *e, const xnoc_credit *c);

/* The VC a new packet takes among the first vpc (class 0): first tried
 * first, then first + 1, ... (mod vpc), the first with a credit; -1 if none. */
int ep_pick_vc(const endpoint *e, int vpc, int first);

static inline int ep_can_send(const endpoint *e, int vc) { return e->credits[vc] > 0; }
static inline void ep_spend(endpoint *e, int vc) { e->credits[vc]--; }

/* Ejection: a credit owed for a flit taken off VC vc: 1, or 0 if the
 * router has sent more flits than the terminal has buffer slots (vcs * buf
 * credits already owed); the next owed credit into *c (c->valid 0 when none
 * is owed), one per cycle. */
int ep_owe(endpoint *e, int vc);
void ep_credit_out(endpoint *e, xnoc_credit *c);
static inline int ep_owes(const endpoint *e) { return e->owed_len > 0; }

#endif
