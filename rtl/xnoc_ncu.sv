// xnoc_ncu - the network-coding unit of a router: coding slots that combine
// contributions (XOR, and with NcuOps = 1 AND, OR, wrapping add on 32/64-bit
// lanes, signed/unsigned 32-bit min/max: head FUNC, xnoc_pkg::NcFunc*) and
// multicast replication, attached to the router's last port like a terminal.
//
// Packets addressed to the unit (address NT + router id, docs/network-coding.md)
// are absorbed whole into a slot, then re-emitted:
//   ENCODE     (head op 1) contributions carrying the same meta tag are
//              XOR-accumulated in one slot; once `count` contributions have
//              arrived and XorLat cycles have passed, the slot emits ONE packet
//              (payload = XOR of all) to the slot's out_dest.
//   REPLICATE  (head op 0, MC 1) the mask of destination addresses is split
//              by the routing table: per output port one copy, plain when the
//              port leads to one address, else an MC copy to the unit of the
//              neighbouring router carrying that port's part of the mask.
// Absorb-then-emit means a multicast never holds one link while it waits for
// another (no replication deadlock); emission waits only for router credits.
//
// Input: one FIFO per VC (BufDepth flits, credits returned on pop), one packet at a
// time, round robin over VCs with a head at the front.  Output: VC 0 of the
// router's input port, one flit per cycle while credits last.
//
// A slot that stays incomplete for Timeout cycles, and every malformed packet,
// sets a sticky error bit; the first error's slot, tag and counts are kept
// for the harness (debug registers, see dbg_data_o below).
//
// Built from three parts: xnoc_ncu_absorb (input FIFOs and the packet being
// absorbed), xnoc_ncu_slots (the slot array: groups, data, masks, timers)
// and xnoc_ncu_emit (ready slots out into the router, with an
// xnoc_credit_counter); this module wires them and keeps the error report
// and the counters.
//
// Multicast lanes (NumLanes > 1, docs/router.md): lane l is a link each way
// to the router's port P-1+l; one absorber per lane (sharing the slots,
// each slot owned by the absorber that allocated it) and xnoc_ncu_emit with
// NumLanes lanes, which sends a slot's copies on several lanes at once.
// NumLanes = 1 is the unit with one link each way.
//
// Streaming reduction (Stream = 1, --router stream=1, docs/network-coding.md
// "Streaming reduction"): input lane 0 feeds the one absorber; input lanes
// 1..NumLanes-1 feed xnoc_ncu_stream, which combines a group's contributions
// flit by flit across its lanes and sends the result on output lane
// NumLanes-1; the emitter sends on output lanes 0..NumLanes-2 (its MC copies
// into the next unit's lane 0, CopyLane0).  Its counters join the unit's
// (results in DbgUnitCoded, contributions in DbgUnitContrib, flits combined
// in DbgUnitXor) and its errors the unit's bits (slot 15 in the report).
//
// Clock gating: the parts run on a clock that pulses only while the unit has
// something to do (reset, a configuration write, a flit or a credit arriving,
// a flit buffered, a packet being absorbed or sent, a slot in use) and for
// one cycle after, so that registers following idle inputs settle first.  An
// idle cycle of a settled idle unit changes no register, so the gate is
// invisible to behaviour (the same values in every register as with a free
// clock); it saves the unit's switching power and, in the simulation
// model, all evaluation of an idle unit.
module xnoc_ncu #(
  parameter int NumPorts = 6,      // router ports, this unit's port (the last) included
  parameter int NumVcs   = 2,      // VCs on the link from the router
  parameter int BufDepth = 8,      // input buffer depth per VC (and the router's, for credits)
  parameter int NumAddrs = 16,     // addresses: terminals, then one unit per router
  parameter int NumTerms = 8,      // terminals (the first unit address)
  parameter int NumSlots = 4,      // coding slots
  parameter int XorLat   = 1,      // XOR latency: cycles from completion to emission
  parameter int MaxFlits = 32,     // longest payload handled, in 64-bit flits
  parameter int Timeout  = 100000, // cycles an incomplete slot may wait
  parameter int NcuOps   = 1,      // 1: every combining operator; 0: XOR only (--router ncu_ops=xor)
  parameter int NumLanes = 1,      // output links into the router (--router lanes=): >1 sends copies together
  parameter int LaneReserve = 0,   // 1: each lane keeps a slot for multicasts (only where unit-to-unit copies are acyclic)
  parameter int Stream   = 0,      // 1: lanes 1.. stream into xnoc_ncu_stream, which sends on the last lane (--router stream=1)
  parameter int StreamMaxFlits = 256, // longest streaming payload, flits (--router smax=): a counter's width, no storage
  // the short names the body uses
  localparam int S  = NumSlots,
  localparam int NA = NumAddrs,
  localparam int PW = xnoc_pkg::LinkPayloadW,
  localparam int FW = xnoc_pkg::LinkFlitW
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
  // from the router's output port P-1 (lane l > 0: its output port P-1+l,
  // which a head to this unit takes with EJSEL = l), lane l at [l*W +: W]
  input  logic [NumLanes-1:0]    in_valid_i,
  input  logic [NumLanes*FW-1:0] in_flit_i,
  output logic [NumLanes-1:0]    in_credit_o,
  output logic [NumLanes*xnoc_pkg::LinkVcW-1:0] in_credit_vc_o,
  // into the router's input port P-1 (lane l > 0: its input port P-1+l),
  // lane l at [l*W +: W]
  output logic [NumLanes-1:0]    out_valid_o,
  output logic [NumLanes*FW-1:0] out_flit_o,
  input  logic [NumLanes-1:0]    out_credit_i,
  input  logic [NumLanes*xnoc_pkg::LinkVcW-1:0] out_credit_vc_i,
  // counters and status (read while dbg_en_i is set)
  input  logic          dbg_en_i,
  input  logic [xnoc_pkg::DbgUnitAddrW-1:0] dbg_addr_i,   // the unit's window (xnoc_pkg::DbgUnit*)
  output logic [31:0]   dbg_data_o,
  output logic          err_o,
  // the clock gate's latched enable: 0 while the parts' clock will not
  // pulse at the next rising edge (the tile's quiet_o, rtl/xnoc_tile.sv)
  output logic          clk_en_o,
  // the enable the gate's latch takes while the clock is low: clk_en_o's
  // next value (the tile's fall_idle_o)
  output logic          clk_en_d_o
);
  /* verilator no_inline_module */

  localparam int M   = (NA + 63) / 64;            // mask flits
  localparam int MW  = M * 64;
  localparam int SB  = (S > 1) ? $clog2(S) : 1;
  localparam int MB  = (M > 1) ? $clog2(M) : 1;
  localparam int MA  = (S * MaxFlits > 1) ? $clog2(S * MaxFlits) : 1;
  localparam int AW  = xnoc_pkg::HeadDestW;       // head addresses
  // absorbers: one per input lane; with Stream only lane 0's (lanes 1..
  // L-1 feed the streaming combiner, which sends on lane L-1)
  localparam int A   = (Stream != 0) ? 1 : NumLanes;
  localparam int EL  = (Stream != 0) ? NumLanes - 1 : NumLanes;  // the emitter's output lanes
  localparam int PB  = (NumPorts > 1) ? $clog2(NumPorts) : 1;

  // error bits (the absorber raises Packet .. Conflict and Mask)
  localparam int ErrTimeout = 4, ErrDest = 5, ErrOverflow = 7;

  // ----------------------------------------------------- the parts' wires
  // absorber a's at [a*W +: W]
  logic [A*16-1:0] meta_tag;
  logic [A-1:0]    have_free, have_hit;
  logic [A*SB-1:0] free_idx, hit_idx;
  logic [A-1:0]    u_alloc, u_merge, u_fin, u_kind, u_rep, u_mset;
  logic [A*SB-1:0] upd_slot, fin_slot;
  logic [A*16-1:0] u_tag, u_src;
  logic [A*32-1:0] u_len;
  logic [A*4-1:0]  h_cnt, h_ocnt;
  logic [A*AW-1:0] h_od;
  logic [A-1:0]    h_omc;
  logic [A*2-1:0]  h_oop;
  logic [A*4-1:0]  h_func;
  logic [A-1:0]    mem_we, mask_we;
  logic [A*MA-1:0] mem_wa;
  logic [EL*MA-1:0] emem_ra;
  logic [A*PW-1:0] mem_wd, mem_rd, mask_wd;
  logic [EL*PW-1:0] emem_rd;
  logic [A*MB-1:0] mask_wi;
  logic [A*8-1:0]  ev_v;               // errors the absorbers raised this cycle
  logic [A*SB-1:0] ev_slot_v;
  logic [A-1:0]    in_ovf_v, xor_now_v, abs_idle_v, u_fin_v;
  logic [7:0]      ev;                 // the absorbers' errors together; the slot of the first
  logic [SB-1:0]   ev_slot, emask_idx, e_slot, bad_slot;
  logic            in_ovf, e_free, ecode_bad, escan_bad;
  logic [MW-1:0] emask;
  logic [S-1:0]  ready_v, busy_v, to_v;
  logic [2*S-1:0]  st_v, oop_v;
  logic [S-1:0]    kind_v, oset_v, omc_v, mset_v;
  logic [16*S-1:0] tag_v, src_v;
  logic [32*S-1:0] len_v;
  logic [4*S-1:0]  got_v, need_v, cnt_v, ocnt_v, func_v;
  logic [AW*S-1:0] od_v;
  logic [31:0]     coded, repl;
  logic            abs_idle, emit_idle, str_idle, idle, idle_q, clk_g;
  // the streaming combiner's (xnoc_ncu_stream; all 0 without one)
  logic [7:0]      str_ev;
  logic [15:0]     str_tag;
  logic [3:0]      str_need, str_got;
  logic            str_res, str_ovf;
  logic [31:0]     str_fin, str_comb;
  logic [xnoc_pkg::HeadDestW-1:0] lk_addr;
  logic [PB-1:0]   lk_port;
  logic [11:0]     self_id;

  // ------------------------------------------------------- the clock gate
  assign idle = rst_ni && !cfg_we_i && in_valid_i == '0 && out_credit_i == '0 && abs_idle && emit_idle && str_idle && busy_v == '0;
  // idle in the previous cycle.  On the gated clock: while the gate is shut
  // (idle and idle_q) a free clock would load idle = 1 into it again, so the
  // gated one loses nothing, and the unit has no logic on the free clock.
  always_ff @(posedge clk_g) idle_q <= idle;
  logic gate_en;  // what the gate's latch takes while the clock is low
  assign gate_en    = !(idle && idle_q);
  assign clk_en_d_o = gate_en;
  xnoc_clock_gate u_cg (.clk_i, .en_i (gate_en), .clk_o (clk_g), .en_o (clk_en_o));

  for (genvar a = 0; a < A; a++) begin : g_abs
    logic [SB-1:0] hi;
    assign hi = hit_idx[a*SB +: SB];
    xnoc_ncu_absorb #(.NumVcs(NumVcs), .BufDepth(BufDepth), .NumAddrs(NumAddrs), .NumSlots(NumSlots), .MaxFlits(MaxFlits),
                      .NcuOps(NcuOps)) u_absorb (
      .clk_i (clk_g), .rst_ni,
      .in_valid_i (in_valid_i[a]), .in_flit_i (in_flit_i[a*FW +: FW]),
      .in_credit_o (in_credit_o[a]), .in_credit_vc_o (in_credit_vc_o[a*xnoc_pkg::LinkVcW +: xnoc_pkg::LinkVcW]),
      .meta_tag_o (meta_tag[a*16 +: 16]),
      .have_free_i (have_free[a]), .free_idx_i (free_idx[a*SB +: SB]), .have_hit_i (have_hit[a]), .hit_idx_i (hi),
      .hit_len_i  (len_v[32*hi +: 32]),
      .hit_need_i (need_v[4*hi +: 4]),
      .hit_got_i  (got_v[4*hi +: 4]),
      .hit_oset_i (oset_v[hi]),
      .hit_od_i   (od_v[AW*hi +: AW]),
      .hit_omc_i  (omc_v[hi]),
      .hit_oop_i  (oop_v[2*hi +: 2]),
      .hit_ocnt_i (ocnt_v[4*hi +: 4]),
      .hit_func_i (func_v[4*hi +: 4]),
      .hit_mset_i (mset_v[hi]),
      .alloc_o (u_alloc[a]), .merge_o (u_merge[a]), .fin_o (u_fin[a]), .upd_slot_o (upd_slot[a*SB +: SB]),
      .fin_slot_o (fin_slot[a*SB +: SB]), .kind_o (u_kind[a]), .rep_o (u_rep[a]), .tag_o (u_tag[a*16 +: 16]), .src_o (u_src[a*16 +: 16]),
      .len_o (u_len[a*32 +: 32]), .mset_o (u_mset[a]),
      .h_cnt_o (h_cnt[a*4 +: 4]), .h_od_o (h_od[a*AW +: AW]), .h_omc_o (h_omc[a]), .h_oop_o (h_oop[a*2 +: 2]),
      .h_ocnt_o (h_ocnt[a*4 +: 4]), .h_func_o (h_func[a*4 +: 4]),
      .mem_we_o (mem_we[a]), .mem_wa_o (mem_wa[a*MA +: MA]), .mem_wd_o (mem_wd[a*PW +: PW]), .mem_rd_i (mem_rd[a*PW +: PW]),
      .mask_we_o (mask_we[a]), .mask_wi_o (mask_wi[a*MB +: MB]), .mask_wd_o (mask_wd[a*PW +: PW]),
      .ev_o (ev_v[a*8 +: 8]), .ev_slot_o (ev_slot_v[a*SB +: SB]), .overflow_o (in_ovf_v[a]), .xor_o (xor_now_v[a]),
      .idle_o (abs_idle_v[a])
    );
  end
  assign u_fin_v  = u_fin;
  assign in_ovf   = (in_ovf_v != '0) || str_ovf;
  assign abs_idle = (abs_idle_v == '1);
  // the absorbers' errors: every bit raised, the slot of the lowest absorber raising one
  always_comb begin
    ev      = '0;
    ev_slot = '0;
    for (int a = A - 1; a >= 0; a--) begin
      ev = ev | ev_v[a*8 +: 8];
      if (ev_v[a*8 +: 8] != '0) ev_slot = ev_slot_v[a*SB +: SB];
    end
  end

  xnoc_ncu_slots #(.NumSlots(NumSlots), .NumAddrs(NumAddrs), .MaxFlits(MaxFlits), .XorLat(XorLat), .Timeout(Timeout),
                   .NumReads(EL), .NumIns(A), .Reserve(LaneReserve)) u_slots (
    .clk_i (clk_g), .rst_ni,
    .meta_tag_i (meta_tag), .alloc_i (u_alloc), .merge_i (u_merge), .fin_i (u_fin), .rep_i (u_rep),
    .upd_slot_i (upd_slot), .fin_slot_i (fin_slot), .kind_i (u_kind), .tag_i (u_tag), .src_i (u_src),
    .len_i (u_len), .mset_i (u_mset), .h_cnt_i (h_cnt), .h_od_i (h_od), .h_omc_i (h_omc), .h_oop_i (h_oop),
    .h_ocnt_i (h_ocnt), .h_func_i (h_func),
    .mem_we_i (mem_we), .mem_wa_i (mem_wa), .mem_wd_i (mem_wd), .mem_rd_o (mem_rd),
    .mask_we_i (mask_we), .mask_wi_i (mask_wi), .mask_wd_i (mask_wd),
    .have_free_o (have_free), .free_idx_o (free_idx), .have_hit_o (have_hit), .hit_idx_o (hit_idx),
    .e_free_i (e_free), .e_slot_i (e_slot), .emask_idx_i (emask_idx), .emask_o (emask),
    .emem_ra_i (emem_ra), .emem_rd_o (emem_rd),
    .ready_o (ready_v), .busy_o (busy_v), .timeout_o (to_v), .st_o (st_v), .kind_o (kind_v), .tag_o (tag_v),
    .src_o (src_v), .len_o (len_v), .got_o (got_v), .need_o (need_v), .cnt_o (cnt_v), .oset_o (oset_v),
    .od_o (od_v), .omc_o (omc_v), .oop_o (oop_v), .ocnt_o (ocnt_v), .func_o (func_v), .mset_o (mset_v)
  );

  xnoc_ncu_emit #(.NumPorts(NumPorts), .NumLanes(EL), .BufDepth(BufDepth), .NumAddrs(NumAddrs), .NumTerms(NumTerms),
                  .NumSlots(NumSlots), .MaxFlits(MaxFlits), .CopyLane0(Stream)) u_emit (
    .clk_i (clk_g), .rst_ni, .cfg_we_i, .cfg_kind_i, .cfg_addr_i, .cfg_data_i,
    .ready_i (ready_v), .kind_i (kind_v), .tag_i (tag_v), .src_i (src_v), .len_i (len_v), .cnt_i (cnt_v),
    .od_i (od_v), .omc_i (omc_v), .oop_i (oop_v), .ocnt_i (ocnt_v), .func_i (func_v), .mset_i (mset_v),
    .emask_idx_o (emask_idx), .emask_i (emask), .emem_ra_o (emem_ra), .emem_rd_i (emem_rd),
    .free_o (e_free), .free_slot_o (e_slot),
    .out_valid_o (out_valid_o[EL-1:0]), .out_flit_o (out_flit_o[EL*FW-1:0]), .out_credit_i (out_credit_i[EL-1:0]),
    .out_credit_vc_i (out_credit_vc_i[EL*xnoc_pkg::LinkVcW-1:0]),
    .code_bad_o (ecode_bad), .scan_bad_o (escan_bad), .bad_slot_o (bad_slot), .coded_o (coded), .repl_o (repl),
    .idle_o (emit_idle), .lk_addr_i (lk_addr), .lk_port_o (lk_port), .self_o (self_id)
  );

  // ------------------------------------------ the streaming combiner (Stream)
  if (Stream != 0) begin : g_stream
    localparam int N  = NumLanes - 1;
    localparam int VB = xnoc_pkg::LinkVcW;
    localparam int LB = $clog2(N + 1);
    logic [LB-1:0] fin, comb;
    xnoc_ncu_stream #(.NumIns(N), .NumVcs(NumVcs), .BufDepth(BufDepth), .NumAddrs(NumAddrs), .NumTerms(NumTerms),
                      .MaxFlits(StreamMaxFlits), .NcuOps(NcuOps), .Timeout(Timeout), .PortBits(PB)) u_stream (
      .clk_i (clk_g), .rst_ni,
      .in_valid_i (in_valid_i[NumLanes-1:1]), .in_flit_i (in_flit_i[NumLanes*FW-1:FW]),
      .in_credit_o (in_credit_o[NumLanes-1:1]), .in_credit_vc_o (in_credit_vc_o[NumLanes*VB-1:VB]),
      .out_valid_o (out_valid_o[NumLanes-1]), .out_flit_o (out_flit_o[(NumLanes-1)*FW +: FW]),
      .out_credit_i (out_credit_i[NumLanes-1]), .out_credit_vc_i (out_credit_vc_i[(NumLanes-1)*VB +: VB]),
      .lk_addr_o (lk_addr), .lk_port_i (lk_port), .self_i (self_id),
      .ev_o (str_ev), .ev_tag_o (str_tag), .ev_need_o (str_need), .ev_got_o (str_got),
      .res_o (str_res), .fin_o (fin), .comb_o (comb), .overflow_o (str_ovf), .idle_o (str_idle)
    );
    assign str_fin  = 32'(fin);
    assign str_comb = 32'(comb);
  end else begin : g_no_stream
    assign str_ev   = '0;
    assign str_tag  = '0;
    assign str_need = '0;
    assign str_got  = '0;
    assign str_res  = 1'b0;
    assign str_fin  = '0;
    assign str_comb = '0;
    assign str_ovf  = 1'b0;
    assign str_idle = 1'b1;
    assign lk_addr  = '0;
    logic [PB+11:0] unused_lk;
    assign unused_lk = {lk_port, self_id};
  end

  // ====================================================== counters, errors
  // xor_ops: data flits XORed into a slot that already held a contribution
  logic [31:0] xor_q, pin_q, busy_cyc_q, clk_cyc_q;
  logic [SB:0] inuse, inuse_max_q;
  logic [7:0]  err_q, err_d;
  logic [31:0] einfo_q, einfo_d;
  logic [31:0] xor_cnt, fin_cnt;       // data flits XORed, contributions completed this cycle
  always_comb begin
    inuse = '0;
    for (int s = 0; s < S; s++) inuse = inuse + (SB + 1)'(busy_v[s]);
    xor_cnt = str_comb;
    fin_cnt = str_fin;
    for (int a = 0; a < A; a++) begin
      xor_cnt = xor_cnt + 32'(xor_now_v[a]);
      fin_cnt = fin_cnt + 32'(u_fin_v[a]);
    end
  end
  logic [31:0] str_res_q;              // the streaming combiner's results sent
  always_ff @(posedge clk_g) begin
    if (!rst_ni) str_res_q <= '0;
    else if (str_res) str_res_q <= str_res_q + 32'd1;
  end
  always_ff @(posedge clk_g) begin
    if (!rst_ni) begin
      busy_cyc_q  <= '0;
      clk_cyc_q   <= '0;
      inuse_max_q <= '0;
      xor_q       <= '0;
      pin_q       <= '0;
      err_q       <= '0;
      einfo_q     <= '0;
    end else begin
      busy_cyc_q <= busy_cyc_q + 32'(inuse);
      clk_cyc_q  <= clk_cyc_q + 32'd1;   // cycles the gated clock ran (after reset)
      if (inuse > inuse_max_q) inuse_max_q <= inuse;
      xor_q   <= xor_q + xor_cnt;
      pin_q   <= pin_q + fin_cnt;
      err_q   <= err_d;
      einfo_q <= einfo_d;
    end
  end

  always_comb begin
    logic [7:0]    raised;
    logic [SB-1:0] at, to_slot;
    logic [3:0]    code;
    raised  = ev | str_ev;
    raised[ErrOverflow] = in_ovf;
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
      if (ev == '0 && to_v == '0) at = bad_slot;
    end
    err_d   = err_q | raised;
    einfo_d = einfo_q;
    // the first error: code (lowest bit raised), slot, its counts and tag
    if (err_q == '0 && raised != '0) begin
      for (int b = 7; b >= 0; b--) if (raised[b]) code = 4'(b);
      einfo_d = {4'(at), need_v[4*at +: 4], got_v[4*at +: 4], code, tag_v[16*at +: 16]};
      // the streaming combiner's group (slot 15: no slot)
      if (ev == '0 && to_v == '0 && !ecode_bad && !escan_bad && str_ev != '0)
        einfo_d = {4'hF, str_need, str_got, code, str_tag};
    end
  end
  assign err_o = (err_q != '0);

`ifdef XNOC_ASSERT
  // Named invariants, checked in assertion-enabled simulation builds
  // (XNOC_RTL_ASSERT=1); the parts check their own.
  always_ff @(posedge clk_g) begin
    if (rst_ni) begin
      SlotsInUseBounded: assert (32'(inuse) <= S);
    end
  end
`endif

  localparam int UA = xnoc_pkg::DbgUnitAddrW;
  always_comb begin
    dbg_data_o = '0;
    if (dbg_en_i) unique case (dbg_addr_i)
      UA'(xnoc_pkg::DbgUnitCoded): dbg_data_o = coded + str_res_q;
      UA'(xnoc_pkg::DbgUnitXor): dbg_data_o = xor_q;
      UA'(xnoc_pkg::DbgUnitRepl): dbg_data_o = repl;
      UA'(xnoc_pkg::DbgUnitSlotMax): dbg_data_o = 32'(inuse_max_q);
      UA'(xnoc_pkg::DbgUnitBusy): dbg_data_o = busy_cyc_q;
      UA'(xnoc_pkg::DbgUnitErr): dbg_data_o = 32'(err_q);
      UA'(xnoc_pkg::DbgUnitEinfo): dbg_data_o = einfo_q;
      UA'(xnoc_pkg::DbgUnitInuse): dbg_data_o = 32'(inuse);
      UA'(xnoc_pkg::DbgUnitContrib): dbg_data_o = pin_q;
      UA'(xnoc_pkg::DbgUnitSlots): dbg_data_o = 32'(S);
      UA'(xnoc_pkg::DbgUnitClocked): dbg_data_o = clk_cyc_q;
      default: begin
        // 16 + s: slot s = {tag, need, got, kind, state}
        if (dbg_addr_i >= UA'(xnoc_pkg::DbgUnitSlot0) && 32'(dbg_addr_i) < xnoc_pkg::DbgUnitSlot0 + S)
          dbg_data_o = {tag_v[16*dbg_addr_i[SB-1:0] +: 16], 4'd0, need_v[4*dbg_addr_i[SB-1:0] +: 4],
                        got_v[4*dbg_addr_i[SB-1:0] +: 4], 1'b0, kind_v[dbg_addr_i[SB-1:0]], st_v[2*dbg_addr_i[SB-1:0] +: 2]};
      end
    endcase
  end
endmodule
