// xnoc_ncu_absorb - the input side of the network-coding unit (xnoc_ncu):
// one FIFO per VC from the router's unit port, one packet at a time (round
// robin over VCs with a head at the front), absorbed whole into a slot.
//
// Head: checked (ENCODE, or REPLICATE with a mask), its fields kept.  Meta:
// the length checked, then the packet joins the slot accumulating its tag
// (ENCODE) or takes a free slot; with every slot busy it waits at the
// front.  Mask flits go into the slot's mask, data flits into its memory,
// combined with what the slot holds by the group's operator (head FUNC:
// XOR, AND, OR, 32/64-bit wrapping add, signed/unsigned 32-bit min/max;
// with NcuOps = 0 only XOR, the unit as it was before the operators).  The last flit completes the
// contribution (u_fin_o).  Malformed packets are dropped to their tail and
// raise an error bit (ev_o).
module xnoc_ncu_absorb #(
  parameter int NumVcs   = 2,     // VCs on the link from the router
  parameter int BufDepth = 8,     // FIFO depth per VC
  parameter int NumAddrs = 16,    // head addresses (the mask's bits)
  parameter int NumSlots = 4,
  parameter int MaxFlits = 32,    // longest payload, 64-bit flits
  parameter int NcuOps   = 1,     // 1: every combining operator; 0: XOR only (FUNC != 0 is malformed)
  localparam int PW  = xnoc_pkg::LinkPayloadW,
  localparam int FW  = xnoc_pkg::LinkFlitW,
  localparam int VB  = xnoc_pkg::LinkVcW,
  localparam int M   = (NumAddrs + 63) / 64,                       // mask flits
  localparam int SB  = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  localparam int VI  = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  localparam int NB  = $clog2(MaxFlits + 1),                       // data-flit counts
  localparam int MB  = (M > 1) ? $clog2(M) : 1,
  localparam int EB  = (NB > MB + 1) ? NB : MB + 1,                // flit counters
  localparam int MA  = (NumSlots * MaxFlits > 1) ? $clog2(NumSlots * MaxFlits) : 1,
  localparam int CW  = $clog2(BufDepth + 1),
  localparam int AW  = xnoc_pkg::HeadDestW
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // from the router's output port
  input  logic          in_valid_i,
  input  logic [FW-1:0] in_flit_i,
  output logic          in_credit_o,
  output logic [VB-1:0] in_credit_vc_o,
  // the slots as the flit at the front finds them
  output logic [15:0]   meta_tag_o,      // its tag field (the slots look for a group with it)
  input  logic          have_free_i,
  input  logic [SB-1:0] free_idx_i,
  input  logic          have_hit_i,
  input  logic [SB-1:0] hit_idx_i,
  input  logic [31:0]   hit_len_i,
  input  logic [3:0]    hit_need_i,
  input  logic [3:0]    hit_got_i,
  input  logic          hit_oset_i,
  input  logic [AW-1:0] hit_od_i,
  input  logic          hit_omc_i,
  input  logic [1:0]    hit_oop_i,
  input  logic [3:0]    hit_ocnt_i,
  input  logic [3:0]    hit_func_i,
  input  logic          hit_mset_i,
  // requests to the slots: a new group, a contribution to one, its end
  output logic          alloc_o,
  output logic          merge_o,
  output logic          fin_o,
  output logic [SB-1:0] upd_slot_o,      // the slot of alloc_o / merge_o
  output logic [SB-1:0] fin_slot_o,      // the slot being filled (fin_o, mask writes)
  output logic          kind_o,          // 1: REPLICATE
  output logic          rep_o,           // the packet under way is a REPLICATE (its head's op, before alloc_o)
  output logic [15:0]   tag_o,
  output logic [15:0]   src_o,
  output logic [31:0]   len_o,
  output logic          mset_o,          // the packet's mask goes into the slot
  output logic [3:0]    h_cnt_o,         // the packet's head fields
  output logic [AW-1:0] h_od_o,
  output logic          h_omc_o,
  output logic [1:0]    h_oop_o,
  output logic [3:0]    h_ocnt_o,
  output logic [3:0]    h_func_o,        // the group's combining operator
  // slot memory: data (read for the XOR) and mask writes
  output logic          mem_we_o,
  output logic [MA-1:0] mem_wa_o,
  output logic [PW-1:0] mem_wd_o,
  input  logic [PW-1:0] mem_rd_i,        // the memory at mem_wa_o
  output logic          mask_we_o,
  output logic [MB-1:0] mask_wi_o,
  output logic [PW-1:0] mask_wd_o,
  // errors and counters
  output logic [7:0]    ev_o,            // error bits raised this cycle (xnoc_ncu's Err*)
  output logic [SB-1:0] ev_slot_o,
  output logic          overflow_o,      // a FIFO overflowed (a credit protocol violation)
  output logic          xor_o,           // a data flit combined with data already held
  output logic          idle_o           // nothing buffered, no packet under way, no credit owed
);
  localparam logic [AW-1:0] None = {AW{1'b1}};
  // the input FSM (lowRISC style: an enum type, explicit encodings)
  typedef enum logic [2:0] {
    IHead = 3'd0, IMeta = 3'd1, IMask = 3'd2, IData = 3'd3, IDrop = 3'd4
  } in_state_e;
  localparam int ErrPacket = 0, ErrLong = 1, ErrLen = 2, ErrConflict = 3, ErrMask = 6;

  // ---------------------------------------------------------------- FIFOs
  logic [NumVcs-1:0] iv_empty, iv_pop, iv_ovf;
  logic [xnoc_pkg::LinkVcLsb-1:0] iv_front [NumVcs];   // the flit below its VC field
  for (genvar v = 0; v < NumVcs; v++) begin : g_in
    logic [CW-1:0] unused_count;
    xnoc_fifo #(.Width(xnoc_pkg::LinkVcLsb), .Depth(BufDepth), .Vc(v)) u_fifo (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .push_i     (in_valid_i),
      .data_i     (in_flit_i),
      .pop_i      (iv_pop[v]),
      .data_o     (iv_front[v]),
      .empty_o    (iv_empty[v]),
      .count_o    (unused_count),
      .overflow_o (iv_ovf[v])
    );
  end
  assign overflow_o = (iv_ovf != '0);

  // a new packet: round robin over VCs with a flit at the front
  logic              pick_any;
  logic [VI-1:0]     pick_idx;
  in_state_e         ist_q, ist_d;
  logic [VI-1:0]     cur_q, cur_d;
  xnoc_rr_arb #(.NumReqs(NumVcs)) u_pick (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (~iv_empty),
    .upd_i  (ist_q == IHead),
    .any_o  (pick_any),
    .idx_o  (pick_idx)
  );

  logic [VI-1:0] vsel;         // VC whose front flit is handled this cycle
  logic          fv, fhead, ftail;
  logic [PW-1:0] fpay;
  assign vsel  = (ist_q == IHead) ? pick_idx : cur_q;
  assign fv    = (ist_q == IHead) ? pick_any : !iv_empty[cur_q];
  assign fhead = iv_front[vsel][xnoc_pkg::LinkHeadBit];
  assign ftail = iv_front[vsel][xnoc_pkg::LinkTailBit];
  assign fpay  = iv_front[vsel][xnoc_pkg::LinkPayloadLsb +: PW];
  // the front flit read as a head or a meta flit, by name (rtl/xnoc_pkg.sv)
  xnoc_pkg::head_t fhd;
  xnoc_pkg::meta_t fmeta;
  assign fhd   = fpay;
  assign fmeta = fpay;
  assign meta_tag_o = fmeta.tag;
  logic unused_fhd;            // routing fields: the router's, not the unit's
  assign unused_fhd = ^{fhd.vgroup, fhd.ugal, fhd.val, fhd.rsvd, fhd.ejsel, fhd.dest};

  // ------------------------------------------------------- the packet's state
  logic          h_mc_q, h_mc_d;
  logic [1:0]    h_op_q, h_op_d;
  logic [3:0]    h_cnt_q, h_cnt_d;
  logic [AW-1:0] h_od_q, h_od_d;
  logic          h_omc_q, h_omc_d;
  logic [1:0]    h_oop_q, h_oop_d;
  logic [3:0]    h_ocnt_q, h_ocnt_d;
  logic [3:0]    h_fn_q, h_fn_d;
  logic [SB-1:0] islot_q, islot_d;
  logic [EB-1:0] n_q, n_d;          // flits done in the current section
  logic [NB-1:0] nd_q, nd_d;        // data flits of the packet
  logic          mwr_q, mwr_d;      // mask flits go into the slot
  logic          xr_q, xr_d;        // the slot already holds data: XOR

  assign h_cnt_o    = h_cnt_q;
  assign h_od_o     = h_od_q;
  assign h_omc_o    = h_omc_q;
  assign h_oop_o    = h_oop_q;
  assign h_ocnt_o   = h_ocnt_q;
  assign h_func_o   = h_fn_q;
  assign upd_slot_o = islot_d;
  assign fin_slot_o = islot_q;
  assign mask_wd_o  = fpay;
  assign xor_o      = mem_we_o && xr_q;

  // ------------------------------------------------- the combining operators
  // comb: a data flit (dnew) combined with the slot's word (dold) by the
  // group's operator h_fn_q (xnoc_ncu_alu)
  logic          fn_ok;              // the front head's FUNC is one this unit has
  logic [PW-1:0] comb, dold, dnew;
  assign dold = mem_rd_i;
  assign dnew = fpay;                // a data flit: no head fields
  assign fn_ok = (NcuOps != 0) ? (32'(fhd.func) < xnoc_pkg::NcFuncNum) : (fhd.func == '0);
  xnoc_ncu_alu #(.NcuOps(NcuOps)) u_alu (.func_i (h_fn_q), .a_i (dold), .b_i (dnew), .y_o (comb));

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
    h_fn_d   = h_fn_q;
    islot_d  = islot_q;
    n_d      = n_q;
    nd_d     = nd_q;
    mwr_d    = mwr_q;
    xr_d     = xr_q;
    iv_pop   = '0;
    alloc_o  = 1'b0;
    merge_o  = 1'b0;
    fin_o    = 1'b0;
    kind_o   = 1'b0;
    tag_o    = fmeta.tag;
    src_o    = fmeta.src;
    len_o    = fmeta.len;
    mset_o   = 1'b0;
    mem_we_o = 1'b0;
    mem_wa_o = MA'(32'(islot_q) * MaxFlits + 32'(n_q));
    mem_wd_o = fpay;
    mask_we_o = 1'b0;
    mask_wi_o = MB'(n_q);
    ev_o      = '0;
    ev_slot_o = islot_q;
    len      = fmeta.len;
    nd       = '0;
    s        = '0;
    ok       = 1'b1;
    if (fv) begin
      unique case (ist_q)
        IHead: begin
          iv_pop[vsel] = 1'b1;
          cur_d        = vsel;
          h_mc_d   = fhd.mc;
          h_op_d   = fhd.op;
          h_cnt_d  = fhd.count;
          h_od_d   = fhd.out_dest;
          h_omc_d  = fhd.out_mc;
          h_oop_d  = fhd.out_op;
          h_ocnt_d = fhd.out_count;
          h_fn_d   = fhd.func;
          // ENCODE (with or without a mask) or REPLICATE with a mask, and
          // an operator this unit has
          if (!fhead || ftail || fhd.sr || !(fhd.op == 2'd1 || (fhd.op == 2'd0 && fhd.mc)) || !fn_ok) begin
            ev_o[ErrPacket] = 1'b1;
            ist_d = ftail ? IHead : IDrop;
          end else begin
            ist_d = IMeta;
          end
        end
        IMeta: begin
          // lengths above MaxFlits flits cannot be held: drop, flag
          if (len > 32'(MaxFlits * 8)) begin
            ev_o[ErrLong] = 1'b1;
            iv_pop[cur_q] = 1'b1;
            ist_d = ftail ? IHead : IDrop;
          end else begin
            nd = NB'((len + 32'd7) >> 3);
            if (h_op_q == 2'd1 && have_hit_i) begin
              s = hit_idx_i;
              if (hit_len_i != len) begin ev_o[ErrLen] = 1'b1; ok = 1'b0; end
              if (h_cnt_q != 4'd0 && hit_need_i != 4'd0 && hit_need_i != h_cnt_q) begin
                ev_o[ErrConflict] = 1'b1; ok = 1'b0;
              end
              if (hit_func_i != h_fn_q) begin ev_o[ErrConflict] = 1'b1; ok = 1'b0; end
              if (h_od_q != None && hit_oset_i &&
                  (hit_od_i != h_od_q || hit_omc_i != h_omc_q || hit_oop_i != h_oop_q || hit_ocnt_i != h_ocnt_q)) begin
                ev_o[ErrConflict] = 1'b1; ok = 1'b0;
              end
              ev_slot_o = s;
              iv_pop[cur_q] = 1'b1;
              if (!ok) begin
                ist_d = ftail ? IHead : IDrop;
              end else begin
                merge_o = 1'b1;
                xr_d    = (hit_got_i != 4'd0);
                mwr_d   = h_mc_q && !hit_mset_i;
              end
            end else if (have_free_i) begin
              s       = free_idx_i;
              iv_pop[cur_q] = 1'b1;
              alloc_o = 1'b1;
              kind_o  = (h_op_q == 2'd0);
              xr_d    = 1'b0;
              mwr_d   = h_mc_q;
            end else begin
              ok = 1'b0;                               // every slot busy: wait
            end
            if (alloc_o || merge_o) begin
              mset_o  = mwr_d;
              islot_d = s;
              nd_d    = nd;
              n_d     = '0;
              if (h_mc_q) begin
                ist_d = IMask;
                if (ftail) begin ev_o[ErrPacket] = 1'b1; ist_d = IHead; end
              end else if (nd != '0) begin
                ist_d = IData;
                if (ftail) begin ev_o[ErrPacket] = 1'b1; ist_d = IHead; end
              end else begin
                fin_o = 1'b1;                          // zero-length contribution
                ist_d = IHead;
                if (!ftail) begin ev_o[ErrPacket] = 1'b1; ist_d = IDrop; end
              end
            end
          end
        end
        IMask: begin
          iv_pop[cur_q] = 1'b1;
          mask_we_o = mwr_q;
          if (32'(n_q) == M - 1 && NumAddrs % 64 != 0 && (fpay >> (NumAddrs % 64)) != '0) ev_o[ErrMask] = 1'b1;
          n_d = n_q + EB'(1);
          if (32'(n_q) == M - 1) begin
            n_d = '0;
            if (nd_q != '0) begin
              ist_d = IData;
              if (ftail) begin ev_o[ErrPacket] = 1'b1; fin_o = 1'b1; ist_d = IHead; end
            end else begin
              fin_o = 1'b1;
              ist_d = IHead;
              if (!ftail) begin ev_o[ErrPacket] = 1'b1; ist_d = IDrop; end
            end
          end else if (ftail) begin
            ev_o[ErrPacket] = 1'b1;
            fin_o = 1'b1;
            ist_d = IHead;
          end
        end
        IData: begin
          iv_pop[cur_q] = 1'b1;
          mem_we_o = 1'b1;
          if (xr_q) mem_wd_o = comb;
          n_d    = n_q + EB'(1);
          if (n_d == EB'(nd_q) || ftail) begin
            fin_o = 1'b1;
            ist_d = IHead;
            if (n_d != EB'(nd_q) || !ftail) ev_o[ErrPacket] = 1'b1;
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

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ist_q <= IHead;
      cur_q <= '0;
    end else begin
      ist_q <= ist_d;
      cur_q <= cur_d;
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
    h_fn_q   <= h_fn_d;
    islot_q  <= islot_d;
    n_q      <= n_d;
    nd_q     <= nd_d;
    mwr_q    <= mwr_d;
    xr_q     <= xr_d;
  end

  // credits for the FIFOs, one cycle after the pop (like the router)
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
  assign in_credit_vc_o = VB'(icr_vc_q);
  assign idle_o         = (iv_empty == '1) && (ist_q == IHead) && !icr_q;
  assign rep_o          = (h_op_q == 2'd0);

`ifdef XNOC_ASSERT
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      OnePopPerCycle: assert ((iv_pop & (iv_pop - NumVcs'(1))) == '0);
      // a group has one operator: a contribution joins only a slot combining with its own
      OneFuncPerGroup: assert (!merge_o || hit_func_i == h_fn_q);
      // data are combined only by an operator the unit was built with
      FuncBuilt: assert (!(mem_we_o && xr_q) || 32'(h_fn_q) < (NcuOps != 0 ? xnoc_pkg::NcFuncNum : 1));
    end
  end
`endif
endmodule
