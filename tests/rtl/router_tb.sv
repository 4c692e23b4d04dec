// router_tb - one xnoc_router under random traffic, its properties checked
// every cycle (docs/testing.md, "The router testbench").
//
// The bench is the router's neighbours: on every input port a source that
// sends packets under credit flow control, on every output port a sink that
// models the downstream buffer (it takes every flit, drains one per cycle at
// a random rate and returns its credit).  Each input VC (p, v) sends the
// packets k = 0 .. Packets-1, drawn from a hash of (seed, p, v, k), so the
// packet set does not depend on timing; the timing (when a source sends,
// when a sink drains) comes from a separate stream.
//
// Properties, each named in the line that reports it ("FAIL Name: ..."):
//   CreditConservation     per input VC: source credits + flit on the link + flits buffered
//                          + credit on its way back == D; per output VC: the router's credit
//                          + flit on the link + flits in the sink + credit on its way == D
//   NoGrantWithoutRequest  an input arbiter grants only an eligible VC, an output arbiter only
//                          an input that asks for it; the switch pops only a buffer with a flit
//   GrantBound             round robin: an input asking for an output for P cycles in a row is
//                          granted; a VC eligible without a break sees at most V-1 grants to
//                          the other VCs of its input before its own
//   InOrderNoDup           every flit arrives once, in order within its input VC, intact, at the
//                          output its head was routed to, and the tail closes its packet
//   Drained                at the end every packet has arrived and every credit is back
//   NoRouterError          the router's sticky error bits (err_o) stay 0
//   NextValues             the link registers (out_valid_o .. in_credit_vc_o) take at each edge
//                          the next values the router announced before it (out_valid_d_o ..),
//                          as a tile's receiving end registers them (rtl/xnoc_tile.sv)
// The internal signals (buffer counts, credit counters, requests and grants)
// are read by hierarchical reference (dut.*): Verilator resolves them when it
// builds the bench, and rtl/ needs no public markers.
//
// Plusargs: +seed=N (1), +packets=N per input VC (300), +max_cycles=N (the
// budget after reset: 100 per packet + 10000, 4 times what a run takes),
// +fault=badvc (a fault of the stimulus's own, to show NoRouterError bites:
// ten cycles after reset, input 0 carries one flit on VC 7, a VC the router
// does not have).
module router_tb #(
  parameter int P    = 5,    // the router: ports, VCs, buffer depth, table entries
  parameter int V    = 2,
  parameter int D    = 8,
  parameter int NT   = 16,
  parameter int Lmax = 6     // packet length 1..Lmax flits
) (
  input  logic clk,
  output logic fail_o        // some property failed (the C++ glue's exit status)
);
  localparam int PW = xnoc_pkg::LinkPayloadW;   // the link flit (xnoc_pkg::link_flit_t):
  localparam int FW = xnoc_pkg::LinkFlitW;      // {vc, tail, head, payload}
  localparam int LW = xnoc_pkg::LinkSlotW;      // a port's slot in the link vectors
  localparam int PV = P * V;
  localparam int PB = (P > 1) ? $clog2(P) : 1;
  localparam int VI = (V > 1) ? $clog2(V) : 1;
  localparam int CW = $clog2(D + 1);
  localparam int Term = P - 1;           // the last port is a terminal port (dimension 7)

  // ------------------------------------------------------------ the router
  logic            rst_n;
  logic            cfg_we, cfg_kind;
  logic [11:0]     cfg_addr;
  logic [7:0]      cfg_data;
  logic [P-1:0]    in_valid, in_credit, out_valid, out_credit;
  logic [P*LW-1:0] in_flit, out_flit;
  logic [P*3-1:0]  in_credit_vc, out_credit_vc;
  logic [31:0]     dbg_data;
  logic            err, idle;

  logic [P-1:0]    nx_valid, nx_credit, nxq_valid, nxq_credit;   // announced, and as registered at the edge
  logic [P*LW-1:0] nx_flit, nxq_flit;
  logic [P*3-1:0]  nx_credit_vc, nxq_credit_vc;
  logic            nxq_set = 1'b0;

  // Shared = 1, as a tile has it: its next values checked (NextValues), the
  // address count the table's own
  xnoc_router #(.NumPorts(P), .NumVcs(V), .BufDepth(D), .NumAddrs(NT), .Shared(1)) dut (
    .clk_i (clk), .rst_ni (rst_n),
    .cfg_we_i (cfg_we), .cfg_kind_i (cfg_kind), .cfg_addr_i (cfg_addr), .cfg_data_i (cfg_data),
    .in_valid_i (in_valid), .in_flit_i (in_flit), .in_credit_o (in_credit), .in_credit_vc_o (in_credit_vc),
    .out_valid_o (out_valid), .out_flit_o (out_flit), .out_credit_i (out_credit), .out_credit_vc_i (out_credit_vc),
    .dbg_en_i (1'b0), .dbg_addr_i ('0), .dbg_data_o (dbg_data), .err_o (err),
    .num_addrs_i (16'(NT)), .idle_o (idle),
    .out_valid_d_o (nx_valid), .out_flit_d_o (nx_flit), .in_credit_d_o (nx_credit), .in_credit_vc_d_o (nx_credit_vc)
  );

  // ------------------------------------------------------------ stimulus
  int unsigned seed = 1, packets = 300, max_cycles;
  logic        fault_badvc = 1'b0;

  // splitmix64's finaliser: the packet set is a pure function of its inputs
  function automatic logic [63:0] mix(input logic [63:0] x);
    logic [63:0] z;
    z = x + 64'h9E3779B97F4A7C15;
    z = (z ^ (z >> 30)) * 64'hBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 64'h94D049BB133111EB;
    return z ^ (z >> 31);
  endfunction

  function automatic logic [63:0] pkt_rand(input int p, input int v, input int k, input int i);
    return mix({16'(seed), 4'(p), 4'(v), 24'(k), 16'(i)});
  endfunction

  // the routing table: destination d leaves through port (d + d/P) mod P
  // (every port has NT/P or more destinations, in no simple order)
  function automatic int table_port(input int d);
    return (d + d / P) % P;
  endfunction

  // packet k of input VC (p, v): its output port, length, routing mode
  function automatic int pkt_port(input int p, input int v, input int k);
    logic [63:0] r = pkt_rand(p, v, k, 0);
    // every third run of 32 packets goes to one hot output (contention)
    if ((k / 32) % 3 == 2) return (k / 96 + 1) % P;
    return int'(r[15:8]) % P;
  endfunction
  function automatic int pkt_len(input int p, input int v, input int k);
    logic [63:0] r = pkt_rand(p, v, k, 0);
    return 1 + int'(r[7:0]) % Lmax;
  endfunction
  function automatic logic pkt_sr(input int p, input int v, input int k);
    logic [63:0] r = pkt_rand(p, v, k, 0);
    return r[16];
  endfunction

  // the packet's identity, carried in head bits [55:24]: the coding unit's
  // result fields and the reserved bits, which the router forwards unchanged
  // (a source route's hop shifts them down by PB bits)
  function automatic logic [31:0] pkt_id(input int p, input int v, input int k);
    return {4'(p), 4'(v), 24'(k)};
  endfunction
  function automatic logic [31:0] head_id(input xnoc_pkg::head_t h);
    return {h.rsvd, h.func, h.out_count, h.out_op, h.out_mc, h.out_dest};
  endfunction

  // flit i of packet k of (p, v), as sent; a head's fields by name (rtl/xnoc_pkg.sv)
  function automatic logic [PW-1:0] flit_payload(input int p, input int v, input int k, input int i);
    logic [63:0]        r;
    xnoc_pkg::head_t    h;
    xnoc_pkg::head_sr_t hs;
    int                 o, n, d, j;
    r = pkt_rand(p, v, k, i);
    if (i != 0) return {r[63:32], 4'(p), 4'(v), 16'(k), 8'(i)};
    o = pkt_port(p, v, k);
    h = r;                                        // fields the router does not read: random
    {h.rsvd, h.func, h.out_count, h.out_op, h.out_mc, h.out_dest} = pkt_id(p, v, k);
    if (pkt_sr(p, v, k)) begin                    // source routed: this hop's port in route[PB-1:0]
      hs = h;
      hs.sr = 1'b1;
      hs.route[PB-1:0] = PB'(o);
      return hs;
    end
    h.sr = 1'b0;                                  // table routed: a destination the table sends to o
    h.ejsel = '0;                                 // (added to the port at a terminal port)
    n = 0;
    for (d = 0; d < NT; d++) if (table_port(d) == o) n++;
    j = int'(r[63:56]) % n;
    h.dest = '0;
    for (d = NT - 1; d >= 0; d--) if (table_port(d) == o) begin
      if (j == 0) h.dest = 12'(d);
      j--;
    end
    return h;
  endfunction

  // what the router does to a head: a source route's hop is consumed
  function automatic logic [PW-1:0] head_out(input xnoc_pkg::head_sr_t hs);
    if (hs.sr) hs.route = hs.route >> PB;
    return hs;
  endfunction

  // a head as it left the router, with a source route's hop put back
  function automatic logic [PW-1:0] head_back(input xnoc_pkg::head_sr_t hs);
    if (hs.sr) hs.route = hs.route << PB;
    return hs;
  endfunction

  // the timing stream (xorshift64): n-way choices, percent rates
  logic [63:0] trng;
  function automatic int rnd(input int n);
    trng = trng ^ (trng << 13);
    trng = trng ^ (trng >> 7);
    trng = trng ^ (trng << 17);
    return int'(trng[31:0] % 32'(n));
  endfunction

  // phases of 400 cycles: sources and sinks at different rates (percent)
  function automatic int src_rate(input int c);
    case ((c / 400) % 4) 0: return 90; 1: return 95; 2: return 40; default: return 100; endcase
  endfunction
  function automatic int sink_rate(input int c);
    case ((c / 400) % 4) 0: return 100; 1: return 25; 2: return 70; default: return 50; endcase
  endfunction

  // ------------------------------------------------------------ state
  int unsigned cyc = 0;
  int          src_k [P][V];       // sources: the packet being sent, its next flit, credits
  int          src_i [P][V];
  int          src_cred [P][V];
  int          sink_n [P][V];      // sinks: flits held in the downstream buffer
  logic        open_q [P][V];      // an output VC carries a packet: whose, and its next flit
  int          cur_p [P][V], cur_v [P][V], cur_k [P][V], cur_i [P][V];
  int          exp_k [P][V];       // per input VC: the next packet to arrive
  int          req_age [P];        // GrantBound: cycles input i asked for output req_out[i]
  int          req_out [P];
  int          others_won [PV];    // GrantBound: grants to other VCs while VC g is eligible
  int          max_age = 0, max_others = 0;
  longint      flits_checked = 0, packets_checked = 0;
  int          failures = 0;
  logic        done = 1'b0;

  localparam int CfgRows = NT + P;
  localparam int ResetCycles = CfgRows + 2;

  function automatic int cnt_of(input int g);      // flits buffered in input VC g
    return int'(dut.u_bufs.cnt_q[g*CW +: CW]);
  endfunction
  function automatic int credit_of(input int og);  // the router's credits for output VC og
    return int'(dut.credit_q[og*CW +: CW]);
  endfunction

  task automatic violate(input string name, input string what);
    $display("FAIL %s: cycle %0d: %s", name, cyc, what);
    failures++;
  endtask

  initial begin
    string f;
    if (NT < P) $fatal(1, "router_tb: NT=%0d < P=%0d: some port has no destination", NT, P);
    void'($value$plusargs("seed=%d", seed));
    void'($value$plusargs("packets=%d", packets));
    max_cycles = 100 * packets + 10000;
    void'($value$plusargs("max_cycles=%d", max_cycles));
    if ($value$plusargs("fault=%s", f)) fault_badvc = (f == "badvc");
    trng = mix(64'(seed)) | 64'h1;               // the timing stream, never 0
    for (int p = 0; p < P; p++) begin
      req_age[p] = 0;
      req_out[p] = 0;
      for (int v = 0; v < V; v++) begin
        src_k[p][v] = 0; src_i[p][v] = 0; src_cred[p][v] = D;
        sink_n[p][v] = 0; open_q[p][v] = 1'b0; exp_k[p][v] = 0;
        cur_p[p][v] = 0; cur_v[p][v] = 0; cur_k[p][v] = 0; cur_i[p][v] = 0;
      end
    end
    for (int g = 0; g < PV; g++) others_won[g] = 0;
    rst_n = 1'b0;
    cfg_we = 1'b0; cfg_kind = 1'b0; cfg_addr = '0; cfg_data = '0;
    in_valid = '0; in_flit = '0; out_credit = '0; out_credit_vc = '0;
  end

  assign fail_o = (failures != 0);

  // ------------------------------------------------------------ checks
  // Run at each rising edge on the values the router saw during the cycle
  // (all before the edge): the tb's own link registers, the router's
  // outputs and internal signals.
  task automatic check_credits();
    int link, back;
    for (int p = 0; p < P; p++)
      for (int v = 0; v < V; v++) begin
        link = int'(in_valid[p] && in_flit[p*LW + PW + 2 +: 3] == 3'(v));
        back = int'(in_credit[p] && in_credit_vc[p*3 +: 3] == 3'(v));
        if (src_cred[p][v] + link + cnt_of(p * V + v) + back != D)
          violate("CreditConservation", $sformatf("input %0d VC %0d: source credits %0d + on the link %0d + buffered %0d + returning %0d != %0d",
                                                 p, v, src_cred[p][v], link, cnt_of(p * V + v), back, D));
      end
    for (int o = 0; o < P; o++)
      for (int w = 0; w < V; w++) begin
        link = int'(out_valid[o] && out_flit[o*LW + PW + 2 +: 3] == 3'(w));
        back = int'(out_credit[o] && out_credit_vc[o*3 +: 3] == 3'(w));
        if (credit_of(o * V + w) + link + sink_n[o][w] + back != D)
          violate("CreditConservation", $sformatf("output %0d VC %0d: router credits %0d + on the link %0d + in the sink %0d + returning %0d != %0d",
                                                 o, w, credit_of(o * V + w), link, sink_n[o][w], back, D));
      end
  endtask

  task automatic check_grants();
    int i, g;
    for (i = 0; i < P; i++)
      if (dut.in_any[i]) begin
        g = i * V + int'(dut.in_vc[i*VI +: VI]);
        if (!dut.elig[g]) violate("NoGrantWithoutRequest", $sformatf("input %0d's arbiter picked VC %0d, which is not eligible", i, g % V));
      end
    for (int o = 0; o < P; o++)
      if (dut.out_any[o]) begin
        i = int'(dut.out_in[o*PB +: PB]);
        if (!dut.out_req[o*P + i]) violate("NoGrantWithoutRequest", $sformatf("output %0d granted input %0d, which did not ask for it", o, i));
      end
    for (g = 0; g < PV; g++)
      if (dut.pop[g] && !dut.occ[g]) violate("NoGrantWithoutRequest", $sformatf("input %0d VC %0d popped while empty", g / V, g % V));
  endtask

  task automatic check_bound();
    int o, i, g;
    logic won;
    // output stage: input i asking for output o in consecutive cycles
    for (i = 0; i < P; i++) begin
      o = -1;
      if (dut.in_any[i]) o = int'(dut.rt_port_q[(i * V + int'(dut.in_vc[i*VI +: VI]))*PB +: PB]);
      won = (o >= 0) && dut.out_any[o] && int'(dut.out_in[o*PB +: PB]) == i;
      if (o < 0 || won) req_age[i] = 0;
      else begin
        req_age[i] = (req_out[i] == o) ? req_age[i] + 1 : 1;
        if (req_age[i] > max_age) max_age = req_age[i];
        if (req_age[i] >= P)
          violate("GrantBound", $sformatf("input %0d has asked for output %0d for %0d cycles without a grant (round robin over %0d inputs)",
                                          i, o, req_age[i], P));
      end
      req_out[i] = o;
    end
    // input stage: VC g eligible without a break; its input wins with other VCs
    for (g = 0; g < PV; g++) begin
      i = g / V;
      if (!dut.elig[g] || dut.pop[g]) others_won[g] = 0;
      else if (dut.in_won[i]) begin
        others_won[g]++;
        if (others_won[g] > max_others) max_others = others_won[g];
        if (others_won[g] > V - 1)
          violate("GrantBound", $sformatf("input %0d VC %0d, eligible throughout, saw %0d grants to its input's other VCs (round robin over %0d VCs)",
                                          i, g % V, others_won[g], V));
      end
    end
  endtask

  // a flit leaving on output o: the scoreboard
  task automatic receive(input int o);
    int          w, p, v, k, i, want_o;
    logic [1:0]  ht;
    logic [PW-1:0] pl, want;
    logic [31:0] id;
    w  = int'(out_flit[o*LW + PW + 2 +: 3]);
    ht = out_flit[o*LW + PW +: 2];
    pl = out_flit[o*LW +: PW];
    if (w >= V) begin
      violate("InOrderNoDup", $sformatf("output %0d: a flit on VC %0d", o, w));
      return;
    end
    if (sink_n[o][w] >= D) violate("CreditConservation", $sformatf("output %0d VC %0d: a flit for a full downstream buffer", o, w));
    sink_n[o][w]++;
    flits_checked++;
    if (!open_q[o][w]) begin                     // a head: whose?
      if (!ht[0]) begin
        violate("InOrderNoDup", $sformatf("output %0d VC %0d: a body flit with no packet open (%016x)", o, w, pl));
        return;
      end
      id = head_id(head_back(pl));
      p = int'(id[31:28]); v = int'(id[27:24]); k = int'(id[23:0]);
      if (p >= P || v >= V) begin
        violate("InOrderNoDup", $sformatf("output %0d VC %0d: a head from no input (%016x)", o, w, pl));
        return;
      end
      if (k != exp_k[p][v]) begin
        violate("InOrderNoDup", $sformatf("output %0d VC %0d: packet %0d of input %0d VC %0d arrived, expected packet %0d (%s)",
                                          o, w, k, p, v, exp_k[p][v], k < exp_k[p][v] ? "duplicated" : "reordered or lost"));
        return;
      end
      want_o = pkt_port(p, v, k);
      if (o != want_o)
        violate("InOrderNoDup", $sformatf("packet %0d of input %0d VC %0d left through output %0d, routed to %0d", k, p, v, o, want_o));
      want = head_out(flit_payload(p, v, k, 0));
      if (pl != want)
        violate("InOrderNoDup", $sformatf("packet %0d of input %0d VC %0d: head %016x, sent %016x", k, p, v, pl, want));
      open_q[o][w] = 1'b1;
      cur_p[o][w] = p; cur_v[o][w] = v; cur_k[o][w] = k; cur_i[o][w] = 0;
    end else begin
      p = cur_p[o][w]; v = cur_v[o][w]; k = cur_k[o][w]; i = cur_i[o][w];
      want = flit_payload(p, v, k, i);
      if (ht[0])
        violate("InOrderNoDup", $sformatf("output %0d VC %0d: a head inside packet %0d of input %0d VC %0d (flit %0d expected; duplicated?)",
                                          o, w, k, p, v, i));
      else if (pl != want)
        violate("InOrderNoDup", $sformatf("packet %0d of input %0d VC %0d: flit %0d is %016x, sent %016x (duplicated, skipped or corrupted)",
                                          k, p, v, i, pl, want));
    end
    i = cur_i[o][w];
    if (ht[1] != (i == pkt_len(p, v, k) - 1))
      violate("InOrderNoDup", $sformatf("packet %0d of input %0d VC %0d: flit %0d of %0d %s", k, p, v, i, pkt_len(p, v, k),
                                        ht[1] ? "closes it early" : "is the last but not a tail"));
    if (ht[1]) begin
      open_q[o][w] = 1'b0;
      exp_k[p][v]++;
      packets_checked++;
    end else cur_i[o][w] = i + 1;
  endtask

  function automatic logic quiet();
    for (int p = 0; p < P; p++)
      for (int v = 0; v < V; v++)
        if (src_k[p][v] != packets || exp_k[p][v] != int'(packets) || src_cred[p][v] != D || sink_n[p][v] != 0
            || credit_of(p * V + v) != D || open_q[p][v])
          return 1'b0;
    return (in_valid == '0) && (out_valid == '0) && (in_credit == '0) && (out_credit == '0);
  endfunction

  task automatic report_drain();
    for (int p = 0; p < P; p++)
      for (int v = 0; v < V; v++) begin
        if (exp_k[p][v] != int'(packets))
          violate("Drained", $sformatf("input %0d VC %0d: %0d of %0d packets arrived (%0d sent, %0d flits buffered)",
                                       p, v, exp_k[p][v], packets, src_k[p][v], cnt_of(p * V + v)));
        if (src_cred[p][v] != D) violate("Drained", $sformatf("input %0d VC %0d: the source holds %0d of %0d credits", p, v, src_cred[p][v], D));
        if (credit_of(p * V + v) != D) violate("Drained", $sformatf("output %0d VC %0d: the router holds %0d of %0d credits", p, v, credit_of(p * V + v), D));
      end
  endtask

  // The values the router announced before the last edge are the ones its
  // link registers took at it (flit and VC fields where the valid bit is set).
  task automatic check_next();
    if (nxq_set) begin
      if (out_valid != nxq_valid || in_credit != nxq_credit)
        violate("NextValues", $sformatf("valid %b credit %b after the edge, announced %b %b", out_valid, in_credit, nxq_valid, nxq_credit));
      for (int o = 0; o < P; o++)
        if (out_valid[o] && out_flit[o*LW +: LW] != nxq_flit[o*LW +: LW])
          violate("NextValues", $sformatf("output %0d: the flit differs from the one announced", o));
      for (int i = 0; i < P; i++)
        if (in_credit[i] && in_credit_vc[i*3 +: 3] != nxq_credit_vc[i*3 +: 3])
          violate("NextValues", $sformatf("input %0d: credit VC %0d, announced %0d", i, in_credit_vc[i*3 +: 3], nxq_credit_vc[i*3 +: 3]));
    end
    nxq_valid = nx_valid; nxq_credit = nx_credit; nxq_flit = nx_flit; nxq_credit_vc = nx_credit_vc; nxq_set = 1'b1;
  endtask

  // ------------------------------------------------------------ the clock
  always @(posedge clk) begin
    int v, n, k, i, p0;
    cyc <= cyc + 1;
    if (cyc < CfgRows) begin                       // configuration, during reset
      cfg_we   <= 1'b1;
      cfg_kind <= (cyc >= NT);
      cfg_addr <= 12'((cyc < NT) ? cyc : cyc - NT);
      // table rows: the port; port rows: dimension {dateline, dim}: 0 0 1 1 ... terminal last
      cfg_data <= (cyc < NT) ? 8'(table_port(int'(cyc))) : (cyc - NT == Term) ? 8'd7 : 8'(((cyc - NT) / 2) % 3);
    end else cfg_we <= 1'b0;
    rst_n <= (cyc >= ResetCycles);
    if (rst_n && !done) begin
      // properties, on the cycle that ends at this edge
      check_credits();
      check_grants();
      check_bound();
      if (err) violate("NoRouterError", $sformatf("the router's sticky error bits are set (dbg 3.0)"));
      check_next();
      for (int o = 0; o < P; o++) if (out_valid[o]) receive(o);
      // credits back to the sources
      for (int p = 0; p < P; p++) if (in_credit[p]) src_cred[p][int'(in_credit_vc[p*3 +: 3])]++;
      // sources: one flit per port, on a VC with a flit to send and a credit
      for (int p = 0; p < P; p++) begin
        in_flit[p*LW +: LW] <= LW'({rnd(1 << 30), rnd(1 << 30), rnd(1 << 30)});   // ignored while not valid
        in_valid[p] <= 1'b0;
        if (fault_badvc && p == 0 && cyc == ResetCycles + 10) begin
          in_valid[p] <= 1'b1;
          in_flit[p*LW +: LW] <= LW'({3'd7, 2'b11, 64'h0});
        end else if (rnd(100) < src_rate(int'(cyc))) begin
          p0 = rnd(V);
          for (int j = 0; j < V; j++) begin
            v = (p0 + j) % V;
            k = src_k[p][v];
            if (k < int'(packets) && src_cred[p][v] > 0) begin
              i = src_i[p][v];
              in_valid[p] <= 1'b1;
              in_flit[p*LW +: LW] <= LW'({3'(v), i == pkt_len(p, v, k) - 1, i == 0, flit_payload(p, v, k, i)});
              src_cred[p][v]--;
              if (i == pkt_len(p, v, k) - 1) begin
                src_k[p][v] = k + 1;
                src_i[p][v] = 0;
              end else src_i[p][v] = i + 1;
              break;
            end
          end
        end
      end
      // sinks: drain one flit per port and return its credit
      for (int o = 0; o < P; o++) begin
        out_credit[o] <= 1'b0;
        out_credit_vc[o*3 +: 3] <= 3'(rnd(8));          // ignored without a credit
        if (rnd(100) < sink_rate(int'(cyc))) begin
          p0 = rnd(V);
          for (int j = 0; j < V; j++) begin
            v = (p0 + j) % V;
            if (sink_n[o][v] > 0) begin
              sink_n[o][v]--;
              out_credit[o] <= 1'b1;
              out_credit_vc[o*3 +: 3] <= 3'(v);
              break;
            end
          end
        end
      end
      // the end: everything delivered and every credit home, or out of time
      n = int'(cyc) - ResetCycles;
      if (failures == 0 && quiet()) begin
        $display("router_tb: P=%0d V=%0d D=%0d seed=%0d: %0d packets (%0d flits) checked in %0d cycles; longest wait %0d cycles at an output, %0d grants to other VCs",
                 P, V, D, seed, packets_checked, flits_checked, n, max_age, max_others);
        done <= 1'b1;
        $finish;
      end else if (failures == 0 && n >= int'(max_cycles)) begin
        report_drain();
      end
      if (failures != 0) begin
        done <= 1'b1;
        $display("router_tb: P=%0d V=%0d D=%0d seed=%0d: %0d failure(s) at cycle %0d", P, V, D, seed, failures, cyc);
        $finish;
      end
    end
  end
endmodule
