/* posted - posted receives, zero-copy (docs/ni.md): node 1 sends node 0
 * two messages; node 0 has posted a receive for the first (tag 7, from any
 * source), so its payload lands in place and bumps a counter, while the
 * second (tag 8, nothing posted) goes to the ring.  Node 0 checks every
 * byte, the counter and the NI's counts, and exits 0.
 * --arg case=N (N > 0) makes node 0 post one bad descriptor instead, or
 * makes node 1 send a message that does not match what was posted; the NI
 * refuses it with one line (tests/posted.t.sh lists them).  Posted buffers
 * may overlap neither each other nor the ring nor the guard, whichever was
 * written first: case 10..12 post two overlapping buffers (the second
 * starting inside the first, ending inside it, enclosing it), case 13 moves
 * the ring onto a pending buffer, case 14 grows the ring onto one, case 15
 * and 16 move the guard onto one (GUARD_HI, GUARD_LO written last); each is
 * refused at the store that would make the overlap.  Case 17 stays just
 * clear of every one of those (adjacent buffers, ring and guard; a zero-length
 * buffer inside another; a buffer reused once its message landed) and exits 0
 * ("posted: boundaries ok"). */
#include "xnoc.h"

static uint8_t ring[1024] __attribute__((aligned(8)));
static uint8_t buf[256] __attribute__((aligned(8)));
static uint8_t guarded[64] __attribute__((aligned(8)));
static uint8_t area[2048] __attribute__((aligned(8)));
static volatile uint32_t ct;

static uint8_t byte_of(int tag, uint32_t i) { return (uint8_t)(tag * 31 + i * 7); }

#define M(reg) NI[(NI_MATCH + (reg)) / 4]
#define R(reg) NI[(NI_RECV + (reg)) / 4]
#define U(p) ((uint32_t)(uintptr_t)(p))

/* case 17: every refusal's boundary, just clear of it */
static int boundaries(void)
{
    static volatile uint32_t ct2;
    noc_init(area, 1024);
    noc_post(1, 20, area + 1024, 64, &ct2); /* right after the ring */
    noc_post(NOC_ANY_SRC, 7, buf, 64, &ct); /* the message that comes */
    noc_post(1, 21, buf + 64, 64, &ct2);    /* right after it */
    noc_post(1, 22, buf + 8, 0, &ct2);      /* zero bytes overlap nothing */
    M(NI_M_GUARD_HI) = 0;                   /* the guard right after those */
    M(NI_M_GUARD_LO) = U(buf + 128);
    M(NI_M_GUARD_HI) = U(buf + 192);
    R(NI_R_SIZE) = 1024; /* unchanged, at the same place */
    barrier();
    noc_ct_wait(&ct, 1);
    noc_post(1, 23, buf, 64, &ct2); /* tag 7's buffer is free once its message landed */
    noc_msg m;
    noc_recv(&m);
    int bad = m.tag != 8;
    noc_release(&m);
    for (uint32_t i = 0; i < 64; i++) bad |= buf[i] != byte_of(7, i);
    bad |= noc_posted_pending() != 4 || noc_posted_done() != 1;
    printf("posted: boundaries %s\n", bad ? "MISMATCH" : "ok");
    return bad;
}

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
    if (c == 17) return boundaries();
    switch (c) {
    case 1: noc_post(1, 7, (void *)0x40000000u, 64, &ct); break;                       /* outside RAM */
    case 2: noc_post(1, 7, ring + 8, 64, &ct); break;                                  /* on the ring */
    case 3: noc_post(1, 7, guarded + 32, 64, &ct); break;                              /* on the guard */
    case 4: noc_post(1, 7, buf, 64, (volatile uint32_t *)((uintptr_t)&ct + 2)); break; /* counter */
    case 5: noc_post(node_count() + node_routers(), 7, buf, 64, &ct); break;           /* no such source */
    case 9: noc_post(1, 9, buf, 64, &ct); break;                                       /* never comes */
    case 10: /* the second starts inside the first */
        noc_post(1, 7, buf, 64, &ct);
        noc_post(1, 9, buf + 32, 64, &ct);
        break;
    case 11: /* the second ends inside the first */
        noc_post(1, 7, buf + 32, 64, &ct);
        noc_post(1, 9, buf, 64, &ct);
        break;
    case 12: /* the second encloses the first */
        noc_post(NOC_ANY_SRC, 7, buf + 16, 16, &ct);
        noc_post(1, 9, buf, 64, &ct);
        break;
    case 13: /* the ring moved onto a pending buffer */
        noc_post(1, 7, buf, 64, &ct);
        R(NI_R_BASE) = U(buf);
        break;
    case 14: /* the ring grown onto one */
        noc_init(area, 1024);
        noc_post(1, 7, area + 1088, 64, &ct);
        R(NI_R_SIZE) = 2048;
        break;
    case 15: /* the guard moved onto one, GUARD_HI written last */
        noc_post(1, 7, buf, 64, &ct);
        M(NI_M_GUARD_HI) = 0;
        M(NI_M_GUARD_LO) = U(buf + 56);
        M(NI_M_GUARD_HI) = U(buf + 128);
        break;
    case 16: /* GUARD_LO written last */
        noc_post(1, 7, buf, 64, &ct);
        M(NI_M_GUARD_LO) = 0xfffffff8u; /* an empty region while the other half moves */
        M(NI_M_GUARD_HI) = U(buf + 8);
        M(NI_M_GUARD_LO) = U(buf);
        break;
    case 7:                                                                        /* table full */
        for (uint32_t i = 0;; i++) noc_post(1, (uint16_t)(1000 + i), buf, 0, &ct); /* zero bytes: no overlap */
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
