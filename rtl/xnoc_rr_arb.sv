// xnoc_rr_arb - round-robin arbiter.
//
// Grants the first requester at or after the priority pointer; when the
// grant is accepted (upd_i) the pointer moves just past the winner, so every
// requester is served within N grants.
module xnoc_rr_arb #(
  parameter int N = 4
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [N-1:0]                  req_i,
  input  logic                          upd_i,   // the grant was used
  output logic                          any_o,
  output logic [((N > 1) ? $clog2(N) : 1)-1:0] idx_o
);
  localparam int IW = (N > 1) ? $clog2(N) : 1;

  logic [IW-1:0] ptr_q, ptr_d;
  logic [N-1:0]  hi_req;

  // Requests at or above the pointer have priority over the ones below.
  always_comb begin
    for (int i = 0; i < N; i++) hi_req[i] = req_i[i] && (IW'(i) >= ptr_q);
  end

  always_comb begin
    idx_o = '0;
    for (int i = N - 1; i >= 0; i--) if (req_i[i]) idx_o = IW'(i);
    for (int i = N - 1; i >= 0; i--) if (hi_req[i]) idx_o = IW'(i);
  end

  assign any_o = |req_i;
  assign ptr_d = (idx_o == IW'(N - 1)) ? '0 : idx_o + 1'b1;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) ptr_q <= '0;
    else if (upd_i && any_o) ptr_q <= ptr_d;
  end
endmodule
