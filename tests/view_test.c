/* view_test.c - drives the view with synthetic samples, for tests/view.t.sh
 * and for the pictures in docs/view.md; no RTL network needed.
 *
 *   view_test cli [VIEW FLAGS...]      parse like a command, open, run a few
 *                                      cycles (errors: one line, exit 2)
 *   view_test demo TOPO DIR            DIR/frames/frame_*.png + DIR/heatmap.png
 *                                      of a moving hotspot with node states
 *   view_test check CASE TOPO DIR      one picture check; prints why on failure
 *                                      (view_check.c)
 *
 * Built with XNOC_HAVE_SDL it links the files of sim_harness/view/; without,
 * only view_none.c (then only `cli` makes sense).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "net/topo.h"
#include "view/view.h"
#include "view_test.h"

/* ------------------------------------------------ a fake RTL network for view_sample_net() */
uint64_t net_link_flits(xnoc_net *n, int router, int port)
{
    (void)n;
    return (uint64_t)(router * 100 + port);
}
int net_vc_occupancy(xnoc_net *n, int router, int port, int vc)
{
    (void)n;
    (void)port;
    return router == 1 && vc == 0;
}
int net_has_units(const xnoc_net *n)
{
    (void)n;
    return 0;
}
void net_unit_stats(xnoc_net *n, int router, net_unit *u)
{
    (void)n;
    (void)router;
    memset(u, 0, sizeof *u);
}

/* ------------------------------------------------ synthetic traffic */

typedef struct {
    const topo *t;
    int nch;
    uint64_t *links, *inj, *ej;
    double *acc; /* [nlinks + 2 nch] fractional flits */
    int *buffered, *step;
    uint8_t *state;
    uint32_t *xor_ops, *mcast;
} synth;

static void synth_init(synth *y, const topo *t)
{
    y->t = t;
    y->nch = t->nterms * t->k;
    y->links = calloc((size_t)t->nlinks + 1, sizeof *y->links);
    y->inj = calloc((size_t)y->nch, sizeof *y->inj);
    y->ej = calloc((size_t)y->nch, sizeof *y->ej);
    y->acc = calloc((size_t)(t->nlinks + 2 * y->nch), sizeof *y->acc);
    y->buffered = calloc((size_t)t->nrouters, sizeof *y->buffered);
    y->step = calloc((size_t)t->nterms, sizeof *y->step);
    y->state = calloc((size_t)t->nterms, 1);
    y->xor_ops = calloc((size_t)t->nrouters, sizeof *y->xor_ops);
    y->mcast = calloc((size_t)t->nrouters, sizeof *y->mcast);
}

static void synth_free(synth *y)
{
    free(y->links);
    free(y->inj);
    free(y->ej);
    free(y->acc);
    free(y->buffered);
    free(y->step);
    free(y->state);
    free(y->xor_ops);
    free(y->mcast);
}

static void add(uint64_t *cnt, double *acc, double rate)
{
    *acc += rate;
    if (*acc >= 1) {
        *acc -= 1;
        (*cnt)++;
    }
}

/* One cycle of a hotspot that moves from router 0 to the last router over
 * `len` cycles: links into the hot router run at up to one flit a cycle,
 * the others less the farther they are. */
static void synth_cycle(synth *y, uint64_t cyc, uint64_t len)
{
    const topo *t = y->t;
    int hot = (int)((double)cyc / (double)len * t->nrouters);
    if (hot >= t->nrouters) hot = t->nrouters - 1;
    for (int i = 0; i < t->nlinks; i++) {
        int d = topo_distance(t, t->links[i].dst, hot);
        add(&y->links[i], &y->acc[i], 1.0 / (1 + 2.0 * d * d));
    }
    for (int ch = 0; ch < y->nch; ch++) {
        add(&y->inj[ch], &y->acc[t->nlinks + ch], 0.15);
        add(&y->ej[ch], &y->acc[t->nlinks + y->nch + ch], ch / t->k / t->conc == hot ? 0.9 : 0.1);
    }
    for (int r = 0; r < t->nrouters; r++) {
        int d = topo_distance(t, r, hot);
        y->buffered[r] = d == 0 ? 40 : d == 1 ? 12 : 0;
        if (d == 1 && cyc % 7 == 0) y->xor_ops[r]++;
        if (d == 0 && cyc % 5 == 0) y->mcast[r]++;
    }
    for (int term = 0; term < t->nterms; term++) {
        y->step[term] = (int)(cyc * 4 / len);
        y->state[term] = term % 7 == 3                                          ? VIEW_NODE_WAITING
                         : term == t->nterms - 1 && cyc > len / 2               ? VIEW_NODE_FAULTED
                         : (uint64_t)term * len / (uint64_t)t->nterms < cyc / 2 ? VIEW_NODE_EXITED
                                                                                : VIEW_NODE_RUNNING;
    }
}

