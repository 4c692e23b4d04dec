/* render.c - draws the current state of the view onto its surface (or
 * into an SVG document): the scene and the panel, with the colour scale of
 * the live window or of the heatmap.  Shared by the pictures (view.c) and
 * the window (live.c). */
#include "view_impl.h"

/* The heatmap's full-red value: the busiest link, rounded up to 1-2-5. */
static double heat_scale(const vstats *S)
{
    double mx = 0;
    for (int i = 0; i < S->nlinks; i++)
        if (stats_util_total(S, i) > mx) mx = stats_util_total(S, i);
    static const double steps[] = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (mx <= steps[i]) return steps[i];
    return 1;
}

void view_render(view *v, int mode, const char *controls)
{
    vscene sc = {.mode = mode,
                 .scale = 1,
                 .sel_kind = v->sel_kind,
                 .sel_id = v->sel_id,
                 .title = v->o.title,
                 .placed = &v->labels};
    if (mode == SCENE_HEATMAP) sc.scale = v->o.heat_max > 0 ? v->o.heat_max : heat_scale(&v->S);
    if (mode == SCENE_HEATMAP) sc.labels = v->o.heat_labels;
    if (mode == SCENE_LIVE) sc.controls = controls;
    scene_draw(&v->P, &v->L, v->t, &v->S, &sc);
    panel_draw(&v->P, &v->L, v->t, &v->S, &sc);
    SDL_RenderFlush(v->P.r); /* the renderer batches: pixels land on the surface here */
}
