/* sum - every node sends its id (and a checksum of a small buffer) to node 0,
 * which adds them up and checks the total against n(n-1)/2.  A first image
 * of your own: build it with `make image SRC=examples/sum.c` and run it with
 * `build/xnoc run --topo mesh:4x4 build/user/sum.elf` (docs/firmware.md). */
#include "xnoc.h"

static uint8_t ring[4096] __attribute__((aligned(8)));

int main(void)
{
    int me = node_id(), n = node_count();
    noc_init(ring, sizeof ring);
    if (me != 0) {
        uint32_t v = (uint32_t)me;
        noc_send(0, 0, &v, sizeof v, 1);    /* channel 0, to node 0, tag 1 */
        noc_send_wait(0);                    /* v must stay valid until the DMA is done */
        return 0;
    }
    uint32_t sum = 0;
    uint64_t t0 = cycles();
    for (int i = 1; i < n; i++) {
        noc_msg m;
        noc_recv(&m);                        /* the core stalls in the NI until a message lands */
        uint32_t v;
        memcpy(&v, m.data, sizeof v);
        sum += v;
        noc_release(&m);
    }
    uint32_t want = (uint32_t)(n * (n - 1) / 2);
    printf("sum of %d ids = %u (expected %u) in %u cycles\n", n - 1, sum, want, (uint32_t)(cycles() - t0));
    return sum == want ? 0 : 1;
}
