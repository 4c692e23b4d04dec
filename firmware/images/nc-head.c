/* nc-head - the NI's head construction for coded and multicast sends,
 * end to end without a coding unit: node 0 sends a table of packets with
 * the network-coding fields set (MC, op, count, out_dest, out_mc, out_op,
 * out_count, a mask) to a plain terminal, node 1 (--arg to=T).  The sender
 * checks the head the NI builds (HEAD_LO/HI) against the field layout of
 * docs/ni.md; the receiver checks the head that arrived, the number of mask
 * flits and the first mask word, tag, length and every data byte.  A plain
 * send after a coded one must carry no coding fields.  Exits 1 on any
 * mismatch.  Any number of send channels (--ports k: case i uses channel
 * i % k, the head's ejsel). */
#include "xnoc.h"

static uint8_t ring[8192] __attribute__((aligned(8)));
static uint8_t buf[512] __attribute__((aligned(8)));
static uint64_t mask[NC_MASK_MAX];

typedef struct {
    int coded, mc, op, count, out_dest, out_mc, out_op, out_count;
    uint32_t len;
    int mask_a, mask_b; /* addresses in the mask (-1: none); NT + NR - 1 for "last" */
} tcase;

#define LAST (-2)
static const tcase cases[] = {
    {0, 0, 0, 0, NC_NONE, 0, 0, 0, 24, -1, -1},                   /* plain */
    {1, 1, NC_REPLICATE, 3, LAST, 1, NC_ENCODE, 15, 40, 1, LAST}, /* every field, mask with the last address */
    {1, 0, NC_ENCODE, 15, 0, 0, NC_REPLICATE, 7, 0, -1, -1},      /* empty payload */
    {1, 1, NC_ENCODE, 2, LAST, 1, NC_REPLICATE, 2, 256, 0, 3},    /* the butterfly's contribution */
    {0, 0, 0, 0, NC_NONE, 0, 0, 0, 17, -1, -1},                   /* plain again: fields cleared */
    {1, 0, NC_REPLICATE, 1, 1, 0, 0, 1, 8, -1, -1},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static int addr(int a) { return a == LAST ? node_count() + node_routers() - 1 : a; }
static uint8_t pat(int i, uint32_t j) { return (uint8_t)(i * 37 + j * 11 + (j >> 3)); }

static uint64_t expect_head(const tcase *t, int dst, int ch)
{
    /* spelled out bit by bit (not flit_head()) so that the NI's packing is checked against the table */
    if (!t->coded)
        return (uint64_t)dst << FLIT_DEST_LSB | (uint64_t)ch << FLIT_EJSEL_LSB | (uint64_t)NC_NONE << FLIT_OUT_DEST_LSB;
    return (uint64_t)dst << FLIT_DEST_LSB | (uint64_t)t->mc << FLIT_MC_BIT | (uint64_t)ch << FLIT_EJSEL_LSB |
           (uint64_t)t->op << FLIT_OP_LSB | (uint64_t)t->count << FLIT_COUNT_LSB |
           (uint64_t)addr(t->out_dest) << FLIT_OUT_DEST_LSB | (uint64_t)t->out_mc << FLIT_OUT_MC_BIT |
           (uint64_t)t->out_op << FLIT_OUT_OP_LSB | (uint64_t)t->out_count << FLIT_OUT_COUNT_LSB;
}

static uint64_t expect_mask0(const tcase *t)
{
    uint64_t m = 0;
    if (t->mask_a >= 0 || t->mask_a == LAST) m |= addr(t->mask_a) < 64 ? 1ull << addr(t->mask_a) : 0;
    if (t->mask_b >= 0 || t->mask_b == LAST) m |= addr(t->mask_b) < 64 ? 1ull << addr(t->mask_b) : 0;
    return m;
}

int main(void)
{
    int me = node_id(), k = node_ports(), to = (int)node_param("to", 1), bad = 0;
    noc_init(ring, sizeof ring);
    barrier();
    if (me == 0) {
        for (int i = 0; i < NCASES; i++) {
            const tcase *t = &cases[i];
            int ch = i % k;
            for (uint32_t j = 0; j < t->len; j++) buf[j] = pat(i, j);
            for (int w = 0; w < NC_MASK_MAX; w++) mask[w] = 0;
            if (t->mask_a != -1) nc_mask_set(mask, addr(t->mask_a));
            if (t->mask_b != -1) nc_mask_set(mask, addr(t->mask_b));
            noc_code c = {t->mc, t->op, t->count, addr(t->out_dest), t->out_mc, t->out_op, t->out_count, mask};
            noc_send_coded(ch, to, t->coded ? &c : 0, buf, t->len, (uint16_t)(0x700 + i));
            uint64_t h = noc_head(ch), e = expect_head(t, to, ch);
            if (h != e) {
                printf("nc-head: case %d: the NI builds head 0x%08x%08x, expected 0x%08x%08x\n", i, (unsigned)(h >> 32),
                       (unsigned)h, (unsigned)(e >> 32), (unsigned)e);
                bad++;
            }
            noc_send_wait(ch); /* buf and mask are reused */
            barrier();         /* the receiver has checked this one (LAST_HEAD is the latest message's) */
        }
        printf("nc-head: %d sends, %d bad heads\n", NCASES, bad);
        return bad ? 1 : 0;
    }
    if (me != to) return 0;
    for (int n = 0; n < NCASES; n++) {
        noc_msg m;
        noc_recv(&m);
        int i = m.tag - 0x700;
        if (i < 0 || i >= NCASES || m.src != 0 || m.len != cases[i].len) {
            printf("nc-head: unexpected message from %u, tag 0x%x, %u bytes\n", m.src, m.tag, m.len);
            bad++;
            noc_release(&m);
            barrier();
            continue;
        }
        const tcase *t = &cases[i];
        /* the receiving NI keeps the head of the message that entered the ring
         * last: one message at a time (a barrier after each), so this one */
        uint64_t h = noc_last_head(), e = expect_head(t, to, i % k);
        int nm = noc_last_mask_flits(), em = t->coded && t->mc ? nc_mask_words() : 0;
        if (h != e) {
            printf("nc-head: case %d: head 0x%08x%08x arrived, expected 0x%08x%08x\n", i, (unsigned)(h >> 32),
                   (unsigned)h, (unsigned)(e >> 32), (unsigned)e);
            bad++;
        }
        if ((nm != em || (em && noc_last_mask() != expect_mask0(t)))) {
            printf("nc-head: case %d: %d mask flits (first 0x%08x%08x), expected %d\n", i, nm,
                   (unsigned)(noc_last_mask() >> 32), (unsigned)noc_last_mask(), em);
            bad++;
        }
        for (uint32_t j = 0; j < m.len; j++)
            if (m.data[j] != pat(i, j)) {
                printf("nc-head: case %d: byte %u is 0x%02x, expected 0x%02x\n", i, j, m.data[j], pat(i, j));
                bad++;
                break;
            }
        noc_release(&m);
        barrier();
    }
    printf("nc-head: received %d messages, %d bad\n", NCASES, bad);
    return bad ? 1 : 0;
}
