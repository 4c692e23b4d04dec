// xnoc_pkg - the flit format as the RTL sees it: the link flit (payload,
// head, tail, VC) and where each field of the head flit lives; and the
// debug register map.  The C side's tables are firmware/lib/link_flit.h
// (the link flit), firmware/lib/flit.h (the head and meta flits: the NI
// model, the firmware and the tests use it) and sim_harness/net/dbg_map.h;
// tests/abi.t.sh fails if the two sides disagree.  Referenced as xnoc_pkg::Name (yosys 0.23 takes package
// references, not `import pkg::*` in a module header).
package xnoc_pkg;

  // The whole table; the router reads the routing fields, the coding unit
  // the rest (a field a configuration does not read is not an error).
  /* verilator lint_off UNUSEDPARAM */

  // The flit on a link (firmware/lib/link_flit.h LINK_*): link_flit_t below.
  // The payload is a head, meta, mask or data flit; head and tail mark a
  // packet's first and last flit (both: a one-flit packet); VC is the
  // virtual channel it travels on (credits name their VC in LinkVcW bits too).
  localparam int LinkPayloadLsb  = 0;
  localparam int LinkPayloadW    = 64;
  localparam int LinkHeadBit     = 64;
  localparam int LinkTailBit     = 65;
  localparam int LinkVcLsb       = 66;
  localparam int LinkVcW         = 3;   // so at most 8 VCs per port
  localparam int LinkFlitW       = 69;
  // a port's slot in a router's link vectors: the flit padded to whole 32-bit
  // words (the padding is 0 and unread), so a netlist copies words
  localparam int LinkSlotW       = ((LinkFlitW + 31) / 32) * 32;

  // head flit, table routing
  localparam int HeadDestLsb     = 0;
  localparam int HeadDestW       = 12;
  localparam int HeadSrBit       = 12;
  localparam int HeadMcBit       = 13;
  localparam int HeadEjselLsb    = 14;
  localparam int HeadEjselW      = 4;
  localparam int HeadOpLsb       = 18;
  localparam int HeadOpW         = 2;
  localparam int HeadCountLsb    = 20;
  localparam int HeadCountW      = 4;
  localparam int HeadOutDestLsb  = 24;
  localparam int HeadOutDestW    = 12;
  localparam int HeadOutMcBit    = 36;
  localparam int HeadOutOpLsb    = 37;
  localparam int HeadOutOpW      = 2;
  localparam int HeadOutCountLsb = 39;
  localparam int HeadOutCountW   = 4;
  localparam int HeadFuncLsb     = 43;  // the combining operator of an ENCODE group (NcFunc*)
  localparam int HeadFuncW       = 4;
  localparam int HeadValBit      = 56;  // dragonfly Valiant: head for group VGROUP first
  localparam int HeadUgalBit     = 57;  // UGAL: the first router chooses (clears VAL for minimal)
  localparam int HeadVgroupLsb   = 58;
  localparam int HeadVgroupW     = 6;
  // head flit, source routing: hop i's output port in [RouteLsb + PB*i +: PB]
  localparam int HeadRouteLsb    = 14;
  localparam int HeadRouteW      = 50;
  // meta flit
  localparam int MetaSrcLsb      = 0;
  localparam int MetaSrcW        = 16;
  localparam int MetaTagLsb      = 16;
  localparam int MetaTagW        = 16;
  localparam int MetaLenLsb      = 32;
  localparam int MetaLenW        = 32;

  // The same fields as types, most significant field first, so the RTL
  // reads and writes a head by name (h.dest, h.val) rather than through
  // offsets.  tests/abi.t.sh fails if a field's place here differs from its
  // Lsb/W above.  (yosys 0.23 takes variables of these types at module
  // scope, not inside a block, and no casts to them.)
  localparam int HeadW = 64;            // head and meta flits: a 64-bit payload (LinkPayloadW)
  typedef struct packed {               // the flit on a link
    logic [LinkVcW-1:0]       vc;
    logic                     tail;
    logic                     head;
    logic [LinkPayloadW-1:0]  payload;
  } link_flit_t;
  typedef struct packed {               // head flit, table routing
    logic [HeadVgroupW-1:0]   vgroup;
    logic                     ugal;
    logic                     val;
    logic [8:0]               rsvd;      // [55:47] unused
    logic [HeadFuncW-1:0]     func;
    logic [HeadOutCountW-1:0] out_count;
    logic [HeadOutOpW-1:0]    out_op;
    logic                     out_mc;
    logic [HeadOutDestW-1:0]  out_dest;
    logic [HeadCountW-1:0]    count;
    logic [HeadOpW-1:0]       op;
    logic [HeadEjselW-1:0]    ejsel;
    logic                     mc;
    logic                     sr;
    logic [HeadDestW-1:0]     dest;
  } head_t;
  typedef struct packed {               // head flit, source routing
    logic [HeadRouteW-1:0]    route;     // hop i's output port in route[PB*i +: PB]
    logic                     mc;
    logic                     sr;
    logic [HeadDestW-1:0]     dest;
  } head_sr_t;
  typedef struct packed {               // meta flit
    logic [MetaLenW-1:0]      len;
    logic [MetaTagW-1:0]      tag;
    logic [MetaSrcW-1:0]      src;
  } meta_t;

  // the combining operators of the FUNC field (firmware/lib/flit.h NC_FUNC_*):
  // what a coding slot does with a data flit of a later contribution and the
  // flit it holds; lanes are little-endian 32- or 64-bit words of the flit
  localparam int NcFuncXor       = 0;   // the coding unit's original XOR (every existing head)
  localparam int NcFuncAnd       = 1;
  localparam int NcFuncOr        = 2;
  localparam int NcFuncAdd32     = 3;   // two 32-bit lanes, wrapping
  localparam int NcFuncAdd64     = 4;   // one 64-bit lane, wrapping
  localparam int NcFuncMin32s    = 5;   // two 32-bit lanes, two's complement
  localparam int NcFuncMax32s    = 6;
  localparam int NcFuncMin32u    = 7;   // two 32-bit lanes, unsigned
  localparam int NcFuncMax32u    = 8;
  localparam int NcFuncMul32     = 9;   // two 32-bit lanes, the low 32 bits of the product
  localparam int NcFuncNum       = 10;  // FUNC values 10..15 are malformed (10: the cores' mul64)

  // configuration bus shared by routers and coding units (sim_harness/net/netgen.c)
  localparam int CfgAddrW        = 12;  // routing-table rows: every head address
  localparam int CfgDataW        = 8;   // a 5-bit port, or port attributes {dateline, dim[2:0]}
  localparam int PortDimW        = 3;   // port attribute: dimension 0..5, 6 across, 7 terminal

  // The debug bus (sim_harness/net/dbg_map.h DBG_*): a router and its coding
  // unit share one address, dbg_addr_i, of DbgAddrW bits.  The router reads
  // a counter kind in [9:8] (DbgKindLsb/W) of a port in [7:0]; VC occupancy
  // takes the port in [7:3] and the VC in [2:0].  The unit answers the
  // window DbgUnitBase + i, i < 2^DbgUnitAddrW (the netlist routes it there).
  localparam int DbgAddrW        = 10;
  localparam int DbgKindLsb      = 8;
  localparam int DbgKindW        = 2;
  localparam int DbgKindFlits    = 0;   // flits sent on out port [7:0]
  localparam int DbgKindStalls   = 1;   // cycles a routed flit waited for out port [7:0]
  localparam int DbgKindOcc      = 2;   // flits buffered at input port [7:3], VC [2:0]
  localparam int DbgKindErr      = 3;   // [7:0] = 0: the sticky error bits
  localparam int DbgOccVcW       = 3;
  localparam int DbgUnitBase     = 832; // 0x340
  localparam int DbgUnitAddrW    = 6;
  // the unit's registers: DbgUnitBase + ...
  localparam int DbgUnitCoded    = 0;   // result packets emitted
  localparam int DbgUnitXor      = 1;   // data flits combined into a slot
  localparam int DbgUnitRepl     = 2;   // multicast copies emitted
  localparam int DbgUnitSlotMax  = 3;   // most slots in use at once
  localparam int DbgUnitBusy     = 4;   // sum over cycles of slots in use
  localparam int DbgUnitErr      = 5;   // sticky error bits
  localparam int DbgUnitEinfo    = 6;   // the first error: {slot, need, got, code, tag}
  localparam int DbgUnitInuse    = 7;   // slots in use now
  localparam int DbgUnitContrib  = 8;   // packets absorbed
  localparam int DbgUnitSlots    = 9;   // NumSlots
  localparam int DbgUnitClocked  = 10;  // cycles its gated clock ran
  localparam int DbgUnitSlot0    = 16;  // slot i's state at DbgUnitSlot0 + i

  /* verilator lint_on UNUSEDPARAM */

endpackage
