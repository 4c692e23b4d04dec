/* endpoint_unit.c - net/endpoint.c, the terminal side of a channel's credit
 * flow control: credits held and refused, the VC a packet takes, credits
 * owed and returned one per cycle in order. */
#include <stdio.h>

#include "net/endpoint.h"

static int fails;

static void expect(int cond, const char *what)
{
    printf("%s endpoint-%s\n", cond ? "ok" : "FAIL", what);
    fails += !cond;
}

int main(void)
{
    endpoint e;
    ep_init(&e, 4, 2); /* 4 VCs of 2 flits */
    expect(e.credits[0] == 2 && e.credits[3] == 2 && ep_can_send(&e, 3), "starts-full");

    /* a credit on a full VC, or on a VC the router does not have, is refused and changes nothing */
    xnoc_credit c = {.valid = 1, .vc = 1};
    expect(!ep_credit_in(&e, &c) && e.credits[1] == 2, "refuses-above-depth");
    c.vc = 4;
    expect(!ep_credit_in(&e, &c) && e.credits[0] == 2 && e.credits[3] == 2, "refuses-vc-out-of-range");
    c.vc = 7;
    expect(!ep_credit_in(&e, &c), "refuses-vc-7");

    /* spending to zero, then one back */
    ep_spend(&e, 1);
    ep_spend(&e, 1);
    expect(!ep_can_send(&e, 1) && e.credits[1] == 0, "spends-to-zero");
    c.vc = 1;
    expect(ep_credit_in(&e, &c) && e.credits[1] == 1 && ep_can_send(&e, 1), "takes-credit-back");
    expect(ep_credit_in(&e, &c) && !ep_credit_in(&e, &c) && e.credits[1] == 2, "back-to-depth-then-refuses");

    /* VC choice among the first vpc: from `first` on, wrapping, the first with a credit */
    expect(ep_pick_vc(&e, 2, 0) == 0 && ep_pick_vc(&e, 2, 1) == 1 && ep_pick_vc(&e, 2, 3) == 1, "pick-from-first");
    ep_spend(&e, 0);
    ep_spend(&e, 0);
    expect(ep_pick_vc(&e, 2, 0) == 1 && ep_pick_vc(&e, 2, 1) == 1, "pick-skips-empty");
    ep_spend(&e, 1);
    ep_spend(&e, 1);
    expect(ep_pick_vc(&e, 2, 0) == -1 && ep_can_send(&e, 2), "pick-none-in-class-0");
    expect(ep_pick_vc(&e, 4, 0) == 2 && ep_pick_vc(&e, 4, 3) == 3, "pick-whole-range");

    /* ejection: owed in order, one per call; nothing owed gives an invalid credit */
    xnoc_credit out = {.valid = 1, .vc = 5};
    ep_credit_out(&e, &out);
    expect(!out.valid && !ep_owes(&e), "nothing-owed");
    ep_owe(&e, 3);
    ep_owe(&e, 0);
    ep_owe(&e, 3);
    int order_ok = ep_owes(&e);
    const int want[3] = {3, 0, 3};
    for (int i = 0; i < 3; i++) {
        ep_credit_out(&e, &out);
        order_ok &= out.valid && out.vc == want[i];
    }
    ep_credit_out(&e, &out);
    expect(order_ok && !out.valid && !ep_owes(&e), "owed-in-order");

    /* the owed queue wraps: every slot of every VC owed, many times over */
    endpoint big;
    ep_init(&big, ROUTER_MAX_VCS, ROUTER_MAX_BUF);
    ep_owe(&big, 5); /* the queue's head off slot 0, so that it wraps below */
    ep_credit_out(&big, &out);
    int wrap_ok = out.valid && out.vc == 5;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < EP_MAX_OWED; i++) wrap_ok &= ep_owe(&big, i % ROUTER_MAX_VCS);
        wrap_ok &= big.owed_len == EP_MAX_OWED;
        wrap_ok &= !ep_owe(&big, 1) && big.owed_len == EP_MAX_OWED; /* one more is refused, nothing overwritten */
        for (int i = 0; i < EP_MAX_OWED; i++) {
            ep_credit_out(&big, &out);
            wrap_ok &= out.valid && out.vc == i % ROUTER_MAX_VCS;
        }
        wrap_ok &= !ep_owes(&big);
    }
    expect(wrap_ok, "owed-queue-wraps-at-capacity");

    /* a small endpoint owes at most vcs * buf credits: the next flit is refused */
    endpoint small;
    ep_init(&small, 2, 2);
    int cap_ok = 1;
    for (int i = 0; i < 4; i++) cap_ok &= ep_owe(&small, i % 2);
    cap_ok &= !ep_owe(&small, 0) && small.owed_len == 4;
    ep_credit_out(&small, &out);
    cap_ok &= out.valid && out.vc == 0 && ep_owe(&small, 1); /* a credit returned makes room again */
    expect(cap_ok, "owed-beyond-buffer-refused");

    printf("%d failed\n", fails);
    return fails != 0;
}
