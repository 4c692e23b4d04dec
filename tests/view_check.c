/* view_check.c - the picture checks of view_test (tests/view.t.sh): each
 * opens the view on a synthetic run, renders, and reads pixels back to check
 * links, legend, node states, frame sequences, heatmaps and the live window;
 * `probe` prints what a picture shows.  SDL builds only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "net/topo.h"
#include "view/view.h"
#include "view_test.h"

#ifdef XNOC_HAVE_SDL
#include <SDL_image.h>
#include <sys/stat.h>

#include "view/view_impl.h"

/* ------------------------------------------------ picture checks */

#define CW 800
#define CH 600

static char why[512];
#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            snprintf(why, sizeof why, __VA_ARGS__);                                                                    \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

static SDL_Surface *load(const char *dir, const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    SDL_Surface *raw = IMG_Load(path);
    if (!raw) return NULL;
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_RGB888, 0);
    SDL_FreeSurface(raw);
    return s;
}

static SDL_Color pix(SDL_Surface *s, float fx, float fy)
{
    int x = (int)fx, y = (int)fy;
    SDL_Color c = {0, 0, 0, 255};
    if (x < 0 || y < 0 || x >= s->w || y >= s->h) return c;
    Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + y * s->pitch))[x];
    SDL_GetRGB(v, s->format, &c.r, &c.g, &c.b);
    return c;
}

static int near(SDL_Color a, SDL_Color b, int tol)
{
    return abs(a.r - b.r) <= tol && abs(a.g - b.g) <= tol && abs(a.b - b.b) <= tol;
}

/* The utilization a link color stands for: the nearest colormap entry. */
static double util_of(SDL_Color c)
{
    double best = -1, bd = 1e9;
    for (int i = 0; i <= 200; i++) {
        SDL_Color m = color_util(i / 200.0);
        double d = (m.r - c.r) * (m.r - c.r) + (m.g - c.g) * (m.g - c.g) + (m.b - c.b) * (m.b - c.b);
        if (d < bd) {
            bd = d;
            best = i / 200.0;
        }
    }
    return bd < 900 ? best : -1; /* -1: not a colormap color at all */
}

/* A point 30% along the first piece of a path: off crossings and arrowheads. */
static vpt along(const vpath *p)
{
    int n = p->split ? p->split : p->npts;
    float f = 0.3f * (float)(n - 1);
    int i = (int)f;
    float r = f - (float)i;
    vpt a = p->p[i], b = p->p[i + 1 < n ? i + 1 : i];
    return (vpt){a.x + r * (b.x - a.x), a.y + r * (b.y - a.y)};
}

/* The link the pictures load: a wrap link on the torus, a cross link on the
 * octagon (the drawings special to them), else link 0. */
static int hot_link(const topo *t)
{
    for (int i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (t->kind == TOPO_OCTAGON && l->src_port == OCT_ACROSS) return i;
        if (t->kind == TOPO_TORUS && l->dateline) return i;
    }
    return 0;
}

typedef struct {
    const topo *t;
    view *v;
    vlayout L;
    uint64_t *links, *chan;
    int *buf, *step;
    uint8_t *state;
    uint32_t *xor_ops, *mcast;
    view_sample s;
} rig;

static void rig_open(rig *g, const topo *t, view_opts *o)
{
    memset(g, 0, sizeof *g);
    g->t = t;
    o->width = CW;
    o->height = CH;
    g->v = open_or_die(t, o);
    layout_build(&g->L, t, CW, CH);
    g->links = calloc((size_t)t->nlinks, sizeof *g->links);
    g->chan = calloc((size_t)t->nterms * (size_t)t->k, sizeof *g->chan);
    g->buf = calloc((size_t)t->nrouters, sizeof *g->buf);
    g->xor_ops = calloc((size_t)t->nrouters, sizeof *g->xor_ops);
    g->mcast = calloc((size_t)t->nrouters, sizeof *g->mcast);
    g->step = calloc((size_t)t->nterms, sizeof *g->step);
    g->state = calloc((size_t)t->nterms, 1);
    g->s = (view_sample){.link_flits = g->links,
                         .inj_flits = g->chan,
                         .ej_flits = g->chan,
                         .router_buffered = g->buf,
                         .router_capacity = 64,
                         .node_state = g->state,
                         .node_step = g->step,
                         .xor_ops = g->xor_ops,
                         .mcast_copies = g->mcast};
}

static void rig_close(rig *g)
{
    view_close(g->v);
    layout_free(&g->L);
    free(g->links);
    free(g->chan);
    free(g->buf);
    free(g->xor_ops);
    free(g->mcast);
    free(g->step);
    free(g->state);
}

