/* sched_file.h - the schedule file (docs/schedule-format.md), JSON via jansson. */
#ifndef XNOC_SCHED_FILE_H
#define XNOC_SCHED_FILE_H

#include <stddef.h>
#include "coll/coll.h"
#include "sched/sched.h"
#include "topo.h"

int sched_file_write(const char *path, const topo *t, const coll_sched *s, const sched_result *r, char *err,
                     size_t errlen);
/* 0 ok; -1 readable but inconsistent with the collective (err says where);
 * -2 unreadable or malformed. */
int sched_file_read(const char *path, topo **t, coll_sched *s, char *err, size_t errlen);

#endif
