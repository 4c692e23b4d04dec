// xnoc_router_dbg - a router's performance counters, sticky error bits and
// debug read port (xnoc_router's u_dbg; the map is xnoc_pkg::Dbg*, mirrored
// by sim_harness/net/dbg_map.h).
//
// Port o's counts at [o*32 +: 32] (the debug read's view); each port's two
// counters are registers of their own, so a port with nothing to count costs
// a bit test (a packed register written in a loop costs a model a copy of
// all ports' counts in and out every cycle).
//
// Error bits (sticky until reset): 0 credit over/underflow, 1 write into a
// full buffer, 2 flit on a VC >= NumVcs, 3 bad route (port >= NumPorts,
// destination beyond the table or, with Shared, >= num_addrs_i; body
// without head).
//
// The read mux works only while a read is enabled (0 otherwise): the address
// bus is a top-level input, so a model re-evaluates everything behind it on
// every eval() - the enable keeps that to one test per router.
module xnoc_router_dbg #(
  parameter int NumPorts = 5,
  parameter int NumVcs   = 2,
  parameter int CntW     = 4,    // an input VC's occupancy counter
  localparam int P  = NumPorts,
  localparam int V  = NumVcs,
  localparam int PB = (P > 1) ? $clog2(P) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [P-1:0]                  out_valid_i,  // a flit leaves on output o
  input  logic [P-1:0]                  stalled_i,    // a routed flit waits for output o, none left
  input  logic [3:0]                    err_i,        // this cycle's errors, by bit as above
  input  logic [P*V*CntW-1:0]           occ_i,        // flits held per input VC
  input  logic                          dbg_en_i,
  input  logic [xnoc_pkg::DbgAddrW-1:0] dbg_addr_i,
  output logic [31:0]                   dbg_data_o,
  output logic                          err_o
);
  logic [P*32-1:0] flits_q, stalls_q;
  for (genvar o = 0; o < P; o++) begin : g_count
    logic [31:0] flits_cnt_q, stalls_cnt_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        flits_cnt_q  <= '0;
        stalls_cnt_q <= '0;
      end else begin
        if (out_valid_i[o]) flits_cnt_q  <= flits_cnt_q + 32'd1;
        if (stalled_i[o])   stalls_cnt_q <= stalls_cnt_q + 32'd1;
      end
    end
    assign flits_q[o*32 +: 32]  = flits_cnt_q;
    assign stalls_q[o*32 +: 32] = stalls_cnt_q;
  end

  logic [3:0] err_q, err_d;
  assign err_d = err_q | err_i;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) err_q <= '0;
    else         err_q <= err_d;
  end
  assign err_o = |err_q;

  localparam int KL = xnoc_pkg::DbgKindLsb;       // kind at [KL +: KW], port (and VC) below
  localparam int KW = xnoc_pkg::DbgKindW;
  localparam int OV = xnoc_pkg::DbgOccVcW;        // occupancy: port at [KL-1:OV], VC at [OV-1:0]
  always_comb begin
    dbg_data_o = '0;
    if (dbg_en_i) begin
      unique case (dbg_addr_i[KL +: KW])
        KW'(xnoc_pkg::DbgKindFlits):
          if (32'(dbg_addr_i[KL-1:0]) < P) dbg_data_o = flits_q[32'(dbg_addr_i[PB-1:0])*32 +: 32];
        KW'(xnoc_pkg::DbgKindStalls):
          if (32'(dbg_addr_i[KL-1:0]) < P) dbg_data_o = stalls_q[32'(dbg_addr_i[PB-1:0])*32 +: 32];
        KW'(xnoc_pkg::DbgKindOcc):
          if (32'(dbg_addr_i[KL-1:OV]) < P && 32'(dbg_addr_i[OV-1:0]) < V)
            dbg_data_o = 32'(occ_i[(32'(dbg_addr_i[KL-1:OV]) * V + 32'(dbg_addr_i[OV-1:0]))*CntW +: CntW]);
        default: dbg_data_o = (dbg_addr_i[KL-1:0] == '0) ? 32'(err_q) : '0;   // DbgKindErr
      endcase
    end
  end
endmodule
