/* view_impl.h - the inside of the SDL view, shared by the files in sim_harness/view/.
 *
 *   layout.c   where routers, terminals and links go on the canvas; hit tests
 *   stats.c    counters copied from samples, utilization over a sliding window
 *   paint.c    drawing primitives: thick lines, arrows, boxes, text
 *   colors.c   utilization colormap and node state colors
 *   scene.c    the network picture; panel.c the legend and the side panel
 *   live.c     the window: events, pause/step/speed, pacing at <= 60 fps
 *   render.c   the scene and the panel onto the surface (view_render)
 *   view.c     the public API: open, due, update, finish, frames, heatmap
 *   flags.c    --view, --frames, --frame-every, --heatmap; from_net.c view_sample_net()
 */
#ifndef XNOC_VIEW_IMPL_H
#define XNOC_VIEW_IMPL_H

#include <SDL.h>
#include <SDL_ttf.h>
#include <stdint.h>
#include <stdio.h>

#include "view/view.h"

#define VIEW_FONT_DEFAULT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

/* ---------------------------------------------------------------- layout */

typedef struct {
    float x, y;
} vpt;

#define PATH_MAX_PTS 24

/* A drawn channel: a polyline, optionally in two pieces (a torus wrap link
 * leaves at one edge of the grid and comes back in at the other). */
typedef struct {
    int npts, split; /* split: points [0, split) and [split, npts) are separate pieces */
    vpt p[PATH_MAX_PTS];
} vpath;

/* How a router-to-router link is drawn: the dragonfly's local links solid
 * and wide, its global links thinner curved chords between the groups. */
enum { LINK_PLAIN, LINK_LOCAL, LINK_GLOBAL };

/* A framed part of the drawing with a caption: a dragonfly group (a disc)
 * or one dimension's panel of an n-D mesh or torus (a box). */
typedef struct {
    float x, y, w, h; /* box; a disc: centre (x, y), radius w */
    int disc;
    char caption[64];
    vpt cap_at; /* caption's top centre */
} vregion;

typedef struct {
    SDL_Rect net;    /* area of the network drawing */
    SDL_Rect panel;  /* legend and side panel */
    float rs;        /* half size of a router box */
    float ts;        /* side of a terminal box */
    float lw;        /* link line width */
    vpt *router;     /* [router] centre */
    vpt *term;       /* [term] centre of the terminal box */
    vpath *link;     /* [link] */
    vpath *inj, *ej; /* [term*k + c] terminal <-> router channels */
    uint8_t *kind;   /* [link] LINK_* */
    int ncopies;     /* n-D: the routers drawn again in the other dimensions' panels */
    vpt *copy;       /* [copy * nrouters + r] */
    int nregions;
    vregion *region; /* dragonfly groups, n-D dimension panels (drawn under everything) */
} vlayout;

int layout_build(vlayout *L, const topo *t, int width, int height);
void layout_free(vlayout *L);

enum { HIT_NONE, HIT_LINK, HIT_ROUTER, HIT_TERM };
/* What is under pixel (x, y): HIT_* and its index in *id. */
int layout_hit(const vlayout *L, const topo *t, int x, int y, int *id);

/* ---------------------------------------------------------------- stats */

#define STATS_RING 64

/* Channels are numbered: links [0, nlinks), injection channels
 * [nlinks, nlinks + nch), ejection channels [nlinks + nch, nlinks + 2 nch). */
typedef struct {
    int nchan, nlinks, nch, nrouters, nterms;
    uint64_t window;
    uint64_t cycle;
    uint64_t *now;                      /* [nchan] cumulative flits at `cycle` */
    uint64_t ring_cycle[STATS_RING];    /* snapshots for the sliding window */
    uint64_t *ring;                     /* [STATS_RING * nchan] */
    int ring_n, ring_head;              /* count, index of the oldest */
    int *buffered;                      /* [router] */
    int capacity, max_buffered;         /* fill scale */
    uint8_t *state;                     /* [term] VIEW_NODE_* */
    int *step;                          /* [term] */
    uint32_t *xor_ops, *mcast;          /* [router] cumulative */
    uint8_t *xor_active, *mcast_active; /* [router] counter rose since the last sample */
    int has_state, has_step, has_xor, has_mcast, has_buffered;
    double rate;         /* cycles per second shown */
    uint64_t rate_cycle; /* for measuring the rate */
    double rate_t;
    char status[128];
    uint64_t active_from, active_to; /* view_sample's; 0, 0 = the whole run */
} vstats;

int stats_init(vstats *S, const topo *t, uint64_t window);
void stats_free(vstats *S);
void stats_take(vstats *S, const view_sample *s);
/* Flits per cycle on channel c over the sliding window. */
double stats_util(const vstats *S, int c);
/* The cycles the heatmap averages over: the active window, or the run. */
uint64_t stats_heat_cycles(const vstats *S);
/* Flits per cycle on channel c over the whole run. */
double stats_util_total(const vstats *S, int c);

/* ---------------------------------------------------------------- paint */

/* Every primitive draws on the SDL renderer, or, while svg is set, writes
 * the same shape as an SVG element (the heatmap as a vector picture). */
