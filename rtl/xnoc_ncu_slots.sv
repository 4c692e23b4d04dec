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
  parameter int NumReads = 1,       // the emitter's read ports into the data memory (its lanes)
  parameter int NumIns   = 1,       // absorbers (input lanes): a slot belongs to the one that allocated it
  parameter int Reserve  = 0,       // 1: a lane keeps a slot in reserve for multicasts (below)
  localparam int PW  = xnoc_pkg::LinkPayloadW,
  localparam int M   = (NumAddrs + 63) / 64,
  localparam int MW  = M * 64,
  localparam int SB  = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  localparam int MB  = (M > 1) ? $clog2(M) : 1,
  localparam int MA  = (NumSlots * MaxFlits > 1) ? $clog2(NumSlots * MaxFlits) : 1,
  localparam int TB  = $clog2(Timeout + 1),
  localparam int XB  = $clog2(XorLat + 1),
  localparam int AW  = xnoc_pkg::HeadDestW,
  localparam int S   = NumSlots,
  localparam int A   = NumIns,
  localparam int AB  = (NumIns > 1) ? $clog2(NumIns) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // the absorber: the group a meta flit looks for, and its requests
  input  logic [A*16-1:0] meta_tag_i,    // absorber a's at [a*W +: W] (every absorber-facing port)
  input  logic [A-1:0]    alloc_i,
  input  logic [A-1:0]    merge_i,
  input  logic [A-1:0]    fin_i,
  input  logic [A*SB-1:0] upd_slot_i,
  input  logic [A*SB-1:0] fin_slot_i,
  input  logic [A-1:0]    kind_i,
  input  logic [A-1:0]    rep_i,         // absorber a's packet is a REPLICATE (may be held back)
  input  logic [A*16-1:0] tag_i,
  input  logic [A*16-1:0] src_i,
  input  logic [A*32-1:0] len_i,
  input  logic [A-1:0]    mset_i,
  input  logic [A*4-1:0]  h_cnt_i,
  input  logic [A*AW-1:0] h_od_i,
  input  logic [A-1:0]    h_omc_i,
  input  logic [A*2-1:0]  h_oop_i,
  input  logic [A*4-1:0]  h_ocnt_i,
  input  logic [A*4-1:0]  h_func_i,      // the combining operator (set by the group's first packet)
  input  logic [A-1:0]    mem_we_i,
  input  logic [A*MA-1:0] mem_wa_i,
  input  logic [A*PW-1:0] mem_wd_i,
  output logic [A*PW-1:0] mem_rd_o,      // the memory at mem_wa_i (the XOR's other operand)
  input  logic [A-1:0]    mask_we_i,
  input  logic [A*MB-1:0] mask_wi_i,
  input  logic [A*PW-1:0] mask_wd_i,
  // what the absorber finds: a free slot, the group with meta_tag_i
  output logic [A-1:0]    have_free_o,
  output logic [A*SB-1:0] free_idx_o,
  output logic [A-1:0]    have_hit_o,
  output logic [A*SB-1:0] hit_idx_o,
  // the emitter: it frees the slot it has sent, reads a mask and the data
  input  logic            e_free_i,
  input  logic [SB-1:0]   e_slot_i,
  input  logic [SB-1:0]   emask_idx_i,
  output logic [MW-1:0]   emask_o,
  input  logic [NumReads*MA-1:0] emem_ra_i,   // read port i's address at [i*MA +: MA]
  output logic [NumReads*PW-1:0] emem_rd_o,
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
  localparam logic [AW-1:0] None = {AW{1'b1}};
  // a slot's state (lowRISC style: an enum type, explicit encodings; st_o carries it as 2 bits a slot)
  typedef enum logic [1:0] {
    SFree = 2'd0, SAcc = 2'd1, SWait = 2'd2, SReady = 2'd3
  } slot_state_e;

  logic [PW-1:0] mem_q  [S * MaxFlits];
  logic [MW-1:0] mask_q [S];
  logic [S*AB-1:0] own_v;                // slot g's absorber at [g*AB +: AB]
  logic [A*S-1:0] hit_v;                 // slot g accumulates the tag absorber a looks for, at [a*S + g]

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
    // the absorber updating this slot (the one allocating it, then its
    // owner: only the owner merges into it and fills it), and its fields
    logic [AB-1:0] O, own_q;
    logic          kind_i_o, mset_i_o, h_omc_i_o;
    logic [15:0]   tag_i_o, src_i_o;
    logic [31:0]   len_i_o;
    logic [3:0]    h_cnt_i_o, h_ocnt_i_o, h_func_i_o;
    logic [AW-1:0] h_od_i_o;
    logic [1:0]    h_oop_i_o;
    assign kind_i_o   = kind_i[O];
    assign mset_i_o   = mset_i[O];
    assign h_omc_i_o  = h_omc_i[O];
    assign tag_i_o    = tag_i[O*16 +: 16];
    assign src_i_o    = src_i[O*16 +: 16];
    assign len_i_o    = len_i[O*32 +: 32];
    assign h_cnt_i_o  = h_cnt_i[O*4 +: 4];
    assign h_ocnt_i_o = h_ocnt_i[O*4 +: 4];
    assign h_func_i_o = h_func_i[O*4 +: 4];
    assign h_od_i_o   = h_od_i[O*AW +: AW];
    assign h_oop_i_o  = h_oop_i[O*2 +: 2];
    always_comb begin
      O   = own_q;
      upd = 1'b0;
      fin = 1'b0;
      for (int a = 0; a < A; a++) begin
        if ((alloc_i[a] || merge_i[a]) && upd_slot_i[a*SB +: SB] == SB'(g)) begin
          upd = 1'b1;
          O   = AB'(a);
        end
        if (fin_i[a] && fin_slot_i[a*SB +: SB] == SB'(g)) fin = 1'b1;
      end
    end
    always_ff @(posedge clk_i) if (upd && alloc_i[O]) own_q <= O;
    assign own_v[g*AB +: AB] = own_q;
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
      if (upd && alloc_i[O]) begin
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
        if (alloc_i[O]) begin
          kind_q <= kind_i_o;
          tag_q  <= tag_i_o;
          src_q  <= src_i_o;
          len_q  <= len_i_o;
          got_q  <= '0;
          need_q <= kind_i_o ? 4'd1 : h_cnt_i_o;
          cnt_q  <= h_cnt_i_o;
          oset_q <= 1'b0;
          od_q   <= None;
          omc_q  <= 1'b0;
          oop_q  <= '0;
          ocnt_q <= '0;
          func_q <= h_func_i_o;
          mset_q <= mset_i_o;
        end else begin
          if (h_cnt_i_o != 4'd0) need_q <= h_cnt_i_o;
          if (mset_i_o) mset_q <= 1'b1;
        end
        if (!kind_i_o && h_od_i_o != None) begin
          oset_q <= 1'b1;
          od_q   <= h_od_i_o;
          omc_q  <= h_omc_i_o;
          oop_q  <= h_oop_i_o;
          ocnt_q <= h_ocnt_i_o;
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
    for (genvar a = 0; a < A; a++) begin : g_hit
      assign hit_v[a*S + g] = (st_q == SAcc) && !kind_q && (tag_q == meta_tag_i[a*16 +: 16]) && (own_q == AB'(a));
    end
  end

  // per absorber: a free slot, and the lowest of its own slots accumulating
  // its tag.  Absorber a is offered the lowest free slot not offered to
  // absorbers 0..a-1 (two allocations never meet).  A multicast (REPLICATE)
  // on a lane that already holds a multicast slot gets one only while more
  // slots are free than other absorbers hold no multicast: every lane keeps
  // one slot in reserve (a burst on one lane cannot starve the others) and
  // spare slots go to whoever needs them.  Coding groups (ENCODE) are never
  // held back: a group's contributions may queue behind the packet waiting
  // for a slot, so holding it back could deadlock.  Only with Reserve = 1:
  // a held-back multicast waits for its lane's multicast slots to be sent,
  // which is safe only where units send to units without cycles (a clos:
  // spine units to leaf units, leaf units to terminals); on a mesh two
  // units' lanes could wait for each other (tests/ncu.t.sh found it).  With
  // Reserve = 0 a packet takes any free slot, as with one lane.
  logic [A-1:0] holds;                   // absorber a owns a busy multicast slot
  always_comb begin
    holds = '0;
    for (int s = 0; s < S; s++) if (busy_o[s] && kind_o[s]) holds[own_v[s*AB +: AB]] = 1'b1;
  end
  always_comb begin
    logic [S-1:0]  avail;
    logic [SB:0]   nfree;
    logic [AB:0]   empty;                // absorbers holding no multicast slot
    have_free_o = '0;
    have_hit_o  = '0;
    free_idx_o  = '0;
    hit_idx_o   = '0;
    avail       = ~busy_o;
    empty       = '0;
    for (int a = 0; a < A; a++) empty = empty + (AB + 1)'(!holds[a]);
    for (int a = 0; a < A; a++) begin
      nfree = '0;
      for (int s = 0; s < S; s++) nfree = nfree + (SB + 1)'(avail[s]);
      for (int s = S - 1; s >= 0; s--) begin
        if (avail[s])       begin have_free_o[a] = 1'b1; free_idx_o[a*SB +: SB] = SB'(s); end
        if (hit_v[a*S + s]) begin have_hit_o[a]  = 1'b1; hit_idx_o[a*SB +: SB]  = SB'(s); end
      end
      if (Reserve != 0 && rep_i[a] && holds[a] && 32'(nfree) <= 32'(empty)) have_free_o[a] = 1'b0;   // (empty: the others)
      if (have_free_o[a]) avail[free_idx_o[a*SB +: SB]] = 1'b0;
    end
  end

  // the absorbers write only the slots they own: never the same word
  always_ff @(posedge clk_i) begin
    for (int a = 0; a < A; a++) begin
      if (mem_we_i[a]) mem_q[mem_wa_i[a*MA +: MA]] <= mem_wd_i[a*PW +: PW];
      if (mask_we_i[a]) mask_q[fin_slot_i[a*SB +: SB]][64 * 32'(mask_wi_i[a*MB +: MB]) +: 64] <= mask_wd_i[a*PW +: PW];
    end
  end
  for (genvar a = 0; a < A; a++) begin : g_wr
    assign mem_rd_o[a*PW +: PW] = mem_q[mem_wa_i[a*MA +: MA]];
  end
  for (genvar i = 0; i < NumReads; i++) begin : g_rd
    assign emem_rd_o[i*PW +: PW] = mem_q[emem_ra_i[i*MA +: MA]];
  end
  assign emask_o   = mask_q[emask_idx_i];
endmodule
