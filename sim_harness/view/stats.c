/* stats.c - what the view remembers of the samples.
 *
 * Samples carry cumulative counters; utilization is a difference over a
 * sliding window of cycles.  A ring of snapshots, at least window/16 cycles
 * apart, keeps enough history whatever the sample rate: utilization is
 * measured from the newest snapshot that is at least `window` cycles old
 * (or the start of the run, or the oldest snapshot once the ring is full).  Everything is copied, so
 * the picture can be redrawn (pause, clicks) after the caller's arrays moved
 * on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view_impl.h"
#include "util/cli.h"

int stats_init(vstats *S, const topo *t, uint64_t window)
{
    memset(S, 0, sizeof *S);
    S->nlinks = t->nlinks;
    S->nch = t->nterms * t->k;
    S->nchan = S->nlinks + 2 * S->nch;
    S->nrouters = t->nrouters;
    S->nterms = t->nterms;
    S->window = window ? window : 1;
    S->now = xcalloc((size_t)S->nchan + 1, sizeof *S->now);
    S->ring = xcalloc((size_t)STATS_RING * ((size_t)S->nchan + 1), sizeof *S->ring);
    S->buffered = xcalloc((size_t)S->nrouters, sizeof *S->buffered);
    S->xor_ops = xcalloc((size_t)S->nrouters, sizeof *S->xor_ops);
    S->mcast = xcalloc((size_t)S->nrouters, sizeof *S->mcast);
    S->xor_active = xcalloc((size_t)S->nrouters, 1);
    S->mcast_active = xcalloc((size_t)S->nrouters, 1);
    S->state = xmalloc((size_t)S->nterms);
    S->step = xmalloc((size_t)S->nterms * sizeof *S->step);
    memset(S->state, VIEW_NODE_IDLE, (size_t)S->nterms);
    for (int i = 0; i < S->nterms; i++) S->step[i] = -1;
    return 0;
}

void stats_free(vstats *S)
{
    free(S->now);
    free(S->ring);
    free(S->buffered);
    free(S->xor_ops);
    free(S->mcast);
    free(S->xor_active);
    free(S->mcast_active);
    free(S->state);
    free(S->step);
    memset(S, 0, sizeof *S);
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void copy_u64(uint64_t *dst, const uint64_t *src, int n)
{
    if (src) memcpy(dst, src, (size_t)n * sizeof *dst);
}

/* Counters since the last sample rose: the "activity" highlight. */
static void take_activity(uint32_t *have, uint8_t *active, const uint32_t *src, int n)
{
    for (int i = 0; i < n; i++) {
        active[i] = src[i] > have[i];
        have[i] = src[i];
    }
}

static void measure_rate(vstats *S, const view_sample *s)
{
    double t = wall_seconds();
    if (s->sim_rate > 0) {
        S->rate = s->sim_rate;
        return;
    }
    if (S->rate_t == 0 || s->cycle < S->rate_cycle) {
        S->rate_t = t;
        S->rate_cycle = s->cycle;
    } else if (t - S->rate_t >= 0.5) { /* long enough to mean something */
        S->rate = (double)(s->cycle - S->rate_cycle) / (t - S->rate_t);
        S->rate_t = t;
        S->rate_cycle = s->cycle;
    }
}

void stats_take(vstats *S, const view_sample *s)
{
    int L = S->nlinks, C = S->nch;
    /* the previous state becomes a window snapshot when it is far enough from the last one */
    uint64_t spacing = S->window / 16 ? S->window / 16 : 1;
    int newest = (S->ring_head + S->ring_n - 1) % STATS_RING;
    if (S->cycle > 0 && (S->ring_n == 0 || S->cycle >= S->ring_cycle[newest] + spacing)) {
        int slot = (S->ring_head + S->ring_n) % STATS_RING;
        if (S->ring_n == STATS_RING) S->ring_head = (S->ring_head + 1) % STATS_RING;
        else S->ring_n++;
        S->ring_cycle[slot] = S->cycle;
        memcpy(&S->ring[(size_t)slot * (size_t)S->nchan], S->now, (size_t)S->nchan * sizeof *S->now);
    }
    S->cycle = s->cycle;
    S->active_from = s->active_from;
    S->active_to = s->active_to;
    copy_u64(S->now, s->link_flits, L);
    copy_u64(S->now + L, s->inj_flits, C);
    copy_u64(S->now + L + C, s->ej_flits, C);
    S->has_buffered = s->router_buffered != NULL;
    if (s->router_buffered) {
        memcpy(S->buffered, s->router_buffered, (size_t)S->nrouters * sizeof *S->buffered);
        for (int r = 0; r < S->nrouters; r++)
            if (S->buffered[r] > S->max_buffered) S->max_buffered = S->buffered[r];
    }
    S->capacity = s->router_capacity;
    S->has_state = s->node_state != NULL;
    if (s->node_state) memcpy(S->state, s->node_state, (size_t)S->nterms);
    S->has_step = s->node_step != NULL;
    if (s->node_step) memcpy(S->step, s->node_step, (size_t)S->nterms * sizeof *S->step);
    S->has_xor = s->xor_ops != NULL;
    if (s->xor_ops) take_activity(S->xor_ops, S->xor_active, s->xor_ops, S->nrouters);
    S->has_mcast = s->mcast_copies != NULL;
    if (s->mcast_copies) take_activity(S->mcast, S->mcast_active, s->mcast_copies, S->nrouters);
    snprintf(S->status, sizeof S->status, "%s", s->status ? s->status : "");
    measure_rate(S, s);
}

double stats_util(const vstats *S, int c)
{
    /* newest snapshot at least a window old, else the oldest, else the start */
    uint64_t base_cycle = 0, base = 0;
    for (int i = S->ring_n - 1; i >= 0; i--) {
        int slot = (S->ring_head + i) % STATS_RING;
        uint64_t cy = S->ring_cycle[slot];
        /* the oldest snapshot stands in only once the ring has dropped the start */
        if (cy + S->window <= S->cycle || (i == 0 && S->ring_n == STATS_RING)) {
            if (cy < S->cycle) {
                base_cycle = cy;
                base = S->ring[(size_t)slot * (size_t)S->nchan + (size_t)c];
            }
            if (cy + S->window <= S->cycle) break;
        }
    }
    if (S->cycle <= base_cycle) return 0;
    return (double)(S->now[c] - base) / (double)(S->cycle - base_cycle);
}

uint64_t stats_heat_cycles(const vstats *S)
{
    return S->active_to > S->active_from ? S->active_to - S->active_from : S->cycle;
}

double stats_util_total(const vstats *S, int c)
{
    uint64_t n = stats_heat_cycles(S);
    return n ? (double)S->now[c] / (double)n : 0;
}
