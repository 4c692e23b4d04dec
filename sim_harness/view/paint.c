/* paint.c - drawing primitives on an SDL renderer: thick lines as
 * triangles (SDL_RenderGeometry, which the software renderer supports, so
 * frames need no display), boxes, discs and anti-aliased text.  With
 * P->svg set, each primitive writes the same shape as one SVG element
 * instead: the scene code draws vector pictures without knowing it. */
#include <math.h>
#include <string.h>

#include "view_impl.h"

/* ---- SVG: colours as rgb(), alpha as opacity, text measured with the same font */

static void svg_fill(FILE *f, const char *attr, SDL_Color c)
{
    fprintf(f, " %s=\"rgb(%u,%u,%u)\"", attr, c.r, c.g, c.b);
    if (c.a < 255) fprintf(f, " %s-opacity=\"%.3f\"", attr, c.a / 255.0);
}

void paint_svg_begin(vpaint *P, FILE *f, int width, int height)
{
    P->svg = f;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
            width, height, width, height);
}

void paint_svg_end(vpaint *P)
{
    fprintf(P->svg, "</svg>\n");
    P->svg = NULL;
}

static int font_px(const vpaint *P, TTF_Font *f)
{
    return f == P->small ? P->font_px[1] : f == P->big ? P->font_px[2] : P->font_px[0];
}

static void svg_text(vpaint *P, TTF_Font *f, const char *s, float left, float top, SDL_Color c)
{
    fprintf(P->svg, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\"", left, top + (float)TTF_FontAscent(f),
            font_px(P, f));
    svg_fill(P->svg, "fill", c);
    fputc('>', P->svg);
    for (; *s; s++) { /* XML's five reserved characters */
        switch (*s) {
        case '<': fputs("&lt;", P->svg); break;
        case '>': fputs("&gt;", P->svg); break;
        case '&': fputs("&amp;", P->svg); break;
        case '"': fputs("&quot;", P->svg); break;
        case '\'': fputs("&apos;", P->svg); break;
        default: fputc(*s, P->svg);
        }
    }
    fputs("</text>\n", P->svg);
}

/* ---- the primitives */

void paint_color(vpaint *P, SDL_Color c) { SDL_SetRenderDrawColor(P->r, c.r, c.g, c.b, c.a); }

void paint_rect(vpaint *P, float x, float y, float w, float h, SDL_Color fill)
{
    if (P->svg) {
        fprintf(P->svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x, y, w, h);
        svg_fill(P->svg, "fill", fill);
        fputs("/>\n", P->svg);
        return;
    }
    paint_color(P, fill);
    SDL_FRect r = {x, y, w, h};
    SDL_RenderFillRectF(P->r, &r);
}

void paint_frame(vpaint *P, float x, float y, float w, float h, float lw, SDL_Color c)
{
    paint_rect(P, x, y, w, lw, c);
    paint_rect(P, x, y + h - lw, w, lw, c);
    paint_rect(P, x, y, lw, h, c);
    paint_rect(P, x + w - lw, y, lw, h, c);
}

static SDL_Vertex vx(float x, float y, SDL_Color c) { return (SDL_Vertex){{x, y}, c, {0, 0}}; }

void paint_line(vpaint *P, vpt a, vpt b, float lw, SDL_Color c)
{
    float dx = b.x - a.x, dy = b.y - a.y, n = sqrtf(dx * dx + dy * dy);
    if (n <= 0) return;
    if (P->svg) {
        paint_polyline(P, (vpt[]){a, b}, 2, lw, c);
        return;
    }
    float nx = -dy / n * lw / 2, ny = dx / n * lw / 2;
    SDL_Vertex v[4] = {vx(a.x + nx, a.y + ny, c), vx(a.x - nx, a.y - ny, c), vx(b.x - nx, b.y - ny, c),
                       vx(b.x + nx, b.y + ny, c)};
    int idx[6] = {0, 1, 2, 0, 2, 3};
    SDL_RenderGeometry(P->r, NULL, v, 4, idx, 6);
}

