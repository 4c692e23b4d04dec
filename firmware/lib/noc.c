/* noc.c - the NI driver: DMA send on k channels, receive ring in RAM. */
#include "xnoc.h"

#include "ni_regs.h"

/* register word of send channel ch, of the receive ring, of the coding
 * fields of ch, of the match unit (offsets: ni_regs.h) */
#define S(ch, reg) NI[NI_SEND(ch) / 4 + (reg) / 4] /* (the channel's base, then a constant offset) */
#define R(reg) NI[(NI_RECV + (reg)) / 4]
#define C(ch, reg) NI[NI_CODE(ch) / 4 + (reg) / 4]
#define M(reg) NI[(NI_MATCH + (reg)) / 4]
#define D(reg) NI[(NI_DEC + (reg)) / 4]

static uint8_t *ring;
static uint32_t ring_size, tail;
static uint8_t coded[NI_MAX_K]; /* channel ch has coding fields set (a plain send clears them) */

void noc_init(void *r, uint32_t size)
{
    ring = r;
    ring_size = size;
    tail = 0;
    R(NI_R_BASE) = (uint32_t)(uintptr_t)r;
    R(NI_R_SIZE) = size;
}

void noc_send_routed(int ch, int dst, uint64_t route, int nhops, const void *buf, uint32_t len, uint16_t tag)
{
    noc_send_inline(ch, dst, (uint32_t)route, (uint32_t)(route >> 32), nhops, buf, len, tag);
}

static void set_code(int ch, const noc_code *k)
{
    volatile uint32_t *c = (volatile uint32_t *)(NI_BASE + NI_CODE(ch));
    __asm__("" : "+r"(c));
    c[NI_C_MC / 4] = (uint32_t)k->mc;
    c[NI_C_OP / 4] = (uint32_t)k->op;
    c[NI_C_COUNT / 4] = (uint32_t)k->count;
    c[NI_C_OUT_DEST / 4] = (uint32_t)k->out_dest;
    c[NI_C_OUT_MC / 4] = (uint32_t)k->out_mc;
    c[NI_C_OUT_OP / 4] = (uint32_t)k->out_op;
    c[NI_C_OUT_COUNT / 4] = (uint32_t)k->out_count;
    c[NI_C_MASK_ADDR / 4] = (uint32_t)(uintptr_t)k->mask;
}

static const noc_code plain = {.out_dest = NC_NONE};

void noc_set_func(int ch, int func)
{
    (void)S(ch, NI_S_WAIT); /* the channel latched its last head at GO already */
    C(ch, NI_C_FUNC) = (uint32_t)func;
}

void noc_send(int ch, int dst, const void *buf, uint32_t len, uint16_t tag)
{
    noc_send_coded(ch, dst, NULL, buf, len, tag);
}

void noc_set_code(int ch, const noc_code *code)
{
    (void)S(ch, NI_S_WAIT); /* the channel latched its last head at GO already */
    set_code(ch, code ? code : &plain);
    coded[ch] = code != NULL;
}

void noc_send_coded(int ch, int dst, const noc_code *code, const void *buf, uint32_t len, uint16_t tag)
{
    if (code || coded[ch]) noc_set_code(ch, code);
    noc_send_routed(ch, dst, 0, 0, buf, len, tag);
}

void noc_multicast(int ch, int unit, const uint64_t *mask, const void *buf, uint32_t len, uint16_t tag)
{
    noc_code k = {.mc = 1, .op = NC_REPLICATE, .out_dest = NC_NONE, .mask = mask};
    noc_send_coded(ch, unit, &k, buf, len, tag);
}

void noc_encode(int ch, int unit, int count, int out_dest, const void *buf, uint32_t len, uint16_t tag)
{
    noc_code k = {.op = NC_ENCODE, .count = count, .out_dest = out_dest};
    noc_send_coded(ch, unit, &k, buf, len, tag);
}

uint64_t noc_head(int ch) { return (uint64_t)C(ch, NI_C_HEAD_HI) << 32 | C(ch, NI_C_HEAD_LO); }

int nc_mask_words(void) { return (int)C(0, NI_C_MASK_FLITS); }

