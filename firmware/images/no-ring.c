/* no-ring - a probe for the watchdog's hints: every node but 0 sends node 0
 * a message, and node 0 waits for one without ever calling noc_init(), so
 * the NI has nowhere to put them.  The run must stop with the diagnosis
 * (tests/harden.t.sh), not hang. */
#include "xnoc.h"

int main(void)
{
    uint32_t v = 1;
    if (node_id() != 0) {
        noc_send(0, 0, &v, sizeof v, 1);
        noc_send_wait(0);
        return 0;
    }
    noc_msg m;
    noc_recv(&m);
    return 0;
}