void paint_disc(vpaint *P, vpt c, float r, SDL_Color col)
{
    if (P->svg) {
        fprintf(P->svg, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", c.x, c.y, r);
        svg_fill(P->svg, "fill", col);
        fputs("/>\n", P->svg);
        return;
    }
    enum { N = 20 };
    SDL_Vertex v[N + 1];
    int idx[3 * N];
    v[N] = vx(c.x, c.y, col);
    for (int i = 0; i < N; i++) {
        float a = (float)i * 2 * (float)M_PI / N;
        v[i] = vx(c.x + r * cosf(a), c.y + r * sinf(a), col);
        idx[3 * i] = N;
        idx[3 * i + 1] = i;
        idx[3 * i + 2] = (i + 1) % N;
    }
    SDL_RenderGeometry(P->r, NULL, v, N + 1, idx, 3 * N);
}

void paint_polyline(vpaint *P, const vpt *p, int n, float lw, SDL_Color c)
{
    if (P->svg) {
        if (n < 2) return;
        fputs("<polyline points=\"", P->svg);
        for (int i = 0; i < n; i++) fprintf(P->svg, "%s%.1f,%.1f", i ? " " : "", p[i].x, p[i].y);
        fprintf(P->svg, "\" fill=\"none\" stroke-width=\"%.2f\" stroke-linejoin=\"round\"", lw);
        svg_fill(P->svg, "stroke", c);
        fputs("/>\n", P->svg);
        return;
    }
    for (int i = 0; i + 1 < n; i++) {
        paint_line(P, p[i], p[i + 1], lw, c);
        /* round joints so bends have no notches */
        if (i > 0 && lw > 2) paint_disc(P, p[i], lw / 2, c);
    }
}

void paint_arrowhead(vpaint *P, vpt from, vpt tip, float size, SDL_Color c)
{
    float dx = tip.x - from.x, dy = tip.y - from.y, n = sqrtf(dx * dx + dy * dy);
    if (n <= 0) return;
    dx /= n;
    dy /= n;
    float bx = tip.x - dx * size, by = tip.y - dy * size, w = size * 0.55f;
    if (P->svg) {
        fprintf(P->svg, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", tip.x, tip.y, bx - dy * w, by + dx * w,
                bx + dy * w, by - dx * w);
        svg_fill(P->svg, "fill", c);
        fputs("/>\n", P->svg);
        return;
    }
    SDL_Vertex v[3] = {vx(tip.x, tip.y, c), vx(bx - dy * w, by + dx * w, c), vx(bx + dy * w, by - dx * w, c)};
    SDL_RenderGeometry(P->r, NULL, v, 3, NULL, 0);
}

void paint_util_bar(vpaint *P, float x, float y, float w, float h)
{
    if (P->svg) {
        /* flat rectangles of 4 pixels, not a linearGradient: ImageMagick and other converters draw
         * a gradient black; 4 pixels keep the file small and the steps below what the eye sees */
        int n = (int)(w / 4) > 8 ? (int)(w / 4) : 8;
        for (int i = 0; i < n; i++) {
            float x0 = x + w * (float)i / (float)n, x1 = x + w * (float)(i + 1) / (float)n;
            fprintf(P->svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x0, y, x1 - x0 + 0.3f, h);
            svg_fill(P->svg, "fill", color_util(n > 1 ? (double)i / (n - 1) : 0));
            fputs("/>\n", P->svg);
        }
        return;
    }
    for (int i = 0; i < (int)w; i++) paint_rect(P, x + (float)i, y, 1, h, color_util((double)i / (w - 1)));
}

int paint_text_fit(vpaint *P, TTF_Font *f, const char *s, float x, float y, float maxw, SDL_Color c)
{
    int w = 0, h = 0;
    if (!s || !*s) return 0;
    if (TTF_SizeUTF8(f, s, &w, &h) == 0 && (float)w <= maxw) return paint_text(P, f, s, x, y, ALIGN_LEFT, c);
    char buf[256];
    size_t n = strlen(s);
    if (n > sizeof buf - 4) n = sizeof buf - 4;
    for (; n > 0; n--) {
        while (n > 0 && (s[n] & 0xc0) == 0x80) n--; /* not inside a UTF-8 character */
        memcpy(buf, s, n);
        memcpy(buf + n, "\xe2\x80\xa6", 4); /* ... */
        if (TTF_SizeUTF8(f, buf, &w, &h) == 0 && (float)w <= maxw) break;
    }
    return paint_text(P, f, buf, x, y, ALIGN_LEFT, c);
}

int paint_text(vpaint *P, TTF_Font *f, const char *s, float x, float y, int align, SDL_Color c)
{
    if (!s || !*s) return 0;
    if (P->svg) {
        int w = 0, h = 0;
        TTF_SizeUTF8(f, s, &w, &h);
        float left = align == ALIGN_CENTER ? x - (float)w / 2 : align == ALIGN_RIGHT ? x - (float)w : x;
        svg_text(P, f, s, roundf(left), roundf(y), c);
        return w;
    }
    SDL_Surface *ts = TTF_RenderUTF8_Blended(f, s, c);
    if (!ts) return 0;
    SDL_Texture *tx = SDL_CreateTextureFromSurface(P->r, ts);
    int w = ts->w, h = ts->h;
    SDL_FreeSurface(ts);
    if (!tx) return 0;
    float left = align == ALIGN_CENTER ? x - (float)w / 2 : align == ALIGN_RIGHT ? x - (float)w : x;
    SDL_FRect dst = {roundf(left), roundf(y), (float)w, (float)h};
    SDL_RenderCopyF(P->r, tx, NULL, &dst);
    SDL_DestroyTexture(tx);
    return w;
}
