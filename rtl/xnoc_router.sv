// xnoc_router - virtual-channel wormhole router with credit flow control.
//
// Pipeline (head flit, one cycle each; docs/router.md):
//   BW  the flit is written into its input VC buffer (edge E)
//   RC  route computation from the table or the source route  -> rt_*_q (E+1)
//   SA  combined VC + switch allocation, separable, round robin;
//       the winner leaves the buffer into the ST register       -> st_*_q (E+2)
//   ST  crossbar + link: written into the downstream buffer           (E+3)
// Body flits of a packet holding an output VC skip RC and stream at one
// flit per cycle while credits last.
//
// Every router of a network has the same parameters; its identity lives in
// the routing table and port attributes written through the config port,
// so Verilator compiles a single copy for the whole network.
module xnoc_router #(
  parameter int P  = 5,    // ports
  parameter int V  = 2,    // virtual channels per port (1..8)
  parameter int D  = 8,    // buffer depth per VC (flits)
  parameter int PW = 64,   // payload bits
  parameter int NT = 16,   // routing-table entries (terminals)
  parameter int NC = 1,    // VC classes (1 or 2)
  localparam int FW = PW + 5,
  localparam int PB = (P > 1) ? $clog2(P) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // configuration
  input  logic            cfg_we_i,
  input  logic            cfg_kind_i,     // 0: routing table, 1: port attributes
  input  logic [9:0]      cfg_addr_i,
  input  logic [3:0]      cfg_data_i,
  // links
  input  logic [P-1:0]    in_valid_i,
  input  logic [P*FW-1:0] in_flit_i,
  output logic [P-1:0]    in_credit_o,
  output logic [P*3-1:0]  in_credit_vc_o,
  output logic [P-1:0]    out_valid_o,
  output logic [P*FW-1:0] out_flit_o,
  input  logic [P-1:0]    out_credit_i,
  input  logic [P*3-1:0]  out_credit_vc_i,
  // debug / performance counters
  input  logic [9:0]      dbg_addr_i,
  output logic [31:0]     dbg_data_o,
  output logic            err_o
);
  // One shared C++ class for every router instance, rather than a copy per
  // instance: this keeps an 8x8 network's model small and quick to compile.
  /* verilator no_inline_module */

  localparam int VB  = (V > 1) ? $clog2(V) : 1;
  localparam int CW  = $clog2(D + 1);
  localparam int EW  = PW + 2;            // buffered entry: payload, head, tail
  localparam int VPC = V / NC;            // VCs per class
  localparam int TW  = (NT > 1) ? $clog2(NT) : 1;
  localparam int PV  = P * V;
  localparam logic [1:0] DIM_TERM = 2'd3;

  logic unused_cfg;
  assign unused_cfg = cfg_data_i[3];   // reserved

  // ---------------------------------------------------------------- config
  logic [PB-1:0] table_q [NT];
  logic [1:0]    dim_q   [P];
  logic          dateline_q [P];

  always_ff @(posedge clk_i) begin
    if (cfg_we_i && !cfg_kind_i && {1'b0, cfg_addr_i} < 11'(NT)) table_q[cfg_addr_i[TW-1:0]] <= cfg_data_i[PB-1:0];
    if (cfg_we_i && cfg_kind_i && cfg_addr_i < 10'(P)) begin
      dim_q[cfg_addr_i[PB-1:0]]      <= cfg_data_i[1:0];
      dateline_q[cfg_addr_i[PB-1:0]] <= cfg_data_i[2];
    end
  end

  // ---------------------------------------------------------- input buffers
  logic [EW-1:0] front    [PV];     // flit at the front of each input VC
  logic          empty    [PV];
  logic [CW-1:0] count    [PV];
  logic          fifo_ovf [PV];
  logic [PV-1:0] pop;               // SA winner leaves its buffer

  for (genvar g = 0; g < PV; g++) begin : g_vc
    localparam int GP = g / V;
    localparam int GV = g % V;
    logic [FW-1:0] fin;
    assign fin = in_flit_i[GP*FW +: FW];
    xnoc_fifo #(.W(EW), .D(D)) u_fifo (
      .clk_i(clk_i), .rst_ni(rst_ni),
      .push_i     (in_valid_i[GP] && fin[PW+4:PW+2] == 3'(GV)),
      .data_i     (fin[EW-1:0]),
      .pop_i      (pop[g]),
      .data_o     (front[g]),
      .empty_o    (empty[g]),
      .count_o    (count[g]),
      .overflow_o (fifo_ovf[g])
    );
  end

  // ------------------------------------------------- per input VC state (RC)
  logic          rt_valid_q [PV], rt_valid_d [PV];   // front head routed
  logic [PB-1:0] rt_port_q  [PV], rt_port_d  [PV];
  logic          rt_class_q [PV], rt_class_d [PV];   // VC class at the output
  logic          ovc_valid_q [PV], ovc_valid_d [PV]; // holds an output VC
  logic [VB-1:0] ovc_q      [PV], ovc_d      [PV];
  logic          rc_err;

  // Route computation for a head flit at the front of an idle VC: the
  // source route's next hop, or the table (plus the ejection channel select
  // when the table names a terminal port).

  always_comb begin
    rc_err = 1'b0;
    for (int g = 0; g < PV; g++) begin
      logic [9:0]    dest;
      logic [PB-1:0] tbl, port;
      dest = front[g][9:0];
      tbl  = ({1'b0, dest} < 11'(NT)) ? table_q[dest[TW-1:0]] : '0;
      port = front[g][10] ? front[g][14 +: PB] : (dim_q[tbl] == DIM_TERM) ? tbl + PB'(front[g][13:12]) : tbl;
      rt_valid_d[g] = rt_valid_q[g];
      rt_port_d[g]  = rt_port_q[g];
      rt_class_d[g] = rt_class_q[g];
      if (!rt_valid_q[g] && !empty[g]) begin
        if (!front[g][PW]) rc_err = 1'b1;                      // body flit without a head
        else begin
          rt_valid_d[g] = 1'b1;
          rt_port_d[g]  = port;
          if (32'(port) >= P || (!front[g][10] && {1'b0, dest} >= 11'(NT))) rc_err = 1'b1;
          // VC class: keep it along a dimension, drop to 0 on a turn, 1 across a dateline
          if (NC == 1) rt_class_d[g] = 1'b0;
          else if (dateline_q[port]) rt_class_d[g] = 1'b1;
          else if (dim_q[port] == dim_q[g / V]) rt_class_d[g] = (32'(g % V) >= VPC);
          else rt_class_d[g] = 1'b0;
        end
      end
    end
  end

  // ------------------------------------------------------- output VC state
  logic [CW-1:0] credit_q [PV], credit_d [PV];   // [o*V + w]
  logic          busy_q   [PV], busy_d   [PV];
  logic          credit_err;

  // A free output VC of the needed class with a credit, lowest index first.
  logic          free_ok  [PV];   // per input VC: a VC is available for its head
  logic [VB-1:0] free_vc  [PV];

  always_comb begin
    for (int g = 0; g < PV; g++) begin
      int o, lo, hi;
      o  = 32'(rt_port_q[g]);
      lo = (dim_q[rt_port_q[g]] == DIM_TERM) ? 0 : 32'(rt_class_q[g]) * VPC;
      hi = (dim_q[rt_port_q[g]] == DIM_TERM) ? V : lo + VPC;
      free_ok[g] = 1'b0;
      free_vc[g] = '0;
      for (int w = V - 1; w >= 0; w--) begin
        if (w >= lo && w < hi && o < P && !busy_q[o*V + w] && credit_q[o*V + w] != '0) begin
          free_ok[g] = 1'b1;
          free_vc[g] = VB'(w);
        end
      end
    end
  end

  // ------------------------------------------------------------- SA stage
  logic [PV-1:0] elig;          // input VC may bid for the switch
  logic [PV-1:0] ready;         // input VC has a routed flit (for stall counters)
  always_comb begin
    for (int g = 0; g < PV; g++) begin
      ready[g] = !empty[g] && rt_valid_q[g];
      elig[g]  = ready[g] && (ovc_valid_q[g] ? (credit_q[32'(rt_port_q[g]) * V + 32'(ovc_q[g])] != '0)
                                             : free_ok[g]);
    end
  end

  // Input arbitration: one VC per input port.
  logic [P-1:0]  in_any;
  logic [VB-1:0] in_vc   [P];
  logic [PB-1:0] in_port [P];
  logic [P-1:0]  in_won;        // the input's choice won its output
  for (genvar i = 0; i < P; i++) begin : g_in_arb
    xnoc_rr_arb #(.N(V)) u_arb (
      .clk_i(clk_i), .rst_ni(rst_ni),
      .req_i (elig[i*V +: V]),
      .upd_i (in_won[i]),
      .any_o (in_any[i]),
      .idx_o (in_vc[i])
    );
    assign in_port[i] = rt_port_q[i*V + 32'(in_vc[i])];
  end

  // Output arbitration: one input per output port.
  logic [P-1:0]  out_any;
  logic [PB-1:0] out_in [P];
  logic [P-1:0]  out_req [P];
  always_comb begin
    for (int o = 0; o < P; o++)
      for (int i = 0; i < P; i++) out_req[o][i] = in_any[i] && in_port[i] == PB'(o);
  end
  for (genvar o = 0; o < P; o++) begin : g_out_arb
    xnoc_rr_arb #(.N(P)) u_arb (
      .clk_i(clk_i), .rst_ni(rst_ni),
      .req_i (out_req[o]),
      .upd_i (1'b1),
      .any_o (out_any[o]),
      .idx_o (out_in[o])
    );
  end

  always_comb begin
    for (int i = 0; i < P; i++) in_won[i] = in_any[i] && out_any[in_port[i]] && out_in[in_port[i]] == PB'(i);
  end

  // ------------------------------------------ grants: state, credits, ST regs
  logic          st_valid_q [P], st_valid_d [P];
  logic [PB-1:0] st_port_q  [P], st_port_d  [P];
  logic [FW-1:0] st_flit_q  [P], st_flit_d  [P];
  logic [P-1:0]  cr_valid_q, cr_valid_d;        // credit back upstream
  logic [2:0]    cr_vc_q [P], cr_vc_d [P];

  localparam int GW = (PV > 1) ? $clog2(PV) : 1;
  logic [GW-1:0] gi;             // winner's input VC
  int            go, gw;         // winner's output port and output VC
  logic [EW-1:0] gf;             // winner's flit
  always_comb begin
    gi = '0;
    go = 0;
    gw = 0;
    gf = '0;
    for (int g = 0; g < PV; g++) begin
      ovc_valid_d[g] = ovc_valid_q[g];
      ovc_d[g]       = ovc_q[g];
      busy_d[g]      = busy_q[g];
      credit_d[g]    = credit_q[g];
    end
    pop = '0;
    credit_err = 1'b0;
    for (int i = 0; i < P; i++) begin
      st_valid_d[i] = in_won[i];
      st_port_d[i]  = in_port[i];
      st_flit_d[i]  = st_flit_q[i];
      cr_valid_d[i] = in_won[i];
      cr_vc_d[i]    = 3'(in_vc[i]);
    end
    // returned credits
    for (int o = 0; o < P; o++) begin
      if (out_credit_i[o]) begin
        if (32'(out_credit_vc_i[o*3 +: 3]) >= V || credit_q[o*V + 32'(out_credit_vc_i[o*3 +: 3])] == CW'(D))
          credit_err = 1'b1;
        else
          credit_d[o*V + 32'(out_credit_vc_i[o*3 +: 3])] = credit_q[o*V + 32'(out_credit_vc_i[o*3 +: 3])] + 1'b1;
      end
    end
    // winners
    for (int i = 0; i < P; i++) begin
      if (in_won[i]) begin
        gi = GW'(i * V + 32'(in_vc[i]));
        go = 32'(in_port[i]);
        gf = front[gi];
        gw = ovc_valid_q[gi] ? 32'(ovc_q[gi]) : 32'(free_vc[gi]);
        pop[gi] = 1'b1;
        credit_d[go*V + gw] = credit_d[go*V + gw] - 1'b1;
        if (gf[PW+1]) begin                     // tail: release the VC
          busy_d[go*V + gw] = 1'b0;
          ovc_valid_d[gi]   = 1'b0;
        end else if (!ovc_valid_q[gi]) begin    // head: take the VC
          busy_d[go*V + gw] = 1'b1;
          ovc_valid_d[gi]   = 1'b1;
          ovc_d[gi]         = VB'(gw);
        end
        // source-routed head: consume this hop's port
        if (gf[PW] && gf[10]) gf[PW-1:14] = gf[PW-1:14] >> PB;
        st_flit_d[i] = {3'(gw), gf};
      end
    end
  end

  // RC state is cleared once the tail leaves.
  logic          rt_clear [PV];
  always_comb begin
    for (int g = 0; g < PV; g++) rt_clear[g] = pop[g] && front[g][PW+1];
  end

  // ----------------------------------------------------- ST: crossbar, link
  always_comb begin
    out_valid_o = '0;
    out_flit_o  = '0;
    for (int i = 0; i < P; i++) begin
      if (st_valid_q[i]) begin
        out_valid_o[st_port_q[i]]             = 1'b1;
        out_flit_o[32'(st_port_q[i])*FW +: FW] = st_flit_q[i];
      end
    end
    for (int i = 0; i < P; i++) begin
      in_credit_o[i]          = cr_valid_q[i];
      in_credit_vc_o[i*3 +: 3] = cr_vc_q[i];
    end
  end

  // ------------------------------------------------- performance counters
  logic [31:0] flits_q [P], stalls_q [P];
  logic [P-1:0] stalled;
  always_comb begin
    for (int o = 0; o < P; o++) begin
      stalled[o] = 1'b0;
      for (int g = 0; g < PV; g++) if (ready[g] && rt_port_q[g] == PB'(o)) stalled[o] = 1'b1;
      if (out_any[o]) stalled[o] = 1'b0;
    end
  end

  // ------------------------------------------------------------ errors
  logic [7:0] err_q, err_d;
  always_comb begin
    err_d = err_q;
    if (credit_err) err_d[0] = 1'b1;
    for (int g = 0; g < PV; g++) if (fifo_ovf[g]) err_d[1] = 1'b1;
    for (int p = 0; p < P; p++)
      if (in_valid_i[p] && 32'(in_flit_i[p*FW + PW + 2 +: 3]) >= V) err_d[2] = 1'b1;
    if (rc_err) err_d[3] = 1'b1;
  end
  assign err_o = |err_q;

  // ----------------------------------------------------------- registers
  // One always_ff per element (generate) keeps every loop small enough for
  // the simulator to unroll, whatever P and V are.
  for (genvar g = 0; g < PV; g++) begin : g_vc_regs
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        rt_valid_q[g]  <= 1'b0;
        rt_port_q[g]   <= '0;
        rt_class_q[g]  <= 1'b0;
        ovc_valid_q[g] <= 1'b0;
        ovc_q[g]       <= '0;
        credit_q[g]    <= CW'(D);
        busy_q[g]      <= 1'b0;
      end else begin
        rt_valid_q[g]  <= rt_clear[g] ? 1'b0 : rt_valid_d[g];
        rt_port_q[g]   <= rt_port_d[g];
        rt_class_q[g]  <= rt_class_d[g];
        ovc_valid_q[g] <= ovc_valid_d[g];
        ovc_q[g]       <= ovc_d[g];
        credit_q[g]    <= credit_d[g];
        busy_q[g]      <= busy_d[g];
      end
    end
  end

  for (genvar i = 0; i < P; i++) begin : g_port_regs
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        st_valid_q[i] <= 1'b0;
        st_port_q[i]  <= '0;
        st_flit_q[i]  <= '0;
        cr_vc_q[i]    <= '0;
        flits_q[i]    <= '0;
        stalls_q[i]   <= '0;
      end else begin
        st_valid_q[i] <= st_valid_d[i];
        st_port_q[i]  <= st_port_d[i];
        st_flit_q[i]  <= st_flit_d[i];
        cr_vc_q[i]    <= cr_vc_d[i];
        flits_q[i]    <= flits_q[i] + 32'(out_valid_o[i]);
        stalls_q[i]   <= stalls_q[i] + 32'(stalled[i]);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cr_valid_q <= '0;
      err_q      <= '0;
    end else begin
      cr_valid_q <= cr_valid_d;
      err_q      <= err_d;
    end
  end

  // ------------------------------------------------------------ debug read
  always_comb begin
    dbg_data_o = '0;
    unique case (dbg_addr_i[9:8])
      2'd0: if (32'(dbg_addr_i[7:0]) < P) dbg_data_o = flits_q[dbg_addr_i[PB-1:0]];
      2'd1: if (32'(dbg_addr_i[7:0]) < P) dbg_data_o = stalls_q[dbg_addr_i[PB-1:0]];
      2'd2: if (32'(dbg_addr_i[7:3]) < P && 32'(dbg_addr_i[2:0]) < V)
              dbg_data_o = 32'(count[32'(dbg_addr_i[7:3]) * V + 32'(dbg_addr_i[2:0])]);
      default: dbg_data_o = (dbg_addr_i[7:0] == 8'd0) ? 32'(err_q) : '0;
    endcase
  end

`ifdef XNOC_ASSERT
  // Named invariants, checked in assertion-enabled simulation builds.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int g = 0; g < PV; g++) begin
        CreditNeverAboveDepth: assert (credit_q[g] <= CW'(D));
      end
      NoCreditOverflow: assert (!credit_err);
    end
  end
`endif
endmodule
