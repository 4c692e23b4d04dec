/* coll.h - the firmware collective library: runs a step plan placed in
 * this node's RAM by the harness (plan.h), all data by DMA. */
#ifndef FW_COLL_H
#define FW_COLL_H

#include <stdint.h>

/* Runs the plan at `plan`; returns 0 when it completed, 1 when a message
 * arrived that the plan did not expect, 2 on a bad plan.  The status and
 * the step end times go into the plan's result area; the harness checks the
 * received bytes afterwards. */
int coll_run(uint32_t *plan);
/* The same for plans with extended operations (plan.h PF_EXT). */
int coll_run_ext(uint32_t *plan);

#endif