static view_sample synth_sample(synth *y, uint64_t cyc)
{
    return (view_sample){.cycle = cyc,
                         .sim_rate = 123456,
                         .link_flits = y->links,
                         .inj_flits = y->inj,
                         .ej_flits = y->ej,
                         .router_buffered = y->buffered,
                         .router_capacity = 80,
                         .node_state = y->state,
                         .node_step = y->step,
                         .xor_ops = y->xor_ops,
                         .mcast_copies = y->mcast,
                         .status = "synthetic hotspot (view_test)"};
}

/* The per-cycle loop of a command, with the view hooked in. */
static int drive(const topo *t, view *v, uint64_t cycles)
{
    synth y;
    synth_init(&y, t);
    int rc = 0;
    uint64_t c;
    for (c = 0; c < cycles; c++) {
        synth_cycle(&y, c, cycles);
        if (v && view_due(v, c)) {
            view_sample s = synth_sample(&y, c);
            int u = view_update(v, &s);
            if (u == VIEW_QUIT) {
                printf("interrupted at cycle %llu\n", (unsigned long long)c);
                rc = 3;
                break;
            }
            if (u == VIEW_ERROR) cli_fail(EXIT_RUNFAIL, "%s", view_error(v));
        }
    }
    if (v) {
        view_sample s = synth_sample(&y, c);
        if (view_finish(v, &s)) cli_fail(EXIT_RUNFAIL, "%s", view_error(v));
    }
    synth_free(&y);
    return rc;
}

topo *parse_topo(const char *spec)
{
    char err[256];
    topo *t = topo_parse(spec, 1, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    return t;
}

/* `cli`: what a command does with the view flags. */
static int cmd_cli(int argc, char **argv)
{
    view_opts vo;
    view_opts_default(&vo);
    const char *spec = "mesh:3x3";
    uint64_t cycles = 300;
    for (int i = 0; i < argc; i++) {
        if (view_cli_arg(&vo, argc, argv, &i)) continue;
        if (!strcmp(argv[i], "--topo") && i + 1 < argc) spec = argv[++i];
        else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) cycles = cli_u64("--cycles", argv[++i]);
        else cli_fail(EXIT_USAGE, "unknown option '%s'", argv[i]);
    }
    topo *t = parse_topo(spec);
    char err[512];
    view *v = NULL;
    if (view_wanted(&vo) && !(v = view_open(t, &vo, err, sizeof err))) cli_fail(EXIT_USAGE, "%s", err);
    int rc = drive(t, v, cycles);
    view_close(v);
    topo_free(t);
    return rc;
}

#ifdef XNOC_HAVE_SDL
/* ------------------------------------------------ pictures (SDL builds only) */
#include <SDL_image.h>
#include <sys/stat.h>

#include "view/view_impl.h"

view *open_or_die(const topo *t, const view_opts *o)
{
    char err[512];
    view *v = view_open(t, o, err, sizeof err);
    if (!v) cli_fail(EXIT_USAGE, "%s", err);
    return v;
}

/* `demo TOPO DIR`: the pictures of docs/view.md. */
static int cmd_demo(int argc, char **argv)
{
    if (argc < 2) cli_fail(EXIT_USAGE, "usage: view_test demo TOPO DIR [CYCLES]");
    topo *t = parse_topo(argv[0]);
    char frames[1024], heat[1024];
    snprintf(frames, sizeof frames, "%s/frames", argv[1]);
    snprintf(heat, sizeof heat, "%s/heatmap.png", argv[1]);
    mkdir(argv[1], 0777);
    view_opts o;
    view_opts_default(&o);
    o.frames_dir = frames;
    o.heatmap = heat;
    o.title = "demo";
    uint64_t cycles = argc > 2 ? cli_u64("CYCLES", argv[2]) : 1000;
    o.frame_every = cycles / 10;
    view *v = open_or_die(t, &o);
    int rc = drive(t, v, cycles);
    view_close(v);
    topo_free(t);
    return rc;
}

#else
static int cmd_demo(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_fail(EXIT_USAGE, "built without SDL2");
}
#endif

int main(int argc, char **argv)
{
    cli_cmd = "view_test";
    if (argc < 2) cli_fail(EXIT_USAGE, "usage: view_test cli|demo|check ...");
    if (!strcmp(argv[1], "cli")) return cmd_cli(argc - 2, argv + 2);
    if (!strcmp(argv[1], "demo")) return cmd_demo(argc - 2, argv + 2);
    if (!strcmp(argv[1], "check")) return cmd_check(argc - 2, argv + 2);
    if (!strcmp(argv[1], "probe")) return cmd_probe(argc - 2, argv + 2);
    cli_fail(EXIT_USAGE, "unknown mode '%s'", argv[1]);
}
