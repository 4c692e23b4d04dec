// xnoc_clos_ctl - the routing controller of a v(m, n, r) Clos multicast
// network: Yang and Masson's linear routing control algorithm, the paper's
// "Parallel / Adder" design (every middle switch's cardinality |S_j| by its
// own adder tree in the same clock, then the minimum; one round of Step 2
// per clock: O(mr) gates, O(log r / log log r) clocks).  docs/clos.md.
//
// The algorithm (the paper's Steps 1-2, as in sim_harness/net/clos_ctl.c):
//   Step 1: for j = 1 to m' do S_j <- M_j /\ I_i;
//   Step 2: repeat find S_k such that |S_k| = min{|S_1|, ..., |S_m'|};
//                  min_set <- S_k; mid_switch <- mid_switch \/ {k};
//                  if min_set != empty then for j do S_j <- S_j /\ min_set;
//           until min_set = empty;
// with the choices of the C model: only available switches (avail_i) take
// part, ties go to the lowest index, a chosen switch is not chosen again, and
// the request is blocked when the minimum does not shrink or x (x_i, latched
// with the request) switches are chosen and min_set is still not empty.  Step 3 (updating the
// destination sets) is the caller's: it owns M_j.
//
// Timing: req_valid_i while idle_o latches Step 1 (one clock); then one
// round per clock; done_o is high for one clock with the answer in
// mid_o / count_o / blocked_o (held until the next request).  A decision
// takes 1 + (rounds) clocks, at most 1 + x.
module xnoc_clos_ctl #(
  parameter int NumMid = 8,   // m: middle switches
  parameter int NumOut = 4,   // r: output switches
  localparam int SizeW = $clog2(NumOut + 2),  // |S_j| and |I_i| + 1
  localparam int CntW  = $clog2(NumMid + 1),
  localparam int IdxW  = (NumMid > 1) ? $clog2(NumMid) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     req_valid_i,
  output logic                     idle_o,
  input  logic [NumOut-1:0]        req_i,         // I_i: a set of output switches
  input  logic [NumMid*NumOut-1:0] dest_i,        // M_j in [j*NumOut +: NumOut]
  input  logic [NumMid-1:0]        avail_i,       // available middle switches
  input  logic [CntW-1:0]          x_i,           // x: middle switches per connection at most (>= 1)
  output logic                     done_o,
  output logic                     blocked_o,
  output logic [NumMid-1:0]        mid_o,         // the chosen middle switches
  output logic [CntW-1:0]          count_o        // how many
);
  typedef enum logic [1:0] {Idle, Busy} state_e;

  state_e                     state_q, state_d;
  logic [NumMid*NumOut-1:0]   s_q, s_d;          // S_j
  logic [NumMid-1:0]          cand_q, cand_d;    // available and not chosen
  logic [NumMid-1:0]          mid_q, mid_d;
  logic [CntW-1:0]            count_q, count_d;
  logic [CntW-1:0]            x_q, x_d;
  logic [SizeW-1:0]           min_q, min_d;      // |min_set| of the last round (|I| + 1 at first)
  logic                       done_q, done_d, blocked_q, blocked_d;

  // the adders: |S_j| of every candidate at once
  logic [NumMid*SizeW-1:0] size;
  always_comb begin
    for (int j = 0; j < NumMid; j++) begin
      logic [SizeW-1:0] c;
      c = '0;
      for (int k = 0; k < NumOut; k++) c = c + SizeW'(s_q[j*NumOut + k]);
      size[j*SizeW +: SizeW] = c;
    end
  end

  // the minimum over the candidates, lowest index on ties
  logic                        found;
  logic [IdxW-1:0]             kidx;
  logic [SizeW-1:0]            kmin;
  always_comb begin
    found = 1'b0;
    kidx  = '0;
    kmin  = '0;
    for (int j = 0; j < NumMid; j++) begin
      if (cand_q[j] && (!found || size[j*SizeW +: SizeW] < kmin)) begin
        found = 1'b1;
        kidx  = IdxW'(j);
        kmin  = size[j*SizeW +: SizeW];
      end
    end
  end

  logic [NumOut-1:0] min_set;
  always_comb begin
    min_set = '0;
    for (int j = 0; j < NumMid; j++) if (kidx == IdxW'(j)) min_set = s_q[j*NumOut +: NumOut];
  end

  logic [SizeW-1:0] req_size;
  always_comb begin
    req_size = '0;
    for (int k = 0; k < NumOut; k++) req_size = req_size + SizeW'(req_i[k]);
  end

  always_comb begin
    state_d   = state_q;
    s_d       = s_q;
    cand_d    = cand_q;
    mid_d     = mid_q;
    count_d   = count_q;
    x_d       = x_q;
    min_d     = min_q;
    done_d    = 1'b0;
    blocked_d = blocked_q;
    unique case (state_q)
      Idle: begin
        if (req_valid_i) begin  // Step 1
          for (int j = 0; j < NumMid; j++) s_d[j*NumOut +: NumOut] = dest_i[j*NumOut +: NumOut] & req_i;
          cand_d    = avail_i;
          mid_d     = '0;
          count_d   = '0;
          x_d       = x_i;
          min_d     = req_size + SizeW'(1);
          blocked_d = 1'b0;
          state_d   = Busy;
        end
      end
      Busy: begin  // one round of Step 2
        if (!found || kmin >= min_q) begin
          blocked_d = 1'b1;  // no candidate, or the minimum did not shrink
          done_d    = 1'b1;
          state_d   = Idle;
        end else begin
          mid_d[kidx]  = 1'b1;
          cand_d[kidx] = 1'b0;
          count_d = count_q + CntW'(1);
          min_d   = kmin;
          for (int j = 0; j < NumMid; j++) s_d[j*NumOut +: NumOut] = s_q[j*NumOut +: NumOut] & min_set;
          if (kmin == '0) begin
            done_d  = 1'b1;  // min_set = empty: routed
            state_d = Idle;
          end else if (count_q + CntW'(1) >= x_q) begin
            blocked_d = 1'b1;  // x switches and min_set is not empty
            done_d    = 1'b1;
            state_d   = Idle;
          end
        end
      end
      default: state_d = Idle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q   <= Idle;
      s_q       <= '0;
      cand_q    <= '0;
      mid_q     <= '0;
      count_q   <= '0;
      x_q       <= '0;
      min_q     <= '0;
      done_q    <= 1'b0;
      blocked_q <= 1'b0;
    end else begin
      state_q   <= state_d;
      s_q       <= s_d;
      cand_q    <= cand_d;
      mid_q     <= mid_d;
      count_q   <= count_d;
      x_q       <= x_d;
      min_q     <= min_d;
      done_q    <= done_d;
      blocked_q <= blocked_d;
    end
  end

  assign idle_o    = (state_q == Idle);
  assign done_o    = done_q;
  assign blocked_o = blocked_q;
  assign mid_o     = mid_q;
  assign count_o   = count_q;
endmodule