static void rig_update(rig *g, uint64_t cycle)
{
    g->s.cycle = cycle;
    if (view_due(g->v, cycle) && view_update(g->v, &g->s) != VIEW_OK)
        cli_fail(1, "view_update failed: %s", view_error(g->v));
}

/* A hot link red, an idle one dark blue, the same link dark blue before the
 * load; the picture has the asked size. */
static int check_links(const topo *t, const char *dir)
{
    view_opts o;
    view_opts_default(&o);
    o.frames_dir = dir;
    o.frame_every = 1000;
    rig g;
    rig_open(&g, t, &o);
    int hot = hot_link(t), idle = t->nlinks - 1;
    rig_update(&g, 0);
    g.links[hot] = 1000; /* one flit every cycle */
    rig_update(&g, 1000);
    rig_close(&g);
    SDL_Surface *a = load(dir, "frame_000000.png"), *b = load(dir, "frame_000001.png");
    CHECK(a && b, "frames not written: %s", IMG_GetError());
    CHECK(b->w == CW && b->h == CH, "frame is %dx%d, expected %dx%d", b->w, b->h, CW, CH);
    vlayout L;
    layout_build(&L, t, CW, CH);
    vpt ph = along(&L.link[hot]), pi = along(&L.link[idle]);
    double uh = util_of(pix(b, ph.x, ph.y)), ui = util_of(pix(b, pi.x, pi.y)), u0 = util_of(pix(a, ph.x, ph.y));
    layout_free(&L);
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
    CHECK(uh > 0.9, "hot link %d at (%.0f,%.0f) reads utilization %.2f, expected ~1", hot, ph.x, ph.y, uh);
    CHECK(ui >= 0 && ui < 0.1, "idle link %d at (%.0f,%.0f) reads utilization %.2f, expected ~0", idle, pi.x, pi.y, ui);
    CHECK(u0 >= 0 && u0 < 0.1, "link %d before the load reads %.2f, expected ~0", hot, u0);
    return 0;
}

/* The panel holds the color scale (dark blue on the left, red on the right
 * of one row) and text. */
static int check_legend(const topo *t, const char *dir)
{
    view_opts o;
    view_opts_default(&o);
    o.frames_dir = dir;
    rig g;
    rig_open(&g, t, &o);
    rig_update(&g, 0);
    SDL_Rect P = g.L.panel;
    rig_close(&g);
    SDL_Surface *a = load(dir, "frame_000000.png");
    CHECK(a, "frame not written");
    int bar = -1, ink = 0;
    for (int y = P.y; y < P.y + P.h; y++) {
        if (bar < 0 && near(pix(a, (float)P.x + 16, (float)y), color_util(0), 12) &&
            near(pix(a, (float)(P.x + P.w) - 17, (float)y), color_util(1), 12) &&
            near(pix(a, (float)P.x + (float)P.w / 2, (float)y), color_util(0.5), 25))
            bar = y;
        for (int x = P.x; x < P.x + P.w; x++) {
            SDL_Color c = pix(a, (float)x, (float)y);
            ink += c.r + c.g + c.b < 200;
        }
    }
    SDL_FreeSurface(a);
    CHECK(bar >= 0, "no utilization color scale in the panel");
    CHECK(ink > 1000, "only %d dark (text) pixels in the panel", ink);
    return 0;
}

/* Terminal boxes in their state colors, the buffer fill level of a full
 * router, XOR and multicast badges only where the counters rose. */
