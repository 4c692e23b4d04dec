// xnoc_clock_gate - an integrated clock gate: a latch transparent while the
// clock is low holds the enable, so the gated clock has no glitches and
// pulses only in cycles whose enable was set before the rising edge.
// Equivalent to an enable on every flip-flop behind it; used to stop a
// block's clock while it is idle (no switching, so no power; and no
// evaluation of the block at all in the simulation model).
module xnoc_clock_gate (
  input  logic clk_i,
  input  logic en_i,
  output logic clk_o,
  output logic en_o    // the latched enable: clk_o pulses at the next rising edge
);
  logic en_q;
  always_latch begin
    if (!clk_i) en_q = en_i;
  end
  assign clk_o = clk_i & en_q;
  assign en_o  = en_q;
endmodule
