/* ping-pong - one-way latency between nodes a and b (--arg a=A --arg b=B
 * --arg bytes=L; or the numbered --arg 0=A 1=B 2=L): a sends, b answers,
 * ROUNDS times.  a prints two figures:
 *   one-way     half the round trip as the software sees it (send call to
 *               receive return), in network cycles;
 *   NI to NI    from the GO the sending NI accepted to the cycle the message
 *               entered the receiving NI's ring, from the NIs' timestamps,
 * and checks the second against the model of docs/ni.md:
 *   3*H + F cycles, H routers on the route, F = 2 + ceil(L/8) flits
 *   (1 injection link register + 3 per router + F - 1 behind the head).
 * A mismatch exits 1 (the run fails). */
#include "xnoc.h"

#define ROUNDS 16
#define TAG_SUMMARY 0xFFFF
static uint8_t ring[4096] __attribute__((aligned(8)));
static uint8_t msg[64] __attribute__((aligned(8)));

static int expect(int me, int from, int r, const noc_msg *m)
{
    if (m->src == from && (m->len == 0 || m->data[0] == (uint8_t)r)) return 1;
    printf("node %d round %d: got %u bytes from %d\n", me, r, m->len, m->src);
    return 0;
}

int main(void)
{
    int me = node_id();
    int a = (int)node_param("a", node_arg(0)), b = (int)node_param("b", node_arg(1));
    uint32_t len = node_param("bytes", node_arg(2));
    if (a == b) a = 0, b = node_count() - 1;
    if (a < 0 || b < 0 || a >= node_count() || b >= node_count()) {
        if (me == 0) printf("nodes a=%d b=%d: out of range 0..%d\n", a, b, node_count() - 1);
        return 2;
    }
    if (len > sizeof msg) len = sizeof msg;
    noc_init(ring, sizeof ring);
    barrier();
    if (me != a && me != b) return 0;
    int peer = me == a ? b : a;
    uint64_t t0 = cycles(), wire = 0, turnaround = 0; /* wire: NI-to-NI cycles seen by a */
    for (int r = 0; r < ROUNDS; r++) {
        noc_msg m;
        msg[0] = (uint8_t)r;
        if (me == a) {
            noc_send(0, peer, msg, len, (uint16_t)r);
            uint64_t go = noc_go_cycle(0);
            noc_recv(&m);
            wire += noc_recv_cycle() - go;
        } else {
            noc_recv(&m);
            uint64_t in = noc_recv_cycle();
            noc_send(0, peer, msg, len, (uint16_t)r);
            turnaround += noc_go_cycle(0) - in;
        }
        if (!expect(me, peer, r, &m)) return 1;
        noc_release(&m);
    }
    /* b's time between a ping's arrival and its pong's GO, so a can subtract it */
    if (me == b) {
        noc_send(0, peer, &turnaround, 8, TAG_SUMMARY);
        noc_send_wait(0);
        return 0;
    }
    uint64_t t = cycles() - t0;
    noc_msg m;
    noc_recv(&m);
    if (m.tag != TAG_SUMMARY || m.len != 8) return 1;
    memcpy(&turnaround, m.data, 8);
    noc_release(&m);
    wire -= turnaround; /* = 2 * ROUNDS one-way NI-to-NI latencies */
    uint32_t one_way = (uint32_t)(wire / (2 * ROUNDS)), frac = (uint32_t)(wire % (2 * ROUNDS));
    int hops = route_hops(b), flits = 2 + (int)((len + 7) / 8);
    uint32_t model = (uint32_t)(3 * hops + flits);
    printf("ping-pong %d <-> %d, %u bytes: %u cycles per round trip, one-way %u cycles\n", a, b, len,
           (unsigned)(t / ROUNDS), (unsigned)(t / ROUNDS / 2));
    printf("NI to NI %u%s cycles, model 3*%d routers + %d flits = %u: %s\n", one_way, frac ? "+" : "", hops, flits,
           model, one_way == model && !frac ? "match" : "MISMATCH");
    return one_way == model && !frac ? 0 : 1;
}
