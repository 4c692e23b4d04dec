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
// Timing: a link's register sits at its receiving end (rtl/xnoc_tile.sv),
// so a cycle drives every tile's link inputs with the next values its
// neighbours announced after the previous edge (out_*_d_o, still in the
// models: no tile has ticked yet) and the NI's drive of this cycle, then
// ticks every tile.
//
// Variants (preprocessor symbols set by netbuild, each cached separately;
// the VCD and the assertion capture are xnoc_glue_common.h's):
//   XNOC_TRACE        VCD waveforms (tiles verilated with --trace), every
//                     tile a model of its own name ("u_r<r>") in one file
//   XNOC_ASSERT_BUILD tiles verilated with --assert -DXNOC_ASSERT; the first
//                     message is kept, with the tile's path rewritten as
//                     the flat netlist names it (TOP.xnoc_network.u_r<r>...)
// The link taps (xg_monitor) are in every variant: they read tile outputs.
#include <atomic>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "Vxnoc_tile.h"
#include "Vxnoc_tile___024root.h"
#include "xnoc_glue_common.h"

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

// Where a tile input comes from: a driving tile's next values (out_*_d_o,
// in_credit*_d_o), kept as pointers to its port variables (a model reaches
// them through references of its own: a load from the model, likely a cache
// miss, before the value's), with its port; or, with no tile (nullptr), a
// terminal channel (port >= 0) or nothing (port -1, tied off).
using ValidT = std::remove_reference<decltype(((Vxnoc_tile *)nullptr)->out_valid_d_o)>::type;
using CreditT = std::remove_reference<decltype(((Vxnoc_tile *)nullptr)->in_credit_d_o)>::type;
using CreditVcT = std::remove_reference<decltype(((Vxnoc_tile *)nullptr)->in_credit_vc_d_o)>::type;
struct flit_src {
    const ValidT *valid;   // the tile's out_valid_d_o, and out_flit_d_o at the port's slot
    const uint32_t *flit;
    int port;
};
struct credit_src {
    const CreditT *credit;   // the tile's in_credit_d_o, in_credit_vc_d_o
    const CreditVcT *vc;
    int port;
};

