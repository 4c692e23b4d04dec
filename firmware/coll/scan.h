/* scan.h - prefix reduction (scan) in software on the cores: recursive
 * doubling, ceil(log2 P) steps; in step s terminal i sends its partial
 * prefix (ranks i - 2^s + 1 .. i) to terminal i + 2^s and combines the
 * one it gets from i - 2^s (firmware/coll/scan.c; docs/collectives.md
 * "Scan").  Ranks are terminal ids. */
#ifndef XNOC_SCAN_H
#define XNOC_SCAN_H

#include <stdint.h>

#define SCAN_MAX_STEPS 12 /* up to 4096 terminals */

/* buf[0..len) of terminals 0..i combined by op (NC_FUNC_*, the units'
 * operators, here on the core) into terminal i's buf: inclusive, or
 * exclusive (terminals 0..i-1; terminal 0 gets the operator's identity:
 * the inclusive scan, then one step more that shifts it by a terminal).
 * work: (1 + ceil(log2 P)) x len bytes, 8-aligned (a receive buffer per
 * step, posted before the first send, and the exclusive partial).  len: a
 * multiple of coll_lane_bytes(op) (reduce.h).  NI channel 0; every terminal takes
 * part (it contains a barrier).  Returns 0, or -1
 * for a bad op or length (nothing sent). */
int coll_scan(void *buf, uint32_t len, int op, int exclusive, void *work);

#endif
