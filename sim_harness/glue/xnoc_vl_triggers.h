/* xnoc_vl_triggers.h - force-included (-include) into every C++ file of a
 * network model: word-wide trigger vectors for Verilator 5.006.
 *
 * Why: a Verilator 5 model keeps one "triggered" flag per clock signal
 * (one per router, one per coding unit's gated clock, plus the top's
 * clocks: 130 on mesh:8x8 with units) and its scheduler asks "is any flag
 * set?", merges and masks the vectors several times per eval(), two evals
 * per cycle.  5.006's VlTriggerVec (verilated_types.h) stores the flags as
 * an array of bool and does each of those with a loop over every flag,
 * stopping early only when it finds one: about 100 M instructions per
 * 20,000 cycles of mesh:8x8, half of it only because units add triggers
 * (docs/performance.md).  Later Verilator releases pack the flags into
 * words themselves.
 *
 * What: the same interface (clear, at, any, set, andNot) over the same bool
 * array, padded with false flags to whole 64-bit words, with each operation
 * done a word (8 flags) at a time.  A bool is one byte holding 0 or 1, so
 * OR, AND-NOT and "non-zero" on the bytes of a word are the flags' OR,
 * AND-NOT and any.  The model's scheduling is unchanged: it is the same
 * set of flags, read and written at the same points.  Other Verilator
 * versions keep their own class (the rename below applies to 5.006 only).
 */
#ifndef XNOC_VL_TRIGGERS_H
#define XNOC_VL_TRIGGERS_H

#include "verilated_config.h"

#if defined(VERILATOR_VERSION_INTEGER) && VERILATOR_VERSION_INTEGER == 5006000

#include <array>
#include <cstdint>
#include <cstring>

/* verilated.h (and verilated_types.h, which it includes) see their class
 * under another name; the model's code sees the one below. */
#define VlTriggerVec VlTriggerVec_v5006
#include "verilated.h"
#undef VlTriggerVec

template <std::size_t T_size> class VlTriggerVec final
{
    static constexpr std::size_t kWords = (T_size + 7) / 8;
    alignas(8) std::array<bool, kWords * 8> m_flags;   // flags past T_size stay false

    uint64_t word(std::size_t w) const
    {
        uint64_t v;
        std::memcpy(&v, &m_flags[w * 8], 8);
        return v;
    }
    void put(std::size_t w, uint64_t v) { std::memcpy(&m_flags[w * 8], &v, 8); }

  public:
    VlTriggerVec() { clear(); }
    void clear() { m_flags.fill(false); }
    bool &at(std::size_t index) { return m_flags.at(index); }
    bool any() const
    {
        uint64_t acc = 0;
        for (std::size_t w = 0; w < kWords; ++w) acc |= word(w);
        return acc != 0;
    }
    void set(const VlTriggerVec &other)
    {
        for (std::size_t w = 0; w < kWords; ++w) put(w, word(w) | other.word(w));
    }
    void andNot(const VlTriggerVec &a, const VlTriggerVec &b)
    {
        for (std::size_t w = 0; w < kWords; ++w) put(w, a.word(w) & ~b.word(w));
    }
};

#endif
#endif
