/* sweep.c - `xnoc sweep SPEC`: a grid of xnoc runs on GNU parallel.
 *
 * SPEC (JSON, docs/sweeps.md):
 *   {"command": "traffic",                       the xnoc command of every point
 *    "fixed":   {"pattern": "uniform", ...},     options every point gets
 *    "axes":    {"topo": ["mesh:4x4", ...], ...},the grid: every combination
 *    "metrics": ["throughput", "avg_latency"],   JSON keys of the report -> CSV
 *    "plot":    {"x": "rate", "y": "avg_latency", "series": ["topo"]}}   optional
 * Option names are the command's, without "--"; a value true is a bare flag.
 *
 * Every point is its own `xnoc COMMAND ... --json` process, run by GNU
 * parallel (--jobs N, default: the cores).  Its report is written to
 * OUT/points/ID.json through a temporary file and a rename, so a point is
 * either finished or absent: a killed sweep resumes with the points that
 * are missing.  At the end OUT/results.jsonl (one line per point: the axes'
 * values, then the report) and OUT/results.csv (a header row, then the
 * axes' values and the metrics) are written from the points; --plot draws
 * OUT/plot.png with gnuplot.
 */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/report.h"
#include "cmd/cmds.h"

static const char *usage_text =
    "usage: xnoc sweep SPEC.json --out DIR [--jobs N] [--engine parallel|slurm] [--plot] [--dry-run] [--json]\n"
    "\n"
    "Runs every point of the grid SPEC describes (a command, fixed options, axes\n"
    "with lists of values, the metrics to tabulate) as its own xnoc process on\n"
    "GNU parallel, N at a time (default: the cores).  Finished points are kept\n"
    "in DIR/points/ and skipped when the sweep is run again (resume after an\n"
    "interruption).  Writes DIR/results.jsonl and DIR/results.csv (header, then\n"
    "one row per point: the axes' values, then the metrics); --plot draws\n"
    "DIR/plot.png (gnuplot: the spec's plot.y against plot.x, one line per\n"
    "combination of plot.series).  --dry-run prints the points' commands.\n"
    "--engine slurm submits the points as a Slurm job array (DIR/sweep.sbatch,\n"
    "sbatch --wait; SBATCH_* variables pass partition, account, time limits)\n"
    "and gathers them the same way; DIR must be on a file system the nodes share.\n"
    "docs/sweeps.md.\n";

typedef struct {
    const char *name;
    json_t *values; /* array */
} axis;

/* a value as a command-line word / a CSV cell / a file-name part */
static void value_str(json_t *v, char *buf, size_t len)
{
    if (json_is_string(v)) snprintf(buf, len, "%s", json_string_value(v));
    else if (json_is_integer(v)) snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v)) snprintf(buf, len, "%g", json_real_value(v));
    else if (json_is_true(v)) snprintf(buf, len, "true");
    else if (json_is_false(v)) snprintf(buf, len, "false");
    else snprintf(buf, len, "null");
}

static void point_id(const axis *ax, int nax, const int *idx, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int a = 0; a < nax && n < len; a++) {
        char v[128];
        value_str(json_array_get(ax[a].values, (size_t)idx[a]), v, sizeof v);
        for (char *c = v; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
                  *c == '-'))
                *c = '_';
        n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", a ? "," : "", ax[a].name, v);
    }
}

/* "--name value" words of one option, shell-quoted for parallel */
static void append_opt(char *cmd, size_t len, const char *name, json_t *v)
{
    char val[256];
    size_t n = strlen(cmd);
    if (json_is_true(v)) {
        snprintf(cmd + n, len - n, " --%s", name);
        return;
    }
    if (json_is_false(v) || json_is_null(v)) return;
    value_str(v, val, sizeof val);
    n += (size_t)snprintf(cmd + n, len - n, " --%s '", name);
    for (const char *c = val; *c && n + 5 < len; c++) {
        if (*c == '\'') n += (size_t)snprintf(cmd + n, len - n, "'\\''");
        else cmd[n++] = *c, cmd[n] = 0;
    }
    snprintf(cmd + n, len - n, "'");
}

static int next_index(const axis *ax, int nax, int *idx)
{
    for (int a = nax - 1; a >= 0; a--) {
        if (++idx[a] < (int)json_array_size(ax[a].values)) return 1;
        idx[a] = 0;
    }
    return 0;
}

static int file_ok(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) return 0;
    json_decref(j);
    return 1;
}

