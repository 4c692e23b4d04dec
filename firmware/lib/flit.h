/* flit.h - the flit format: the one table of where each field of the head
 * and meta flits lives.  The NI model (sim_harness/system/ni.c), the synthetic
 * traffic's coding groups, the firmware and the tests use these names; the
 * RTL's copy is rtl/xnoc_pkg.sv, and tests/abi.t.sh fails if the two
 * disagree.  docs/architecture.md explains the fields.
 *
 * A flit on a link is {vc[2:0], tail, head, payload[63:0]} (link_flit.h:
 * the fields' places, the struct the harness moves); the payload of a
 * packet's flits:
 *   head   routing header (below)
 *   meta   [15:0] source address, [31:16] tag, [63:32] length in bytes
 *   mask   only when the head has MC = 1: ceil(addresses / 64) words
 *   data   ceil(length / 8) words, little-endian bytes
 *
 * Head flit, table routing (SR = 0):
 *   [11:0]  DEST       terminal, or coding unit NT + r
 *   [12]    SR = 0
 *   [13]    MC         mask flits follow the meta flit
 *   [17:14] EJSEL      ejection channel at the destination terminal
 *   [19:18] OP         at a coding unit: 0 REPLICATE, 1 ENCODE
 *   [23:20] COUNT      contributions a coding slot expects
 *   [35:24] OUT_DEST   where a slot's result goes (FLIT_NONE: not set)
 *   [36]    OUT_MC     [38:37] OUT_OP    [42:39] OUT_COUNT
 *   [46:43] FUNC       at a coding unit: how an ENCODE group combines its
 *                      contributions (NC_FUNC_*; 0 = XOR, as every head before
 *                      the field had); every packet the group's slot sends
 *                      carries it on (a reduction tree keeps its operator)
 *   [55:47] 0          reserved
 *   [56]    VAL        dragonfly Valiant/UGAL: route to group VGROUP until the first
 *                      global hop (routers built with a group table, routing=valiant|ugal)
 *   [57]    UGAL       the first router picks minimal (clearing VAL) or Valiant
 *   [63:58] VGROUP     the intermediate group (so non-minimal routing takes <= 64 groups)
 * Head flit, source routing (SR = 1): [11:0] DEST, [12] SR = 1, [13] 0,
 *   [63:14] ROUTE: hop i's output port in bits [PB*i +: PB]; the last hop's
 *   port is the ejection channel itself, so there is no EJSEL.
 *
 * Limits these widths set: 4095 addresses (terminals + units; 0xFFF means
 * none), 16 ejection channels (NI_MAX_K), 15 coding contributions, a
 * 50-bit source route (PB = 5 bits per port: 10 hops). */
#ifndef XNOC_FLIT_H
#define XNOC_FLIT_H

#include <stdint.h>

#include "link_flit.h"

/* a flit's payload: 64 bits (head, meta, mask and data flits alike) */
#define FLIT_PAYLOAD_W LINK_PAYLOAD_W

/* head fields: least significant bit and width */
#define FLIT_DEST_LSB 0
#define FLIT_DEST_W 12
#define FLIT_SR_BIT 12
#define FLIT_MC_BIT 13
#define FLIT_EJSEL_LSB 14
#define FLIT_EJSEL_W 4
#define FLIT_OP_LSB 18
#define FLIT_OP_W 2
#define FLIT_COUNT_LSB 20
#define FLIT_COUNT_W 4
#define FLIT_OUT_DEST_LSB 24
#define FLIT_OUT_DEST_W 12
#define FLIT_OUT_MC_BIT 36
#define FLIT_OUT_OP_LSB 37
#define FLIT_OUT_OP_W 2
#define FLIT_OUT_COUNT_LSB 39
#define FLIT_OUT_COUNT_W 4
#define FLIT_FUNC_LSB 43
#define FLIT_FUNC_W 4
#define FLIT_VAL_BIT 56
#define FLIT_UGAL_BIT 57
#define FLIT_VGROUP_LSB 58
#define FLIT_VGROUP_W 6
#define FLIT_ROUTE_LSB 14 /* source-routed heads */
#define FLIT_ROUTE_W 50
/* meta fields */
#define FLIT_META_SRC_LSB 0
#define FLIT_META_SRC_W 16
#define FLIT_META_TAG_LSB 16
#define FLIT_META_TAG_W 16
#define FLIT_META_LEN_LSB 32
#define FLIT_META_LEN_W 32

