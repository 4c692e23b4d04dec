// xnoc_tile_glue.cpp - the tile build's C++: a network of verilated tiles
// (rtl/xnoc_tile.sv: a router and its coding unit), wired by link tables.
//
// netbuild compiles this file at run time, next to the verilated tile, into
// a shared object that net.c dlopen()s; one object serves every network of
// the same tile parameters (netbuild_tile).  It exports the calls of
// xnoc_glue.cpp (the flat build's glue) with the same meaning, plus
// xg_wire(), which net.c calls once after xg_new() with the tables it
// computes from the topology description: no code is generated per network.
//
// Timing: every tile output is a flop, so a cycle drives every tile's inputs
// from its neighbours' outputs of the previous cycle (still in the models:
// no tile has ticked yet), then ticks every tile.  The NI-to-router links,
// registered in the flat netlist (inj_*_q), are the copies inj_q / ejc_q
// kept here.
//
// Variants (preprocessor symbols set by netbuild, each cached separately):
//   XNOC_TRACE        VCD waveforms (tiles verilated with --trace), every
//                     tile a model of its own name ("u_r<r>") in one file
//   XNOC_ASSERT_BUILD tiles verilated with --assert -DXNOC_ASSERT; the first
//                     message is kept, with the tile's path rewritten as
//                     the flat netlist names it (TOP.xnoc_network.u_r<r>...)
// The link taps (xg_monitor) are in every variant: they read tile outputs.
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <climits>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "Vxnoc_tile.h"
#include "verilated.h"
#include "../../firmware/lib/link_flit.h"
#ifdef XNOC_TRACE
#include "verilated_vcd_c.h"
#endif

// Must match xnoc_flit / xnoc_credit in net.h.
// The structs of net.h (xnoc_flit, xnoc_credit): one declaration for both.
typedef link_flit xflit;
typedef link_credit xcredit;

// Port vectors: Verilator's C type depends on the width (CData .. QData, or
// VlWide for more than 64 bits); these read and write bit fields of either.
template <class T> static inline uint32_t field(const T &v, int lsb, int w)
{
    if constexpr (std::is_integral<T>::value) return (uint32_t)((uint64_t)v >> lsb) & ((1u << w) - 1);
    else {
        uint64_t x = (uint64_t)v[lsb / 32] >> (lsb % 32);
        if (lsb % 32 + w > 32) x |= (uint64_t)v[lsb / 32 + 1] << (32 - lsb % 32);
        return (uint32_t)x & ((1u << w) - 1);
    }
}
template <class T> static inline void set_field(T &v, int lsb, int w, uint32_t x)
{
    if constexpr (std::is_integral<T>::value) {
        uint64_t m = (uint64_t)((1u << w) - 1) << lsb;
        v = (T)(((uint64_t)v & ~m) | ((uint64_t)x << lsb & m));
    } else {
        for (int i = 0; i < w; i++) {
            int b = lsb + i;
            v[b / 32] = (v[b / 32] & ~(1u << (b % 32))) | ((x >> i & 1u) << (b % 32));
        }
    }
}

// A port's flit slot in the tile's link vectors (link_flit.h has its fields' places).
static constexpr int LWW = LINK_SLOT_W / 32;
static inline void put(uint32_t *w, const xflit &f) { link_flit_pack(&f, w); }
static inline void get(const uint32_t *w, xflit &f) { link_flit_unpack(w, &f); }

using VcT = std::remove_reference<decltype(((Vxnoc_tile *)nullptr)->out_credit_vc_i)>::type;

// Where a tile input comes from.
struct src {
    Vxnoc_tile *m; // the driving tile (nullptr: a terminal channel, or tied off)
    int port;      // its port, or the terminal channel (ch >= 0), or -1 tied off
};

struct xtnet {
    VerilatedContext ctx;
    std::vector<Vxnoc_tile *> tiles;
    int np = 0, nch = 0;
    std::vector<src> in, cr;   // per tile port: what drives its input flit, its output credit
    std::vector<int> ch_port;  // terminal channel -> tile * np + port
    std::vector<xflit> inj_q;  // the NI links' registers (netgen.c inj_*_q)
    std::vector<xcredit> ejc_q;
    uint64_t t = 0;            // half-cycle time stamps for the VCD are 2t, 2t+1
    bool cfg_we = false;       // the config registers hold a write (xg_cfg_row)
    std::vector<Vxnoc_tile *> live; // xg_cycle: the tiles evaluated this cycle
    bool skip = true;               // skip quiet tiles (not while tracing, nor in assert builds)
#ifdef XNOC_TRACE
    VerilatedVcdC *vcd = nullptr;
    int on = 0;
#endif
};

