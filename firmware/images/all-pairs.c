/* all-pairs - every node sends a distinct pattern to every other node and
 * checks every byte it receives; a mismatch names source, offset and byte.
 * Message size: --arg 0=BYTES (default 64). */
#include "xnoc.h"

static uint8_t ring[32768] __attribute__((aligned(8)));
static uint8_t out[1024] __attribute__((aligned(8)));

static uint8_t pattern(int src, int dst, uint32_t i)
{
    uint32_t h = (uint32_t)src * 0x9E3779B1u ^ (uint32_t)dst * 0x85EBCA77u ^ i * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (uint8_t)h;
}

int main(void)
{
    int me = node_id(), p = node_count(), k = node_ports();
    uint32_t len = node_arg(0) ? node_arg(0) : 64;
    if (len > sizeof out) len = sizeof out;
    noc_init(ring, sizeof ring);
    barrier();
    uint64_t t0 = cycles();
    int got = 0, bad = 0;
    for (int d = 1; d < p || got < p - 1; d++) {
        if (d < p) {
            int dst = (me + d) % p;
            for (uint32_t i = 0; i < len; i++) out[i] = pattern(me, dst, i);
            noc_send(d % k, dst, out, len, (uint16_t)me);
            noc_send_wait(d % k); /* the buffer is reused for the next destination */
        }
        noc_msg m;
        while (got < p - 1 && noc_poll(&m)) {
            if (m.len != len || m.tag != m.src) {
                printf("from %d: length %u tag %u\n", m.src, m.len, m.tag);
                bad++;
            }
            for (uint32_t i = 0; i < m.len && i < len; i++)
                if (m.data[i] != pattern(m.src, me, i)) {
                    printf("from %d: byte %u is 0x%x, expected 0x%x\n", m.src, i, m.data[i], pattern(m.src, me, i));
                    bad++;
                    break;
                }
            noc_release(&m);
            got++;
        }
        if (d >= p && got < p - 1) {
            noc_recv(&m); /* wait for the rest without spinning */
            d--;
            if (m.len != len || m.tag != m.src) {
                bad++;
            }
            for (uint32_t i = 0; i < m.len && i < len; i++)
                if (m.data[i] != pattern(m.src, me, i)) {
                    printf("from %d: byte %u is 0x%x, expected 0x%x\n", m.src, i, m.data[i], pattern(m.src, me, i));
                    bad++;
                    break;
                }
            noc_release(&m);
            got++;
        }
    }
    barrier();
    if (me == 0) printf("all-pairs: %d nodes x %u bytes exchanged in %u cycles\n", p, len, (unsigned)(cycles() - t0));
    if (bad) printf("%d bad message(s)\n", bad);
    return bad ? 1 : 0;
}
