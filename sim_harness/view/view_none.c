/* view_none.c - the view API in a build without SDL2 (no XNOC_HAVE_SDL):
 * every view flag is refused with one line, so a command can call the API
 * unconditionally.  With SDL2 the real view lives in sim_harness/view/. */
#include "view/view.h"

#ifndef XNOC_HAVE_SDL
#include <string.h>
#include <stdio.h>

#include "util/cli.h"

const char view_usage[] = "  (this build of xnoc has no view: built without SDL2)\n";

int view_cli_arg(view_opts *o, int argc, char **argv, int *i)
{
    (void)o;
    (void)argc;
    const char *a = argv[*i];
    if (!strcmp(a, "--view") || !strcmp(a, "--frames") || !strcmp(a, "--frame-every") || !strcmp(a, "--heatmap"))
        cli_fail(EXIT_USAGE, "%s: this build of xnoc has no view (built without SDL2)", a);
    return 0;
}

view *view_open(const topo *t, const view_opts *o, char *err, size_t errlen)
{
    (void)t;
    (void)o;
    snprintf(err, errlen, "this build of xnoc has no view (built without SDL2)");
    return NULL;
}

/* Unreachable: view_open() never returns a view. */
int view_due(view *v, uint64_t cycle)
{
    (void)v;
    (void)cycle;
    return 0;
}
uint64_t view_next_due(const view *v)
{
    (void)v;
    return UINT64_MAX;
}
int view_update(view *v, const view_sample *s)
{
    (void)v;
    (void)s;
    return VIEW_ERROR;
}
int view_finish(view *v, const view_sample *s)
{
    (void)v;
    (void)s;
    return VIEW_ERROR;
}
const char *view_error(const view *v)
{
    (void)v;
    return "this build of xnoc has no view (built without SDL2)";
}
void view_close(view *v) { (void)v; }
void view_sample_net(view *v, xnoc_net *n, const router_cfg *rc, view_sample *s)
{
    (void)v;
    (void)n;
    (void)rc;
    (void)s;
}
#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int view_none_is_empty_with_sdl;
#endif
