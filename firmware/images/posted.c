/* posted - posted receives, zero-copy (docs/ni.md): node 1 sends node 0
 * two messages; node 0 has posted a receive for the first (tag 7, from any
 * source), so its payload lands in place and bumps a counter, while the
 * second (tag 8, nothing posted) goes to the ring.  Node 0 checks every
 * byte, the counter and the NI's counts, and exits 0.
 * --arg case=N (N > 0) makes node 0 post one bad descriptor instead, or
 * makes node 1 send a message that does not match what was posted; the NI
 * refuses it with one line (tests/fw.t.sh lists them). */
#include "xnoc.h"

static uint8_t ring[1024] __attribute__((aligned(8)));
static uint8_t buf[256] __attribute__((aligned(8)));
static uint8_t guarded[64] __attribute__((aligned(8)));
static volatile uint32_t ct;

static uint8_t byte_of(int tag, uint32_t i) { return (uint8_t)(tag * 31 + i * 7); }

int main(void)
{
    int me = node_id(), c = (int)node_param("case", 0);
    noc_init(ring, sizeof ring);
    if (me == 1) {
        static uint8_t out[256] __attribute__((aligned(8)));
        barrier(); /* node 0 has posted */
        uint32_t len = c == 6 ? 100 : 64;
        for (uint32_t i = 0; i < len; i++) out[i] = byte_of(7, i);
        noc_send(0, 0, out, len, 7);
        noc_send_wait(0);
        for (uint32_t i = 0; i < 16; i++) out[i] = byte_of(8, i);
        noc_send(0, 0, out, 16, 8);
        noc_send_wait(0);
        return 0;
    }
    if (me != 0) {
        barrier();
        return 0;
    }
    noc_guard(guarded, guarded + sizeof guarded);
    switch (c) {
    case 1: noc_post(1, 7, (void *)0x40000000u, 64, &ct); break;                       /* outside RAM */
    case 2: noc_post(1, 7, ring + 8, 64, &ct); break;                                  /* on the ring */
    case 3: noc_post(1, 7, guarded + 32, 64, &ct); break;                              /* on the guard */
    case 4: noc_post(1, 7, buf, 64, (volatile uint32_t *)((uintptr_t)&ct + 2)); break; /* counter */
    case 5: noc_post(node_count() + node_routers(), 7, buf, 64, &ct); break;           /* no such source */
    case 9: noc_post(1, 9, buf, 64, &ct); break;                                       /* never comes */
    case 7:                                                                            /* table full */
        for (uint32_t i = 0;; i++) noc_post(1, (uint16_t)(1000 + i), buf, 64, &ct);
    case 8:
        NI[(NI_MATCH + NI_M_CT_WAIT) / 4] = 1;
        (void)NI[(NI_MATCH + NI_M_CT_WAIT) / 4];
        break;
    default: noc_post(NOC_ANY_SRC, 7, buf, 64, &ct); break;
    }
    barrier();
    noc_ct_wait(&ct, 1);
    int bad = 0;
    for (uint32_t i = 0; i < 64; i++) bad |= buf[i] != byte_of(7, i);
    noc_msg m;
    noc_recv(&m);
    bad |= m.src != 1 || m.tag != 8 || m.len != 16;
    for (uint32_t i = 0; i < 16 && !bad; i++) bad |= m.data[i] != byte_of(8, i);
    noc_release(&m);
    bad |= noc_posted_done() != 1 || noc_unexpected() != 1 || noc_posted_pending() != 0 || ct != 1;
    printf("posted: %s (done %u, unexpected %u)\n", bad ? "MISMATCH" : "ok", noc_posted_done(), noc_unexpected());
    return bad;
}
