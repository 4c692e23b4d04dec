// xnoc_ncu_slots - the slot array of the network-coding unit (xnoc_ncu):
// per slot its group (kind, tag, source, length, contributions expected
// and received, where the result goes), its state, its data memory and its
// destination mask.
//
// A slot is free, accumulating (SAcc: contributions arrive), waiting out
// the XOR latency (SWait: XorLat cycles after the last ENCODE
// contribution), or ready (the emitter may send it).  A multicast
// (REPLICATE) is ready as soon as it is absorbed.  An accumulating slot
// ages; at Timeout cycles it is reported once (timeout_o).
//
// Per-slot fields leave as packed vectors, slot s at [s*W +: W], so that
// the emitter, the error report and the debug port index them cheaply.
module xnoc_ncu_slots #(
  parameter int NumSlots = 4,
  parameter int NumAddrs = 16,
  parameter int MaxFlits = 32,
  parameter int XorLat   = 1,
  parameter int Timeout  = 100000,
  localparam int PW  = xnoc_pkg::LinkPayloadW,
  localparam int M   = (NumAddrs + 63) / 64,
  localparam int MW  = M * 64,
  localparam int SB  = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  localparam int MB  = (M > 1) ? $clog2(M) : 1,
  localparam int MA  = (NumSlots * MaxFlits > 1) ? $clog2(NumSlots * MaxFlits) : 1,
  localparam int TB  = $clog2(Timeout + 1),
  localparam int XB  = $clog2(XorLat + 1),
  localparam int AW  = xnoc_pkg::HeadDestW,
  localparam int S   = NumSlots
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // the absorber: the group a meta flit looks for, and its requests
  input  logic [15:0]     meta_tag_i,
  input  logic            alloc_i,
  input  logic            merge_i,
  input  logic            fin_i,
  input  logic [SB-1:0]   upd_slot_i,
  input  logic [SB-1:0]   fin_slot_i,
  input  logic            kind_i,
  input  logic [15:0]     tag_i,
  input  logic [15:0]     src_i,
  input  logic [31:0]     len_i,
  input  logic            mset_i,
  input  logic [3:0]      h_cnt_i,
  input  logic [AW-1:0]   h_od_i,
  input  logic            h_omc_i,
  input  logic [1:0]      h_oop_i,
  input  logic [3:0]      h_ocnt_i,
  input  logic [3:0]      h_func_i,      // the combining operator (set by the group's first packet)
  input  logic            mem_we_i,
  input  logic [MA-1:0]   mem_wa_i,
  input  logic [PW-1:0]   mem_wd_i,
  output logic [PW-1:0]   mem_rd_o,      // the memory at mem_wa_i (the XOR's other operand)
  input  logic            mask_we_i,
  input  logic [MB-1:0]   mask_wi_i,
  input  logic [PW-1:0]   mask_wd_i,
  // what the absorber finds: a free slot, the group with meta_tag_i
  output logic            have_free_o,
  output logic [SB-1:0]   free_idx_o,
  output logic            have_hit_o,
  output logic [SB-1:0]   hit_idx_o,
  // the emitter: it frees the slot it has sent, reads a mask and the data
  input  logic            e_free_i,
  input  logic [SB-1:0]   e_slot_i,
  input  logic [SB-1:0]   emask_idx_i,
  output logic [MW-1:0]   emask_o,
  input  logic [MA-1:0]   emem_ra_i,
  output logic [PW-1:0]   emem_rd_o,
  // every slot
  output logic [S-1:0]    ready_o,
  output logic [S-1:0]    busy_o,
  output logic [S-1:0]    timeout_o,     // reached Timeout this cycle
  output logic [2*S-1:0]  st_o,
  output logic [S-1:0]    kind_o,
  output logic [16*S-1:0] tag_o,
  output logic [16*S-1:0] src_o,
  output logic [32*S-1:0] len_o,
  output logic [4*S-1:0]  got_o,
  output logic [4*S-1:0]  need_o,
  output logic [4*S-1:0]  cnt_o,         // the count field a REPLICATE's copies carry
  output logic [S-1:0]    oset_o,
  output logic [AW*S-1:0] od_o,
  output logic [S-1:0]    omc_o,
  output logic [2*S-1:0]  oop_o,
  output logic [4*S-1:0]  ocnt_o,
  output logic [4*S-1:0]  func_o,
  output logic [S-1:0]    mset_o
);
  localparam logic [AW-1:0] None = '1;
  // a slot's state (lowRISC style: an enum type, explicit encodings; st_o carries it as 2 bits a slot)
  typedef enum logic [1:0] {
    SFree = 2'd0, SAcc = 2'd1, SWait = 2'd2, SReady = 2'd3
  } slot_state_e;

  logic [PW-1:0] mem_q  [S * MaxFlits];
  logic [MW-1:0] mask_q [S];
  logic [S-1:0]  hit_v;

  for (genvar g = 0; g < S; g++) begin : g_slot
    slot_state_e   st_q, st_d;
    logic          kind_q;
    logic [15:0]   tag_q, src_q;
    logic [31:0]   len_q;
    logic [3:0]    got_q, need_q, cnt_q;
    logic          oset_q, omc_q, mset_q;
    logic [AW-1:0] od_q;
    logic [1:0]    oop_q;
    logic [3:0]    ocnt_q, func_q;
    logic [TB-1:0] age_q, age_d;
    logic [XB-1:0] tmr_q, tmr_d;
    logic          upd, fin, done;
    assign upd  = (alloc_i || merge_i) && (upd_slot_i == SB'(g));
    assign fin  = fin_i && (fin_slot_i == SB'(g));
    assign done = fin && need_q != 4'd0 && got_q + 4'd1 >= need_q;

    // state, age and XOR-latency timer; everything else is written only
    // when a packet updates the slot (cheap when the unit is idle)
    always_comb begin
      st_d   = st_q;
      age_d  = age_q;
      tmr_d  = tmr_q;
      timeout_o[g] = 1'b0;
      if (st_q != SFree) begin
        // an incomplete slot ages; at Timeout it is reported once
        if (st_q == SAcc && age_q != TB'(Timeout)) begin
          age_d        = age_q + TB'(1);
          timeout_o[g] = (age_d == TB'(Timeout));
        end
        if (st_q == SWait) begin
          if (32'(tmr_q) > 1) tmr_d = tmr_q - XB'(1);
          else st_d = SReady;
        end
        // coding groups pay the XOR latency; a multicast is ready at once
        if (done) begin
          st_d  = kind_q ? SReady : SWait;
          tmr_d = XB'(XorLat);
        end
        if (e_free_i && e_slot_i == SB'(g)) st_d = SFree;
      end
      if (upd && alloc_i) begin
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
        if (alloc_i) begin
          kind_q <= kind_i;
          tag_q  <= tag_i;
          src_q  <= src_i;
          len_q  <= len_i;
          got_q  <= '0;
          need_q <= kind_i ? 4'd1 : h_cnt_i;
          cnt_q  <= h_cnt_i;
          oset_q <= 1'b0;
          od_q   <= None;
          omc_q  <= 1'b0;
          oop_q  <= '0;
          ocnt_q <= '0;
          func_q <= h_func_i;
          mset_q <= mset_i;
        end else begin
          if (h_cnt_i != 4'd0) need_q <= h_cnt_i;
          if (mset_i) mset_q <= 1'b1;
        end
        if (!kind_i && h_od_i != None) begin
          oset_q <= 1'b1;
          od_q   <= h_od_i;
          omc_q  <= h_omc_i;
          oop_q  <= h_oop_i;
          ocnt_q <= h_ocnt_i;
        end
      end
      if (fin) got_q <= got_q + 4'd1;
    end

    assign st_o[2*g +: 2]     = st_q;
    assign kind_o[g]          = kind_q;
    assign tag_o[16*g +: 16]  = tag_q;
    assign src_o[16*g +: 16]  = src_q;
    assign len_o[32*g +: 32]  = len_q;
    assign got_o[4*g +: 4]    = got_q;
    assign need_o[4*g +: 4]   = need_q;
    assign cnt_o[4*g +: 4]    = cnt_q;
    assign oset_o[g]          = oset_q;
    assign od_o[AW*g +: AW]   = od_q;
    assign omc_o[g]           = omc_q;
    assign oop_o[2*g +: 2]    = oop_q;
    assign ocnt_o[4*g +: 4]   = ocnt_q;
    assign func_o[4*g +: 4]   = func_q;
    assign mset_o[g]          = mset_q;
    assign ready_o[g] = (st_q == SReady);
    assign busy_o[g]  = (st_q != SFree);
    assign hit_v[g]   = (st_q == SAcc) && !kind_q && (tag_q == meta_tag_i);
  end

  // lowest free slot, lowest slot accumulating the tag
  always_comb begin
    have_free_o = 1'b0;
    have_hit_o  = 1'b0;
    free_idx_o  = '0;
    hit_idx_o   = '0;
    for (int s = S - 1; s >= 0; s--) begin
      if (!busy_o[s]) begin have_free_o = 1'b1; free_idx_o = SB'(s); end
      if (hit_v[s])   begin have_hit_o  = 1'b1; hit_idx_o  = SB'(s); end
    end
  end

  always_ff @(posedge clk_i) begin
    if (mem_we_i) mem_q[mem_wa_i] <= mem_wd_i;
    if (mask_we_i) mask_q[fin_slot_i][64 * 32'(mask_wi_i) +: 64] <= mask_wd_i;
  end
  assign mem_rd_o  = mem_q[mem_wa_i];
  assign emem_rd_o = mem_q[emem_ra_i];
  assign emask_o   = mask_q[emask_idx_i];
endmodule
