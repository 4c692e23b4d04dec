/* Every node posts a receive for a message its neighbour never sends (tag
 * 100 + its own id) and waits: sixteen different states, one stall line. */
#include <stdio.h>
#include "xnoc.h"

static uint8_t buf[64] __attribute__((aligned(8)));
static uint8_t ring[1024] __attribute__((aligned(8)));
static volatile uint32_t ct;

int main(void)
{
    int me = node_id(), n = node_count();
    noc_init(ring, sizeof ring);
    noc_post((me + 1) % n, (uint16_t)(100 + me), buf, sizeof buf, &ct);
    noc_send(0, (me + n - 1) % n, buf, sizeof buf, (uint16_t)(200 + me)); /* the wrong tag */
    noc_send_wait(0);
    noc_ct_wait(&ct, 1);
    return 0;
}
