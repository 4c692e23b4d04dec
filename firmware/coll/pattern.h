/* pattern.h - the test data every collective message carries, so that each
 * receiver can check every byte without a copy of the sender's memory.
 * Must match coll_pattern() in sim_harness/coll/coll_plan.c bit for bit. */
#ifndef FW_COLL_PATTERN_H
#define FW_COLL_PATTERN_H

#include <stdint.h>

static inline uint32_t coll_pattern(uint32_t seed, int origin, int dest, uint32_t word)
{
    uint32_t h = seed ^ ((uint32_t)origin * 0x9E3779B1u) ^ ((uint32_t)(dest + 1) * 0x85EBCA77u) ^
                 (word * 0xC2B2AE3Du);
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

#endif