static int check_nodes(const topo *t, const char *dir)
{
    view_opts o;
    view_opts_default(&o);
    o.frames_dir = dir;
    o.frame_every = 10;
    rig g;
    rig_open(&g, t, &o);
    rig_update(&g, 0);
    for (int i = 0; i < t->nterms; i++) {
        g.state[i] = (uint8_t)(i % VIEW_NODE_NSTATES);
        g.step[i] = i % 3 - 1;
    }
    g.buf[0] = 64;
    g.xor_ops[0] = 3;
    g.mcast[0] = 2;
    rig_update(&g, 10);
    vlayout L = g.L;
    SDL_Surface *a = load(dir, "frame_000001.png");
    CHECK(a, "frame not written");
    int rc = 0;
    for (int i = 0; i < t->nterms && !rc; i++) {
        vpt c = L.term[i];
        SDL_Color got = pix(a, c.x - L.ts / 2 + 2.5f, c.y - L.ts / 2 + 2.5f), want = color_state(i % VIEW_NODE_NSTATES);
        if (!near(got, want, 8)) {
            snprintf(why, sizeof why, "terminal %d (%s) at (%.0f,%.0f) is %d,%d,%d", i,
                     name_state(i % VIEW_NODE_NSTATES), c.x, c.y, got.r, got.g, got.b);
            rc = 1;
        }
    }
    vpt r0 = L.router[0], r1 = L.router[1];
    float br = L.rs * 0.42f < 4 ? 4 : L.rs * 0.42f, d = br * 0.5f;
    SDL_Color fill0 = pix(a, r0.x + L.rs * 0.6f, r0.y + L.rs * 0.8f),
              fill1 = pix(a, r1.x + L.rs * 0.6f, r1.y + L.rs * 0.8f);
    SDL_Color x0 = pix(a, r0.x - L.rs - d, r0.y - L.rs - d), x1 = pix(a, r1.x - L.rs - d, r1.y - L.rs - d);
    SDL_Color m0 = pix(a, r0.x + L.rs - d, r0.y - L.rs - d), m1 = pix(a, r1.x + L.rs - d, r1.y - L.rs - d);
    rig_close(&g);
    SDL_FreeSurface(a);
    if (rc) return rc;
    CHECK(near(fill0, COL_FILL, 8), "full router 0 is not filled: %d,%d,%d", fill0.r, fill0.g, fill0.b);
    CHECK(near(fill1, COL_ROUTER, 8), "empty router 1 is not white: %d,%d,%d", fill1.r, fill1.g, fill1.b);
    CHECK(near(x0, COL_XOR, 10), "no XOR badge on router 0: %d,%d,%d", x0.r, x0.g, x0.b);
    CHECK(!near(x1, COL_XOR, 40), "XOR badge on idle router 1");
    CHECK(near(m0, COL_MCAST, 10), "no multicast badge on router 0: %d,%d,%d", m0.r, m0.g, m0.b);
    CHECK(!near(m1, COL_MCAST, 40), "multicast badge on idle router 1");
    return 0;
}

/* A load that ramps up over the run: one frame per frame_every cycles plus
 * the final one, the link's color climbing the scale. */
static int check_sequence(const topo *t, const char *dir)
{
    view_opts o;
    view_opts_default(&o);
    o.frames_dir = dir;
    o.frame_every = 100;
    o.window = 100;
    rig g;
    rig_open(&g, t, &o);
    double acc = 0;
    uint64_t c;
    for (c = 0; c < 1000; c++) {
        acc += (double)c / 1000; /* utilization c/1000 at cycle c */
        g.links[0] = (uint64_t)acc;
        rig_update(&g, c);
    }
    g.s.cycle = c;
    view_finish(g.v, &g.s);
    vpt p = along(&g.L.link[0]);
    rig_close(&g);
    double prev = -1, first = -1, last = -1;
    for (int f = 0;; f++) {
        char name[64];
        snprintf(name, sizeof name, "frame_%06d.png", f);
        SDL_Surface *a = load(dir, name);
        if (!a) {
            CHECK(f == 11, "%d frames, expected 11 (cycles 0, 100, ... 900 and the end)", f);
            break;
        }
        double u = util_of(pix(a, p.x, p.y));
        SDL_FreeSurface(a);
        CHECK(u >= prev - 0.05, "frame %d: utilization %.2f after %.2f: the ramp should not go down", f, u, prev);
        if (f == 0) first = u;
        last = prev = u;
    }
    CHECK(first < 0.1 && last > 0.8, "the ramp reads %.2f in the first frame and %.2f in the last", first, last);
    return 0;
}

/* The heatmap: whole-run utilization, scaled to the busiest link. */
static int check_heatmap(const topo *t, const char *dir)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/heat.png", dir);
    mkdir(dir, 0777);
    view_opts o;
    view_opts_default(&o);
    o.heatmap = path;
    rig g;
    rig_open(&g, t, &o);
    CHECK(!view_due(g.v, 0), "a heatmap alone should want no samples");
    g.links[0] = 500; /* 0.5 flits/cycle: the full-red end of the scale */
    g.links[1] = 100; /* 0.1: a fifth of it */
    g.s.cycle = 1000;
    CHECK(view_finish(g.v, &g.s) == 0, "view_finish: %s", view_error(g.v));
    vpt p0 = along(&g.L.link[0]), p1 = along(&g.L.link[1]), pi = along(&g.L.link[t->nlinks - 1]);
    rig_close(&g);
    SDL_Surface *a = load(dir, "heat.png");
    CHECK(a, "heatmap not written");
    CHECK(a->w == CW && a->h == CH, "heatmap is %dx%d", a->w, a->h);
    double u0 = util_of(pix(a, p0.x, p0.y)), u1 = util_of(pix(a, p1.x, p1.y)), ui = util_of(pix(a, pi.x, pi.y));
    SDL_FreeSurface(a);
    CHECK(u0 > 0.9, "busiest link reads %.2f of the scale, expected 1", u0);
    CHECK(u1 > 0.1 && u1 < 0.3, "link 1 reads %.2f of the scale, expected 0.2", u1);
    CHECK(ui >= 0 && ui < 0.05, "idle link reads %.2f", ui);
    return 0;
}

