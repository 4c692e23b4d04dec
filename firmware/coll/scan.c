/* scan.c - prefix reduction by recursive doubling on the cores (scan.h).
 * Every step's receive is posted, then a barrier (the node device's), before
 * the first send: a message of step s + 1 may arrive while this terminal
 * still combines step s, and one of step 0 as soon as its sender is past the
 * barrier.  A step's send leaves before the partial it was sent from is
 * combined again. */
#include "scan.h"

#include "reduce.h"
#include "xnoc.h"

static volatile uint32_t ct[SCAN_MAX_STEPS + 1];

int coll_scan(void *buf, uint32_t len, int op, int exclusive, void *work)
{
    int me = node_id(), n = node_count(), steps = 0;
    if (op < 0 || op >= NC_FUNC_ALL || !len || len % coll_lane_bytes(op)) return -1;
    while ((1 << steps) < n) steps++;
    if (steps > SCAN_MAX_STEPS) return -1;
    uint32_t *incl = buf, *excl = work, words = len / 4;
    uint8_t *rbuf = (uint8_t *)work + len;
    for (int s = 0; s < steps; s++) {
        ct[s] = 0;
        if (me >= 1 << s) noc_post(me - (1 << s), (uint16_t)(0x7F00 + s), rbuf + s * len, len, &ct[s]);
    }
    barrier();
    for (int s = 0; s < steps; s++) {
        int d = 1 << s;
        if (me + d < n) noc_send(0, me + d, incl, len, (uint16_t)(0x7F00 + s));
        if (me < d) continue;
        noc_ct_wait(&ct[s], 1);
        noc_send_wait(0); /* incl has left before it changes */
        coll_combine_words(op, incl, (const uint32_t *)(rbuf + s * len), words);
    }
    noc_send_wait(0);
    if (!exclusive) return 0;
    /* exclusive: one more step, the inclusive prefixes shifted by one terminal (terminal 0:
     * the identity); received beside buf, which is being sent, then copied in */
    ct[steps] = 0;
    if (me > 0) noc_post(me - 1, (uint16_t)(0x7F00 + steps), excl, len, &ct[steps]);
    barrier();
    if (me + 1 < n) noc_send(0, me + 1, incl, len, (uint16_t)(0x7F00 + steps));
    noc_send_wait(0);
    if (me > 0) {
        noc_ct_wait(&ct[steps], 1);
        memcpy(incl, excl, len);
    } else {
        for (uint32_t k = 0; k < words; k++) incl[k] = coll_identity_word(op, k);
    }
    return 0;
}
