// xnoc_router - virtual-channel wormhole router with credit flow control.
//
// Pipeline (head flit, one cycle each; docs/router.md):
//   BW  the flit is written into its input VC buffer (edge E)
//   RC  route computation from the table or the source route  -> rt_*_q (E+1)
//   SA  combined VC + switch allocation, separable, round robin;
//       the winner leaves its buffer into its output's ST register (E+2)
//   ST  crossbar + link: written into the downstream buffer           (E+3)
// Body flits of a packet holding an output VC skip RC and stream at one
// flit per cycle while credits last.
//
// Every router of a network has the same parameters; its identity lives in
// the routing table and port attributes written through the config port,
// so Verilator compiles a single copy for the whole network.
//
// Written for simulation speed under Verilator as much as for synthesis:
// per-VC and per-port logic sits in generate blocks (constant indices, no
// loops at run time), per-VC flags are packed vectors, expensive logic
// (route computation, flit muxing) is guarded by the condition that needs
// it, and grants are one-hot.
module xnoc_router #(
  parameter int P  = 5,    // ports
  parameter int V  = 2,    // virtual channels per port (1..8)
  parameter int D  = 8,    // buffer depth per VC (flits)
  parameter int PW = 64,   // payload bits
  parameter int NT = 16,   // routing-table entries (terminals)
  parameter int NC = 1,    // VC classes (1 or 2)
  // bits per hop of a source route: the topology's ports, without a coding
  // unit's extra port (source routes never lead into the unit)
  parameter int SRB = (P > 1) ? $clog2(P) : 1,
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

  localparam int VB  = 3;                       // VC field of a flit
  localparam int VI  = (V > 1) ? $clog2(V) : 1; // VC index bits
  localparam int PV  = P * V;
  localparam int CW  = $clog2(D + 1);           // credit / occupancy counters
  localparam int EW  = PW + 2;                  // buffered entry: payload, head, tail
  localparam int VPC = V / NC;                  // VCs per class
  localparam int TW  = (NT > 1) ? $clog2(NT) : 1;
  localparam int GI  = (PV > 1) ? $clog2(PV) : 1; // input VC index bits
  localparam int RW  = PB + 2;                  // table port + ejection select, unwrapped
  localparam int SRL = 14;                      // SR route field offset in the head
  // output VCs a head may take: all (ejection port), class 0, class 1
  localparam logic [V-1:0] MaskAll = {V{1'b1}};
  localparam logic [V-1:0] MaskC0  = MaskAll >> (V - VPC);
  localparam logic [V-1:0] MaskC1  = MaskAll & ~MaskC0;
  localparam logic [1:0]   DimTerm = 2'd3;

  // ---------------------------------------------------------------- config
  // Written by the harness during/after reset; deliberately not reset.
  logic [PB-1:0] table_q [NT];
  logic [1:0]    dim_q   [P];
  logic [P-1:0]  term_q;        // dim == terminal: any VC, ejection select applies
  logic [P-1:0]  dateline_q;
  logic          cfg_tbl_we, cfg_port_we;

  assign cfg_tbl_we  = cfg_we_i && !cfg_kind_i && ({1'b0, cfg_addr_i} < 11'(NT));
  assign cfg_port_we = cfg_we_i && cfg_kind_i && ({1'b0, cfg_addr_i} < 11'(P));

  always_ff @(posedge clk_i) begin
    if (cfg_tbl_we) table_q[cfg_addr_i[TW-1:0]] <= cfg_data_i[PB-1:0];
    if (cfg_port_we) begin
      dim_q[cfg_addr_i[PB-1:0]]      <= cfg_data_i[1:0];
      term_q[cfg_addr_i[PB-1:0]]     <= (cfg_data_i[1:0] == DimTerm);
      dateline_q[cfg_addr_i[PB-1:0]] <= cfg_data_i[2];
    end
  end

  logic unused_cfg;
  assign unused_cfg = cfg_data_i[3];   // reserved

  // ------------------------------------------------------ cross-unit signals
  // input VC g = p*V + v; output VC og = o*V + w
  logic [PV-1:0] empty;              // input VC buffer empty
  logic [PV-1:0] ready;              // routed flit at the front (stall counters)
  logic [PV-1:0] elig;               // may bid for the switch this cycle
  logic [PV-1:0] pop;                // SA winner leaves its buffer
  logic [PV-1:0] fifo_err;           // write into a full buffer
  logic [PV-1:0] rc_err;             // bad route / body flit without a head
  logic [EW-1:0] front   [PV];       // flit at the front of each input VC
  logic [CW-1:0] count   [PV];       // occupancy (debug port)
  logic [PB-1:0] rt_port [PV];       // output port of the packet at the front
  logic          ovc_vld [PV];       // holds an output VC ...
  logic [VI-1:0] ovc     [PV];       // ... this one
  logic [V-1:0]  avail   [PV];       // free output VCs of its class, with a credit

  logic [V-1:0]  free_p  [P];        // output VCs free and with a credit, per port
  logic [V-1:0]  cred_p  [P];        // output VCs with a credit, per port
  logic [PV-1:0] oc_err;             // output VC credit over/underflow

  // per input port: the VC its arbiter picked
  logic [P-1:0]  in_any, in_won;
  logic [V-1:0]  in_gnt  [P];
  logic [VI-1:0] in_vc   [P];
  logic [PB-1:0] in_port [P];
  logic [P-1:0]  in_port_oh [P];
  logic [VI-1:0] in_ovc  [P];        // output VC the picked flit travels on
  logic [EW-1:0] in_flit [P];        // picked flit, SR route already consumed

  // per output port: the input its arbiter picked
  logic [P-1:0]  out_any;
  logic [P-1:0]  out_gnt [P];
  logic [PB-1:0] out_in  [P];
  logic [V-1:0]  out_dec [P];        // one-hot output VC used this cycle (or 0)
  logic [P-1:0]  out_tail;
  logic [P-1:0]  want;               // some routed flit waits for this output

  // ============================================================ input units
  for (genvar g = 0; g < PV; g++) begin : g_ivc
    localparam int GP = g / V;
    localparam int GV = g % V;
    localparam logic GC = (NC > 1) && (GV >= VPC);   // VC class of this VC

    logic [FW-1:0] fin;
    logic          push;
    assign fin  = in_flit_i[GP*FW +: FW];
    assign push = in_valid_i[GP] && (fin[PW+4:PW+2] == VB'(GV));

    xnoc_fifo #(.W(EW), .D(D)) u_fifo (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .push_i     (push),
      .data_i     (fin[EW-1:0]),
      .pop_i      (pop[g]),
      .data_o     (front[g]),
      .empty_o    (empty[g]),
      .count_o    (count[g]),
      .overflow_o (fifo_err[g])
    );

    // ---- RC: route the head at the front of an idle VC
    logic          rt_vld_q, rt_vld_d;
    logic [PB-1:0] rt_port_q, rt_port_d;
    logic [V-1:0]  rt_mask_q, rt_mask_d;   // output VCs the head may take
    logic          ovc_vld_q, ovc_vld_d;
    logic [VI-1:0] ovc_q, ovc_d;
    logic          bad;

    always_comb begin
      logic [9:0]    dest;
      logic [PB-1:0] tbl;
      logic [RW-1:0] port;
      logic          cls;
      rt_vld_d  = rt_vld_q;
      rt_port_d = rt_port_q;
      rt_mask_d = rt_mask_q;
      bad       = 1'b0;
      dest      = front[g][9:0];
      tbl       = '0;
      port      = '0;
      cls       = 1'b0;
      if (!rt_vld_q && !empty[g]) begin
        if (front[g][10]) begin                          // source routed
          port = RW'(front[g][SRL +: SRB]);
        end else begin                                   // table (+ ejection select)
          if ({1'b0, dest} < 11'(NT)) tbl = table_q[dest[TW-1:0]];
          else bad = 1'b1;
          port = term_q[tbl] ? RW'(tbl) + RW'(front[g][13:12]) : RW'(tbl);
        end
        if (!front[g][PW] || port >= RW'(P)) bad = 1'b1;
        // VC class: 1 across a dateline, kept along a dimension, 0 on a turn
        cls = dateline_q[port[PB-1:0]] || (dim_q[port[PB-1:0]] == dim_q[GP] && GC);
        rt_vld_d  = front[g][PW];
        rt_port_d = port[PB-1:0];
        rt_mask_d = term_q[port[PB-1:0]] ? MaskAll : (NC == 1) ? MaskC0 : cls ? MaskC1 : MaskC0;
      end
      // the tail leaving frees the VC for the next packet's RC
      if (pop[g] && front[g][PW+1]) rt_vld_d = 1'b0;
    end

    // ---- VA bookkeeping: the output VC this packet holds
    always_comb begin
      ovc_vld_d = ovc_vld_q;
      ovc_d     = ovc_q;
      if (pop[g]) begin
        ovc_vld_d = !front[g][PW+1];
        ovc_d     = in_ovc[GP];
      end
    end

    // ---- eligibility for SA
    logic [V-1:0] av;
    assign av       = free_p[rt_port_q] & rt_mask_q;
    assign avail[g] = av;
    assign ready[g] = rt_vld_q && !empty[g];
    assign elig[g]  = ready[g] && (ovc_vld_q ? cred_p[rt_port_q][ovc_q] : (av != '0));
    assign rc_err[g]  = bad;
    assign rt_port[g] = rt_port_q;
    assign ovc_vld[g] = ovc_vld_q;
    assign ovc[g]     = ovc_q;
    assign pop[g]     = in_won[GP] && in_gnt[GP][GV];

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        rt_vld_q  <= 1'b0;
        rt_port_q <= '0;
        rt_mask_q <= '0;
        ovc_vld_q <= 1'b0;
        ovc_q     <= '0;
      end else begin
        rt_vld_q  <= rt_vld_d;
        rt_port_q <= rt_port_d;
        rt_mask_q <= rt_mask_d;
        ovc_vld_q <= ovc_vld_d;
        ovc_q     <= ovc_d;
      end
    end
  end

  // ======================================================= SA: input stage
  for (genvar i = 0; i < P; i++) begin : g_in
    xnoc_rr_arb #(.N(V)) u_arb (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .req_i  (elig[i*V +: V]),
      .upd_i  (in_won[i]),
      .any_o  (in_any[i]),
      .gnt_o  (in_gnt[i]),
      .idx_o  (in_vc[i])
    );

    logic [GI-1:0] g;                         // the picked input VC
    assign g          = GI'(i * V) + GI'(in_vc[i]);
    assign in_port[i] = rt_port[g];
    assign in_port_oh[i] = in_any[i] ? (P'(1) << in_port[i]) : '0;

    // the picked flit as it will leave: output VC, SR route consumed
    logic [VI-1:0] w_sel;
    logic [EW-1:0] f_sel;
    always_comb begin
      logic [V-1:0] a;
      w_sel = ovc[g];
      f_sel = front[g];
      a     = avail[g];
      if (!ovc_vld[g]) begin                  // head: lowest free VC of its class
        for (int w = V - 1; w >= 0; w--) if (a[w]) w_sel = VI'(w);
        if (front[g][10]) f_sel[PW-1:SRL] = front[g][PW-1:SRL] >> SRB;
      end
    end
    assign in_ovc[i]  = w_sel;
    assign in_flit[i] = f_sel;
  end

  // ====================================================== SA: output stage
  for (genvar o = 0; o < P; o++) begin : g_out
    logic [P-1:0] req;
    for (genvar i = 0; i < P; i++) begin : g_req
      assign req[i] = in_port_oh[i][o];
    end
    xnoc_rr_arb #(.N(P)) u_arb (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .req_i  (req),
      .upd_i  (1'b1),
      .any_o  (out_any[o]),
      .gnt_o  (out_gnt[o]),
      .idx_o  (out_in[o])
    );

    // ST register at the crossbar output (one flit per output per cycle)
    logic          st_vld_q;
    logic [FW-1:0] st_flit_q, st_flit_d;
    logic [EW-1:0] f;
    assign f         = in_flit[out_in[o]];
    assign out_tail[o] = f[PW+1];
    assign out_dec[o]  = out_any[o] ? (V'(1) << in_ovc[out_in[o]]) : '0;
    always_comb begin
      st_flit_d = st_flit_q;
      if (out_any[o]) st_flit_d = {VB'(in_ovc[out_in[o]]), f};
    end
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        st_vld_q  <= 1'b0;
        st_flit_q <= '0;
      end else begin
        st_vld_q  <= out_any[o];
        st_flit_q <= st_flit_d;
      end
    end
    assign out_valid_o[o]           = st_vld_q;
    assign out_flit_o[o*FW +: FW]   = st_flit_q;
  end

  // an input won when some output granted it (grants are one-hot)
  always_comb begin
    in_won = '0;
    for (int o = 0; o < P; o++) in_won = in_won | out_gnt[o];
  end

  // ============================================================ output VCs
  for (genvar og = 0; og < PV; og++) begin : g_ovc
    localparam int GO = og / V;
    localparam int GW = og % V;
    logic [CW-1:0] credit_q, credit_d;
    logic          busy_q, busy_d;
    logic          inc, dec, err;
    assign inc = out_credit_i[GO] && (out_credit_vc_i[GO*3 +: 3] == 3'(GW));
    assign dec = out_dec[GO][GW];
    always_comb begin
      credit_d   = credit_q;
      busy_d     = busy_q;
      err        = 1'b0;
      if (inc) begin
        if (credit_q == CW'(D)) err = 1'b1;           // more credits than slots
        else credit_d = credit_d + CW'(1);
      end
      if (dec) begin
        if (credit_q == '0) err = 1'b1;               // cannot happen: SA checks
        credit_d = credit_d - CW'(1);
        busy_d   = !out_tail[GO];                     // head takes, tail frees
      end
    end
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        credit_q <= CW'(D);
        busy_q   <= 1'b0;
      end else begin
        credit_q <= credit_d;
        busy_q   <= busy_d;
      end
    end
    assign oc_err[og]     = err;
    assign cred_p[GO][GW] = (credit_q != '0);
    assign free_p[GO][GW] = (credit_q != '0) && !busy_q;

`ifdef XNOC_ASSERT
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        CreditNeverAboveDepth: assert (credit_q <= CW'(D));
      end
    end
`endif
  end

  // ================================================ credits back upstream
  logic [P-1:0]  cr_vld_q;
  logic [VI-1:0] cr_vc_q [P];
  for (genvar i = 0; i < P; i++) begin : g_cr
    always_ff @(posedge clk_i) begin
      if (!rst_ni) cr_vc_q[i] <= '0;
      else         cr_vc_q[i] <= in_vc[i];
    end
    assign in_credit_vc_o[i*3 +: 3] = 3'(cr_vc_q[i]);
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) cr_vld_q <= '0;
    else         cr_vld_q <= in_won;
  end
  assign in_credit_o = cr_vld_q;

  // ================================================ performance counters
  // want[o]: some input VC has a routed flit at its front for output o
  always_comb begin
    want = '0;
    for (int g = 0; g < PV; g++) if (ready[g]) want = want | (P'(1) << rt_port[g]);
  end

  logic [31:0] flits_q [P], stalls_q [P];
  for (genvar o = 0; o < P; o++) begin : g_cnt
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        flits_q[o]  <= '0;
        stalls_q[o] <= '0;
      end else begin
        if (out_valid_o[o])           flits_q[o]  <= flits_q[o] + 32'd1;
        if (want[o] && !out_any[o])   stalls_q[o] <= stalls_q[o] + 32'd1;
      end
    end
  end

  // ============================================================== errors
  // bit 0 credit over/underflow, 1 write into a full buffer, 2 flit on a
  // VC >= V, 3 bad route (port >= P, destination >= NT, body without head)
  logic [P-1:0] bad_vc;
  for (genvar p = 0; p < P; p++) begin : g_badvc
    assign bad_vc[p] = in_valid_i[p] && (32'(in_flit_i[p*FW + PW + 2 +: 3]) >= V);
  end

  logic [3:0] err_q, err_d;
  assign err_d = err_q | {|rc_err, |bad_vc, |fifo_err, |oc_err};
  always_ff @(posedge clk_i) begin
    if (!rst_ni) err_q <= '0;
    else         err_q <= err_d;
  end
  assign err_o = |err_q;

  // ========================================================== debug read
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
      NoCreditOverflow: assert (oc_err == '0);
    end
  end
`endif
endmodule
