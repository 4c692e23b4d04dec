/* noc.c - the NI driver: DMA send on k channels, receive ring in RAM. */
#include "xnoc.h"

#define S(ch, reg) NI[(ch) * 16 + (reg) / 4]
#define R(reg) NI[(0x800 + (reg)) / 4]
enum { S_DST = 0x00, S_ROUTE_LO = 0x04, S_ROUTE_HI = 0x08, S_NHOPS = 0x0C, S_ADDR = 0x10, S_LEN = 0x14,
       S_TAG = 0x18, S_GO = 0x1C, S_DONE = 0x20, S_WAIT = 0x24, S_GO_CYCLE_LO = 0x28, S_GO_CYCLE_HI = 0x2C };
enum { R_BASE = 0x00, R_SIZE = 0x04, R_HEAD = 0x08, R_TAIL = 0x0C, R_COUNT = 0x10, R_IRQ_EN = 0x14,
       R_PENDING = 0x18, R_WAIT = 0x1C, R_LAST_CYCLE_LO = 0x24, R_LAST_CYCLE_HI = 0x28, R_FULL_CYCLES = 0x2C };

static uint8_t *ring;
static uint32_t ring_size, tail;

void noc_init(void *r, uint32_t size)
{
    ring = r;
    ring_size = size;
    tail = 0;
    R(R_BASE) = (uint32_t)(uintptr_t)r;
    R(R_SIZE) = size;
}

void noc_send_routed(int ch, int dst, uint64_t route, int nhops, const void *buf, uint32_t len, uint16_t tag)
{
    (void)S(ch, S_WAIT);                 /* stalls while the channel is busy */
    S(ch, S_DST) = (uint32_t)dst;
    S(ch, S_ROUTE_LO) = (uint32_t)route;
    S(ch, S_ROUTE_HI) = (uint32_t)(route >> 32);
    S(ch, S_NHOPS) = (uint32_t)nhops;
    S(ch, S_ADDR) = (uint32_t)(uintptr_t)buf;
    S(ch, S_LEN) = len;
    S(ch, S_TAG) = tag;
    S(ch, S_GO) = 1;
}

void noc_send(int ch, int dst, const void *buf, uint32_t len, uint16_t tag)
{
    noc_send_routed(ch, dst, 0, 0, buf, len, tag);
}

uint32_t noc_send_wait(int ch) { return S(ch, S_WAIT); }

static void skip_wrap(void)
{
    if (tail != R(R_HEAD) && ((volatile uint32_t *)(ring + tail))[1] == 0xFFFFFFFFu) {
        tail = 0;
        R(R_TAIL) = 0;
    }
}

int noc_poll(noc_msg *m)
{
    if (!R(R_PENDING)) return 0;
    tail = R(R_TAIL);    /* the NI moves an empty ring back to offset 0 */
    skip_wrap();
    if (tail == R(R_HEAD)) return 0;
    volatile uint32_t *h = (volatile uint32_t *)(ring + tail);
    m->src = (uint16_t)(h[0] & 0xffff);
    m->tag = (uint16_t)(h[0] >> 16);
    m->len = h[1];
    m->data = ring + tail + 8;
    return 1;
}

void noc_recv(noc_msg *m)
{
    while (!noc_poll(m)) (void)R(R_WAIT);   /* stalls in the NI until a packet lands */
}

void noc_release(const noc_msg *m)
{
    tail += 8 + ((m->len + 7) & ~7u);
    if (tail >= ring_size) tail = 0;
    R(R_TAIL) = tail;
}

/* The NI latches both halves when the event happens, so no re-read loop. */
uint64_t noc_go_cycle(int ch) { return (uint64_t)S(ch, S_GO_CYCLE_HI) << 32 | S(ch, S_GO_CYCLE_LO); }
uint64_t noc_recv_cycle(void) { return (uint64_t)R(R_LAST_CYCLE_HI) << 32 | R(R_LAST_CYCLE_LO); }
uint32_t noc_full_cycles(void) { return R(R_FULL_CYCLES); }

/* A barrier made of messages: dissemination, ceil(log2 P) rounds. */
void sw_barrier(void)
{
    int me = node_id(), p = node_count();
    static uint32_t epoch;
    epoch++;
    for (int d = 1; d < p; d <<= 1) {
        uint32_t token = epoch;
        noc_send(0, (me + d) % p, &token, 4, (uint16_t)(0xB000 | (d & 0xfff)));
        noc_send_wait(0);
        noc_msg m;
        noc_recv(&m);
        noc_release(&m);
    }
}
