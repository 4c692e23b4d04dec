// xnoc_ncu_stream - the coding unit's streaming combiner (xnoc_ncu with
// Stream = 1, --router stream=1, docs/network-coding.md "Streaming
// reduction"): one input lane per contributor, the contributions of a group
// combined flit by flit as they arrive and sent on at once, one flit a cycle,
// with no slot holding a whole chunk.
//
// Input: NumIns lanes (the unit's lanes 1..NumIns), each a link from the
// router with one FIFO per VC (BufDepth flits, credits returned on pop).  A
// contributor sends its packets of op STREAM (head op 2) on a lane of its
// own: a terminal on lane 1 + its port at the router, a child unit on lane
// 1 + its own output port towards this router (both unique at this router on
// a mesh).  Each lane-VC first takes the head and meta flit of its packet
// into a header register (checked: op STREAM, no MC, a length it can take).
//
// A group forms once COUNT lanes hold a header with the tag of the lowest
// waiting one (the leader); then the result leaves on the output link: a
// head built from the leader's out_* fields (EJSEL: 1 + the port towards
// out_dest if that is another router's unit, else 0), the meta flit {len,
// tag, this unit}, with OUT_MC the mask of every terminal (a multicast of
// the result), then one data flit per cycle in which every member lane has
// its next data flit at the front and the router's input has a credit: the
// members' flits combined by the group's operator (xnoc_ncu_alu, a chain
// over the lanes in lane order).  Groups leave one after another, in the
// order they form.
//
// Deadlock freedom (docs/network-coding.md): a lane waits only for the other
// members of its group, which are the children's results of the same chunk
// on other lanes (up the tree, acyclic) and the terminals' contributions;
// the output waits only for credits of the parent's lane (up again) or, at
// the root, of the unit's own lane 0, whose replicates go down the tree to
// terminals, which always drain.  Lanes of different contributors never
// share a buffer, so one waiting group never blocks another's input.
//
// Errors (the unit's sticky bits, xnoc_ncu Err*): a malformed packet
// (dropped to its tail), a length it cannot hold, members that disagree on
// the length, operator, count or result fields, more members than COUNT, a
// group waiting Timeout cycles for its members.
module xnoc_ncu_stream #(
  parameter int NumIns   = 4,       // input lanes
  parameter int NumVcs   = 2,       // VCs on each link from the router
  parameter int BufDepth = 8,       // FIFO depth per VC (and the router's, for credits)
  parameter int NumAddrs = 16,      // head addresses (the mask's bits)
  parameter int NumTerms = 8,       // terminals: the mask of a multicast result
  parameter int MaxFlits = 32,      // longest payload, 64-bit flits
  parameter int NcuOps   = 1,       // the operators built (xnoc_ncu_alu)
  parameter int Timeout  = 100000,  // cycles a group may wait for its members
  parameter int PortBits = 3,       // the router port numbers' width
  localparam int N   = NumIns,
  localparam int V   = NumVcs,
  localparam int G   = N * V,                                      // lane-VCs
  localparam int PW  = xnoc_pkg::LinkPayloadW,
  localparam int FW  = xnoc_pkg::LinkFlitW,
  localparam int VB  = xnoc_pkg::LinkVcW,
  localparam int AW  = xnoc_pkg::HeadDestW,
  localparam int M   = (NumAddrs + 63) / 64,                       // mask flits
  localparam int VI  = (V > 1) ? $clog2(V) : 1,
  localparam int NB  = $clog2(MaxFlits + 1),
  localparam int EB  = (NB > $clog2(M + 1)) ? NB : $clog2(M + 1),
  localparam int CW  = $clog2(BufDepth + 1),
  localparam int LB  = $clog2(N + 1),
  localparam int TB  = $clog2(Timeout + 1)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // lanes 1..N of the unit, lane i at [i*W +: W]
  input  logic [N-1:0]    in_valid_i,
  input  logic [N*FW-1:0] in_flit_i,
  output logic [N-1:0]    in_credit_o,
  output logic [N*VB-1:0] in_credit_vc_o,
  // the output link (the unit's last lane), on VC 0
  output logic            out_valid_o,
  output logic [FW-1:0]   out_flit_o,
  input  logic            out_credit_i,
  input  logic [VB-1:0]   out_credit_vc_i,
  // the routing table, as the emitter keeps it: the port towards an address
  output logic [AW-1:0]   lk_addr_o,
  input  logic [PortBits-1:0] lk_port_i,
  input  logic [11:0]     self_i,           // this router's id
  // errors and counters
  output logic [7:0]      ev_o,             // error bits raised this cycle (xnoc_ncu's Err*)
  output logic [15:0]     ev_tag_o,         // ... the group's tag
  output logic [3:0]      ev_need_o,        // ... its COUNT and the members found
  output logic [3:0]      ev_got_o,
  output logic            res_o,            // a result's tail left
  output logic [LB-1:0]   fin_o,            // contributions completed this cycle
  output logic [LB-1:0]   comb_o,           // data flits combined into another this cycle
  output logic            overflow_o,       // a FIFO overflowed (a credit protocol violation)
  output logic            idle_o            // nothing buffered, no group under way, no credit owed
);
  localparam logic [AW-1:0] None = {AW{1'b1}};
  localparam int ErrPacket = 0, ErrLong = 1, ErrConflict = 3, ErrTimeout = 4, ErrDest = 5;
  localparam logic [1:0] OpStream = 2'd2;
  localparam logic [1:0] OpScan   = 2'd3;   // a scan's contribution or prefix (the chain below)
  // a lane-VC's header register
  typedef enum logic [1:0] {
    HHead = 2'd0, HMeta = 2'd1, HReady = 2'd2, HDrop = 2'd3
  } hdr_state_e;
  typedef enum logic [2:0] {
    GIdle = 3'd0, GHead = 3'd1, GMeta = 3'd2, GMask = 3'd3, GData = 3'd4
  } grp_state_e;

  // ---------------------------------------------------------------- FIFOs
  logic [G-1:0]  empty, pop, ovf;
  logic [xnoc_pkg::LinkVcLsb-1:0] front [G];
  for (genvar g = 0; g < G; g++) begin : g_in
    logic [CW-1:0] unused_count;
    xnoc_fifo #(.Width(xnoc_pkg::LinkVcLsb), .Depth(BufDepth), .Vc(g % V)) u_fifo (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .push_i     (in_valid_i[g / V]),
      .data_i     (in_flit_i[(g / V)*FW +: FW]),
      .pop_i      (pop[g]),
      .data_o     (front[g]),
      .empty_o    (empty[g]),
      .count_o    (unused_count),
      .overflow_o (ovf[g])
    );
  end
  assign overflow_o = (ovf != '0);

  // ------------------------------------------------------ header registers
  hdr_state_e     hst_q [G];
  hdr_state_e     hst_d [G];
  logic [PW-1:0]  hd_q [G];             // the head flit
  logic [PW-1:0]  mt_q [G];             // the meta flit
  logic [G-1:0]   hcap_head, hcap_meta; // take the front flit as the head / the meta

  // the group: its members (one lane-VC per lane) and the result's fields
  grp_state_e     gst_q, gst_d;
  logic [N-1:0]   mem_q, mem_d;
  logic [N*VI-1:0] mvc_q, mvc_d;
  xnoc_pkg::head_t ghd_q, ghd_d;        // the leader's head
  logic [31:0]    glen_q, glen_d;
  logic [15:0]    gtag_q, gtag_d;
  logic [EB-1:0]  n_q, n_d;             // flits done in the current section
  logic [TB-1:0]  wait_q, wait_d;       // cycles the leader has waited
  logic           done;                 // the group's last flit leaves

  // the leader: the lowest lane-VC with a header; its tag's lane-VCs
  logic           lead_any;
  logic [15:0]    lead_tag;
  logic [3:0]     lead_cnt;
  logic [N-1:0]   match;
  logic [N-1:0]   match_t;              // ... a terminal's scan contribution (its src a terminal)
  logic [N*VI-1:0] match_vc;
  logic [LB-1:0]  nmatch;
  logic           multi;                // a lane with two headers of the tag
  xnoc_pkg::head_t lhd, mhd, ohd_sel;    // the leader's head, a member's, the one naming out_dest
  logic           oset;                 // some member names out_dest
  xnoc_pkg::meta_t lmt, mmt;
  logic           mism;                 // a member disagrees with the leader
  logic           unused_hdr;           // routing fields and sources: not compared
  assign unused_hdr = ^{mhd, lmt.src, mmt.src, ohd_sel};
  // (the first waiting header at or after lp_q: a leader whose group cannot
  // form yet hands over to the next one a cycle later, so a complete group
  // never waits behind an incomplete one)
  logic [$clog2(G+1)-1:0] lp_q, lp_d;
  always_comb begin
    lead_any = 1'b0;
    lhd      = '0;
    lmt      = '0;
    for (int i = G - 1; i >= 0; i--) begin
      if (hst_q[(32'(lp_q) + i) % G] == HReady) begin
        lead_any = 1'b1;
        lhd      = hd_q[(32'(lp_q) + i) % G];
        lmt      = mt_q[(32'(lp_q) + i) % G];
      end
    end
    lead_tag = lmt.tag;
    lead_cnt = lhd.count;
    match    = '0;
    match_t  = '0;
    match_vc = '0;
    nmatch   = '0;
    multi    = 1'b0;
    mism     = 1'b0;
    oset     = 1'b0;
    ohd_sel  = '0;
    mhd      = '0;
    mmt      = '0;
    for (int l = 0; l < N; l++) begin
      for (int v = V - 1; v >= 0; v--) begin
        mmt = mt_q[l*V + v];
        mhd = hd_q[l*V + v];
        if (hst_q[l*V + v] == HReady && mmt.tag == lead_tag) begin
          multi = multi | match[l];
          match[l] = 1'b1;
          match_vc[l*VI +: VI] = VI'(v);
          if (mmt.len != lmt.len || mhd.func != lhd.func || mhd.count != lhd.count || mhd.op != lhd.op)
            mism = 1'b1;
          match_t[l] = mhd.op == OpScan && 32'(mmt.src) < NumTerms;
          // the result's fields: from the members that name out_dest (a
          // terminal's contribution; a child's result names none), all alike;
          // a scan's from its terminals (the chain's last names none)
          if (mhd.out_dest != None || match_t[l]) begin
            if (oset && (mhd.out_dest != ohd_sel.out_dest || mhd.out_mc != ohd_sel.out_mc ||
                         mhd.out_op != ohd_sel.out_op || mhd.out_count != ohd_sel.out_count))
              mism = 1'b1;
            oset    = 1'b1;
            ohd_sel = mhd;
          end
        end
      end
      nmatch = nmatch + LB'(match[l]);
    end
  end

  // --------------------------------------------------------- the combiner
  // the members' front flits, combined in lane order
  logic [N*PW-1:0] mfront;
  logic [N-1:0]    mready, mtail;
  logic [N*PW-1:0] acc /* verilator split_var */;  // acc[l]: the members among lanes 0..l combined
  logic [N*PW-1:0] tres;  // a scan's result for lane l: inclusive acc[l]; exclusive (OUT_MC) the members below, or the identity
  logic [PW-1:0]   ident;                         // the operator's identity
  for (genvar l = 0; l < N; l++) begin : g_comb
    logic [VI-1:0] v;
    logic [PW-1:0] y, prev;
    logic          hprev;
    assign v = mvc_q[l*VI +: VI];
    assign mfront[l*PW +: PW] = front[l*V + 32'(v)][xnoc_pkg::LinkPayloadLsb +: PW];
    assign mready[l] = !mem_q[l] || !empty[l*V + 32'(v)];
    assign mtail[l]  = front[l*V + 32'(v)][xnoc_pkg::LinkTailBit];
    if (l == 0) begin : g_first
      assign prev  = '0;
      assign hprev = 1'b0;
    end else begin : g_next
      assign prev  = acc[(l-1)*PW +: PW];
      assign hprev = (mem_q[l-1:0] != '0);      // a member among lanes 0..l-1
    end
    xnoc_ncu_alu #(.NcuOps(NcuOps)) u_alu (.func_i (ghd_q.func), .a_i (prev), .b_i (mfront[l*PW +: PW]), .y_o (y));
    assign acc[l*PW +: PW] = !mem_q[l] ? prev : hprev ? y : mfront[l*PW +: PW];
    assign tres[l*PW +: PW] = !ghd_q.out_mc ? acc[l*PW +: PW] : hprev ? prev : ident;
  end

  // each lane-VC's front flit checked as a head (op STREAM, no MC, a COUNT,
  // an operator built) and as a meta flit (a length it can hold; the tail
  // with it exactly when there are no data)
  logic [G-1:0] f_head, f_tail, f_hd_ok, f_mt_long, f_mt_ok;
  // (the fields by their places in xnoc_pkg: yosys 0.23 resolves no struct
  // field declared in a generate block)
  for (genvar g = 0; g < G; g++) begin : g_chk
    logic [xnoc_pkg::HeadOpW-1:0]    f_op;
    logic [xnoc_pkg::HeadCountW-1:0] f_cnt;
    logic [xnoc_pkg::HeadFuncW-1:0]  f_fn;
    logic [xnoc_pkg::MetaLenW-1:0]   f_len;
    assign f_op  = front[g][xnoc_pkg::HeadOpLsb +: xnoc_pkg::HeadOpW];
    assign f_cnt = front[g][xnoc_pkg::HeadCountLsb +: xnoc_pkg::HeadCountW];
    assign f_fn  = front[g][xnoc_pkg::HeadFuncLsb +: xnoc_pkg::HeadFuncW];
    assign f_len = front[g][xnoc_pkg::MetaLenLsb +: xnoc_pkg::MetaLenW];
    assign f_head[g]    = front[g][xnoc_pkg::LinkHeadBit];
    assign f_tail[g]    = front[g][xnoc_pkg::LinkTailBit];
    assign f_hd_ok[g]   = f_head[g] && !f_tail[g] && !front[g][xnoc_pkg::HeadSrBit] && !front[g][xnoc_pkg::HeadMcBit] &&
                          (f_op == OpStream || f_op == OpScan) && f_cnt != '0 &&
                          ((NcuOps != 0) ? 32'(f_fn) < xnoc_pkg::NcFuncNum : f_fn == '0);
    assign f_mt_long[g] = f_len > 32'(MaxFlits * 8);
    assign f_mt_ok[g]   = f_tail[g] == (f_len == 32'd0);
  end

  // ------------------------------------------------------------ the output
  logic          cr_avail, send, stail;
  logic          adv;                   // the group moves on a flit (sent, or dropped: no out_dest)
  logic          disc_q, disc_d;        // the group has nowhere to go: its data are dropped
  logic [PW-1:0] pay;
  logic [VB-1:0] ovc;                   // the VC of the flit that leaves (a reduction's: 0)
  logic [V-1:0]  cr_v;
  for (genvar v = 0; v < V; v++) begin : g_cr
    logic [CW-1:0] unused_cr;
    xnoc_credit_counter #(.Depth(BufDepth), .Vc(v)) u_credit (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .return_i    (out_credit_i),
      .return_vc_i (out_credit_vc_i),
      .spend_i     (send && 32'(ovc) == v),
      .avail_o     (cr_v[v]),
      .count_o     (unused_cr)
    );
  end
  always_comb begin
    cr_avail = 1'b0;
    for (int v = 0; v < V; v++) if (32'(ovc) == v) cr_avail = cr_v[v];
  end
  logic [NB-1:0] nd;                    // the group's data flits
  assign nd = NB'((glen_q + 32'd7) >> 3);

  // ------------------------------------------------- a scan's packets (chain)
  // A scan group (head OP SCAN; docs/network-coding.md "In-network scan")
  // sends, flit by flit in turn, the prefix to out_dest (packet 0, VC 0; not
  // at the chain's last unit) and one result per terminal member (packet 1 +
  // l for lane l, VC 1 + the terminal members below it): tres[l].  Lanes are
  // in port order: the prefix (a network port) first, terminals by rank.
  logic           scan_q, scan_d;
  logic [N-1:0]   tm_q, tm_d;           // its terminal members
  logic [LB-1:0]  cur_q, cur_d;         // the packet whose flit is next
  logic [N:0]     pk;                   // the packets: {lanes' terminals, the prefix}
  logic [LB-1:0]  pfirst, pnext;        // the first packet of a round, the one after cur_q
  logic           plast;                // cur_q is the round's last
  logic [VB-1:0]  pvc;                  // cur_q's VC
  logic [PW-1:0]  tdat;                 // cur_q's data flit (a terminal's)
  xnoc_pkg::head_t thd;                 // cur_q's head (a terminal's)
  xnoc_pkg::meta_t tmt;
  assign pk = {tm_q, ghd_q.out_dest != None};
  always_comb begin
    pfirst = '0;
    pnext  = '0;
    plast  = 1'b1;
    for (int i = N; i >= 0; i--) begin
      if (pk[i]) pfirst = LB'(i);
      if (pk[i] && i > 32'(cur_q)) begin
        pnext = LB'(i);
        plast = 1'b0;
      end
    end
  end
  always_comb begin
    unique case (ghd_q.func)
      4'(xnoc_pkg::NcFuncAnd), 4'(xnoc_pkg::NcFuncMin32u): ident = '1;
      4'(xnoc_pkg::NcFuncMin32s): ident = {2{32'h7FFF_FFFF}};
      4'(xnoc_pkg::NcFuncMax32s): ident = {2{32'h8000_0000}};
      4'(xnoc_pkg::NcFuncMul32):  ident = {2{32'd1}};
      default:                    ident = '0;
    endcase
  end
  always_comb begin
    pvc  = '0;
    tmt  = '0;
    tdat = '0;
    for (int l = 0; l < N; l++) begin
      if (tm_q[l] && l + 1 < 32'(cur_q)) pvc = pvc + VB'(1);
      if (32'(cur_q) == l + 1) begin
        tmt  = mt_q[l*V + 32'(mvc_q[l*VI +: VI])];
        tdat = tres[l*PW +: PW];
      end
    end
    if (cur_q != '0) pvc = pvc + VB'(1);
    thd          = '0;
    thd.dest     = AW'(tmt.src);
    thd.func     = ghd_q.func;
    thd.out_dest = None;
  end
  assign ovc = scan_q ? pvc : '0;
  logic unused_tmt;
  assign unused_tmt = ^{tmt.len, tmt.tag};
  // the result's head and meta
  xnoc_pkg::head_t ohd;
  xnoc_pkg::meta_t omt;
  logic            od_unit;             // out_dest is another router's unit
  assign lk_addr_o = ghd_q.out_dest;
  assign od_unit   = 32'(ghd_q.out_dest) >= NumTerms && ghd_q.out_dest != None &&
                     32'(ghd_q.out_dest) != NumTerms + 32'(self_i);
  always_comb begin
    ohd          = '0;
    ohd.dest     = ghd_q.out_dest;
    ohd.mc       = ghd_q.out_mc && !scan_q;  // a scan's OUT_MC: exclusive
    ohd.op       = ghd_q.out_op;
    ohd.count    = ghd_q.out_count;
    ohd.func     = ghd_q.func;
    ohd.ejsel    = od_unit ? xnoc_pkg::HeadEjselW'(32'(lk_port_i) + 1) : '0;
    ohd.out_dest = None;
    omt          = '0;
    omt.len      = glen_q;
    omt.tag      = gtag_q;
    omt.src      = 16'(32'(NumTerms) + 32'(self_i));
  end
  // the mask of every terminal: addresses 0..NumTerms-1
  logic [M*64-1:0] tmask;
  for (genvar b = 0; b < M * 64; b++) begin : g_tmask
    assign tmask[b] = (b < NumTerms);
  end

  // ----------------------------------------------------------- the control
  logic [7:0] gev;                      // the group's errors this cycle
  always_comb begin
    logic [7:0] ev;
    ev         = '0;
    lp_d       = lp_q;
    gst_d      = gst_q;
    mem_d      = mem_q;
    mvc_d      = mvc_q;
    ghd_d      = ghd_q;
    glen_d     = glen_q;
    gtag_d     = gtag_q;
    n_d        = n_q;
    scan_d     = scan_q;
    tm_d       = tm_q;
    cur_d      = cur_q;
    wait_d     = '0;
    send       = 1'b0;
    adv        = 1'b0;
    disc_d     = disc_q;
    stail      = 1'b0;
    pay        = ohd;
    done       = 1'b0;
    fin_o      = '0;
    comb_o     = '0;
    unique case (gst_q)
      GIdle: begin
        if (lead_any && nmatch == LB'(lead_cnt) && !multi) begin
          if (mism) ev[ErrConflict] = 1'b1;
          if (!oset) ev[ErrDest] = 1'b1;  // nowhere to send it: dropped
          disc_d = !oset;
          gst_d  = oset ? GHead : GData;
          mem_d  = match;
          mvc_d  = match_vc;
          ghd_d  = lhd;
          ghd_d.out_dest  = oset ? ohd_sel.out_dest : None;
          ghd_d.out_mc    = ohd_sel.out_mc;
          ghd_d.out_op    = ohd_sel.out_op;
          ghd_d.out_count = ohd_sel.out_count;
          glen_d = lmt.len;
          gtag_d = lead_tag;
          scan_d = lhd.op == OpScan && oset;
          tm_d   = match_t;
          cur_d  = '0;
          if (ghd_d.out_dest == None)
            for (int l = N - 1; l >= 0; l--) if (match_t[l]) cur_d = LB'(l + 1);
          if (scan_d && 32'($countones(match_t)) >= V) begin
            ev[ErrConflict] = 1'b1;       // more terminals than VCs for their results: dropped
            scan_d = 1'b0;
            disc_d = 1'b1;
            gst_d  = GData;
          end
        end else if (lead_any) begin
          if (multi || nmatch > LB'(lead_cnt)) ev[ErrConflict] = 1'b1;
          lp_d   = (32'(lp_q) == G - 1) ? '0 : lp_q + 1'b1;
          wait_d = (wait_q == TB'(Timeout)) ? wait_q : wait_q + TB'(1);
          if (wait_q == TB'(Timeout - 1)) ev[ErrTimeout] = 1'b1;
        end
      end
      GHead: begin
        if (scan_q && cur_q != '0) pay = thd;
        if (cr_avail) begin
          send  = 1'b1;
          gst_d = (scan_q && !plast) ? GHead : GMeta;
          if (scan_q) cur_d = plast ? pfirst : pnext;
        end
      end
      GMeta: begin
        pay = omt;
        if (cr_avail) begin
          send  = 1'b1;
          n_d   = '0;
          stail = (!ghd_q.out_mc || scan_q) && nd == '0;
          gst_d = (ghd_q.out_mc && !scan_q) ? GMask : (scan_q && !plast) ? GMeta : GData;
          if (scan_q) cur_d = plast ? pfirst : pnext;
        end
      end
      GMask: begin
        pay = tmask[64 * 32'(n_q) +: 64];
        if (cr_avail) begin
          send = 1'b1;
          n_d  = n_q + EB'(1);
          if (32'(n_q) == M - 1) begin
            n_d   = '0;
            stail = nd == '0;
            gst_d = GData;
          end
        end
      end
      default: begin                    // GData
        pay = (scan_q && cur_q != '0) ? tdat : acc[(N-1)*PW +: PW];
        if ((cr_avail || disc_q) && mready == '1) begin
          adv    = !scan_q || plast;      // a scan pops its members after the round's last packet
          send   = !disc_q;
          n_d    = adv ? n_q + EB'(1) : n_q;
          stail  = (n_q + EB'(1) == EB'(nd));
          comb_o = adv ? LB'($countones(mem_q)) - LB'(1) : '0;
          if (adv && (mtail & mem_q) != (stail ? mem_q : '0)) ev[ErrPacket] = 1'b1;
          if (scan_q) cur_d = plast ? pfirst : pnext;
        end
      end
    endcase
    if (gst_q == GData && nd == '0 && disc_q) begin
      adv   = 1'b1;                     // a dropped group without data
      stail = 1'b1;
    end
    if ((send || adv) && stail && (!scan_q || plast)) begin
      done  = 1'b1;
      fin_o = LB'($countones(mem_q));
      gst_d = GIdle;
      mem_d = '0;
    end
    gev = ev;
  end
  assign ev_tag_o  = (gst_q == GIdle) ? lead_tag : gtag_q;
  assign ev_need_o = (gst_q == GIdle) ? lead_cnt : ghd_q.count;
  assign ev_got_o  = 4'(nmatch);

  // the pops: a member's data flit as the result's leaves; else per lane the
  // lowest VC whose header register takes its front flit (head, meta, or a
  // dropped packet's flits)
  logic [G-1:0] hev_packet, hev_long;
  always_comb begin
    pop       = '0;
    hcap_head = '0;
    hcap_meta = '0;
    hev_packet = '0;
    hev_long   = '0;
    for (int g = 0; g < G; g++) hst_d[g] = hst_q[g];
    for (int l = 0; l < N; l++) begin
      logic busy;
      busy = 1'b0;
      if (gst_q == GData && adv && nd != '0 && mem_q[l]) begin
        pop[l*V + 32'(mvc_q[l*VI +: VI])] = 1'b1;
        busy = 1'b1;
      end
      for (int v = 0; v < V; v++) begin
        if (!busy && !empty[l*V + v] && hst_q[l*V + v] != HReady) begin
          busy = 1'b1;
          pop[l*V + v] = 1'b1;
          unique case (hst_q[l*V + v])
            HHead: begin
              hcap_head[l*V + v] = 1'b1;
              if (!f_hd_ok[l*V + v]) begin
                hev_packet[l*V + v] = 1'b1;
                hst_d[l*V + v] = f_tail[l*V + v] ? HHead : HDrop;
              end else begin
                hst_d[l*V + v] = HMeta;
              end
            end
            HMeta: begin
              hcap_meta[l*V + v] = 1'b1;
              if (f_mt_long[l*V + v] || !f_mt_ok[l*V + v]) begin
                hev_long[l*V + v]   = f_mt_long[l*V + v];
                hev_packet[l*V + v] = !f_mt_long[l*V + v];
                hst_d[l*V + v] = f_tail[l*V + v] ? HHead : HDrop;
              end else begin
                hst_d[l*V + v] = HReady;
              end
            end
            default: begin              // HDrop: to the tail
              if (f_tail[l*V + v]) hst_d[l*V + v] = HHead;
            end
          endcase
        end
      end
    end
    // the group's members are free for their next packets after its last flit
    if (done) begin
      for (int l = 0; l < N; l++) if (mem_q[l]) hst_d[l*V + 32'(mvc_q[l*VI +: VI])] = HHead;
    end
  end

  // credits for the FIFOs, one cycle after the pop (like the router)
  logic [N-1:0]    icr_q;
  logic [N*VB-1:0] icr_vc_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      icr_q    <= '0;
      icr_vc_q <= '0;
    end else begin
      for (int l = 0; l < N; l++) begin
        icr_q[l] <= (pop[l*V +: V] != '0);
        icr_vc_q[l*VB +: VB] <= '0;
        for (int v = 0; v < V; v++) if (pop[l*V + v]) icr_vc_q[l*VB +: VB] <= VB'(v);
      end
    end
  end
  assign in_credit_o    = icr_q;
  assign in_credit_vc_o = icr_vc_q;

  logic          ovalid_q, otail_q, ohead_q;
  logic [VB-1:0] ovc_q;
  logic [PW-1:0] opay_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      gst_q    <= GIdle;
      disc_q   <= 1'b0;
      scan_q   <= 1'b0;
      lp_q     <= '0;
      mem_q    <= '0;
      wait_q   <= '0;
      ovalid_q <= 1'b0;
      for (int g = 0; g < G; g++) hst_q[g] <= HHead;
    end else begin
      gst_q    <= gst_d;
      disc_q   <= disc_d;
      scan_q   <= scan_d;
      lp_q     <= lp_d;
      mem_q    <= mem_d;
      wait_q   <= wait_d;
      ovalid_q <= send;
      for (int g = 0; g < G; g++) hst_q[g] <= hst_d[g];
    end
  end
  always_ff @(posedge clk_i) begin
    mvc_q  <= mvc_d;
    ghd_q  <= ghd_d;
    glen_q <= glen_d;
    gtag_q <= gtag_d;
    n_q    <= n_d;
    tm_q   <= tm_d;
    cur_q  <= cur_d;
    for (int g = 0; g < G; g++) begin
      if (hcap_head[g]) hd_q[g] <= front[g][xnoc_pkg::LinkPayloadLsb +: PW];
      if (hcap_meta[g]) mt_q[g] <= front[g][xnoc_pkg::LinkPayloadLsb +: PW];
    end
    if (send) begin
      otail_q <= stail;
      ovc_q   <= ovc;
      ohead_q <= (gst_q == GHead);
      opay_q  <= pay;
    end
  end
  xnoc_pkg::link_flit_t oflit;
  always_comb begin
    oflit         = '0;
    oflit.tail    = otail_q;
    oflit.head    = ohead_q;
    oflit.vc      = ovc_q;
    oflit.payload = opay_q;
  end
  assign out_flit_o  = oflit;
  assign out_valid_o = ovalid_q;
  assign res_o       = done && !disc_q;

  // the header stage's errors join the group's
  always_comb begin
    ev_o            = gev;
    ev_o[ErrPacket] = gev[ErrPacket] | (hev_packet != '0);
    ev_o[ErrLong]   = hev_long != '0;
  end
  logic hdr_idle;
  always_comb begin
    hdr_idle = 1'b1;
    for (int g = 0; g < G; g++) if (hst_q[g] != HHead) hdr_idle = 1'b0;
  end
  assign idle_o = (empty == '1) && hdr_idle && gst_q == GIdle && icr_q == '0 && !ovalid_q;

`ifdef XNOC_ASSERT
  // Named invariants, checked in assertion-enabled simulation builds.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // a lane returns at most one credit a cycle: one VC popped per lane
      for (int l = 0; l < N; l++) StreamOnePopPerLane: assert ((pop[l*V +: V] & (pop[l*V +: V] - V'(1))) == '0);
      // a data flit leaves only with every member's flit at the front, and only data of members is popped
      StreamAllMembers: assert (!(gst_q == GData && adv && nd != '0) || mready == '1);
      // a group has exactly COUNT members, one per lane
      StreamCount: assert (gst_q == GIdle || 32'($countones(mem_q)) == 32'(ghd_q.count));
      // a member's header register holds its packet until the group's last flit left
      for (int l = 0; l < N; l++)
        StreamMemberHeld: assert (gst_q == GIdle || !mem_q[l] || hst_q[l*V + 32'(mvc_q[l*VI +: VI])] == HReady);
      // a scan's prefix leaves on VC 0, each terminal's result on a VC of its own below V
      ScanVcs: assert (!(send && scan_q) || ((cur_q == '0) == (ovc == '0) && 32'(ovc) < V));
      // a scan pops its members only with the round's last packet: each result gets every beat
      ScanRound: assert (!(scan_q && adv && gst_q == GData) || plast);
    end
  end
`endif
endmodule
