/* fan-in - back-pressure: every other node sends COUNT messages of BYTES to
 * node 0, whose receive ring holds barely one message and who does not read
 * it for DELAY cycles.  The NI must hold its credits (never drop), so the
 * network fills up behind it; node 0 then drains the ring and checks that
 * every message arrived exactly once, byte for byte.  (Messages of one
 * source may overtake each other: the NI starts each packet on any free
 * class-0 VC.)
 *   --arg bytes=200 --arg count=4 --arg ring=256 --arg delay=2000 */
#include "xnoc.h"

#define MAX_BYTES 1024
static uint8_t ring[8192] __attribute__((aligned(8)));
static uint8_t out[MAX_BYTES] __attribute__((aligned(8)));
#define MAX_COUNT 32
static uint32_t seen[1024]; /* per source: bit s = message s arrived */

static uint8_t pattern(int src, uint32_t seq, uint32_t i)
{
    uint32_t h = (uint32_t)src * 0x9E3779B1u ^ seq * 0x85EBCA77u ^ i * 0xC2B2AE3Du;
    h ^= h >> 13;
    h *= 0x2C1B3C6Du;
    return (uint8_t)(h ^ h >> 16);
}

int main(void)
{
    int me = node_id(), p = node_count();
    uint32_t bytes = node_param("bytes", 200), count = node_param("count", 4);
    uint32_t ring_size = node_param("ring", 256), delay = node_param("delay", 2000);
    if (bytes > MAX_BYTES || ring_size > sizeof ring || p > 1024 || count > MAX_COUNT) {
        if (me == 0)
            printf("bytes <= %d, ring <= %u, count <= %d, nodes <= 1024\n", MAX_BYTES, (unsigned)sizeof ring,
                   MAX_COUNT);
        return 2;
    }
    if (me == 0) noc_init(ring, ring_size);
    barrier();
    if (me != 0) {
        for (uint32_t s = 0; s < count; s++) {
            noc_send_wait(0); /* out[] is reused */
            for (uint32_t i = 0; i < bytes; i++) out[i] = pattern(me, s, i);
            noc_send(0, 0, out, bytes, (uint16_t)s);
        }
        noc_send_wait(0);
        return 0;
    }
    uint64_t t0 = cycles();
    while (cycles() - t0 < delay) {}
    int bad = 0;
    uint32_t want = (uint32_t)(p - 1) * count;
    for (uint32_t got = 0; got < want; got++) {
        noc_msg m;
        noc_recv(&m);
        if (m.src == 0 || m.src >= p || m.tag >= count || (seen[m.src] >> m.tag & 1) || m.len != bytes) {
            printf("message %u: from %d tag %u length %u: not expected (a duplicate, or not %u bytes)\n", got, m.src,
                   m.tag, m.len, bytes);
            return 1;
        }
        seen[m.src] |= 1u << m.tag;
        for (uint32_t i = 0; i < m.len; i++)
            if (m.data[i] != pattern(m.src, m.tag, i)) {
                printf("from %d message %u: byte %u is 0x%x, expected 0x%x\n", m.src, m.tag, i, m.data[i],
                       pattern(m.src, m.tag, i));
                bad++;
                break;
            }
        noc_release(&m);
    }
    printf("fan-in: %u messages of %u bytes from %d nodes, %d bad, ring full for %u cycles\n", want, bytes, p - 1, bad,
           noc_full_cycles());
    return bad ? 1 : 0;
}
