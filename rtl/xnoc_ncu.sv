// xnoc_ncu - the network-coding unit of a router: XOR coding slots and
// multicast replication, attached to the router's last port like a terminal.
//
// Packets addressed to the unit (address NT + router id, docs/network-coding.md)
// are absorbed whole into a slot, then re-emitted:
//   ENCODE     (head op 1) contributions carrying the same meta tag are
//              XOR-accumulated in one slot; once `count` contributions have
//              arrived and XL cycles have passed, the slot emits ONE packet
//              (payload = XOR of all) to the slot's out_dest.
//   REPLICATE  (head op 0, MC 1) the mask of destination addresses is split
//              by the routing table: per output port one copy, plain when the
//              port leads to one address, else an MC copy to the unit of the
//              neighbouring router carrying that port's part of the mask.
// Absorb-then-emit means a multicast never holds one link while it waits for
// another (no replication deadlock); emission waits only for router credits.
//
// Input: one FIFO per VC (D flits, credits returned on pop), one packet at a
// time, round robin over VCs with a head at the front.  Output: VC 0 of the
// router's input port, one flit per cycle while credits last.
//
// A slot that stays incomplete for TMO cycles, and every malformed packet,
// sets a sticky error bit; the first error's slot, tag and counts are kept
// for the harness (debug registers, see dbg_data_o below).
module xnoc_ncu #(
  parameter int P     = 6,     // router ports, this unit's port (P-1) included
  parameter int V     = 2,     // VCs on the link from the router
  parameter int D     = 8,     // input buffer depth per VC
  parameter int NA    = 16,    // addresses: terminals, then one unit per router
  parameter int NTERM = 8,     // terminals (the first unit address)
  parameter int S     = 4,     // coding slots
  parameter int XL    = 1,     // XOR latency: cycles from completion to emission
  parameter int NCMAX = 32,    // longest payload handled, in 64-bit flits
  parameter int TMO   = 100000,// cycles an incomplete slot may wait
  localparam int PW = 64,
  localparam int FW = PW + 5
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // configuration rows (shared with the routers): kind 0 routing table
  // (addr = destination, data = port), kind 2 unit rows (addr 3p+n: nibble n
  // of the router behind port p, 0xFFF = none; 3P+n: this router's id)
  input  logic          cfg_we_i,
  input  logic [1:0]    cfg_kind_i,
  input  logic [xnoc_pkg::CfgAddrW-1:0] cfg_addr_i,
  input  logic [xnoc_pkg::CfgDataW-1:0] cfg_data_i,
  // from the router's output port P-1
  input  logic          in_valid_i,
  input  logic [FW-1:0] in_flit_i,
  output logic          in_credit_o,
  output logic [2:0]    in_credit_vc_o,
  // into the router's input port P-1
  output logic          out_valid_o,
  output logic [FW-1:0] out_flit_o,
  input  logic          out_credit_i,
  input  logic [2:0]    out_credit_vc_i,
  // counters and status
  input  logic [5:0]    dbg_addr_i,
  output logic [31:0]   dbg_data_o,
  output logic          err_o
);
  /* verilator no_inline_module */

  localparam int M   = (NA + 63) / 64;            // mask flits
  localparam int MW  = M * 64;
  localparam int SB  = (S > 1) ? $clog2(S) : 1;
  localparam int VI  = (V > 1) ? $clog2(V) : 1;
  localparam int PB  = (P > 1) ? $clog2(P) : 1;
  localparam int NB  = $clog2(NCMAX + 1);         // data-flit counts
  localparam int MB  = (M > 1) ? $clog2(M) : 1;
  localparam int MWB = $clog2(MW);
  localparam int EB  = (NB > MB + 1) ? NB : MB + 1;  // flit counters (mask or data)
  localparam int CW  = $clog2(D + 1);
  localparam int MA  = (S * NCMAX > 1) ? $clog2(S * NCMAX) : 1;
  localparam int TB  = $clog2(TMO + 1);
  localparam int XB  = $clog2(XL + 1);
  localparam int AW  = xnoc_pkg::HeadDestW;       // head addresses
  localparam logic [AW-1:0] None = '1;            // OUT_DEST: not set

  // slot states
  localparam logic [1:0] SFree = 2'd0, SAcc = 2'd1, SWait = 2'd2, SReady = 2'd3;
  // input states
  localparam logic [2:0] IHead = 3'd0, IMeta = 3'd1, IMask = 3'd2, IData = 3'd3, IDrop = 3'd4;
  // emitter states
  localparam logic [2:0] EIdle = 3'd0, EScan = 3'd1, EHead = 3'd2, EMeta = 3'd3, EMask = 3'd4,
                         EData = 3'd5;
  // error bits
  localparam int ErrPacket = 0, ErrLong = 1, ErrLen = 2, ErrConflict = 3, ErrTimeout = 4,
                 ErrDest = 5, ErrMask = 6, ErrOverflow = 7;

  // ---------------------------------------------------------------- config
  logic [MW-1:0] pm_q [P];    // addresses the routing table sends to port p
  logic [11:0]   nb_q [P];    // router behind port p, 0xFFF = none
  logic [11:0]   self_q;      // this router's id
  always_ff @(posedge clk_i) begin
    if (cfg_we_i && cfg_kind_i == 2'd0 && 32'(cfg_addr_i) < NA) begin
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

  // ============================================================ input side
  logic [V-1:0]  iv_empty, iv_pop, iv_ovf;
  logic [PW+1:0] iv_front [V];
  for (genvar v = 0; v < V; v++) begin : g_in
    logic [CW-1:0] unused_count;
    xnoc_fifo #(.W(PW + 2), .D(D)) u_fifo (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .push_i     (in_valid_i && (in_flit_i[PW+4:PW+2] == 3'(v))),
      .data_i     (in_flit_i[PW+1:0]),
      .pop_i      (iv_pop[v]),
      .data_o     (iv_front[v]),
      .empty_o    (iv_empty[v]),
      .count_o    (unused_count),
      .overflow_o (iv_ovf[v])
    );
  end

  // a new packet: round robin over VCs with a flit at the front
  logic          pick_any;
  logic [V-1:0]  pick_gnt;
  logic [VI-1:0] pick_idx;
  logic [2:0]    ist_q, ist_d;
  logic [VI-1:0] cur_q, cur_d;
  xnoc_rr_arb #(.N(V)) u_pick (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (~iv_empty),
    .upd_i  (ist_q == IHead),
    .any_o  (pick_any),
    .gnt_o  (pick_gnt),
    .idx_o  (pick_idx)
  );
  logic unused_gnt;
  assign unused_gnt = ^pick_gnt;

  logic [VI-1:0] vsel;         // VC whose front flit is handled this cycle
  logic          fv, fhead, ftail;
  logic [PW-1:0] fpay;
  assign vsel  = (ist_q == IHead) ? pick_idx : cur_q;
  assign fv    = (ist_q == IHead) ? pick_any : !iv_empty[cur_q];
  assign fhead = iv_front[vsel][PW];
  assign ftail = iv_front[vsel][PW+1];
  assign fpay  = iv_front[vsel][PW-1:0];

  // the packet being absorbed
  logic          h_mc_q, h_mc_d;
  logic [1:0]    h_op_q, h_op_d;
  logic [3:0]    h_cnt_q, h_cnt_d;
  logic [AW-1:0] h_od_q, h_od_d;
  logic          h_omc_q, h_omc_d;
  logic [1:0]    h_oop_q, h_oop_d;
  logic [3:0]    h_ocnt_q, h_ocnt_d;
  logic [SB-1:0] islot_q, islot_d;
  logic [EB-1:0] n_q, n_d;          // flits done in the current section
  logic [NB-1:0] nd_q, nd_d;        // data flits of the packet
  logic          mwr_q, mwr_d;      // mask flits go into the slot
  logic          xr_q, xr_d;        // the slot already holds data: XOR

  // per-slot state, exported for the FSMs
  logic [1:0]    st      [S];
  logic          kind    [S];       // 0 ENCODE, 1 REPLICATE
  logic [15:0]   stag    [S];
  logic [31:0]   slen    [S];
  logic [15:0]   ssrc    [S];
  logic [3:0]    sgot    [S];
  logic [3:0]    sneed   [S];
  logic [3:0]    scnt    [S];       // count field carried by the packet (REPLICATE copies)
  logic          soset   [S];
  logic [AW-1:0] sod     [S];
  logic          somc    [S];
  logic [1:0]    soop    [S];
  logic [3:0]    socnt   [S];
  logic          smset   [S];
  logic [S-1:0]  ready_v, free_v, hit_v, busy_v;

  // input-side requests to the slots
  logic          u_alloc, u_merge, u_fin;
  logic          u_kind;
  logic [15:0]   u_tag, u_src;
  logic [31:0]   u_len;
  logic          u_mset;
  // emitter frees a slot
  logic          e_free;
  logic [SB-1:0] e_slot;
  // slot data and masks (RAM style writes)
  logic          mem_we, mask_we;
  logic [MA-1:0] mem_wa;
  logic [PW-1:0] mem_wd;
  logic [MB-1:0] mask_wi;
  logic [PW-1:0] mem_q  [S * NCMAX];
  logic [MW-1:0] mask_q [S];
  // errors
  logic [7:0]    err_q, err_d, ev;     // ev: errors raised this cycle
  logic [31:0]   einfo_q, einfo_d;
  logic [SB-1:0] ev_slot, to_slot;
  logic [S-1:0]  to_v;                 // slots timing out this cycle
  logic [31:0]   xor_q, xor_d, pin_q, pin_d;

  // lowest free slot, lowest slot accumulating this tag
  logic          have_free, have_hit;
  logic [SB-1:0] free_idx, hit_idx;
  always_comb begin
    have_free = 1'b0;
    have_hit  = 1'b0;
    free_idx  = '0;
    hit_idx   = '0;
    for (int s = S - 1; s >= 0; s--) begin
      if (free_v[s]) begin have_free = 1'b1; free_idx = SB'(s); end
      if (hit_v[s])  begin have_hit  = 1'b1; hit_idx  = SB'(s); end
    end
  end

  always_comb begin
    logic [31:0]   len;
    logic [NB-1:0] nd;
    logic [SB-1:0] s;
    logic          ok;
    ist_d    = ist_q;
    cur_d    = cur_q;
    h_mc_d   = h_mc_q;
    h_op_d   = h_op_q;
    h_cnt_d  = h_cnt_q;
    h_od_d   = h_od_q;
    h_omc_d  = h_omc_q;
    h_oop_d  = h_oop_q;
    h_ocnt_d = h_ocnt_q;
    islot_d  = islot_q;
    n_d      = n_q;
    nd_d     = nd_q;
    mwr_d    = mwr_q;
    xr_d     = xr_q;
    iv_pop   = '0;
    u_alloc  = 1'b0;
    u_merge  = 1'b0;
    u_fin    = 1'b0;
    u_kind   = 1'b0;
    u_tag    = fpay[xnoc_pkg::MetaTagLsb +: xnoc_pkg::MetaTagW];
    u_src    = fpay[xnoc_pkg::MetaSrcLsb +: xnoc_pkg::MetaSrcW];
    u_len    = fpay[xnoc_pkg::MetaLenLsb +: xnoc_pkg::MetaLenW];
    u_mset   = 1'b0;
    mem_we   = 1'b0;
    mem_wa   = MA'(32'(islot_q) * NCMAX + 32'(n_q));
    mem_wd   = fpay;
    mask_we  = 1'b0;
    mask_wi  = MB'(n_q);
    ev       = '0;
    ev_slot  = islot_q;
    len      = fpay[xnoc_pkg::MetaLenLsb +: xnoc_pkg::MetaLenW];
    nd       = '0;
    s        = '0;
    ok       = 1'b1;
    if (fv) begin
      unique case (ist_q)
        IHead: begin
          iv_pop[vsel] = 1'b1;
          cur_d        = vsel;
          h_mc_d   = fpay[xnoc_pkg::HeadMcBit];
          h_op_d   = fpay[xnoc_pkg::HeadOpLsb +: xnoc_pkg::HeadOpW];
          h_cnt_d  = fpay[xnoc_pkg::HeadCountLsb +: xnoc_pkg::HeadCountW];
          h_od_d   = fpay[xnoc_pkg::HeadOutDestLsb +: xnoc_pkg::HeadOutDestW];
          h_omc_d  = fpay[xnoc_pkg::HeadOutMcBit];
          h_oop_d  = fpay[xnoc_pkg::HeadOutOpLsb +: xnoc_pkg::HeadOutOpW];
          h_ocnt_d = fpay[xnoc_pkg::HeadOutCountLsb +: xnoc_pkg::HeadOutCountW];
          // ENCODE (with or without a mask) or REPLICATE with a mask
          if (!fhead || ftail || fpay[xnoc_pkg::HeadSrBit] || !(fpay[xnoc_pkg::HeadOpLsb +: xnoc_pkg::HeadOpW] == 2'd1 ||
                                                  (fpay[xnoc_pkg::HeadOpLsb +: xnoc_pkg::HeadOpW] == 2'd0 && fpay[xnoc_pkg::HeadMcBit]))) begin
            ev[ErrPacket] = 1'b1;
            ist_d = ftail ? IHead : IDrop;
          end else begin
            ist_d = IMeta;
          end
        end
        IMeta: begin
          // lengths above NCMAX flits cannot be held: drop, flag
          if (len > 32'(NCMAX * 8)) begin
            ev[ErrLong] = 1'b1;
            iv_pop[cur_q] = 1'b1;
            ist_d = ftail ? IHead : IDrop;
          end else begin
            nd = NB'((len + 32'd7) >> 3);
            if (h_op_q == 2'd1 && have_hit) begin
              s = hit_idx;
              if (slen[s] != len) begin ev[ErrLen] = 1'b1; ok = 1'b0; end
              if (h_cnt_q != 4'd0 && sneed[s] != 4'd0 && sneed[s] != h_cnt_q) begin
                ev[ErrConflict] = 1'b1; ok = 1'b0;
              end
              if (h_od_q != None && soset[s] &&
                  (sod[s] != h_od_q || somc[s] != h_omc_q || soop[s] != h_oop_q || socnt[s] != h_ocnt_q)) begin
                ev[ErrConflict] = 1'b1; ok = 1'b0;
              end
              ev_slot = s;
              iv_pop[cur_q] = 1'b1;
              if (!ok) begin
                ist_d = ftail ? IHead : IDrop;
              end else begin
                u_merge = 1'b1;
                xr_d    = (sgot[s] != 4'd0);
                mwr_d   = h_mc_q && !smset[s];
              end
            end else if (have_free) begin
              s       = free_idx;
              iv_pop[cur_q] = 1'b1;
              u_alloc = 1'b1;
              u_kind  = (h_op_q == 2'd0);
              xr_d    = 1'b0;
              mwr_d   = h_mc_q;
            end else begin
              ok = 1'b0;                               // every slot busy: wait
            end
            if (u_alloc || u_merge) begin
              u_mset  = mwr_d;
              islot_d = s;
              nd_d    = nd;
              n_d     = '0;
              if (h_mc_q) begin
                ist_d = IMask;
                if (ftail) begin ev[ErrPacket] = 1'b1; ist_d = IHead; end
              end else if (nd != '0) begin
                ist_d = IData;
                if (ftail) begin ev[ErrPacket] = 1'b1; ist_d = IHead; end
              end else begin
                u_fin = 1'b1;                          // zero-length contribution
                ist_d = IHead;
                if (!ftail) begin ev[ErrPacket] = 1'b1; ist_d = IDrop; end
              end
            end
          end
        end
        IMask: begin
          iv_pop[cur_q] = 1'b1;
          mask_we = mwr_q;
          if (32'(n_q) == M - 1 && NA % 64 != 0 && (fpay >> (NA % 64)) != '0) ev[ErrMask] = 1'b1;
          n_d = n_q + EB'(1);
          if (32'(n_q) == M - 1) begin
            n_d = '0;
            if (nd_q != '0) begin
              ist_d = IData;
              if (ftail) begin ev[ErrPacket] = 1'b1; u_fin = 1'b1; ist_d = IHead; end
            end else begin
              u_fin = 1'b1;
              ist_d = IHead;
              if (!ftail) begin ev[ErrPacket] = 1'b1; ist_d = IDrop; end
            end
          end else if (ftail) begin
            ev[ErrPacket] = 1'b1;
            u_fin = 1'b1;
            ist_d = IHead;
          end
        end
        IData: begin
          iv_pop[cur_q] = 1'b1;
          mem_we = 1'b1;
          if (xr_q) mem_wd = mem_q[mem_wa] ^ fpay;
          n_d    = n_q + EB'(1);
          if (n_d == EB'(nd_q) || ftail) begin
            u_fin = 1'b1;
            ist_d = IHead;
            if (n_d != EB'(nd_q) || !ftail) ev[ErrPacket] = 1'b1;
            if (!ftail) ist_d = IDrop;
          end
        end
        default: begin                                 // IDrop: to the tail
          iv_pop[cur_q] = 1'b1;
          if (ftail) ist_d = IHead;
        end
      endcase
    end
  end

  // ============================================================== slots
  for (genvar g = 0; g < S; g++) begin : g_slot
    logic [1:0]    st_q, st_d;
    logic          kind_q;
    logic [15:0]   tag_q, src_q;
    logic [31:0]   len_q;
    logic [3:0]    got_q, need_q, cnt_q;
    logic          oset_q, omc_q, mset_q;
    logic [AW-1:0] od_q;
    logic [1:0]    oop_q;
    logic [3:0]    ocnt_q;
    logic [TB-1:0] age_q, age_d;
    logic [XB-1:0] tmr_q, tmr_d;
    logic          upd, fin, done;
    assign upd  = (u_alloc || u_merge) && (islot_d == SB'(g));
    assign fin  = u_fin && (islot_q == SB'(g));
    assign done = fin && need_q != 4'd0 && got_q + 4'd1 >= need_q;

    // state, age and XOR-latency timer; everything else is written only
    // when a packet updates the slot (cheap when the unit is idle)
    always_comb begin
      st_d    = st_q;
      age_d   = age_q;
      tmr_d   = tmr_q;
      to_v[g] = 1'b0;
      if (st_q != SFree) begin
        // an incomplete slot ages; at TMO it is reported once
        if (st_q == SAcc && age_q != TB'(TMO)) begin
          age_d   = age_q + TB'(1);
          to_v[g] = (age_d == TB'(TMO));
        end
        if (st_q == SWait) begin
          if (32'(tmr_q) > 1) tmr_d = tmr_q - XB'(1);
          else st_d = SReady;
        end
        // coding groups pay the XOR latency; a multicast is ready at once
        if (done) begin
          st_d  = kind_q ? SReady : SWait;
          tmr_d = XB'(XL);
        end
        if (e_free && e_slot == SB'(g)) st_d = SFree;
      end
      if (upd && u_alloc) begin
        st_d  = SAcc;
        age_d = '0;
      end
    end

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        st_q  <= SFree;
        age_q <= '0;
        tmr_q <= '0;
      end else begin
        st_q  <= st_d;
        age_q <= age_d;
        tmr_q <= tmr_d;
      end
    end
    // the group: set by the first packet, completed by the others
    always_ff @(posedge clk_i) begin
      if (upd) begin
        if (u_alloc) begin
          kind_q <= u_kind;
          tag_q  <= u_tag;
          src_q  <= u_src;
          len_q  <= u_len;
          got_q  <= '0;
          need_q <= u_kind ? 4'd1 : h_cnt_q;
          cnt_q  <= h_cnt_q;
          oset_q <= 1'b0;
          od_q   <= None;
          omc_q  <= 1'b0;
          oop_q  <= '0;
          ocnt_q <= '0;
          mset_q <= u_mset;
        end else begin
          if (h_cnt_q != 4'd0) need_q <= h_cnt_q;
          if (u_mset) mset_q <= 1'b1;
        end
        if (!u_kind && h_od_q != None) begin
          oset_q <= 1'b1;
          od_q   <= h_od_q;
          omc_q  <= h_omc_q;
          oop_q  <= h_oop_q;
          ocnt_q <= h_ocnt_q;
        end
      end
      if (fin) got_q <= got_q + 4'd1;
    end

    assign st[g]    = st_q;
    assign kind[g]  = kind_q;
    assign stag[g]  = tag_q;
    assign slen[g]  = len_q;
    assign ssrc[g]  = src_q;
    assign sgot[g]  = got_q;
    assign sneed[g] = need_q;
    assign scnt[g]  = cnt_q;
    assign soset[g] = oset_q;
    assign sod[g]   = od_q;
    assign somc[g]  = omc_q;
    assign soop[g]  = oop_q;
    assign socnt[g] = ocnt_q;
    assign smset[g] = mset_q;
    assign ready_v[g] = (st_q == SReady);
    assign free_v[g]  = (st_q == SFree);
    assign busy_v[g]  = (st_q != SFree);
    assign hit_v[g]   = (st_q == SAcc) && !kind_q && (tag_q == fpay[xnoc_pkg::MetaTagLsb +: xnoc_pkg::MetaTagW]);
  end

  always_ff @(posedge clk_i) begin
    if (mem_we) mem_q[mem_wa] <= mem_wd;
    if (mask_we) mask_q[islot_q][64 * 32'(mask_wi) +: 64] <= fpay;
  end

  // ================================================================ emitter
  logic [2:0]    est_q, est_d;
  logic [SB-1:0] es_q, es_d;             // slot being emitted
  logic [PB-1:0] ep_q, ep_d;             // REPLICATE: port being served
  logic [MW-1:0] emask_q, emask_d;       // mask flits of the packet being sent
  logic [PW-1:0] ehead_q, ehead_d;
  logic          emc_q, emc_d;
  logic [EB-1:0] en_q, en_d;
  logic [CW-1:0] cr_q, cr_d;             // credits for VC 0 of the router input
  logic          send, stail;
  logic [PW-1:0] spay;
  logic          ovalid_q;
  logic [FW-1:0] oflit_q;
  logic [31:0]   coded_q, coded_d, repl_q, repl_d;

  logic          rd_any;
  logic [S-1:0]  rd_gnt;
  logic [SB-1:0] rd_idx;
  xnoc_rr_arb #(.N(S)) u_ready (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (ready_v),
    .upd_i  (est_q == EIdle),
    .any_o  (rd_any),
    .gnt_o  (rd_gnt),
    .idx_o  (rd_idx)
  );
  logic unused_rd;
  assign unused_rd = ^rd_gnt;

  // REPLICATE: the addresses of the slot's mask that leave through port ep_q
  logic [MW-1:0] sub;
  logic          sub_any, sub_many;
  logic [AW-1:0] sub_first;
  always_comb begin
    sub       = '0;
    sub_any   = 1'b0;
    sub_many  = 1'b0;
    sub_first = '0;
    if (est_q == EScan) begin
      sub = mask_q[es_q] & pm_q[ep_q];
      for (int a = NA - 1; a >= 0; a--) begin
        if (sub[a]) begin
          sub_many  = sub_any;
          sub_any   = 1'b1;
          sub_first = AW'(a);
        end
      end
    end
  end

  // emission checks: a coded packet needs a destination (and a mask if MC);
  // a REPLICATE subtree needs a router behind the port
  logic ecode_bad, escan_bad;
  assign ecode_bad = (est_q == EIdle) && rd_any && !kind[rd_idx] &&
                     (sod[rd_idx] == None || (somc[rd_idx] && !smset[rd_idx]));
  assign escan_bad = (est_q == EScan) && sub_many && nb_q[ep_q] == 12'hFFF;

  logic [31:0] data_len;
  logic [NB-1:0] data_flits;
  assign data_len   = slen[es_q];
  assign data_flits = NB'((data_len + 32'd7) >> 3);

  always_comb begin
    logic last_port;
    est_d   = est_q;
    es_d    = es_q;
    ep_d    = ep_q;
    emask_d = emask_q;
    ehead_d = ehead_q;
    emc_d   = emc_q;
    en_d    = en_q;
    e_free  = 1'b0;
    e_slot  = es_q;
    send    = 1'b0;
    stail   = 1'b0;
    spay    = ehead_q;
    coded_d = coded_q;
    repl_d  = repl_q;
    last_port = (32'(ep_q) == P - 1);
    unique case (est_q)
      EIdle: begin
        if (rd_any) begin
          es_d = rd_idx;
          ep_d = '0;
          if (kind[rd_idx]) begin
            est_d = EScan;
          end else if (ecode_bad) begin           // nowhere to send it: dropped, flagged
            e_free = 1'b1;
            e_slot = rd_idx;
          end else begin
            // the coded packet: head with the slot's out_* fields, meta from the unit
            ehead_d = '0;
            ehead_d[xnoc_pkg::HeadDestLsb +: xnoc_pkg::HeadDestW] = sod[rd_idx];
            ehead_d[xnoc_pkg::HeadMcBit] = somc[rd_idx];
            ehead_d[xnoc_pkg::HeadOpLsb +: xnoc_pkg::HeadOpW] = soop[rd_idx];
            ehead_d[xnoc_pkg::HeadCountLsb +: xnoc_pkg::HeadCountW] = socnt[rd_idx];
            ehead_d[xnoc_pkg::HeadOutDestLsb +: xnoc_pkg::HeadOutDestW] = None;
            emc_d   = somc[rd_idx];
            emask_d = mask_q[rd_idx];
            est_d   = EHead;
          end
        end
      end
      EScan: begin
        if (escan_bad) begin                     // no router behind the port: dropped, flagged
          if (last_port) begin
            e_free = 1'b1;
            est_d  = EIdle;
          end else begin
            ep_d = ep_q + PB'(1);
          end
        end else if (sub_any) begin
          ehead_d = '0;
          ehead_d[xnoc_pkg::HeadOutDestLsb +: xnoc_pkg::HeadOutDestW] = None;
          ehead_d[xnoc_pkg::HeadCountLsb +: xnoc_pkg::HeadCountW] = scnt[es_q];
          if (sub_many) begin                   // a subtree: the next router's unit
            ehead_d[xnoc_pkg::HeadDestLsb +: xnoc_pkg::HeadDestW] = AW'(NTERM) + AW'(nb_q[ep_q]);
            ehead_d[xnoc_pkg::HeadMcBit] = 1'b1;
            emc_d          = 1'b1;
            emask_d        = sub;
          end else begin                        // a leaf: plain copy
            ehead_d[xnoc_pkg::HeadDestLsb +: xnoc_pkg::HeadDestW] = sub_first;
            ehead_d[xnoc_pkg::HeadOpLsb +: xnoc_pkg::HeadOpW] = (32'(sub_first) >= NTERM) ? 2'd1 : 2'd0;  // a unit takes it as ENCODE
            emc_d          = 1'b0;
          end
          est_d = EHead;
        end else if (last_port) begin
          e_free = 1'b1;
          est_d  = EIdle;
        end else begin
          ep_d = ep_q + PB'(1);
        end
      end
      EHead: begin
        spay = ehead_q;
        if (cr_q != '0) begin
          send  = 1'b1;
          est_d = EMeta;
        end
      end
      EMeta: begin
        spay = '0;                                // the meta flit: rtl/xnoc_pkg.sv
        spay[xnoc_pkg::MetaLenLsb +: xnoc_pkg::MetaLenW] = slen[es_q];
        spay[xnoc_pkg::MetaTagLsb +: xnoc_pkg::MetaTagW] = stag[es_q];
        spay[xnoc_pkg::MetaSrcLsb +: xnoc_pkg::MetaSrcW] = kind[es_q] ? ssrc[es_q] : 16'(32'(NTERM) + 32'(self_q));
        if (cr_q != '0) begin
          send  = 1'b1;
          en_d  = '0;
          stail = !emc_q && data_flits == '0;
          est_d = emc_q ? EMask : EData;
        end
      end
      EMask: begin
        spay = emask_q[64 * 32'(en_q[MB-1:0]) +: 64];
        if (cr_q != '0) begin
          send = 1'b1;
          en_d = en_q + EB'(1);
          if (32'(en_q) == M - 1) begin
            en_d  = '0;
            stail = data_flits == '0;
            est_d = EData;
          end
        end
      end
      default: begin                            // EData
        spay = mem_q[MA'(32'(es_q) * NCMAX + 32'(en_q))];
        if (cr_q != '0) begin
          send  = 1'b1;
          en_d  = en_q + EB'(1);
          stail = (en_d == EB'(data_flits));
        end
      end
    endcase
    // after the tail: the next port of a REPLICATE, or the slot is done
    if (send && stail) begin
      if (kind[es_q]) begin
        repl_d = repl_q + 32'd1;
        if (last_port) begin
          e_free = 1'b1;
          est_d  = EIdle;
        end else begin
          ep_d  = ep_q + PB'(1);
          est_d = EScan;
        end
      end else begin
        coded_d = coded_q + 32'd1;
        e_free  = 1'b1;
        est_d   = EIdle;
      end
    end
  end


  always_comb begin
    cr_d = cr_q;
    if (out_credit_i && out_credit_vc_i == 3'd0 && cr_q != CW'(D)) cr_d = cr_d + CW'(1);
    if (send) cr_d = cr_d - CW'(1);
  end

  // ============================================================ registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ist_q    <= IHead;
      cur_q    <= '0;
      est_q    <= EIdle;
      cr_q     <= CW'(D);
      ovalid_q <= 1'b0;
      coded_q  <= '0;
      repl_q   <= '0;
      xor_q    <= '0;
      pin_q    <= '0;
      err_q    <= '0;
      einfo_q  <= '0;
    end else begin
      ist_q    <= ist_d;
      cur_q    <= cur_d;
      est_q    <= est_d;
      cr_q     <= cr_d;
      ovalid_q <= send;
      coded_q  <= coded_d;
      repl_q   <= repl_d;
      xor_q    <= xor_d;
      pin_q    <= pin_d;
      err_q    <= err_d;
      einfo_q  <= einfo_d;
    end
  end
  always_ff @(posedge clk_i) begin
    h_mc_q   <= h_mc_d;
    h_op_q   <= h_op_d;
    h_cnt_q  <= h_cnt_d;
    h_od_q   <= h_od_d;
    h_omc_q  <= h_omc_d;
    h_oop_q  <= h_oop_d;
    h_ocnt_q <= h_ocnt_d;
    islot_q  <= islot_d;
    n_q      <= n_d;
    nd_q     <= nd_d;
    mwr_q    <= mwr_d;
    xr_q     <= xr_d;
    es_q     <= es_d;
    ep_q     <= ep_d;
    en_q     <= en_d;
    if (est_q == EIdle || est_q == EScan) begin   // a new packet's head and mask
      emask_q <= emask_d;
      ehead_q <= ehead_d;
      emc_q   <= emc_d;
    end
    if (send) oflit_q <= {3'd0, stail, est_q == EHead, spay};
  end
  assign out_valid_o = ovalid_q;
  assign out_flit_o  = oflit_q;

  // credits for the input FIFOs, one cycle after the pop (like the router)
  logic          icr_q;
  logic [VI-1:0] icr_vc_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      icr_q    <= 1'b0;
      icr_vc_q <= '0;
    end else begin
      icr_q    <= (iv_pop != '0);
      icr_vc_q <= (ist_q == IHead) ? pick_idx : cur_q;
    end
  end
  assign in_credit_o    = icr_q;
  assign in_credit_vc_o = 3'(icr_vc_q);

  // ====================================================== counters, errors
  // xor_ops: data flits XORed into a slot that already held a contribution
  logic [31:0] busy_cyc_q;
  logic [SB:0] inuse, inuse_max_q;
  always_comb begin
    inuse = '0;
    for (int s = 0; s < S; s++) inuse = inuse + (SB + 1)'(busy_v[s]);
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_cyc_q  <= '0;
      inuse_max_q <= '0;
    end else begin
      busy_cyc_q <= busy_cyc_q + 32'(inuse);
      if (inuse > inuse_max_q) inuse_max_q <= inuse;
    end
  end

  always_comb begin
    logic [7:0]    raised;
    logic [SB-1:0] at;
    logic [3:0]    code;
    xor_d   = xor_q + ((mem_we && xr_q) ? 32'd1 : 32'd0);
    pin_d   = pin_q + (u_fin ? 32'd1 : 32'd0);
    raised  = ev;
    raised[ErrOverflow] = (iv_ovf != '0);
    code    = '0;
    at      = ev_slot;
    to_slot = '0;
    if (to_v != '0) begin
      for (int s = S - 1; s >= 0; s--) if (to_v[s]) to_slot = SB'(s);
      raised[ErrTimeout] = 1'b1;
      if (ev == '0) at = to_slot;
    end
    if (ecode_bad || escan_bad) begin
      raised[ErrDest] = 1'b1;
      if (ev == '0 && to_v == '0) at = ecode_bad ? rd_idx : es_q;
    end
    err_d   = err_q | raised;
    einfo_d = einfo_q;
    // the first error: code (lowest bit raised), slot, its counts and tag
    if (err_q == '0 && raised != '0) begin
      for (int b = 7; b >= 0; b--) if (raised[b]) code = 4'(b);
      einfo_d = {4'(at), sneed[at], sgot[at], code, stag[at]};
    end
  end
  assign err_o = (err_q != '0);

`ifdef XNOC_ASSERT
  // Named invariants, checked in assertion-enabled simulation builds
  // (XNOC_RTL_ASSERT=1).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      OnePopPerCycle: assert ((iv_pop & (iv_pop - V'(1))) == '0);
      UnitCreditNeverAboveDepth: assert (cr_q <= CW'(D));
      SendOnlyWithCredit: assert (!send || cr_q != '0);
      SlotsInUseBounded: assert (32'(inuse) <= S);
    end
  end
`endif

  always_comb begin
    dbg_data_o = '0;
    unique case (dbg_addr_i)
      6'd0: dbg_data_o = coded_q;
      6'd1: dbg_data_o = xor_q;
      6'd2: dbg_data_o = repl_q;
      6'd3: dbg_data_o = 32'(inuse_max_q);
      6'd4: dbg_data_o = busy_cyc_q;
      6'd5: dbg_data_o = 32'(err_q);
      6'd6: dbg_data_o = einfo_q;
      6'd7: dbg_data_o = 32'(inuse);
      6'd8: dbg_data_o = pin_q;
      6'd9: dbg_data_o = 32'(S);
      default: begin
        // 16 + s: slot s = {tag, need, got, kind, state}
        if (dbg_addr_i >= 6'd16 && 32'(dbg_addr_i) < 16 + S)
          dbg_data_o = {stag[dbg_addr_i[SB-1:0]], 4'd0, sneed[dbg_addr_i[SB-1:0]], sgot[dbg_addr_i[SB-1:0]],
                        1'b0, kind[dbg_addr_i[SB-1:0]], st[dbg_addr_i[SB-1:0]]};
      end
    endcase
  end
endmodule
