// xnoc_rr_arb - round-robin arbiter: the index of the requester granted.
//
// The requester granted is the lowest-numbered one above the previous
// winner, else the lowest-numbered one (wrap-around).  When the grant is
// used (upd_i) the priority moves just past the winner, so each of NumReqs
// requesters is served within NumReqs grants.  The state is a mask of the
// requesters above the last winner; the grant is the lowest set bit,
// x & -x: word-wide operations, no loop over requesters in simulation.
// Without a request nothing is computed (outputs 0): most arbiters of an
// idle router cost one test per cycle in simulation.
module xnoc_rr_arb #(
  parameter int NumReqs = 4,
  localparam int N  = NumReqs,
  localparam int IW = (N > 1) ? $clog2(N) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [N-1:0]  req_i,
  input  logic          upd_i,   // the grant was used
  output logic          any_o,
  output logic [IW-1:0] idx_o    // index of the grant (0 if no request)
);
  logic [N-1:0] mask_q, mask_d;  // requesters above the previous winner

  always_comb begin
    logic [N-1:0] hi, pick, gnt;         // gnt: one-hot
    any_o  = (req_i != '0);
    idx_o  = '0;
    mask_d = mask_q;
    hi     = '0;
    pick   = '0;
    gnt    = '0;
    if (any_o) begin
      hi     = req_i & mask_q;
      pick   = (hi != '0) ? hi : req_i;
      gnt    = pick & (~pick + N'(1));
      mask_d = ~(gnt | (gnt - N'(1)));       // bits strictly above the winner
      for (int i = 1; i < N; i++) if (gnt[i]) idx_o = IW'(i);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) mask_q <= '1;
    else if (upd_i && any_o) mask_q <= mask_d;
  end
endmodule
