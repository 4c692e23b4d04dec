/* view.c - the public view API (view.h): open, due, update, finish, close;
 * PNG frames and the heatmap.
 *
 * Every picture is drawn by the SDL software renderer onto an RGB surface,
 * so frames and the heatmap need no display; the live window shows the same
 * surface. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <SDL_image.h>

#include "view_impl.h"
#include "util/cli.h"

static int check_font(const char *path, char *err, size_t errlen)
{
    if (access(path, R_OK) == 0) return 0;
    snprintf(err, errlen, "view font %s: %s (install fonts-dejavu-core, or set XNOC_VIEW_FONT)", path, strerror(errno));
    return -1;
}

/* mkdir -p: the directory and any missing parents. */
static int make_dirs(const char *dir)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

static int check_frames_dir(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (!*dir) {
        snprintf(err, errlen, "--frames: empty directory name");
        return -1;
    }
    if (make_dirs(dir)) {
        snprintf(err, errlen, "--frames %s: %s", dir, strerror(errno));
        return -1;
    }
    if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK)) {
        snprintf(err, errlen, "--frames %s: not a writable directory", dir);
        return -1;
    }
    return 0;
}

/* Fail before a long run, not after it. */
static int check_heatmap(const char *path, char *err, size_t errlen)
{
    int existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "ab");
    if (!f) {
        snprintf(err, errlen, "--heatmap %s: %s", path, strerror(errno));
        return -1;
    }
    fclose(f);
    if (!existed) remove(path); /* no empty picture if the run fails */
    return 0;
}

static int open_fonts(vpaint *P, const char *path, int height, char *err, size_t errlen)
{
    if (TTF_Init()) {
        snprintf(err, errlen, "view: cannot start SDL_ttf: %s", TTF_GetError());
        return -1;
    }
    int px = height / 50 < 11 ? 11 : height / 50;
    P->font_px[0] = px;
    P->font_px[1] = px * 4 / 5;
    P->font_px[2] = px * 8 / 5;
    P->font = TTF_OpenFont(path, P->font_px[0]);
    P->small = TTF_OpenFont(path, P->font_px[1]);
    P->big = TTF_OpenFont(path, P->font_px[2]);
    if (!P->font || !P->small || !P->big) {
        snprintf(err, errlen, "view font %s: %s", path, TTF_GetError());
        return -1;
    }
    return 0;
}

view *view_open(const topo *t, const view_opts *o, char *err, size_t errlen)
{
    if (o->width < 320 || o->height < 240 || o->width > 8192 || o->height > 8192) {
        snprintf(err, errlen, "view size %dx%d: must be 320x240 .. 8192x8192", o->width, o->height);
        return NULL;
    }
    const char *font = getenv("XNOC_VIEW_FONT");
    if (!font || !*font) font = VIEW_FONT_DEFAULT;
    if (check_font(font, err, errlen)) return NULL;
    if (o->frames_dir && check_frames_dir(o->frames_dir, err, errlen)) return NULL;
    if (o->heatmap && check_heatmap(o->heatmap, err, errlen)) return NULL;

    view *v = xcalloc(1, sizeof *v);
    v->t = t;
    v->o = *o;
    v->o.title = v->title = o->title ? xstrdup(o->title) : NULL; /* its own: a held window outlives the caller's */
    if (!v->o.frame_every) v->o.frame_every = 1;
    v->frame_next = o->frames_dir ? o->frames_from : UINT64_MAX;
    v->live_next = UINT64_MAX;
    if (open_fonts(&v->P, font, o->height, err, errlen)) goto fail;
    v->surf = SDL_CreateRGBSurfaceWithFormat(0, o->width, o->height, 32, SDL_PIXELFORMAT_RGB888);
    if (v->surf) v->P.r = SDL_CreateSoftwareRenderer(v->surf);
    if (!v->P.r) {
        snprintf(err, errlen, "view: cannot create a %dx%d picture: %s", o->width, o->height, SDL_GetError());
        goto fail;
    }
    SDL_SetRenderDrawBlendMode(v->P.r, SDL_BLENDMODE_BLEND);
    if (layout_build(&v->L, t, o->width, o->height) || stats_init(&v->S, t, o->window)) {
        snprintf(err, errlen, "view: out of memory");
        goto fail;
    }
    if (o->live && live_open(v, err, errlen)) goto fail;
    return v;
fail:
    view_close(v);
    return NULL;
}

static void view_free(view *v);

/* The window that shows a finished run until the user closes it.  The
 * command prints its report after view_close(), so the window is held
 * open only when the process exits: the report is on the terminal while
 * you look at the picture. */
static view *held;

static void hold_at_exit(void)
{
    view *v = held;
    held = NULL;
    if (!v) return;
    fflush(stdout);
    fflush(stderr);
    live_hold(v);
    view_free(v);
}

