/* fnv.h - FNV-1a, the one content hash of the harness: the model and
 * synthesis cache keys (net/netbuild.c, cmd/synth.c), the calibration key
 * (collrun/coll_exec.c) and dedupe's function texts (net/dedupe.c).  Not for
 * random numbers (util/rng.h) and not cryptographic: it names cache
 * entries built from the project's own files. */
#ifndef XNOC_FNV_H
#define XNOC_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_INIT 0xcbf29ce484222325ULL

/* h extended by n bytes at p */
static inline uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ULL;
    return h;
}

/* h extended by the bytes of string s (not its NUL) */
static inline uint64_t fnv1a_str(uint64_t h, const char *s)
{
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

#endif
