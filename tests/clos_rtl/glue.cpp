// glue.cpp - the only C++ of the controller's test: Verilator's model of
// rtl/xnoc_clos_ctl.sv (Vclos) behind a C interface for clos_rtl.c.
#include <cstdint>

#include "Vclos.h"
#include "verilated.h"

extern "C" {
#include "glue.h"
}

static Vclos *top;

static void tick()
{
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
}

extern "C" void clos_rtl_init(void)
{
    top = new Vclos;
    top->rst_ni = 0;
    top->req_valid_i = 0;
    tick();
    tick();
    top->rst_ni = 1;
}

extern "C" void clos_rtl_final(void)
{
    top->final();
    delete top;
}

extern "C" int clos_rtl_decide(uint32_t req, const uint32_t *dest, int dest_words, uint32_t avail, int x, uint32_t *mid,
                               int *count, int *blocked)
{
    top->req_i = req;
    for (int w = 0; w < dest_words; w++) top->dest_i[w] = dest[w];
    top->avail_i = avail;
    top->x_i = x;
    top->req_valid_i = 1;
    tick();
    top->req_valid_i = 0;
    int clocks = 1;
    while (!top->done_o && clocks < 1000) {
        tick();
        clocks++;
    }
    *mid = top->mid_o;
    *count = top->count_o;
    *blocked = top->blocked_o;
    return top->done_o ? clocks : -1;
}