#ifdef XNOC_ASSERT_BUILD
static char assert_text[512];
static long assert_count;
static int cur_tile; // the tile being evaluated: Verilator's message names the tile's model
extern "C" int xg_vl_printf(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (std::strstr(line, "Assertion failed") || std::strstr(line, "%Error")) {
        if (!assert_count++) {
            // "... in MODEL.xnoc_tile.u_r.X" (MODEL: the tile's name, u_r<r>) -> "... in
            // TOP.xnoc_network.u_r<r>.X", the flat netlist's path (and g_unit.u_u -> u_u<r>)
            std::string s = line;
            size_t at = s.find(".xnoc_tile.");
            if (at != std::string::npos && at++ > 0) {
                size_t from = s.rfind(' ', at);
                from = from == std::string::npos ? 0 : from + 1;
                std::string rest = s.substr(at + std::strlen("xnoc_tile."));
                if (rest.compare(0, 7, "g_unit.") == 0) rest = rest.substr(7);
                size_t dot = rest.find_first_of(".:");
                std::string name = rest.substr(0, dot), tail = dot == std::string::npos ? "" : rest.substr(dot);
                s = s.substr(0, from) + "TOP.xnoc_network." + name + std::to_string(cur_tile) + tail;
            }
            std::snprintf(assert_text, sizeof assert_text, "%s", s.c_str());
            for (char *c = assert_text; *c; c++)
                if (*c == '\n') *c = ' ';
        }
    }
    return n;
}
#define SET_TILE(r) (cur_tile = (r))
#else
#define SET_TILE(r) ((void)0)
#endif

// Cleared for the falling edge of a network cycle: the model then skips its
// router's input logic (netbuild.c tile_patch_ico: no input but the clock
// changed since the rising edge's evaluation).
extern "C" int xnoc_tile_ico = 1;

static void dump(xtnet *g, uint64_t when)
{
#ifdef XNOC_TRACE
    if (g->vcd && g->on) g->vcd->dump(when);
#else
    (void)g;
    (void)when;
#endif
}

// One clock cycle of the tiles ts: rising edge, then falling edge.
static inline void tick_some(xtnet *g, const std::vector<Vxnoc_tile *> &ts)
{
    int n = (int)ts.size();
    for (int r = 0; r < n; r++) {
        SET_TILE(r);
        Vxnoc_tile *m = ts[r];
        m->clk_i = 1;
        m->eval();
    }
    dump(g, 2 * g->t + 1);
    xnoc_tile_ico = 0;
    for (int r = 0; r < n; r++) {
        SET_TILE(r);
        Vxnoc_tile *m = ts[r];
        m->clk_i = 0;
        m->eval();
    }
    xnoc_tile_ico = 1;
    g->t++;
    dump(g, 2 * g->t);
}

static inline void tick(xtnet *g) { tick_some(g, g->tiles); }

static inline void cfg_tick(Vxnoc_tile *m)
{
    m->cfg_clk_i = 1;
    m->eval();
    m->cfg_clk_i = 0;
    m->eval();
}

// After the config rows: one pulse of the config clock drops the write enable.
static void cfg_close(xtnet *g)
{
    if (!g->cfg_we) return;
    int n = (int)g->tiles.size();
    for (int r = 0; r < n; r++) {
        Vxnoc_tile *m = g->tiles[r];
        m->cfg_we_i = 0;
        SET_TILE(r);
        cfg_tick(m);
    }
    g->cfg_we = false;
}

