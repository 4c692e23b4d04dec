/* ping-pong - one-way latency between nodes a (--arg 0=A) and b (--arg 1=B):
 * a sends, b answers, ROUNDS times; a prints the average one-way latency in
 * network cycles and the model for it (docs/ni.md): for a message of L
 * bytes, 2 + ceil(L/8) flits, crossing H routers: 3*H + flits + NI costs. */
#include "xnoc.h"

#define ROUNDS 16
static uint8_t ring[4096] __attribute__((aligned(8)));
static uint8_t msg[64] __attribute__((aligned(8)));

int main(void)
{
    int me = node_id(), a = (int)node_arg(0), b = (int)node_arg(1);
    uint32_t len = node_arg(2);
    if (a == b) a = 0, b = node_count() - 1;
    if (len > sizeof msg) len = sizeof msg;
    noc_init(ring, sizeof ring);
    barrier();
    if (me != a && me != b) return 0;
    int peer = me == a ? b : a;
    uint64_t t0 = cycles();
    for (int r = 0; r < ROUNDS; r++) {
        noc_msg m;
        if (me == a) {
            msg[0] = (uint8_t)r;
            noc_send(0, peer, msg, len, (uint16_t)r);
            noc_recv(&m);
        } else {
            noc_recv(&m);
            noc_send(0, peer, msg, len, m.tag);
        }
        if (m.tag != r || m.src != peer) {
            printf("round %d: got tag %d from %d\n", r, m.tag, m.src);
            return 1;
        }
        noc_release(&m);
    }
    if (me == a) {
        uint64_t t = cycles() - t0;
        printf("ping-pong %d <-> %d, %u bytes: %u cycles per round trip, one-way %u cycles\n", a, b, len,
               (unsigned)(t / ROUNDS), (unsigned)(t / ROUNDS / 2));
    }
    return 0;
}
