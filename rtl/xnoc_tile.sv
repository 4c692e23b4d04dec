// xnoc_tile - one router of a network, with its coding unit (optional), as
// a model of its own: the harness verilates a router configuration once and
// wires any number of tiles from the topology description
// (sim_harness/net/net.c, sim_harness/glue/xnoc_tile_glue.cpp;
// docs/architecture.md "Tile build").
//
// Everything that crosses the tile's boundary is registered, and a link's
// register sits at its receiving end: the tile registers its link inputs
// (link_*_q below), and a neighbour drives them with the next values of its
// router's output registers (out_valid_d_o .. in_credit_vc_d_o: the values
// those registers take at the coming edge); a terminal link's input is the
// NI's drive, whose register is the flat netlist's inj_*_q.  So the router
// reads only registers, as in the flat netlist, and its input logic runs
// once per cycle after the edge, not again before it in the model's
// input region (Verilator's "ico": every eval() of a model recomputes what
// its top-level inputs feed).  The reset and the configuration bus are
// registered here exactly as the flattened netlist (sim_harness/net/
// netgen.c) registers them.  A harness that copies every tile's next
// values of cycle t into its neighbours' inputs before edge t+1, in any
// order, runs the same cycles as the flat netlist.  out_valid_o ..
// in_credit_vc_o are the router's registers themselves (the NI's ejection
// link and credits, the link taps).
//
// Ports 0 .. NumPorts-1 are the topology's (network and terminal ports);
// the unit, when there is one, sits on the router's port NumPorts inside
// the tile and is not a tile port.  A unit of NumLanes multicast lanes
// (docs/router.md, "Multicast lanes") has lane l on router port
// NumPorts + l, as the flat netlist wires it (sim_harness/net/netgen.c
// wire_lanes): the router has NumPorts + NumLanes ports, those past
// NumPorts - 1 all inside the tile.  mon_* are the two links of lane 0
// inside the tile, for the link taps (net_monitor_open, the flat netlist's
// taps): the router's flit into its unit and the unit's flit into its
// router.
module xnoc_tile #(
  parameter int NumPorts   = 5,      // the topology's ports (the unit's not counted)
  parameter int NumVcs     = 2,
  parameter int BufDepth   = 8,
  // routing-table entries (terminals, then units): at least the network's
  // address count, which the harness writes into the tile at run time (na_q)
  parameter int NumAddrs   = 16,
  parameter int NumClasses = 1,
  parameter int NumGroups  = 1,
  parameter int RouteBits  = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int Ncu        = 0,      // 1: a coding unit on the router's last port
  parameter int NumTerms   = 8,      // the unit's: terminals (the first unit address)
  parameter int NumSlots   = 4,
  parameter int XorLat     = 1,
  parameter int MaxFlits   = 32,
  parameter int Timeout    = 100000,
  parameter int NcuOps     = 1,
  parameter int NumLanes   = 1,      // the unit's multicast lanes (router ports NumPorts ..)
  parameter int LaneReserve = 0,     // the unit's: a slot per lane kept for multicasts (a clos's)
  parameter int Stream     = 0,      // the unit's: lanes 1.. stream reductions (xnoc_ncu_stream)
  parameter int StreamMaxFlits = 256, // the unit's: longest streaming payload (flits)
  localparam int NP = NumPorts,
  localparam int P  = NumPorts + Ncu,             // the topology's ports and the unit's (first lane)
  localparam int RP = NumPorts + Ncu * NumLanes,  // the router's ports
  localparam int FW = xnoc_pkg::LinkFlitW,
  localparam int LW = xnoc_pkg::LinkSlotW,
  localparam int VB = xnoc_pkg::LinkVcW
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            cfg_clk_i,
  input  logic            cfg_we_i,
  input  logic [1:0]      cfg_kind_i,
  input  logic [xnoc_pkg::CfgAddrW-1:0] cfg_addr_i,
  input  logic [xnoc_pkg::CfgDataW-1:0] cfg_data_i,
  // a link's value after the coming edge (the tile registers it)
  input  logic [NP-1:0]    in_valid_i,
  input  logic [NP*LW-1:0] in_flit_i,
  output logic [NP-1:0]    in_credit_o,
  output logic [NP*VB-1:0]  in_credit_vc_o,
  output logic [NP-1:0]    out_valid_o,
  output logic [NP*LW-1:0] out_flit_o,
  input  logic [NP-1:0]    out_credit_i,
  input  logic [NP*VB-1:0]  out_credit_vc_i,
  // the next values of out_valid_o .. in_credit_vc_o, for the neighbours' inputs
  output logic [NP-1:0]    out_valid_d_o,
  output logic [NP*LW-1:0] out_flit_d_o,
  output logic [NP-1:0]    in_credit_d_o,
  output logic [NP*VB-1:0]  in_credit_vc_d_o,
  input  logic            dbg_en_i,
  input  logic [9:0]      dbg_addr_i,
  output logic [31:0]     dbg_data_o,
  output logic            err_o,
  output logic            mon_ru_valid_o,  // router -> unit
  output logic [FW-1:0]   mon_ru_flit_o,
  output logic            mon_ur_valid_o,  // unit -> router
  output logic [FW-1:0]   mon_ur_flit_o,
  // with every input idle, the next clock edge changes no register of this
  // tile, so a model need not evaluate it (xnoc_tile_glue.cpp).  No flit
  // buffered in the router, none on its outputs, no credit going back,
  // nothing in the link registers, and the unit's clock gate shut for that
  // edge (its next values out_*_d_o are then all idle too).
  output logic            quiet_o,
  // the coming falling edge changes nothing in this tile: no unit, or its
  // clock gate shut and staying shut (the latch takes 0 again), so a
  // model need not evaluate that edge (xnoc_tile_glue.cpp fall())
  output logic            fall_idle_o
);
  // the reset, registered once (netgen.c: rst_q)
  logic rst_q;
  always_ff @(posedge clk_i) rst_q <= rst_ni;

  // the configuration registers, on their own clock (netgen.c: cfg_*_q)
  logic cfg_we_q;
  logic [1:0] cfg_kind_q;
  logic [xnoc_pkg::CfgAddrW-1:0] cfg_addr_q;
  logic [xnoc_pkg::CfgDataW-1:0] cfg_data_q;
  always_ff @(posedge cfg_clk_i) begin
    cfg_we_q   <= cfg_we_i;
    cfg_kind_q <= cfg_kind_i;
    cfg_addr_q <= cfg_addr_i;
    cfg_data_q <= cfg_data_i;
  end

  logic [RP-1:0]    r_in_valid, r_in_credit, r_out_valid, r_out_credit;
  logic [RP*LW-1:0] r_in_flit, r_out_flit;
  logic [RP*VB-1:0]  r_in_credit_vc, r_out_credit_vc;
  logic [31:0]     r_dbg, u_dbg;
  logic            r_err, u_err;
  logic            r_idle, unit_shut;
  logic [15:0]     na_q;              // the network's address count (below)
  logic [RP-1:0]    r_out_valid_d, r_in_credit_d;   // the router's next values (links out)
  logic [RP*LW-1:0] r_out_flit_d;
  logic [RP*VB-1:0] r_in_credit_vc_d;

  // The link registers of the topology's ports: what the flat netlist's
  // routers' output registers (and its inj_*_q) hold.  A flit's and a
  // credit's VC field are read only with its valid bit, so they are taken
  // whole, valid or not (the flat registers keep the last valid one).
  logic [NP-1:0]    link_valid_q, link_credit_q;
  logic [NP*LW-1:0] link_flit_q;
  logic [NP*VB-1:0] link_credit_vc_q;
  always_ff @(posedge clk_i) begin
    if (!rst_q) begin
      link_valid_q  <= '0;
      link_credit_q <= '0;
    end else begin
      link_valid_q  <= in_valid_i;
      link_credit_q <= out_credit_i;
    end
    link_flit_q      <= in_flit_i;
    link_credit_vc_q <= out_credit_vc_i;
  end

  assign r_in_valid[NP-1:0]           = link_valid_q;
  assign r_in_flit[NP*LW-1:0]         = link_flit_q;
  assign r_out_credit[NP-1:0]         = link_credit_q;
  assign r_out_credit_vc[NP*VB-1:0]    = link_credit_vc_q;
  assign in_credit_o                  = r_in_credit[NP-1:0];
  assign in_credit_vc_o               = r_in_credit_vc[NP*VB-1:0];
  assign out_valid_o                  = r_out_valid[NP-1:0];
  assign out_flit_o                   = r_out_flit[NP*LW-1:0];

  // routers see config kinds 0 (table) and 1 (ports); kind 2 is the units'
  xnoc_router #(.NumPorts(RP), .NumVcs(NumVcs), .BufDepth(BufDepth), .NumAddrs(NumAddrs),
                .NumClasses(NumClasses), .NumGroups(NumGroups), .RouteBits(RouteBits), .Shared(1)) u_r (
    .clk_i(clk_i), .rst_ni(rst_q),
    .cfg_we_i(cfg_we_q && !cfg_kind_q[1]), .cfg_kind_i(cfg_kind_q[0]), .cfg_addr_i(cfg_addr_q),
    .cfg_data_i(cfg_data_q),
    .in_valid_i(r_in_valid), .in_flit_i(r_in_flit),
    .in_credit_o(r_in_credit), .in_credit_vc_o(r_in_credit_vc),
    .out_valid_o(r_out_valid), .out_flit_o(r_out_flit),
    .out_credit_i(r_out_credit), .out_credit_vc_i(r_out_credit_vc),
    .dbg_en_i(dbg_en_i), .dbg_addr_i(dbg_addr_i), .dbg_data_o(r_dbg), .err_o(r_err),
    .num_addrs_i(na_q), .idle_o(r_idle),
    .out_valid_d_o(r_out_valid_d), .out_flit_d_o(r_out_flit_d),
    .in_credit_d_o(r_in_credit_d), .in_credit_vc_d_o(r_in_credit_vc_d));
  assign out_valid_d_o    = r_out_valid_d[NP-1:0];
  assign out_flit_d_o     = r_out_flit_d[NP*LW-1:0];
  assign in_credit_d_o    = r_in_credit_d[NP-1:0];
  assign in_credit_vc_d_o = r_in_credit_vc_d[NP*VB-1:0];
  if (RP > NP) begin : g_unit_next
    logic unused_next;  // the unit's links are inside the tile: the router's own registers
    assign unused_next = ^{r_out_valid_d[RP-1:NP], r_in_credit_d[RP-1:NP], r_out_flit_d[RP*LW-1:NP*LW],
                           r_in_credit_vc_d[RP*VB-1:NP*VB]};
  end

  if (Ncu != 0) begin : g_unit
    localparam int Q = P - 1;  // the unit's port: its lane 0 (lane l on Q + l)
    localparam int L = NumLanes;
    logic u_clk_en;            // the unit's clock pulses at the next edge
    logic u_clk_en_d;          // ... and at the one after (the latch's next value)
    logic [L-1:0]    u_ov, u_oc, u_iv, u_ic;
    logic [L*FW-1:0] u_of, u_if;
    logic [L*VB-1:0] u_ocv, u_icv;
    xnoc_ncu #(.NumPorts(P), .NumVcs(NumVcs), .BufDepth(BufDepth), .NumAddrs(NumAddrs), .NumTerms(NumTerms),
               .NumSlots(NumSlots), .XorLat(XorLat), .MaxFlits(MaxFlits), .Timeout(Timeout), .NcuOps(NcuOps),
               .NumLanes(NumLanes), .LaneReserve(LaneReserve), .Stream(Stream),
               .StreamMaxFlits(StreamMaxFlits)) u_u (
      .clk_i(clk_i), .rst_ni(rst_q),
      .cfg_we_i(cfg_we_q), .cfg_kind_i(cfg_kind_q), .cfg_addr_i(cfg_addr_q), .cfg_data_i(cfg_data_q),
      .in_valid_i(u_iv), .in_flit_i(u_if), .in_credit_o(u_ic), .in_credit_vc_o(u_icv),
      .out_valid_o(u_ov), .out_flit_o(u_of), .out_credit_i(u_oc), .out_credit_vc_i(u_ocv),
      .dbg_en_i(dbg_en_i), .dbg_addr_i(dbg_addr_i[5:0]), .dbg_data_o(u_dbg), .err_o(u_err),
      .clk_en_o(u_clk_en), .clk_en_d_o(u_clk_en_d));
    // lane l on router port Q + l (netgen.c wire_lanes)
    for (genvar l = 0; l < L; l++) begin : g_lane
      assign r_in_valid[Q+l]                = u_ov[l];
      assign r_in_flit[(Q+l)*LW +: FW]      = u_of[l*FW +: FW];
      assign u_oc[l]                        = r_in_credit[Q+l];
      assign u_ocv[l*VB +: VB]              = r_in_credit_vc[(Q+l)*VB +: VB];
      assign u_iv[l]                        = r_out_valid[Q+l];
      assign u_if[l*FW +: FW]               = r_out_flit[(Q+l)*LW +: FW];
      assign r_out_credit[Q+l]              = u_ic[l];
      assign r_out_credit_vc[(Q+l)*VB +: VB] = u_icv[l*VB +: VB];
      // the unit's flit fills its port's slot up to the padding (docs/router.md)
      if (LW > FW) begin : g_pad
        assign r_in_flit[(Q+l)*LW+FW +: LW-FW] = '0;
      end
    end
    assign mon_ru_valid_o = r_out_valid[Q];
    assign mon_ru_flit_o  = r_out_flit[Q*LW +: FW];
    assign mon_ur_valid_o = r_in_valid[Q];
    assign mon_ur_flit_o  = r_in_flit[Q*LW +: FW];
    assign unit_shut = !u_clk_en;
    assign fall_idle_o = !u_clk_en && !u_clk_en_d;
    if (LW > FW) begin : g_unread
      logic unused_pad;  // the router drives the padding of the unit's slots
      always_comb begin
        unused_pad = 1'b0;
        for (int l = 0; l < L; l++) unused_pad ^= ^r_out_flit[(Q+l)*LW+FW +: LW-FW];
      end
    end
  end else begin : g_no_unit
    assign u_dbg          = '0;
    assign u_err          = 1'b0;
    assign mon_ru_valid_o = 1'b0;
    assign mon_ru_flit_o  = '0;
    assign mon_ur_valid_o = 1'b0;
    assign mon_ur_flit_o  = '0;
    assign unit_shut      = 1'b1;
    assign fall_idle_o    = 1'b1;
  end

  // The network's address count, na_q (config kind 3, which neither the
  // router nor the unit takes: address 0 its low byte, 1 its high byte;
  // sim_harness/net/net.c tile_rows).  One tile model serves networks of
  // different address counts (netbuild.c buckets NumAddrs), so the router's
  // table may be longer than the network's: its rows from na_q on are
  // written 0, the port the router takes for an address beyond its table,
  // and the router (Shared = 1) flags a table-routed head for such an
  // address on the same edge and in the same error bit (3, bad route) as
  // the flat router of na_q entries flags it.
  always_ff @(posedge clk_i)
    if (cfg_we_q && cfg_kind_q == 2'd3 && cfg_addr_q[xnoc_pkg::CfgAddrW-1:1] == '0) begin
      if (cfg_addr_q[0]) na_q[15:8] <= cfg_data_q;
      else               na_q[7:0]  <= cfg_data_q;
    end

  // debug addresses 0x340..0x37F read the unit, the rest the router
  assign dbg_data_o = (Ncu != 0 && dbg_addr_i[9:6] == 4'hd) ? u_dbg : r_dbg;
  assign err_o      = r_err | u_err;
  assign quiet_o    = r_idle && (r_out_valid == '0) && (r_in_credit == '0) && unit_shut &&
                      (link_valid_q == '0) && (link_credit_q == '0);
endmodule
