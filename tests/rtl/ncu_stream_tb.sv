// ncu_stream_tb - the coding unit's streaming combiner (rtl/xnoc_ncu_stream.sv)
// under random groups on N input lanes with every combining operator, its
// results checked against the bench's model (docs/testing.md, "The
// coding-unit bench").
//
// The bench is the router: each lane is a link of its own (VCs 0..V-1,
// credit flow control, a flit at random 3 cycles in 4), and it takes the
// combiner's packets into an input buffer of D flits that drains at random.
// Group g (a pure function of (seed, g)): a random non-empty set of member
// lanes, one length (0..MaxFlits*8 bytes, a multiple of 8 or not), tag g,
// an operator (head FUNC: XOR in a quarter of the groups, the other eight
// alike in the rest), every member's COUNT the set's size, and a result head
// (out_dest, out_mc, out_op, out_count) named by the lowest member and, at
// random, by others (the rest name none, as a child unit's result does).
// A lane sends its groups' contributions in group order, each on a VC that
// is free (so two groups may be under way on one lane, on two VCs).
//
// Properties ("FAIL Name: ..."):
//   StreamResult   each group's result arrives once: head {dest = out_dest,
//                  mc = out_mc, op = out_op, count = out_count, func,
//                  EJSEL = 1 + the port towards out_dest when that is
//                  another router's unit, else 0, out_dest unset}, meta {this
//                  unit, the tag, the length}, with out_mc the mask of every
//                  terminal, the data = the members' data combined by the
//                  operator (the model: op() below), the tail on the last flit
//   StreamCredits  per lane and VC: the bench's credits + a flit on the link +
//                  the flits in the combiner's FIFO + a credit on its way back
//                  == D; on the way out: the combiner's credits + a flit on the
//                  link + the router's buffer + a credit on its way == D
//   StreamDrained  every group's result has arrived within the budget
//   StreamNoError  the combiner raises no error bit (ev_o)
//   StreamLineRate (+full: every lane sends a flit every cycle, one packet
//                  after another, and the router's buffer drains every
//                  cycle) a result leaves flit after flit, head to tail, and
//                  the results together take at most 3 cycles per group
//                  more than their flits: the combiner runs at the links' rate
// and the RTL's own assertions (StreamOnePopPerLane, StreamAllMembers,
// StreamCount, StreamMemberHeld) in the assertion build.
// Plusargs: +seed=N (1), +groups=N (300), +max_cycles=N, +full, +fault=conflict
// (group 0's members name two result heads), +fault=count (group 0's last
// member states one contribution more).
module ncu_stream_tb #(
  parameter int N  = 5,      // input lanes
  parameter int V  = 2,      // VCs per lane
  parameter int D  = 8,      // buffer depth
  parameter int NT = 16,     // addresses: 8 terminals, then the units
  parameter int NTerm = 8,
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

  // the routing table as the emitter would give it: the port towards an address
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

  int unsigned seed = 1, groups = 300, max_cycles;
  logic full = 1'b0;
  int  first_out = -1, last_out = 0;  // +full: the cycles of the first and the last result flit
  string fault = "";

  // mix, grand, gdata, op, rnd: the unit benches' stimulus and model (ncu_model.svh)
  `include "ncu_model.svh"

  // group g
  function automatic logic [N-1:0] g_mem(input int g);
    logic [63:0] r = grand(g, 15, 0);
    logic [N-1:0] m = N'(r[N-1:0]);
    return m != '0 ? m : N'(1) << (int'(r[15:8]) % N);
  endfunction
  function automatic logic is_mem(input int g, input int l); logic [N-1:0] m = g_mem(g); return m[l]; endfunction
  function automatic int g_count(input int g); return $countones(g_mem(g)); endfunction
  function automatic int g_first(input int g);
    for (int l = 0; l < N; l++) if (is_mem(g, l)) return l;
    return 0;
  endfunction
  function automatic int g_len(input int g); logic [63:0] r = grand(g, 15, 0); return int'(r[31:16]) % (MF * 8 + 1); endfunction
  function automatic logic [11:0] g_od(input int g);  logic [63:0] r = grand(g, 15, 0); return 12'(int'(r[39:32]) % NT); endfunction
  function automatic logic g_omc(input int g);        logic [63:0] r = grand(g, 15, 0); return r[40]; endfunction
  function automatic logic [1:0] g_oop(input int g);  logic [63:0] r = grand(g, 15, 0); return r[42:41]; endfunction
  function automatic logic [3:0] g_ocnt(input int g); logic [63:0] r = grand(g, 15, 0); return r[46:43]; endfunction
  function automatic logic [3:0] g_func(input int g);
    logic [63:0] r = grand(g, 15, 0);
    if (r[49:48] == 2'd0) return 4'(xnoc_pkg::NcFuncXor);
    return 4'(1 + int'(r[63:56]) % (xnoc_pkg::NcFuncNum - 1));
  endfunction
  function automatic int g_dflits(input int g); return (g_len(g) + 7) / 8; endfunction
  function automatic int g_flits(input int g); return 2 + g_dflits(g); endfunction           // a contribution
  function automatic int r_flits(input int g); return 2 + (g_omc(g) ? (NT + 63) / 64 : 0) + g_dflits(g); endfunction


  // flit i of lane l's contribution to group g
  function automatic logic [PW-1:0] contrib(input int g, input int l, input int i);
    xnoc_pkg::head_t h;
    xnoc_pkg::meta_t m;
    logic [63:0] r = grand(g, l, 0);
    logic says = (l == g_first(g)) || r[0];           // names the result's head
    if (i == 0) begin
      h = '0;
      h.dest = 12'(NTerm + Self);
      h.ejsel = 4'(1 + l);
      h.op = 2'd2;                                    // STREAM
      h.count = 4'(g_count(g));
      if (g == 0 && fault == "count" && l != g_first(g)) h.count = 4'(g_count(g) + 1);
      h.func = g_func(g);
      h.out_dest = says ? g_od(g) : None;
      h.out_mc = says ? g_omc(g) : 1'b0;
      h.out_op = says ? g_oop(g) : 2'd0;
      h.out_count = says ? g_ocnt(g) : 4'd0;
      if (g == 0 && fault == "conflict" && l != g_first(g)) begin
        h.out_dest = g_od(g) ^ 12'd1;
        h.out_mc = g_omc(g);
        h.out_op = g_oop(g);
        h.out_count = g_ocnt(g);
      end
      return h;
    end
    if (i == 1) begin
      m.src = r[31:16];
      m.tag = 16'(g);
      m.len = 32'(g_len(g));
      return m;
    end
    return gdata(g, l, i);
  endfunction

  // flit i of group g's result, as the model has it
  function automatic logic [PW-1:0] result(input int g, input int i);
    xnoc_pkg::head_t h;
    xnoc_pkg::meta_t m;
    logic [PW-1:0] x;
    logic          first;
    int            mi;
    if (i == 0) begin
      h = '0;
      h.dest = g_od(g);
      h.mc = g_omc(g);
      h.op = g_oop(g);
      h.count = g_ocnt(g);
      h.func = g_func(g);
      h.ejsel = (int'(g_od(g)) >= NTerm && int'(g_od(g)) != NTerm + Self) ? 4'(1 + int'(g_od(g)) % 6) : 4'd0;
      h.out_dest = None;
      return h;
    end
    if (i == 1) begin
      m.src = 16'(NTerm + Self);
      m.tag = 16'(g);
      m.len = 32'(g_len(g));
      return m;
    end
    mi = g_omc(g) ? (NT + 63) / 64 : 0;
    if (i < 2 + mi) begin                              // the mask: every terminal
      for (int b = 0; b < 64; b++) x[b] = (64 * (i - 2) + b < NTerm);
      return x;
    end
    first = 1'b1;
    x = '0;
    for (int l = 0; l < N; l++) begin
      if (is_mem(g, l)) begin
        x = first ? gdata(g, l, i - mi) : op(g_func(g), x, gdata(g, l, i - mi));
        first = 1'b0;
      end
    end
    return x;
  endfunction


  // ------------------------------------------------------------ state
  int unsigned cyc = 0;
  int  lnext [N];                   // per lane: the next group it contributes to
  int  cur_g [N][V], cur_i [N][V];  // per lane and VC: the contribution being sent (-1: none)
  int  src_cred [N][V];
  int  done_groups = 0;
  int  rg = -1, ri = 0;             // the result being received (-2: its meta next)
  logic [PW-1:0] cur_head;
  logic got [];
  int  held = 0;
  int  failures = 0;
  longint flits = 0, combined = 0;
  int  per_func [16];
  logic done = 1'b0;
  localparam int ResetCycles = 4;

  task automatic violate(input string name, input string what);
    $display("FAIL %s: cycle %0d: %s", name, cyc, what);
    failures++;
  endtask

  localparam int CW = $clog2(D + 1);
  logic [CW-1:0] fifo_cnt [N*V];
  for (genvar g = 0; g < N * V; g++) begin : g_cnt
    assign fifo_cnt[g] = dut.g_in[g].u_fifo.cnt_q;
  end

  task automatic check_credits();
    int link, back, n;
    for (int l = 0; l < N; l++) begin
      for (int v = 0; v < V; v++) begin
        link = int'(in_valid[l] && in_flit[l*FW + PW + 2 +: 3] == 3'(v));
        back = int'(in_credit[l] && in_credit_vc[l*VB +: VB] == 3'(v));
        if (src_cred[l][v] + link + int'(fifo_cnt[l*V + v]) + back != D)
          violate("StreamCredits", $sformatf("lane %0d VC %0d: bench credits %0d + on the link %0d + in the FIFO %0d + returning %0d != %0d",
                                             l, v, src_cred[l][v], link, fifo_cnt[l*V + v], back, D));
      end
    end
    n = int'(dut.g_cr[0].u_credit.cnt_q);
    link = int'(out_valid);
    back = int'(out_credit && out_credit_vc == 3'd0);
    if (n + link + held + back != D)
      violate("StreamCredits", $sformatf("output: credits %0d + on the link %0d + in the router %0d + returning %0d != %0d",
                                         n, link, held, back, D));
  endtask

  initial begin
    void'($value$plusargs("seed=%d", seed));
    void'($value$plusargs("groups=%d", groups));
    void'($value$plusargs("fault=%s", fault));
    full = $test$plusargs("full");
    max_cycles = 200 * groups + 10000;
    void'($value$plusargs("max_cycles=%d", max_cycles));
    trng = mix(64'(seed)) | 64'h1;
    got = new[groups];
    for (int g = 0; g < int'(groups); g++) got[g] = 1'b0;
    for (int f = 0; f < 16; f++) per_func[f] = 0;
    for (int l = 0; l < N; l++) begin
      lnext[l] = 0;
      for (int v = 0; v < V; v++) begin cur_g[l][v] = -1; cur_i[l][v] = 0; src_cred[l][v] = D; end
    end
    rst_n = 1'b0; in_valid = '0; in_flit = '0; out_credit = 1'b0; out_credit_vc = '0;
  end
  assign fail_o = (failures != 0);

  function automatic logic src_home();
    for (int l = 0; l < N; l++) for (int v = 0; v < V; v++) if (src_cred[l][v] != D) return 1'b0;
    return 1'b1;
  endfunction

  // a flit from the combiner
  task automatic receive();
    logic [PW-1:0] pl, want;
    logic [1:0]    ht;
    int            g;
    xnoc_pkg::meta_t m;
    pl = out_flit[PW-1:0];
    ht = out_flit[PW +: 2];
    flits++;
    if (first_out < 0) first_out = int'(cyc);
    if (full && rg != -1 && int'(cyc) != last_out + 1)
      violate("StreamLineRate", $sformatf("a gap of %0d cycles inside a result", int'(cyc) - last_out - 1));
    last_out = int'(cyc);
    if (out_flit[PW+2 +: 3] != 3'd0) violate("StreamResult", $sformatf("a flit on VC %0d (it sends on VC 0)", out_flit[PW+2 +: 3]));
    if (held >= D) violate("StreamCredits", "a flit into the router's full buffer");
    held++;
    if (rg == -1) begin
      if (!ht[0]) begin violate("StreamResult", $sformatf("a body flit with no packet open (%016x)", pl)); return; end
      rg = -2;
      ri = 1;
      cur_head = pl;
      if (ht[1]) violate("StreamResult", "a one-flit result");
      return;
    end
    if (rg == -2) begin
      m = pl;
      g = int'(m.tag);
      if (g >= int'(groups) || got[g]) begin
        violate("StreamResult", $sformatf("a result with tag %0d %s", g, g >= int'(groups) ? "no group has" : "twice"));
        return;
      end
      if (cur_head != result(g, 0)) violate("StreamResult", $sformatf("group %0d: head %016x, expected %016x", g, cur_head, result(g, 0)));
      rg = g;
    end
    want = result(rg, ri);
    if (ht[0]) violate("StreamResult", $sformatf("group %0d: flit %0d is a head", rg, ri));
    else if (pl != want) violate("StreamResult", $sformatf("group %0d: flit %0d is %016x, expected %016x", rg, ri, pl, want));
    if (ht[1] != (ri == r_flits(rg) - 1))
      violate("StreamResult", $sformatf("group %0d: flit %0d of %0d %s", rg, ri, r_flits(rg), ht[1] ? "closes it early" : "is the last but not a tail"));
    if (ht[1]) begin
      per_func[int'(g_func(rg))]++;
      got[rg] = 1'b1;
      done_groups++;
      rg = -1;
    end else ri++;
  endtask

  always @(posedge clk) begin
    int v, p0, g;
    cyc <= cyc + 1;
    rst_n <= (cyc >= ResetCycles);
    if (rst_n && !done) begin
      check_credits();
      if (ev != '0) violate("StreamNoError", $sformatf("error bits %02x (group tag %0d, %0d of %0d members)", ev, ev_tag, ev_got, ev_need));
      if (ovf) violate("StreamCredits", "a FIFO overflowed");
      if (out_valid) receive();
      combined += longint'(comb);
      for (int l = 0; l < N; l++) begin
        if (in_credit[l]) begin
          if (int'(in_credit_vc[l*VB +: VB]) >= V) violate("StreamCredits", $sformatf("lane %0d: a credit for VC %0d", l, in_credit_vc[l*VB +: VB]));
          else src_cred[l][int'(in_credit_vc[l*VB +: VB])]++;
        end
      end
      // each lane's link: a flit 3 cycles in 4, from a VC with a credit
      for (int l = 0; l < N; l++) begin
        in_valid[l] <= 1'b0;
        in_flit[l*FW +: FW] <= FW'({rnd(1 << 30), rnd(1 << 30), rnd(1 << 30)});
        if (full || rnd(4) != 0) begin
          p0 = rnd(V);
          // +full: the VC under way first (one packet after another, as a unit sends them)
          if (full) for (int j = 0; j < V; j++) if (cur_g[l][j] >= 0) p0 = j;
          for (int j = 0; j < V; j++) begin
            v = (p0 + j) % V;
            // an idle VC takes the lane's next contribution (its groups in order)
            if (cur_g[l][v] < 0) begin
              while (lnext[l] < int'(groups) && !is_mem(lnext[l], l)) lnext[l]++;
              if (lnext[l] < int'(groups)) begin
                cur_g[l][v] = lnext[l]; cur_i[l][v] = 0;
                lnext[l]++;
              end
            end
            if (cur_g[l][v] >= 0 && src_cred[l][v] > 0) begin
              g = cur_g[l][v];
              in_valid[l] <= 1'b1;
              in_flit[l*FW +: FW] <= {3'(v), cur_i[l][v] == g_flits(g) - 1, cur_i[l][v] == 0, contrib(g, l, cur_i[l][v])};
              src_cred[l][v]--;
              if (cur_i[l][v] == g_flits(g) - 1) cur_g[l][v] = -1;
              else cur_i[l][v]++;
              break;
            end
          end
        end
      end
      // the router's buffer drains at random and returns the credit
      out_credit <= 1'b0;
      out_credit_vc <= 3'(rnd(8));
      if (held > 0 && (full || rnd(100) < 70)) begin
        held--;
        out_credit <= 1'b1;
        out_credit_vc <= 3'd0;
      end
      if (failures == 0 && done_groups == int'(groups) && held == 0 && !out_credit && in_valid == '0 && in_credit == '0
          && src_home()) begin
        if (full && last_out - first_out + 1 > int'(flits) + 3 * int'(groups))
          violate("StreamLineRate", $sformatf("%0d result flits took %0d cycles (%0d groups)", flits,
                                              last_out - first_out + 1, groups));
        $display("ncu_stream_tb: N=%0d V=%0d D=%0d seed=%0d: %0d groups (%0d result flits, %0d flits combined) checked in %0d cycles; per operator xor/and/or/add32/add64/min32s/max32s/min32u/max32u/mul32 %0d/%0d/%0d/%0d/%0d/%0d/%0d/%0d/%0d/%0d",
                 N, V, D, seed, groups, flits, combined, int'(cyc) - ResetCycles, per_func[0], per_func[1], per_func[2],
                 per_func[3], per_func[4], per_func[5], per_func[6], per_func[7], per_func[8], per_func[9]);
        done <= 1'b1;
        $finish;
      end else if (failures == 0 && int'(cyc) - ResetCycles >= int'(max_cycles)) begin
        violate("StreamDrained", $sformatf("%0d of %0d groups' results arrived", done_groups, groups));
      end
      if (failures != 0) begin
        done <= 1'b1;
        $display("ncu_stream_tb: seed=%0d: %0d failure(s) at cycle %0d", seed, failures, cyc);
        $finish;
      end
    end
  end
endmodule
