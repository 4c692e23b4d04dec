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
// Written for simulation speed under Verilator as much as for synthesis
// (docs/performance.md):
//  * per-VC state is packed vectors (one bit per VC) and small arrays, so
//    "which VCs need work" is one word-wide test;
//  * a buffered flit's 64-bit payload is stored apart from its head/tail
//    bits: the model moves native 64-bit words, never multi-word vectors;
//  * the work of a VC, port or arbiter sits under the condition that needs
//    it (a flit to route, a request, a grant), so an idle VC costs a bit
//    test and an idle router a handful of them;
//  * the ST registers are the output ports themselves, written only when a
//    flit leaves;
//  * each port's flit sits in a slot of whole 32-bit words of the link buses
//    (LW = xnoc_pkg::LinkSlotW; the padding is 0 and unread), so the netlist
//    connects a link by copying words instead of shifting and masking 69-bit
//    fields.
// A link flit is xnoc_pkg::link_flit_t {vc, tail, head, payload}; its widths
// (and the 64-bit payload) are the package's, not parameters.
module xnoc_router #(
  parameter int NumPorts   = 5,    // ports
  parameter int NumVcs     = 2,    // virtual channels per port (1..8)
  parameter int BufDepth   = 8,    // buffer depth per VC (flits)
  parameter int NumAddrs   = 16,   // routing-table entries (terminals, then coding units)
  parameter int NumClasses = 1,    // VC classes (1..3; NumVcs a multiple of it)
  parameter int NumGroups  = 1,    // group-table entries (dragonfly Valiant / UGAL routing; 1: unused)
  // bits per hop of a source route: the topology's ports, without a coding
  // unit's extra port (source routes never lead into the unit)
  parameter int RouteBits  = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  // 1: one model serves networks of different address counts (the tile
  // build, rtl/xnoc_tile.sv): the network's count is the run-time input
  // num_addrs_i (at most NumAddrs), and idle_o tells an empty router.
  // 0: the network's own router (the flat netlist): NumAddrs is the count,
  // num_addrs_i is not read and idle_o is 0, so neither costs the model.
  parameter int Shared     = 0,
  // the short names the body uses for widths and loops
  localparam int P   = NumPorts,
  localparam int V   = NumVcs,
  localparam int D   = BufDepth,
  localparam int PW  = xnoc_pkg::LinkPayloadW,
  localparam int NT  = NumAddrs,
  localparam int NC  = NumClasses,
  localparam int NG  = NumGroups,
  localparam int SRB = RouteBits,
  localparam int FW  = xnoc_pkg::LinkFlitW,
  localparam int LW  = xnoc_pkg::LinkSlotW,     // a port's slot in the link vectors
  localparam int VB  = xnoc_pkg::LinkVcW,       // a flit's (and a credit's) VC field
  localparam int PB  = (P > 1) ? $clog2(P) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // configuration
  input  logic            cfg_we_i,
  input  logic            cfg_kind_i,     // 0: routing table, 1: port attributes
  input  logic [xnoc_pkg::CfgAddrW-1:0] cfg_addr_i,
  input  logic [xnoc_pkg::CfgDataW-1:0] cfg_data_i,
  // links
  input  logic [P-1:0]    in_valid_i,
  input  logic [P*LW-1:0] in_flit_i,
  output logic [P-1:0]    in_credit_o,
  output logic [P*VB-1:0] in_credit_vc_o,
  output logic [P-1:0]    out_valid_o,
  output logic [P*LW-1:0] out_flit_o,
  input  logic [P-1:0]    out_credit_i,
  input  logic [P*VB-1:0] out_credit_vc_i,
  // debug / performance counters (read while dbg_en_i is set)
  input  logic            dbg_en_i,
  input  logic [xnoc_pkg::DbgAddrW-1:0] dbg_addr_i,
  output logic [31:0]     dbg_data_o,
  output logic            err_o,
  // with Shared = 1: the network's address count (a table-routed head for
  // an address from it on is a bad route, error bit 3, as for one beyond
  // the table), and no flit buffered in any input VC
  input  logic [15:0]     num_addrs_i,
  output logic            idle_o,
  // with Shared = 1: the next values of the link registers above
  // (out_valid_o .. in_credit_vc_o after the coming edge), for a model that
  // keeps a link's register at its receiving end (rtl/xnoc_tile.sv); 0 with
  // Shared = 0 (the flat netlist leaves them open).
  // Flit and VC fields are meaningful only where the valid bit is set.
  output logic [P-1:0]    out_valid_d_o,
  output logic [P*LW-1:0] out_flit_d_o,
  output logic [P-1:0]    in_credit_d_o,
  output logic [P*VB-1:0] in_credit_vc_d_o
);
  // One shared C++ class for every router instance, rather than a copy per
  // instance: this keeps an 8x8 network's model small and quick to compile.
  /* verilator no_inline_module */

  localparam int VI  = (V > 1) ? $clog2(V) : 1; // VC index bits
  localparam int PV  = P * V;
  localparam int CW  = $clog2(D + 1);           // credit / occupancy counters
  localparam int VPC = V / NC;                  // VCs per class
  localparam int TW  = (NT > 1) ? $clog2(NT) : 1;
  localparam int GI  = (PV > 1) ? $clog2(PV) : 1; // input VC index bits
  localparam int RW  = PB + 2;                  // table port + ejection select, unwrapped
  // output VCs a head may take: all (ejection port), or class c's: MaskC0 << c*VPC
  localparam logic [V-1:0] MaskAll = {V{1'b1}};
  localparam logic [V-1:0] MaskC0  = MaskAll >> (V - VPC);
  localparam int GW  = (NG > 1) ? $clog2(NG) : 1;
  localparam int QW  = $clog2(V * D + 1) + 2;   // UGAL: flits queued at an output, doubled
  localparam int DW = xnoc_pkg::PortDimW;
  localparam int AW = xnoc_pkg::HeadDestW;        // head addresses
  localparam logic [DW-1:0] DimTerm = {DW{1'b1}};  // port attribute: a terminal port

  // ---------------------------------------------------------------- config
  // Written by the harness during/after reset; deliberately not reset.
  logic [PB-1:0] table_q [NT];
  logic [PB-1:0] gtable_q [NG];   // the way to group i (Valiant's first phase)
  logic [DW-1:0] dim_q   [P];
  logic [P-1:0]  term_q;        // dim == terminal: any VC, ejection select applies
  logic [P-1:0]  dateline_q;
  logic          cfg_tbl_we, cfg_port_we, cfg_grp_we;

  assign cfg_tbl_we  = cfg_we_i && !cfg_kind_i && (32'(cfg_addr_i) < NT);
  assign cfg_grp_we  = cfg_we_i && !cfg_kind_i && (32'(cfg_addr_i) >= NT) && (32'(cfg_addr_i) < NT + NG);
  assign cfg_port_we = cfg_we_i && cfg_kind_i && (32'(cfg_addr_i) < P);

  always_ff @(posedge clk_i) begin
    if (cfg_tbl_we) table_q[cfg_addr_i[TW-1:0]] <= cfg_data_i[PB-1:0];
    if (cfg_grp_we) gtable_q[GW'(32'(cfg_addr_i) - NT)] <= cfg_data_i[PB-1:0];
    if (cfg_port_we) begin
      dim_q[cfg_addr_i[PB-1:0]]      <= cfg_data_i[DW-1:0];
      term_q[cfg_addr_i[PB-1:0]]     <= (cfg_data_i[DW-1:0] == DimTerm);
      dateline_q[cfg_addr_i[PB-1:0]] <= cfg_data_i[DW];
    end
  end

  logic unused_cfg;                    // reserved bits of the data bus
  assign unused_cfg = ^cfg_data_i;

  // ================================================================ state
  // Input VC g = p*V + v, output VC og = o*V + w.  Per-VC fields are
  // packed side by side (VC g at [g*W +: W]): the whole state of a router's
  // VCs is a few machine words.
  //
  // BW: the input buffers, and the flits at their fronts (VC g's payload
  // at front_pl[g*PW +: PW], its {tail, head} at front_ht[g*2 +: 2])
  logic [PV-1:0]    occ;                 // VC g holds a flit
  logic [PV*PW-1:0] front_pl;
  logic [PV*2-1:0]  front_ht;
  logic [PV*CW-1:0] cnt;                 // flits held (debug read)
  logic [PV-1:0]    pop, pop_tail;       // SA/ST: the switch takes VC g's front flit
  logic [P-1:0]     bad_vc;              // flit on a VC >= V
  logic [PV-1:0]    fifo_err;            // write into a full buffer

  xnoc_vc_buffers #(.NumPorts(P), .NumVcs(V), .BufDepth(D)) u_bufs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_flit_i  (in_flit_i),
    .pop_i      (pop),
    .occ_o      (occ),
    .front_pl_o (front_pl),
    .front_ht_o (front_ht),
    .count_o    (cnt),
    .full_err_o (fifo_err),
    .bad_vc_o   (bad_vc)
  );

  // Route of the packet at the front (RC result) and the output VC it holds.
  logic [PV-1:0] rt_vld_q, rt_vld_d;
  logic [PV*PB-1:0] rt_port_q, rt_port_d;
  logic [PV*V-1:0]  rt_mask_q, rt_mask_d;          // output VCs a head may take
  logic [PV-1:0]    rt_min_q, rt_min_d;            // UGAL chose the minimal route: clear the head's VAL
  logic [PV-1:0] ovc_vld_q, ovc_vld_d;
  logic [PV*VI-1:0] ovc_q, ovc_d;

  // Output VCs: credits for the downstream buffer, and whether a packet
  // holds it.  cred_q mirrors "credit != 0", a register so that "which
  // output VCs may take a flit" is one word test (an assertion checks it).
  logic [PV*CW-1:0] credit_q, credit_d;
  logic [PV-1:0] cred_q, cred_d;         // credit != 0
  logic [PV-1:0] busy_q, busy_d;
  logic [PV-1:0] free;                   // credit and not held

  // =========================================== RC and SA eligibility (per VC)
  logic [PV-1:0] ready;                  // routed flit at the front
  logic [PV-1:0] elig;                   // may bid for the switch this cycle
  logic [PV-1:0] rc_head;                // RC found a head (routed next cycle)
  logic [PV-1:0] rc_err;                 // bad route / body flit without a head
  logic [P-1:0]  want;                   // some routed flit waits for this output

  assign free  = cred_q & ~busy_q;

  if (Shared != 0) begin : g_idle
    assign idle_o = (occ == '0);
  end else begin : g_no_idle
    logic unused_na;
    assign unused_na = ^num_addrs_i;
    assign idle_o    = 1'b0;
  end
  assign ready = rt_vld_q & occ;

  // UGAL: flits queued downstream of each output port (its VCs' depth minus
  // credits), once per port; only routers with a group table need it
  logic [QW-1:0] queued [P];
  always_comb begin
    for (int o = 0; o < P; o++) begin
      queued[o] = '0;
      if (NG > 1)
        for (int w = 0; w < V; w++) queued[o] = queued[o] + QW'(D) - QW'(credit_q[(o * V + w) * CW +: CW]);
    end
  end

  // the head at a VC's front, read by name (rtl/xnoc_pkg.sv; module scope:
  // yosys 0.23 takes struct variables only here)
  xnoc_pkg::head_t    rc_h;
  xnoc_pkg::head_sr_t rc_hs;
  logic unused_head;                   // the coding unit's fields, and the route past this hop
  assign unused_head = ^{rc_h, rc_hs};

  always_comb begin
    logic [PV-1:0] todo;                 // a flit at the front, not routed yet
    logic          sr;
    logic [AW-1:0] dest;
    logic [PB-1:0] tbl, o;
    logic [RW-1:0] port;
    logic [1:0]    cls, gc;
    logic          val, first;
    logic [xnoc_pkg::HeadVgroupW-1:0] vg;
    logic [PB-1:0] vport;
    logic [QW-1:0] qmin, qval;
    todo      = occ & ~rt_vld_q;
    rc_h      = '0;
    rc_hs     = '0;
    rt_port_d = rt_port_q;
    rt_mask_d = rt_mask_q;
    rt_min_d  = rt_min_q;
    rc_head   = '0;
    rc_err    = '0;
    elig      = '0;
    want      = '0;
    sr        = 1'b0;
    dest      = '0;
    tbl       = '0;
    o         = '0;
    port      = '0;
    cls       = '0;
    gc        = '0;
    val       = 1'b0;
    first     = 1'b0;
    vg        = '0;
    vport     = '0;
    qmin      = '0;
    qval      = '0;
    if (todo != '0) begin
      for (int g = 0; g < PV; g++) begin
        if (todo[g]) begin
          rc_h  = front_pl[g*PW +: xnoc_pkg::HeadW];
          rc_hs = front_pl[g*PW +: xnoc_pkg::HeadW];
          sr    = rc_h.sr;
          dest  = rc_h.dest;
          tbl  = '0;
          if (sr) begin                                    // source routed
            port = RW'(rc_hs.route[SRB-1:0]);
          end else begin                                   // table (+ ejection select)
            if (32'(dest) < NT) tbl = table_q[dest[TW-1:0]];
            else rc_err[g] = 1'b1;
            // a shared model's rows from num_addrs_i on are written 0, the
            // port taken above for an address beyond the table
            if (Shared != 0 && 32'(dest) >= 32'(num_addrs_i)) rc_err[g] = 1'b1;
            // Valiant: before its first global hop (class 0, or just injected) a
            // packet heads for its intermediate group; UGAL decides at the first
            // router between that and the minimal route, by the queues at both outputs
            gc    = 2'((g % V) / VPC);
            first = term_q[g / V];
            val   = (NG > 1) && rc_h.val && (first || gc == 2'd0);
            vg    = rc_h.vgroup;
            rt_min_d[g] = 1'b0;
            if (val) begin
              if (32'(vg) < NG) vport = gtable_q[GW'(vg)];
              else rc_err[g] = 1'b1;
              if (first && rc_h.ugal) begin
                qmin = queued[tbl];
                qval = queued[vport];
                rt_min_d[g] = (qmin <= (qval << 1));     // UGAL-L: a Valiant path is about twice as long
              end
              if (!rt_min_d[g]) tbl = vport;
            end
            port = term_q[tbl] ? RW'(tbl) + RW'(rc_h.ejsel) : RW'(tbl);
          end
          rc_head[g] = front_ht[g*2];
          if (!rc_head[g] || port >= RW'(P)) rc_err[g] = 1'b1;
          // VC class: one up across a dateline (at most NC-1), kept along a
          // dimension, 0 on a turn (NC <= 2: the torus and octagon rule)
          gc  = 2'((g % V) / VPC);
          cls = dateline_q[port[PB-1:0]] ? ((32'(gc) + 1 < NC) ? gc + 2'd1 : 2'(NC - 1))
                                         : (dim_q[port[PB-1:0]] == dim_q[g / V]) ? gc : 2'd0;
          rt_port_d[g*PB +: PB] = port[PB-1:0];
          rt_mask_d[g*V +: V] = term_q[port[PB-1:0]] ? MaskAll : (MaskC0 << (32'(cls) * VPC));
        end
      end
    end
    if (ready != '0) begin
      for (int g = 0; g < PV; g++) begin
        if (ready[g]) begin
          o       = rt_port_q[g*PB +: PB];
          want[o] = 1'b1;
          if (ovc_vld_q[g]) elig[g] = cred_q[32'(o) * V + 32'(ovc_q[g*VI +: VI])];
          else              elig[g] = ((free[32'(o) * V +: V] & rt_mask_q[g*V +: V]) != '0);
        end
      end
    end
  end

  // ======================================================= SA: input stage
  // Each input port's arbiter picks one eligible VC; the picked VC asks for
  // its output port, and a head is offered the lowest free VC of its mask.
  // Per-port fields packed side by side (port i at [i*W +: W]).
  logic [P-1:0]    in_any, in_won;
  logic [P*VI-1:0] in_vc;                // the VC input i picked
  logic [P*VI-1:0] in_ovc;               // output VC the picked flit travels on
  logic [P*PW-1:0] in_pl;                // the picked flit: payload ...
  logic [P*2-1:0]  in_ht;                // ... and {tail, head}
  logic [P*P-1:0]  out_req;              // out_req[o*P + i]: input i asks for output o

  xnoc_rr_arb_bank #(.NumReqs(V), .NumGroups(P)) u_in_arb (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (elig),
    .upd_i  (in_won),
    .any_o  (in_any),
    .idx_o  (in_vc)
  );

  always_comb begin
    logic [GI-1:0] g;
    logic [PB-1:0] o;
    logic [V-1:0]  a;
    out_req = '0;
    in_ovc  = '0;
    in_pl   = '0;
    in_ht   = '0;
    g = '0;
    o = '0;
    a = '0;
    if (in_any != '0) begin
      for (int i = 0; i < P; i++) begin
        if (in_any[i]) begin
          g          = GI'(i * V) + GI'(in_vc[i*VI +: VI]);
          o          = rt_port_q[g*PB +: PB];
          out_req[32'(o) * P + i] = 1'b1;
          // the crossbar's first level: V:1 per input port (the second, P:1
          // per output, at ST)
          for (int v = 0; v < V; v++) begin
            if (in_vc[i*VI +: VI] == VI'(v)) begin
              in_pl[i*PW +: PW] = front_pl[(i*V + v)*PW +: PW];
              in_ht[i*2 +: 2]   = front_ht[(i*V + v)*2 +: 2];
            end
          end
          if (ovc_vld_q[g]) begin
            in_ovc[i*VI +: VI] = ovc_q[g*VI +: VI];
          end else begin                  // head: lowest free VC of its mask
            a = free[32'(o) * V +: V] & rt_mask_q[g*V +: V];
            for (int w = V - 1; w >= 0; w--) if (a[w]) in_ovc[i*VI +: VI] = VI'(w);
          end
        end
      end
    end
  end

  // ====================================================== SA: output stage
  logic [P-1:0]    out_any;
  logic [P*PB-1:0] out_in;               // the input that output o granted

  xnoc_rr_arb_bank #(.NumReqs(P), .NumGroups(P)) u_out_arb (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (out_req),
    .upd_i  ({P{1'b1}}),
    .any_o  (out_any),
    .idx_o  (out_in)
  );

  // ============================================ switch traversal (winners)
  // The winner of output o leaves its buffer into o's ST register with its
  // output VC; an SR head's route field is consumed (shifted right by SRB).
  logic [FW-1:0] st_flit [P];
  logic [PV-1:0] take, take_tail;        // output VC og sends a flit (and it is a tail)
  xnoc_pkg::head_t    st_h;              // a leaving head, by name
  xnoc_pkg::head_sr_t st_hs;

  always_comb begin
    logic [GI-1:0] g;
    logic [PW-1:0] pl;
    logic [1:0]    ht;
    logic [PB-1:0] i;
    in_won    = '0;
    pop       = '0;
    pop_tail  = '0;
    take      = '0;
    take_tail = '0;
    for (int o = 0; o < P; o++) st_flit[o] = '0;
    st_h  = '0;
    st_hs = '0;
    g  = '0;
    pl = '0;
    ht = '0;
    i  = '0;
    if (out_any != '0) begin
      for (int o = 0; o < P; o++) begin
        if (out_any[o]) begin
          i  = out_in[o*PB +: PB];
          g  = GI'(32'(i) * V) + GI'(in_vc[32'(i)*VI +: VI]);   // the VC that input i picked
          pl = in_pl[32'(i)*PW +: PW];
          ht = in_ht[32'(i)*2 +: 2];
          st_h  = pl[xnoc_pkg::HeadW-1:0];
          st_hs = pl[xnoc_pkg::HeadW-1:0];
          if (!ovc_vld_q[g] && st_hs.sr) begin         // a source route: this hop's port consumed
            st_hs.route = st_hs.route >> SRB;
            pl[xnoc_pkg::HeadW-1:0] = st_hs;
          end
          if (!ovc_vld_q[g] && !st_h.sr && rt_min_q[g]) begin  // UGAL chose minimal: no Valiant phase
            st_h.val = 1'b0;
            pl[xnoc_pkg::HeadW-1:0] = st_h;
          end
          in_won[i]    = 1'b1;
          pop[g]       = 1'b1;
          pop_tail[g]  = ht[1];
          take[o*V + 32'(in_ovc[32'(i)*VI +: VI])]      = 1'b1;
          take_tail[o*V + 32'(in_ovc[32'(i)*VI +: VI])] = ht[1];
          // xnoc_pkg::link_flit_t {vc, tail, head, payload}, written as one
          // value: field by field through a link_flit_t variable costs the
          // model 0.2% more instructions (mesh:4x4, callgrind); tests/abi.t.sh
          // checks the package keeps this order
          st_flit[o]   = {VB'(in_ovc[32'(i)*VI +: VI]), ht, pl};
        end
      end
    end
  end

  // ============================================== next state: input VCs
  logic [PV-1:0] oc_err;                 // output VC credit over/underflow

  always_comb begin
    rt_vld_d  = (rt_vld_q & ~(pop & pop_tail)) | rc_head;
    ovc_vld_d = ovc_vld_q;
    ovc_d     = ovc_q;
    // the popped flits: a head takes its output VC, a tail gives it back
    if (pop != '0) begin
      for (int gg = 0; gg < PV; gg++) begin
        if (pop[gg]) begin
          ovc_vld_d[gg] = !pop_tail[gg];
          ovc_d[gg*VI +: VI] = in_ovc[(gg / V)*VI +: VI];
        end
      end
    end
  end

  // ============================================== next state: output VCs
  // Two blocks, as the input buffers' pops and pushes (xnoc_vc_buffers): the
  // flits sent follow the router's state only, the credits returned the
  // links; a model evaluates the second twice a cycle, the first once.
  logic [PV*CW-1:0] credit_t;            // the credits after this cycle's flits sent ...
  logic [PV-1:0]    cred_t;              // ... and their "credit != 0"
  logic [PV-1:0]    oc_err_t;            // a flit sent without a credit

  always_comb begin
    credit_t = credit_q;
    cred_t   = cred_q;
    busy_d   = busy_q;
    oc_err_t = '0;
    // flits sent: a head takes the VC, a tail frees it
    if (take != '0) begin
      for (int og = 0; og < PV; og++) begin
        if (take[og]) begin
          if (credit_q[og*CW +: CW] == '0) oc_err_t[og] = 1'b1;    // cannot happen: SA checks
          credit_t[og*CW +: CW] = credit_q[og*CW +: CW] - CW'(1);
          cred_t[og]            = (credit_t[og*CW +: CW] != '0);
          busy_d[og]            = !take_tail[og];
        end
      end
    end
  end

  always_comb begin
    credit_d = credit_t;
    cred_d   = cred_t;
    oc_err   = oc_err_t;
    // credits returned by the downstream buffers (one per port at most, for
    // the VC it names; the VC loop has constant indices, so synthesis gets a
    // compare per VC, and a port without a credit costs one bit test)
    if (out_credit_i != '0) begin
      for (int o = 0; o < P; o++) begin
        if (out_credit_i[o]) begin
          for (int og = o * V; og < (o + 1) * V; og++) begin
            if (out_credit_vc_i[o*VB +: VB] == VB'(og - o * V)) begin
              if (credit_q[og*CW +: CW] == CW'(D)) oc_err[og] = 1'b1;   // more credits than slots
              else begin
                credit_d[og*CW +: CW] = credit_t[og*CW +: CW] + CW'(1);
                cred_d[og]            = (credit_d[og*CW +: CW] != '0);
              end
            end
          end
        end
      end
    end
  end

  // ============================================================ registers
  // Route and output-VC fields are only read while their valid bit is set;
  // the valid bits, pointers, counts and credits are reset.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rt_vld_q  <= '0;
      ovc_vld_q <= '0;
      cred_q    <= '1;
      busy_q    <= '0;
    end else begin
      rt_vld_q  <= rt_vld_d;
      ovc_vld_q <= ovc_vld_d;
      cred_q    <= cred_d;
      busy_q    <= busy_d;
    end
    rt_port_q <= rt_port_d;
    rt_mask_q <= rt_mask_d;
    rt_min_q  <= rt_min_d;
    ovc_q     <= ovc_d;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) credit_q <= {PV{CW'(D)}};
    else         credit_q <= credit_d;
  end

  // ST registers: the output ports themselves, written when a flit leaves
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_o <= '0;
      out_flit_o  <= '0;
    end else begin
      out_valid_o <= out_any;
      if (out_any != '0)
        for (int o = 0; o < P; o++) if (out_any[o]) out_flit_o[o*LW +: FW] <= st_flit[o];
    end
  end

  // the next values of the link registers, for a tile (Shared = 1; the flat
  // netlist leaves them open, and 0 costs its model nothing)
  if (Shared != 0) begin : g_next
    always_comb begin
      out_valid_d_o    = rst_ni ? out_any : '0;
      in_credit_d_o    = rst_ni ? in_won : '0;
      out_flit_d_o     = '0;
      in_credit_vc_d_o = '0;
      for (int o = 0; o < P; o++) out_flit_d_o[o*LW +: FW] = st_flit[o];
      for (int i = 0; i < P; i++) in_credit_vc_d_o[i*VB +: VB] = VB'(in_vc[i*VI +: VI]);
    end
  end else begin : g_no_next
    assign out_valid_d_o    = '0;
    assign in_credit_d_o    = '0;
    assign out_flit_d_o     = '0;
    assign in_credit_vc_d_o = '0;
  end

  // credits back upstream, one cycle after the pop
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      in_credit_o    <= '0;
      in_credit_vc_o <= '0;
    end else begin
      in_credit_o <= in_won;
      if (in_won != '0)
        for (int i = 0; i < P; i++) if (in_won[i]) in_credit_vc_o[i*VB +: VB] <= VB'(in_vc[i*VI +: VI]);
    end
  end

  // ============================== counters, errors and the debug read
  // (xnoc_router_dbg: per-port flits and stalls, the sticky error bits, the
  // read mux; the map is xnoc_pkg::Dbg*, sim_harness/net/dbg_map.h)
  xnoc_router_dbg #(.NumPorts(P), .NumVcs(V), .CntW(CW)) u_dbg (
    .clk_i,
    .rst_ni,
    .out_valid_i (out_valid_o),
    .stalled_i   (want & ~out_any),
    .err_i       ({|rc_err, |bad_vc, |fifo_err, |oc_err}),
    .occ_i       (cnt),
    .dbg_en_i,
    .dbg_addr_i,
    .dbg_data_o,
    .err_o
  );

`ifdef XNOC_ASSERT
  // Named invariants, checked in assertion-enabled simulation builds.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      NoCreditOverflow: assert (oc_err == '0);
      for (int g = 0; g < PV; g++) begin
        CreditNeverAboveDepth: assert (credit_q[g*CW +: CW] <= CW'(D));
        CredMirrorsCredit: assert (cred_q[g] == (credit_q[g*CW +: CW] != '0));
      end
    end
  end
`endif
endmodule
