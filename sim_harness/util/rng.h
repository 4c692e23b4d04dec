/* rng.h - the harness's seeded random numbers and 64-bit mixers, in one
 * place (issue 48).  Each is kept bit for bit as its users had it, so every
 * seeded figure (schedules, traffic, coding groups, background arrivals) is
 * unchanged:
 *   splitmix64  the generator of a Valiant packet's intermediate group
 *               (net/router_cfg.c), background arrivals and destinations
 *               (system/background.c) and the Clos simulation (coll/clossim.c);
 *   rng_mix64   an xorshift-multiply mixer (constants 0x7fb5d329728ea185,
 *               0x81dadef4bc2dd44d; not splitmix64's finalizer, whose are
 *               0xbf58476d1ce4e5b9 and 0x94d049bb133111eb) behind the
 *               traffic's random numbers, flit hashes and coding groups;
 *   rng_mix33   the first half of MurmurHash3's fmix64 (the schedule
 *               search's random routes, sched/paths.c);
 *   rng_unit    53 random bits as a double in [0, 1). */
#ifndef XNOC_RNG_H
#define XNOC_RNG_H

#include <stdint.h>

#define RNG_GOLDEN 0x9E3779B97F4A7C15ull /* 2^64 / the golden ratio: the generators' step */

/* splitmix64: the next 64 random bits of *state */
static inline uint64_t splitmix64(uint64_t *state)
{
    uint64_t x = (*state += RNG_GOLDEN);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static inline uint64_t rng_mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t rng_mix33(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

/* the top 53 bits of r as a double in [0, 1) */
static inline double rng_unit(uint64_t r) { return (double)(r >> 11) / 9007199254740992.0; }

#endif
