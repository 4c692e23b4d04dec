/* nc-decode - the NI's decode engine (docs/ni.md): XORs the NI does as a
 * DMA engine.  --arg case=0: node 0 hands its NI a list of three
 * descriptors, x = a ^ b, then y = x ^ b (a chain: y uses what the first
 * wrote), then a = a ^ a in place, waits, checks every byte and the engine's
 * cycles (3 x (2 + 64/8) = 30), prints one line and exits 0 only if all of
 * it holds.  case=1..12: one bad descriptor or list; GO is refused with an
 * access fault whose line names the reason (tests/nc.t.sh lists them).
 * case=13: the list five times over, GO after GO: the fifth GO waits until
 * the first list is done (the engine holds NI_DEC_QUEUE = 4 lists).
 * case=14: the list queued, the receive ring moved onto a descriptor's dst
 * before the engine wrote it: refused (an access fault naming both);
 * case=15: the same with the guarded region (GUARD_LO..GUARD_HI). */
#include "xnoc.h"

#define D(reg) NI[(NI_DEC + (reg)) / 4]
#define N 64

static uint8_t ring[1024] __attribute__((aligned(8)));
static uint8_t a[N] __attribute__((aligned(8))), b[N] __attribute__((aligned(8)));
static uint8_t x[N] __attribute__((aligned(8))), y[N] __attribute__((aligned(8)));
static uint8_t posted[N] __attribute__((aligned(8)));
static uint32_t guard[16] __attribute__((aligned(8)));
static uint32_t list[3 * NI_DEC_DESC_WORDS] __attribute__((aligned(8)));

static void desc(int i, const void *dst, const void *pa, const void *pb, uint32_t len)
{
    list[4 * i] = (uint32_t)(uintptr_t)dst;
    list[4 * i + 1] = (uint32_t)(uintptr_t)pa;
    list[4 * i + 2] = (uint32_t)(uintptr_t)pb;
    list[4 * i + 3] = len;
}

int main(void)
{
    int me = node_id(), c = (int)node_param("case", 0);
    noc_init(ring, sizeof ring);
    if (me != 0) return 0;
    for (int i = 0; i < N; i++) a[i] = (uint8_t)(3 * i + 1), b[i] = (uint8_t)(0xA5 ^ i);
    desc(0, x, a, b, N);
    desc(1, y, x, b, N);
    desc(2, a, a, a, N);
    uint32_t count = 3, ram_end = 0x80000000u + DEV(DEV_RAM_SIZE);
    switch (c) {
    case 1: list[0] = ram_end - 8; break;                      /* dst runs past the end of RAM */
    case 2: list[4 + 1] = 0x40000000u; break;                  /* operand a of descriptor 1 outside RAM */
    case 3: list[0] = (uint32_t)(uintptr_t)(a + 8); break;     /* dst partly overlaps operand a */
    case 4: list[4] = (uint32_t)(uintptr_t)list; break;        /* dst on the list itself */
    case 5: list[0] = (uint32_t)(uintptr_t)(ring + 64); break; /* dst on the receive ring */
    case 6:                                                    /* an operand still awaiting its message */
        noc_post(1, 7, posted, N, 0);
        list[8 + 2] = (uint32_t)(uintptr_t)posted;
        break;
    case 7: count = 0; break;
    case 8: count = NI_DEC_MAX_LIST + 1; break;
    case 9: D(NI_D_LIST) = (uint32_t)(uintptr_t)list + 2; break; /* below: LIST unaligned */
    case 10: list[3] = 0; break;                                 /* length 0 */
    case 11:                                                     /* dst on the guarded region */
        noc_guard(guard, guard + 16);
        list[0] = (uint32_t)(uintptr_t)guard;
        break;
    case 12: list[3] = NI_MAX_PACKET + 8; break;
    }
    if (c == 13) { /* five lists queued at once: GO stalls while NI_DEC_QUEUE (4) are held */
        for (int i = 0; i < 5; i++) {
            D(NI_D_LIST) = (uint32_t)(uintptr_t)list;
            D(NI_D_COUNT) = 3;
            D(NI_D_GO) = 1;
        }
        uint32_t after5 = D(NI_D_DONE), done = noc_decode_wait(), cyc = noc_decode_cycles(), bad = 0;
        for (int i = 0; i < N; i++) bad += x[i] != (uint8_t)(0xA5 ^ i) || y[i] || a[i]; /* a is 0 after list 1 */
        printf("nc-decode: queue of 5 lists: %u descriptors done after the fifth GO, %u in all, %u engine cycles, %u "
               "bad bytes\n",
               after5, done, cyc, bad);
        return after5 == 3 && done == 15 && cyc == 150 && !bad ? 0 : 1;
    }
    if (c == 14 || c == 15) { /* a (descriptor 2's dst) is written at engine cycles 20-30: queued now */
        D(NI_D_LIST) = (uint32_t)(uintptr_t)list;
        D(NI_D_COUNT) = 3;
        D(NI_D_GO) = 1;
        if (c == 14) NI[(NI_RECV + NI_R_BASE) / 4] = (uint32_t)(uintptr_t)a;
        else noc_guard(a, a + N);
        return 1; /* not reached: the store faults */
    }
    D(NI_D_LIST) = (uint32_t)(uintptr_t)list + (c == 9 ? 2 : 0);
    D(NI_D_COUNT) = count;
    uint32_t go_busy_before = D(NI_D_GO);
    D(NI_D_GO) = 1;
    uint32_t busy = D(NI_D_GO), done = noc_decode_wait(), cyc = noc_decode_cycles(), bad = 0;
    for (int i = 0; i < N; i++) {
        uint8_t ai = (uint8_t)(3 * i + 1), bi = (uint8_t)(0xA5 ^ i);
        bad += x[i] != (uint8_t)(ai ^ bi);
        bad += y[i] != ai;
        bad += a[i] != 0;
    }
    printf("nc-decode: %u descriptors done, %u engine cycles, busy %u then %u, %u bad bytes\n", done, cyc,
           go_busy_before, busy, bad);
    return done == 3 && cyc == 3 * (NI_DEC_DESC_CYCLES + N / 8) && !go_busy_before && busy && !bad ? 0 : 1;
}
