// xnoc_credit_counter - the credits of one downstream VC buffer of Depth flits:
// full after reset, one back for every credit returned for VC Vc (it watches
// the credit wires themselves), one spent for every flit sent (only while
// one is available).
module xnoc_credit_counter #(
  parameter int Depth = 8,           // downstream buffer depth, flits
  parameter int Vc    = 0,           // the downstream VC
  localparam int D  = Depth,
  localparam int CW = $clog2(D + 1),
  localparam int VB = xnoc_pkg::LinkVcW
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          return_i,    // a credit came back (any VC) ...
  input  logic [VB-1:0] return_vc_i, // ... for this VC
  input  logic          spend_i,     // a flit left
  output logic          avail_o,     // a flit may leave
  output logic [CW-1:0] count_o
);
  logic [CW-1:0] cnt_q;

  // The next count is formed in the flip-flop block, not in a separate
  // combinational _d: return_i follows the downstream router, which runs
  // every cycle, while the counter may sit behind a clock gate - and a
  // model re-evaluates combinational logic whenever any of its inputs' clocks
  // ticks, so a _d here would cost every cycle even while the gate is shut.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) cnt_q <= CW'(D);
    else cnt_q <= cnt_q + CW'(return_i && return_vc_i == VB'(Vc) && cnt_q != CW'(D)) - CW'(spend_i);
  end

  assign avail_o = (cnt_q != '0);
  assign count_o = cnt_q;

`ifdef XNOC_ASSERT
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      CreditNeverAboveDepth: assert (cnt_q <= CW'(D));
      SpendOnlyWithCredit: assert (!spend_i || cnt_q != '0);
    end
  end
`endif
endmodule