void nc_xor(void *d, const void *a, const void *b, uint32_t n)
{
    uint8_t *dd = d;
    const uint8_t *aa = a, *bb = b;
    if ((((uintptr_t)d | (uintptr_t)a | (uintptr_t)b | n) & 3) == 0) {
        for (uint32_t i = 0; i < n / 4; i++) ((uint32_t *)d)[i] = ((const uint32_t *)a)[i] ^ ((const uint32_t *)b)[i];
        return;
    }
    for (uint32_t i = 0; i < n; i++) dd[i] = aa[i] ^ bb[i];
}

uint32_t noc_send_wait(int ch) { return S(ch, NI_S_WAIT); }

static void skip_wrap(void)
{
    if (tail != R(NI_R_HEAD) && ((volatile uint32_t *)(ring + tail))[1] == NI_WRAP_MARK) {
        tail = 0;
        R(NI_R_TAIL) = 0;
    }
}

int noc_poll(noc_msg *m)
{
    if (!R(NI_R_PENDING)) return 0;
    tail = R(NI_R_TAIL); /* the NI moves an empty ring back to offset 0 */
    skip_wrap();
    if (tail == R(NI_R_HEAD)) return 0;
    volatile uint32_t *h = (volatile uint32_t *)(ring + tail);
    m->src = (uint16_t)(h[0] & 0xffff);
    m->tag = (uint16_t)(h[0] >> 16);
    m->len = h[1];
    m->data = ring + tail + 8;
    return 1;
}

void noc_recv(noc_msg *m)
{
    while (!noc_poll(m)) (void)R(NI_R_WAIT); /* stalls in the NI until a packet lands */
}

void noc_release(const noc_msg *m)
{
    tail += 8 + ((m->len + 7) & ~7u);
    if (tail >= ring_size) tail = 0;
    R(NI_R_TAIL) = tail;
}

void noc_post(int src, uint16_t tag, void *buf, uint32_t len, volatile uint32_t *ct)
{
    noc_post_inline(src, tag, buf, len, ct);
}

uint32_t noc_ct_wait(volatile uint32_t *ct, uint32_t target)
{
    if (*ct >= target) return *ct;
    M(NI_M_CT_ADDR) = (uint32_t)(uintptr_t)ct;
    M(NI_M_CT_WAIT) = target;
    return M(NI_M_CT_WAIT); /* stalls in the NI until *ct >= target */
}

void noc_guard(const void *lo, const void *hi)
{
    M(NI_M_GUARD_LO) = (uint32_t)(uintptr_t)lo;
    M(NI_M_GUARD_HI) = (uint32_t)(uintptr_t)hi;
}

uint32_t noc_posted_pending(void) { return M(NI_M_POST); }
uint32_t noc_posted_done(void) { return M(NI_M_DONE); }
uint32_t noc_unexpected(void) { return M(NI_M_UNEXPECTED); }

/* The NI latches both halves when the event happens, so no re-read loop. */
uint64_t noc_go_cycle(int ch) { return (uint64_t)S(ch, NI_S_GO_CYCLE_HI) << 32 | S(ch, NI_S_GO_CYCLE_LO); }
uint64_t noc_recv_cycle(void) { return (uint64_t)R(NI_R_LAST_CYCLE_HI) << 32 | R(NI_R_LAST_CYCLE_LO); }
uint32_t noc_full_cycles(void) { return R(NI_R_FULL_CYCLES); }
uint64_t noc_last_head(void) { return (uint64_t)R(NI_R_LAST_HEAD_HI) << 32 | R(NI_R_LAST_HEAD_LO); }
uint64_t noc_last_mask(void) { return (uint64_t)R(NI_R_LAST_MASK_HI) << 32 | R(NI_R_LAST_MASK_LO); }
int noc_last_mask_flits(void) { return (int)R(NI_R_LAST_MASK_FLITS); }

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

void noc_decode(const uint32_t *list, uint32_t count)
{
    D(NI_D_LIST) = (uint32_t)(uintptr_t)list;
    D(NI_D_COUNT) = count;
    D(NI_D_GO) = 1;
}

uint32_t noc_decode_wait(void) { return D(NI_D_WAIT); }

uint32_t noc_decode_cycles(void) { return D(NI_D_CYCLES); }