/* The utilization the picture shows for link i somewhere along its path
 * (at 30%, 40%, 50% or 60% of its first piece: one of them is off the
 * crossings), the one nearest to want. */
static double link_reads(SDL_Surface *a, const vpath *p, double want)
{
    int n = p->split ? p->split : p->npts;
    double best = -1;
    for (int k = 3; k <= 6; k++) {
        float f = 0.1f * (float)k * (float)(n - 1);
        int i = (int)f;
        float r = f - (float)i;
        vpt q = p->p[i], b = p->p[i + 1 < n ? i + 1 : i];
        for (int dy = -1; dy <= 1; dy++) /* a pixel either way: thin lines round to one row or the next */
            for (int dx = -1; dx <= 1; dx++) {
                double u = util_of(pix(a, q.x + r * (b.x - q.x) + (float)dx, q.y + r * (b.y - q.y) + (float)dy));
                if (best < 0 || fabs(u - want) < fabs(best - want)) best = u;
            }
    }
    return best;
}

/* Every link drawn: link i at (i % 5 + 1) / 5 of the scale reads so in the heatmap. */
static int check_every(const topo *t, const char *dir)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/every.png", dir);
    mkdir(dir, 0777);
    view_opts o;
    view_opts_default(&o);
    o.heatmap = path;
    o.heat_max = 1;
    rig g;
    rig_open(&g, t, &o);
    for (int i = 0; i < t->nlinks; i++) g.links[i] = (uint64_t)(i % 5 + 1) * 200;
    g.s.cycle = 1000;
    CHECK(view_finish(g.v, &g.s) == 0, "view_finish: %s", view_error(g.v));
    SDL_Surface *a = load(dir, "every.png");
    CHECK(a, "heatmap not written");
    int bad = -1;
    double got = 0;
    for (int i = 0; i < t->nlinks && bad < 0; i++) {
        double want = (i % 5 + 1) / 5.0;
        got = link_reads(a, &g.L.link[i], want);
        if (fabs(got - want) > 0.06) bad = i;
    }

    rig_close(&g);
    SDL_FreeSurface(a);
    CHECK(bad < 0, "link %d reads %.2f, expected %.2f (not drawn, or drawn over)", bad, got, (bad % 5 + 1) / 5.0);
    return 0;
}

static int rect_overlap(SDL_FRect a, SDL_FRect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* --heat-labels: numbers only on links that carried traffic, terminal ids;
 * no two text boxes overlap, none covers a router or terminal box, all
 * inside the drawing. */
static int check_labels(const topo *t, const char *dir)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/labels.png", dir);
    mkdir(dir, 0777);
    view_opts o;
    view_opts_default(&o);
    o.heatmap = path;
    o.heat_labels = 1;
    rig g;
    rig_open(&g, t, &o);
    for (int i = 0; i < t->nlinks; i++) g.links[i] = i % 3 ? (uint64_t)(i * 37 % 900) : 0; /* a third idle */
    g.s.cycle = 1000;
    CHECK(view_finish(g.v, &g.s) == 0, "view_finish: %s", view_error(g.v));
    const vlabels *lb = &g.v->labels;
    const vlayout *L = &g.v->L;
    int nval = 0, nterm = 0, rc = 0;
    for (int i = 0; i < lb->n && !rc; i++) {
        SDL_FRect b = lb->box[i];
        nval += lb->kind[i] == LABEL_VALUE;
        nterm += lb->kind[i] == LABEL_TERM;
        if (lb->kind[i] == LABEL_VALUE && g.links[lb->id[i]] == 0) {
            snprintf(why, sizeof why, "idle link %d has a number", lb->id[i]);
            rc = 1;
        }
        if (b.x < (float)L->net.x || b.y < (float)L->net.y || b.x + b.w > (float)(L->net.x + L->net.w) ||
            b.y + b.h > (float)(L->net.y + L->net.h)) {
            snprintf(why, sizeof why, "label %d at (%.0f,%.0f) is outside the drawing", i, b.x, b.y);
            rc = 1;
        }
        for (int j = 0; j < i && !rc; j++)
            if (rect_overlap(b, lb->box[j])) {
                snprintf(why, sizeof why, "labels %d (kind %d, id %d) and %d (kind %d, id %d) overlap at (%.0f,%.0f)",
                         j, lb->kind[j], lb->id[j], i, lb->kind[i], lb->id[i], b.x, b.y);
                rc = 1;
            }
        for (int k = 0; k <= L->ncopies && !rc; k++)
            for (int r = 0; r < t->nrouters && !rc; r++) {
                vpt c = k ? L->copy[(size_t)(k - 1) * (size_t)t->nrouters + (size_t)r] : L->router[r];
                if (rect_overlap(b, (SDL_FRect){c.x - L->rs, c.y - L->rs, 2 * L->rs, 2 * L->rs})) {
                    snprintf(why, sizeof why, "label %d covers router %d", i, r);
                    rc = 1;
                }
            }
        for (int term = 0; term < t->nterms && !rc; term++) {
            vpt c = L->term[term];
            if (rect_overlap(b, (SDL_FRect){c.x - L->ts / 2, c.y - L->ts / 2, L->ts, L->ts})) {
                snprintf(why, sizeof why, "label %d covers terminal %d", i, term);
                rc = 1;
            }
        }
    }
    rig_close(&g);
    if (rc) return rc;
    CHECK(nval >= 1 && nterm >= 1, "%d link numbers and %d terminal ids placed", nval, nterm);
    return 0;
}

