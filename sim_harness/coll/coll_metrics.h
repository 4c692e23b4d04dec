/* coll_metrics.h - what a collective schedule implies on a topology, before
 * anything runs: its length in messages per channel, its unicast hops and
 * link flits, the busiest terminal's volume, the dragonfly links it crosses
 * and the groups it touches.  `xnoc collective` sets these model figures
 * beside what the RTL network measured. */
#ifndef XNOC_COLL_METRICS_H
#define XNOC_COLL_METRICS_H

#include <stdint.h>

#include "coll/coll.h"
#include "net/topo.h"

int coll_message_rounds(const coll_sched *s, const topo *t);
void coll_schedule_hops(const coll_sched *s, const topo *t, int bytes, uint64_t *hops, uint64_t *flits, int *unicasts);
uint64_t coll_busiest_volume(const coll_sched *s, int bytes);
void coll_schedule_df_links(const coll_sched *s, const topo *t, uint64_t *global, uint64_t *local);
int coll_groups_in_job(const coll_sched *s, const topo *t);

#endif
