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

/* A flit on a view channel: links [0, nlinks), injection [nlinks, +nch), ejection [+nch, +nch) */
typedef struct {
    uint64_t cycle;
    int chan;
} flit_at;

typedef struct {
    const char *path;
    topo *t;
    flit_at *f;
    size_t n, cap;
    uint64_t packets, unit_packets, hops, ejects, unit_ejects, incomplete;
} replay;

static int cmp_flit(const void *a, const void *b)
{
    const flit_at *x = a, *y = b;
    return x->cycle < y->cycle ? -1 : x->cycle > y->cycle ? 1 : x->chan - y->chan;
}

static long field(json_t *o, const char *key, const char *path, long line, long lo, long hi)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        cli_fail(EXIT_USAGE, "%s:%ld: \"%s\" must be an integer in %ld..%ld", path, line, key, lo, hi);
    return (long)json_integer_value(v);
}

static void push(replay *r, uint64_t cycle, int chan)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4096;
        r->f = xrealloc(r->f, r->cap * sizeof *r->f);
    }
    r->f[r->n++] = (flit_at){cycle, chan};
}

/* The topology from the file's network line (or --topo, which must agree). */
static void network_line(replay *r, json_t *o, const char *topo_opt, long line)
{
    const char *name = json_string_value(json_object_get(o, "topo"));
    long k = field(o, "ports", r->path, line, 1, 16);
    if (!name) cli_fail(EXIT_USAGE, "%s:%ld: the network line names no \"topo\"", r->path, line);
    char err[300];
    if (!(r->t = topo_parse(name, (int)k, err, sizeof err))) cli_fail(EXIT_USAGE, "%s:%ld: %s", r->path, line, err);
    if (topo_opt) {
        topo *u = topo_parse(topo_opt, (int)k, err, sizeof err);
        if (!u) cli_fail(EXIT_USAGE, "%s", err);
        if (strcmp(u->name, r->t->name))
            cli_fail(EXIT_USAGE, "%s:%ld: the events are of %s, not of --topo %s", r->path, line, r->t->name, u->name);
        topo_free(u);
    }
}

/* One inject/hop/eject line: its flits onto their channel. */
static void packet_line(replay *r, json_t *o, const char *ev, long line)
{
    const topo *t = r->t;
    int nch = t->nterms * t->k, chan = -1;
    long router = field(o, "router", r->path, line, 0, t->nrouters - 1);
    long port = field(o, "port", r->path, line, 0, t->nports); /* nports: the coding unit's port */
    long flits = field(o, "flits", r->path, line, 1, 1L << 30);
    long c0 = field(o, "cycle", r->path, line, 0, 1L << 62);
    json_t *tail = json_object_get(o, "tail_cycle");
    long c1 = json_is_integer(tail) ? (long)json_integer_value(tail) : c0 + flits - 1;
    if (!json_is_integer(tail)) r->incomplete++;
    if (c1 < c0) cli_fail(EXIT_USAGE, "%s:%ld: tail_cycle %ld before cycle %ld", r->path, line, c1, c0);
    int unit = json_object_get(o, "unit") != NULL;
    if (!strcmp(ev, "hop")) {
        int l = port < t->nports ? t->out_link[router * t->nports + port] : -1;
        if (l < 0)
            cli_fail(EXIT_USAGE, "%s:%ld: router %ld has no link at port %ld in %s", r->path, line, router, port,
                     t->name);
        chan = l;
        r->hops++;
    } else if (unit) { /* into or out of a coding unit: no channel of the picture */
        if (!strcmp(ev, "inject")) r->unit_packets++;
        else r->unit_ejects++;
        return;
    } else {
        long node = field(o, "node", r->path, line, 0, t->nterms - 1);
        long c = field(o, "channel", r->path, line, 0, t->k - 1);
        if (topo_term_router(t, (int)node) != router || topo_term_port(t, (int)node, (int)c) != port)
            cli_fail(EXIT_USAGE, "%s:%ld: node %ld channel %ld is not at router %ld port %ld in %s", r->path, line,
                     node, c, router, port, t->name);
        chan = t->nlinks + (!strcmp(ev, "inject") ? 0 : nch) + (int)(node * t->k + c);
        if (!strcmp(ev, "inject")) r->packets++;
        else r->ejects++;
    }
    for (long i = 0; i < flits; i++) push(r, (uint64_t)(c0 + (flits > 1 ? (c1 - c0) * i / (flits - 1) : 0)), chan);
}

