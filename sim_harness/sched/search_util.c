/* search_util.c - what every schedule search shares (sched.h): a
 * monotonic clock for the wall-clock safety net (budgets are counted in
 * moves and conflicts), a small random generator, and writing
 * a chosen path into a transfer.  Kept apart from the searches so that
 * heuristic.c, broadcast.c, combining.c and tabu.c depend on it, not on
 * each other. */
#include <string.h>
#include <time.h>

#include "sched/sched.h"

double sched_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

uint64_t sched_rand(uint64_t *rs)
{
    *rs ^= *rs << 13;
    *rs ^= *rs >> 7;
    *rs ^= *rs << 17;
    return *rs;
}

void sched_set_route(coll_xfer *x, const sched_path *p)
{
    x->chan = p->chan;
    x->nports = p->nports;
    memcpy(x->ports, p->ports, (size_t)p->nports);
}
