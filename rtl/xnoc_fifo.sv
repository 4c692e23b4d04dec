// xnoc_fifo - a small synchronous FIFO (one virtual channel's input buffer).
//
// Circular buffer with read/write pointers and an occupancy count; push and
// pop may happen in the same cycle.  Pushing into a full FIFO or popping an
// empty one is a protocol violation the parent flags (overflow_o).
module xnoc_fifo #(
  parameter int W = 8,   // bits per entry
  parameter int D = 4    // entries (>= 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   push_i,
  input  logic [W-1:0]           data_i,
  input  logic                   pop_i,
  output logic [W-1:0]           data_o,
  output logic                   empty_o,
  output logic [$clog2(D+1)-1:0] count_o,
  output logic                   overflow_o
);
  localparam int PW = (D > 1) ? $clog2(D) : 1;
  localparam int CW = $clog2(D + 1);

  logic [W-1:0]  mem_q [D];
  logic [PW-1:0] rd_q, rd_d, wr_q, wr_d;
  logic [CW-1:0] cnt_q, cnt_d;
  logic          do_push, do_pop;

  assign do_pop     = pop_i && (cnt_q != '0);
  assign do_push    = push_i && (cnt_q != CW'(D) || do_pop);
  assign overflow_o = (push_i && cnt_q == CW'(D) && !pop_i) || (pop_i && cnt_q == '0);
  assign data_o     = mem_q[rd_q];
  assign empty_o    = (cnt_q == '0);
  assign count_o    = cnt_q;

  always_comb begin
    rd_d  = !do_pop  ? rd_q : (rd_q == PW'(D - 1)) ? '0 : rd_q + 1'b1;
    wr_d  = !do_push ? wr_q : (wr_q == PW'(D - 1)) ? '0 : wr_q + 1'b1;
    cnt_d = cnt_q + CW'(do_push) - CW'(do_pop);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
    end else begin
      rd_q  <= rd_d;
      wr_q  <= wr_d;
      cnt_q <= cnt_d;
    end
  end

  // Storage is not reset: only entries below the count are ever read.
  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wr_q] <= data_i;
  end
endmodule
