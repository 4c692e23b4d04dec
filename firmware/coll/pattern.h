/* pattern.h - the test data every collective message carries, and the
 * reduce operators: one definition for the firmware (which fills its
 * buffers) and the harness (which checks the buffers after the run,
 * sim_harness/coll/coll_plan.c, coll_plan_verify).  The reduce operators and
 * their identities are the units' (reduce.h). */
#ifndef XNOC_PATTERN_H
#define XNOC_PATTERN_H

#include <stdint.h>

#include "plan.h"

/* word i of the message of origin o for destination d (d = -1: broadcast data) */
static inline uint32_t coll_pattern(uint32_t seed, int origin, int dest, uint32_t word)
{
    uint32_t h = seed ^ ((uint32_t)origin * 0x9E3779B1u) ^ ((uint32_t)(dest + 1) * 0x85EBCA77u) ^ (word * 0xC2B2AE3Du);
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

#endif
