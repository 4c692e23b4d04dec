/* pattern.h - the test data every collective message carries, and the
 * reduce operators: one definition for the firmware (which fills its
 * buffers and combines) and the harness (which checks the buffers after the
 * run, sim_harness/coll/coll_plan.c, coll_plan_verify). */
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

/* the identity element of a reduce operator (RED_*) */
static inline uint32_t coll_identity(uint32_t op)
{
    switch (op) {
    case RED_PROD: return 1;
    case RED_MAX: return 0x80000000u;
    case RED_MIN: return 0x7fffffffu;
    case RED_AND: return 0xffffffffu;
    default: return 0;
    }
}

/* a op b on 32-bit words (max and min signed) */
static inline uint32_t coll_combine(uint32_t op, uint32_t a, uint32_t b)
{
    switch (op) {
    case RED_SUM: return a + b;
    case RED_PROD: return a * b;
    case RED_MAX: return (int32_t)a > (int32_t)b ? a : b;
    case RED_MIN: return (int32_t)a < (int32_t)b ? a : b;
    case RED_AND: return a & b;
    case RED_OR: return a | b;
    default: return a ^ b;
    }
}

#endif
