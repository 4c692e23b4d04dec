/* sweep.c - `xnoc sweep SPEC`: a grid of xnoc runs, N at a time or on Slurm.
 *
 * SPEC (JSON, docs/sweeps.md; read and checked by sweep_spec.c):
 *   {"command": "traffic",                       the xnoc command of every point
 *    "fixed":   {"pattern": "uniform", ...},     options every point gets
 *    "axes":    {"topo": ["mesh:4x4", ...], ...},the grid: every combination
 *    "metrics": ["throughput", "avg_latency"],   JSON keys of the report -> CSV
 *    "plot":    {"x": "rate", "y": "avg_latency", "series": ["topo"]}}   optional
 * Option names are the command's, without "--"; a value true is a bare flag.
 *
 * Every point is its own `xnoc COMMAND --json ...` process, an argument
 * vector started by the sweep (sweep_run.c: --jobs N at a time, default the
 * cores).  Its report is written to OUT/points/ID.json.tmp and renamed to
 * ID.json by the sweep when the process succeeded, so a point is either
 * finished or absent: a killed sweep resumes with the points that are
 * missing.  At the end OUT/results.jsonl (one line per point: the axes'
 * values, then the report) and OUT/results.csv (a header row, then the
 * axes' values and the metrics) are written from the points; --plot draws
 * OUT/plot.png with gnuplot.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/report.h"
#include "cmd/cmds.h"
#include "cmd/cmd_opts.h"
#include "cmd/metrics.h"
#include "cmd/sweep_run.h"
#include "cmd/sweep_spec.h"

static const char *usage_text =
    "usage: xnoc sweep SPEC.json --out DIR [--jobs N] [--engine local|slurm] [--plot] [--dry-run] [--json]\n"
    "\n"
    "Runs every point of the grid SPEC describes (a command, fixed options, axes\n"
    "with lists of values, the metrics to tabulate) as its own xnoc process, N at\n"
    "a time (default: the cores).  Finished points are kept in DIR/points/ and\n"
    "skipped when the sweep is run again (resume after an interruption).  Writes\n"
    "DIR/results.jsonl and DIR/results.csv (header, then one row per point: the\n"
    "axes' values, then the metrics); --plot draws DIR/plot.png (gnuplot: the\n"
    "spec's plot.y against plot.x, one line per combination of plot.series).\n"
    "--dry-run prints the points' commands.  --engine slurm submits the points as\n"
    "a Slurm job array (DIR/sweep.sbatch, sbatch --wait; SBATCH_* variables pass\n"
    "partition, account, time limits) and gathers them the same way; DIR must be\n"
    "on a file system the nodes share.  One sweep at a time writes into DIR;\n"
    "SIGINT, SIGTERM and SIGHUP stop it (exit status 130, 143, 129), keeping finished points.\n"
    "docs/sweeps.md.\n";

/* the points still to run, as sweep_run.c asks for them */
typedef struct {
    const sweep_spec *s;
    const char *self;
    long *todo; /* grid positions */
    size_t *idx;
    char *id, **argv;
} jobs_ctx;

static void grid_index(const sweep_spec *s, long k, size_t *idx)
{
    for (size_t a = s->naxes; a-- > 0;) {
        idx[a] = (size_t)k % s->axes[a].nv;
        k /= (long)s->axes[a].nv;
    }
}

/* argv of point idx: self COMMAND --json WORDS... */
static char **point_argv(const sweep_spec *s, const char *self, const size_t *idx)
{
    size_t nw;
    char **w = sweep_point_words(s, idx, &nw);
    char **argv = xcalloc(nw + 4, sizeof *argv);
    argv[0] = xstrdup(self);
    argv[1] = xstrdup(s->command);
    argv[2] = xstrdup("--json");
    memcpy(argv + 3, w, nw * sizeof *w);
    free(w);
    return argv;
}

