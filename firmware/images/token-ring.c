/* token-ring - a token travels node 0 -> 1 -> ... -> P-1 -> 0, LAPS times,
 * each node adding its id; node 0 checks the sum. */
#include "xnoc.h"

#define LAPS 3
static uint8_t ring[4096] __attribute__((aligned(8)));

int main(void)
{
    int me = node_id(), p = node_count();
    noc_init(ring, sizeof ring);
    barrier();
    uint32_t token = 0;
    for (int lap = 0; lap < LAPS; lap++) {
        noc_msg m;
        if (me != 0 || lap > 0) {
            noc_recv(&m);
            token = *(const uint32_t *)m.data;
            noc_release(&m);
        }
        token += (uint32_t)me;
        if (p > 1) noc_send(0, (me + 1) % p, &token, 4, (uint16_t)lap);
        noc_send_wait(0);
    }
    if (me == 0 && p > 1) {
        noc_msg m;
        noc_recv(&m);
        token = *(const uint32_t *)m.data;
        noc_release(&m);
        uint32_t want = (uint32_t)LAPS * (uint32_t)(p * (p - 1) / 2);
        printf("token after %d laps: %u (expected %u)\n", LAPS, token, want);
        return token == want ? 0 : 1;
    }
    return 0;
}
