// xnoc_ncu_emit - the output side of the network-coding unit (xnoc_ncu):
// sends ready slots into the router on NumLanes output links, lane l into
// VC 0 of the router's input port NumPorts - 1 + l (lane 0: the unit's own
// port), one flit per cycle per lane while that lane's credits last, then
// frees the slot.
//
//   ENCODE     one packet: head from the slot's out_* fields, a meta flit
//              naming the unit as its source, the mask (MC), the data.
//   REPLICATE  per output port one copy: the addresses of the slot's mask
//              that the routing table sends through that port; one address
//              gets a plain copy, several an MC copy to the unit of the
//              router behind the port with that part of the mask.
//
// Two parts:
//   the dispatcher   takes a ready slot (round robin, xnoc_rr_arb) and
//                    launches its packets on free lanes, one launch a
//                    cycle: the coded packet, or the copies, lowest port
//                    first, each on the lowest free lane (the copy's head,
//                    its part of the mask and the slot are latched into
//                    the lane); it frees the slot once every copy's tail
//                    has left.
//   the lanes        (g_lane) each send one packet at a time - head, meta,
//                    mask, data - one flit a cycle while the credits of its
//                    own router input last (xnoc_credit_counter), reading
//                    the slot's data through its own read port: a lane
//                    whose output is busy holds back no other copy.
//
// NumLanes = 1: the dispatcher looks at one port a cycle (an empty part of
// the mask costs its cycle) and only while the lane is idle, and frees the
// slot in the cycle the last tail leaves.
// NumLanes > 1 (docs/router.md, "Multicast lanes": the router has
// NumLanes - 1 more input ports, terminal-like ports nothing is routed to,
// so its allocators and credits need no change and the crossbar moves up to
// NumLanes flits of the unit a cycle to different outputs): the dispatcher
// skips empty parts of the mask within the cycle and launches copies while
// other lanes send (with NumLanes >= the fanout every copy of a multicast
// starts within fanout cycles); the slot is freed the cycle after no lane
// serves it.  The packets are the same flit for flit; only their order
// across ports and the cycles change.
//
// The routing table (as per-port address masks), the routers behind the
// ports and this router's id come from the configuration rows the routers
// get too (kind 0: routing table; kind 2: unit rows, docs/network-coding.md).
module xnoc_ncu_emit #(
  parameter int NumPorts  = 6,     // router ports, the unit's (the last) included (lanes not)
  parameter int NumLanes  = 1,     // output links into the router (--router lanes=)
  parameter int BufDepth  = 8,     // the router's input buffer per VC (credits)
  parameter int NumAddrs  = 16,
  parameter int NumTerms  = 8,     // terminals: the first unit address
  parameter int NumSlots  = 4,
  parameter int MaxFlits  = 32,
  parameter int CopyLane0 = 0,     // 1: MC copies enter the next unit on its lane 0 (its other lanes stream)
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
  localparam int AW  = xnoc_pkg::HeadDestW,
  localparam bit Seq = (NumLanes == 1)   // one lane: one port a cycle, the slot freed with the last tail
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
  input  logic [4*S-1:0]  func_i,          // the group's combining operator: every packet it sends carries it
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
  output logic            code_bad_o,      // a coded result with nowhere to go (dropped)
  output logic            scan_bad_o,      // a multicast subtree with no router behind the port (dropped)
  output logic [SB-1:0]   bad_slot_o,
  output logic [31:0]     coded_o,         // coded packets sent
  output logic [31:0]     repl_o,          // multicast copies sent
  output logic            idle_o,          // no packet being sent, no flit on the way out
  // the routing table for the streaming combiner (xnoc_ncu_stream): the
  // port towards an address, and this router's id
  input  logic [AW-1:0]   lk_addr_i,
  output logic [PB-1:0]   lk_port_o,
  output logic [11:0]     self_o
);
  localparam logic [AW-1:0] None = {AW{1'b1}};
  // the FSMs (lowRISC style: enum types, explicit encodings)
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

  always_comb begin
    lk_port_o = '0;
    for (int p = 0; p < P; p++) if (32'(lk_addr_i) < NumAddrs && pm_q[p][MWB'(lk_addr_i)]) lk_port_o = PB'(p);
  end
  assign self_o = self_q;

  // ------------------------------------------------------------ dispatcher
  disp_state_e   dst_q, dst_d;
  logic [SB-1:0] ds_q, ds_d;             // the slot being dispatched
  logic [P-1:0]  rem_q, rem_d;           // REPLICATE: ports not served yet

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

  // the lanes, as the dispatcher sees them (driven in g_lane)
  logic [L-1:0]    lbusy, lserve, send, stail, ltail_repl, lout;
  logic [L*SB-1:0] lslot;                // lane l's slot
  logic            launch;               // a packet starts on lane lfree
  logic [LB-1:0]   lfree;                // the lowest free lane
  logic            lany;
  logic [MW-1:0]   nmask;
  logic            nmc;
  xnoc_pkg::head_t nhead;                // the head of the packet launched
  // (the packages' structs live at module scope: yosys 0.23 resolves no
  // struct field declared in a generate block)
  logic [L-1:0]    lmeta_st;             // lane l is at its meta flit
  logic [L*PW-1:0] lmeta;                // ... which is this
  logic [L-1:0]    lotail, lohead;       // lane l's flit on the link: tail, head, payload
  logic [L*PW-1:0] lopay;

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

  // The port served next (bport), whether there is one (bsome), and its part
  // of the slot's mask: whether that holds some address, several, the first.
  // One lane: the lowest port not served yet, looked at only while the lane
  // is idle, empty part or not.  Several: the lowest port not served yet
  // whose part is not empty, every port's part formed at once.
  logic          scan;                   // the dispatcher may serve a port this cycle
  logic          bsome, bany, bmany;
  logic [PB-1:0] bport;
  logic [P-1:0]  bsel;                   // bport, one-hot
  logic [MW-1:0] bsub;
  logic [AW-1:0] bfirst;
  assign scan = (dst_q == DSend) && (!Seq || lany);
  if (Seq) begin : g_scan_one
    always_comb begin
      bsome  = 1'b0;
      bport  = '0;
      bsub   = '0;
      bany   = 1'b0;
      bmany  = 1'b0;
      bfirst = '0;
      bsel   = rem_q & (~rem_q + P'(1));
      bsome  = (rem_q != '0);
      for (int p = 1; p < P; p++) if (bsel[p]) bport = PB'(p);
      if (scan) begin
        bsub = emask_i & pm_q[bport];
        for (int a = NumAddrs - 1; a >= 0; a--) begin
          if (bsub[a]) begin
            bmany  = bany;
            bany   = 1'b1;
            bfirst = AW'(a);
          end
        end
      end
    end
  end else begin : g_scan_all
    logic [P*MW-1:0] sub;                // port p's part at [p*MW +: MW]
    logic [P-1:0]    sub_any, sub_many;
    logic [P*AW-1:0] sub_first;
    always_comb begin
      sub       = '0;
      sub_any   = '0;
      sub_many  = '0;
      sub_first = '0;
      if (scan) begin
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
    always_comb begin
      logic [P-1:0] c;
      c     = rem_q & sub_any;
      bsel  = c & (~c + P'(1));
      bsome = (c != '0);
      bport = '0;
      for (int p = 1; p < P; p++) if (bsel[p]) bport = PB'(p);
    end
    assign bany   = bsome;
    assign bmany  = sub_many[bport];
    assign bsub   = sub[32'(bport)*MW +: MW];
    assign bfirst = sub_first[32'(bport)*AW +: AW];
  end

  // a coded packet needs a destination (and a mask if MC); a REPLICATE
  // subtree needs a router behind the port
  logic ecode_bad, escan_bad;
  assign ecode_bad  = (dst_q == DIdle) && rd_any && !kind_i[rd_idx] &&
                      (od_i[AW*rd_idx +: AW] == None || (omc_i[rd_idx] && !mset_i[rd_idx]));
  assign escan_bad  = scan && bsome && bmany && nb_q[bport] == 12'hFFF;
  assign code_bad_o = ecode_bad;
  assign scan_bad_o = escan_bad;
  assign bad_slot_o = ecode_bad ? rd_idx : ds_q;

  always_comb begin
    logic done;
    done    = 1'b0;
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
            // head with the slot's out_* fields, meta from the unit
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
          rem_d = rem_q & ~bsel;
        end else if (scan && bany) begin
          if (lany) begin
            launch = 1'b1;
            rem_d = rem_q & ~bsel;
            nhead.out_dest = None;
            nhead.count = cnt_i[4*ds_q +: 4];
            nhead.func = func_i[4*ds_q +: 4];
            if (bmany) begin                     // a subtree: the next router's unit
              nhead.dest = AW'(NumTerms) + AW'(nb_q[bport]);
              nhead.mc = 1'b1;
              // into its input lane (this router's id mod L): copies from
              // different routers reach a unit on different lanes, in parallel
              nhead.ejsel = (CopyLane0 != 0) ? '0 : xnoc_pkg::HeadEjselW'(32'(self_q) % L);
              nmc        = 1'b1;
              nmask      = bsub;
            end else begin                       // a leaf: plain copy
              nhead.dest = bfirst;
              nhead.op = (32'(bfirst) >= NumTerms) ? 2'd1 : 2'd0;  // a unit takes it as ENCODE
            end
          end
        end else if (Seq && scan) begin          // one lane: an empty part costs its cycle
          rem_d = rem_q & ~bsel;
        end
        // done: every copy launched and sent; one lane: as the last tail leaves
        if (Seq) done = (rem_d == '0) && !launch && (lserve & ~(send & stail)) == '0;
        else     done = !bsome && lserve == '0;
        if (done) begin
          free_o = 1'b1;
          dst_d  = DIdle;
        end
      end
    endcase
  end

  // ------------------------------------------------------ lanes (g_lane)
  // Lane g: one packet at a time (head, meta, mask, data), one flit a
  // cycle while the credits of VC 0 of its router input port last; its
  // pointer reads the slot's data through its own memory port.
  for (genvar g = 0; g < L; g++) begin : g_lane
    lane_state_e     st_q, st_d, st_n;   // st_n: the next state without a launch
    logic [SB-1:0]   slot_q;
    logic [PW-1:0]   head_q;
    logic [MW-1:0]   mask_q;
    logic            mc_q;
    logic [EB-1:0]   n_q, n_d;
    logic            cr_avail, ovalid_q, go;
    logic [PW-1:0]   pay;
    logic            otail_q, ohead_q;   // the flit sent (out_flit_o: by name, below)
    logic [PW-1:0]   opay_q;
    logic [31:0]     dlen;
    logic [NB-1:0]   dflits;
    logic [CW-1:0]   unused_cr;
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
      st_n     = st_q;
      n_d      = n_q;
      send[g]  = 1'b0;
      stail[g] = 1'b0;
      pay      = head_q;
      unique case (st_q)
        LIdle: ;
        LHead: begin
          if (cr_avail) begin
            send[g] = 1'b1;
            st_n    = LMeta;
          end
        end
        LMeta: begin
          pay = lmeta[g*PW +: PW];
          if (cr_avail) begin
            send[g]  = 1'b1;
            n_d      = '0;
            stail[g] = !mc_q && dflits == '0;
            st_n     = mc_q ? LMask : LData;
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
              st_n     = LData;
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
      if (send[g] && stail[g]) st_n = LIdle;
    end
    // (apart from the lane's block: the dispatcher reads send and stail)
    assign st_d = go ? LHead : st_n;

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
      if (send[g]) begin
        otail_q <= stail[g];
        ohead_q <= (st_q == LHead);
        opay_q  <= pay;
      end
    end
    assign lbusy[g]      = (st_q != LIdle);
    assign lout[g]       = ovalid_q;
    assign lslot[g*SB +: SB] = slot_q;
    assign ltail_repl[g] = kind_i[slot_q];
    assign lmeta_st[g]   = (st_q == LMeta);
    assign lotail[g]     = otail_q;
    assign lohead[g]     = ohead_q;
    assign lopay[g*PW +: PW] = opay_q;
    assign out_valid_o[g] = ovalid_q;
  end

  // the lanes' meta flits {len, tag, source}, formed at the meta flit only
  xnoc_pkg::meta_t meta;
  always_comb begin
    logic [SB-1:0] s;
    lmeta = '0;
    meta  = '0;
    s     = '0;
    for (int l = 0; l < L; l++) begin
      if (lmeta_st[l]) begin
        s        = lslot[l*SB +: SB];
        meta     = '0;
        meta.len = len_i[32*s +: 32];
        meta.tag = tag_i[16*s +: 16];
        meta.src = kind_i[s] ? src_i[16*s +: 16] : 16'(32'(NumTerms) + 32'(self_q));
        lmeta[l*PW +: PW] = meta;
      end
    end
  end
  // the flits on the links, by name: on VC 0
  xnoc_pkg::link_flit_t oflit;
  always_comb begin
    for (int l = 0; l < L; l++) begin
      oflit         = '0;
      oflit.tail    = lotail[l];
      oflit.head    = lohead[l];
      oflit.payload = lopay[l*PW +: PW];
      out_flit_o[l*FW +: FW] = oflit;
    end
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

`ifdef XNOC_ASSERT
  // Named invariants, checked in assertion-enabled simulation builds
  // (XNOC_RTL_ASSERT=1).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      EmitLaunchOnFreeLane: assert (!launch || !lbusy[lfree]);
      EmitFreeNoLaneServes: assert (!free_o || dst_q == DIdle || (lserve & ~(send & stail)) == '0);
    end
  end
`endif
endmodule
