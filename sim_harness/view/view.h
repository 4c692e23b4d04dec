/* view.h - the live traffic view (SDL2 window) and its headless pictures
 * (PNG frames, an end-of-run heatmap), one API for every command.
 *
 * A command owns the simulation loop; the view only looks at counters the
 * command hands it.  Usage (the per-cycle cost without a view is one NULL
 * test):
 *
 *     view_opts vo;  view_opts_default(&vo);
 *     ... in the option loop:  if (view_cli_arg(&vo, argc, argv, &i)) continue;
 *     view *v = NULL;
 *     if (view_wanted(&vo) && !(v = view_open(t, &vo, err, sizeof err)))
 *         cli_fail(EXIT_USAGE, "%s", err);
 *     for (;; now++) {
 *         ... net_cycle(...);
 *         if (v && view_due(v, now)) {
 *             view_sample s = {.cycle = now, .inj_flits = inj_flits, ...};
 *             view_sample_net(v, net, &rc, &s);          // links + buffers
 *             if (view_update(v, &s) == VIEW_QUIT) { interrupted = 1; break; }
 *         }
 *     }
 *     if (v) { view_finish(v, &final_sample); view_close(v); }
 *
 * Without SDL2 (no XNOC_HAVE_SDL) view_none.c provides this API and
 * view_cli_arg() rejects the flags with one line and exit status 2.
 * docs/view.md describes the picture and the controls.
 */
#ifndef XNOC_VIEW_H
#define XNOC_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include "net/net.h"
#include "net/topo.h"

/* Node (terminal) states.  The first four have the values of system/system.h's
 * NODE_RUNNING .. NODE_FAULTED, so `xnoc run` can copy its states. */
enum {
    VIEW_NODE_RUNNING = 0,
    VIEW_NODE_WAITING = 1, /* blocked on the network / a barrier */
    VIEW_NODE_EXITED = 2,
    VIEW_NODE_FAULTED = 3,
    VIEW_NODE_IDLE = 4, /* no firmware (traffic generator terminals) */
    VIEW_NODE_NSTATES
};

/* view_update() results */
enum { VIEW_OK = 0, VIEW_QUIT = 1, VIEW_ERROR = -1 };

typedef struct {
    int live;                        /* --view: open a window */
    const char *frames_dir;          /* --frames DIR: DIR/frame_000000.png ... */
    uint64_t frame_every;            /* --frame-every N: one frame every N cycles (100) */
    uint64_t frames_from, frames_to; /* --frames-window A:B: frames only in cycles [A, B) (0, 0: all) */
    const char *heatmap;             /* --heatmap FILE.png: link utilization while traffic flows */
    double heat_max;                 /* --heat-max U: the heatmap's full scale (0 = automatic) */
    int heat_labels;                 /* --heat-labels: utilization numbers and terminal ids on the heatmap */
    int width, height;               /* picture size in pixels (1024 x 720) */
    uint64_t window;                 /* utilization is averaged over this many cycles (200) */
    const char *title;               /* caption, e.g. "traffic uniform 0.30" (may be NULL) */
} view_opts;

/* What the view shows at one cycle.  Counters are cumulative since the
 * start of the run (the view takes differences); any array may be NULL when
 * the command has no such thing.  The view copies what it needs: the arrays
 * may change as soon as view_update() returns. */
typedef struct {
    uint64_t cycle;
    double sim_rate;              /* cycles per second; 0 = let the view measure it */
    const uint64_t *link_flits;   /* [topo link index] flits sent on the link */
    const uint64_t *inj_flits;    /* [term*k + c] flits injected on each channel */
    const uint64_t *ej_flits;     /* [term*k + c] flits ejected on each channel */
    const int *router_buffered;   /* [router] flits in its input buffers */
    int router_capacity;          /* flits a router can buffer (fill scale); 0 = unknown */
    const uint8_t *node_state;    /* [term] VIEW_NODE_* */
    const int *node_step;         /* [term] collective step, or -1 */
    const uint32_t *xor_ops;      /* [router] XOR reductions done (cumulative) */
    const uint32_t *mcast_copies; /* [router] multicast copies made (cumulative) */
    const char *status;           /* one short line shown under the cycle counter */
    /* the cycles in which flits moved (first injected .. last delivered);
     * the heatmap averages over them.  0, 0 = unknown: the whole run */
    uint64_t active_from, active_to;
} view_sample;

typedef struct view view;

/* Defaults listed in view_opts. */
static inline void view_opts_default(view_opts *o)
{
    *o = (view_opts){.frame_every = 100, .width = 1024, .height = 720, .window = 200};
}
/* Whether any view output was asked for (live window, frames or heatmap). */
static inline int view_wanted(const view_opts *o) { return o->live || o->frames_dir || o->heatmap; }

/* Option parsing shared by every command: if argv[*i] is --view, --frames
 * DIR, --frame-every N or --heatmap FILE.png, stores it, advances *i past
 * its value and returns 1; returns 0 for any other argument.  Bad values
 * (and, in a build without SDL2, any of these flags) end the command with
 * one line on stderr and exit status 2. */
int view_cli_arg(view_opts *o, int argc, char **argv, int *i);
/* Lines for a command's --help text. */
extern const char view_usage[];

/* Opens the window and/or prepares the picture outputs for topology t (which
 * must outlive the view).  NULL + one line in err (missing font, no display,
 * frames directory not writable...). */
view *view_open(const topo *t, const view_opts *o, char *err, size_t errlen);

/* Cheap: does the view want a sample at this cycle?  Frames: every
 * frame_every cycles; live: every "cycles per frame" cycles (the +/- keys).
 * While the user has paused the live view this blocks in the window's event
 * loop until resume, single step or quit (a quit is reported by the next
 * view_update()). */
int view_due(view *v, uint64_t cycle);
/* The first cycle at which view_due() can say yes (frames, the live window's
 * pace), UINT64_MAX if none; 0 while the live view is paused (every cycle).
 * A command with nothing to do between samples (xnoc replay) jumps to it. */
uint64_t view_next_due(const view *v);

/* Takes a sample, draws it (window and/or frame file).  VIEW_QUIT when the
 * user closed the window or pressed q/Esc: stop the run and report it as
 * interrupted.  VIEW_ERROR when a frame could not be written (the message
 * is in view_error()). */
int view_update(view *v, const view_sample *s);

/* End of the run: draws the final sample, writes the heatmap.  0 or
 * VIEW_ERROR.  A live window stays open showing the result until the user
 * closes it: from view_close() to the exit of the process, so that the
 * command's report (printed after view_close()) is already on the terminal. */
int view_finish(view *v, const view_sample *final);

/* The last error as one line (empty when none). */
const char *view_error(const view *v);

void view_close(view *v);

/* Fills s->link_flits, s->ej_flits, s->router_buffered and
 * s->router_capacity from the routers' counters (vcs = router_cfg.vcs, buf =
 * router_cfg.buf).  The arrays belong to the view and stay valid until the
 * next call.  Reads every router's debug port: call it only when view_due(). */
void view_sample_net(view *v, xnoc_net *n, const router_cfg *rc, view_sample *s);

#endif
