/* scene.c - the network picture: links colored by utilization, routers with
 * their buffer fill level and XOR/multicast badges, terminals colored by
 * node state with their collective step.  Regions (dragonfly groups, the
 * panels of an n-D network) come first, then links, so router and terminal
 * boxes sit on top of the line ends; text last, each label placed where it
 * overlaps no box and no other label, or left out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_impl.h"

static double shown_util(const vstats *S, const vscene *sc, int chan)
{
    double u = sc->mode == SCENE_HEATMAP ? stats_util_total(S, chan) : stats_util(S, chan);
    return sc->scale > 0 ? u / sc->scale : u;
}

static void draw_path(vpaint *P, const vpath *p, float lw, SDL_Color c)
{
    if (p->split) {
        paint_polyline(P, p->p, p->split, lw, c);
        paint_polyline(P, p->p + p->split, p->npts - p->split, lw, c);
    } else {
        paint_polyline(P, p->p, p->npts, lw, c);
    }
}

/* dragonfly: local links wide, global chords thinner */
static float link_width(int kind) { return kind == LINK_LOCAL ? 1.5f : kind == LINK_GLOBAL ? 0.8f : 1.0f; }

static void draw_channel(vpaint *P, const vpath *p, float lw, SDL_Color c, int selected)
{
    if (p->npts < 2) return;
    if (selected) draw_path(P, p, lw * 2.6f, COL_SEL);
    draw_path(P, p, lw, c);
    paint_arrowhead(P, p->p[p->npts - 2], p->p[p->npts - 1], lw * 2.6f + 2, c);
}

/* A small round badge: XOR (a circled plus) or multicast (one dot fanning out to three). */
static void badge(vpaint *P, vpt c, float r, int xor_kind)
{
    SDL_Color w = {255, 255, 255, 255};
    paint_disc(P, c, r, xor_kind ? COL_XOR : COL_MCAST);
    float lw = r * 0.28f;
    if (xor_kind) {
        paint_line(P, (vpt){c.x - r * 0.6f, c.y}, (vpt){c.x + r * 0.6f, c.y}, lw, w);
        paint_line(P, (vpt){c.x, c.y - r * 0.6f}, (vpt){c.x, c.y + r * 0.6f}, lw, w);
    } else {
        vpt from = {c.x - r * 0.5f, c.y};
        for (int i = -1; i <= 1; i++) paint_line(P, from, (vpt){c.x + r * 0.55f, c.y + (float)i * r * 0.55f}, lw, w);
    }
}

static void draw_router(vpaint *P, const vlayout *L, const vstats *S, int r, vpt c, int selected)
{
    float s = L->rs, x = c.x - s, y = c.y - s, side = 2 * s;
    paint_rect(P, x, y, side, side, COL_ROUTER);
    int cap = S->capacity > 0 ? S->capacity : S->max_buffered;
    if (S->has_buffered && cap > 0 && S->buffered[r] > 0) {
        double f = (double)S->buffered[r] / cap;
        if (f > 1) f = 1;
        float h = (float)(f * side);
        if (h < 2) h = 2; /* one buffered flit stays visible */
        paint_rect(P, x, y + side - h, side, h, COL_FILL);
    }
    float bw = selected ? 3.0f : side > 30 ? 2.0f : 1.0f;
    paint_frame(P, x, y, side, side, bw, selected ? COL_SEL : COL_INK);
    if (side >= 22) {
        char id[16];
        snprintf(id, sizeof id, "%d", r);
        paint_text(P, P->small, id, c.x, c.y - (float)TTF_FontHeight(P->small) / 2, ALIGN_CENTER, COL_INK);
    }
    float br = s * 0.42f;
    if (br < 4) br = 4;
    if (S->has_xor && S->xor_active[r]) badge(P, (vpt){x, y}, br, 1);
    if (S->has_mcast && S->mcast_active[r]) badge(P, (vpt){x + side, y}, br, 0);
}

