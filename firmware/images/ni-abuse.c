/* ni-abuse - firmware that misuses the NI must not hurt the emulator.
 * --arg case=0: node 0 starts a 256-byte send to node 1, then at once
 * rewrites ADDR (to an address outside RAM) and LEN (to 65536) while the
 * packet streams; the NI latched both at GO, so node 1 receives the
 * original bytes and checks them (exit 0).
 * --arg case=1: node 0 moves its sized receive ring so that it would end
 * outside RAM: refused (one fault line).  case=2: moved to an unaligned
 * address: refused.
 * --arg case=3: a flood node 0 never drains: the others send it 8 messages
 * of 200 bytes each, node 0 waits at the barrier instead of receiving;
 * the network backs up (nothing is dropped) and the watchdog names the
 * deadlock: a router holding flits, every node waiting.
 * --arg case=4: node 2 jumps to unmapped memory; case=5: node 2 stores
 * outside RAM; case=6: node 2 stores to its own code (allowed: RAM is RAM,
 * and the core sees the new instruction).
 * --arg case=7 (with --router sendq=2): node 0 queues a multicast-flagged
 * packet (MC 1, mask = node 1) to node 1 behind a 512-byte send to node 2,
 * then at once overwrites the mask with every bit set (addresses that do not
 * exist) before the packet streams; GO latched the mask it checked, so node
 * 1 receives one mask flit holding bit 1 only and checks it (exit 0).
 * --arg case=8: node 1 sends node 0 two 600-byte messages (tags 5, 6); node
 * 0's 1024-byte ring takes the first, the NI holds the second for lack of
 * room, and node 0 exits without taking either: `run` warns, naming both
 * (--fail-undelivered: the run fails).  case=9: node 1 starts a 1000-byte
 * send to node 0 and exits; node 0 exits 60 cycles after the barrier, while
 * the message's 127 flits are still arriving: `run` names it too.
 * --arg case=10: node 2 runs patched() (the core decodes and caches its
 * first instruction), then has its NI's decode engine write "li a0, 7"
 * over it (dst = the code, a = the new word, b = zeros): the engine's
 * write drops the decoded copy like any store, so patched() returns 7. */
#include "xnoc.h"

static uint8_t ring[1024] __attribute__((aligned(8)));
static uint8_t buf[256] __attribute__((aligned(8)));
static uint8_t big[1024] __attribute__((aligned(8)));
static uint64_t mask[NC_MASK_MAX];

__attribute__((noinline, aligned(4))) int patched(void)
{
    int r;
    __asm__ volatile("li %0, 0" : "=r"(r));
    return r;
}

