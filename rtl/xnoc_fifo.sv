// xnoc_fifo - a small synchronous FIFO: one virtual channel's input buffer
// of the coding unit (xnoc_ncu_absorb.sv, one per VC; the router's own input
// buffers are xnoc_vc_buffers.sv).
//
// It watches the link itself (push_i = the link's valid, data_i = its flit)
// and takes the flits whose VC field (xnoc_pkg::link_flit_t's vc) is its Vc,
// keeping their low Width bits: every VC's buffer connects to the same link wires, with
// no per-VC decode between (which a model would recompute every cycle).
// Circular buffer with read/write pointers and an occupancy count; push and
// pop may happen in the same cycle.  Pushing into a full FIFO or popping an
// empty one is a protocol violation the parent flags (overflow_o, registered:
// it is raised the cycle after).
//
// The push side is formed in the flip-flop blocks, not in combinational _d
// signals: push_i follows the upstream router, which runs every cycle, while
// the FIFO may sit behind a clock gate (xnoc_ncu) - and a model re-evaluates
// combinational logic whenever any of its inputs' clocks ticks, so push-side
// _d signals would cost every cycle even while the gate is shut.
module xnoc_fifo #(
  parameter int Width = xnoc_pkg::LinkVcLsb,  // bits per entry: the flit's low Width bits
  parameter int Depth = 4,                    // entries (>= 1)
  parameter int Vc    = 0,                    // the VC this buffer holds
  // the short names the body uses
  localparam int W     = Width,
  localparam int D     = Depth,
  localparam int LinkW = xnoc_pkg::LinkFlitW,
  localparam int VcLsb = xnoc_pkg::LinkVcLsb,
  localparam int VB    = xnoc_pkg::LinkVcW
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   push_i,   // a flit on the link (any VC)
  input  logic [LinkW-1:0]       data_i,
  input  logic                   pop_i,
  output logic [W-1:0]           data_o,
  output logic                   empty_o,
  output logic [$clog2(D+1)-1:0] count_o,
  output logic                   overflow_o
);
  localparam int PW = (D > 1) ? $clog2(D) : 1;
  localparam int CW = $clog2(D + 1);

  logic [W-1:0]  mem_q [D];
  logic [PW-1:0] rd_q, wr_q;
  logic [CW-1:0] cnt_q;
  logic          do_pop, ovf_q;
  logic          unused_link;
  assign unused_link = ^data_i;    // bits above Width other than the VC field


  assign do_pop     = pop_i && (cnt_q != '0);
  assign data_o     = mem_q[rd_q];
  assign empty_o    = (cnt_q == '0);
  assign count_o    = cnt_q;
  assign overflow_o = ovf_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
      ovf_q <= 1'b0;
    end else begin
      if (do_pop) rd_q <= (rd_q == PW'(D - 1)) ? '0 : rd_q + 1'b1;
      if (push_i && data_i[VcLsb +: VB] == VB'(Vc) && (cnt_q != CW'(D) || do_pop)) wr_q <= (wr_q == PW'(D - 1)) ? '0 : wr_q + 1'b1;
      cnt_q <= cnt_q + CW'(push_i && data_i[VcLsb +: VB] == VB'(Vc) && (cnt_q != CW'(D) || do_pop)) - CW'(do_pop);
      ovf_q <= (push_i && data_i[VcLsb +: VB] == VB'(Vc) && cnt_q == CW'(D) && !pop_i) || (pop_i && cnt_q == '0);
    end
  end

  // Storage is not reset: only entries below the count are ever read.
  always_ff @(posedge clk_i) begin
    if (push_i && data_i[VcLsb +: VB] == VB'(Vc) && (cnt_q != CW'(D) || do_pop)) mem_q[wr_q] <= data_i[W-1:0];
  end
endmodule
