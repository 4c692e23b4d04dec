// ncu_model.svh - the coding-unit benches' stimulus and model (ncu_tb.sv,
// ncu_stream_tb.sv include it in their module): mix (splitmix64), grand
// (the word of group g, contributor j, index i: a pure function of the
// bench's `seed`), gdata (a data word: random lanes, or edge values), op
// (the combining operators from their definitions, not from the RTL), rnd
// (the timing stream, xorshift64 over `trng`).
  function automatic logic [63:0] mix(input logic [63:0] x);
    logic [63:0] z;
    z = x + 64'h9E3779B97F4A7C15;
    z = (z ^ (z >> 30)) * 64'hBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 64'h94D049BB133111EB;
    return z ^ (z >> 31);
  endfunction
  function automatic logic [63:0] grand(input int g, input int j, input int i);   // group g, contribution j, word i
    return mix({16'(seed), 20'(g), 4'(j), 24'(i)});
  endfunction
  // data word i of contribution j of group g: per 32-bit lane random, or an edge value
  function automatic logic [63:0] gdata(input int g, input int j, input int i);
    logic [63:0] w = grand(g, j, i), e = mix(w);
    logic [31:0] edges [6] = '{32'h0, 32'h1, 32'hFFFFFFFF, 32'h80000000, 32'h7FFFFFFF, 32'h80000001};
    for (int l = 0; l < 2; l++)
      if (e[8*l +: 2] == 2'd0) w[32*l +: 32] = edges[int'(e[16 + 8*l +: 8]) % 6];
    return w;
  endfunction

  // the model of the operators: acc combined with w by f, written from the
  // definitions (lanes as signed or unsigned numbers), not from the RTL
  function automatic logic [63:0] op(input logic [3:0] f, input logic [63:0] acc, input logic [63:0] w);
    logic [63:0] r;
    int signed   sa, sb;
    int unsigned ua, ub;
    case (int'(f))
      xnoc_pkg::NcFuncXor:   return acc ^ w;
      xnoc_pkg::NcFuncAnd:   return acc & w;
      xnoc_pkg::NcFuncOr:    return acc | w;
      xnoc_pkg::NcFuncAdd64: return acc + w;
      default: ;
    endcase
    for (int l = 0; l < 2; l++) begin
      sa = int'(acc[32*l +: 32]); sb = int'(w[32*l +: 32]);
      ua = acc[32*l +: 32];       ub = w[32*l +: 32];
      case (int'(f))
        xnoc_pkg::NcFuncAdd32:  r[32*l +: 32] = 32'(ua + ub);
        xnoc_pkg::NcFuncMin32s: r[32*l +: 32] = (sa < sb) ? sa : sb;
        xnoc_pkg::NcFuncMax32s: r[32*l +: 32] = (sa > sb) ? sa : sb;
        xnoc_pkg::NcFuncMin32u: r[32*l +: 32] = (ua < ub) ? ua : ub;
        xnoc_pkg::NcFuncMax32u: r[32*l +: 32] = (ua > ub) ? ua : ub;
        xnoc_pkg::NcFuncMul32:  r[32*l +: 32] = 32'(ua * ub);
        default:                r[32*l +: 32] = 'x;
      endcase
    end
    return r;
  endfunction
  logic [63:0] trng;
  function automatic int rnd(input int n);
    trng = trng ^ (trng << 13);
    trng = trng ^ (trng >> 7);
    trng = trng ^ (trng << 17);
    return int'(trng[31:0] % 32'(n));
  endfunction