/* The configuration bus the harness writes routers and coding units
 * through (sim_harness/net/netgen.c; rtl/xnoc_pkg.sv CfgAddrW/CfgDataW):
 * a row address (a routing-table entry per head address, a port, a unit
 * row) and 8 data bits (a 5-bit port, or {dateline, dim[2:0]}). */
#define CFG_ADDR_W 12
#define CFG_DATA_W 8
#define PORT_DIM_W 3 /* dimension 0..5, 6 across (octagon), 7 terminal */

/* FUNC: the combining operators of a coding slot (rtl/xnoc_pkg.sv NcFunc*).
 * A later contribution's data flit w is combined with the slot's a; the lanes
 * of the 32-bit operators are the flit's little-endian words [31:0], [63:32].
 * Routers built with --router ncu_ops=xor take only NC_FUNC_XOR (another
 * value is a malformed packet, error bit 0), like values >= NC_FUNC_NUM.
 * sim_harness/coll/ncfunc.h is the host-side reference of each. */
#define NC_FUNC_XOR 0    /* a ^ w (the original coding) */
#define NC_FUNC_AND 1    /* a & w */
#define NC_FUNC_OR 2     /* a | w */
#define NC_FUNC_ADD32 3  /* per 32-bit lane a + w, wrapping */
#define NC_FUNC_ADD64 4  /* a + w, wrapping */
#define NC_FUNC_MIN32S 5 /* per 32-bit lane, two's complement */
#define NC_FUNC_MAX32S 6
#define NC_FUNC_MIN32U 7 /* per 32-bit lane, unsigned */
#define NC_FUNC_MAX32U 8
#define NC_FUNC_MUL32 9 /* per 32-bit lane a * w, the low 32 bits */
#define NC_FUNC_NUM 10  /* the unit's operators */
/* Not a unit operator: a * w, the low 64 bits, for the reductions on the
 * cores (the unit's 64-bit product would cost ~9,900 cells, docs/synth.md);
 * as FUNC it is refused like every value >= NC_FUNC_NUM. */
#define NC_FUNC_MUL64 10
#define NC_FUNC_ALL 11 /* the operators of the reductions: the unit's and the cores' MUL64 */

/* "no address" in DEST-wide fields (OUT_DEST not set) */
#define FLIT_NONE ((1u << FLIT_DEST_W) - 1)
/* addresses a head can name: terminals + coding units, FLIT_NONE excluded */
#define FLIT_MAX_ADDRS ((1 << FLIT_DEST_W) - 1)

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
static inline uint64_t flit_head_sr(uint32_t dest, uint64_t route)
{
    return FLIT_FIELD(dest, FLIT_DEST_LSB, FLIT_DEST_W) | 1ull << FLIT_SR_BIT |
           FLIT_FIELD(route, FLIT_ROUTE_LSB, FLIT_ROUTE_W);
}

/* the meta flit of a message */
static inline uint64_t flit_meta(uint32_t src, uint32_t tag, uint32_t len)
{
    return FLIT_FIELD(src, FLIT_META_SRC_LSB, FLIT_META_SRC_W) | FLIT_FIELD(tag, FLIT_META_TAG_LSB, FLIT_META_TAG_W) |
           FLIT_FIELD(len, FLIT_META_LEN_LSB, FLIT_META_LEN_W);
}

#endif
