// xnoc_ncu_alu - the coding unit's combining operators on one 64-bit flit:
// y = a OP b by the head's FUNC (xnoc_pkg::NcFunc*): XOR, AND, OR, wrapping
// add on two 32-bit lanes or one 64-bit lane, signed/unsigned 32-bit min and
// max, wrapping multiplication on two 32-bit lanes (lanes little-endian:
// [31:0] and [63:32]; a 64-bit product would cost ~9,900 cells more per ALU,
// docs/synth.md: the cores run it).  With NcuOps = 0 only XOR
// (the unit as it was before the operators).  Combinational; the slot
// absorber (xnoc_ncu_absorb) and the streaming combiner (xnoc_ncu_stream)
// share it, so both combine the same way.
module xnoc_ncu_alu #(
  parameter int NcuOps = 1,
  localparam int PW = xnoc_pkg::LinkPayloadW
) (
  input  logic [3:0]    func_i,
  input  logic [PW-1:0] a_i,
  input  logic [PW-1:0] b_i,
  output logic [PW-1:0] y_o
);
  if (NcuOps != 0) begin : g_ops
    // min and max share one comparator per lane; a signed compare is the
    // unsigned one with the sign bits flipped
    always_comb begin
      logic [31:0]   a, b;
      logic [PW-1:0] mm;
      logic          sg, lt, mx;
      logic [31:0]   p00, p11;
      sg = (32'(func_i) == xnoc_pkg::NcFuncMin32s) || (32'(func_i) == xnoc_pkg::NcFuncMax32s);
      mx = (32'(func_i) == xnoc_pkg::NcFuncMax32s) || (32'(func_i) == xnoc_pkg::NcFuncMax32u);
      for (int l = 0; l < 2; l++) begin
        a  = a_i[32*l +: 32];
        b  = b_i[32*l +: 32];
        lt = {a[31] ^ sg, a[30:0]} < {b[31] ^ sg, b[30:0]};
        mm[32*l +: 32] = (lt ^ mx) ? a : b;
      end
      // products: the low half of each 32-bit lane's
      p00 = a_i[31:0] * b_i[31:0];
      p11 = a_i[63:32] * b_i[63:32];
      y_o = a_i ^ b_i;
      unique case (32'(func_i))
        xnoc_pkg::NcFuncAnd:   y_o = a_i & b_i;
        xnoc_pkg::NcFuncOr:    y_o = a_i | b_i;
        xnoc_pkg::NcFuncAdd64: y_o = a_i + b_i;
        xnoc_pkg::NcFuncAdd32: y_o = {a_i[63:32] + b_i[63:32], a_i[31:0] + b_i[31:0]};
        xnoc_pkg::NcFuncMin32s, xnoc_pkg::NcFuncMax32s, xnoc_pkg::NcFuncMin32u, xnoc_pkg::NcFuncMax32u: y_o = mm;
        xnoc_pkg::NcFuncMul32: y_o = {p11, p00};
        default: ;                   // XOR
      endcase
    end
  end else begin : g_xor
    logic [3:0] unused_func;
    assign unused_func = func_i;
    assign y_o = a_i ^ b_i;
  end
endmodule