int main(void)
{
    int me = node_id(), c = (int)node_param("case", 0);
    noc_init(ring, sizeof ring);
    volatile uint32_t *s0 = NI + NI_SEND(0) / 4;
    if (me == 0 && c == 0) {
        for (int i = 0; i < 256; i++) buf[i] = (uint8_t)(i * 13 + 5);
        noc_send(0, 1, buf, sizeof buf, 3);
        s0[NI_S_ADDR / 4] = 0x40000000u; /* mid-send: the NI must not follow */
        s0[NI_S_LEN / 4] = 65536;
        noc_send_wait(0);
        for (int i = 0; i < 256; i++) buf[i] = 0; /* and the buffer is free again */
        return 0;
    }
    if (me == 1 && c == 0) {
        noc_msg m;
        noc_recv(&m);
        int bad = m.len != 256 || m.tag != 3;
        for (uint32_t i = 0; i < m.len && !bad; i++) bad = m.data[i] != (uint8_t)(i * 13 + 5);
        noc_release(&m);
        printf("ni-abuse: %s\n", bad ? "MISMATCH" : "ok");
        return bad;
    }
    if (c == 7 && me == 0) {
        noc_send(0, 2, big, 512, 1); /* on the wire for 66 cycles */
        volatile uint32_t *c0 = NI + NI_CODE(0) / 4;
        mask[0] = 1ull << 1;
        __asm__ volatile("" ::: "memory"); /* in RAM before GO (the store after it would hide it) */
        c0[NI_C_MC / 4] = 1;               /* OP REPLICATE, COUNT 0, OUT_DEST none: the reset values */
        c0[NI_C_MASK_ADDR / 4] = (uint32_t)(uintptr_t)mask;
        noc_send_inline(0, 1, 0, 0, 0, buf, 64, 4); /* queued behind the first (sendq=2) */
        mask[0] = ~0ull;                            /* before it streams: the NI must not follow */
        __asm__ volatile("" ::: "memory");
        noc_send_wait(0);
        c0[NI_C_MC / 4] = 0;
        return 0;
    }
    if (c == 7 && (me == 1 || me == 2)) {
        noc_msg m;
        noc_recv(&m);
        int bad = me == 1 ? m.tag != 4 || m.len != 64 || noc_last_mask_flits() != 1 || noc_last_mask() != 1ull << 1
                          : m.tag != 1 || m.len != 512;
        noc_release(&m);
        if (me == 1)
            printf("ni-abuse: mask 0x%08x%08x in %d flit(s): %s\n", (unsigned)(noc_last_mask() >> 32),
                   (unsigned)noc_last_mask(), noc_last_mask_flits(), bad ? "MISMATCH" : "ok");
        return bad;
    }
    if (c == 8 && me == 1) {
        noc_send(0, 0, big, 600, 5);
        noc_send(0, 0, big, 600, 6);
        noc_send_wait(0);
        return 0;
    }
    if (c == 9 && me < 2) {
        barrier();
        uint64_t t0 = cycles();
        if (me == 1) noc_send(0, 0, big, 1000, 9);
        else
            while (cycles() - t0 < 60) {}
        return 0;
    }
    if (c == 8 && me == 0) {
        while (!noc_full_cycles()) (void)DEV(DEV_CYCLE_LO); /* the second waits for ring space */
        return 0;
    }
    if (c == 3) {
        if (me != 0)
            for (int i = 0; i < 8; i++) noc_send(0, 0, buf, 200, (uint16_t)i);
        barrier();
        return 0;
    }
    if (me == 2 && c == 4) ((void (*)(void))0x40000000u)();
    if (me == 2 && c == 5) *(volatile uint32_t *)0x40000010u = 1;
    if (me == 2 && c == 6) {
        extern int patched(void);
        /* patched() returns 0 until its first instruction becomes "li a0, 7" */
        volatile uint32_t *code = (volatile uint32_t *)(uintptr_t)patched;
        *code = 0x00700513u; /* addi a0, zero, 7 */
        __asm__ volatile("fence.i");
        return patched() == 7 ? 0 : 1;
    }
    if (me == 2 && c == 10) {
        extern int patched(void);
        static uint32_t word[2] __attribute__((aligned(8))) = {0x00700513u, 0}; /* addi a0, zero, 7 */
        static uint32_t zero[2] __attribute__((aligned(8)));
        static uint32_t list[4];
        int before = patched();
        list[0] = (uint32_t)(uintptr_t)patched;
        list[1] = (uint32_t)(uintptr_t)word;
        list[2] = (uint32_t)(uintptr_t)zero;
        list[3] = 4;
        noc_decode(list, 1);
        noc_decode_wait();
        __asm__ volatile("fence.i");
        int after = patched();
        printf("ni-abuse: patched() %d before, %d after the decode engine's write\n", before, after);
        return before == 0 && after == 7 ? 0 : 1;
    }
    if (me == 0 && c == 1) NI[(NI_RECV + NI_R_BASE) / 4] = 0x80000000u + DEV(DEV_RAM_SIZE) - 512;
    if (me == 0 && c == 2) NI[(NI_RECV + NI_R_BASE) / 4] = (uint32_t)(uintptr_t)ring + 4;
    return 0;
}
