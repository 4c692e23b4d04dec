// xnoc_credit_counter - the credits of one downstream buffer of D flits:
// full after reset, one back for every credit returned, one spent for
// every flit sent (only while one is available).
module xnoc_credit_counter #(
  parameter int D = 8,               // downstream buffer depth, flits
  localparam int CW = $clog2(D + 1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          return_i,    // a credit came back
  input  logic          spend_i,     // a flit left
  output logic          avail_o,     // a flit may leave
  output logic [CW-1:0] count_o
);
  logic [CW-1:0] cnt_q, cnt_d;

  always_comb begin
    cnt_d = cnt_q;
    if (return_i && cnt_q != CW'(D)) cnt_d = cnt_d + CW'(1);
    if (spend_i) cnt_d = cnt_d - CW'(1);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) cnt_q <= CW'(D);
    else cnt_q <= cnt_d;
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