static void csv_cell(FILE *f, json_t *v)
{
    char buf[256];
    if (!v) return;
    if (json_is_string(v)) {
        fputc('"', f);
        for (const char *c = json_string_value(v); *c; c++) {
            if (*c == '"') fputc('"', f);
            fputc(*c, f);
        }
        fputc('"', f);
        return;
    }
    if (json_is_real(v)) { /* integral values (hop counts) in full, the rest to 10 digits */
        double d = json_real_value(v);
        if (d == (double)(long long)d && d < 9e15 && d > -9e15) fprintf(f, "%lld", (long long)d);
        else fprintf(f, "%.10g", d);
        return;
    }
    value_str(v, buf, sizeof buf);
    fputs(buf, f);
}

static void plot(const char *out, json_t *spec, const axis *ax, int nax, json_t *rows)
{
    json_t *p = json_object_get(spec, "plot");
    const char *x = json_string_value(json_object_get(p, "x"));
    /* y: a metric, or a list of metrics (one line each per series) */
    json_t *ys = json_object_get(p, "y");
    ys = json_is_string(ys) ? json_pack("[O]", ys) : json_incref(ys);
    const char *y = json_string_value(json_array_get(ys, 0));
    if (!x || !y)
        cli_fail(EXIT_USAGE,
                 "--plot: the spec needs \"plot\": {\"x\": AXIS, \"y\": METRIC or [METRICS], \"series\": [AXES]}");
    size_t ny = json_array_size(ys), block = 0;
    json_t *series = json_object_get(p, "series");
    char dat[4200], gp[4200], png[4200];
    snprintf(dat, sizeof dat, "%s/plot.dat", out);
    snprintf(gp, sizeof gp, "%s/plot.gp", out);
    snprintf(png, sizeof png, "%s/plot.png", out);
    /* one data block per series value, points sorted by x as the grid lists them */
    FILE *f = fopen(dat, "w"), *g = fopen(gp, "w");
    if (!f || !g) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", dat, strerror(errno));
    json_t *keys = json_array();
    size_t i;
    json_t *row;
    for (i = 0; i < json_array_size(rows) && (row = json_array_get(rows, i)); i++) {
        char key[512] = "";
        size_t n = 0, k;
        json_t *s;
        for (k = 0; k < json_array_size(series) && (s = json_array_get(series, k)); k++) {
            char v[128];
            value_str(json_object_get(row, json_string_value(s)), v, sizeof v);
            n += (size_t)snprintf(key + n, sizeof key - n, "%s%s=%s", k ? " " : "", json_string_value(s), v);
        }
        int found = 0;
        for (size_t q = 0; q < json_array_size(keys); q++)
            if (!strcmp(json_string_value(json_array_get(keys, q)), key)) found = 1;
        if (!found) json_array_append_new(keys, json_string(key));
    }
    fprintf(g, "set terminal pngcairo noenhanced size %s font 'DejaVu Sans,10'\nset output '%s'\n",
            json_object_get(p, "reduce") ? "1100,600" : "900,600", png);
    char ylab[512] = "";
    for (size_t yi = 0, n = 0; yi < ny && n < sizeof ylab; yi++)
        n += (size_t)snprintf(ylab + n, sizeof ylab - n, "%s%s", yi ? ", " : "",
                              json_string_value(json_array_get(ys, yi)));
    y = ylab;
    const char *red = json_string_value(json_object_get(p, "reduce"));
    if (red) /* one point per configuration: the legend beside the plot names them */
        fprintf(g,
                "set xlabel '%s'\nset ylabel '%s of %s'\nset key outside right top\nset grid\nset offsets graph 0.05, "
                "graph 0.05, graph 0.05, graph 0.05\n",
                x, red, y);
    else fprintf(g, "set xlabel '%s'\nset ylabel '%s'\nset key top left\nset grid\n", x, y);
    if (json_is_true(json_object_get(p, "logy"))) fprintf(g, "set logscale y\n");
    if (json_is_true(json_object_get(p, "logx"))) fprintf(g, "set logscale x 2\n");
    fprintf(g, "set title \"%s: %s vs %s\"\n", json_string_value(json_object_get(spec, "command")), y, x);
    fprintf(g, "plot ");
    for (size_t yi = 0; yi < ny; yi++)
        for (size_t q = 0; q < json_array_size(keys); q++) {
            const char *key = json_string_value(json_array_get(keys, q)),
                       *yname = json_string_value(json_array_get(ys, yi));
            if (!yname) continue;
            fprintf(f, "# %s\n", key);
            /* "reduce": "max" | "min": one point per x value of the series (the best y over the other axes) */
            const char *reduce = json_string_value(json_object_get(p, "reduce"));
            if (json_object_get(p, "reduce") && (!reduce || (strcmp(reduce, "max") && strcmp(reduce, "min"))))
                cli_fail(EXIT_USAGE, "--plot: \"reduce\" must be \"max\" or \"min\"");
            json_t *best = json_object();
            for (i = 0; i < json_array_size(rows) && (row = json_array_get(rows, i)); i++) {
                char k2[512] = "";
                size_t n = 0, k;
                json_t *s;
                for (k = 0; k < json_array_size(series) && (s = json_array_get(series, k)); k++) {
                    char v[128];
                    value_str(json_object_get(row, json_string_value(s)), v, sizeof v);
                    n += (size_t)snprintf(k2 + n, sizeof k2 - n, "%s%s=%s", k ? " " : "", json_string_value(s), v);
                }
                json_t *xv = json_object_get(row, x), *yv = json_object_get(json_object_get(row, "report"), yname);
                if (!xv) xv = json_object_get(json_object_get(row, "report"), x); /* x may be a report key too */
                if (strcmp(k2, key) || !json_is_number(xv) || !json_is_number(yv)) continue;
                if (!reduce) {
                    fprintf(f, "%.10g %.10g\n", json_number_value(xv), json_number_value(yv));
                    continue;
                }
                char xs[64];
                snprintf(xs, sizeof xs, "%.10g", json_number_value(xv));
                json_t *b = json_object_get(best, xs);
                int better = !strcmp(reduce, "min") ? json_number_value(yv) < json_number_value(b)
                                                    : json_number_value(yv) > json_number_value(b);
                if (!b || better) json_object_set(best, xs, yv);
            }
            const char *bx;
            json_t *bv;
            for (void *it_ = json_object_iter(best);
                 it_ && (bx = json_object_iter_key(it_), bv = json_object_iter_value(it_));
                 it_ = json_object_iter_next(best, it_))
                fprintf(f, "%s %.10g\n", bx, json_number_value(bv));
            json_decref(best);
            fprintf(f, "\n\n");
            /* a reduced plot's points differ in shape too (gnuplot's colours repeat after eight) */
            static const int shape[] = {7, 5, 9, 11, 13, 15, 1, 2, 3, 4, 6, 8, 10, 12};
            char style[48];
            snprintf(style, sizeof style, red ? "points pt %d ps 1.6" : "linespoints", shape[block % 14]);
            fprintf(g, "%s'%s' index %zu with %s title '%s%s%s'", block ? ", " : "", dat, block, style, key,
                    key[0] && ny > 1 ? " " : "", key[0] && ny == 1 ? "" : yname);
            block++;
        }
    /* saturated points (traffic reports say so) ringed in black */
    size_t nsat = 0;
    fprintf(f, "# saturated\n");
    for (i = 0; i < json_array_size(rows) && (row = json_array_get(rows, i)); i++) {
        json_t *rep = json_object_get(row, "report"), *xv = json_object_get(row, x), *yv = json_object_get(rep, y);
        if (!xv) xv = json_object_get(rep, x);
        if (!json_is_true(json_object_get(rep, "saturated")) || !json_is_number(xv) || !json_is_number(yv) ||
            json_object_get(p, "reduce")) /* a reduced plot shows no single run */
            continue;
        fprintf(f, "%.10g %.10g\n", json_number_value(xv), json_number_value(yv));
        nsat++;
    }
    fprintf(f, "\n\n");
    if (nsat) fprintf(g, ", '%s' index %zu with points pt 6 ps 2.5 lc rgb 'black' title 'saturated'", dat, block);
    fprintf(g, "\n");
    fclose(f);
    fclose(g);
    json_decref(keys);
    json_decref(ys);
    (void)ax;
    (void)nax;
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "gnuplot '%s'", gp);
    if (system(cmd) != 0) cli_fail(EXIT_RUNFAIL, "gnuplot failed on %s (is gnuplot-nox installed? make deps)", gp);
}

