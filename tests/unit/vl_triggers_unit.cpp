// vl_triggers_unit - the word-wide trigger vector (sim_harness/glue/
// xnoc_vl_triggers.h) against Verilator 5.006's own (VlTriggerVec_v5006,
// the name the shim gives it): the same random sequence of at / clear /
// set / andNot / any on both, for sizes around the word boundaries and the
// network sizes the models have, must leave the same flags and answers.
// Prints one ok line, or FAIL with the first difference (exit 1).
#include "../../sim_harness/glue/xnoc_vl_triggers.h"

#include <cstdio>
#include <cstdlib>

#if !defined(VERILATOR_VERSION_INTEGER) || VERILATOR_VERSION_INTEGER != 5006000
int main()
{
    std::printf("skip vl-triggers-match-verilator: not Verilator 5.006 (the shim is off)\n");
    return 0;
}
#else
static unsigned long long rng = 88172645463325252ull;
static unsigned next_rand()
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)rng;
}

static long checks;

template <std::size_t N>
static int run()
{
    VlTriggerVec<N> a, b, c;
    VlTriggerVec_v5006<N> ra, rb, rc;
    for (int step = 0; step < 20000; step++) {
        unsigned op = next_rand() % 16;
        std::size_t i = next_rand() % N;
        bool v = next_rand() & 1;
        switch (op) {
        case 0: a.clear(); ra.clear(); break;
        case 1: b.clear(); rb.clear(); break;
        case 2: a.set(b); ra.set(rb); break;
        case 3: c.andNot(a, b); rc.andNot(ra, rb); break;
        case 4: b.set(c); rb.set(rc); break;
        case 5: a.andNot(b, c); ra.andNot(rb, rc); break;
        case 6: case 7: case 8: b.at(i) = v; rb.at(i) = v; break;
        default: a.at(i) = v; ra.at(i) = v; break;
        }
        // sparse vectors too: most steps above set; now and then empty one
        if (next_rand() % 64 == 0) { c.clear(); rc.clear(); }
        checks++;
        if (a.any() != ra.any() || b.any() != rb.any() || c.any() != rc.any()) {
            std::printf("FAIL vl-triggers-match-verilator: size %zu step %d: any() differs\n", N, step);
            return 1;
        }
        for (std::size_t k = 0; k < N; k++) {
            if (a.at(k) != ra.at(k) || b.at(k) != rb.at(k) || c.at(k) != rc.at(k)) {
                std::printf("FAIL vl-triggers-match-verilator: size %zu step %d: flag %zu differs\n", N, step, k);
                return 1;
            }
        }
    }
    return 0;
}

int main()
{
    if (run<1>() || run<2>() || run<7>() || run<8>() || run<9>() || run<64>() || run<66>() || run<130>() ||
        run<131>() || run<514>())
        return 1;
    std::printf("ok vl-triggers-match-verilator (%ld checks)\n", checks);
    return 0;
}
#endif
