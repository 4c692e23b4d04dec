/* coll.h - the firmware collective library: runs a step plan placed in
 * this node's RAM by the harness (plan.h), verifies every received byte. */
#ifndef FW_COLL_H
#define FW_COLL_H

#include <stdint.h>

/* Runs the plan at `plan`; returns 0 when everything this node received
 * checked out, 1 on a mismatch (printed: node, message, offset), 2 on a bad
 * plan.  Step end times go into the plan's result area. */
int coll_run(uint32_t *plan);

#endif
