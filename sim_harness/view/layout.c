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
 *
 * A dragonfly is drawn as its groups: the groups on a circle, each group's
 * routers on a small circle of their own inside a shaded disc, local links
 * straight and wide within the disc, global links thinner chords curving
 * through the middle (layout_dragonfly).  A mesh or torus of 3 or more
 * dimensions is drawn as small multiples, one panel per dimension: in
 * panel d every router sits at column coordinate d, one row per ring (the
 * other coordinates), and only dimension d's links are drawn
 * (layout_ndim); the terminals hang off the routers of the first panel.
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

static int is_wrap(const topo_link *l) { return l->kind == TOPO_LINK_WRAP; }

/* a torus: wrap links need room in the margin */
static int has_wraps(const topo *t)
{
    for (int i = 0; i < t->nlinks; i++)
        if (is_wrap(&t->links[i])) return 1;
    return 0;
}

/* Unit vector of the travel direction of a grid port (n-D: even dimensions
 * run along the columns, odd ones along the rows, topo_grid_pos). */
static vpt port_dir(int port)
{
    static const vpt d[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    return d[port & 3];
}

/* A global link: from box a to box b (half side h) along a quadratic curve
 * bending towards ctrl, each point offset `off` to the right of the curve. */
static void chord(vpath *p, vpt a, vpt b, vpt ctrl, float h, float off, float gap)
{
    vpt ua = unit(a, ctrl), ub = unit(b, ctrl);
    vpt a1 = add(a, mul(ua, box_exit(P(0, 0), ua, h) + gap)), b1 = add(b, mul(ub, box_exit(P(0, 0), ub, h) + gap));
    vpath q = {0};
    curve(&q, a1, ctrl, b1, 16);
    p->npts = q.npts;
    p->split = 0;
    for (int i = 0; i < q.npts; i++) {
        vpt u = unit(q.p[i > 0 ? i - 1 : 0], q.p[i + 1 < q.npts ? i + 1 : i]);
        p->p[i] = add(q.p[i], mul(right_of(u), off));
    }
}

static vregion *add_region(vlayout *L, int n)
{
    L->region = xrealloc(L->region, (size_t)(L->nregions + n) * sizeof *L->region);
    memset(L->region + L->nregions, 0, (size_t)n * sizeof *L->region);
    L->nregions += n;
    return L->region + L->nregions - n;
}

/* Dragonfly: groups on a circle of radius R around (cx, cy), the a routers
 * of a group on a circle of radius rg around the group's centre (none of
 * them straight on the inward axis), terminals pointing away from the
 * middle.  Returns c, the distance between neighbouring routers of a group. */
static float layout_dragonfly(vlayout *L, const topo *t, float cx, float cy, float aw, float ah, vpt *tdir)
{
    int G = t->groups, a = t->df_a;
    float S = fminf(aw, ah), R = 0.33f * S;
    float chordlen = G > 1 ? 2 * R * sinf((float)M_PI / (float)G) : R;
    float rg = a > 1 ? 0.27f * chordlen : 0;
    float c = a > 2 ? 2 * rg * sinf((float)M_PI / (float)a) : a == 2 ? 2 * rg : 0.5f * chordlen;
    /* the outermost terminal and the group caption must stay inside */
    float outer = R + rg + 0.9f * c, room = S / 2 - 16;
    if (outer > room) {
        float k = room / outer;
        R *= k;
        rg *= k;
        c *= k;
    }
    vregion *g = add_region(L, G);
    for (int x = 0; x < G; x++) {
        float th = -(float)M_PI / 2 + 2 * (float)M_PI * (float)x / (float)G;
        vpt out = P(cosf(th), sinf(th)), gc = add(P(cx, cy), mul(out, R));
        for (int i = 0; i < a; i++) {
            float ph = th + (float)M_PI / (float)a + 2 * (float)M_PI * (float)i / (float)a;
            int r = x * a + i;
            L->router[r] = add(gc, mul(P(cosf(ph), sinf(ph)), rg));
            /* terminals: away from the group's centre, bent outwards */
            vpt d = add(a > 1 ? unit(gc, L->router[r]) : P(0, 0), mul(out, 1.2f));
            tdir[r] = unit(P(0, 0), d);
        }
        g[x] = (vregion){.x = gc.x, .y = gc.y, .w = rg + 0.34f * c, .disc = 1};
        snprintf(g[x].caption, sizeof g[x].caption, "group %d", x);
        g[x].cap_at = add(gc, mul(out, rg + 0.80f * c));
    }
    for (int i = 0; i < t->nlinks; i++) L->kind[i] = t->links[i].kind == TOPO_LINK_GLOBAL ? LINK_GLOBAL : LINK_LOCAL;
    return c;
}

/* The rank of router r among the routers with its coordinate d: its other
 * coordinates in mixed radix, the lowest dimension fastest. */
static int ring_of(const topo *t, int r, int d)
{
    int row = 0, mul_ = 1;
    for (int e = 0; e < t->ndims; e++)
        if (e != d) {
            row += topo_coord(t, r, e) * mul_;
            mul_ *= t->dims[e];
        }
    return row;
}

/* n-D mesh/torus: one panel per dimension, side by side.  A panel whose
 * rows do not fit one above the other continues them in a second (third...)
 * column of rows: every panel gets at most H rows a column, H chosen for
 * the largest drawing. */
static float layout_ndim(vlayout *L, const topo *t, float cx, float cy, float aw, float ah, float over_x, float over_y)
{
    static const char axis[TOPO_MAX_DIMS] = {'x', 'y', 'z', 'u', 'v', 'w'};
    const float CAP = 1.0f, BGAP = 0.35f, PGAP = 0.35f;
    int D = t->ndims, N = t->nrouters;
    float margin = has_wraps(t) ? 1.3f : 0.3f;
    int rows[TOPO_MAX_DIMS], bsz[TOPO_MAX_DIMS], maxrows = 0;
    for (int d = 0; d < D; d++) {
        rows[d] = N / t->dims[d];
        bsz[d] = t->dims[d == 0 ? 1 : 0]; /* rows come in blocks of the first other dimension */
        if (rows[d] > maxrows) maxrows = rows[d];
    }
    float best = -1, tw = 0, th = 0;
    int H = maxrows;
    for (int h = 1; h <= maxrows; h++) {
        float w = 0, hh = 0;
        for (int d = 0; d < D; d++) {
            int k = (rows[d] + h - 1) / h, used = rows[d] < h ? rows[d] : h;
            w += (float)k * ((float)t->dims[d] + margin) + (d == 0 ? over_x : 0) + (d ? PGAP : 0);
            hh = fmaxf(hh, CAP + (float)used + BGAP * (float)((used - 1) / bsz[d]) + over_y);
        }
        float c = fminf(aw / w, ah / hh);
        if (c > best * 1.02f) { /* fewer columns of rows unless clearly better */
            best = c;
            H = h;
            tw = w;
            th = hh;
        }
    }
    float c = best, x0 = cx - tw * c / 2, y0 = cy - th * c / 2;
    L->ncopies = D - 1;
    L->copy = xcalloc((size_t)(D - 1) * (size_t)N, sizeof *L->copy);
    vregion *g = add_region(L, D);
    for (int d = 0; d < D; d++) {
        vpt *pos = d == 0 ? L->router : L->copy + (size_t)(d - 1) * (size_t)N;
        float cw = (float)t->dims[d] + margin; /* one column of rows */
        int k = (rows[d] + H - 1) / H;
        for (int r = 0; r < N; r++) {
            int col = topo_coord(t, r, d), row = ring_of(t, r, d), rc = row / H, ri = row % H;
            pos[r] = P(x0 + ((float)rc * cw + margin / 2 + (float)col + 0.5f) * c,
                       y0 + (CAP + (float)ri + 0.5f + BGAP * (float)(ri / bsz[d])) * c);
        }
        float pw = (float)k * cw + (d == 0 ? over_x : 0);
        g[d] = (vregion){.x = x0, .y = y0, .w = pw * c, .h = th * c};
        char others[16] = "";
        for (int e = 0, n = 0; e < D; e++)
            if (e != d) n += snprintf(others + n, sizeof others - (size_t)n, "%s%c", n ? "," : "", axis[e]);
        snprintf(g[d].caption, sizeof g[d].caption, "%c links: a row per %s", axis[d], others);
        g[d].cap_at = P(x0 + pw * c / 2, y0 + CAP * c * 0.4f);
        x0 += (pw + PGAP) * c;
    }
    return c;
}

/* Where router r is drawn in the panel of the dimension of its link port p. */
static vpt at_port(const vlayout *L, const topo *t, int r, int p)
{
    int d = p / 2;
    return d == 0 || !L->ncopies ? L->router[r] : L->copy[(size_t)(d - 1) * (size_t)t->nrouters + (size_t)r];
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
    L->kind = xcalloc((size_t)t->nlinks + 1, sizeof *L->kind);
    vpt *tdir = xcalloc((size_t)t->nrouters, sizeof *tdir); /* dragonfly: where a router's terminals go */
    topo_drawing draw = topo_draw(t);
    int ndim = draw == TOPO_DRAW_GRID && t->ndims >= 3;

    float pad = 14, aw = (float)L->net.w - 2 * pad, ah = (float)L->net.h - 2 * pad;
    float cx = (float)L->net.x + (float)L->net.w / 2, cy = (float)L->net.y + (float)L->net.h / 2;
    /* sizes in units of c, the distance between neighbouring routers */
    const float RS = 0.16f, TGAP = 0.20f, GAP = 0.025f;
    int df = draw == TOPO_DRAW_GROUPS, circle = draw == TOPO_DRAW_RING || df; /* terminals radially out */
    int rows = circle || t->conc <= 2 ? 1 : (t->conc + 1) / 2;
    int per_line = circle ? t->conc : t->conc <= 2 ? t->conc : 2;
    float TS = fminf(0.15f, 0.40f / (float)(rows > per_line ? rows : per_line));
    float c, gw = 0, gh = 0; /* gw x gh: the extent the topo x/y range [0,1] is mapped to */
    if (df) {
        c = layout_dragonfly(L, t, cx, cy, aw, ah, tdir);
    } else if (circle) {
        /* leave room outside the circle for the terminals; c: the chord between neighbours */
        gw = gh = fminf(aw, ah) * 0.80f;
        c = gw * 0.84f * sinf((float)M_PI / 8);
    } else {
        /* terminals stick out of the last row and column; torus wrap stubs need a margin */
        float over_x = fmaxf(0, RS + TGAP + (float)per_line * (TS + GAP) - 0.5f);
        float over_y = fmaxf(0, RS + TGAP + (float)rows * (TS + GAP) - 0.5f);
        float extra = has_wraps(t) ? 1.3f : 0.1f;
        int cols, rows;
        topo_grid_size(t, &cols, &rows);
        if (ndim) {
            c = layout_ndim(L, t, cx, cy, aw, ah, over_x, over_y);
        } else {
            c = fminf(aw / ((float)cols + extra + over_x), ah / ((float)rows + extra + over_y));
            gw = c * (float)cols;
            gh = c * (float)rows;
            cx -= over_x * c / 2;
            cy -= over_y * c / 2;
        }
    }
    if (!df && !ndim)
        for (int r = 0; r < t->nrouters; r++)
            L->router[r] = P(cx + ((float)t->x[r] - 0.5f) * gw, cy + ((float)t->y[r] - 0.5f) * gh);

    L->rs = RS * c;
    L->ts = TS * c;
    L->lw = fmaxf(2.0f, 0.035f * c); /* thinner lines lose a pixel row to rounding */
    float off = fmaxf(L->lw * 0.9f, 0.065f * c), gap = fmaxf(2.0f, GAP * c), tgap = TGAP * c;

    for (int term = 0; term < t->nterms; term++) {
        int r = topo_term_router(t, term), j = term % t->conc;
        vpt rc = L->router[r];
        if (circle) {
            vpt out = df ? tdir[r] : unit(P(cx, cy), rc), tan = right_of(out);
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
        vpt a = ndim ? at_port(L, t, l->src, l->src_port) : L->router[l->src];
        vpt b = ndim ? at_port(L, t, l->dst, l->src_port) : L->router[l->dst];
        /* in a dimension's panel its rings run left to right */
        vpt u = ndim ? P(l->src_port % 2 ? -1.0f : 1.0f, 0) : port_dir(l->src_port);
        if (is_wrap(l)) wrap(&L->link[i], a, b, u, c, L->rs, off, gap);
        else if (L->kind[i] == LINK_GLOBAL) {
            vpt mid = mul(add(a, b), 0.5f), ctr = P(cx, cy);
            chord(&L->link[i], a, b, add(ctr, mul(add(mid, mul(ctr, -1)), 0.35f)), L->rs, off, gap);
        } else straight(&L->link[i], a, b, L->rs, L->rs, off, gap);
    }
    free(tdir);
    return 0;
}

void layout_free(vlayout *L)
{
    free(L->router);
    free(L->term);
    free(L->link);
    free(L->inj);
    free(L->ej);
    free(L->kind);
    free(L->copy);
    free(L->region);
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
    for (int k = 0; k <= L->ncopies; k++)
        for (int r = 0; r < t->nrouters; r++) {
            vpt c = k ? L->copy[(size_t)(k - 1) * (size_t)t->nrouters + (size_t)r] : L->router[r];
            if (fabsf(q.x - c.x) <= L->rs && fabsf(q.y - c.y) <= L->rs) {
                *id = r;
                return HIT_ROUTER;
            }
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
