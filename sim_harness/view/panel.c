/* panel.c - the side panel: cycle counter and simulation rate, the legend
 * (utilization color scale, node states, router fill and badges), the
 * counters of the clicked link / router / terminal, and the key help. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "view_impl.h"

typedef struct {
    vpaint *P;
    float x, y, w;
} cursor;

static void line(cursor *c, TTF_Font *f, const char *s, SDL_Color col)
{
    paint_text_fit(c->P, f, s, c->x, c->y, c->w, col); /* never past the panel's edge */
    c->y += (float)TTF_FontLineSkip(f);
}

static void linef(cursor *c, TTF_Font *f, SDL_Color col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void linef(cursor *c, TTF_Font *f, SDL_Color col, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    line(c, f, buf, col);
}

static const char *port_name(const topo *t, int r, int p, char *buf, size_t n)
{
    if (p < t->nnet) topo_port_name_at(t, r, p, buf, n);
    else snprintf(buf, n, "t%d", (p - t->nnet) / t->k);
    return buf;
}

static void human_rate(double r, char *buf, size_t n)
{
    if (r >= 1e6) snprintf(buf, n, "%.2f M cycles/s", r / 1e6);
    else if (r >= 1e3) snprintf(buf, n, "%.1f k cycles/s", r / 1e3);
    else snprintf(buf, n, "%.0f cycles/s", r);
}

static void legend(cursor *c, const vlayout *L, const topo *t, const vstats *S, const vscene *sc)
{
    vpaint *P = c->P;
    line(c, P->font, "link utilization", COL_INK);
    if (sc->mode == SCENE_HEATMAP && S->active_to > S->active_from)
        linef(c, P->small, COL_GRID, "flits/cycle over cycles %llu-%llu", (unsigned long long)S->active_from,
              (unsigned long long)S->active_to);
    else if (sc->mode == SCENE_HEATMAP)
        linef(c, P->small, COL_GRID, "flits/cycle over the run (%llu cycles)", (unsigned long long)S->cycle);
    else linef(c, P->small, COL_GRID, "flits/cycle, last %llu cycles", (unsigned long long)S->window);
    float bh = 14, bw = c->w;
    paint_util_bar(P, c->x, c->y, bw, bh);
    paint_frame(P, c->x, c->y, bw, bh, 1, COL_INK);
    c->y += bh + 2;
    double s = sc->scale > 0 ? sc->scale : 1;
    char lab[32];
    snprintf(lab, sizeof lab, "%.2g", s / 2);
    paint_text(P, P->small, "0", c->x, c->y, ALIGN_LEFT, COL_INK);
    paint_text(P, P->small, lab, c->x + bw / 2, c->y, ALIGN_CENTER, COL_INK);
    snprintf(lab, sizeof lab, "%.2g", s);
    paint_text(P, P->small, lab, c->x + bw, c->y, ALIGN_RIGHT, COL_INK);
    c->y += (float)TTF_FontLineSkip(P->small) + 8;

    float box = (float)TTF_FontHeight(P->small), colw = c->w / 2;
    if (topo_draw(t) == TOPO_DRAW_GROUPS) { /* how the two kinds of links look */
        float y = c->y + box / 2, lw = L->lw;
        paint_line(P, (vpt){c->x, y}, (vpt){c->x + 2 * box, y}, lw * 1.5f, color_util(0.5));
        paint_text(P, P->small, "local link", c->x + 2 * box + 5, c->y, ALIGN_LEFT, COL_INK);
        vpt arc[9];
        for (int i = 0; i < 9; i++) {
            float f = (float)i / 8;
            arc[i] = (vpt){c->x + colw + 2 * box * f, y + box * 0.35f - box * 1.4f * f * (1 - f)};
        }
        paint_polyline(P, arc, 9, lw * 0.8f, color_util(0.5));
        paint_text(P, P->small, "global link", c->x + colw + 2 * box + 5, c->y, ALIGN_LEFT, COL_INK);
        c->y += box + 8;
    }

    /* node states: a row for each state some node is in, none without states */
    int seen[VIEW_NODE_NSTATES] = {0}, nseen = 0, steps = 0;
    for (int i = 0; S->has_state && i < S->nterms; i++)
        if (S->state[i] < VIEW_NODE_NSTATES && !seen[S->state[i]]++) nseen++;
    for (int i = 0; S->has_step && i < S->nterms; i++) steps |= S->step[i] >= 0;
    if (nseen) {
        line(c, P->font, "node state", COL_INK);
        for (int st = 0, k = 0; st < VIEW_NODE_NSTATES; st++) {
            if (!seen[st]) continue;
            float x = c->x + (float)(k % 2) * colw, y = c->y + (float)(k / 2) * (box + 4);
            char txt[40];
            paint_rect(P, x, y, box, box, color_state(st));
            paint_frame(P, x, y, box, box, 1, COL_INK);
            snprintf(txt, sizeof txt, "%c", letter_state(st));
            paint_text(P, P->small, txt, x + box / 2, y, ALIGN_CENTER, COL_INK);
            paint_text(P, P->small, name_state(st), x + box + 5, y, ALIGN_LEFT, COL_INK);
            k++;
        }
        c->y += (float)((nseen + 1) / 2) * (box + 4);
        if (steps) line(c, P->small, "number after the letter: collective step", COL_GRID);
        c->y += 6;
    }

    float y0 = c->y;
    int filled = 0; /* a row for the router fill when some router shows one */
    for (int r = 0; S->has_buffered && r < S->nrouters; r++) filled |= S->buffered[r] > 0;
    if (filled) {
        paint_rect(P, c->x, y0, box, box, COL_ROUTER);
        paint_rect(P, c->x, y0 + box / 2, box, box / 2, COL_FILL);
        paint_frame(P, c->x, y0, box, box, 1, COL_INK);
        paint_text(P, P->small, "router fill: buffered flits", c->x + box + 5, y0, ALIGN_LEFT, COL_INK);
        y0 += box + 4;
    }
    /* the badges only when some coding unit worked (the counters are cumulative) */
    int xor_seen = 0, mc_seen = 0;
    for (int r = 0; r < S->nrouters; r++) {
        xor_seen |= S->has_xor && S->xor_ops[r] > 0;
        mc_seen |= S->has_mcast && S->mcast[r] > 0;
    }
    float x = c->x;
    if (xor_seen) {
        paint_disc(P, (vpt){x + box / 2, y0 + box / 2}, box / 2, COL_XOR);
        paint_text(P, P->small, "XOR reduction", x + box + 5, y0, ALIGN_LEFT, COL_INK);
        x += colw;
    }
    if (mc_seen) {
        paint_disc(P, (vpt){x + box / 2, y0 + box / 2}, box / 2, COL_MCAST);
        paint_text(P, P->small, "multicast copy", x + box + 5, y0, ALIGN_LEFT, COL_INK);
    }
    if (xor_seen || mc_seen) y0 += box + 4;
    c->y = y0 + 6;
}

static void selection(cursor *c, const topo *t, const vstats *S, const vscene *sc)
{
    vpaint *P = c->P;
    char a[16], b[16];
    int id = sc->sel_id;
    switch (sc->sel_kind) {
    case HIT_LINK: {
        const topo_link *l = &t->links[id];
        linef(c, P->font, COL_SEL, "link %d: router %d %s -> %d", id, l->src,
              port_name(t, l->src, l->src_port, a, sizeof a), l->dst);
        linef(c, P->small, COL_INK, "flits sent: %llu", (unsigned long long)S->now[id]);
        linef(c, P->small, COL_INK, "now: %.3f flits/cycle", stats_util(S, id));
        if (S->active_to > S->active_from)
            linef(c, P->small, COL_INK, "cycles %llu-%llu: %.3f flits/cycle", (unsigned long long)S->active_from,
                  (unsigned long long)S->active_to, stats_util_total(S, id));
        else linef(c, P->small, COL_INK, "whole run: %.3f flits/cycle", stats_util_total(S, id));
        if (l->dateline) line(c, P->small, "dateline link (VC class 1)", COL_INK);
        break;
    }
    case HIT_ROUTER: {
        char lab[96];
        topo_router_label(t, id, lab, sizeof lab);
        line(c, P->font, lab, COL_SEL);
    }
        if (S->has_buffered && S->capacity > 0)
            linef(c, P->small, COL_INK, "buffered flits: %d of %d", S->buffered[id], S->capacity);
        else if (S->has_buffered) linef(c, P->small, COL_INK, "buffered flits: %d", S->buffered[id]);
        if (S->has_xor) linef(c, P->small, COL_INK, "XOR reductions: %u", S->xor_ops[id]);
        if (S->has_mcast) linef(c, P->small, COL_INK, "multicast copies: %u", S->mcast[id]);
        for (int p = 0; p < t->nnet; p++) {
            int l = t->out_link[id * t->nports + p];
            if (l >= 0)
                linef(c, P->small, COL_INK, "out %s: %llu flits, %.3f now", port_name(t, id, p, b, sizeof b),
                      (unsigned long long)S->now[l], stats_util(S, l));
        }
        break;
    case HIT_TERM: {
        int st = S->has_state ? S->state[id] : VIEW_NODE_IDLE;
        linef(c, P->font, COL_SEL, "terminal %d on router %d", id, topo_term_router(t, id));
        linef(c, P->small, COL_INK, "state: %s", name_state(st));
        if (S->has_step && S->step[id] >= 0) linef(c, P->small, COL_INK, "collective step: %d", S->step[id]);
        for (int ch = 0; ch < t->k; ch++) {
            int i = S->nlinks + id * t->k + ch, e = i + S->nch;
            linef(c, P->small, COL_INK, "ch %d in: %llu flits, %.3f now", ch, (unsigned long long)S->now[i],
                  stats_util(S, i));
            linef(c, P->small, COL_INK, "ch %d out: %llu flits, %.3f now", ch, (unsigned long long)S->now[e],
                  stats_util(S, e));
        }
        break;
    }
    default: break;
    }
}

void panel_draw(vpaint *P, const vlayout *L, const topo *t, const vstats *S, const vscene *sc)
{
    const SDL_Rect *R = &L->panel;
    paint_rect(P, (float)R->x, (float)R->y, (float)R->w, (float)R->h, COL_PANEL);
    paint_rect(P, (float)R->x, (float)R->y, 1, (float)R->h, COL_GRID);
    cursor c = {P, (float)R->x + 14, (float)R->y + 10, (float)R->w - 28};
    char buf[64];
    /* the topology, then the caption on a line of its own (without the topology again), both cut to fit */
    paint_text_fit(P, P->font, t->name, c.x, c.y, c.w, COL_INK);
    c.y += (float)TTF_FontLineSkip(P->font);
    const char *title = sc->title;
    size_t nl = strlen(t->name);
    if (title && !strncmp(title, t->name, nl) && (title[nl] == ',' || title[nl] == ' ' || !title[nl])) {
        title += nl;
        while (*title == ',' || *title == ' ') title++;
    }
    if (title && *title) {
        paint_text_fit(P, P->small, title, c.x, c.y, c.w, COL_INK);
        c.y += (float)TTF_FontLineSkip(P->small);
    }
    if (sc->mode == SCENE_HEATMAP && S->active_to > S->active_from)
        linef(&c, P->big, COL_INK, "traffic: %llu cycles", (unsigned long long)stats_heat_cycles(S));
    else if (sc->mode == SCENE_HEATMAP) linef(&c, P->big, COL_INK, "run: %llu cycles", (unsigned long long)S->cycle);
    else linef(&c, P->big, COL_INK, "cycle %llu", (unsigned long long)S->cycle);
    if (S->rate > 0 && sc->mode == SCENE_LIVE) { /* a heatmap or a replay has no simulation rate */
        human_rate(S->rate, buf, sizeof buf);
        line(&c, P->small, buf, COL_INK);
    }
    if (S->status[0]) line(&c, P->small, S->status, COL_INK);
    if (sc->controls) line(&c, P->small, sc->controls, COL_SEL);
    c.y += 10;
    legend(&c, L, t, S, sc);
    selection(&c, t, S, sc);
    if (sc->controls) {
        float lh = (float)TTF_FontLineSkip(P->small);
        c.y = (float)(R->y + R->h) - 3 * lh - 8;
        line(&c, P->small, "space pause/resume   n or \xe2\x86\x92 step", COL_GRID);
        line(&c, P->small, "+ / - faster / slower   click: details", COL_GRID);
        line(&c, P->small, "q or Esc: quit", COL_GRID);
    }
}