static void draw_terminal(vpaint *P, const vlayout *L, const vstats *S, int term, int selected)
{
    vpt c = L->term[term];
    float s = L->ts, x = c.x - s / 2, y = c.y - s / 2;
    /* without node states (a replay, a traffic generator) a plain box: no state to show */
    int st = S->has_state ? S->state[term] : VIEW_NODE_IDLE;
    paint_rect(P, x, y, s, s, S->has_state ? color_state(st) : COL_TERM);
    paint_frame(P, x, y, s, s, selected ? 2.5f : 1.0f, selected ? COL_SEL : COL_INK);
    if (s >= 12 && S->has_state) {
        char txt[16];
        if (S->has_step && S->step[term] >= 0) snprintf(txt, sizeof txt, "%c%d", letter_state(st), S->step[term]);
        else snprintf(txt, sizeof txt, "%c", letter_state(st));
        paint_text(P, P->small, txt, c.x, c.y - (float)TTF_FontHeight(P->small) / 2, ALIGN_CENTER, COL_INK);
    }
}

/* ---- labels that overlap nothing */

typedef struct {
    vlabels *out;
    SDL_FRect *box; /* boxes taken: routers, terminals, labels placed so far */
    int n, cap;
    SDL_FRect area;
} placer;

static void take(placer *pl, SDL_FRect b)
{
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? 2 * pl->cap : 256;
        pl->box = realloc(pl->box, (size_t)pl->cap * sizeof *pl->box);
        if (!pl->box) abort();
    }
    pl->box[pl->n++] = b;
}

static int overlaps(SDL_FRect a, SDL_FRect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* b is free: inside the drawing, clear of every box taken */
static int is_free(const placer *pl, SDL_FRect b)
{
    if (b.x < pl->area.x || b.y < pl->area.y || b.x + b.w > pl->area.x + pl->area.w ||
        b.y + b.h > pl->area.y + pl->area.h)
        return 0;
    for (int i = 0; i < pl->n; i++)
        if (overlaps(b, pl->box[i])) return 0;
    return 1;
}

static void record(placer *pl, SDL_FRect b, int kind, int id)
{
    take(pl, b);
    vlabels *o = pl->out;
    if (!o) return;
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 256;
        o->box = realloc(o->box, (size_t)o->cap * sizeof *o->box);
        o->kind = realloc(o->kind, (size_t)o->cap * sizeof *o->kind);
        o->id = realloc(o->id, (size_t)o->cap * sizeof *o->id);
        if (!o->box || !o->kind || !o->id) abort();
    }
    o->box[o->n] = b;
    o->kind[o->n] = kind;
    o->id[o->n++] = id;
}

/* the point at fraction f of a path's length */
static vpt path_at(const vpath *p, float f)
{
    float total = 0;
    for (int i = 1; i < p->npts; i++)
        if (i != p->split) total += hypotf(p->p[i].x - p->p[i - 1].x, p->p[i].y - p->p[i - 1].y);
    float want = total * f;
    for (int i = 1; i < p->npts; i++) {
        if (i == p->split) continue;
        float d = hypotf(p->p[i].x - p->p[i - 1].x, p->p[i].y - p->p[i - 1].y);
        if (d >= want && d > 0)
            return (vpt){p->p[i - 1].x + (p->p[i].x - p->p[i - 1].x) * want / d,
                         p->p[i - 1].y + (p->p[i].y - p->p[i - 1].y) * want / d};
        want -= d;
    }
    return p->p[p->npts - 1];
}

/* "0.54" on a small white card along a channel's path: a third of the way
 * first (the two directions of a link and links that cross in the middle
 * keep their numbers apart), else the first free place of a few more */
