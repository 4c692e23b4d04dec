// tb_main.cpp - Verilator's glue for the benches in tests/rtl/ (router_tb.sv,
// ncu_tb.sv; verilated with --prefix Vtb): the clock. A bench itself
// (stimulus, properties, the end) is SystemVerilog; this only toggles clk
// until the bench calls $finish. Exit 0: every property held; 1: one failed
// (the bench printed "FAIL Name: ..."), or an RTL assertion fired, or the
// bench never finished.
#include "Vtb.h"
#include "verilated.h"

#include <cstdio>
#include <memory>

int main(int argc, char **argv)
{
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    // an RTL assertion (-DXNOC_ASSERT) reports and the run goes on, so the
    // bench still names the property it breaks; it fails the run below
    ctx->fatalOnError(false);
    ctx->errorLimit(1000000);
    auto tb = std::make_unique<Vtb>(ctx.get());
    unsigned long long half = 0;
    while (!ctx->gotFinish() && half < 40000000ull) {
        tb->clk = half & 1;
        tb->eval();
        half++;
    }
    tb->final();
    if (!ctx->gotFinish()) {
        std::fprintf(stderr, "tb: the bench did not finish in %llu cycles\n", half / 2);
        return 1;
    }
    if (ctx->errorCount() != 0) std::fprintf(stderr, "tb: %d RTL assertion(s) failed\n", ctx->errorCount());
    return tb->fail_o || ctx->errorCount() != 0 ? 1 : 0;
}
