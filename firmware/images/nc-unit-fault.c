/* nc-unit-fault - coding groups that are wrong as a whole, which no single
 * NI can refuse; the routers' coding unit must report them (one line naming
 * the router, the unit, the group's tag and its contributions, non-zero exit).
 * --arg case=N, all sent to the unit of router 0 by nodes 0 and 1:
 *   1  incomplete: count 3, only two contributions (caught by --router timeout)
 *   2  lengths differ: 64 and 32 bytes in one group
 *   3  conflicting counts: 2 and 3
 *   4  conflicting destinations: out_dest 2 and 3
 *   5  nowhere to go: a complete group (count 1) without out_dest
 *   0  a correct group of two (count 2, result to node 2): exits 0
 * Node 2 waits for the result; in the fault cases it never comes. */
#include "xnoc.h"

static uint8_t buf[128] __attribute__((aligned(8)));
static uint8_t ring[1024] __attribute__((aligned(8)));

int main(void)
{
    int me = node_id(), c = (int)node_param("case", 0), unit = nc_unit(0);
    noc_init(ring, sizeof ring);
    for (int i = 0; i < (int)sizeof buf; i++) buf[i] = (uint8_t)(me * 7 + i);
    barrier();
    if (me == 0 || me == 1) {
        noc_code code = {0, NC_ENCODE, 2, 2, 0, 0, 0, 0};
        uint32_t len = 64;
        switch (c) {
        case 1: code.count = 3; break;
        case 2:
            if (me == 1) len = 32;
            break;
        case 3:
            if (me == 1) code.count = 3;
            break;
        case 4:
            if (me == 1) code.out_dest = 3;
            break;
        case 5:
            code.count = 1;
            code.out_dest = NC_NONE;
            break;
        }
        if (c == 5 && me == 1) return 0;
        noc_send_coded(0, unit, &code, buf, len, 0x77);
        noc_send_wait(0);
        return 0;
    }
    if (me == 2) {
        noc_msg m;
        noc_recv(&m);
        const uint8_t *p = m.data;
        for (uint32_t i = 0; i < m.len; i++)
            if (p[i] != (uint8_t)(i ^ (7 + i))) {
                printf("nc-unit-fault: byte %u of the XOR is 0x%02x\n", i, p[i]);
                return 1;
            }
        printf("nc-unit-fault: node 2 received the XOR of two contributions, %u bytes, tag 0x%x\n", m.len, m.tag);
        noc_release(&m);
    }
    return 0;
}