static void load(replay *r, const char *topo_opt)
{
    FILE *f = fopen(r->path, "r");
    if (!f) cli_fail(EXIT_USAGE, "%s: %s", r->path, strerror(errno));
    char *buf = NULL;
    size_t cap = 0;
    long line = 0;
    while (getline(&buf, &cap, f) > 0) {
        line++;
        json_error_t je;
        json_t *o = json_loads(buf, 0, &je);
        if (!json_is_object(o)) cli_fail(EXIT_USAGE, "%s:%ld: not a JSON object (%s)", r->path, line, je.text);
        const char *ev = json_string_value(json_object_get(o, "event"));
        if (!ev) cli_fail(EXIT_USAGE, "%s:%ld: no \"event\"", r->path, line);
        if (!strcmp(ev, "network")) {
            if (r->t) cli_fail(EXIT_USAGE, "%s:%ld: a second network line", r->path, line);
            network_line(r, o, topo_opt, line);
        } else if (!strcmp(ev, "inject") || !strcmp(ev, "hop") || !strcmp(ev, "eject")) {
            if (!r->t)
                cli_fail(EXIT_USAGE,
                         "%s:%ld: a packet before the network line (record it with xnoc run/collective --events)",
                         r->path, line);
            packet_line(r, o, ev, line);
        } else if (strcmp(ev, "send") && strcmp(ev, "deliver")) {
            cli_fail(EXIT_USAGE, "%s:%ld: unknown event '%s' (network, send, inject, hop, eject, deliver)", r->path,
                     line, ev);
        }
        json_decref(o);
    }
    free(buf);
    fclose(f);
    if (!r->t) cli_fail(EXIT_USAGE, "%s: no network line: not an --events file of xnoc run or collective", r->path);
    qsort(r->f, r->n, sizeof *r->f, cmp_flit);
}

