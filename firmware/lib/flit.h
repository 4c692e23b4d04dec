/* flit.h - the flit format: the one table of where each field of the head
 * and meta flits lives.  The NI model (sim_harness/ni.c), the synthetic
 * traffic's coding groups, the firmware and the tests use these names; the
 * RTL's copy is rtl/xnoc_pkg.sv, and tests/abi.t.sh fails if the two
 * disagree.  docs/architecture.md explains the fields.
 *
 * A flit on a channel is {valid, vc[2:0], head, tail, payload[63:0]}; the
 * payload of a packet's flits:
 *   head   routing header (below)
 *   meta   [15:0] source address, [31:16] tag, [63:32] length in bytes
 *   mask   only when the head has MC = 1: ceil(addresses / 64) words
 *   data   ceil(length / 8) words, little-endian bytes
 *
 * Head flit, table routing (SR = 0):
 *   [9:0]   DEST       terminal, or coding unit NT + r
 *   [10]    SR = 0
 *   [11]    MC         mask flits follow the meta flit
 *   [13:12] EJSEL      ejection channel at the destination terminal
 *   [15:14] OP         at a coding unit: 0 REPLICATE, 1 ENCODE
 *   [19:16] COUNT      contributions a coding slot expects
 *   [29:20] OUT_DEST   where a slot's result goes (0x3FF: not set)
 *   [30]    OUT_MC     [32:31] OUT_OP    [36:33] OUT_COUNT
 *   [63:37] 0          (room for wider addresses, more channels, VC classes)
 * Head flit, source routing (SR = 1): [9:0] DEST, [10] SR = 1, [13:12] EJSEL,
 *   [63:14] ROUTE: hop i's output port in bits [PB*i +: PB].
 *
 * Limits these widths set: 1024 addresses (terminals + units), 4 ejection
 * channels, 15 coding contributions, a 50-bit source route. */
#ifndef XNOC_FLIT_H
#define XNOC_FLIT_H

#include <stdint.h>

/* head fields: least significant bit and width */
#define FLIT_DEST_LSB 0
#define FLIT_DEST_W 10
#define FLIT_SR_BIT 10
#define FLIT_MC_BIT 11
#define FLIT_EJSEL_LSB 12
#define FLIT_EJSEL_W 2
#define FLIT_OP_LSB 14
#define FLIT_OP_W 2
#define FLIT_COUNT_LSB 16
#define FLIT_COUNT_W 4
#define FLIT_OUT_DEST_LSB 20
#define FLIT_OUT_DEST_W 10
#define FLIT_OUT_MC_BIT 30
#define FLIT_OUT_OP_LSB 31
#define FLIT_OUT_OP_W 2
#define FLIT_OUT_COUNT_LSB 33
#define FLIT_OUT_COUNT_W 4
#define FLIT_ROUTE_LSB 14          /* source-routed heads */
#define FLIT_ROUTE_W 50
/* meta fields */
#define FLIT_META_SRC_LSB 0
#define FLIT_META_SRC_W 16
#define FLIT_META_TAG_LSB 16
#define FLIT_META_TAG_W 16
#define FLIT_META_LEN_LSB 32
#define FLIT_META_LEN_W 32

#define FLIT_FIELD(v, lsb, w) (((uint64_t)(v) & ((1ull << (w)) - 1)) << (lsb))
#define FLIT_GET(f, lsb, w) ((uint32_t)(((f) >> (lsb)) & ((1ull << (w)) - 1)))

/* a table-routed head flit */
static inline uint64_t flit_head(uint32_t dest, uint32_t ejsel, uint32_t mc, uint32_t op, uint32_t count,
                                 uint32_t out_dest, uint32_t out_mc, uint32_t out_op, uint32_t out_count)
{
    return FLIT_FIELD(dest, FLIT_DEST_LSB, FLIT_DEST_W) | FLIT_FIELD(mc, FLIT_MC_BIT, 1) |
           FLIT_FIELD(ejsel, FLIT_EJSEL_LSB, FLIT_EJSEL_W) | FLIT_FIELD(op, FLIT_OP_LSB, FLIT_OP_W) |
           FLIT_FIELD(count, FLIT_COUNT_LSB, FLIT_COUNT_W) | FLIT_FIELD(out_dest, FLIT_OUT_DEST_LSB, FLIT_OUT_DEST_W) |
           FLIT_FIELD(out_mc, FLIT_OUT_MC_BIT, 1) | FLIT_FIELD(out_op, FLIT_OUT_OP_LSB, FLIT_OUT_OP_W) |
           FLIT_FIELD(out_count, FLIT_OUT_COUNT_LSB, FLIT_OUT_COUNT_W);
}

/* a source-routed head flit */
static inline uint64_t flit_head_sr(uint32_t dest, uint32_t ejsel, uint64_t route)
{
    return FLIT_FIELD(dest, FLIT_DEST_LSB, FLIT_DEST_W) | 1ull << FLIT_SR_BIT |
           FLIT_FIELD(ejsel, FLIT_EJSEL_LSB, FLIT_EJSEL_W) | FLIT_FIELD(route, FLIT_ROUTE_LSB, FLIT_ROUTE_W);
}

/* the meta flit of a message */
static inline uint64_t flit_meta(uint32_t src, uint32_t tag, uint32_t len)
{
    return FLIT_FIELD(src, FLIT_META_SRC_LSB, FLIT_META_SRC_W) | FLIT_FIELD(tag, FLIT_META_TAG_LSB, FLIT_META_TAG_W) |
           FLIT_FIELD(len, FLIT_META_LEN_LSB, FLIT_META_LEN_W);
}

#endif
