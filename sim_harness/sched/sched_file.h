/* sched_file.h - the schedule file (docs/schedule-format.md), JSON via jansson. */
#ifndef XNOC_SCHED_FILE_H
#define XNOC_SCHED_FILE_H

#include <stddef.h>
#include "coll/coll.h"
#include "sched/sched.h"
#include "net/topo.h"

int sched_file_write(const char *path, const topo *t, const coll_sched *s, const sched_result *r, char *err,
                     size_t errlen);
/* 0 ok; -1 readable but inconsistent with the collective (err says where);
 * -2 unreadable or malformed. */
int sched_file_read(const char *path, topo **t, coll_sched *s, char *err, size_t errlen);

/* The name under which the repository ships a proven-optimal schedule of
 * this collective (schedules/NAME, found by xnoc collective before any
 * search): "fat-octagon-alltoall-k1.json", with "-from<set>-to<set>" when
 * the sets are not the collective's defaults and ':' / '=' as '_'. */
void sched_file_shipped_name(const topo *t, const coll_sched *s, char *buf, size_t len);

/* Reads schedules/NAME for the collective s on t (same topology, ports, op
 * and sets) into *out.  1 found (and *optimal from the file), 0 none, -1 a
 * shipped file that does not read or verify (err says why).  *path: the
 * file looked for (heap, whatever the answer: the caller frees it). */
int sched_file_shipped(const topo *t, const coll_sched *s, coll_sched *out, int *optimal, char **path, char *err,
                       size_t errlen);

#endif
