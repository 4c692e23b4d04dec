/* flags.c - the view's command-line flags, parsed the same way by every
 * command (xnoc traffic, run, collective). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/cli.h"
#include "view/view.h"

const char view_usage[] = "  --view            live window (space pause, n step, +/- speed, click: counters, q quit)\n"
                          "  --frames DIR      headless pictures DIR/frame_000000.png ... (no display needed)\n"
                          "  --frame-every N   one frame every N cycles (100)\n"
                          "  --frames-window A:B  frames only for network cycles [A,B) (e.g. a collective's\n"
                          "                    start_cycle and its end)\n"
                          "  --heatmap F.png   picture of every link's utilization while traffic flows\n"
                          "                    (F.svg: the same picture as SVG, for papers)\n"
                          "  --heat-labels     write each channel's utilization and the terminal ids on the heatmap\n"
                          "  --size WxH        picture and window size in pixels (1024x720)\n"
                          "  --heat-max U      the heatmap's full-red utilization (default: the busiest link,\n"
                          "                    rounded up; give the same U to compare pictures)\n";

int view_cli_arg(view_opts *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "--view")) {
        o->live = 1;
        return 1;
    }
    if (!strcmp(a, "--heat-labels")) {
        o->heat_labels = 1;
        return 1;
    }
    if (strcmp(a, "--frames") && strcmp(a, "--frame-every") && strcmp(a, "--heatmap") && strcmp(a, "--heat-max") &&
        strcmp(a, "--frames-window") && strcmp(a, "--size"))
        return 0;
    if (!v) cli_fail(EXIT_USAGE, "%s needs a value", a);
    if (!strcmp(a, "--frames")) {
        if (!*v) cli_fail(EXIT_USAGE, "--frames: empty directory name");
        o->frames_dir = v;
    } else if (!strcmp(a, "--frame-every")) {
        o->frame_every = cli_u64(a, v);
        if (!o->frame_every) cli_fail(EXIT_USAGE, "--frame-every: must be at least 1");
    } else if (!strcmp(a, "--size")) {
        long w, h;
        if (cli_parse_pair(v, 'x', 1, 8192, &w, &h) || w < 320 || h < 240)
            cli_fail(EXIT_USAGE, "--size '%s': expected WxH from 320x240 to 8192x8192", v);
        o->width = (int)w;
        o->height = (int)h;
    } else if (!strcmp(a, "--frames-window")) {
        cli_window(a, v, &o->frames_from, &o->frames_to);
    } else if (!strcmp(a, "--heat-max")) {
        o->heat_max = cli_double(a, v, 0.001, 1);
    } else {
        size_t n = strlen(v);
        if (n < 5 || (strcasecmp(v + n - 4, ".png") && strcasecmp(v + n - 4, ".svg")))
            cli_fail(EXIT_USAGE, "--heatmap: '%s' must name a .png or .svg file", v);
        o->heatmap = v;
    }
    (*i)++;
    return 1;
}
