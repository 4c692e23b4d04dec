/* nc-fault - the NI refuses bad network-coding descriptors: --arg case=N
 * makes node 0 program send channel 0 with one bad value; the store (field
 * out of range) or the GO (inconsistent descriptor) is an access fault whose
 * line names the reason (tests/nc.t.sh lists them).  case=0 sends a good
 * coded descriptor and exits 0. */
#include "xnoc.h"

#define S(reg) NI[(reg) / 4]           /* send channel 0 */
#define C(reg) NI[(0x400 + (reg)) / 4] /* its coding fields */
enum { S_DST = 0x00, S_NHOPS = 0x0C, S_ADDR = 0x10, S_LEN = 0x14, S_GO = 0x1C };
enum {
    C_MC = 0x00,
    C_OP = 0x04,
    C_COUNT = 0x08,
    C_OUT_DEST = 0x0C,
    C_OUT_MC = 0x10,
    C_OUT_OP = 0x14,
    C_OUT_COUNT = 0x18,
    C_MASK_ADDR = 0x1C
};

static uint8_t buf[512] __attribute__((aligned(8)));
static uint64_t mask[NC_MASK_MAX];
static uint8_t ring[1024] __attribute__((aligned(8)));

int main(void)
{
    int me = node_id(), nt = node_count(), nr = node_routers();
    int c = (int)node_param("case", 0);
    noc_init(ring, sizeof ring);
    if (me != 0) return 0;
    S(S_ADDR) = (uint32_t)(uintptr_t)buf;
    S(S_LEN) = 64;
    S(S_DST) = (uint32_t)nt; /* unit of router 0 */
    C(C_OP) = NC_ENCODE;
    C(C_COUNT) = 1;
    C(C_OUT_DEST) = 1; /* result to terminal 1 */
    C(C_MASK_ADDR) = (uint32_t)(uintptr_t)mask;
    mask[0] = 2;
    switch (c) {
    case 1: C(C_OP) = 2; break; /* store refused */
    case 2: C(C_COUNT) = 16; break;
    case 3: C(C_OUT_DEST) = (uint32_t)(nt + nr); break;
    case 4: C(C_OUT_OP) = 3; break;
    case 5: C(C_OUT_COUNT) = 99; break;
    case 6: C(C_MC) = 2; break;
    case 7: C(C_COUNT) = 0; break; /* GO refused */
    case 8:
        C(C_MC) = 1;
        C(C_MASK_ADDR) = 0x40000000u;
        break;
    case 9:
        C(C_MC) = 1;
        mask[0] = 0;
        break;
    case 10:
        C(C_MC) = 1;
        nc_mask_set(mask, nt + nr);
        break;
    case 11: S(S_DST) = (uint32_t)(nt + nr); break;
    case 12: S(S_NHOPS) = 2; break;
    case 13: C(C_OUT_MC) = 1; break; /* result to a terminal with MC */
    case 14: S(S_LEN) = (uint32_t)nc_max_bytes() + 8; break;
    case 15:
        S(S_DST) = 1;
        S(S_NHOPS) = 2;
        break;                              /* source route + coding fields */
    case 16: C(C_OP) = NC_REPLICATE; break; /* REPLICATE without a mask */
    case 17:
        C(C_MC) = 1;
        C(C_MASK_ADDR) = 0x80000000u + DEV(DEV_RAM_SIZE) - 4;
        break;
    case 18:
        S(S_DST) = 1;
        S(S_NHOPS) = 2;
        C(C_OP) = 0;
        C(C_COUNT) = 0;
        C(C_OUT_DEST) = NC_NONE; /* fine: source route */
        S(S_NHOPS) = 0;
        break;
    case 19: /* a streaming packet longer than the lanes take (--router stream=1,smax=F) */
        C(C_OP) = NC_STREAM;
        S(S_LEN) = (uint32_t)nc_stream_max_bytes() + 8;
        break;
    default: break;
    }
    S(S_GO) = 1;
    noc_send_wait(0);
    printf("nc-fault: case %d accepted\n", c);
    return 0;
}
