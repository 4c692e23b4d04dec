/* replay.c - `xnoc replay EVENTS.jsonl`: the link traffic an --events file
 * recorded (run or collective on the RTL), shown again without simulating:
 * the live window, frames, a heatmap (PNG or SVG), and the numbers.
 *
 * Each inject, hop and eject line says when a packet's head and tail were on
 * a channel and how many flits crossed it; the replay puts those flits on
 * the channel at evenly spaced cycles from head to tail.  Totals per channel
 * are exact (the RTL's counters); the cycle of a flit between head and tail
 * is that spacing (exact for a packet that never stalled). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "cmd/cmds.h"
#include "cmd/cmd_opts.h"
#include "cmd/replay_events.h"
#include "net/topo.h"
#include "util/report.h"
#include "view/view.h"

static const char usage_text[] = "usage: xnoc replay EVENTS.jsonl [options]\n"
                                 "\n"
                                 "Replays the packets of an --events file (xnoc run/collective --events) on its\n"
                                 "network: per-link flit totals, the busiest link, and the view's pictures.\n"
                                 "  --topo T      check the file against this topology (default: its network line)\n"
                                 "  --json        one JSON object on stdout\n"
                                 "View (docs/view.md):\n";

/* --frames: at most this many pictures from one file (a hostile or sparse
 * file must not fill the disk; --frames-window picks the cycles) */
#define REPLAY_MAX_FRAMES 100000

typedef struct {
    const char *path;
    replay_file e;
    uint64_t *count; /* [channel] flits so far: links, then injection, then ejection channels */
} replay;

static void load(replay *r, const char *topo_opt)
{
    FILE *f = fopen(r->path, "r");
    if (!f) cli_fail(EXIT_USAGE, "%s: %s", r->path, strerror(errno));
    char err[600];
    int rc = replay_read(f, r->path, topo_opt, &r->e, err, sizeof err);
    fclose(f);
    if (rc) cli_fail(EXIT_USAGE, "%s", err);
}

/* Frames come every frame_every cycles of the replayed span (or of its
 * --frames-window): refuse a span that would make more than REPLAY_MAX_FRAMES. */
static void check_frames(const replay *r, const view_opts *o, uint64_t from, uint64_t to)
{
    if (!o->frames_dir) return;
    uint64_t lo = from > o->frames_from ? from : o->frames_from, hi = to;
    if (o->frames_to && o->frames_to - 1 < hi) hi = o->frames_to - 1;
    uint64_t every = o->frame_every ? o->frame_every : 1, n = hi >= lo ? (hi - lo) / every + 2 : 1;
    if (n > REPLAY_MAX_FRAMES)
        cli_fail(EXIT_USAGE,
                 "%s: --frames would write %llu frames (cycles %llu..%llu, one every %llu); at most %d: raise "
                 "--frame-every or choose cycles with --frames-window",
                 r->path, (unsigned long long)n, (unsigned long long)lo, (unsigned long long)hi,
                 (unsigned long long)every, REPLAY_MAX_FRAMES);
}

/* The view samples the replay at the cycles it asks for (view_next_due()),
 * jumping over the cycles in between: the work is the file's spans and the
 * pictures, whatever the cycles' spread. */