extern "C" {

void *xg_new(void)
{
    xtnet *g = new xtnet;
#ifdef XNOC_ASSERT_BUILD
    g->ctx.errorLimit(INT_MAX); // count failed assertions, never abort the process
#endif
    return g;
}

// The network: ntiles tiles of np ports; per tile port i = r * np + p,
// in_src[i] the tile port whose output flit drives its input (s * np + sp),
// -1 tied off, -2 - ch terminal channel ch; cr_src[i] the tile port whose
// input credit returns to its output (or -1, -2 - ch likewise); ch_port[ch]
// the tile port of channel ch.  Creates the tiles and resets nothing yet.
int xg_wire(void *p, int ntiles, int np, const int *in_src, const int *cr_src, int nch, const int *ch_port)
{
    xtnet *g = (xtnet *)p;
    if (np != XNOC_NP) return -1;
    g->np = np;
    g->nch = nch;
    for (int r = 0; r < ntiles; r++) {
        std::string name = "u_r" + std::to_string(r);
        Vxnoc_tile *m = new Vxnoc_tile(&g->ctx, ntiles > 1 ? name.c_str() : "TOP");
        m->clk_i = 0;
        m->rst_ni = 0;
        m->dbg_en_i = 0;
        m->cfg_clk_i = 0;
        m->cfg_we_i = 0;
        SET_TILE(r);
        m->eval();
        cfg_tick(m);
        g->tiles.push_back(m);
    }
    size_t n = (size_t)ntiles * (size_t)np;
    g->in.resize(n);
    g->cr.resize(n);
    for (size_t i = 0; i < n; i++) {
        int s = in_src[i], c = cr_src[i];
        g->in[i] = s >= 0 ? src{g->tiles[(size_t)s / np], s % np} : src{nullptr, s <= -2 ? -2 - s : -1};
        g->cr[i] = c >= 0 ? src{g->tiles[(size_t)c / np], c % np} : src{nullptr, c <= -2 ? -2 - c : -1};
    }
    g->ch_port.assign(ch_port, ch_port + nch);
    g->inj_q.assign((size_t)nch, xflit{});
    g->ejc_q.assign((size_t)nch, xcredit{});
    g->live.reserve((size_t)ntiles);
#if defined(XNOC_TRACE) || defined(XNOC_ASSERT_BUILD)
    g->skip = false;
#endif
    return 0;
}

void xg_free(void *p)
{
    xtnet *g = (xtnet *)p;
#ifdef XNOC_TRACE
    if (g->vcd) {
        g->vcd->close();
        delete g->vcd;
    }
#endif
    for (Vxnoc_tile *m : g->tiles) {
        m->final();
        delete m;
    }
    delete g;
}

int xg_trace_open(void *p, const char *path)
{
#ifdef XNOC_TRACE
    xtnet *g = (xtnet *)p;
    g->ctx.traceEverOn(true);
    g->vcd = new VerilatedVcdC;
    for (Vxnoc_tile *m : g->tiles) m->trace(g->vcd, 99);
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
    ((xtnet *)p)->on = on;
#else
    (void)p;
    (void)on;
#endif
}

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

void xg_reset(void *p, int on)
{
    xtnet *g = (xtnet *)p;
    cfg_close(g);
    for (Vxnoc_tile *m : g->tiles) m->rst_ni = !on;
    tick(g);
    if (!on) g->t = 0;
}

// One config row into every tile (data[r] for tile r): a config-clock pulse
// loads it, one network cycle writes it.  The flat build's second pulse,
// which drops the write enable, comes only after the last row (cfg_close):
// no network cycle runs between the rows, so the same rows are written, in
// a third fewer model evaluations (a 32x32 mesh has 2,000 rows).
void xg_cfg_row(void *p, int kind, int addr, const uint8_t *data)
{
    xtnet *g = (xtnet *)p;
    int n = (int)g->tiles.size();
    for (int r = 0; r < n; r++) {
        Vxnoc_tile *m = g->tiles[r];
        m->cfg_we_i = 1;
        m->cfg_kind_i = kind;
        m->cfg_addr_i = addr;
        m->cfg_data_i = data[r];
        SET_TILE(r);
        cfg_tick(m);
    }
    tick(g);
    g->cfg_we = true;
}

uint32_t xg_dbg(void *p, int router, int addr)
{
    xtnet *g = (xtnet *)p;
    cfg_close(g);
    if (router < 0 || router >= (int)g->tiles.size()) return 0;
    Vxnoc_tile *m = g->tiles[router];
    m->dbg_en_i = 1;
    m->dbg_addr_i = addr;
    SET_TILE(router);
    m->eval();
    uint32_t v = m->dbg_data_o;
    m->dbg_en_i = 0;
    return v;
}

int xg_err(void *p)
{
    for (Vxnoc_tile *m : ((xtnet *)p)->tiles)
        if (m->err_o) return 1;
    return 0;
}

// The flits on every router output and unit output, in the flat build's
// order: router r's port p at r * P + p (P = np, plus the unit's port),
// then unit r's output at routers * P + r.
int xg_monitor(void *p, xflit *out)
{
    xtnet *g = (xtnet *)p;
    int n = (int)g->tiles.size(), P = g->np + XNOC_NCU;
    for (int r = 0; r < n; r++) {
        Vxnoc_tile *m = g->tiles[r];
        for (int q = 0; q < g->np; q++) {
            xflit &f = out[r * P + q];
            f.valid = field(m->out_valid_o, q, 1);
            if (f.valid) get(&m->out_flit_o[q * LWW], f);
        }
#if XNOC_NCU
        xflit &f = out[r * P + g->np];
        f.valid = m->mon_ru_valid_o;
        if (f.valid) get(&m->mon_ru_flit_o[0], f);
        xflit &u = out[n * P + r];
        u.valid = m->mon_ur_valid_o;
        if (u.valid) get(&m->mon_ur_flit_o[0], u);
#endif
    }
    return n * P + (XNOC_NCU ? n : 0);
}

void xg_cycle(void *p, const xflit *inj, const xcredit *ejc, xflit *ej, xcredit *injc)
{
    xtnet *g = (xtnet *)p;
    cfg_close(g);
    int n = (int)g->tiles.size(), np = g->np;
    // every tile's inputs from the outputs of the last cycle (no tile has ticked yet);
    // a quiet tile whose inputs are all idle is not evaluated: its next edge
    // would change none of its registers (rtl/xnoc_tile.sv quiet_o)
    g->live.clear();
    for (int r = 0; r < n; r++) {
        Vxnoc_tile *m = g->tiles[r];
        const src *in = &g->in[(size_t)r * np], *cr = &g->cr[(size_t)r * np];
        uint32_t valid = 0, credit = 0;
        uint64_t credit_vc = 0;
        for (int q = 0; q < np; q++) {
            if (in[q].m) {
                if (field(in[q].m->out_valid_o, in[q].port, 1)) {
                    valid |= 1u << q;
                    std::memcpy(&m->in_flit_i[q * LWW], &in[q].m->out_flit_o[in[q].port * LWW], LWW * 4);
                }
            } else if (in[q].port >= 0) {
                const xflit &f = g->inj_q[in[q].port];
                if (f.valid) {
                    valid |= 1u << q;
                    put(&m->in_flit_i[q * LWW], f);
                }
            }
            uint32_t c = 0, vc = 0;
            if (cr[q].m) {
                c = field(cr[q].m->in_credit_o, cr[q].port, 1);
                vc = field(cr[q].m->in_credit_vc_o, LINK_VC_W * cr[q].port, LINK_VC_W);
            } else if (cr[q].port >= 0) {
                c = g->ejc_q[cr[q].port].valid;
                vc = g->ejc_q[cr[q].port].vc & ((1u << LINK_VC_W) - 1);
            }
            credit |= c << q;
            if constexpr (std::is_integral<VcT>::value) credit_vc |= (uint64_t)vc << LINK_VC_W * q;
            else set_field(m->out_credit_vc_i, LINK_VC_W * q, LINK_VC_W, vc);
        }
        if (g->skip && !valid && !credit && m->quiet_o) continue;
        g->live.push_back(m);
        m->in_valid_i = valid;
        m->out_credit_i = credit;
        if constexpr (std::is_integral<VcT>::value) m->out_credit_vc_i = (VcT)credit_vc;
    }
    // the NI links' registers take this cycle's drive (netgen.c inj_*_q)
    for (int ch = 0; ch < g->nch; ch++) {
        if (inj[ch].valid) g->inj_q[ch] = inj[ch];
        g->inj_q[ch].valid = inj[ch].valid;
        g->ejc_q[ch] = ejc[ch];
    }
    tick_some(g, g->live);
    for (int ch = 0; ch < g->nch; ch++) {
        int i = g->ch_port[ch];
        Vxnoc_tile *m = g->tiles[i / np];
        int q = i % np;
        ej[ch].valid = field(m->out_valid_o, q, 1);
        if (ej[ch].valid) get(&m->out_flit_o[q * LWW], ej[ch]);
        injc[ch].valid = field(m->in_credit_o, q, 1);
        injc[ch].vc = field(m->in_credit_vc_o, LINK_VC_W * q, LINK_VC_W);
    }
}

} // extern "C"