// A barrier of n threads: spins briefly, then sleeps on a futex (the
// machine may have fewer free cores than threads).
struct barrier {
    std::atomic<uint32_t> gen{0};
    std::atomic<int> count{0}, sleepers{0};
    int n = 1;
    void wait()
    {
        uint32_t g = gen.load(std::memory_order_acquire);
        if (count.fetch_add(1, std::memory_order_acq_rel) == n - 1) {
            count.store(0, std::memory_order_relaxed);
            gen.fetch_add(1, std::memory_order_seq_cst);
            if (sleepers.load(std::memory_order_seq_cst))
                syscall(SYS_futex, (uint32_t *)&gen, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
            return;
        }
        for (int i = 0; i < 256; i++) {
            if (gen.load(std::memory_order_acquire) != g) return;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        sleepers.fetch_add(1, std::memory_order_seq_cst);
        while (gen.load(std::memory_order_seq_cst) == g)
            syscall(SYS_futex, (uint32_t *)&gen, FUTEX_WAIT_PRIVATE, g, nullptr, nullptr, 0);
        sleepers.fetch_sub(1, std::memory_order_relaxed);
    }
};

struct xtnet;
// One thread's share of the tiles: [lo, hi), and those evaluated this cycle.
struct part {
    xtnet *g;
    int lo, hi;
    std::vector<Vxnoc_tile *> live;
};

struct xtnet : xg_base {
    std::vector<Vxnoc_tile *> tiles;
    int np = 0, nch = 0;
    std::vector<flit_src> in;     // per tile port: what drives its input flit,
    std::vector<credit_src> cr;   // and its output credit
    std::vector<int> ch_port;     // terminal channel -> tile * np + port
    const xflit *inj = nullptr;   // the NIs' drive of this cycle (xg_cycle), into the tiles' link registers
    const xcredit *ejc = nullptr;
    bool cfg_we = false;   // the config registers hold a write (xg_cfg_row)
    bool skip = true;      // skip quiet tiles (not while tracing, nor in assert builds)
    // xg_threads: parts[0] is the calling thread's, parts[i] worker i's; each
    // cycle is go, drive (every part its tiles' inputs), mid, tick, done
    std::vector<part> parts;
    std::vector<std::thread> workers;
    barrier go, mid, done;
    bool stop = false;
};

static inline xtnet *net_of(void *p) { return static_cast<xtnet *>((xg_base *)p); }

#ifdef XNOC_ASSERT_BUILD
static int cur_tile;   // the tile being evaluated: Verilator's message names the tile's model
// "... in MODEL.xnoc_tile.u_r.X" (MODEL: the tile's name, u_r<r>) -> "... in
// TOP.xnoc_network.u_r<r>.X", the flat netlist's path (and g_unit.u_u -> u_u<r>)
static void xg_assert_text(const char *line, char *out, size_t len)
{
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
    std::snprintf(out, len, "%s", s.c_str());
}
#define SET_TILE(r) (cur_tile = (r))
#else
#define SET_TILE(r) ((void)0)
#endif

// One evaluation of a tile in a network cycle.  Vxnoc_tile::eval() wraps
// the model's scheduler (Vxnoc_tile___024root___eval) in the bookkeeping of
// Verilator's message queues: two thread-local lookups and endOfEval on
// every call, for $display and assertion messages a tile cannot print (no
// such construct in rtl/: tools/lint.sh rtl_never) - 3.3% of mesh:8x8's
// instructions, a tile evaluated twice per cycle.  The model is initialised
// by its first eval() (xg_wire); trace and assert builds keep eval().
void Vxnoc_tile___024root___eval(Vxnoc_tile___024root *vlSelf);
static inline void eval_cycle(Vxnoc_tile *m)
{
#if defined(XNOC_TRACE) || defined(XNOC_ASSERT_BUILD)
    m->eval();
#else
    Vxnoc_tile___024root___eval(m->rootp);
#endif
}

// Whether the model keeps the clock's last value where its scheduler finds
// its edges (Verilator 5.006: __Vtrigrprev__TOP__clk_i).
template <class R, class = void> struct has_clk_prev : std::false_type {
};
template <class R>
struct has_clk_prev<R, std::void_t<decltype(std::declval<R &>().__Vtrigrprev__TOP__clk_i)>> : std::true_type {
};

// The falling edge.  A tile without a coding unit has no logic on it: no
// latch, nothing on negedge, and its router reads no top-level input but
// through the link registers (rtl/xnoc_tile.sv); what is left of its
// evaluation is the scheduler's bookkeeping.  A unit's clock gate has a
// latch open on the low clock, but while the gate is shut and its latch
// takes 0 again (fall_idle_o: a unit idle through this cycle and the
// last), that edge changes nothing either.  Such a model is told the clock
// fell without an evaluation: the next rising edge is then seen as one,
// and the model computes what it would have.  In trace builds (the VCD
// shows the clock) and in assert builds every edge is evaluated.
static inline void fall(Vxnoc_tile *m)
{
    m->clk_i = 0;
#if !defined(XNOC_TRACE) && !defined(XNOC_ASSERT_BUILD)
    if constexpr (has_clk_prev<Vxnoc_tile___024root>::value) {
        if (!XNOC_NCU || m->fall_idle_o) {
            m->rootp->__Vtrigrprev__TOP__clk_i = 0;
            return;
        }
    }
#endif
    eval_cycle(m);
}

// Whether the model keeps the config clock's last value (Verilator 5.006:
// __Vtrigrprev__TOP__cfg_clk_i).
template <class R, class = void> struct has_cfg_prev : std::false_type {
};
template <class R>
struct has_cfg_prev<R, std::void_t<decltype(std::declval<R &>().__Vtrigrprev__TOP__cfg_clk_i)>> : std::true_type {
};

// One pulse of the configuration clock: the tile's config registers load
// the bus.  Nothing in a tile acts on the config clock's falling edge (the
// registers behind it are on its rising edge, and the logic they feed was
// settled by that edge's evaluation), so outside trace and assert builds
// the fall is recorded without an evaluation, as fall() does for the
// network clock: a 4,095-router network loads 4,095 rows into every tile.
static inline void cfg_tick(Vxnoc_tile *m)
{
    m->cfg_clk_i = 1;
    eval_cycle(m);
    m->cfg_clk_i = 0;
#if !defined(XNOC_TRACE) && !defined(XNOC_ASSERT_BUILD)
    if constexpr (has_cfg_prev<Vxnoc_tile___024root>::value) {
        m->rootp->__Vtrigrprev__TOP__cfg_clk_i = 0;
        return;
    }
#endif
    eval_cycle(m);
}

#ifdef XNOC_TRACE
static void xg_trace_models(xg_base *g, VerilatedVcdC *vcd)
{
    for (Vxnoc_tile *m : static_cast<xtnet *>(g)->tiles) m->trace(vcd, 99);
}
#endif

// One clock cycle of the n tiles ts: rising edge, then falling edge.  With
// nothing to dump between the edges, each tile takes both before the next
// (its state is read once per cycle, not twice).
static inline void tick_some(xtnet *g, Vxnoc_tile *const *ts, int n)
{
#ifdef XNOC_TRACE
    for (int r = 0; r < n; r++) {
        SET_TILE(r);
        ts[r]->clk_i = 1;
        ts[r]->eval();
    }
    xg_dump(g, 2 * g->t + 1);
    for (int r = 0; r < n; r++) {
        SET_TILE(r);
        fall(ts[r]);
    }
    xg_dump(g, 2 * g->t + 2);
#else
    for (int r = 0; r < n; r++) {
        SET_TILE(r);
        Vxnoc_tile *m = ts[r];
        m->clk_i = 1;
        eval_cycle(m);
        fall(m);
    }
#endif
}

static inline void tick(xtnet *g)
{
    tick_some(g, g->tiles.data(), (int)g->tiles.size());
    g->t++;
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

// Every input of the part's tiles from the outputs of the last cycle (no
// tile has ticked yet); a quiet tile whose inputs are all idle is not
// evaluated: its next edge would change none of its registers
// (rtl/xnoc_tile.sv quiet_o).
static void drive(xtnet *g, part &pt)
{
    int np = g->np;
    pt.live.clear();
    for (int r = pt.lo; r < pt.hi; r++) {
        Vxnoc_tile *m = g->tiles[(size_t)r];
        const flit_src *in = &g->in[(size_t)r * np];
        const credit_src *cr = &g->cr[(size_t)r * np];
        uint32_t valid = 0, credit = 0;
        uint64_t credit_vc = 0;
        for (int q = 0; q < np; q++) {
            if (in[q].valid) {
                if (field(*in[q].valid, in[q].port, 1)) {
                    valid |= 1u << q;
                    std::memcpy(&m->in_flit_i[q * LWW], in[q].flit, LWW * 4);
                }
            } else if (in[q].port >= 0) {
                const xflit &f = g->inj[in[q].port];
                if (f.valid) {
                    valid |= 1u << q;
                    put(&m->in_flit_i[q * LWW], f);
                }
            }
            // a credit's VC is written only with the credit: the tile reads it only then
            uint32_t vc;
            if (cr[q].credit) {
                if (!field(*cr[q].credit, cr[q].port, 1)) continue;
                vc = field(*cr[q].vc, LINK_VC_W * cr[q].port, LINK_VC_W);
            } else if (cr[q].port >= 0 && g->ejc[cr[q].port].valid) {
                vc = g->ejc[cr[q].port].vc & ((1u << LINK_VC_W) - 1);
            } else continue;
            credit |= 1u << q;
            if constexpr (std::is_integral<VcT>::value) credit_vc |= (uint64_t)vc << LINK_VC_W * q;
            else set_field(m->out_credit_vc_i, LINK_VC_W * q, LINK_VC_W, vc);
        }
        if (g->skip && !valid && !credit && m->quiet_o) continue;
        pt.live.push_back(m);
        m->in_valid_i = valid;
        m->out_credit_i = credit;
        if constexpr (std::is_integral<VcT>::value) m->out_credit_vc_i = (VcT)credit_vc;
    }
}

// A worker thread of xg_threads: its part of every cycle of xg_cycle.
static void worker(part *pt)
{
    xtnet *g = pt->g;
    for (;;) {
        g->go.wait();
        if (g->stop) return;
        drive(g, *pt);
        g->mid.wait();
        tick_some(g, pt->live.data(), (int)pt->live.size());
        g->done.wait();
    }
}

extern "C" {

void *xg_new(void) { return (xg_base *)new xtnet; }

// The network: ntiles tiles of np ports; per tile port i = r * np + p,
// in_src[i] the tile port whose output flit drives its input (s * np + sp),
// -1 tied off, -2 - ch terminal channel ch; cr_src[i] the tile port whose
// input credit returns to its output (or -1, -2 - ch likewise); ch_port[ch]
// the tile port of channel ch.  Creates the tiles and resets nothing yet.
int xg_wire(void *p, int ntiles, int np, const int *in_src, const int *cr_src, int nch, const int *ch_port)
{
    xtnet *g = net_of(p);
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
        xg_cfg_tick(m);
        g->tiles.push_back(m);
    }
    size_t n = (size_t)ntiles * (size_t)np;
    g->in.resize(n);
    g->cr.resize(n);
    for (size_t i = 0; i < n; i++) {
        int s = in_src[i], c = cr_src[i];
        if (s >= 0) {
            Vxnoc_tile *d = g->tiles[(size_t)s / np];
            g->in[i] = flit_src{&d->out_valid_d_o, &d->out_flit_d_o[s % np * LWW], s % np};
        } else g->in[i] = flit_src{nullptr, nullptr, s <= -2 ? -2 - s : -1};
        if (c >= 0) {
            Vxnoc_tile *d = g->tiles[(size_t)c / np];
            g->cr[i] = credit_src{&d->in_credit_d_o, &d->in_credit_vc_d_o, c % np};
        } else g->cr[i] = credit_src{nullptr, nullptr, c <= -2 ? -2 - c : -1};
    }
    g->ch_port.assign(ch_port, ch_port + nch);
    g->parts.assign(1, part{g, 0, ntiles, {}});
    g->parts[0].live.reserve((size_t)ntiles);
#if defined(XNOC_TRACE) || defined(XNOC_ASSERT_BUILD)
    g->skip = false;
#endif
    return 0;
}

void xg_free(void *p)
{
    xtnet *g = net_of(p);
    if (!g->workers.empty()) {
        g->stop = true;
        g->go.wait();
        for (std::thread &w : g->workers) w.join();
    }
    xg_trace_close(g);
    for (Vxnoc_tile *m : g->tiles) {
        m->final();
        delete m;
    }
    delete g;
}

void xg_reset(void *p, int on)
{
    xtnet *g = net_of(p);
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
    xtnet *g = net_of(p);
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
    xtnet *g = net_of(p);
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

// Address addr of tiles 0..n-1 into out[0..n) (each tile is its own model).
void xg_dbg_all(void *p, int addr, int n, uint32_t *out)
{
    for (int r = 0; r < n; r++) out[r] = xg_dbg(p, r, addr);
}

int xg_err(void *p)
{
    for (Vxnoc_tile *m : net_of(p)->tiles)
        if (m->err_o) return 1;
    return 0;
}

// The flits on every router output and unit output, in the flat build's
// order: router r's port p at r * P + p (P = np, plus the unit's port),
// then unit r's output at routers * P + r.
int xg_monitor(void *p, xflit *out)
{
    xtnet *g = net_of(p);
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
    xtnet *g = net_of(p);
    cfg_close(g);
    g->inj = inj;
    g->ejc = ejc;
    if (g->workers.empty()) {
        drive(g, g->parts[0]);
        tick_some(g, g->parts[0].live.data(), (int)g->parts[0].live.size());
    } else {   // the workers run the same steps on their parts (worker())
        g->go.wait();
        drive(g, g->parts[0]);
        g->mid.wait();   // every input driven from the last cycle's next values: the tiles may tick
        tick_some(g, g->parts[0].live.data(), (int)g->parts[0].live.size());
        g->done.wait();
    }
    g->t++;
    int np = g->np;
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

// Evaluate the tiles on n threads (this one and n - 1 workers), each a
// contiguous share; returns the threads used.  Within a cycle the tiles are
// independent (every signal between them is a flop), so the run is the one
// thread's, bit for bit.  Trace and assert builds keep one thread (one VCD,
// one first message).
int xg_threads(void *p, int n)
{
    xtnet *g = net_of(p);
#if defined(XNOC_TRACE) || defined(XNOC_ASSERT_BUILD)
    n = 1;
#endif
    int nt = (int)g->tiles.size();
    if (n > nt) n = nt;
    if (n < 1) n = 1;
    if (!g->workers.empty() || n == (int)g->parts.size()) return (int)g->parts.size();
    g->parts.clear();
    for (int i = 0; i < n; i++) {
        part pt{g, (int)((long)nt * i / n), (int)((long)nt * (i + 1) / n), {}};
        pt.live.reserve((size_t)(pt.hi - pt.lo));
        g->parts.push_back(std::move(pt));
    }
    g->go.n = g->mid.n = g->done.n = n;
    for (int i = 1; i < n; i++) g->workers.emplace_back(worker, &g->parts[(size_t)i]);
    return n;
}

}   // extern "C"
