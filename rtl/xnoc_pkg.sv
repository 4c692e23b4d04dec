// xnoc_pkg - the flit format as the RTL sees it: where each field of the
// head flit lives.  The C side's table is firmware/lib/flit.h (the NI
// model, the firmware and the tests use it); tests/abi.t.sh fails if the
// two disagree.  Referenced as xnoc_pkg::Name (yosys 0.23 takes package
// references, not `import pkg::*` in a module header).
package xnoc_pkg;

  // The whole table; the router reads the routing fields, the coding unit
  // the rest (a field a configuration does not read is not an error).
  /* verilator lint_off UNUSEDPARAM */

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
  localparam int HeadW = 64;            // head and meta flits: a 64-bit payload
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
  localparam int NcFuncNum       = 9;   // FUNC values 9..15 are malformed

  // configuration bus shared by routers and coding units (sim_harness/net/netgen.c)
  localparam int CfgAddrW        = 12;  // routing-table rows: every head address
  localparam int CfgDataW        = 8;   // a 5-bit port, or port attributes {dateline, dim[2:0]}
  localparam int PortDimW        = 3;   // port attribute: dimension 0..5, 6 across, 7 terminal

  /* verilator lint_on UNUSEDPARAM */

endpackage