/* The stroke width of the red line crossing the path's middle: red pixels
 * counted along the normal. */
static int stroke_width(SDL_Surface *a, const vpath *p)
{
    int n = p->npts, i = (n - 1) / 2;
    vpt q = p->p[i], b = p->p[i + 1];
    float dx = b.x - q.x, dy = b.y - q.y, len = sqrtf(dx * dx + dy * dy);
    vpt m = {(q.x + b.x) / 2, (q.y + b.y) / 2}, nv = {-dy / len, dx / len};
    int w = 0;
    for (float s = -8; s <= 8; s += 0.5f) w += near(pix(a, m.x + s * nv.x, m.y + s * nv.y), color_util(1), 30);
    return w;
}

/* Dragonfly: a link is local exactly when both ends are in one group, local
 * links stay inside their group's disc, global links are curved and drawn
 * thinner than local ones; the group captions are placed. */
static int check_groups(const topo *t, const char *dir)
{
    CHECK(t->kind == TOPO_DRAGONFLY, "not a dragonfly");
    char path[1100];
    snprintf(path, sizeof path, "%s/groups.png", dir);
    mkdir(dir, 0777);
    view_opts o;
    view_opts_default(&o);
    o.heatmap = path;
    o.heat_max = 1;
    rig g;
    rig_open(&g, t, &o);
    const vlayout *L = &g.L;
    CHECK(L->nregions == t->groups, "%d regions for %d groups", L->nregions, t->groups);
    int loc = -1, glob = -1, ncurved = 0, nglob = 0;
    for (int i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        int same = topo_group(t, l->src) == topo_group(t, l->dst);
        CHECK(same == (L->kind[i] == LINK_LOCAL) && (same || L->kind[i] == LINK_GLOBAL),
              "link %d (router %d -> %d) has kind %d", i, l->src, l->dst, L->kind[i]);
        const vpath *p = &L->link[i];
        if (same) {
            const vregion *d = &L->region[topo_group(t, l->src)];
            for (int k = 0; k < p->npts; k++)
                CHECK(hypotf(p->p[k].x - d->x, p->p[k].y - d->y) < d->w, "local link %d leaves its group's disc", i);
            if (loc < 0) loc = i;
        } else {
            /* curved: the middle point is off the straight line between the ends */
            vpt a = p->p[0], b = p->p[p->npts - 1], m = p->p[p->npts / 2];
            float len = hypotf(b.x - a.x, b.y - a.y),
                  dev = fabsf((b.x - a.x) * (a.y - m.y) - (a.x - m.x) * (b.y - a.y)) / len;
            CHECK(p->npts > 2, "global link %d is a straight line", i);
            ncurved += dev > 0.05f * len; /* chords through the middle are nearly straight */
            nglob++;
            if (glob < 0) glob = i;
        }
    }
    CHECK(loc >= 0 && glob >= 0, "no local (%d) or no global (%d) link", loc, glob);
    CHECK(2 * ncurved >= nglob, "only %d of %d global links visibly curved", ncurved, nglob);
    g.links[loc] = g.links[glob] = 1000; /* both red, everything else idle */
    g.s.cycle = 1000;
    CHECK(view_finish(g.v, &g.s) == 0, "view_finish: %s", view_error(g.v));
    int ncap = 0;
    for (int i = 0; i < g.v->labels.n; i++) ncap += g.v->labels.kind[i] == LABEL_CAPTION;
    SDL_Surface *a = load(dir, "groups.png");
    CHECK(a, "heatmap not written");
    int wl = stroke_width(a, &L->link[loc]), wg = stroke_width(a, &L->link[glob]);
    SDL_FreeSurface(a);
    rig_close(&g);
    CHECK(ncap == t->groups, "%d group captions placed, want %d", ncap, t->groups);
    CHECK(wg >= 1 && wl > wg, "local link %d is %d half-pixels wide, global link %d %d: not told apart", loc, wl, glob,
          wg);
    return 0;
}

