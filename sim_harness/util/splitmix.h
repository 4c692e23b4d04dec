/* splitmix.h - the one small seeded generator of the harness's random
 * choices that are not the traffic generator's own (traffic_mix64): a
 * Valiant packet's intermediate group (net/router_cfg.c), background arrivals and
 * destinations (background.c). */
#ifndef XNOC_SPLITMIX_H
#define XNOC_SPLITMIX_H

#include <stdint.h>

/* splitmix64: the next 64 random bits of *state */
static inline uint64_t splitmix64(uint64_t *state)
{
    uint64_t x = (*state += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

#endif
