// xnoc_vc_buffers - a router's input buffers: one circular buffer of
// BufDepth flits per input VC (g = port * NumVcs + vc), written at BW from
// the links, read at their fronts by RC and SA, popped by the switch.
//
// Written for the router's simulation speed (docs/performance.md):
//  * the pointers and counts of all VCs are packed side by side (VC g at
//    [g*W +: W]) and "which VCs hold a flit" is one register, occ_o, so the
//    router tests its VCs with one word test rather than a compare each;
//  * a flit's 64-bit payload is stored apart from its head/tail bits, and
//    the fronts leave as 64-bit slices (front_pl_o[g*PayloadW +: PayloadW]),
//    so a model moves native words;
//  * each VC's buffer watches its port's link wires directly and takes the
//    flits whose VC field names it: no per-VC decode in between.
// The link flit is xnoc_pkg::link_flit_t (its fields' places: xnoc_pkg::Link*).
// Writing into a full buffer, or a flit on a VC >= NumVcs, is a protocol
// error the router reports (full_err_o, bad_vc_o: combinational, this cycle).
module xnoc_vc_buffers #(
  parameter int NumPorts = 5,   // input ports
  parameter int NumVcs   = 2,   // virtual channels per port
  parameter int BufDepth = 8,   // flits per VC
  localparam int PayloadW = xnoc_pkg::LinkPayloadW,
  localparam int LW = xnoc_pkg::LinkSlotW,           // a port's slot in the link vectors
  localparam int VB = xnoc_pkg::LinkVcW,             // the flit's VC field
  localparam int PV = NumPorts * NumVcs,
  localparam int CW = $clog2(BufDepth + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // BW: the links
  input  logic [NumPorts-1:0]      in_valid_i,
  input  logic [NumPorts*LW-1:0]   in_flit_i,
  // the switch takes the front flit of these VCs
  input  logic [PV-1:0]            pop_i,
  // fronts
  output logic [PV-1:0]            occ_o,        // VC g holds a flit
  output logic [PV*PayloadW-1:0]   front_pl_o,   // its front: payload ...
  output logic [PV*2-1:0]          front_ht_o,   // ... and {tail, head}
  output logic [PV*CW-1:0]         count_o,      // flits held (debug read)
  // errors
  output logic [PV-1:0]            full_err_o,   // a flit for a full buffer
  output logic [NumPorts-1:0]      bad_vc_o      // a flit on a VC >= NumVcs
);
  localparam int V  = NumVcs;
  localparam int D  = BufDepth;
  localparam int PW = PayloadW;
  localparam int DI = (D > 1) ? $clog2(D) : 1;  // slot index

  // (The circular-slot increment is written out twice below: as a function
  // it makes Verilator 5.006 emit one copy of the router's sequential code
  // per instance instead of one shared copy, 2.5x slower on an 8x8 mesh.)
  logic [PV*DI-1:0] rd_q, rd_d;          // read slot
  logic [PV*DI-1:0] wr_q, wr_d;          // write slot
  logic [PV*CW-1:0] cnt_q, cnt_d;        // flits buffered
  // occ_q mirrors "count != 0", kept as a register so that "which VCs have
  // a flit" is one word test per cycle (a named assertion checks the mirror)
  logic [PV-1:0]    occ_q, occ_d;
  logic [PV-1:0]    push;                // a flit is written into VC g
  logic [PV*CW-1:0] cnt_p;               // the counts after this cycle's pops ...
  logic [PV-1:0]    occ_p;               // ... and their "count != 0"

  // The pops and the pushes are two blocks: the pops follow the router's
  // state only, the pushes the links too.  A model evaluates a block that
  // reads a top-level input again for every new input value, so the pops
  // kept apart cost it once per cycle, not twice (Verilator 5.006 runs such
  // a block both in its input region and after the clock edge).
  always_comb begin
    rd_d  = rd_q;
    cnt_p = cnt_q;
    occ_p = occ_q;
    if (pop_i != '0) begin
      for (int g = 0; g < PV; g++) begin
        if (pop_i[g]) begin
          rd_d[g*DI +: DI]  = (rd_q[g*DI +: DI] == DI'(D - 1)) ? '0 : rd_q[g*DI +: DI] + DI'(1);
          cnt_p[g*CW +: CW] = cnt_q[g*CW +: CW] - CW'(1);
          occ_p[g]          = (cnt_q[g*CW +: CW] != CW'(1));
        end
      end
    end
  end

  always_comb begin
    wr_d       = wr_q;
    cnt_d      = cnt_p;
    occ_d      = occ_p;
    push       = '0;
    bad_vc_o   = '0;
    full_err_o = '0;
    // arriving flits (at most one per port, on the VC its VC field names;
    // the VC loop has constant indices, so synthesis gets a compare per VC)
    if (in_valid_i != '0) begin
      for (int p = 0; p < NumPorts; p++) begin
        if (in_valid_i[p]) begin
          if (32'(in_flit_i[p*LW + xnoc_pkg::LinkVcLsb +: VB]) >= V) bad_vc_o[p] = 1'b1;
          for (int g = p * V; g < (p + 1) * V; g++) begin
            if (in_flit_i[p*LW + xnoc_pkg::LinkVcLsb +: VB] == VB'(g - p * V)) begin
              if (cnt_q[g*CW +: CW] == CW'(D) && !pop_i[g]) begin
                full_err_o[g] = 1'b1;
              end else begin
                push[g]           = 1'b1;
                wr_d[g*DI +: DI]  = (wr_q[g*DI +: DI] == DI'(D - 1)) ? '0 : wr_q[g*DI +: DI] + DI'(1);
                cnt_d[g*CW +: CW] = cnt_p[g*CW +: CW] + CW'(1);
                occ_d[g]          = 1'b1;
              end
            end
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
      occ_q <= '0;
    end else begin
      rd_q  <= rd_d;
      wr_q  <= wr_d;
      cnt_q <= cnt_d;
      occ_q <= occ_d;
    end
  end

  // Storage, one memory per input port: VC v's slots at [v*D +: D].  At
  // most one flit arrives per port and cycle, so each port has one write
  // (a model keeps one pending-write record per written memory and clears
  // and tests it every cycle: per port, not per VC).  Not reset: only
  // slots below the count are read.
  localparam int SI = (V * D > 1) ? $clog2(V * D) : 1;  // slot index within a port
  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    logic [PW-1:0] pl_q [V*D];
    logic [1:0]    ht_q [V*D];
    always_ff @(posedge clk_i) begin
      logic [VB-1:0] vc;
      logic [SI-1:0] slot;
      if (push[p*V +: V] != '0) begin
        vc   = in_flit_i[p*LW + xnoc_pkg::LinkVcLsb +: VB];
        slot = SI'(32'(vc) * D + 32'(wr_q[(p*V + 32'(vc))*DI +: DI]));
        pl_q[slot] <= in_flit_i[p*LW + xnoc_pkg::LinkPayloadLsb +: PW];
        ht_q[slot] <= {in_flit_i[p*LW + xnoc_pkg::LinkTailBit], in_flit_i[p*LW + xnoc_pkg::LinkHeadBit]};
      end
    end
    for (genvar v = 0; v < V; v++) begin : g_vc
      assign front_pl_o[(p*V + v)*PW +: PW] = pl_q[SI'(v * D) + SI'(rd_q[(p*V + v)*DI +: DI])];
      assign front_ht_o[(p*V + v)*2 +: 2]   = ht_q[SI'(v * D) + SI'(rd_q[(p*V + v)*DI +: DI])];
    end
  end

  assign occ_o   = occ_q;
  assign count_o = cnt_q;

`ifdef XNOC_ASSERT
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int g = 0; g < PV; g++) begin
        OccMirrorsCount: assert (occ_q[g] == (cnt_q[g*CW +: CW] != '0));
        CountNeverAboveDepth: assert (cnt_q[g*CW +: CW] <= CW'(D));
      end
    end
  end
`endif
endmodule