void view_close(view *v)
{
    if (!v) return;
    if (v->win && v->done && !v->quit && !held) {
        /* the command frees its topology next: the held window keeps its own */
        char err[256];
        v->own_t = topo_parse_max(v->t->name, v->t->k, v->t->nterms, err, sizeof err);
        if (v->own_t) {
            v->t = v->own_t;
            held = v;
            atexit(hold_at_exit);
            return;
        }
        live_hold(v); /* cannot happen (the name is canonical); hold it here then */
    }
    view_free(v);
}

static void view_free(view *v)
{
    live_close(v);
    if (v->P.r) SDL_DestroyRenderer(v->P.r);
    if (v->surf) SDL_FreeSurface(v->surf);
    if (v->P.font) TTF_CloseFont(v->P.font);
    if (v->P.small) TTF_CloseFont(v->P.small);
    if (v->P.big) TTF_CloseFont(v->P.big);
    if (TTF_WasInit()) TTF_Quit();
    layout_free(&v->L);
    stats_free(&v->S);
    free(v->net_links);
    free(v->net_ej);
    free(v->net_buf);
    free(v->net_xor);
    free(v->net_mc);
    topo_free(v->own_t);
    free(v->title);
    free(v->labels.box);
    free(v->labels.kind);
    free(v->labels.id);
    free(v);
}

const char *view_error(const view *v) { return v->err; }

/* The PNG through a stdio file of ours: SDL_image does not report a write
 * that failed (a full disk left an empty picture and exit 0). */
static int save_png(view *v, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(v->err, sizeof v->err, "cannot write %.300s: %.150s", path, strerror(errno));
        return VIEW_ERROR;
    }
    SDL_RWops *rw = SDL_RWFromFP(f, SDL_FALSE);
    int bad = !rw || IMG_SavePNG_RW(v->surf, rw, 1) != 0, e = cli_out_finish(f);
    if (!bad && !e) return 0;
    snprintf(v->err, sizeof v->err, "cannot write %.300s: %.150s", path, bad ? IMG_GetError() : strerror(e));
    return VIEW_ERROR;
}

/* the live picture (frames and the window), with the window's pause/speed line if there is one */
static void render_live(view *v)
{
    char ctl[96];
    view_render(v, SCENE_LIVE, v->win ? live_controls(v, ctl, sizeof ctl) : NULL);
}

/* The heatmap as SVG: the same scene, each primitive an element. */
static int save_svg(view *v, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(v->err, sizeof v->err, "cannot write %.300s: %.150s", path, strerror(errno));
        return VIEW_ERROR;
    }
    paint_svg_begin(&v->P, f, v->o.width, v->o.height);
    view_render(v, SCENE_HEATMAP, NULL);
    paint_svg_end(&v->P);
    int e = cli_out_finish(f);
    if (e) {
        snprintf(v->err, sizeof v->err, "cannot write %.300s: %.150s", path, strerror(e));
        return VIEW_ERROR;
    }
    return 0;
}

static int is_svg(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && !strcasecmp(path + n - 4, ".svg");
}

static int write_frame(view *v)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/frame_%06llu.png", v->o.frames_dir, (unsigned long long)v->frame_no);
    render_live(v);
    if (save_png(v, path)) return VIEW_ERROR;
    v->frame_no++;
    return VIEW_OK;
}

int view_due(view *v, uint64_t cycle)
{
    if (v->paused && live_paused(v)) return 1;
    return cycle >= v->frame_next || cycle >= v->live_next;
}

uint64_t view_next_due(const view *v)
{
    if (v->paused) return 0;
    return v->frame_next < v->live_next ? v->frame_next : v->live_next;
}

int view_update(view *v, const view_sample *s)
{
    if (v->quit) return VIEW_QUIT;
    stats_take(&v->S, s);
    v->have_sample = 1;
    if (v->o.frames_dir && s->cycle >= v->frame_next) {
        if (write_frame(v)) return VIEW_ERROR;
        v->frame_next = s->cycle + v->o.frame_every;
        if (v->o.frames_to && v->frame_next >= v->o.frames_to) v->frame_next = UINT64_MAX; /* the window is over */
    }
    if (v->win) {
        live_events(v);
        if (v->quit) return VIEW_QUIT;
        if (live_frame_due(v)) {
            render_live(v);
            live_present(v);
        }
        live_schedule(v, s->cycle);
    }
    return VIEW_OK;
}

int view_finish(view *v, const view_sample *final)
{
    if (final) stats_take(&v->S, final);
    /* the last frame of a sequence shows the end of the run */
    if (final && v->o.frames_dir && v->frame_no && v->frame_next != UINT64_MAX &&
        v->frame_next - v->o.frame_every < final->cycle && write_frame(v))
        return VIEW_ERROR;
    if (v->o.heatmap) {
        if (is_svg(v->o.heatmap)) {
            if (save_svg(v, v->o.heatmap)) return VIEW_ERROR;
        } else {
            view_render(v, SCENE_HEATMAP, NULL);
            if (save_png(v, v->o.heatmap)) return VIEW_ERROR;
        }
    }
    v->done = 1; /* view_close() keeps the window open until the process exits */
    return VIEW_OK;
}
