/* link_flit.h - the flit on a link between an NI and its router (and
 * between routers): the one C table of where its fields live, and the one
 * struct that carries it.  The RTL's copy is rtl/xnoc_pkg.sv (Link*,
 * link_flit_t); tests/abi.t.sh fails if the two disagree.  The harness
 * (sim_harness/net/net.h: xnoc_flit) and the C++ glue around the verilated
 * network (sim_harness/glue/xnoc_glue.cpp, which packs and unpacks the
 * model's ports with the helpers below) share this struct, so the layout
 * that crosses their dlopen() boundary is declared once (and checked by
 * static assertions in both compilers).
 *
 * A link flit is LINK_FLIT_W bits, most significant first
 * {vc[2:0], tail, head, payload[63:0]}: the payload is a head, meta, mask or
 * data flit (firmware/lib/flit.h), head and tail mark a packet's first and
 * last flit (both: a one-flit packet), vc is the virtual channel it travels
 * on.  Credits name their VC in LINK_VC_W bits too. */
#ifndef XNOC_LINK_FLIT_H
#define XNOC_LINK_FLIT_H

#include <stddef.h>
#include <stdint.h>

#define LINK_PAYLOAD_LSB 0
#define LINK_PAYLOAD_W 64
#define LINK_HEAD_BIT 64
#define LINK_TAIL_BIT 65
#define LINK_VC_LSB 66
#define LINK_VC_W 3 /* so at most 1 << LINK_VC_W = 8 VCs per port */
#define LINK_FLIT_W 69
/* the flit in whole 32-bit words: a Verilator port's words (VlWide), and a
 * port's slot in a router's link vectors (the padding is 0 and unread) */
#define LINK_FLIT_WORDS ((LINK_FLIT_W + 31) / 32)
#define LINK_SLOT_W (LINK_FLIT_WORDS * 32)

typedef struct {
    uint64_t payload;
    uint8_t valid, head, tail, vc; /* valid: the flit is on the link this cycle (not a field of it) */
} link_flit;

typedef struct {
    uint8_t valid, vc;
} link_credit;

#ifdef __cplusplus
#define LINK_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define LINK_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif
/* the helpers below move the payload as two whole words and each other
 * field within one word */
LINK_STATIC_ASSERT(LINK_PAYLOAD_LSB == 0 && LINK_PAYLOAD_W == 64, "the payload is a uint64_t at bit 0");
LINK_STATIC_ASSERT(LINK_HEAD_BIT / 32 == LINK_TAIL_BIT / 32 && LINK_VC_LSB / 32 == (LINK_VC_LSB + LINK_VC_W - 1) / 32,
                   "a field straddles a word");
LINK_STATIC_ASSERT(LINK_FLIT_W == LINK_VC_LSB + LINK_VC_W, "the VC is the top field");
/* the layout both sides of the glue's dlopen() boundary compile */
LINK_STATIC_ASSERT(sizeof(link_flit) == 16 && offsetof(link_flit, valid) == 8 && offsetof(link_flit, vc) == 11 &&
                       sizeof(link_credit) == 2 && offsetof(link_credit, vc) == 1,
                   "link_flit / link_credit layout");

/* f into the words of a model's port, w[0] least significant (f->valid is
 * not part of it: the port has its own valid wire) */
static inline void link_flit_pack(const link_flit *f, uint32_t *w)
{
    w[0] = (uint32_t)f->payload;
    w[1] = (uint32_t)(f->payload >> 32);
    for (int i = 2; i < LINK_FLIT_WORDS; i++) w[i] = 0;
    w[LINK_HEAD_BIT / 32] |= (uint32_t)(f->head & 1) << LINK_HEAD_BIT % 32;
    w[LINK_TAIL_BIT / 32] |= (uint32_t)(f->tail & 1) << LINK_TAIL_BIT % 32;
    w[LINK_VC_LSB / 32] |= (uint32_t)(f->vc & ((1u << LINK_VC_W) - 1)) << LINK_VC_LSB % 32;
}

/* the words of a model's port into f (f->valid untouched) */
static inline void link_flit_unpack(const uint32_t *w, link_flit *f)
{
    f->payload = (uint64_t)w[1] << 32 | w[0];
    f->head = (uint8_t)(w[LINK_HEAD_BIT / 32] >> LINK_HEAD_BIT % 32 & 1);
    f->tail = (uint8_t)(w[LINK_TAIL_BIT / 32] >> LINK_TAIL_BIT % 32 & 1);
    f->vc = (uint8_t)(w[LINK_VC_LSB / 32] >> LINK_VC_LSB % 32 & ((1u << LINK_VC_W) - 1));
}

#endif