static void make_job(void *ctx, long k, char **id, char ***argv)
{
    jobs_ctx *c = ctx;
    free(c->id);
    sweep_strv_free(c->argv);
    grid_index(c->s, c->todo[k], c->idx);
    *id = c->id = sweep_point_id(c->s, c->idx);
    *argv = c->argv = point_argv(c->s, c->self, c->idx);
}

static int file_ok(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    json_decref(j);
    return j != NULL;
}

static void csv_text(FILE *f, const char *s, int quote)
{
    if (!quote && !strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* a report value in the CSV */
static void csv_cell(FILE *f, json_t *v)
{
    if (!v) return;
    if (json_is_string(v)) csv_text(f, json_string_value(v), 1);
    else if (json_is_real(v)) { /* integral values (hop counts) in full, the rest to 10 digits */
        double d = json_real_value(v);
        if (d == (double)(long long)d && d < 9e15 && d > -9e15) fprintf(f, "%lld", (long long)d);
        else fprintf(f, "%.10g", d);
    } else if (json_is_integer(v)) fprintf(f, "%lld", (long long)json_integer_value(v));
    else fputs(json_is_true(v) ? "true" : json_is_false(v) ? "false" : "null", f);
}

/* a spec string in a gnuplot script: single-quoted (gnuplot substitutes
 * nothing there; a quote is doubled); the reader refused control characters */
static char *gq(const char *s)
{
    char *o = xmalloc(2 * strlen(s) + 3), *q = o;
    *q++ = '\'';
    for (; *s; s++) {
        if (*s == '\'') *q++ = '\'';
        *q++ = *s;
    }
    *q++ = '\'';
    *q = 0;
    return o;
}

static char *append(char *s, const char *t)
{
    char *o = xasprintf("%s%s", s ? s : "", t);
    free(s);
    return o;
}

/* plot.dat, plot.gp and plot.png in out: gnuplot runs there, so the script
 * names its files without out's path.  keys[i]: row i's series label. */
static void plot(const char *out, const sweep_spec *s, json_t *rows, char **keys)
{
    const char *x = s->plot_x, *red = s->plot_reduce;
    if (!x)
        cli_fail(EXIT_USAGE, "--plot: the spec needs \"plot\": {\"x\": AXIS, \"y\": METRIC or [METRICS], "
                             "\"series\": [AXES]}");
    size_t ny = s->nplot_y, block = 0, nrows = json_array_size(rows);
    char *dat = xasprintf("%s/plot.dat", out), *gp = xasprintf("%s/plot.gp", out);
    FILE *f = fopen(dat, "w"), *g = fopen(gp, "w");
    if (!f || !g) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", dat, strerror(errno));
    /* the series, in the order the grid lists them */
    json_t *seen = json_object(), *order = json_array();
    for (size_t i = 0; i < nrows; i++)
        if (!json_object_get(seen, keys[i])) {
            json_object_set_new(seen, keys[i], json_true());
            json_array_append_new(order, json_string(keys[i]));
        }
    /* axis labels with units from the one table of metrics (metrics.c); an
     * x that is an axis is an option (rate: offered load), else a report key */
    int x_is_axis = 0;
    for (size_t a = 0; a < s->naxes; a++) x_is_axis |= !strcmp(s->axes[a].name, x);
    char *ylab = metric_axis_labels(s->command, s->plot_y, ny), *xlab = metric_axis_label(s->command, x, x_is_axis);
    const metric *xm = metric_find(s->command, x, x_is_axis);
    const char *y = s->plot_y[0];
    char *qx = gq(xlab), *qtitle = NULL;
    {
        char *yt = NULL; /* the title names the quantities, without units */
        for (size_t yi = 0; yi < ny; yi++) {
            const metric *m = metric_find(s->command, s->plot_y[yi], 0);
            yt = append(yt, yi ? ", " : "");
            yt = append(yt, m ? m->label : s->plot_y[yi]);
        }
        char *t = xasprintf("%s: %s vs %s", s->command, yt, xm ? xm->label : x);
        free(yt);
        qtitle = gq(t);
        free(t);
    }
    fprintf(g, "set terminal pngcairo noenhanced size %s font 'DejaVu Sans,10'\nset output 'plot.png'\n",
            red ? "1100,600" : "900,600");
    if (red) { /* one point per configuration: the legend beside the plot names them */
        char *l = xasprintf("%s of %s", red, ylab), *ql = gq(l);
        fprintf(g,
                "set xlabel %s\nset ylabel %s\nset key outside right top\nset grid\nset offsets graph 0.05, "
                "graph 0.05, graph 0.05, graph 0.05\n",
                qx, ql);
        free(l);
        free(ql);
    } else {
        char *ql = gq(ylab);
        fprintf(g, "set xlabel %s\nset ylabel %s\nset key top left\nset grid\n", qx, ql);
        free(ql);
    }
    if (s->plot_logy) fprintf(g, "set logscale y\n");
    if (s->plot_logx) fprintf(g, "set logscale x 2\n");
    fprintf(g, "set title %s\n", qtitle);
    fprintf(g, "plot ");
    for (size_t yi = 0; yi < ny; yi++)
        for (size_t q = 0; q < json_array_size(order); q++) {
            const char *key = json_string_value(json_array_get(order, q)), *yname = s->plot_y[yi];
            fprintf(f, "# %s\n", key);
            /* "reduce": "max" | "min": one point per x value of the series (the best y over the other axes) */
            json_t *best = json_object();
            for (size_t i = 0; i < nrows; i++) {
                json_t *row = json_array_get(rows, i), *rep = json_object_get(row, "report");
                json_t *xv = json_object_get(row, x), *yv = json_object_get(rep, yname);
                if (!xv) xv = json_object_get(rep, x); /* x may be a report key too */
                if (strcmp(keys[i], key) || !json_is_number(xv) || !json_is_number(yv)) continue;
                if (!red) {
                    fprintf(f, "%.10g %.10g\n", json_number_value(xv), json_number_value(yv));
                    continue;
                }
                char xs[64];
                snprintf(xs, sizeof xs, "%.10g", json_number_value(xv));
                json_t *b = json_object_get(best, xs);
                int better = !strcmp(red, "min") ? json_number_value(yv) < json_number_value(b)
                                                 : json_number_value(yv) > json_number_value(b);
                if (!b || better) json_object_set(best, xs, yv);
            }
            const char *bx;
            json_t *bv;
            SWEEP_OBJ_EACH(best, bx, bv) fprintf(f, "%s %.10g\n", bx, json_number_value(bv));
            json_decref(best);
            fprintf(f, "\n\n");
            /* a reduced plot's points differ in shape too (gnuplot's colours repeat after eight) */
            static const int shape[] = {7, 5, 9, 11, 13, 15, 1, 2, 3, 4, 6, 8, 10, 12};
            char style[48];
            if (red) snprintf(style, sizeof style, "points pt %d ps 1.6", shape[block % 14]);
            else snprintf(style, sizeof style, "linespoints");
            const metric *ym = metric_find(s->command, yname, 0);
            char *t = xasprintf("%s%s%s", key, key[0] && ny > 1 ? " " : "",
                                key[0] && ny == 1 ? ""
                                : ym              ? ym->label
                                                  : yname),
                 *qt = gq(t);
            fprintf(g, "%s'plot.dat' index %zu with %s title %s", block ? ", " : "", block, style, qt);
            free(t);
            free(qt);
            block++;
        }
    /* saturated points (traffic reports say so) ringed in black */
    size_t nsat = 0;
    fprintf(f, "# saturated\n");
    for (size_t i = 0; i < nrows && !red; i++) { /* a reduced plot shows no single run */
        json_t *row = json_array_get(rows, i), *rep = json_object_get(row, "report");
        json_t *xv = json_object_get(row, x), *yv = json_object_get(rep, y);
        if (!xv) xv = json_object_get(rep, x);
        if (!json_is_true(json_object_get(rep, "saturated")) || !json_is_number(xv) || !json_is_number(yv)) continue;
        fprintf(f, "%.10g %.10g\n", json_number_value(xv), json_number_value(yv));
        nsat++;
    }
    fprintf(f, "\n\n");
    if (nsat) fprintf(g, ", 'plot.dat' index %zu with points pt 6 ps 2.5 lc rgb 'black' title 'saturated'", block);
    fprintf(g, "\n");
    if (fclose(f) | fclose(g)) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", gp, strerror(errno));
    json_decref(seen);
    json_decref(order);
    free(ylab);
    free(xlab);
    free(qx);
    free(qtitle);
    char *argv[] = {"gnuplot", "plot.gp", NULL};
    char why[300];
    if (sweep_run_tool(argv, -1, out, why, sizeof why))
        cli_fail(EXIT_RUNFAIL, "--plot: %s (gnuplot-nox: make deps); the data and script are kept: %s", why, gp);
    free(dat);
    free(gp);
}

/* "area": true in the spec: each point's router area (xnoc synth, by the
 * point's topo, router and ports options) joins its report as
 * cells_per_router, router_cells, unit_cells and network_cells.  One
 * synthesis per configuration (memo here, cached on disk by synth.c). */
static void add_area(const char *self, const sweep_spec *s, const size_t *idx, json_t *rep, json_t *memo)
{
    static const char *const keys[] = {"topo", "router", "ports"};
    char *argv[10] = {(char *)self, "synth", "--json"};
    int n = 3;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const sweep_val *v = NULL;
        for (size_t a = 0; a < s->nfixed; a++)
            if (!strcmp(s->fixed[a].name, keys[i])) v = s->fixed[a].v;
        for (size_t a = 0; a < s->naxes; a++)
            if (!strcmp(s->axes[a].name, keys[i])) v = &s->axes[a].v[idx[a]];
        if (!v || v->omit) continue;
        argv[n++] = xasprintf("--%s", keys[i]);
        if (!v->flag) argv[n++] = xstrdup(v->word);
    }
    char *key = NULL;
    for (int i = 3; i < n; i++) {
        char *q = sweep_sh_quote(argv[i]);
        key = append(key, " ");
        key = append(key, q);
        free(q);
    }
    json_t *area = json_object_get(memo, key ? key : "");
    if (!area) {
        char *text;
        size_t len;
        int st = sweep_capture(argv, &text, &len);
        json_error_t je;
        area = st == 0 ? json_loadb(text, len, 0, &je) : NULL;
        free(text);
        if (!area) cli_fail(EXIT_RUNFAIL, "\"area\": xnoc synth%s failed (is yosys installed? make deps)", key);
        json_object_set_new(memo, key ? key : "", area);
    }
    for (int i = 3; i < n; i++) free(argv[i]);
    free(key);
    json_t *unit = json_object_get(area, "unit");
    json_object_set(rep, "cells_per_router", json_object_get(area, "cells_per_router"));
    json_object_set(rep, "network_cells", json_object_get(area, "network_cells"));
    json_object_set(rep, "router_cells", json_object_get(json_object_get(area, "router"), "cells"));
    json_object_set_new(rep, "unit_cells",
                        json_is_object(unit) ? json_incref(json_object_get(unit, "cells")) : json_integer(0));
}

/* the spec, read and checked against the options of `xnoc COMMAND --help` */
static sweep_spec *read_spec(const char *specf, const char *self)
{
    size_t n;
    char *text = cli_slurp(specf, &n), *err = NULL;
    if (!text) cli_fail(EXIT_USAGE, "%s: %s", specf, strerror(errno));
    char *cmd = sweep_spec_command(text, n), **opts = NULL;
    if (cmd) {
        char *argv[] = {(char *)self, cmd, "--help", NULL}, *help;
        size_t hn;
        int st = sweep_capture(argv, &help, &hn);
        if (st != 0) cli_fail(EXIT_RUNFAIL, "xnoc %s --help failed (for the options of %s)", cmd, specf);
        opts = sweep_help_options(help);
        free(help);
    }
    sweep_spec *s = sweep_spec_parse(text, n, (const char *const *)opts, &err);
    free(text);
    free(cmd);
    sweep_strv_free(opts);
    if (!s) cli_fail(EXIT_USAGE, err[0] >= '0' && err[0] <= '9' ? "%s:%s" : "%s: %s", specf, err); /* FILE:LINE: */
    return s;
}

/* --dry-run: every point's command, shell-quoted to paste */
static void dry_run(const sweep_spec *s, const char *self)
{
    size_t *idx = xcalloc(s->naxes, sizeof *idx);
    do {
        char **av = point_argv(s, self, idx);
        for (size_t i = 0; av[i]; i++) {
            char *q = sweep_sh_quote(av[i]);
            printf("%s%s", i ? " " : "", q);
            free(q);
        }
        putchar('\n');
        sweep_strv_free(av);
    } while (sweep_next(s, idx));
    free(idx);
}

/* How the points run (the options of the command line). */
typedef struct {
    const char *out, *dir, *self;
    int jobs, slurm;
} sweep_how;

/* Runs the points without a report in h->dir; *done: those that had one.
 * Returns how many ran. */
static long run_points(const sweep_spec *s, const sweep_how *h, long *done)
{
    size_t *idx = xcalloc(s->naxes, sizeof *idx);
    long *todo = xcalloc((size_t)s->npoints, sizeof *todo), ntodo = 0;
    *done = 0;
    for (long k = 0; k < s->npoints; k++, sweep_next(s, idx)) {
        char *id = sweep_point_id(s, idx), *path = xasprintf("%s/%s.json", h->dir, id);
        if (file_ok(path)) (*done)++;
        else todo[ntodo++] = k;
        free(id);
        free(path);
    }
    free(idx);
    int jobs = h->jobs > 0 ? h->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (ntodo) {
        if (cli_progress_enabled()) {
            if (h->slurm)
                fprintf(stderr, "xnoc sweep: %ld points, %ld done before, %ld to run as a Slurm job array\n",
                        s->npoints, *done, ntodo);
            else
                fprintf(stderr, "xnoc sweep: %ld points, %ld done before, %ld to run, %d at a time\n", s->npoints,
                        *done, ntodo, jobs);
        }
        jobs_ctx c = {s, h->self, todo, xcalloc(s->naxes, sizeof(size_t)), NULL, NULL};
        sweep_jobs j = {ntodo, &c, make_job};
        int st = 0;
        if (h->slurm) st = sweep_run_slurm(h->out, h->self, &j, *done, s->npoints);
        else sweep_run_local(h->out, &j, jobs, *done, s->npoints);
        free(c.idx);
        free(c.id);
        sweep_strv_free(c.argv);
        if (sweep_signal)
            cli_fail(cli_signal_status(sweep_signal),
                     "interrupted: finished points are kept in %s/points; run again to resume", h->out);
        if (h->slurm && WIFEXITED(st) && WEXITSTATUS(st) == 127)
            cli_fail(EXIT_RUNFAIL, "sbatch is missing (make deps)");
        /* sbatch --wait fails when any task failed: the points tell which */
    }
    free(todo);
    return ntodo;
}

/* The gathered results: results.jsonl and results.csv as they are written,
 * the rows for the plot, the failed points. */
typedef struct {
    FILE *rj, *rc;
    json_t *rows, *area_memo;
    char **keys; /* [row]: its series label */
    long failed;
    char *first_err; /* "ID: the first line its stderr had" of the first failed point */
} gather_ctx;

/* "ID: why" of a point without a report at path */
static char *point_error(const char *path, const char *id)
{
    char *ep = xasprintf("%s.err", path), *line = NULL, *msg;
    size_t cap = 0;
    FILE *e = fopen(ep, "r");
    if (e && getline(&line, &cap, e) > 0) {
        line[strcspn(line, "\n")] = 0;
        msg = xasprintf("%s: %s", id, line);
    } else msg = xasprintf("%s: %s", id, e ? "no report, nothing on stderr" : "no report");
    if (e) fclose(e);
    free(line);
    free(ep);
    return msg;
}

/* point idx's report rep into the CSV, the JSON lines and the rows (which take rep) */
static void gather_row(gather_ctx *g, const sweep_spec *s, const size_t *idx, json_t *rep)
{
    json_t *row = json_object();
    char *key = NULL;
    for (size_t a = 0; a < s->naxes; a++) {
        const sweep_val *v = &s->axes[a].v[idx[a]];
        json_object_set(row, s->axes[a].name, v->json);
        if (a) fputc(',', g->rc);
        csv_text(g->rc, v->cell, json_is_string(v->json));
    }
    for (size_t k = 0; k < s->nplot_series; k++)
        for (size_t a = 0; a < s->naxes; a++)
            if (!strcmp(s->axes[a].name, s->plot_series[k])) {
                char *p = xasprintf("%s%s=%s", k ? " " : "", s->axes[a].name, s->axes[a].v[idx[a]].cell);
                key = append(key, p);
                free(p);
            }
    g->keys[json_array_size(g->rows)] = key ? key : xstrdup("");
    for (size_t m = 0; m < s->nmetrics; m++) {
        fputc(',', g->rc);
        csv_cell(g->rc, json_object_get(rep, s->metrics[m]));
    }
    fputc('\n', g->rc);
    /* the row by hand: the axes' numbers as the spec wrote them (jansson
     * would print 0.1 as 0.10000000000000001), then the report */
    fputc('{', g->rj);
    for (size_t a = 0; a < s->naxes; a++) {
        const sweep_val *v = &s->axes[a].v[idx[a]];
        fprintf(g->rj, "\"%s\":", s->axes[a].name); /* a-z0-9- */
        if (json_is_number(v->json)) fputs(v->word, g->rj);
        else json_dumpf(v->json, g->rj, JSON_COMPACT | JSON_ENCODE_ANY);
        fputc(',', g->rj);
    }
    fputs("\"report\":", g->rj);
    json_dumpf(rep, g->rj, JSON_COMPACT);
    fputs("}\n", g->rj);
    json_object_set_new(row, "report", rep);
    json_array_append_new(g->rows, row);
}

/* Every point's report into res (JSON lines) and csv (header, then a row per point). */
static void gather(const sweep_spec *s, const sweep_how *h, const char *res, const char *csv, gather_ctx *g)
{
    g->rj = fopen(res, "w");
    g->rc = fopen(csv, "w");
    if (!g->rj || !g->rc) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", res, strerror(errno));
    for (size_t a = 0; a < s->naxes; a++) fprintf(g->rc, "%s%s", a ? "," : "", s->axes[a].name);
    for (size_t m = 0; m < s->nmetrics; m++) {
        fputc(',', g->rc);
        csv_text(g->rc, s->metrics[m], 0);
    }
    fputc('\n', g->rc);
    g->rows = json_array();
    g->area_memo = json_object();
    g->keys = xcalloc((size_t)s->npoints, sizeof *g->keys);
    size_t *idx = xcalloc(s->naxes, sizeof *idx);
    do {
        if (sweep_signal) /* while gathering ("area" runs xnoc synth) */
            cli_fail(cli_signal_status(sweep_signal),
                     "interrupted: finished points are kept in %s/points; run again to resume", h->out);
        char *id = sweep_point_id(s, idx), *path = xasprintf("%s/%s.json", h->dir, id);
        json_error_t je;
        json_t *rep = json_load_file(path, 0, &je);
        if (!rep) {
            g->failed++;
            if (!g->first_err) g->first_err = point_error(path, id);
        }
        free(id);
        free(path);
        if (!rep) continue;
        if (s->area) add_area(h->self, s, idx, rep, g->area_memo);
        gather_row(g, s, idx, rep);
    } while (sweep_next(s, idx));
    free(idx);
    if (fclose(g->rj) | fclose(g->rc)) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", csv, strerror(errno));
}

int cmd_sweep(int argc, char **argv)
{
    const char *specf = NULL;
    sweep_how h = {0};
    int want_plot = 0, dry = 0;
    cmd_opts co; /* --json */
    cmd_opts_init(&co, OPT_JSON);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "--task") && i + 2 < argc && argc == 4) return sweep_task(argv[i + 1], argv[i + 2]);
        else if (!strcmp(a, "--out") && i + 1 < argc) h.out = argv[++i];
        else if (!strcmp(a, "--jobs") && i + 1 < argc) h.jobs = (int)cli_long(a, argv[++i], 1, 1024);
        else if (!strcmp(a, "--plot")) want_plot = 1;
        else if (!strcmp(a, "--engine") && i + 1 < argc) {
            const char *e = argv[++i];
            if (!strcmp(e, "slurm")) h.slurm = 1;
            else if (strcmp(e, "local") && strcmp(e, "parallel")) /* parallel: its name before 2026-11 */
                cli_fail(EXIT_USAGE, "--engine: unknown '%s' (local, slurm)", e);
        } else if (!strcmp(a, "--dry-run")) dry = 1;
        else if (cmd_opts_arg(&co, argc, argv, &i)) continue;
        else if (a[0] != '-' && !specf) specf = a;
        else cmd_bad_option(a, usage_text);
    }
    int json = co.json;
    if (!specf) cli_fail(EXIT_USAGE, "a SPEC file is required (see xnoc sweep --help)");
    if (!h.out && !dry) cli_fail(EXIT_USAGE, "--out DIR is required");
    char *self = sweep_self();
    h.self = self;
    sweep_spec *s = read_spec(specf, self);
    if (dry) {
        dry_run(s, self);
        free(self);
        sweep_spec_free(s);
        return 0;
    }
    const char *out = h.out;
    char *dir = xasprintf("%s/points", out);
    h.dir = dir;
    if ((mkdir(out, 0777) && errno != EEXIST) || (mkdir(dir, 0777) && errno != EEXIST))
        cli_fail(EXIT_USAGE, "--out %s: %s", out, strerror(errno));
    sweep_lock(out);
    sweep_catch_signals();
    long done, ntodo = run_points(s, &h, &done);
    char *res = xasprintf("%s/results.jsonl", out), *csv = xasprintf("%s/results.csv", out);
    gather_ctx g = {0};
    gather(s, &h, res, csv, &g);
    if (want_plot && json_array_size(g.rows)) plot(out, s, g.rows, g.keys);
    json_t *o =
        json_pack("{s:I,s:I,s:I,s:I,s:s,s:s}", "points", (json_int_t)s->npoints, "ran", (json_int_t)ntodo, "resumed",
                  (json_int_t)done, "failed", (json_int_t)g.failed, "results_csv", csv, "results_jsonl", res);
    if (want_plot) json_object_set_new(o, "plot", json_sprintf("%s/plot.png", out));
    if (json) {
        json_dumpf(o, stdout, JSON_COMPACT);
        putchar('\n');
    } else {
        report_printf(stdout, o,
                      "{points} points ({ran} run now, {resumed} kept from before, {failed} failed): {results_csv}, "
                      "{results_jsonl}");
        puts(want_plot ? ", plot.png" : "");
    }
    json_decref(o);
    for (size_t i = 0; i < json_array_size(g.rows); i++) free(g.keys[i]);
    free(g.keys);
    json_decref(g.rows);
    json_decref(g.area_memo);
    free(res);
    free(csv);
    free(dir);
    free(self);
    sweep_spec_free(s);
    if (g.failed) cli_fail(EXIT_RUNFAIL, "%ld point(s) failed; the first: %s", g.failed, g.first_err);
    return 0;
}
