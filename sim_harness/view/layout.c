/* layout.c - where things go: the topology as people draw it.
 *
 * Router positions come from topo->x/y (a grid for mesh and torus, a circle
 * for the octagon).  Every directed channel gets its own polyline, offset to
 * the right of its direction of travel, so the two halves of a full-duplex
 * pair are two parallel lines.  Torus wrap links leave the grid at one edge
 * and come back at the other: two curved stubs flaring out into the margin.
 * Terminals are small boxes next to their router (grid: the lower-right
 * quadrant; octagon: radially outside), joined by short injection and
 * ejection lines.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "view_impl.h"
#include "util/cli.h"

static vpt P(float x, float y) { return (vpt){x, y}; }
static vpt add(vpt a, vpt b) { return P(a.x + b.x, a.y + b.y); }
static vpt mul(vpt a, float k) { return P(a.x * k, a.y * k); }
static vpt unit(vpt a, vpt b)
{
    float dx = b.x - a.x, dy = b.y - a.y, n = sqrtf(dx * dx + dy * dy);
    return n > 0 ? P(dx / n, dy / n) : P(1, 0);
}
/* Right-hand side of direction u on screen (y grows downwards). */
static vpt right_of(vpt u) { return P(-u.y, u.x); }
/* How far a ray from o (relative to the centre of a square of half side h,
 * inside it) travels along u before it leaves the square. */
static float box_exit(vpt o, vpt u, float h)
{
    float s = 1e30f;
    if (fabsf(u.x) > 1e-6f) s = fminf(s, ((u.x > 0 ? h : -h) - o.x) / u.x);
    if (fabsf(u.y) > 1e-6f) s = fminf(s, ((u.y > 0 ? h : -h) - o.y) / u.y);
    return s < 0 ? 0 : s;
}

/* From box a (half side ha) to box b, offset `off` to the right, with a gap
 * between the line ends and the boxes. */
static void straight(vpath *p, vpt a, vpt b, float ha, float hb, float off, float gap)
{
    vpt u = unit(a, b), n = mul(right_of(u), off);
    p->npts = 2;
    p->split = 0;
    p->p[0] = add(add(a, n), mul(u, box_exit(n, u, ha) + gap));
    p->p[1] = add(add(b, n), mul(u, -(box_exit(n, mul(u, -1), hb) + gap)));
}

/* Quadratic Bezier from a via control c to b, appended to the path. */
static void curve(vpath *p, vpt a, vpt c, vpt b, int steps)
{
    for (int i = 0; i <= steps && p->npts < PATH_MAX_PTS; i++) {
        float s = (float)i / (float)steps, r = 1 - s;
        p->p[p->npts++] = P(r * r * a.x + 2 * r * s * c.x + s * s * b.x, r * r * a.y + 2 * r * s * c.y + s * s * b.y);
    }
}

/* A torus wrap link: out of a along u into the margin, back in at b. */
static void wrap(vpath *p, vpt a, vpt b, vpt u, float c, float rs, float off, float gap)
{
    vpt n = right_of(u), o = mul(n, off), flare = mul(n, off + 0.22f * c);
    float trim = rs + gap, reach = 0.92f * c;
    p->npts = 0;
    curve(p, add(add(a, o), mul(u, trim)), add(add(a, o), mul(u, 0.85f * c)), add(add(a, flare), mul(u, reach)), 8);
    p->split = p->npts;
    curve(p, add(add(b, flare), mul(u, -reach)), add(add(b, o), mul(u, -0.85f * c)), add(add(b, o), mul(u, -trim)), 8);
}

static int is_wrap(const topo *t, const topo_link *l)
{
    return t->kind == TOPO_TORUS && l->dateline; /* the datelines are the wrap links */
}

/* Unit vector of the travel direction of a grid port (n-D: even dimensions
 * run along the columns, odd ones along the rows, topo_grid_pos). */