static void value_label(vpaint *P, placer *pl, const vpath *p, double u, int id)
{
    if (p->npts < 2) return;
    char txt[16];
    snprintf(txt, sizeof txt, u >= 0.995 ? "1.0" : "%.2f", u);
    int w = 0, h = 0;
    TTF_SizeText(P->small, txt, &w, &h);
    static const float at[] = {0.33f, 0.25f, 0.42f, 0.18f, 0.5f, 0.12f};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        vpt c = path_at(p, at[k]);
        SDL_FRect b = {c.x - (float)w / 2 - 1, c.y - (float)h / 2, (float)w + 2, (float)h};
        if (!is_free(pl, b)) continue;
        paint_rect(P, b.x, b.y, b.w, b.h, (SDL_Color){255, 255, 255, 225});
        paint_text(P, P->small, txt, c.x, b.y, ALIGN_CENTER, COL_INK);
        record(pl, b, LABEL_VALUE, id);
        return;
    }
}

/* "t5" next to a terminal's box: on its side away from its router first
 * (clear of the injection and ejection arrows), then the other sides */
static void term_label(vpaint *P, placer *pl, const vlayout *L, const topo *t, int term)
{
    char txt[16];
    snprintf(txt, sizeof txt, "t%d", term);
    int w = 0, h = 0;
    TTF_SizeText(P->small, txt, &w, &h);
    vpt c = L->term[term];
    float s = L->ts / 2 + 1, fw = (float)w, fh = (float)h;
    SDL_FRect cand[4] = {{c.x - fw / 2, c.y + s, fw, fh},
                         {c.x - fw / 2, c.y - s - fh, fw, fh},
                         {c.x + s, c.y - fh / 2, fw, fh},
                         {c.x - s - fw, c.y - fh / 2, fw, fh}};
    vpt r = L->router[topo_term_router(t, term)];
    float away[4] = {c.y - r.y, r.y - c.y, c.x - r.x, r.x - c.x}; /* below, above, right, left */
    int order[4] = {0, 1, 2, 3};
    for (int a = 1; a < 4; a++)
        for (int b = a; b > 0 && away[order[b]] > away[order[b - 1]] + 0.5f; b--) {
            int x = order[b];
            order[b] = order[b - 1];
            order[b - 1] = x;
        }
    for (int i = 0; i < 4; i++) {
        int k = order[i];
        if (is_free(pl, cand[k])) {
            paint_text(P, P->small, txt, cand[k].x, cand[k].y, ALIGN_LEFT, COL_INK);
            record(pl, cand[k], LABEL_TERM, term);
            return;
        }
    }
}

static vpt router_at(const vlayout *L, const topo *t, int k, int r)
{
    return k ? L->copy[(size_t)(k - 1) * (size_t)t->nrouters + (size_t)r] : L->router[r];
}

static const SDL_Color COL_REGION = {228, 232, 242, 255}, COL_REGION_EDGE = {190, 196, 212, 255};

static void draw_regions(vpaint *P, const vlayout *L)
{
    for (int i = 0; i < L->nregions; i++) {
        const vregion *g = &L->region[i];
        if (g->disc) {
            paint_disc(P, (vpt){g->x, g->y}, g->w, COL_REGION_EDGE);
            paint_disc(P, (vpt){g->x, g->y}, g->w - 1.5f, COL_REGION);
        } else {
            paint_rect(P, g->x, g->y, g->w, g->h, COL_REGION);
            paint_frame(P, g->x, g->y, g->w, g->h, 1, COL_REGION_EDGE);
        }
    }
}

