/* live.c - the live window: events, pause / single step / speed, clicks,
 * and pacing.
 *
 * The picture is drawn on the same software surface as the PNG frames and
 * copied to the window, so what you see is what --frames writes.  Speed is
 * "cycles per frame": the command is asked for a sample every that many
 * cycles and each shown frame is held for 1/60 s, so the simulation runs at
 * most speed * 60 cycles/s.  At full speed the view instead asks for samples
 * at a stride it adapts to the simulation, and draws at most 60 times a
 * second. */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "view_impl.h"
#include "util/cli.h"

#define FRAME_MS 16
static const uint64_t speeds[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 0};
#define NSPEEDS ((int)(sizeof speeds / sizeof speeds[0]))
#define SPEED_DEFAULT 4 /* 20 cycles per frame: a 10000-cycle run takes ~8 s */
#define FULL_SPEED(v) (speeds[(v)->speed] == 0)

/* the live picture, with the window's pause/speed line */
static void render_live(view *v)
{
    char ctl[96];
    view_render(v, SCENE_LIVE, live_controls(v, ctl, sizeof ctl));
}

int live_open(view *v, char *err, size_t errlen)
{
    /* without a display SDL falls back to an offscreen driver and the window
     * silently goes nowhere; say so instead (SDL_VIDEODRIVER set by hand wins) */
    const char *drv = getenv("SDL_VIDEODRIVER"), *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    if ((!drv || !*drv) && (!x || !*x) && (!w || !*w)) {
        snprintf(err, errlen,
                 "--view: no display (DISPLAY and WAYLAND_DISPLAY are not set); --frames DIR or --heatmap "
                 "F.png make pictures without one");
        return -1;
    }
    if (SDL_InitSubSystem(SDL_INIT_VIDEO)) {
        snprintf(err, errlen, "--view: cannot open a window: %s (no display? --frames DIR writes pictures without one)",
                 SDL_GetError());
        return -1;
    }
    v->sdl_video = 1;
    char title[160];
    snprintf(title, sizeof title, "xnoc %s %s", v->t->name, v->o.title ? v->o.title : "");
    v->win = SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, v->o.width, v->o.height, 0);
    if (!v->win) {
        snprintf(err, errlen, "--view: cannot open a window: %s", SDL_GetError());
        return -1;
    }
    v->speed = SPEED_DEFAULT;
    v->stride = 1;
    v->live_next = 0;
    return 0;
}

void live_close(view *v)
{
    if (v->win) SDL_DestroyWindow(v->win);
    v->win = NULL;
    if (v->sdl_video) SDL_QuitSubSystem(SDL_INIT_VIDEO);
    v->sdl_video = 0;
}

static void key(view *v, SDL_Keycode k)
{
    switch (k) {
    case SDLK_SPACE: v->paused = !v->paused; break;
    case SDLK_n:
    case SDLK_RIGHT:
        /* running: stop here; paused: one more cycle */
        if (v->paused) v->step_once = 1;
        v->paused = 1;
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        if (v->speed + 1 < NSPEEDS) v->speed++;
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        if (v->speed > 0) v->speed--;
        break;
    case SDLK_q:
    case SDLK_ESCAPE: v->quit = 1; break;
    default: break;
    }
}

int live_events(view *v)
{
    SDL_Event e;
    int redraw = 0;
    while (SDL_PollEvent(&e)) {
        switch (e.type) {
        case SDL_QUIT: v->quit = 1; break;
        case SDL_WINDOWEVENT:
            if (e.window.event == SDL_WINDOWEVENT_CLOSE) v->quit = 1;
            redraw = 1;
            break;
        case SDL_KEYDOWN:
            key(v, e.key.keysym.sym);
            redraw = 1;
            break;
        case SDL_MOUSEBUTTONDOWN:
            if (e.button.button == SDL_BUTTON_LEFT) {
                v->sel_kind = layout_hit(&v->L, v->t, e.button.x, e.button.y, &v->sel_id);
                redraw = 1;
            }
            break;
        default: break;
        }
    }
    return redraw;
}

void live_present(view *v)
{
    SDL_Surface *ws = SDL_GetWindowSurface(v->win);
    if (ws) {
        SDL_BlitSurface(v->surf, NULL, ws, NULL);
        SDL_UpdateWindowSurface(v->win);
    }
    uint32_t now = SDL_GetTicks();
    if (!FULL_SPEED(v) && !v->paused && now - v->last_present < FRAME_MS) SDL_Delay(FRAME_MS - (now - v->last_present));
    v->last_present = SDL_GetTicks();
}

int live_paused(view *v)
{
    while (v->paused && !v->step_once && !v->quit) {
        SDL_WaitEventTimeout(NULL, 100);
        if (live_events(v)) {
            render_live(v);
            live_present(v);
        }
    }
    if (v->step_once) {
        v->step_once = 0;
        return 1;
    }
    return v->quit;
}

void live_schedule(view *v, uint64_t cycle)
{
    uint32_t now = SDL_GetTicks();
    if (!FULL_SPEED(v)) {
        v->live_next = cycle + speeds[v->speed];
    } else {
        /* aim at a sample every few milliseconds, whatever the simulation speed */
        if (now - v->last_update < 4 && v->stride < ((uint64_t)1 << 30)) v->stride *= 2;
        else if (now - v->last_update > 30 && v->stride > 1) v->stride /= 2;
        v->live_next = cycle + v->stride;
    }
    v->last_update = now;
}

/* Full speed draws only when a frame's time has passed. */
int live_frame_due(const view *v)
{
    return !FULL_SPEED(v) || v->paused || SDL_GetTicks() - v->last_present >= FRAME_MS;
}

const char *live_controls(const view *v, char *buf, size_t len)
{
    if (v->finished) snprintf(buf, len, "finished (q or close the window)");
    else if (v->paused) snprintf(buf, len, "paused (space: run, n: one cycle)");
    else if (FULL_SPEED(v)) snprintf(buf, len, "running at full speed");
    else
        snprintf(buf, len, "running, %llu cycle%s per frame", (unsigned long long)speeds[v->speed],
                 speeds[v->speed] == 1 ? "" : "s");
    return buf;
}

void live_hold(view *v)
{
    /* nobody can close a window on the dummy or offscreen drivers (tests), but
     * a test of the hold itself asks for it (XNOC_TEST_VIEW_HOLD=1) */
    const char *drv = SDL_GetCurrentVideoDriver(), *test = getenv("XNOC_TEST_VIEW_HOLD");
    if ((!drv || !strcmp(drv, "dummy") || !strcmp(drv, "offscreen")) && !(test && !strcmp(test, "1"))) return;
    v->paused = 0;
    v->finished = 1;
    if (test && !strcmp(test, "1")) fprintf(stderr, "xnoc %s: view: holding the window\n", cli_cmd);
    while (!v->quit && !cli_interrupted) { /* Ctrl-C or SIGTERM ends it (cli_catch_sigint) */
        render_live(v);
        live_present(v);
        SDL_WaitEventTimeout(NULL, 200);
        live_events(v);
    }
}
