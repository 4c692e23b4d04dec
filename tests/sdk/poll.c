/* node 3 polls the NI for a message nobody sends (a bug), or, built with
 * -DCLOCK, waits on the cycle counter for a deadline far away; every other
 * node exits */
#include <stdint.h>
#include "xnoc.h"

static void wait_for_message(void)
{
#ifdef CLOCK
    while (cycles() < (uint64_t)1 << 40) {} /* reads only a clock */
#else
    noc_msg m;
    while (!noc_poll(&m)) {} /* the NI's status never changes */
#endif
}

int main(void)
{
    if (node_id() == 3) wait_for_message();
    return 0;
}