void scene_draw(vpaint *P, const vlayout *L, const topo *t, const vstats *S, const vscene *sc)
{
    paint_rect(P, (float)L->net.x, (float)L->net.y, (float)L->net.w, (float)L->net.h, COL_BG);
    draw_regions(P, L);
    int nch = t->nterms * t->k;
    /* the dragonfly's global chords first: where they cross a group, its local links stay on top */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->nlinks; i++)
            if ((L->kind[i] == LINK_GLOBAL) == !pass)
                draw_channel(P, &L->link[i], L->lw * link_width(L->kind[i]), color_util(shown_util(S, sc, i)),
                             sc->sel_kind == HIT_LINK && sc->sel_id == i);
    float tl = L->lw * 0.7f < 1.2f ? 1.2f : L->lw * 0.7f;
    for (int ch = 0; ch < nch; ch++) {
        draw_channel(P, &L->inj[ch], tl, color_util(shown_util(S, sc, S->nlinks + ch)), 0);
        draw_channel(P, &L->ej[ch], tl, color_util(shown_util(S, sc, S->nlinks + nch + ch)), 0);
    }
    for (int k = 0; k <= L->ncopies; k++)
        for (int r = 0; r < t->nrouters; r++)
            draw_router(P, L, S, r, router_at(L, t, k, r), sc->sel_kind == HIT_ROUTER && sc->sel_id == r);
    for (int term = 0; term < t->nterms; term++)
        draw_terminal(P, L, S, term, sc->sel_kind == HIT_TERM && sc->sel_id == term);

    placer pl = {.out = sc->placed, .area = {(float)L->net.x, (float)L->net.y, (float)L->net.w, (float)L->net.h}};
    if (pl.out) pl.out->n = 0;
    float rs = L->rs, ts = L->ts / 2;
    for (int k = 0; k <= L->ncopies; k++)
        for (int r = 0; r < t->nrouters; r++) {
            vpt c = router_at(L, t, k, r);
            take(&pl, (SDL_FRect){c.x - rs, c.y - rs, 2 * rs, 2 * rs});
        }
    for (int term = 0; term < t->nterms; term++)
        take(&pl, (SDL_FRect){L->term[term].x - ts, L->term[term].y - ts, 2 * ts, 2 * ts});
    for (int i = 0; i < L->nregions; i++) { /* captions: "group 3", "z links: a row per x,y" */
        const vregion *g = &L->region[i];
        /* "group 12", or "g12" where that does not fit */
        const char *cap[2] = {g->caption, strncmp(g->caption, "group ", 6) ? NULL : g->caption + 5};
        char shortcap[64];
        if (cap[1]) {
            snprintf(shortcap, sizeof shortcap, "g%s", cap[1] + 1);
            cap[1] = shortcap;
        }
        for (int k = 0; k < 2 && cap[k]; k++) {
            int w = 0, h = 0;
            TTF_SizeUTF8(P->small, cap[k], &w, &h);
            SDL_FRect b = {g->cap_at.x - (float)w / 2, g->cap_at.y - (float)h / 2, (float)w, (float)h};
            if (!is_free(&pl, b)) continue;
            paint_text(P, P->small, cap[k], g->cap_at.x, b.y, ALIGN_CENTER, COL_GRID);
            record(&pl, b, LABEL_CAPTION, i);
            break;
        }
    }
    if (sc->labels) {
        /* flits per cycle (not the colour scale), only on links that carried traffic: an idle
         * link is already dark blue.  Busiest first, so a crowded picture keeps the numbers
         * that matter. */
        int *order = malloc((size_t)t->nlinks * sizeof *order), n = 0;
        if (!order) abort();
        for (int i = 0; i < t->nlinks; i++)
            if (stats_util_total(S, i) >= 0.005) order[n++] = i;
        for (int a = 1; a < n; a++) /* insertion sort: a few hundred links at most */
            for (int b = a; b > 0 && stats_util_total(S, order[b]) > stats_util_total(S, order[b - 1]); b--) {
                int x = order[b];
                order[b] = order[b - 1];
                order[b - 1] = x;
            }
        for (int term = 0; term < t->nterms; term++) term_label(P, &pl, L, t, term);
        for (int i = 0; i < n; i++) value_label(P, &pl, &L->link[order[i]], stats_util_total(S, order[i]), order[i]);
        free(order);
    }
    free(pl.box);
}
