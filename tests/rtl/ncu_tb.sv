// ncu_tb - one network-coding unit (rtl/xnoc_ncu.sv) under random ENCODE
// groups with every combining operator, its result packets checked against
// the bench's model (docs/testing.md, "The coding-unit bench").
//
// The bench is the unit's router: it delivers contributions on the router's
// output port (VCs 0 and 1, credit flow control) and takes the unit's
// packets into its input buffer (D flits, credits back at a random rate).
// Group g (a pure function of (seed, g)): 1..4 contributions of one length
// (1..80 bytes), tag g, a result head (out_dest, out_op, out_count) carried
// by contribution 0 and, at random, by others; the count likewise; a
// combining operator (head FUNC, xnoc_pkg::NcFunc*: XOR in a quarter of the
// groups, the other eight operators alike in the rest; OPS = 0: XOR only)
// carried by every contribution. Data lanes (32-bit halves of a word) are
// random, or with probability 1/4 one of 0, 1, -1, INT_MIN, INT_MAX,
// INT_MIN+1 (sums that overflow, equal and negative values). At most
// NumSlots groups are open at once (their contributions sent, their result
// not yet back), so a group never waits for a slot another group holds.
//
// Properties ("FAIL Name: ..."):
//   NcuResult   each group's result arrives once: head {dest = out_dest, op =
//               out_op, count = out_count, func = the group's operator,
//               out_dest unset}, meta {the unit's address, the tag, the
//               length}, data = the contributions' data combined by the
//               operator (the model: op() below), the tail on its last flit
//   NcuCredits  per input VC: the bench's credits + a flit on the link + the flits in
//               the unit's FIFO + a credit on its way back == D; on the way out: the
//               unit's credits + a flit on the link + the flits in the router's buffer
//               + a credit on its way == D (the FIFO counts and the unit's credit
//               counter read by hierarchical reference, dut.g_abs[0].u_absorb..., dut.u_emit.g_lane[0]...)
//   NcuDrained  every group's result has arrived within the budget
//   NcuNoError  the unit's sticky error bits (err_o) stay 0
//   NcuGateNext the clock gate's enable at each rising edge (clk_en_o) is the value
//               clk_en_d_o announced before it (a tile skips a falling edge on it)
// Plusargs: +seed=N (1), +groups=N (400), +fault=func (group 0 asks for
// ADD32: with OPS = 0 a malformed packet), +fault=funcmix (group 0's last
// contribution names another operator: a conflict).
module ncu_tb #(
  parameter int V  = 2,      // VCs on the link from the router
  parameter int D  = 8,      // buffer depth (the unit's FIFOs, the router's buffer)
  parameter int S  = 4,      // coding slots
  parameter int NT = 16,     // addresses: 8 terminals, then the units
  parameter int NTerm = 8,
  parameter int Self = 5,    // this unit's router: the unit's address is NTerm + Self
  parameter int OPS = 1      // the unit's NcuOps: 1 every operator, 0 XOR only
) (
  input  logic clk,
  output logic fail_o
);
  localparam int P  = 6;
  localparam int PW = xnoc_pkg::LinkPayloadW;   // the link flit (xnoc_pkg::link_flit_t):
  localparam int FW = xnoc_pkg::LinkFlitW;      // {vc, tail, head, payload}
  localparam logic [11:0] None = 12'hFFF;

  logic          rst_n, cfg_we;
  logic [1:0]    cfg_kind;
  logic [11:0]   cfg_addr;
  logic [7:0]    cfg_data;
  logic          in_valid, in_credit, out_valid, out_credit;
  logic [FW-1:0] in_flit, out_flit;
  logic [2:0]    in_credit_vc, out_credit_vc;
  logic [31:0]   dbg_data;
  logic          err, clk_en, clk_en_d;

  xnoc_ncu #(.NumPorts(P), .NumVcs(V), .BufDepth(D), .NumAddrs(NT), .NumTerms(NTerm), .NumSlots(S), .NcuOps(OPS)) dut (
    .clk_i (clk), .rst_ni (rst_n),
    .cfg_we_i (cfg_we), .cfg_kind_i (cfg_kind), .cfg_addr_i (cfg_addr), .cfg_data_i (cfg_data),
    .in_valid_i (in_valid), .in_flit_i (in_flit), .in_credit_o (in_credit), .in_credit_vc_o (in_credit_vc),
    .out_valid_o (out_valid), .out_flit_o (out_flit), .out_credit_i (out_credit), .out_credit_vc_i (out_credit_vc),
    .dbg_en_i (1'b0), .dbg_addr_i ('0), .dbg_data_o (dbg_data), .err_o (err), .clk_en_o (clk_en), .clk_en_d_o (clk_en_d)
  );

  int unsigned seed = 1, groups = 400, max_cycles;
  string fault = "";

  // mix, grand, gdata, op, rnd: the unit benches' stimulus and model (ncu_model.svh)
  `include "ncu_model.svh"

  // group g
  function automatic int g_count(input int g);  logic [63:0] r = grand(g, 15, 0); return 1 + int'(r[1:0]);  endfunction
  function automatic int g_len(input int g);    logic [63:0] r = grand(g, 15, 0); return 1 + int'(r[15:8]) % 80; endfunction
  function automatic int g_flits(input int g);  return 2 + (g_len(g) + 7) / 8; endfunction  // head, meta, data
  function automatic logic [11:0] g_od(input int g);   logic [63:0] r = grand(g, 15, 0); return 12'(int'(r[23:16]) % NT); endfunction
  function automatic logic [1:0]  g_oop(input int g);  logic [63:0] r = grand(g, 15, 0); return r[25:24]; endfunction
  function automatic logic [3:0]  g_ocnt(input int g); logic [63:0] r = grand(g, 15, 0); return r[31:28]; endfunction
  function automatic logic [3:0]  g_func(input int g);
    logic [63:0] r = grand(g, 15, 0);
    if (g == 0 && fault == "func") return 4'(xnoc_pkg::NcFuncAdd32);
    if (OPS == 0 || r[33:32] == 2'd0) return 4'(xnoc_pkg::NcFuncXor);
    return 4'(1 + int'(r[47:40]) % (xnoc_pkg::NcFuncNum - 1));
  endfunction


  // flit i of contribution j of group g, as sent
  function automatic logic [PW-1:0] contrib(input int g, input int j, input int i);
    xnoc_pkg::head_t h;
    xnoc_pkg::meta_t m;
    logic [63:0] r = grand(g, j, 0);
    logic        says = (j == 0) || r[0];            // this one carries count and result head
    if (i == 0) begin
      h = '0;
      h.dest = 12'(NTerm + Self);
      h.op = 2'd1;                                   // ENCODE
      h.count = says ? 4'(g_count(g)) : 4'd0;
      h.out_dest = says ? g_od(g) : None;
      h.out_op = says ? g_oop(g) : 2'd0;
      h.out_count = says ? g_ocnt(g) : 4'd0;
      h.func = g_func(g);
      if (g == 0 && fault == "funcmix" && j == g_count(g) - 1) h.func = g_func(g) ^ 4'd1;
      return h;
    end
    if (i == 1) begin
      m.src = r[31:16];
      m.tag = 16'(g);
      m.len = 32'(g_len(g));
      return m;
    end
    return gdata(g, j, i);
  endfunction

  // flit i of group g's result, as the model has it
  function automatic logic [PW-1:0] result(input int g, input int i);
    xnoc_pkg::head_t h;
    xnoc_pkg::meta_t m;
    logic [PW-1:0] x;
    if (i == 0) begin
      h = '0;
      h.dest = g_od(g);
      h.op = g_oop(g);
      h.count = g_ocnt(g);
      h.func = g_func(g);
      h.out_dest = None;
      return h;
    end
    if (i == 1) begin
      m.src = 16'(NTerm + Self);
      m.tag = 16'(g);
      m.len = 32'(g_len(g));
      return m;
    end
    x = gdata(g, 0, i);
    for (int j = 1; j < g_count(g); j++) x = op(g_func(g), x, gdata(g, j, i));
    return x;
  endfunction


  // ------------------------------------------------------------ state
  int unsigned cyc = 0;
  int  next_g = 0, next_j = 0;     // the next contribution to start
  int  cur_g [V], cur_j [V], cur_i [V];   // per VC: the contribution being sent (cur_g -1: none)
  int  src_cred [V];
  int  done_groups = 0;            // results received
  int  rg = -1, ri = 0;            // the result being received: its group (-2: its meta next), its next flit
  logic [PW-1:0] cur_head;         // ... and its head
  logic got [];                    // per group: its result arrived
  int  held = 0;                   // flits in the router's buffer (one VC: 0)
  int  failures = 0;
  longint flits = 0;
  int  per_func [16];              // results received per operator
  logic done = 1'b0;
  localparam int ResetCycles = 3 * P + 3 + 2;

  task automatic violate(input string name, input string what);
    $display("FAIL %s: cycle %0d: %s", name, cyc, what);
    failures++;
  endtask

  localparam int CW = $clog2(D + 1);
  logic [CW-1:0] fifo_cnt [V];                 // flits in the unit's input FIFO of VC v
  for (genvar v = 0; v < V; v++) begin : g_cnt
    assign fifo_cnt[v] = dut.g_abs[0].u_absorb.g_in[v].u_fifo.cnt_q;
  end

  task automatic check_credits();
    int link, back, n;
    for (int v = 0; v < V; v++) begin
      link = int'(in_valid && in_flit[PW+2 +: 3] == 3'(v));
      back = int'(in_credit && in_credit_vc == 3'(v));
      if (src_cred[v] + link + int'(fifo_cnt[v]) + back != D)
        violate("NcuCredits", $sformatf("input VC %0d: bench credits %0d + on the link %0d + in the FIFO %0d + returning %0d != %0d",
                                        v, src_cred[v], link, fifo_cnt[v], back, D));
    end
    n = int'(dut.u_emit.g_lane[0].u_credit.cnt_q);
    link = int'(out_valid);
    back = int'(out_credit && out_credit_vc == 3'd0);
    if (n + link + held + back != D)
      violate("NcuCredits", $sformatf("output: unit credits %0d + on the link %0d + in the router %0d + returning %0d != %0d",
                                      n, link, held, back, D));
  endtask

  initial begin
    void'($value$plusargs("seed=%d", seed));
    void'($value$plusargs("groups=%d", groups));
    void'($value$plusargs("fault=%s", fault));
    max_cycles = 200 * groups + 10000;
    void'($value$plusargs("max_cycles=%d", max_cycles));
    trng = mix(64'(seed)) | 64'h1;
    got = new[groups];
    for (int g = 0; g < int'(groups); g++) got[g] = 1'b0;
    for (int f = 0; f < 16; f++) per_func[f] = 0;
    for (int v = 0; v < V; v++) begin cur_g[v] = -1; cur_j[v] = 0; cur_i[v] = 0; src_cred[v] = D; end
    rst_n = 1'b0; cfg_we = 1'b0; cfg_kind = '0; cfg_addr = '0; cfg_data = '0;
    in_valid = 1'b0; in_flit = '0; out_credit = 1'b0; out_credit_vc = '0;
  end
  assign fail_o = (failures != 0);

  function automatic logic src_home();
    for (int v = 0; v < V; v++) if (src_cred[v] != D) return 1'b0;
    return 1'b1;
  endfunction

  // a flit from the unit
  task automatic receive();
    logic [PW-1:0] pl, want;
    logic [1:0]    ht;
    int            g;
    xnoc_pkg::meta_t m;
    pl = out_flit[PW-1:0];
    ht = out_flit[PW +: 2];
    flits++;
    if (out_flit[PW+2 +: 3] != 3'd0) violate("NcuResult", $sformatf("a flit on VC %0d (the unit sends on VC 0)", out_flit[PW+2 +: 3]));
    if (held >= D) violate("NcuCredits", "a flit into the router's full buffer");
    held++;
    if (rg == -1) begin                                 // a head; the meta flit names the group
      if (!ht[0]) begin violate("NcuResult", $sformatf("a body flit with no packet open (%016x)", pl)); return; end
      rg = -2;
      ri = 1;
      cur_head = pl;
      return;
    end
    if (rg == -2) begin                                 // the meta flit: whose result?
      m = pl;
      g = int'(m.tag);
      if (g >= int'(groups) || got[g]) begin
        violate("NcuResult", $sformatf("a result with tag %0d %s", g, g >= int'(groups) ? "no group has" : "twice"));
        return;
      end
      if (cur_head != result(g, 0)) violate("NcuResult", $sformatf("group %0d: head %016x, expected %016x", g, cur_head, result(g, 0)));
      rg = g;
    end
    want = result(rg, ri);
    if (ht[0]) violate("NcuResult", $sformatf("group %0d: flit %0d is a head", rg, ri));
    else if (pl != want) violate("NcuResult", $sformatf("group %0d: flit %0d is %016x, expected %016x", rg, ri, pl, want));
    if (ht[1] != (ri == g_flits(rg) - 1))
      violate("NcuResult", $sformatf("group %0d: flit %0d of %0d %s", rg, ri, g_flits(rg), ht[1] ? "closes it early" : "is the last but not a tail"));
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
    // configuration during reset: this unit's router id, nibble by nibble (kind 2, rows 3P..3P+2)
    cfg_we   <= (cyc < 3);
    cfg_kind <= 2'd2;
    cfg_addr <= 12'(3 * P + int'(cyc));
    cfg_data <= 8'((Self >> (4 * int'(cyc))) & 15);
    rst_n <= (cyc >= ResetCycles);
    if (rst_n && !done) begin
      check_credits();
      if (err) violate("NcuNoError", "the unit's sticky error bits are set");
      if (clk_en != clk_en_d) violate("NcuGateNext", $sformatf("the gate's enable is %0d, announced %0d", clk_en, clk_en_d));
      if (out_valid) receive();
      if (in_credit) begin
        if (int'(in_credit_vc) >= V) violate("NcuCredits", $sformatf("a credit for VC %0d, which the link does not have", in_credit_vc));
        else src_cred[int'(in_credit_vc)]++;
      end
      // the router's output port: one flit per cycle, a VC with a credit
      in_valid <= 1'b0;
      in_flit  <= FW'({rnd(1 << 30), rnd(1 << 30), rnd(1 << 30)});
      if (rnd(100) < 80) begin
        p0 = rnd(V);
        for (int j = 0; j < V; j++) begin
          v = (p0 + j) % V;
          // an idle VC takes the next contribution, while fewer than S groups are open
          if (cur_g[v] < 0 && next_g < int'(groups) && (next_j > 0 || next_g < done_groups + S)) begin
            cur_g[v] = next_g; cur_j[v] = next_j; cur_i[v] = 0;
            if (next_j + 1 == g_count(next_g)) begin next_g++; next_j = 0; end
            else next_j++;
          end
          if (cur_g[v] >= 0 && src_cred[v] > 0) begin
            g = cur_g[v];
            in_valid <= 1'b1;
            in_flit  <= {3'(v), cur_i[v] == g_flits(g) - 1, cur_i[v] == 0, contrib(g, cur_j[v], cur_i[v])};
            src_cred[v]--;
            if (cur_i[v] == g_flits(g) - 1) cur_g[v] = -1;
            else cur_i[v]++;
            break;
          end
        end
      end
      // the router's buffer drains at a random rate and returns the credit
      out_credit <= 1'b0;
      out_credit_vc <= 3'(rnd(8));
      if (held > 0 && rnd(100) < 60) begin
        held--;
        out_credit <= 1'b1;
        out_credit_vc <= 3'd0;
      end
      if (failures == 0 && done_groups == int'(groups) && held == 0 && !out_credit && !in_valid && !in_credit
          && src_home()) begin
        $display("ncu_tb: V=%0d D=%0d S=%0d OPS=%0d seed=%0d: %0d groups (%0d result flits) checked in %0d cycles; per operator xor/and/or/add32/add64/min32s/max32s/min32u/max32u/mul32 %0d/%0d/%0d/%0d/%0d/%0d/%0d/%0d/%0d/%0d",
                 V, D, S, OPS, seed, groups, flits, int'(cyc) - ResetCycles, per_func[0], per_func[1], per_func[2],
                 per_func[3], per_func[4], per_func[5], per_func[6], per_func[7], per_func[8], per_func[9]);
        done <= 1'b1;
        $finish;
      end else if (failures == 0 && int'(cyc) - ResetCycles >= int'(max_cycles)) begin
        violate("NcuDrained", $sformatf("%0d of %0d groups' results arrived (next group to send %0d, unit error bits %0d)",
                                        done_groups, groups, next_g, err));
      end
      if (failures != 0) begin
        done <= 1'b1;
        $display("ncu_tb: seed=%0d: %0d failure(s) at cycle %0d", seed, failures, cyc);
        $finish;
      end
    end
  end
endmodule