typedef struct {
    SDL_Renderer *r;
    TTF_Font *font, *small, *big;
    int font_px[3]; /* point sizes of font, small, big (SVG text) */
    FILE *svg;      /* non-NULL: draw into this SVG document instead */
} vpaint;

enum { ALIGN_LEFT, ALIGN_CENTER, ALIGN_RIGHT };

void paint_color(vpaint *P, SDL_Color c);
void paint_rect(vpaint *P, float x, float y, float w, float h, SDL_Color fill);
void paint_frame(vpaint *P, float x, float y, float w, float h, float lw, SDL_Color c);
void paint_line(vpaint *P, vpt a, vpt b, float lw, SDL_Color c);
void paint_polyline(vpaint *P, const vpt *p, int n, float lw, SDL_Color c);
void paint_arrowhead(vpaint *P, vpt from, vpt tip, float size, SDL_Color c);
void paint_disc(vpaint *P, vpt c, float r, SDL_Color col);
/* Text with its left/centre/right edge at x and its top at y; returns its width. */
int paint_text(vpaint *P, TTF_Font *f, const char *s, float x, float y, int align, SDL_Color c);

/* Text cut to maxw pixels (ending in an ellipsis), left-aligned at x. */
int paint_text_fit(vpaint *P, TTF_Font *f, const char *s, float x, float y, float maxw, SDL_Color c);
/* The utilization colour scale left (idle) to right (full); in SVG one
 * rectangle filled with a <linearGradient>. */
void paint_util_bar(vpaint *P, float x, float y, float w, float h);

/* SVG documents: the header (size in pixels, background) and the end. */
void paint_svg_begin(vpaint *P, FILE *f, int width, int height);
void paint_svg_end(vpaint *P);

/* ---------------------------------------------------------------- colors */

SDL_Color color_util(double u);   /* 0 .. 1: dark blue, green, yellow, red */
SDL_Color color_state(int state); /* VIEW_NODE_* */
char letter_state(int state);
const char *name_state(int state);
extern const SDL_Color COL_BG, COL_INK, COL_GRID, COL_PANEL, COL_ROUTER, COL_FILL, COL_XOR, COL_MCAST, COL_SEL,
    COL_TERM;

/* ---------------------------------------------------------------- scene */

enum { SCENE_LIVE, SCENE_HEATMAP };

/* The text boxes the scene placed (--heat-labels, captions), for the tests:
 * no two overlap, none covers a router or terminal box. */
enum { LABEL_VALUE, LABEL_TERM, LABEL_CAPTION };
typedef struct {
    int n, cap;
    SDL_FRect *box;
    int *kind, *id; /* LABEL_*, the link / terminal / region */
} vlabels;

typedef struct {
    int mode;             /* SCENE_*: window utilization or whole-run utilization */
    double scale;         /* utilization shown as full red */
    int sel_kind, sel_id; /* HIT_* of the clicked item */
    const char *title;
    int labels;           /* heatmap: each channel's utilization and the terminal ids */
    const char *controls; /* live: state of pause / speed; NULL otherwise */
    vlabels *placed;      /* where the scene records its text boxes (may be NULL) */
} vscene;

void scene_draw(vpaint *P, const vlayout *L, const topo *t, const vstats *S, const vscene *sc);
void panel_draw(vpaint *P, const vlayout *L, const topo *t, const vstats *S, const vscene *sc);

/* ---------------------------------------------------------------- the view */

struct view {
    const topo *t;
    topo *own_t; /* a copy of t for a window held open after view_close() */
    char *title; /* the view's copy of o.title */
    view_opts o;
    char err[512];
    SDL_Surface *surf; /* every picture is drawn here first */
    vpaint P;
    vlayout L;
    vstats S;
    int have_sample;
    uint64_t frame_next, frame_no;
    int sdl_video; /* SDL_INIT_VIDEO done by us */
    /* live */
    SDL_Window *win;
    int paused, step_once, quit, finished;
    int done;  /* view_finish() succeeded: a window stays open after view_close() */
    int speed; /* index into live.c's cycles-per-frame table */
    uint64_t live_next, stride;
    uint32_t last_present, last_update;
    int sel_kind, sel_id;
    vlabels labels; /* the last picture's text boxes */
    /* from_net.c */
    uint64_t *net_links, *net_ej;
    int *net_buf;
    uint32_t *net_xor, *net_mc; /* [router] coding-unit counters */
};

int live_open(view *v, char *err, size_t errlen);
void live_close(view *v);
/* Handles pending window events; returns non-zero if the picture must be redrawn. */
int live_events(view *v);
/* Blocks while paused; 1 = a sample is wanted now (step or quit). */
int live_paused(view *v);
/* Shows the surface in the window, then waits so frames come at <= 60 fps. */
void live_present(view *v);
/* Whether this sample should be drawn (full speed draws <= 60 times a second). */
int live_frame_due(const view *v);
/* After a sample: when the next live sample is due. */
void live_schedule(view *v, uint64_t cycle);
const char *live_controls(const view *v, char *buf, size_t len);
/* The end of the run: keeps the window open until the user closes it. */
void live_hold(view *v);

/* Redraws the current state onto v->surf; controls: the live window's
 * pause/speed line (NULL without a window). */
void view_render(view *v, int mode, const char *controls);

#endif