/* Feeds the flits cycle by cycle to the view (its own pacing decides what it draws). */
static int show(replay *r, const view_opts *vo, uint64_t *link, uint64_t *inj, uint64_t *ej)
{
    const topo *t = r->t;
    int nch = t->nterms * t->k;
    char err[512], status[96];
    char title[160];
    view_opts o = *vo;
    if (!o.title) {
        const char *base = strrchr(r->path, '/');
        snprintf(title, sizeof title, "%s, replay of %s", t->name, base ? base + 1 : r->path);
        o.title = title;
    }
    view *v = view_open(t, &o, err, sizeof err);
    if (!v) cli_fail(EXIT_USAGE, "%s", err);
    uint64_t from = r->n ? r->f[0].cycle : 0, to = r->n ? r->f[r->n - 1].cycle + 1 : 1;
    snprintf(status, sizeof status, "replay: %llu packets", (unsigned long long)r->packets);
    view_sample s = {
        .link_flits = link, .inj_flits = inj, .ej_flits = ej, .status = status, .active_from = from, .active_to = to};
    size_t i = 0;
    int rc = 0;
    for (uint64_t c = from; c <= to && !cli_interrupted; c++) {
        for (; i < r->n && r->f[i].cycle <= c; i++) {
            int ch = r->f[i].chan;
            if (ch < t->nlinks) link[ch]++;
            else if (ch < t->nlinks + nch) inj[ch - t->nlinks]++;
            else ej[ch - t->nlinks - nch]++;
        }
        if (view_due(v, c)) {
            s.cycle = c;
            int u = view_update(v, &s);
            if (u == VIEW_QUIT) break;
            if (u == VIEW_ERROR) {
                cli_error("view: %s", view_error(v));
                rc = 1;
                break;
            }
        }
    }
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
    const char *topo_opt = NULL;
    int json = 0;
    replay r = {0};
    view_opts vo;
    view_opts_default(&vo);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            fputs(view_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) json = 1;
        else if (view_cli_arg(&vo, argc, argv, &i)) continue;
        else if (!strcmp(a, "--topo") && i + 1 < argc) topo_opt = argv[++i];
        else if (a[0] != '-') {
            if (r.path) cli_fail(EXIT_USAGE, "one events file only ('%s' and '%s')", r.path, a);
            r.path = a;
        } else cli_fail(EXIT_USAGE, "unknown or incomplete option '%s' (see xnoc replay --help)", a);
    }
    if (!r.path) cli_fail(EXIT_USAGE, "no events file given (xnoc replay EVENTS.jsonl)");
    load(&r, topo_opt);
    const topo *t = r.t;
    int nch = t->nterms * t->k;
    uint64_t *link = xcalloc((size_t)t->nlinks + 1, sizeof *link), *inj = xcalloc((size_t)nch, sizeof *inj),
             *ej = xcalloc((size_t)nch, sizeof *ej);
    int rc = 0;
    if (view_wanted(&vo)) rc = show(&r, &vo, link, inj, ej);
    else
        for (size_t i = 0; i < r.n; i++) {
            int ch = r.f[i].chan;
            if (ch < t->nlinks) link[ch]++;
            else if (ch < t->nlinks + nch) inj[ch - t->nlinks]++;
            else ej[ch - t->nlinks - nch]++;
        }
    uint64_t lf = 0, inf = 0, ejf = 0, from = r.n ? r.f[0].cycle : 0, to = r.n ? r.f[r.n - 1].cycle : 0;
    int busy = 0;
    for (int l = 0; l < t->nlinks; l++) {
        lf += link[l];
        if (link[l] > link[busy]) busy = l;
    }
    for (int c = 0; c < nch; c++) {
        inf += inj[c];
        ejf += ej[c];
    }
    double span = r.n ? (double)(to - from + 1) : 1;
    char pn[16] = "";
    if (t->nlinks) topo_port_name(t, t->links[busy].src_port, pn, sizeof pn);
    json_t *o =
        json_pack("{s:s, s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "file", r.path, "topo", t->name,
                  "ports", t->k, "packets", (json_int_t)r.packets, "unit_packets", (json_int_t)r.unit_packets, "hops",
                  (json_int_t)r.hops, "ejects", (json_int_t)r.ejects, "incomplete", (json_int_t)r.incomplete,
                  "inject_flits", (json_int_t)inf, "link_flits", (json_int_t)lf, "eject_flits", (json_int_t)ejf,
                  "first_cycle", (json_int_t)from, "last_cycle", (json_int_t)to);
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
    } else {
        report_printf(
            stdout, o,
            "{file}: {topo}, {packets} packets ({unit_packets} from coding units), {hops} hops, cycles "
            "{first_cycle}..{last_cycle}\n"
            "flits: {inject_flits} injected, {link_flits} on router-to-router links, {eject_flits} ejected\n");
        if (t->nlinks)
            report_printf(stdout, o,
                          "busiest link: {busiest_link.link} (router {busiest_link.router} {busiest_link.port} -> "
                          "router {busiest_link.next}), {busiest_link.flits} flits, {busiest_link.utilization:%.3f} "
                          "flits/cycle over the span\n");
        if (r.incomplete) report_printf(stdout, o, "{incomplete} packets were still in flight when the run ended\n");
    }
    json_decref(o);
    free(link);
    free(inj);
    free(ej);
    free(r.f);
    topo_free(r.t);
    return rc;
}
