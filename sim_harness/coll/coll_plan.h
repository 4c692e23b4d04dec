/* coll_plan.h - one node's share of a collective schedule, as the words the
 * firmware collective library executes.  The layout is firmware/coll/plan.h
 * (shared with the firmware); docs/collectives.md describes it.
 */
#ifndef XNOC_COLL_PLAN_H
#define XNOC_COLL_PLAN_H

#include <stdint.h>
#include "../../firmware/coll/pattern.h"
#include "../../firmware/coll/plan.h"
#include "coll/coll.h"
#include "net/topo.h"

/* Encodes node `node`'s plan for a plan placed at plan_addr; its slot
 * buffers follow it (8-byte aligned).  Returns a malloc'ed word array and
 * its length in *nwords (counters and result area included, zeroed); the
 * buffers end at *buf_end.  ni_decode: the plan's XORs (PO_XOR) are also
 * written as the NI decode engine's descriptors (PH_DEC_OFF), and the
 * firmware hands them to the NI instead of XORing on the core. */
uint32_t *coll_plan_encode(const coll_sched *s, const topo *t, int node, int bytes, int sync, uint32_t seed, int redop,
                           int ni_decode, uint32_t plan_addr, int *nwords, uint32_t *buf_end);

/* Checks a node's buffers after the run against the pattern (off the
 * clock): every slot a receive marked PRF_VERIFY, and for reduce the root's
 * combination of every contribution.  `plan` is the plan as it is in the
 * node's RAM.  0, or -1 with one line naming node, message, offset. */
int coll_plan_verify(const uint32_t *plan, const uint8_t *ram, uint32_t ram_base, uint32_t ram_size, char *err,
                     int errlen);

#endif