/* Clos: the spines in one row above the leaves, in id order left to right,
 * each leaf's terminals below it, every link a straight line from a leaf up
 * to a spine or down again. */
static int check_tiers(const topo *t, const char *dir)
{
    CHECK(t->kind == TOPO_CLOS && topo_draw(t) == TOPO_DRAW_TIERS, "not a clos");
    (void)dir;
    view_opts o;
    view_opts_default(&o);
    rig g;
    rig_open(&g, t, &o);
    const vlayout *L = &g.L;
    int R = t->clos_r;
    for (int r = 0; r < t->nrouters; r++) {
        int spine = r >= R, first = spine ? R : 0;
        CHECK(L->router[r].y == L->router[first].y, "router %d off its row", r);
        if (r > first) CHECK(L->router[r].x > L->router[r - 1].x, "router %d not right of %d", r, r - 1);
        if (spine) CHECK(L->router[r].y + 2 * L->rs < L->router[0].y, "spine %d not above the leaves", r);
    }
    for (int term = 0; term < t->nterms; term++)
        CHECK(L->term[term].y > L->router[topo_term_router(t, term)].y, "terminal %d not below its leaf", term);
    for (int i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        CHECK((l->src < R) != (l->dst < R), "link %d joins two routers of one tier", i);
        CHECK(L->link[i].npts == 2, "link %d is not straight", i);
        float dy = L->link[i].p[1].y - L->link[i].p[0].y;
        CHECK(l->src < R ? dy < 0 : dy > 0, "link %d runs the wrong way", i);
    }
    char lab[96];
    topo_router_label(t, R, lab, sizeof lab);
    CHECK(!strcmp(lab, "router 4 (spine 0)") || R != 4, "label '%s'", lab);
    topo_router_label(t, R - 1, lab, sizeof lab);
    CHECK(!strcmp(lab, "router 3 (leaf 3)") || R != 4, "label '%s'", lab);
    rig_close(&g);
    return 0;
}

/* n-D mesh/torus: one panel per dimension; a link of dimension d is drawn
 * inside panel d, each panel holds every router once, panels are apart. */
static int check_panels(const topo *t, const char *dir)
{
    (void)dir;
    vlayout L;
    layout_build(&L, t, CW, CH);
    int rc = 0;
    if (L.nregions != t->ndims || L.ncopies != t->ndims - 1) {
        snprintf(why, sizeof why, "%d panels and %d router copies for %d dimensions", L.nregions, L.ncopies, t->ndims);
        rc = 1;
    }
    for (int d = 0; d < t->ndims && !rc; d++) {
        const vregion *g = &L.region[d];
        for (int e = 0; e < d && !rc; e++)
            if (rect_overlap((SDL_FRect){g->x, g->y, g->w, g->h},
                             (SDL_FRect){L.region[e].x, L.region[e].y, L.region[e].w, L.region[e].h})) {
                snprintf(why, sizeof why, "panels %d and %d overlap", e, d);
                rc = 1;
            }
        for (int r = 0; r < t->nrouters && !rc; r++) {
            vpt c = d ? L.copy[(size_t)(d - 1) * (size_t)t->nrouters + (size_t)r] : L.router[r];
            if (c.x - L.rs < g->x || c.x + L.rs > g->x + g->w || c.y - L.rs < g->y || c.y + L.rs > g->y + g->h) {
                snprintf(why, sizeof why, "router %d is outside panel %d", r, d);
                rc = 1;
            }
        }
    }
    for (int i = 0; i < t->nlinks && !rc; i++) {
        const vregion *g = &L.region[t->links[i].src_port / 2];
        for (int k = 0; k < L.link[i].npts && !rc; k++) {
            vpt q = L.link[i].p[k];
            if (q.x < g->x || q.x > g->x + g->w || q.y < g->y || q.y > g->y + g->h) {
                snprintf(why, sizeof why, "link %d (port %d) leaves panel %d at (%.0f,%.0f)", i, t->links[i].src_port,
                         t->links[i].src_port / 2, q.x, q.y);
                rc = 1;
            }
        }
    }
    layout_free(&L);
    return rc;
}