/* "area": true in the spec: each point's router area (xnoc synth, by the
 * point's topo, router and ports options) joins its report as
 * cells_per_router, router_cells, unit_cells and network_cells.  One
 * synthesis per configuration (memo here, cached on disk by synth.c). */
static void add_area(const char *self, json_t *fixed, const axis *ax, int nax, const int *idx, json_t *rep,
                     json_t *memo)
{
    static const char *const keys[] = {"topo", "router", "ports"};
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' synth --json", self);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(fixed, keys[i]);
        for (int a = 0; a < nax; a++)
            if (!strcmp(ax[a].name, keys[i])) v = json_array_get(ax[a].values, (size_t)idx[a]);
        if (v) append_opt(cmd, sizeof cmd, keys[i], v);
    }
    json_t *area = json_object_get(memo, cmd);
    if (!area) {
        FILE *p = popen(cmd, "r");
        json_error_t je;
        area = p ? json_loadf(p, 0, &je) : NULL;
        if (p && pclose(p) != 0) {
            json_decref(area);
            area = NULL;
        }
        if (!area) cli_fail(EXIT_RUNFAIL, "\"area\": %s failed (is yosys installed? make deps)", cmd);
        json_object_set_new(memo, cmd, area);
    }
    json_t *unit = json_object_get(area, "unit");
    json_object_set(rep, "cells_per_router", json_object_get(area, "cells_per_router"));
    json_object_set(rep, "network_cells", json_object_get(area, "network_cells"));
    json_object_set(rep, "router_cells", json_object_get(json_object_get(area, "router"), "cells"));
    json_object_set_new(rep, "unit_cells",
                        json_is_object(unit) ? json_incref(json_object_get(unit, "cells")) : json_integer(0));
}

