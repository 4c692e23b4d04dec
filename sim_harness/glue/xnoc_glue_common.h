// xnoc_glue_common.h - what the two C++ glues share: the flat build's
// (xnoc_glue.cpp, one verilated network) and the tile build's
// (xnoc_tile_glue.cpp, one verilated router per tile).  Included once by
// each, after its model's header; netbuild hashes it into both cache keys.
//
// Here: the link structs, the state every network keeps beside its models
// (the context, the time, the VCD: struct xg_base, the first and only base
// of each glue's network), the assertion capture of assert builds, the
// config-clock pulse, and the calls of net.c that do not depend on the
// models: xg_trace_on, xg_assert_count, and xg_trace_open around the glue's
// own xg_trace_models().
//
// Variants (preprocessor symbols set by netbuild, each cached separately):
//   XNOC_TRACE        VCD waveforms (models verilated with --trace)
//   XNOC_ASSERT_BUILD models verilated with --assert -DXNOC_ASSERT; the
//                     assertion messages Verilator prints are captured here
//                     (VL_PRINTF is redirected to xg_vl_printf) instead of
//                     going to stdout, and a failed assertion does not abort:
//                     the first is kept, as the glue's xg_assert_text()
//                     words it.
#ifndef XNOC_GLUE_COMMON_H
#define XNOC_GLUE_COMMON_H

#include <climits>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "verilated.h"
#ifdef XNOC_TRACE
#include "verilated_vcd_c.h"
#endif
#include "../../firmware/lib/link_flit.h"

// The structs of net.h (xnoc_flit, xnoc_credit): one declaration for both.
typedef link_flit xflit;
typedef link_credit xcredit;

struct xg_base {
    VerilatedContext ctx;
    uint64_t t = 0;   // half-cycle time stamps for the VCD are 2t, 2t+1
#ifdef XNOC_TRACE
    VerilatedVcdC *vcd = nullptr;
    int on = 0;
#endif
    xg_base()
    {
#ifdef XNOC_ASSERT_BUILD
        ctx.errorLimit(INT_MAX);   // count failed assertions, never abort the process
#endif
    }
};

// Before the models go: the VCD closed (xg_free).
static inline void xg_trace_close(xg_base *g)
{
#ifdef XNOC_TRACE
    if (g->vcd) {
        g->vcd->close();
        delete g->vcd;
        g->vcd = nullptr;
    }
#else
    (void)g;
#endif
}

static inline void xg_dump(xg_base *g, uint64_t when)
{
#ifdef XNOC_TRACE
    if (g->vcd && g->on) g->vcd->dump(when);
#else
    (void)g;
    (void)when;
#endif
}

// One pulse of the configuration clock: the config registers load the bus.
template <class M> static inline void xg_cfg_tick(M *m)
{
    m->cfg_clk_i = 1;
    m->eval();
    m->cfg_clk_i = 0;
    m->eval();
}

#ifdef XNOC_TRACE
static void xg_trace_models(xg_base *g, VerilatedVcdC *vcd);   // the glue's: every model into the VCD
#endif

#ifdef XNOC_ASSERT_BUILD
static char assert_text[512];
static long assert_count;
static void xg_assert_text(const char *line, char *out, size_t len);   // the glue's wording of a message
// Verilator's messages: an assertion prints "[t] %Error: file:line: Assertion
// failed in ..." and then "$stop ignored" (the error limit is raised above).
extern "C" int xg_vl_printf(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (std::strstr(line, "Assertion failed") || std::strstr(line, "%Error")) {
        if (!assert_count++) {
            xg_assert_text(line, assert_text, sizeof assert_text);
            for (char *c = assert_text; *c; c++)
                if (*c == '\n') *c = ' ';
        }
    }
    return n;
}
#endif

extern "C" {

int xg_trace_open(void *p, const char *path)
{
#ifdef XNOC_TRACE
    xg_base *g = (xg_base *)p;
    g->ctx.traceEverOn(true);
    g->vcd = new VerilatedVcdC;
    xg_trace_models(g, g->vcd);
    g->vcd->open(path);
    return g->vcd->isOpen() ? 0 : -1;
#else
    (void)p;
    (void)path;
    return -1;
#endif
}

void xg_trace_on(void *p, int on)
{
#ifdef XNOC_TRACE
    ((xg_base *)p)->on = on;
#else
    (void)p;
    (void)on;
#endif
}

// Assertion failures so far, and the first message (assert builds only).
long xg_assert_count(void *p, const char **text)
{
    (void)p;
#ifdef XNOC_ASSERT_BUILD
    *text = assert_text;
    return assert_count;
#else
    *text = "";
    return 0;
#endif
}

}   // extern "C"

#endif
