/* scene.c - the network picture: links colored by utilization, routers with
 * their buffer fill level and XOR/multicast badges, terminals colored by
 * node state with their collective step.  Links are drawn first so router
 * and terminal boxes sit on top of the line ends. */
#include <math.h>
#include <stdio.h>

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

static void draw_router(vpaint *P, const vlayout *L, const vstats *S, int r, int selected)
{
    vpt c = L->router[r];
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
    int st = S->has_state ? S->state[term] : VIEW_NODE_IDLE;
    paint_rect(P, x, y, s, s, color_state(st));
    paint_frame(P, x, y, s, s, selected ? 2.5f : 1.0f, selected ? COL_SEL : COL_INK);
    if (s >= 12) {
        char txt[16];
        if (S->has_step && S->step[term] >= 0) snprintf(txt, sizeof txt, "%c%d", letter_state(st), S->step[term]);
        else snprintf(txt, sizeof txt, "%c", letter_state(st));
        paint_text(P, P->small, txt, c.x, c.y - (float)TTF_FontHeight(P->small) / 2, ALIGN_CENTER, COL_INK);
    }
}

/* "0.54" a third of the way along a channel's path, on a small white card
 * (a third, not the middle: the two directions of a link and links that
 * cross in the middle keep their numbers apart) */
static void value_label(vpaint *P, const vpath *p, double u)
{
    if (p->npts < 2) return;
    float total = 0;
    for (int i = 1; i < p->npts; i++) total += hypotf(p->p[i].x - p->p[i - 1].x, p->p[i].y - p->p[i - 1].y);
    float want = total / 3, x = p->p[0].x, y = p->p[0].y;
    for (int i = 1; i < p->npts; i++) {
        float d = hypotf(p->p[i].x - p->p[i - 1].x, p->p[i].y - p->p[i - 1].y);
        if (d >= want && d > 0) {
            x = p->p[i - 1].x + (p->p[i].x - p->p[i - 1].x) * want / d;
            y = p->p[i - 1].y + (p->p[i].y - p->p[i - 1].y) * want / d;
            break;
        }
        want -= d;
    }
    char txt[16];
    snprintf(txt, sizeof txt, u >= 0.995 ? "1.0" : u < 0.005 ? "0" : "%.2f", u);
    int w = 0, h = 0;
    TTF_SizeText(P->small, txt, &w, &h);
    paint_rect(P, x - (float)w / 2 - 1, y - (float)h / 2, (float)w + 2, (float)h, (SDL_Color){255, 255, 255, 210});
    paint_text(P, P->small, txt, x, y - (float)h / 2, ALIGN_CENTER, COL_INK);
}

void scene_draw(vpaint *P, const vlayout *L, const topo *t, const vstats *S, const vscene *sc)
{
    paint_rect(P, (float)L->net.x, (float)L->net.y, (float)L->net.w, (float)L->net.h, COL_BG);
    int nch = t->nterms * t->k;
    for (int i = 0; i < t->nlinks; i++)
        draw_channel(P, &L->link[i], L->lw, color_util(shown_util(S, sc, i)),
                     sc->sel_kind == HIT_LINK && sc->sel_id == i);
    float tl = L->lw * 0.7f < 1.2f ? 1.2f : L->lw * 0.7f;
    for (int ch = 0; ch < nch; ch++) {
        draw_channel(P, &L->inj[ch], tl, color_util(shown_util(S, sc, S->nlinks + ch)), 0);
        draw_channel(P, &L->ej[ch], tl, color_util(shown_util(S, sc, S->nlinks + nch + ch)), 0);
    }
    for (int r = 0; r < t->nrouters; r++) draw_router(P, L, S, r, sc->sel_kind == HIT_ROUTER && sc->sel_id == r);
    for (int term = 0; term < t->nterms; term++)
        draw_terminal(P, L, S, term, sc->sel_kind == HIT_TERM && sc->sel_id == term);
    if (sc->labels) { /* values are flits per cycle, not the colour scale */
        for (int i = 0; i < t->nlinks; i++) value_label(P, &L->link[i], stats_util_total(S, i));
        for (int term = 0; term < t->nterms; term++) {
            char id[16];
            snprintf(id, sizeof id, "t%d", term);
            vpt c = L->term[term];
            paint_text(P, P->small, id, c.x, c.y + L->ts / 2, ALIGN_CENTER, COL_INK);
        }
    }
}
