// xnoc_rr_arb_bank - NumGroups independent round-robin arbiters of
// NumReqs requesters each: group m's requests are req_i[m*NumReqs +: NumReqs],
// its grant index idx_o[m*IdxW +: IdxW].  Each group works as xnoc_rr_arb:
// the requester granted is the lowest-numbered one above the group's previous
// winner, else the lowest-numbered one; when the grant is used (upd_i[m]) the
// group's priority moves just past the winner.
//
// A router's switch allocator is one bank per stage (one group per input
// port, one per output port).  Written for the router's simulation speed:
// the groups' priority masks are one packed register, and a bank without a
// request does one test, so an idle port costs no arbiter work at all (one
// xnoc_rr_arb per port is worked every cycle, requests or not).
module xnoc_rr_arb_bank #(
  parameter int NumReqs   = 4,
  parameter int NumGroups = 1,
  localparam int N  = NumReqs,
  localparam int M  = NumGroups,
  localparam int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [M*N-1:0]    req_i,
  input  logic [M-1:0]      upd_i,   // group m's grant was used
  output logic [M-1:0]      any_o,   // group m has a request
  output logic [M*IdxW-1:0] idx_o    // group m's grant (0 without a request)
);
  logic [M*N-1:0] mask_q, mask_d;    // per group: requesters above its previous winner
  logic [M*N-1:0] mask_n;            // the next masks: mask_d for the groups whose grant was used
  logic [M-1:0]   upd;

  always_comb begin
    logic [N-1:0] req, hi, pick, gnt;  // gnt: one-hot
    any_o  = '0;
    idx_o  = '0;
    mask_d = mask_q;
    req    = '0;
    hi     = '0;
    pick   = '0;
    gnt    = '0;
    if (req_i != '0) begin
      for (int m = 0; m < M; m++) begin
        req = req_i[m*N +: N];
        if (req != '0) begin
          any_o[m] = 1'b1;
          hi   = req & mask_q[m*N +: N];
          pick = (hi != '0) ? hi : req;
          gnt  = pick & (~pick + N'(1));
          mask_d[m*N +: N] = ~(gnt | (gnt - N'(1)));   // bits strictly above the winner
          for (int i = 1; i < N; i++) if (gnt[i]) idx_o[m*IdxW +: IdxW] = IdxW'(i);
        end
      end
    end
  end

  assign upd = upd_i & any_o;

  // (The register takes a whole word: a model then emits one copy of a
  // router's sequential code for every instance; with the update inside the
  // flip-flop block, Verilator 5.006 orders it differently per instance.)
  always_comb begin
    mask_n = mask_q;
    if (upd != '0)
      for (int m = 0; m < M; m++) if (upd[m]) mask_n[m*N +: N] = mask_d[m*N +: N];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) mask_q <= '1;
    else         mask_q <= mask_n;
  end

`ifdef XNOC_ASSERT
  // Named invariants, checked in assertion-enabled simulation builds.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int m = 0; m < M; m++) begin
        AnyMeansARequest: assert (any_o[m] == (req_i[m*N +: N] != '0));
        GrantIsARequest: assert (!any_o[m] || req_i[m*N + 32'(idx_o[m*IdxW +: IdxW])]);
      end
    end
  end
`endif
endmodule