static vpt port_dir(int port)
{
    static const vpt d[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    return d[port & 3];
}

int layout_build(vlayout *L, const topo *t, int width, int height)
{
    memset(L, 0, sizeof *L);
    int pw = width * 28 / 100;
    if (pw < 230) pw = 230;
    int cap = 330 * height / 720 > 330 ? 330 * height / 720 : 330; /* the fonts grow with the height */
    if (pw > cap) pw = cap;
    L->panel = (SDL_Rect){width - pw, 0, pw, height};
    L->net = (SDL_Rect){0, 0, width - pw, height};
    int nch = t->nterms * t->k;
    L->router = xcalloc((size_t)t->nrouters, sizeof *L->router);
    L->term = xcalloc((size_t)t->nterms, sizeof *L->term);
    L->link = xcalloc((size_t)t->nlinks + 1, sizeof *L->link);
    L->inj = xcalloc((size_t)nch, sizeof *L->inj);
    L->ej = xcalloc((size_t)nch, sizeof *L->ej);

    float pad = 14, aw = (float)L->net.w - 2 * pad, ah = (float)L->net.h - 2 * pad;
    float cx = (float)L->net.x + (float)L->net.w / 2, cy = (float)L->net.y + (float)L->net.h / 2;
    /* sizes in units of c, the distance between neighbouring routers */
    const float RS = 0.16f, TGAP = 0.20f, GAP = 0.025f;
    int circle = t->kind == TOPO_OCTAGON || t->kind == TOPO_DRAGONFLY; /* routers on a circle (topo.c) */
    int rows = circle || t->conc <= 2 ? 1 : (t->conc + 1) / 2;
    int per_line = circle ? t->conc : t->conc <= 2 ? t->conc : 2;
    float TS = fminf(0.15f, 0.40f / (float)(rows > per_line ? rows : per_line));
    float c, gw, gh; /* gw x gh: the extent the topo x/y range [0,1] is mapped to */
    if (circle) {
        /* leave room outside the circle for the terminals; c: the chord between neighbours
         * (the dragonfly's groups take 70% of their arc, topo.c) */
        gw = gh = fminf(aw, ah) * 0.80f;
        c = t->kind == TOPO_OCTAGON ? gw * 0.84f * sinf((float)M_PI / 8)
                                    : gw * 0.8f * sinf(0.7f * (float)M_PI / (float)t->nrouters);
    } else {
        /* terminals stick out of the last row and column; torus wrap stubs need a margin */
        float over_x = fmaxf(0, RS + TGAP + (float)per_line * (TS + GAP) - 0.5f);
        float over_y = fmaxf(0, RS + TGAP + (float)rows * (TS + GAP) - 0.5f);
        float extra = t->kind == TOPO_TORUS ? 1.3f : 0.1f;
        int cols, rows;
        topo_grid_size(t, &cols, &rows);
        c = fminf(aw / ((float)cols + extra + over_x), ah / ((float)rows + extra + over_y));
        gw = c * (float)cols;
        gh = c * (float)rows;
        cx -= over_x * c / 2;
        cy -= over_y * c / 2;
    }
    for (int r = 0; r < t->nrouters; r++)
        L->router[r] = P(cx + ((float)t->x[r] - 0.5f) * gw, cy + ((float)t->y[r] - 0.5f) * gh);

    L->rs = RS * c;
    L->ts = TS * c;
    L->lw = fmaxf(1.5f, 0.035f * c);
    float off = fmaxf(L->lw * 0.9f, 0.065f * c), gap = fmaxf(2.0f, GAP * c), tgap = TGAP * c;

    for (int term = 0; term < t->nterms; term++) {
        int r = topo_term_router(t, term), j = term % t->conc;
        vpt rc = L->router[r];
        if (circle) {
            vpt out = unit(P(cx, cy), rc), tan = right_of(out);
            float lat = ((float)j - (float)(t->conc - 1) / 2) * (L->ts + gap);
            L->term[term] = add(add(rc, mul(out, L->rs * 1.2f + tgap + L->ts / 2)), mul(tan, lat));
        } else {
            int col = j % per_line, row = j / per_line;
            float base = L->rs + tgap + L->ts / 2;
            L->term[term] = add(rc, P(base + (float)col * (L->ts + gap), base + (float)row * (L->ts + gap)));
        }
        for (int ch = 0; ch < t->k; ch++) {
            /* k channels per terminal side by side: spread their offsets */
            float o = off * 0.6f * (1.0f + 1.4f * (float)ch);
            straight(&L->inj[term * t->k + ch], L->term[term], rc, L->ts / 2, L->rs, o, gap * 0.5f);
            straight(&L->ej[term * t->k + ch], rc, L->term[term], L->rs, L->ts / 2, o, gap * 0.5f);
        }
    }
    for (int i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (is_wrap(t, l))
            wrap(&L->link[i], L->router[l->src], L->router[l->dst], port_dir(l->src_port), c, L->rs, off, gap);
        else straight(&L->link[i], L->router[l->src], L->router[l->dst], L->rs, L->rs, off, gap);
    }
    return 0;
}

void layout_free(vlayout *L)
{
    free(L->router);
    free(L->term);
    free(L->link);
    free(L->inj);
    free(L->ej);
    memset(L, 0, sizeof *L);
}

static float seg_dist(vpt p, vpt a, vpt b)
{
    float dx = b.x - a.x, dy = b.y - a.y, n = dx * dx + dy * dy;
    float s = n > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / n : 0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    float ex = a.x + s * dx - p.x, ey = a.y + s * dy - p.y;
    return sqrtf(ex * ex + ey * ey);
}

static float path_dist(const vpath *p, vpt q)
{
    float best = 1e30f;
    for (int i = 0; i + 1 < p->npts; i++)
        if (i + 1 != p->split) best = fminf(best, seg_dist(q, p->p[i], p->p[i + 1]));
    return best;
}

int layout_hit(const vlayout *L, const topo *t, int x, int y, int *id)
{
    vpt q = P((float)x, (float)y);
    for (int i = 0; i < t->nterms; i++)
        if (fabsf(q.x - L->term[i].x) <= L->ts / 2 + 1 && fabsf(q.y - L->term[i].y) <= L->ts / 2 + 1) {
            *id = i;
            return HIT_TERM;
        }
    for (int r = 0; r < t->nrouters; r++)
        if (fabsf(q.x - L->router[r].x) <= L->rs && fabsf(q.y - L->router[r].y) <= L->rs) {
            *id = r;
            return HIT_ROUTER;
        }
    float best = fmaxf(4.0f, L->lw * 1.5f);
    int hit = HIT_NONE;
    for (int i = 0; i < t->nlinks; i++) {
        float d = path_dist(&L->link[i], q);
        if (d <= best) {
            best = d;
            *id = i;
            hit = HIT_LINK;
        }
    }
    return hit;
}