/* view_due: frames every N cycles; nothing in between. */
static int check_due(const topo *t, const char *dir)
{
    view_opts o;
    view_opts_default(&o);
    o.frames_dir = dir;
    o.frame_every = 10;
    rig g;
    rig_open(&g, t, &o);
    int d0 = view_due(g.v, 0);
    g.s.cycle = 0;
    view_update(g.v, &g.s);
    int d5 = view_due(g.v, 5), d10 = view_due(g.v, 10);
    rig_close(&g);
    CHECK(d0 && !d5 && d10, "view_due at 0, 5, 10: %d %d %d, expected 1 0 1", d0, d5, d10);
    return 0;
}

/* Live (SDL_VIDEODRIVER=dummy): a sample every "cycles per frame" cycles. */
static int check_livedue(const topo *t, const char *dir)
{
    (void)dir;
    view_opts o;
    view_opts_default(&o);
    o.live = 1;
    rig g;
    rig_open(&g, t, &o);
    int d0 = view_due(g.v, 0);
    g.s.cycle = 0;
    view_update(g.v, &g.s);
    int d1 = view_due(g.v, 1), d20 = view_due(g.v, 20);
    rig_close(&g);
    CHECK(d0 && !d1 && d20, "live view_due at 0, 1, 20: %d %d %d, expected 1 0 1 (20 cycles per frame)", d0, d1, d20);
    return 0;
}

static Uint32 push_key(Uint32 ms, void *key)
{
    SDL_Event e = {0};
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = (SDL_Keycode)(intptr_t)key;
    SDL_PushEvent(&e);
    (void)ms;
    return 0;
}

/* The live window (run with SDL_VIDEODRIVER=dummy): a click selects a
 * router, space pauses (view_due blocks), n steps one cycle, q quits. */
static int check_live(const topo *t, const char *dir)
{
    view_opts o;
    view_opts_default(&o);
    o.live = 1;
    o.frames_dir = dir;
    o.frame_every = 1;
    rig g;
    rig_open(&g, t, &o);
    SDL_InitSubSystem(SDL_INIT_TIMER);
    int sel = t->nrouters - 1;
    SDL_Event e = {0};
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = (int)g.L.router[sel].x;
    e.button.y = (int)(g.L.router[sel].y + g.L.rs * 0.5f);
    SDL_PushEvent(&e);
    rig_update(&g, 0); /* takes the click */
    rig_update(&g, 1); /* frame 1 shows the selection */
    push_key(0, (void *)(intptr_t)SDLK_SPACE);
    rig_update(&g, 20); /* takes the pause */
    SDL_AddTimer(300, push_key, (void *)(intptr_t)SDLK_n);
    Uint32 t0 = SDL_GetTicks();
    int d = view_due(g.v, 21);
    Uint32 waited = SDL_GetTicks() - t0;
    CHECK(d == 1 && waited >= 250, "paused view_due returned %d after %u ms, expected 1 after the 300 ms step", d,
          waited);
    g.s.cycle = 21;
    CHECK(view_update(g.v, &g.s) == VIEW_OK, "the step sample was refused");
    SDL_AddTimer(300, push_key, (void *)(intptr_t)SDLK_q);
    t0 = SDL_GetTicks();
    d = view_due(g.v, 22);
    waited = SDL_GetTicks() - t0;
    CHECK(d == 1 && waited >= 250, "still paused after a step: view_due returned %d after %u ms", d, waited);
    g.s.cycle = 22;
    int u = view_update(g.v, &g.s);
    vpt rc = g.L.router[sel];
    float rs = g.L.rs;
    rig_close(&g);
    CHECK(u == VIEW_QUIT, "q gave %d, expected VIEW_QUIT", u);
    SDL_Surface *a = load(dir, "frame_000001.png");
    CHECK(a, "frame 1 not written");
    SDL_Color edge = pix(a, rc.x - rs + 1, rc.y);
    SDL_FreeSurface(a);
    CHECK(near(edge, COL_SEL, 10), "clicked router %d is not highlighted: %d,%d,%d", sel, edge.r, edge.g, edge.b);
    return 0;
}

