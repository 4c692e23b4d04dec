// ncu_scan_tb - the streaming combiner (rtl/xnoc_ncu_stream.sv) as one unit
// of the in-network scan's chain (docs/network-coding.md "In-network scan"):
// random chunks of a scan, every packet it sends checked against the bench's
// model (docs/testing.md, "The streaming combiner bench").
//
// The bench is the router: lane PL (a network port) brings the previous
// unit's prefix, lanes N-C..N-1 (terminal ports, in rank order) this
// router's C terminals' contributions, each a link of its own (VCs 0..V-1,
// credit flow control, a flit at random 3 cycles in 4); the combiner's
// packets go into the router's input buffer, one per VC of D flits, drained
// at random.  Chunk g (a pure function of (seed, g)): tag g, a length
// 0..MaxFlits*8 bytes, an operator (any of the ten).  +first: the chain's
// first unit (no prefix), +last: its last (no prefix sent on), +excl: the
// exclusive scan.
//
// Properties ("FAIL Name: ..."):
//   ScanResult   each chunk's packets arrive once each: the prefix {dest =
//                the next unit, op SCAN, count C + 1, EJSEL 1 + the port
//                towards it} with every member's data combined, and terminal
//                j's {dest = the terminal} with the prefix and terminals
//                0..j combined (+excl: 0..j-1, or the operator's identity
//                with nothing below), meta {this unit, tag, length}, the tail
//                on the last flit
//   ScanVcs      the prefix only on VC 0, terminal j's result only on VC
//                1 + j: no two packets share a VC, so none waits behind
//                another in the router's buffers (the deadlock argument)
//   ScanCredits  per output VC: the combiner's credits + a flit on the link +
//                the router's buffer + a credit on its way back == D
//   ScanDrained  every chunk's packets have arrived within the budget
//   ScanNoError  the combiner raises no error bit
// and the RTL's assertions (ScanVcs, ScanRound, the Stream* ones).
// Plusargs: +seed=N (1), +groups=N (200), +first, +last, +excl, +fault=count
// (chunk 0's last terminal states one contribution more).
module ncu_scan_tb #(
  parameter int N  = 5,      // input lanes
  parameter int C  = 2,      // terminal lanes: N-C..N-1
  parameter int PL = 0,      // the prefix's lane
  parameter int V  = 3,      // VCs per lane (at least 1 + C)
  parameter int D  = 8,      // buffer depth
  parameter int NT = 32,     // addresses: 16 terminals, then the units
  parameter int NTerm = 16,
  parameter int Self = 5,    // this unit's router: its address is NTerm + Self
  parameter int MF = 32      // MaxFlits
) (
  input  logic clk,
  output logic fail_o
);
  localparam int PW = xnoc_pkg::LinkPayloadW;
  localparam int FW = xnoc_pkg::LinkFlitW;
  localparam int VB = xnoc_pkg::LinkVcW;
  localparam int LB = $clog2(N + 1);
  localparam int NP = 1 + C;                      // packets per chunk (with the prefix)
  localparam logic [11:0] None = 12'hFFF;

  logic            rst_n;
  logic [N-1:0]    in_valid, in_credit;
  logic [N*FW-1:0] in_flit;
  logic [N*VB-1:0] in_credit_vc;
  logic            out_valid, out_credit;
  logic [FW-1:0]   out_flit;
  logic [VB-1:0]   out_credit_vc;
  logic [11:0]     lk_addr;
  logic [2:0]      lk_port;
  logic [7:0]      ev;
  logic [15:0]     ev_tag;
  logic [3:0]      ev_need, ev_got;
  logic            res, ovf, idle;
  logic [LB-1:0]   fin, comb;
  assign lk_port = 3'(int'(lk_addr) % 6);

  xnoc_ncu_stream #(.NumIns(N), .NumVcs(V), .BufDepth(D), .NumAddrs(NT), .NumTerms(NTerm), .MaxFlits(MF),
                    .Timeout(100000), .PortBits(3)) dut (
    .clk_i (clk), .rst_ni (rst_n),
    .in_valid_i (in_valid), .in_flit_i (in_flit), .in_credit_o (in_credit), .in_credit_vc_o (in_credit_vc),
    .out_valid_o (out_valid), .out_flit_o (out_flit), .out_credit_i (out_credit), .out_credit_vc_i (out_credit_vc),
    .lk_addr_o (lk_addr), .lk_port_i (lk_port), .self_i (12'(Self)),
    .ev_o (ev), .ev_tag_o (ev_tag), .ev_need_o (ev_need), .ev_got_o (ev_got),
    .res_o (res), .fin_o (fin), .comb_o (comb), .overflow_o (ovf), .idle_o (idle)
  );

  int unsigned seed = 1, groups = 200, max_cycles;
  logic first = 1'b0, last = 1'b0, excl = 1'b0;
  string mode = "", fault = "";
  `include "ncu_model.svh"

  function automatic int g_len(input int g); logic [63:0] r = grand(g, 15, 0); return int'(r[31:16]) % (MF * 8 + 1); endfunction
  function automatic logic [3:0] g_func(input int g); logic [63:0] r = grand(g, 15, 0); return 4'(int'(r[63:56]) % xnoc_pkg::NcFuncNum); endfunction
  function automatic int g_dflits(input int g); return (g_len(g) + 7) / 8; endfunction
  function automatic logic is_mem(input int l); return (l >= N - C) || (l == PL && !first); endfunction
  function automatic logic [11:0] next_unit(); return 12'(NTerm + Self + 1); endfunction
  function automatic logic [63:0] ident(input logic [3:0] f);
    case (int'(f))
      xnoc_pkg::NcFuncAnd, xnoc_pkg::NcFuncMin32u: return '1;
      xnoc_pkg::NcFuncMin32s: return {2{32'h7FFFFFFF}};
      xnoc_pkg::NcFuncMax32s: return {2{32'h80000000}};
      xnoc_pkg::NcFuncMul32:  return {2{32'd1}};
      default:                return '0;
    endcase
  endfunction

  // flit i of lane l's contribution to chunk g
  function automatic logic [PW-1:0] contrib(input int g, input int l, input int i);
    xnoc_pkg::head_t h;
    xnoc_pkg::meta_t m;
    if (i == 0) begin
      h = '0;
      h.dest = 12'(NTerm + Self);
      h.ejsel = 4'(1 + l);
      h.op = 2'd3;                                    // SCAN
      h.count = 4'(C + (first ? 0 : 1));
      if (g == 0 && fault == "count" && l == N - 1) h.count = 4'(C + (first ? 1 : 2));
      h.func = g_func(g);
      h.out_dest = None;
      if (l >= N - C) begin                           // a terminal names the prefix's way on
        h.out_dest = last ? None : next_unit();
        h.out_mc = excl;
        h.out_op = 2'd3;
        h.out_count = 4'(C + 1);
      end
      return h;
    end
    if (i == 1) begin
      m.src = l >= N - C ? 16'(Self * C + l - (N - C)) : 16'(NTerm + Self - 1);
      m.tag = 16'(g);
      m.len = 32'(g_len(g));
      return m;
    end
    return gdata(g, l, i);
  endfunction

  // flit i of chunk g's packet p (0: the prefix, 1 + j: terminal j's result)
  function automatic logic [PW-1:0] result(input int g, input int p, input int i);
    xnoc_pkg::head_t h;
    xnoc_pkg::meta_t m;
    logic [PW-1:0] x;
    logic          any;
    int            upto;
    if (i == 0) begin
      h = '0;
      h.func = g_func(g);
      h.out_dest = None;
      if (p == 0) begin
        h.dest = next_unit();
        h.op = 2'd3;
        h.count = 4'(C + 1);
        h.ejsel = 4'(1 + int'(next_unit()) % 6);
      end else h.dest = 12'(Self * C + p - 1);
      return h;
    end
    if (i == 1) begin
      m.src = 16'(NTerm + Self);
      m.tag = 16'(g);
      m.len = 32'(g_len(g));
      return m;
    end
    // the members in lane order up to the prefix's end, terminal j's lane, or below it
    upto = (p == 0) ? N - 1 : (N - C + p - 1) - (excl ? 1 : 0);
    any = 1'b0;
    x = ident(g_func(g));
    for (int l = 0; l <= upto; l++) begin
      if (is_mem(l)) begin
        x = any ? op(g_func(g), x, gdata(g, l, i)) : gdata(g, l, i);
        any = 1'b1;
      end
    end
    return x;
  endfunction

  // ------------------------------------------------------------ state
  int unsigned cyc = 0;
  int  lnext [N];
  int  cur_g [N][V], cur_i [N][V];
  int  src_cred [N][V];
  int  rg [V], ri [V];               // per output VC: the chunk being received (-1: none, -2: meta next)
  int  rp [V];                       // ... and its packet
  logic [PW-1:0] rhead [V];
  int  held [V];
  logic got [];                      // chunk g's packet p at g*NP + p
  int  packets = 0, want_packets, failures = 0;
  longint flits = 0;
  logic done = 1'b0;
  localparam int ResetCycles = 4;

  task automatic violate(input string name, input string what);
    $display("FAIL %s: cycle %0d: %s", name, cyc, what);
    failures++;
  endtask

  localparam int CW = $clog2(D + 1);
  logic [CW-1:0] ocred [V];
  for (genvar v = 0; v < V; v++) begin : g_oc
    assign ocred[v] = dut.g_cr[v].u_credit.cnt_q;
  end
  task automatic check_credits();
    for (int v = 0; v < V; v++) begin
      int link = int'(out_valid && int'(out_flit[PW+2 +: 3]) == v);
      int back = int'(out_credit && int'(out_credit_vc) == v);
      if (int'(ocred[v]) + link + held[v] + back != D)
        violate("ScanCredits", $sformatf("output VC %0d: credits %0d + on the link %0d + in the router %0d + returning %0d != %0d",
                                         v, ocred[v], link, held[v], back, D));
    end
  endtask

  // a flit from the combiner, on VC v
  task automatic receive();
    logic [PW-1:0] pl;
    logic [1:0]    ht;
    int            v, g, p;
    xnoc_pkg::meta_t m;
    xnoc_pkg::head_t h;
    pl = out_flit[PW-1:0];
    ht = out_flit[PW +: 2];
    v = int'(out_flit[PW+2 +: 3]);
    flits++;
    if (v >= NP) begin violate("ScanVcs", $sformatf("a flit on VC %0d (the chunk's packets take VCs 0..%0d)", v, NP - 1)); return; end
    if (held[v] >= D) violate("ScanCredits", $sformatf("a flit into VC %0d's full buffer", v));
    held[v]++;
    if (rg[v] == -1) begin
      if (!ht[0]) begin violate("ScanVcs", $sformatf("VC %0d: a body flit with no packet open", v)); return; end
      h = pl;
      p = (h.dest == next_unit()) ? 0 : int'(h.dest) - Self * C + 1;
      if (p != v) violate("ScanVcs", $sformatf("the packet to %0d on VC %0d (its VC: %0d)", h.dest, v, p));
      rg[v] = -2;
      rp[v] = p;
      ri[v] = 1;
      rhead[v] = pl;
      return;
    end
    if (ht[0]) begin violate("ScanVcs", $sformatf("VC %0d: a head inside an open packet", v)); return; end
    if (rg[v] == -2) begin
      m = pl;
      g = int'(m.tag);
      if (g >= int'(groups) || rp[v] < 0 || rp[v] >= NP || got[g*NP + rp[v]]) begin
        violate("ScanResult", $sformatf("VC %0d: a packet with tag %0d (twice, or no chunk has it)", v, g));
        rg[v] = -1;
        return;
      end
      if (rhead[v] != result(g, rp[v], 0))
        violate("ScanResult", $sformatf("chunk %0d packet %0d: head %016x, expected %016x", g, rp[v], rhead[v], result(g, rp[v], 0)));
      rg[v] = g;
    end
    g = rg[v];
    if (pl != result(g, rp[v], ri[v]))
      violate("ScanResult", $sformatf("chunk %0d packet %0d: flit %0d is %016x, expected %016x", g, rp[v], ri[v], pl, result(g, rp[v], ri[v])));
    if (ht[1] != (ri[v] == 1 + g_dflits(g)))
      violate("ScanResult", $sformatf("chunk %0d packet %0d: flit %0d %s", g, rp[v], ri[v], ht[1] ? "closes it early" : "is the last but not a tail"));
    if (ht[1]) begin
      got[g*NP + rp[v]] = 1'b1;
      packets++;
      rg[v] = -1;
    end else ri[v]++;
  endtask

  initial begin
    void'($value$plusargs("seed=%d", seed));
    void'($value$plusargs("groups=%d", groups));
    void'($value$plusargs("fault=%s", fault));
    first = $test$plusargs("first");
    last  = $test$plusargs("last");
    excl  = $test$plusargs("excl");
    if (first) mode = {mode, " first"};
    if (last) mode = {mode, " last"};
    if (excl) mode = {mode, " exclusive"};
    max_cycles = 200 * groups + 10000;
    trng = mix(64'(seed)) | 64'h1;
    got = new[groups * NP];
    for (int g = 0; g < int'(groups); g++) for (int p = 0; p < NP; p++) got[g*NP + p] = (p == 0 && last);
    want_packets = int'(groups) * (last ? C : NP);
    for (int v = 0; v < V; v++) begin rg[v] = -1; ri[v] = 0; rp[v] = 0; held[v] = 0; end
    for (int l = 0; l < N; l++) begin
      lnext[l] = 0;
      for (int v = 0; v < V; v++) begin cur_g[l][v] = -1; cur_i[l][v] = 0; src_cred[l][v] = D; end
    end
    rst_n = 1'b0; in_valid = '0; in_flit = '0; out_credit = 1'b0; out_credit_vc = '0;
  end
  assign fail_o = (failures != 0);

  always @(posedge clk) begin
    int v, p0, g, k;
    cyc <= cyc + 1;
    rst_n <= (cyc >= ResetCycles);
    if (rst_n && !done) begin
      check_credits();
      if (out_valid) receive();
      if (ev != '0) violate("ScanNoError", $sformatf("error bits %02x (tag %0d, %0d of %0d members)", ev, ev_tag, ev_got, ev_need));
      for (int l = 0; l < N; l++)
        if (in_credit[l] && int'(in_credit_vc[l*VB +: VB]) < V) src_cred[l][int'(in_credit_vc[l*VB +: VB])]++;
      // each member lane's link: a flit 3 cycles in 4, its chunks in order, each on a VC with a credit
      for (int l = 0; l < N; l++) begin
        in_valid[l] <= 1'b0;
        in_flit[l*FW +: FW] <= FW'({rnd(1 << 30), rnd(1 << 30), rnd(1 << 30)});
        if (is_mem(l) && rnd(4) != 0) begin
          p0 = rnd(V);
          for (int j = 0; j < V; j++) begin
            v = (p0 + j) % V;
            if (cur_g[l][v] < 0 && lnext[l] < int'(groups)) begin
              cur_g[l][v] = lnext[l]; cur_i[l][v] = 0;
              lnext[l]++;
            end
            if (cur_g[l][v] >= 0 && src_cred[l][v] > 0) begin
              g = cur_g[l][v];
              in_valid[l] <= 1'b1;
              in_flit[l*FW +: FW] <= {3'(v), cur_i[l][v] == 1 + g_dflits(g), cur_i[l][v] == 0, contrib(g, l, cur_i[l][v])};
              src_cred[l][v]--;
              if (cur_i[l][v] == 1 + g_dflits(g)) cur_g[l][v] = -1;
              else cur_i[l][v]++;
              break;
            end
          end
        end
      end
      // the router drains one VC's buffer at random and returns its credit
      out_credit <= 1'b0;
      out_credit_vc <= 3'(rnd(8));
      k = rnd(V);
      for (int j = 0; j < V; j++) begin
        v = (k + j) % V;
        if (held[v] > 0 && rnd(100) < 80) begin
          held[v]--;
          out_credit <= 1'b1;
          out_credit_vc <= 3'(v);
          break;
        end
      end
      if (failures == 0 && packets == want_packets) begin
        $display("ncu_scan_tb: N=%0d C=%0d V=%0d D=%0d seed=%0d%s: %0d chunks (%0d packets, %0d flits) checked in %0d cycles",
                 N, C, V, D, seed, mode, groups, packets, flits, int'(cyc) - ResetCycles);
        done <= 1'b1;
        $finish;
      end else if (failures == 0 && int'(cyc) - ResetCycles >= int'(max_cycles)) begin
        violate("ScanDrained", $sformatf("%0d of %0d packets arrived", packets, want_packets));
      end
      if (failures != 0) begin
        done <= 1'b1;
        $display("ncu_scan_tb: seed=%0d: %0d failure(s) at cycle %0d", seed, failures, cyc);
        $finish;
      end
    end
  end
endmodule
