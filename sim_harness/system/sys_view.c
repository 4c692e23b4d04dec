/* sys_view.c - samples an emulated system for the view. */
#include "system/sys_view.h"
#include "util/cli.h"

#include <stdio.h>
#include <stdlib.h>

struct sys_view {
    sys *s;
    view *v;
    uint8_t *state; /* [term] VIEW_NODE_* */
    int *step;      /* [term] collective step or -1 */
    uint64_t *inj;  /* [term*k + c] flits injected */
    char status[160];
    uint64_t flits;                  /* flits injected + delivered at the NIs so far */
    uint64_t active_from, active_to; /* first and last cycle they changed in */
};

/* A node blocked on an NI or barrier register, or asleep in wfi, is
 * "waiting"; the view tells it apart from one that computes. */
static uint8_t node_view_state(const node *nd)
{
    switch (nd->state) {
    case NODE_EXITED: return VIEW_NODE_EXITED;
    case NODE_BACKGROUND: return VIEW_NODE_IDLE;
    case NODE_FAULTED: return VIEW_NODE_FAULTED;
    default: return nd->last_stop == RV32_STALL || nd->last_stop == RV32_WFI ? VIEW_NODE_WAITING : VIEW_NODE_RUNNING;
    }
}

static void sample(sys_view *sv, view_sample *vs)
{
    sys *s = sv->s;
    int k = s->t->k, running = 0, waiting = 0, lo = -1, hi = -1;
    for (int i = 0; i < s->n; i++) {
        const node *nd = &s->nodes[i];
        sv->state[i] = node_view_state(nd);
        sv->step[i] = nd->step;
        running += sv->state[i] == VIEW_NODE_RUNNING;
        waiting += sv->state[i] == VIEW_NODE_WAITING;
        if (nd->step >= 0 && nd->state != NODE_EXITED) {
            if (lo < 0 || nd->step < lo) lo = nd->step;
            if (nd->step > hi) hi = nd->step;
        }
        for (int c = 0; c < k; c++) sv->inj[i * k + c] = nd->ni.inj_flits[c];
    }
    int n = snprintf(sv->status, sizeof sv->status, "%d running, %d waiting, %d done", running, waiting,
                     s->n - running - waiting);
    if (lo >= 0 && n > 0 && (size_t)n < sizeof sv->status)
        snprintf(sv->status + n, sizeof sv->status - (size_t)n, lo == hi ? ", step %d" : ", steps %d-%d", lo, hi);
    *vs = (view_sample){.cycle = s->cycle,
                        .inj_flits = sv->inj,
                        .node_state = sv->state,
                        .node_step = sv->step,
                        .status = sv->status,
                        .active_from = sv->active_from,
                        .active_to = sv->active_to};
    view_sample_net(sv->v, s->net, &s->rc, vs);
}

/* The window in which flits move, so that the heatmap describes the
 * traffic rather than boot and set-up. */
static void track_activity(sys_view *sv)
{
    const sys *s = sv->s;
    uint64_t f = 0;
    for (int i = 0; i < s->n; i++) f += s->nodes[i].ni.flits_sent + s->nodes[i].ni.flits_recv;
    if (f == sv->flits) return;
    if (!sv->flits) sv->active_from = s->cycle - 1; /* the counters were all 0 at the end of that cycle */
    sv->flits = f;
    sv->active_to = s->cycle;
}

static int on_cycle(sys *s, void *arg)
{
    sys_view *sv = arg;
    track_activity(sv);
    if (!view_due(sv->v, s->cycle)) return 0;
    view_sample vs;
    sample(sv, &vs);
    int r = view_update(sv->v, &vs);
    if (r == VIEW_ERROR) {
        snprintf(s->fault, sizeof s->fault, "view: %s", view_error(sv->v));
        return 1;
    }
    return r == VIEW_QUIT;
}

sys_view *sys_view_attach(sys *s, view *v)
{
    sys_view *sv = xcalloc(1, sizeof *sv);
    sv->s = s;
    sv->v = v;
    sv->state = xcalloc((size_t)s->n, sizeof *sv->state);
    sv->step = xcalloc((size_t)s->n, sizeof *sv->step);
    sv->inj = xcalloc((size_t)s->n * (size_t)s->t->k, sizeof *sv->inj);
    s->on_cycle = on_cycle;
    s->on_cycle_arg = sv;
    on_cycle(s, sv); /* the picture before the first cycle: every node about to run */
    return sv;
}

int sys_view_finish(sys_view *sv)
{
    view_sample vs;
    sample(sv, &vs);
    return view_finish(sv->v, &vs) ? -1 : 0;
}

void sys_view_free(sys_view *sv)
{
    if (!sv) return;
    sv->s->on_cycle = NULL;
    free(sv->state);
    free(sv->step);
    free(sv->inj);
    free(sv);
}