/* view_sample_net() against the fake network at the top of this file. */
static int check_net(const topo *t, const char *dir)
{
    (void)dir;
    view_opts o;
    view_opts_default(&o);
    o.heatmap = NULL;
    o.frames_dir = dir;
    rig g;
    rig_open(&g, t, &o);
    router_cfg rc = {.vcs = 2, .buf = 4};
    view_sample s = {0};
    struct xnoc_net fake = {0};
    view_sample_net(g.v, &fake, &rc, &s);
    int rcode = 0;
    for (int i = 0; i < t->nlinks && !rcode; i++)
        if (s.link_flits[i] != (uint64_t)(t->links[i].src * 100 + t->links[i].src_port)) rcode = 1;
    int ej_ok = s.ej_flits[t->nterms - 1] ==
                (uint64_t)(topo_term_router(t, t->nterms - 1) * 100 + topo_term_port(t, t->nterms - 1, 0));
    int b0 = s.router_buffered[0], b1 = s.router_buffered[1], cap = s.router_capacity;
    rig_close(&g);
    CHECK(!rcode, "link counters do not come from the links' source ports");
    CHECK(ej_ok, "ejection counters do not come from the terminal ports");
    CHECK(b0 == 0 && b1 == t->nports, "buffered: router 0 %d (want 0), router 1 %d (want %d)", b0, b1, t->nports);
    CHECK(cap == t->nports * 2 * 4, "capacity %d, want %d", cap, t->nports * 8);
    return 0;
}

int cmd_check(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(const topo *, const char *);
    } cases[] = {{"links", check_links},       {"legend", check_legend},   {"nodes", check_nodes},
                 {"sequence", check_sequence}, {"heatmap", check_heatmap}, {"due", check_due},
                 {"live", check_live},         {"livedue", check_livedue}, {"net", check_net},
                 {"every", check_every},       {"labels", check_labels},   {"groups", check_groups},
                 {"panels", check_panels},     {"tiers", check_tiers}};
    if (argc < 3) cli_fail(EXIT_USAGE, "usage: view_test check CASE TOPO DIR");
    topo *t = parse_topo(argv[1]);
    int rc = -1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(argv[0], cases[i].name)) rc = cases[i].fn(t, argv[2]);
    topo_free(t);
    if (rc < 0) cli_fail(EXIT_USAGE, "unknown check '%s'", argv[0]);
    if (rc) printf("%s\n", why);
    return rc;
}

/* probe TOPO FILE.png...: what pictures of a real run show, one line per
 * terminal ("term I STATE"), per link ("link I UTIL", -1 when the pixel is
 * not a colormap color) and per router ("router R xor|- mcast|-": its
 * coding unit's badges), read at the layout of the picture's size.  With
 * several files every line starts with "FILE: ". */
int cmd_probe(int argc, char **argv)
{
    if (argc < 2) cli_fail(EXIT_USAGE, "usage: view_test probe TOPO FILE.png...");
    topo *t = parse_topo(argv[0]);
    for (int f = 1; f < argc; f++) {
        SDL_Surface *a = IMG_Load(argv[f]), *c = a ? SDL_ConvertSurfaceFormat(a, SDL_PIXELFORMAT_RGB888, 0) : NULL;
        if (!c) cli_fail(1, "%s: %s", argv[f], IMG_GetError());
        char pre[512] = "";
        if (argc > 2) snprintf(pre, sizeof pre, "%s: ", argv[f]);
        vlayout L;
        layout_build(&L, t, c->w, c->h);
        for (int i = 0; i < t->nterms; i++) {
            vpt p = L.term[i];
            SDL_Color got = pix(c, p.x - L.ts / 2 + 2.5f, p.y - L.ts / 2 + 2.5f);
            const char *name = "?";
            for (int st = 0; st < VIEW_NODE_NSTATES; st++)
                if (near(got, color_state(st), 8)) name = name_state(st);
            printf("%sterm %d %s\n", pre, i, name);
        }
        for (int i = 0; i < t->nlinks; i++) {
            vpt p = along(&L.link[i]);
            printf("%slink %d %.2f\n", pre, i, util_of(pix(c, p.x, p.y)));
        }
        float br = L.rs * 0.42f < 4 ? 4 : L.rs * 0.42f, d = br * 0.5f; /* where check_nodes finds the badges */
        for (int r = 0; r < t->nrouters; r++) {
            vpt q = L.router[r];
            SDL_Color x = pix(c, q.x - L.rs - d, q.y - L.rs - d), m = pix(c, q.x + L.rs - d, q.y - L.rs - d);
            printf("%srouter %d %s %s\n", pre, r, near(x, COL_XOR, 10) ? "xor" : "-",
                   near(m, COL_MCAST, 10) ? "mcast" : "-");
        }
        layout_free(&L);
        SDL_FreeSurface(a);
        SDL_FreeSurface(c);
    }
    topo_free(t);
    return 0;
}
#else
int cmd_probe(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_fail(EXIT_USAGE, "built without SDL2");
}
int cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_fail(EXIT_USAGE, "built without SDL2");
}
#endif
