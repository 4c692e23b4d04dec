// xnoc_ncu_mcemit - the output side of the network-coding unit (xnoc_ncu)
// with NumLanes > 1: NumLanes output links into the router (docs/router.md,
// "Multicast lanes"), so that the copies of a multicast leave in the same
// cycles instead of one after another.
//
// The unit's router has NumLanes - 1 more input ports (NumPorts + lane - 1
// for lane >= 1; lane 0 is the unit's own port, NumPorts - 1), terminal-like
// ports that nothing is routed to: each lane is an ordinary router input, so
// the router's switch allocation, VC allocation and credits need no change;
// the crossbar then moves up to NumLanes flits of the unit a cycle to
// different outputs (a multicast crossbar made of input ports).
//
// Per-lane progress with a per-lane pointer into the slot:
//   the dispatcher takes a ready slot (round robin, as xnoc_ncu_emit) and
//     REPLICATE  launches one copy per output port whose part of the mask is
//                not empty (the lowest such port first), one launch a cycle,
//                each on the lowest free lane: the copy's head, its part of
//                the mask and the slot number are latched into the lane;
//     ENCODE     launches the one coded packet on a free lane;
//   then frees the slot once every copy's tail has left (no lane serves it).
//   A lane sends its packet (head, meta, mask, data) on its own, one flit a
//   cycle while its own credits last, reading the slot's data memory
//   through its own read port: a lane whose output is busy holds back no
//   other copy.  (A copy waits only for a lane: with NumLanes >= the
//   fanout, every copy of a multicast starts within fanout cycles.)
// The packets are the ones xnoc_ncu_emit sends, flit for flit; only their
// order across ports and the cycles change.
module xnoc_ncu_mcemit #(
  parameter int NumPorts  = 6,     // router ports, the unit's (the last) included (lanes not)
  parameter int NumLanes  = 2,     // output links into the router
  parameter int BufDepth  = 8,     // the router's input buffer per VC (credits)
  parameter int NumAddrs  = 16,
  parameter int NumTerms  = 8,     // terminals: the first unit address
  parameter int NumSlots  = 4,
  parameter int MaxFlits  = 32,
  localparam int PW  = xnoc_pkg::LinkPayloadW,
  localparam int FW  = xnoc_pkg::LinkFlitW,
  localparam int VB  = xnoc_pkg::LinkVcW,
  localparam int P   = NumPorts,
  localparam int L   = NumLanes,
  localparam int S   = NumSlots,
  localparam int M   = (NumAddrs + 63) / 64,
  localparam int MW  = M * 64,
  localparam int SB  = (S > 1) ? $clog2(S) : 1,
  localparam int PB  = (P > 1) ? $clog2(P) : 1,
  localparam int LB  = (L > 1) ? $clog2(L) : 1,
  localparam int NB  = $clog2(MaxFlits + 1),
  localparam int MB  = (M > 1) ? $clog2(M) : 1,
  localparam int MWB = $clog2(MW),
  localparam int EB  = (NB > MB + 1) ? NB : MB + 1,
  localparam int MA  = (S * MaxFlits > 1) ? $clog2(S * MaxFlits) : 1,
  localparam int CW  = $clog2(BufDepth + 1),
  localparam int AW  = xnoc_pkg::HeadDestW
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            cfg_we_i,
  input  logic [1:0]      cfg_kind_i,
  input  logic [xnoc_pkg::CfgAddrW-1:0] cfg_addr_i,
  input  logic [xnoc_pkg::CfgDataW-1:0] cfg_data_i,
  // the slots
  input  logic [S-1:0]    ready_i,
  input  logic [S-1:0]    kind_i,
  input  logic [16*S-1:0] tag_i,
  input  logic [16*S-1:0] src_i,
  input  logic [32*S-1:0] len_i,
  input  logic [4*S-1:0]  cnt_i,
  input  logic [AW*S-1:0] od_i,
  input  logic [S-1:0]    omc_i,
  input  logic [2*S-1:0]  oop_i,
  input  logic [4*S-1:0]  ocnt_i,
  input  logic [4*S-1:0]  func_i,
  input  logic [S-1:0]    mset_i,
  output logic [SB-1:0]   emask_idx_o,     // the slot whose mask emask_i is
  input  logic [MW-1:0]   emask_i,
  output logic [L*MA-1:0] emem_ra_o,       // lane l's read address at [l*MA +: MA]
  input  logic [L*PW-1:0] emem_rd_i,
  output logic            free_o,          // the slot free_slot_o is done
  output logic [SB-1:0]   free_slot_o,
  // into the router: lane l into its input port (lane 0: NumPorts - 1)
  output logic [L-1:0]    out_valid_o,
  output logic [L*FW-1:0] out_flit_o,
  input  logic [L-1:0]    out_credit_i,
  input  logic [L*VB-1:0] out_credit_vc_i,
  // errors and counters
  output logic            code_bad_o,
  output logic            scan_bad_o,
  output logic [SB-1:0]   bad_slot_o,
  output logic [31:0]     coded_o,
  output logic [31:0]     repl_o,
  output logic            idle_o
);
  localparam logic [AW-1:0] None = '1;
  typedef enum logic [1:0] {
    DIdle = 2'd0, DSend = 2'd1
  } disp_state_e;
  typedef enum logic [2:0] {
    LIdle = 3'd0, LHead = 3'd1, LMeta = 3'd2, LMask = 3'd3, LData = 3'd4
  } lane_state_e;

  // ---------------------------------------------------------------- config
  logic [MW-1:0] pm_q [P];    // addresses the routing table sends to port p
  logic [11:0]   nb_q [P];    // router behind port p, 0xFFF = none
  logic [11:0]   self_q;      // this router's id
  always_ff @(posedge clk_i) begin
    if (cfg_we_i && cfg_kind_i == 2'd0 && 32'(cfg_addr_i) < NumAddrs) begin
      for (int p = 0; p < P; p++) pm_q[p][MWB'(cfg_addr_i)] <= (32'(cfg_data_i) == p);
    end
    if (cfg_we_i && cfg_kind_i == 2'd2) begin
      for (int p = 0; p < P; p++) begin
        for (int n = 0; n < 3; n++) begin
          if (32'(cfg_addr_i) == 3 * p + n) nb_q[p][4*n +: 4] <= cfg_data_i[3:0];
        end
      end
      for (int n = 0; n < 3; n++) begin
        if (32'(cfg_addr_i) == 3 * P + n) self_q[4*n +: 4] <= cfg_data_i[3:0];
      end
    end
  end

  // ------------------------------------------------------------ dispatcher
  disp_state_e   dst_q, dst_d;
  logic [SB-1:0] ds_q, ds_d;             // the slot being dispatched
  logic [P-1:0]  rem_q, rem_d;           // REPLICATE: ports not launched yet

  logic          rd_any, rd_take;
  logic [SB-1:0] rd_idx;
  xnoc_rr_arb #(.NumReqs(S)) u_sel (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (ready_i),
    .upd_i  (rd_take),
    .any_o  (rd_any),
    .idx_o  (rd_idx)
  );
  assign emask_idx_o = (dst_q == DIdle) ? rd_idx : ds_q;

  // every port's part of the slot's mask (DSend): port p's at [p*MW +: MW],
  // whether it holds some address, several, and the first
  logic [P*MW-1:0] sub;
  logic [P-1:0]    sub_any, sub_many;
  logic [P*AW-1:0] sub_first;
  always_comb begin
    sub       = '0;
    sub_any   = '0;
    sub_many  = '0;
    sub_first = '0;
    if (dst_q == DSend) begin
      for (int p = 0; p < P; p++) begin
        sub[p*MW +: MW] = emask_i & pm_q[p];
        for (int a = NumAddrs - 1; a >= 0; a--) begin
          if (sub[p*MW + a]) begin
            sub_many[p] = sub_any[p];
            sub_any[p]  = 1'b1;
            sub_first[p*AW +: AW] = AW'(a);
          end
        end
      end
    end
  end

  // ------------------------------------------------------ lanes (g_lane)
  logic [L-1:0]  lbusy, lserve, send, stail, ltail_repl, lout;
  logic [L*SB-1:0] lslot;                // lane l's slot
  // launching a packet on a lane
  logic          launch;
  logic [LB-1:0] lfree;                  // the lowest free lane
  logic          lany;
  logic [MW-1:0] nmask;
  logic          nmc;
  xnoc_pkg::head_t nhead;                // the head of the packet launched (module scope: yosys)

  always_comb begin
    lany  = 1'b0;
    lfree = '0;
    for (int l = L - 1; l >= 0; l--) begin
      lserve[l] = lbusy[l] && lslot[l*SB +: SB] == ds_q;
      if (!lbusy[l]) begin
        lany  = 1'b1;
        lfree = LB'(l);
      end
    end
  end

  logic ecode_bad, escan_bad;
  logic [PB-1:0] bport;                  // the lowest port still to launch
  logic          bsome;
  always_comb begin
    bsome = 1'b0;
    bport = '0;
    for (int p = P - 1; p >= 0; p--) begin
      if (rem_q[p] && sub_any[p]) begin
        bsome = 1'b1;
        bport = PB'(p);
      end
    end
  end
  assign ecode_bad  = (dst_q == DIdle) && rd_any && !kind_i[rd_idx] &&
                      (od_i[AW*rd_idx +: AW] == None || (omc_i[rd_idx] && !mset_i[rd_idx]));
  assign escan_bad  = (dst_q == DSend) && bsome && sub_many[bport] && nb_q[bport] == 12'hFFF;
  assign code_bad_o = ecode_bad;
  assign scan_bad_o = escan_bad;
  assign bad_slot_o = ecode_bad ? rd_idx : ds_q;

  always_comb begin
    dst_d   = dst_q;
    ds_d    = ds_q;
    rem_d   = rem_q;
    rd_take = 1'b0;
    launch  = 1'b0;
    nhead   = '0;
    nmask   = '0;
    nmc     = 1'b0;
    free_o  = 1'b0;
    free_slot_o = ds_q;
    unique case (dst_q)
      DIdle: begin
        if (rd_any) begin
          if (kind_i[rd_idx]) begin              // REPLICATE: scan the ports
            rd_take = 1'b1;
            ds_d    = rd_idx;
            rem_d   = '1;
            dst_d   = DSend;
          end else if (ecode_bad) begin          // nowhere to send it: dropped, flagged
            rd_take     = 1'b1;
            free_o      = 1'b1;
            free_slot_o = rd_idx;
          end else if (lany) begin               // the coded packet, on a free lane
            rd_take = 1'b1;
            ds_d    = rd_idx;
            rem_d   = '0;
            launch  = 1'b1;
            nhead.dest = od_i[AW*rd_idx +: AW];
            nhead.mc = omc_i[rd_idx];
            nhead.op = oop_i[2*rd_idx +: 2];
            nhead.count = ocnt_i[4*rd_idx +: 4];
            nhead.func = func_i[4*rd_idx +: 4];
            nhead.out_dest = None;
            nmc     = omc_i[rd_idx];
            nmask   = emask_i;
            dst_d   = DSend;
          end
        end
      end
      default: begin                             // DSend
        if (escan_bad) begin                     // no router behind the port: dropped, flagged
          rem_d[bport] = 1'b0;
        end else if (bsome) begin
          if (lany) begin
            launch = 1'b1;
            rem_d[bport] = 1'b0;
            nhead.out_dest = None;
            nhead.count = cnt_i[4*ds_q +: 4];
            nhead.func = func_i[4*ds_q +: 4];
            if (sub_many[bport]) begin           // a subtree: the next router's unit
              nhead.dest = AW'(NumTerms) + AW'(nb_q[bport]);
              nhead.mc = 1'b1;
              // into its input lane (this router's id mod L): copies from
              // different routers reach a unit on different lanes, in parallel
              nhead.ejsel = xnoc_pkg::HeadEjselW'(32'(self_q) % L);
              nmc        = 1'b1;
              nmask      = sub[32'(bport)*MW +: MW];
            end else begin                       // a leaf: plain copy
              nhead.dest = sub_first[32'(bport)*AW +: AW];
              nhead.op = (32'(sub_first[32'(bport)*AW +: AW]) >= NumTerms) ? 2'd1 : 2'd0;
            end
          end
        end else if (lserve == '0) begin         // every copy launched and sent
          free_o = 1'b1;
          dst_d  = DIdle;
        end
      end
    endcase
  end

  // Lane g: one packet at a time (head, meta, mask, data), one flit a
  // cycle while the credits of VC 0 of its router input port last; its
  // pointer reads the slot's data through its own memory port.
  for (genvar g = 0; g < L; g++) begin : g_lane
    lane_state_e   st_q, st_d;
    logic [SB-1:0] slot_q;
    logic [PW-1:0] head_q;
    logic [MW-1:0] mask_q;
    logic          mc_q;
    logic [EB-1:0] n_q, n_d;
    logic          cr_avail, ovalid_q;
    logic [PW-1:0] pay;
    logic [FW-1:0] oflit_q;
    logic [31:0]   dlen;
    logic [NB-1:0] dflits;
    logic          go;
    logic [CW-1:0] unused_cr;
    xnoc_credit_counter #(.Depth(BufDepth), .Vc(0)) u_credit (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .return_i    (out_credit_i[g]),
      .return_vc_i (out_credit_vc_i[g*VB +: VB]),
      .spend_i     (send[g]),
      .avail_o     (cr_avail),
      .count_o     (unused_cr)
    );
    assign go     = launch && lfree == LB'(g);
    assign dlen   = len_i[32*slot_q +: 32];
    assign dflits = NB'((dlen + 32'd7) >> 3);
    assign emem_ra_o[g*MA +: MA] = MA'(32'(slot_q) * MaxFlits + 32'(n_q));

    always_comb begin
      st_d     = st_q;
      n_d      = n_q;
      send[g]  = 1'b0;
      stail[g] = 1'b0;
      pay      = head_q;
      unique case (st_q)
        LIdle: ;
        LHead: begin
          if (cr_avail) begin
            send[g] = 1'b1;
            st_d    = LMeta;
          end
        end
        LMeta: begin
          // the meta flit, xnoc_pkg::meta_t {len, tag, src}
          pay = {dlen, tag_i[16*slot_q +: 16],
                 kind_i[slot_q] ? src_i[16*slot_q +: 16] : 16'(32'(NumTerms) + 32'(self_q))};
          if (cr_avail) begin
            send[g]  = 1'b1;
            n_d      = '0;
            stail[g] = !mc_q && dflits == '0;
            st_d     = mc_q ? LMask : LData;
          end
        end
        LMask: begin
          pay = mask_q[64 * 32'(n_q[MB-1:0]) +: 64];
          if (cr_avail) begin
            send[g] = 1'b1;
            n_d     = n_q + EB'(1);
            if (32'(n_q) == M - 1) begin
              n_d      = '0;
              stail[g] = dflits == '0;
              st_d     = LData;
            end
          end
        end
        default: begin                            // LData
          pay = emem_rd_i[g*PW +: PW];
          if (cr_avail) begin
            send[g]  = 1'b1;
            n_d      = n_q + EB'(1);
            stail[g] = (n_d == EB'(dflits));
          end
        end
      endcase
      if (send[g] && stail[g]) st_d = LIdle;
      if (go) st_d = LHead;
    end

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        st_q     <= LIdle;
        ovalid_q <= 1'b0;
      end else begin
        st_q     <= st_d;
        ovalid_q <= send[g];
      end
    end
    always_ff @(posedge clk_i) begin
      n_q <= n_d;
      if (go) begin                               // a new packet's slot, head and mask
        slot_q <= ds_d;
        head_q <= nhead;
        mask_q <= nmask;
        mc_q   <= nmc;
      end
      if (send[g]) oflit_q <= {VB'(0), stail[g], st_q == LHead, pay};   // on VC 0
    end
    assign lbusy[g]      = (st_q != LIdle);
    assign lout[g]       = ovalid_q;
    assign lslot[g*SB +: SB] = slot_q;
    assign ltail_repl[g] = kind_i[slot_q];
    assign out_valid_o[g] = ovalid_q;
    assign out_flit_o[g*FW +: FW] = oflit_q;
  end

  // the counters: packets whose tail left this cycle
  logic [31:0] coded_q, coded_d, repl_q, repl_d;
  always_comb begin
    coded_d = coded_q;
    repl_d  = repl_q;
    for (int l = 0; l < L; l++) begin
      if (send[l] && stail[l]) begin
        if (ltail_repl[l]) repl_d = repl_d + 32'd1;
        else coded_d = coded_d + 32'd1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      dst_q   <= DIdle;
      rem_q   <= '0;
      coded_q <= '0;
      repl_q  <= '0;
    end else begin
      dst_q   <= dst_d;
      rem_q   <= rem_d;
      coded_q <= coded_d;
      repl_q  <= repl_d;
    end
  end
  always_ff @(posedge clk_i) ds_q <= ds_d;
  assign idle_o  = (dst_q == DIdle) && (lbusy == '0) && (lout == '0);
  assign coded_o = coded_q;
  assign repl_o  = repl_q;
endmodule
