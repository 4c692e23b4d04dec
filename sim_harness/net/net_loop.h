/* net_loop.h - the cycle loop both engines share: firmware runs
 * (system/system.c, sys_run) and synthetic traffic (traffic/traffic_run.c).
 *
 * It owns the terminal channels, steps the network one cycle at a time
 * around the engine's terminals, applies the network-side test hooks
 * (docs/usage.md), and keeps the evidence of a stall: the last cycle a flit
 * entered or left the network.  A stall - no flit moved for more than N
 * cycles while the engine still has flits in flight - is reported in one
 * line naming the cycle and the router, port and VC that hold flits:
 *
 *   deadlock at cycle 2130: no flit moved for 2001 cycles with 182 in flight;
 *   router 0 port 0 (+x) VC 0 holds 8 flit(s)
 *
 * The terminals' own hooks (XNOC_TEST_CORRUPT, _DROP, _DUP at ejection,
 * system/test_hooks.h) stay with the terminals that take the flits. */
#ifndef XNOC_NET_LOOP_H
#define XNOC_NET_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "net/net.h"
#include "net/topo.h"

typedef struct net_loop {
    xnoc_net *net;
    const topo *t;
    int vcs, nch;            /* nch = terminals x channels per terminal */
    xnoc_flit *inj, *ej;     /* [nch] flits into the network, out of it */
    xnoc_credit *injc, *ejc; /* [nch] credits out of the network (injection), into it (ejection) */
    uint64_t last_move;      /* the last cycle a flit entered or left the network (a terminal took it) */
    /* the network-side test hooks, read once from the environment */
    int spurious_inj_credit; /* XNOC_TEST_SPURIOUS_INJ_CREDIT: channel 0 gets an injection credit at cycle 0 */
    int spurious_ej_credit;  /* XNOC_TEST_SPURIOUS_CREDIT: an ejection credit nobody owed, at cycle 5 */
    int no_eject_credit;     /* XNOC_TEST_NO_EJECT_CREDIT: no ejection credit reaches the network */
} net_loop;

/* The engine's part of cycle `now`: read l->ej and l->injc (what the
 * network presented after the last cycle), write l->inj and l->ejc.
 * Nonzero ends the run before the network steps. */
typedef int (*net_loop_terminals)(void *arg, net_loop *l, uint64_t now);

/* The channels of net (nch of them, every one idle) and the hooks. */
void net_loop_init(net_loop *l, xnoc_net *net, const topo *t, int vcs, int nch);
void net_loop_free(net_loop *l);

/* One cycle: the hooks on what the terminals see, the terminals (fn), the
 * hooks on what they give, one network cycle.  Returns fn's nonzero answer
 * (the network did not step), else 0. */
int net_loop_cycle(net_loop *l, uint64_t now, net_loop_terminals fn, void *arg);

/* Cycles up to now since a flit entered or left the network (0: one
 * leaves in the next cycle). */
static inline uint64_t net_loop_quiet(const net_loop *l, uint64_t now)
{
    return now > l->last_move ? now - l->last_move : 0;
}

/* The stall rule: the engine has flits in flight (busy) and no flit moved
 * for more than `limit` cycles. */
static inline int net_loop_stalled(const net_loop *l, uint64_t now, uint64_t limit, int busy)
{
    return busy && net_loop_quiet(l, now) > limit;
}

/* The stall's line: "deadlock at cycle C: no flit moved for N cycles{with};
 * router R port P (name) VC V holds K flit(s)" (returns 1), or, when no
 * router holds a flit, "stall at cycle C: no flit moved for N cycles{with};
 * no router holds flits (they wait at the terminals)" (returns 0).  `with`
 * (or NULL) is the engine's word on what is in flight (" with 182 in flight"). */
int net_loop_stall_line(const net_loop *l, uint64_t now, uint64_t quiet, const char *with, char *buf, size_t len);

#endif