int cmd_sweep(int argc, char **argv)
{
    const char *specf = NULL, *out = NULL;
    int jobs = 0, want_plot = 0, dry = 0, json = 0, slurm = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(a, "--jobs") && i + 1 < argc) jobs = (int)cli_long(a, argv[++i], 1, 1024);
        else if (!strcmp(a, "--plot")) want_plot = 1;
        else if (!strcmp(a, "--engine") && i + 1 < argc) {
            const char *e = argv[++i];
            if (!strcmp(e, "slurm")) slurm = 1;
            else if (strcmp(e, "parallel")) cli_fail(EXIT_USAGE, "--engine: unknown '%s' (parallel, slurm)", e);
        } else if (!strcmp(a, "--dry-run")) dry = 1;
        else if (!strcmp(a, "--json")) json = 1;
        else if (a[0] != '-' && !specf) specf = a;
        else cli_fail(EXIT_USAGE, "unknown or incomplete option '%s' (see xnoc sweep --help)", a);
    }
    if (!specf) cli_fail(EXIT_USAGE, "a SPEC file is required (see xnoc sweep --help)");
    if (!out && !dry) cli_fail(EXIT_USAGE, "--out DIR is required");
    json_error_t je;
    json_t *spec = json_load_file(specf, 0, &je);
    if (!spec) cli_fail(EXIT_USAGE, "%s:%d: %s", specf, je.line, je.text);
    const char *command = json_string_value(json_object_get(spec, "command"));
    static const char *cmds[] = {"traffic", "run", "collective", "sched", "qcdoc", "ncmodel"};
    int known = 0;
    for (size_t i = 0; command && i < sizeof cmds / sizeof cmds[0]; i++) known |= !strcmp(command, cmds[i]);
    if (!known)
        cli_fail(EXIT_USAGE, "%s: \"command\" must be one of traffic, run, collective, sched, qcdoc, ncmodel", specf);
    json_t *axes = json_object_get(spec, "axes"), *fixed = json_object_get(spec, "fixed"),
           *metrics = json_object_get(spec, "metrics");
    if (!json_is_object(axes) || !json_object_size(axes))
        cli_fail(EXIT_USAGE, "%s: \"axes\" must be an object of value lists", specf);
    if (fixed && !json_is_object(fixed)) cli_fail(EXIT_USAGE, "%s: \"fixed\" must be an object", specf);
    if (!json_is_array(metrics) || !json_array_size(metrics))
        cli_fail(EXIT_USAGE, "%s: \"metrics\" must be a list of report keys", specf);
    int nax = (int)json_object_size(axes);
    axis *ax = xcalloc((size_t)nax, sizeof *ax);
    int *idx = xcalloc((size_t)nax, sizeof *idx);
    long npoints = 1;
    {
        const char *k;
        json_t *v;
        int a = 0;
        for (void *it_ = json_object_iter(axes);
             it_ && (k = json_object_iter_key(it_), v = json_object_iter_value(it_));
             it_ = json_object_iter_next(axes, it_)) {
            if (!json_is_array(v) || !json_array_size(v))
                cli_fail(EXIT_USAGE, "%s: axis \"%s\" must be a non-empty list", specf, k);
            ax[a].name = k;
            ax[a++].values = v;
            npoints *= (long)json_array_size(v);
            if (npoints > 1000000) cli_fail(EXIT_USAGE, "%s: more than a million points", specf);
        }
    }
    char self[4096];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0) cli_fail(EXIT_RUNFAIL, "cannot find the xnoc binary (/proc/self/exe)");
    self[sl] = 0;

    char dir[4200], jobsf[4300], tmpdir[4300];
    if (out) {
        snprintf(dir, sizeof dir, "%s/points", out);
        if ((mkdir(out, 0777) && errno != EEXIST) || (mkdir(dir, 0777) && errno != EEXIST))
            cli_fail(EXIT_USAGE, "--out %s: %s", out, strerror(errno));
        snprintf(jobsf, sizeof jobsf, "%s/jobs.txt", out);
    }
    FILE *jf = dry ? stdout : fopen(jobsf, "w");
    if (!jf) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", jobsf, strerror(errno));
    long todo = 0, done = 0;
    do {
        char id[1024], path[5400], cmd[8192];
        point_id(ax, nax, idx, id, sizeof id);
        if (out) {
            snprintf(path, sizeof path, "%s/%s.json", dir, id);
            if (file_ok(path)) {
                done++;
                continue;
            }
        }
        snprintf(cmd, sizeof cmd, "'%s' %s --json", self, command);
        const char *k;
        json_t *v;
        for (void *it_ = json_object_iter(fixed);
             it_ && (k = json_object_iter_key(it_), v = json_object_iter_value(it_));
             it_ = json_object_iter_next(fixed, it_))
            append_opt(cmd, sizeof cmd, k, v);
        for (int a = 0; a < nax; a++)
            append_opt(cmd, sizeof cmd, ax[a].name, json_array_get(ax[a].values, (size_t)idx[a]));
        if (dry) fprintf(jf, "%s\n", cmd);
        /* the report lands under its final name only when complete */
        else fprintf(jf, "%s > '%s.tmp' 2> '%s.err' && mv '%s.tmp' '%s'\n", cmd, path, path, path, path);
        todo++;
    } while (next_index(ax, nax, idx));
    if (dry) return 0;
    fclose(jf);
    if (jobs <= 0) jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (todo) {
        if (cli_progress_enabled())
            fprintf(stderr, "xnoc sweep: %ld points, %ld done before, %ld to run, %s\n", npoints, done, todo,
                    slurm ? "as a Slurm job array" : "GNU parallel");
        char script[4400];
        if (slurm) { /* an array job, one task per line of jobs.txt; sbatch --wait returns when all ended */
            snprintf(script, sizeof script, "%s/sweep.sbatch", out);
            FILE *sb = fopen(script, "w");
            if (!sb) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", script, strerror(errno));
            fprintf(sb,
                    "#!/bin/sh\n#SBATCH --job-name=xnoc-sweep\n#SBATCH --array=1-%ld\n#SBATCH --ntasks=1\n"
                    "#SBATCH --output=%s/slurm-%%A_%%a.out\n",
                    todo, out);
            fprintf(sb,
                    "# one point per array task: line SLURM_ARRAY_TASK_ID of jobs.txt (written by xnoc sweep)\n"
                    "sed -n \"${SLURM_ARRAY_TASK_ID}p\" '%s' | sh\n",
                    jobsf);
            fclose(sb);
        }
        snprintf(tmpdir, sizeof tmpdir, "%s/joblog.txt", out);
        pid_t pid = fork();
        if (pid == 0) {
            char jn[16];
            snprintf(jn, sizeof jn, "%d", jobs);
            if (slurm) {
                execlp("sbatch", "sbatch", "--wait", "--quiet", script, (char *)NULL);
                fprintf(stderr, "xnoc sweep: cannot run sbatch: %s (slurm-wlm; make deps installs it)\n",
                        strerror(errno));
            } else {
                execlp("parallel", "parallel", "--will-cite", "--jobs", jn, "--joblog", tmpdir, "--arg-file", jobsf,
                       (char *)NULL);
                fprintf(stderr, "xnoc sweep: cannot run GNU parallel: %s (make deps installs it)\n", strerror(errno));
            }
            _exit(127);
        }
        if (pid < 0) cli_fail(EXIT_RUNFAIL, "fork: %s", strerror(errno));
        double t0 = cli_now();
        cli_catch_sigint();
        int st = 0;
        for (;;) {
            pid_t r = waitpid(pid, &st, WNOHANG);
            if (r == pid) break;
            if (cli_interrupted) kill(pid, SIGTERM);
            /* progress: finished point files */
            long fin = 0;
            memset(idx, 0, (size_t)nax * sizeof *idx);
            do {
                char id[1024], path[5400];
                point_id(ax, nax, idx, id, sizeof id);
                snprintf(path, sizeof path, "%s/%s.json", dir, id);
                fin += access(path, F_OK) == 0;
            } while (next_index(ax, nax, idx));
            double el = cli_now() - t0, ran = (double)(fin - done);
            if (ran > 0)
                cli_progress("sweep: %ld/%ld points, %.0f s, ETA %.0f s", fin, npoints, el,
                             el / ran * (double)(npoints - fin));
            else cli_progress("sweep: %ld/%ld points, %.0f s", fin, npoints, el);
            usleep(200000);
        }
        cli_progress_done();
        if (cli_interrupted)
            cli_fail(EXIT_RUNFAIL, "interrupted: finished points are kept in %s/points; run again to resume", out);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
            cli_fail(EXIT_RUNFAIL, "%s is missing (make deps)", slurm ? "sbatch" : "GNU parallel");
        /* sbatch --wait fails when any task failed: the points tell which */
    }
    /* gather */
    char res[4300], csv[4300];
    snprintf(res, sizeof res, "%s/results.jsonl", out);
    snprintf(csv, sizeof csv, "%s/results.csv", out);
    FILE *rj = fopen(res, "w"), *rc = fopen(csv, "w");
    if (!rj || !rc) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", res, strerror(errno));
    for (int a = 0; a < nax; a++) fprintf(rc, "%s%s", a ? "," : "", ax[a].name);
    size_t mi;
    json_t *mv;
    for (mi = 0; mi < json_array_size(metrics) && (mv = json_array_get(metrics, mi)); mi++)
        fprintf(rc, ",%s", json_string_value(mv));
    fputc('\n', rc);
    json_t *rows = json_array(), *area_memo = json_object();
    int area = json_is_true(json_object_get(spec, "area"));
    long failed = 0;
    memset(idx, 0, (size_t)nax * sizeof *idx);
    char first_err[1600] = "";
    do {
        char id[1024], path[5400];
        point_id(ax, nax, idx, id, sizeof id);
        snprintf(path, sizeof path, "%s/%s.json", dir, id);
        json_t *rep = json_load_file(path, 0, &je);
        if (!rep) {
            failed++;
            if (!first_err[0]) {
                char ep[5500];
                snprintf(ep, sizeof ep, "%s.err", path);
                FILE *e = fopen(ep, "r");
                char line[400] = "no report";
                if (e) {
                    if (!fgets(line, sizeof line, e)) snprintf(line, sizeof line, "no report, nothing on stderr");
                    fclose(e);
                }
                line[strcspn(line, "\n")] = 0;
                snprintf(first_err, sizeof first_err, "%s: %s", id, line);
            }
            continue;
        }
        if (area) add_area(self, fixed, ax, nax, idx, rep, area_memo);
        json_t *row = json_object();
        for (int a = 0; a < nax; a++) {
            json_t *v = json_array_get(ax[a].values, (size_t)idx[a]);
            json_object_set(row, ax[a].name, v);
            if (a) fputc(',', rc);
            csv_cell(rc, v);
        }
        for (mi = 0; mi < json_array_size(metrics) && (mv = json_array_get(metrics, mi)); mi++) {
            fputc(',', rc);
            csv_cell(rc, json_object_get(rep, json_string_value(mv)));
        }
        fputc('\n', rc);
        json_object_set_new(row, "report", rep);
        json_dumpf(row, rj, JSON_COMPACT);
        fputc('\n', rj);
        json_array_append_new(rows, row);
    } while (next_index(ax, nax, idx));
    fclose(rj);
    fclose(rc);
    if (want_plot && json_array_size(rows)) plot(out, spec, ax, nax, rows);
    json_t *o =
        json_pack("{s:I,s:I,s:I,s:I,s:s,s:s}", "points", (json_int_t)npoints, "ran", (json_int_t)todo, "resumed",
                  (json_int_t)done, "failed", (json_int_t)failed, "results_csv", csv, "results_jsonl", res);
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
    json_decref(rows);
    json_decref(area_memo);
    json_decref(spec);
    free(ax);
    free(idx);
    if (failed) cli_fail(EXIT_RUNFAIL, "%ld point(s) failed; the first: %s", failed, first_err);
    return 0;
}
