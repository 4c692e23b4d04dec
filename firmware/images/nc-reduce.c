/* nc-reduce - every node's contribution combined in the coding unit of
 * router 0 by one operator (head FUNC, noc_set_func), the result to node 0,
 * which checks every 32-bit lane against its own computation.
 * --arg func=N (3: ADD32; 0..9, firmware/lib/flit.h NC_FUNC_*; the NI refuses others),
 * --arg words=N (16) 32-bit words per node, --arg expect=N (func): the
 * operator node 0 checks with (another one shows that the check bites).  Node i contributes word w =
 * edge[(i + w) % 6] for odd w (0, 1, -1, INT_MIN, INT_MAX, INT_MIN+1: sums
 * that wrap, negative lanes) and (i + 1) * 0x9E3779B9 * (w + 1) for even w.
 * Exits 1 on a mismatch, naming the word. */
#include "xnoc.h"

#define MAXW 64
static uint32_t buf[MAXW] __attribute__((aligned(8)));
static uint8_t ring[2048] __attribute__((aligned(8)));
static const uint32_t edge[6] = {0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x80000001u};
static const char *const names[NC_FUNC_NUM] = {"xor",    "and",    "or",     "add32",  "add64",
                                               "min32s", "max32s", "min32u", "max32u", "mul32"};

static uint32_t word(int node, int w)
{
    return (w & 1) ? edge[(node + w) % 6] : (uint32_t)(node + 1) * 0x9E3779B9u * (uint32_t)(w + 1);
}

/* lane l of a combined with lane l of b; ADD64 takes the pair of lanes (w even, w+1) */
static uint32_t lane(int f, uint32_t a, uint32_t b)
{
    switch (f) {
    case NC_FUNC_XOR: return a ^ b;
    case NC_FUNC_AND: return a & b;
    case NC_FUNC_OR: return a | b;
    case NC_FUNC_ADD32: return a + b;
    case NC_FUNC_MIN32S: return (int32_t)a < (int32_t)b ? a : b;
    case NC_FUNC_MAX32S: return (int32_t)a > (int32_t)b ? a : b;
    case NC_FUNC_MIN32U: return a < b ? a : b;
    case NC_FUNC_MUL32: return a * b;
    default: return a > b ? a : b;
    }
}

int main(void)
{
    int me = node_id(), n = node_count(), f = (int)node_param("func", NC_FUNC_ADD32);
    int words = (int)node_param("words", 16), e = (int)node_param("expect", (uint32_t)(f < NC_FUNC_NUM ? f : 0));
    if (words < 2 || words > MAXW || words % 2 || e < 0 ||
        e >= NC_FUNC_NUM) { /* func is the NI's to refuse (its fault line) */
        printf("nc-reduce: --arg words must be even, 2..%d, expect 0..%d\n", MAXW, NC_FUNC_NUM - 1);
        return 2;
    }
    noc_init(ring, sizeof ring);
    for (int w = 0; w < words; w++) buf[w] = word(me, w);
    barrier();
    noc_code code = {.op = NC_ENCODE, .count = n, .out_dest = 0};
    noc_set_func(0, f);
    noc_send_coded(0, nc_unit(0), &code, buf, (uint32_t)words * 4, 0x35);
    noc_send_wait(0);
    if (me != 0) return 0;
    noc_msg m;
    noc_recv(&m);
    const uint32_t *r = (const uint32_t *)(const void *)m.data;
    if (m.len != (uint32_t)words * 4 || m.src != (uint32_t)nc_unit(0)) {
        printf("nc-reduce: a message of %u bytes from %u, expected %d bytes from the unit %d\n", m.len, m.src,
               words * 4, nc_unit(0));
        return 1;
    }
    for (int w = 0; w < words; w += 2) {
        uint32_t lo = word(0, w), hi = word(0, w + 1);
        for (int i = 1; i < n; i++) {
            if (e == NC_FUNC_ADD64) {
                uint64_t s = ((uint64_t)hi << 32 | lo) + ((uint64_t)word(i, w + 1) << 32 | word(i, w));
                lo = (uint32_t)s;
                hi = (uint32_t)(s >> 32);
            } else {
                lo = lane(e, lo, word(i, w));
                hi = lane(e, hi, word(i, w + 1));
            }
        }
        if (r[w] != lo || r[w + 1] != hi) {
            printf("nc-reduce: %s words %d..%d are 0x%08x 0x%08x, expected 0x%08x 0x%08x\n", names[e], w, w + 1, r[w],
                   r[w + 1], lo, hi);
            noc_release(&m);
            return 1;
        }
    }
    printf("nc-reduce: node 0 has the %s of %d contributions (%d words each) from unit %d, every word as expected\n",
           names[f], n, words, nc_unit(0));
    noc_release(&m);
    return 0;
}
