/* bounce - zero-copy receive with a posted buffer: node 1 posts where node
 * 0's message must land, node 0 sends 1 KiB, node 1 waits on its completion
 * counter (no core copies the data), checks it, and sends it back the same
 * way.  --arg bytes=N changes the size (a multiple of 4, up to 16384).
 * Build: `make image SRC=examples/bounce.c`; run:
 * `build/xnoc run --topo octagon --arg bytes=4096 build/user/bounce.elf`. */
#include "xnoc.h"

static uint32_t buf[4096];
static uint8_t ring[1024] __attribute__((aligned(8)));
static volatile uint32_t arrived;

int main(void)
{
    int me = node_id();
    uint32_t bytes = node_param("bytes", 1024);
    if (bytes > sizeof buf || bytes % 4) {
        printf("bytes=%u: use a multiple of 4 up to %u\n", bytes, (unsigned)sizeof buf);
        return 2;
    }
    noc_init(ring, sizeof ring);
    if (me > 1) return 0;
    int peer = 1 - me;
    noc_post(peer, 7, buf, bytes, &arrived);        /* before anyone sends; node 0's takes the reply */
    barrier();
    if (me == 0) {
        for (uint32_t i = 0; i < bytes / 4; i++) buf[i] = i * 2654435761u;
        uint64_t t0 = cycles();
        noc_send(0, peer, buf, bytes, 7);
        noc_send_wait(0);
        noc_ct_wait(&arrived, 1);                   /* the reply has landed in the same buffer */
        printf("round trip of %u bytes: %u cycles\n", bytes, (uint32_t)(cycles() - t0));
    } else {
        noc_ct_wait(&arrived, 1);
        noc_send(0, peer, buf, bytes, 7);
        noc_send_wait(0);
        return 0;
    }
    for (uint32_t i = 0; i < bytes / 4; i++)
        if (buf[i] != i * 2654435761u) {
            printf("word %u: got 0x%08x\n", i, buf[i]);
            return 1;
        }
    return 0;
}