static int show(replay *r, const view_opts *vo)
{
    const topo *t = r->e.t;
    int nch = t->nterms * t->k;
    char err[512], status[96];
    char title[160];
    view_opts o = *vo;
    if (!o.title) {
        const char *base = strrchr(r->path, '/');
        snprintf(title, sizeof title, "%s, replay of %s", t->name, base ? base + 1 : r->path);
        o.title = title;
    }
    uint64_t from = r->e.n ? r->e.first : 0, to = r->e.n ? r->e.last + 1 : 1;
    check_frames(r, &o, from, to);
    view *v = view_open(t, &o, err, sizeof err);
    if (!v) cli_fail(EXIT_USAGE, "%s", err);
    snprintf(status, sizeof status, "replay: %llu packets", (unsigned long long)r->e.packets);
    view_sample s = {.link_flits = r->count,
                     .inj_flits = r->count + t->nlinks,
                     .ej_flits = r->count + t->nlinks + nch,
                     .status = status,
                     .active_from = from,
                     .active_to = to};
    replay_sweep w;
    replay_sweep_init(&w, &r->e);
    int rc = 0, stopped = 0;
    for (uint64_t c = from;;) {
        if (cli_interrupted) {
            if (c > from) replay_sweep_at(&w, c - 1, r->count);
            stopped = 1;
            break;
        }
        if (view_due(v, c)) {
            replay_sweep_at(&w, c, r->count);
            s.cycle = c;
            int u = view_update(v, &s);
            if (u == VIEW_QUIT) stopped = 1;
            if (u == VIEW_ERROR) {
                cli_error("view: %s", view_error(v));
                rc = 1;
            }
            if (u != VIEW_OK) break;
        }
        uint64_t next = view_next_due(v);
        if (o.live && !o.frames_dir && next > c) {
            /* the live window (no frames to keep): over a quiet stretch, on to a window before the next flit */
            replay_sweep_at(&w, c, r->count);
            uint64_t f = replay_sweep_next_flit(&w, c);
            if (f != UINT64_MAX && f > o.window && f - o.window > next) next = f - o.window;
            if (f == UINT64_MAX && next < to) next = to;
        }
        if (next <= c) next = c + 1;
        if (next > to) break;
        c = next;
    }
    if (!rc && !stopped) replay_sweep_at(&w, UINT64_MAX, r->count);
    replay_sweep_free(&w);
    s.cycle = to;
    if (!rc && view_finish(v, &s)) {
        cli_error("view: %s", view_error(v));
        rc = 1;
    }
    view_close(v);
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    cli_catch_sigint(); /* Ctrl-C stops the replay, and closes a held --view window */
    replay r = {0};
    view_opts vo;
    view_opts_default(&vo);
    cmd_opts co;
    cmd_opts_init(&co, OPT_TOPO | OPT_JSON);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            fputs(view_usage, stdout);
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) continue;
        else if (view_cli_arg(&vo, argc, argv, &i)) continue;
        else if (a[0] != '-') {
            if (r.path) cli_fail(EXIT_USAGE, "one events file only ('%s' and '%s')", r.path, a);
            r.path = a;
        } else cmd_bad_option(a, usage_text);
    }
    if (!r.path) cli_fail(EXIT_USAGE, "no events file given (xnoc replay EVENTS.jsonl)");
    int json = co.json;
    load(&r, co.topo);
    const topo *t = r.e.t;
    int nch = t->nterms * t->k;
    r.count = xcalloc((size_t)replay_nchan(&r.e) + 1, sizeof *r.count);
    uint64_t *link = r.count, *inj = r.count + t->nlinks, *ej = r.count + t->nlinks + nch;
    int rc = 0;
    if (view_wanted(&vo)) rc = show(&r, &vo);
    else
        for (size_t i = 0; i < r.e.n; i++) r.count[r.e.s[i].chan] += r.e.s[i].flits;
    uint64_t lf = 0, inf = 0, ejf = 0, from = r.e.first, to = r.e.last;
    int busy = 0;
    for (int l = 0; l < t->nlinks; l++) {
        lf += link[l];
        if (link[l] > link[busy]) busy = l;
    }
    for (int c = 0; c < nch; c++) {
        inf += inj[c];
        ejf += ej[c];
    }
    double span = r.e.n ? (double)(to - from + 1) : 1;
    char pn[16] = "";
    if (t->nlinks) topo_port_name_at(t, t->links[busy].src, t->links[busy].src_port, pn, sizeof pn);
    json_t *o =
        json_pack("{s:s, s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "file", r.path, "topo", t->name,
                  "ports", t->k, "packets", (json_int_t)r.e.packets, "unit_packets", (json_int_t)r.e.unit_packets,
                  "hops", (json_int_t)r.e.hops, "ejects", (json_int_t)r.e.ejects, "incomplete",
                  (json_int_t)r.e.incomplete, "inject_flits", (json_int_t)inf, "link_flits", (json_int_t)lf,
                  "eject_flits", (json_int_t)ejf, "first_cycle", (json_int_t)from, "last_cycle", (json_int_t)to);
    json_t *links = json_array();
    for (int l = 0; l < t->nlinks; l++) json_array_append_new(links, json_integer((json_int_t)link[l]));
    json_object_set_new(o, "links", links);
    if (t->nlinks)
        json_object_set_new(o, "busiest_link",
                            json_pack("{s:i, s:i, s:s, s:i, s:I, s:f}", "link", busy, "router", t->links[busy].src,
                                      "port", pn, "next", t->links[busy].dst, "flits", (json_int_t)link[busy],
                                      "utilization", (double)link[busy] / span));
    if (json) {
        char *text = json_dumps(o, JSON_COMPACT);
        puts(text);
        free(text);
    } else { /* the text is written from the JSON report (util/report.h) */
        report_printf(
            stdout, o,
            "{file}: {topo}, {packets} packets ({unit_packets} from coding units), {hops} hops, cycles "
            "{first_cycle}..{last_cycle}\n"
            "flits: {inject_flits} injected, {link_flits} on router-to-router links, {eject_flits} ejected\n");
        if (report_get(o, "busiest_link"))
            report_printf(stdout, o,
                          "busiest link: {busiest_link.link} (router {busiest_link.router} {busiest_link.port} -> "
                          "router {busiest_link.next}), {busiest_link.flits} flits, {busiest_link.utilization:%.3f} "
                          "flits/cycle over the span\n");
        if (json_integer_value(report_get(o, "incomplete")))
            report_printf(stdout, o, "{incomplete} packets were still in flight when the run ended\n");
    }
    json_decref(o);
    free(r.count);
    replay_free(&r.e);
    return rc;
}
