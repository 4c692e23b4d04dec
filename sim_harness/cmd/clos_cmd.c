/* clos_cmd.c - `xnoc clos`: the Clos multicast network v(m, n, r) of Yang
 * and Masson (coll/closmodel.h, coll/clossim.h, net/clos_ctl.h): its
 * nonblocking bounds, the paper's table and example, random traffic under
 * the routing control algorithm, and an adversary.  docs/clos.md. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
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
#include "cmd/sweep_run.h"
#include "coll/closmodel.h"
#include "coll/clossim.h"
#include "net/clos_ctl.h"

static const char *usage_text =
    "usage: xnoc clos --n N --r R [--d D] [--b B] [--m M] [--json]\n"
    "       xnoc clos --table [--max-r R] [--json]\n"
    "       xnoc clos --example [--json]\n"
    "       xnoc clos --simulate --n N --r R [--m M] [--x X] [--window all|paper] [--fanout A-B]\n"
    "                 [--load L] [--hold H] [--requests K] [--seed S] [--json]\n"
    "       xnoc clos --sweep-m --n N --r R [--m-from A] [--m-to B] [... as --simulate] [--out DIR [--plot]]\n"
    "       xnoc clos --adversary --n N --r R [--m-from A] [--m-to B] [--x X] [--budget K] [--seed S]\n"
    "\n"
    "The three-stage Clos multicast network v(m, n, r) (r input switches of n\n"
    "inputs, m middle switches, r output switches of n outputs; Y. Yang and\n"
    "G. M. Masson, \"Nonblocking broadcast switching networks\", IEEE Trans.\n"
    "Computers 40(9), 1991, as the collective-communication notes present it;\n"
    "docs/clos.md).\n"
    "  (default)    the nonblocking bounds on m: Theorem 3 (and its minimizing x),\n"
    "               Theorem 4, Clos's 2n-1, Corollary 1 for fanout <= d (--d),\n"
    "               Corollary 3 for multirate traffic with minimum bandwidth b\n"
    "               (--b 0.25 or 1/4), and the crosspoints at Theorem 3's m (or --m)\n"
    "  --table      the paper's r -> x -> x + r^(1/x) table, computed (r <= --max-r,\n"
    "               default 10,077,696)\n"
    "  --example    the paper's v(5,3,4) assignment: its network state (destination\n"
    "               sets M1-M5) and the control algorithm's routing of it\n"
    "  --simulate   random multicast requests arriving and departing, routed by\n"
    "               the linear control algorithm with at most --x middle switches\n"
    "               (default Theorem 3's minimizing x) at --m (default Theorem 3's\n"
    "               least m); fanout uniform in --fanout A-B (default 1-R),\n"
    "               --load Erlangs per input port (0.9), --hold mean holding time\n"
    "               (1), --requests (100000), --seed (1); --window paper routes over\n"
    "               the paper's m' = (n-1) r'^(1/x) + 1 available switches only;\n"
    "               --check-every K checks the network state's invariants every K\n"
    "               requests (check_failures; a failure exits 1)\n"
    "  --sweep-m    the same for every m from --m-from (n) to --m-to (Theorem 3's\n"
    "               m + 2): the blocking curve; --out DIR writes DIR/clos-sweep.csv,\n"
    "               --plot DIR/clos-sweep.png (gnuplot)\n"
    "  --adversary  for every m from --m-from (n) to --m-to (Theorem 3's m), a\n"
    "               seeded hill climb over request sequences (--budget moves,\n"
    "               default 20000) for a state where the algorithm blocks a valid\n"
    "               request; reports the largest m where it forced one\n"
    "docs/clos.md.\n";

typedef struct {
    int n, m, x, fmin, fmax, window, plot, json;
    long r, d, b_num, b_den, requests, budget, m_from, m_to, max_r, check_every;
    double load, hold;
    uint64_t seed;
    const char *out, *fanout;
} opts;

/* "0.25", "1", "1/4": b as a fraction in (0, 1] */
static void parse_b(const char *s, long *num, long *den)
{
    const char *slash = strchr(s, '/');
    char *e;
    if (slash) {
        *num = strtol(s, &e, 10);
        if (e != slash || e == s) goto bad;
        *den = strtol(slash + 1, &e, 10);
        if (*e || e == slash + 1) goto bad;
    } else {
        long ip = 0, frac = 0, scale = 1;
        const char *p = s;
        if (!(*p >= '0' && *p <= '9') && *p != '.') goto bad;
        while (*p >= '0' && *p <= '9' && ip < 10) ip = ip * 10 + (*p++ - '0');
        if (*p == '.') {
            p++;
            while (*p >= '0' && *p <= '9' && scale < 1000000000L) frac = frac * 10 + (*p++ - '0'), scale *= 10;
        }
        if (*p || p == s) goto bad;
        *num = ip * scale + frac;
        *den = scale;
    }
    if (*num < 1 || *den < 1 || *num > *den) cli_fail(EXIT_USAGE, "--b '%s': b must lie in (0, 1]", s);
    if (*den / *num > 1000) cli_fail(EXIT_USAGE, "--b '%s': b below 1/1000 (floor(1/b) at most 1000)", s);
    return;
bad:
    cli_fail(EXIT_USAGE, "--b '%s': expected a fraction such as 0.25 or 1/4", s);
}

static void print_json(json_t *o)
{
    json_dumpf(o, stdout, JSON_COMPACT);
    putchar('\n');
}

static json_t *minx_json(const closm_min *b)
{
    return json_pack("{s:i,s:i,s:f,s:f,s:I}", "x", b->x, "x_max", b->xmax, "coefficient", b->coef, "bound", b->value,
                     "m_min", (json_int_t)b->m_min);
}

static json_t *bounds_json(const closm_bounds *b, long m)
{
    json_t *o = json_pack("{s:i,s:I,s:I}", "n", b->n, "r", (json_int_t)b->r, "N", (json_int_t)(b->n * b->r));
    json_object_set_new(o, "theorem3", minx_json(&b->th3));
    json_object_set_new(
        o, "theorem4",
        b->th4 < 0 ? json_pack("{s:n,s:n,s:s}", "bound", "m_min", "log", "natural (undefined for r < 3)")
                   : json_pack("{s:f,s:I,s:s}", "bound", b->th4, "m_min", (json_int_t)b->th4_m, "log", "natural"));
    json_object_set_new(o, "clos", json_pack("{s:I}", "m_min", (json_int_t)b->clos));
    if (b->d) {
        json_t *c = minx_json(&b->cor1);
        json_object_set_new(c, "d", json_integer(b->d));
        json_object_set_new(c, "particular", b->cor1_particular < 0 ? json_null() : json_real(b->cor1_particular));
        json_object_set_new(c, "particular_m_min",
                            b->cor1_particular < 0 ? json_null() : json_integer(b->cor1_particular_m));
        json_object_set_new(o, "corollary1", c);
    }
    if (b->b_num) {
        json_t *c = minx_json(&b->cor3);
        json_object_set_new(c, "b", json_real((double)b->b_num / (double)b->b_den));
        json_object_set_new(c, "floor_1_over_b", json_integer(b->b_floor));
        json_object_set_new(c, "particular", b->cor3_particular < 0 ? json_null() : json_real(b->cor3_particular));
        json_object_set_new(c, "particular_m_min",
                            b->cor3_particular < 0 ? json_null() : json_integer(b->cor3_particular_m));
        json_object_set_new(c, "corollary4_m_min", json_integer(b->cor4_m));
        json_object_set_new(o, "corollary3", c);
    }
    long N = (long)b->n * b->r;
    json_object_set_new(o, "crosspoints",
                        json_pack("{s:I,s:f,s:f}", "m", (json_int_t)m, "three_stage", closm_crosspoints(m, b->n, b->r),
                                  "crossbar", (double)N * (double)N));
    return o;
}

static void print_bounds(const json_t *o)
{
    report_printf(stdout, o,
                  "v(m, {n}, {r}): a {N} x {N} three-stage Clos multicast network\n"
                  "  Theorem 3:   m > min over 1 <= x <= {theorem3.x_max} of (n-1)(x + r^(1/x)) = "
                  "{theorem3.bound:%.4f} at x = {theorem3.x}: m >= {theorem3.m_min}\n");
    if (json_is_null(report_get(o, "theorem4.bound"))) printf("  Theorem 4:   undefined for r < 3 (ln ln r <= 0)\n");
    else
        report_printf(stdout, o,
                      "  Theorem 4:   m >= 3(n-1) ln r / ln ln r = {theorem4.bound:%.4f}: m >= {theorem4.m_min}\n");
    report_printf(stdout, o, "  Clos '53:    m >= 2n - 1 = {clos.m_min} (permutations)\n");
    if (report_get(o, "corollary1")) {
        report_printf(stdout, o,
                      "  Corollary 1: fanout <= d = {corollary1.d}: m > {corollary1.bound:%.4f} at x = {corollary1.x}: "
                      "m >= {corollary1.m_min}");
        if (!json_is_null(report_get(o, "corollary1.particular")))
            report_printf(stdout, o, " (in particular m > {corollary1.particular:%.4f})");
        putchar('\n');
    }
    if (report_get(o, "corollary3")) {
        report_printf(stdout, o,
                      "  Corollary 3: multirate, b = {corollary3.b:%g} (floor(1/b) = {corollary3.floor_1_over_b}): m > "
                      "{corollary3.bound:%.4f} at x = {corollary3.x}: m >= {corollary3.m_min}");
        if (!json_is_null(report_get(o, "corollary3.particular")))
            report_printf(stdout, o, " (in particular m > {corollary3.particular:%.4f})");
        report_printf(stdout, o, "; one-to-one (Corollary 4): m >= {corollary3.corollary4_m_min}\n");
    }
    report_printf(stdout, o,
                  "  crosspoints at m = {crosspoints.m}: {crosspoints.three_stage:%.0f} (r n m + m r^2 + r m n); "
                  "an N x N crossbar {crosspoints.crossbar:%.0f}\n");
}

static int cmd_table(const opts *op)
{
    closm_row rows[64];
    int k = closm_table(op->max_r, rows, 64);
    json_t *o = json_pack("{s:I,s:[]}", "max_r", (json_int_t)op->max_r, "rows");
    json_t *a = json_object_get(o, "rows");
    for (int i = 0; i < k; i++) {
        closm_min b; /* recomputed the other way: the minimum over x at that r */
        closm_minx(1, rows[i].r, rows[i].r, &b);
        json_array_append_new(a, json_pack("{s:I,s:i,s:i,s:i,s:f}", "r", (json_int_t)rows[i].r, "x", rows[i].x,
                                           "coefficient", rows[i].c, "min_x", b.x, "min_coefficient", b.coef));
    }
    if (op->json) print_json(o);
    else {
        printf("the least coefficient min_x (x + r^(1/x)) of m/(n-1), and the largest r it covers:\n"
               "           r   x  x + r^(1/x)\n");
        for (int i = 0; i < k; i++)
            report_printf(stdout, json_array_get(a, i), "  {r:%10lld}  {x:%2d}  {coefficient:%11d}\n");
    }
    json_decref(o);
    return 0;
}

/* the paper's example: v(5, 3, 4) */
static const struct {
    int port;    /* input port, 1-based */
    int outs[2]; /* I_port, 1-based, 0 ends */
    int mids[2]; /* the middle switches of the paper's state, 1-based, in Step 3's order */
} example[] = {
    {1, {1, 2}, {1, 0}}, {2, {1, 4}, {3, 0}}, {5, {2, 4}, {2, 0}},  {6, {2, 4}, {3, 4}},
    {8, {3, 0}, {1, 0}}, {9, {3, 0}, {2, 0}}, {11, {3, 0}, {4, 0}}, {12, {1, 0}, {5, 0}},
};
static const int paper_m[5][4] = {{1, 2, 3}, {2, 3, 4}, {1, 2, 4}, {3, 4}, {1}};

static json_t *set_json(const uint64_t *s, int r)
{
    json_t *a = json_array();
    for (int k = 0; k < r; k++)
        if (clos_has(s, k)) json_array_append_new(a, json_integer(k + 1));
    return a;
}

static json_t *state_json(const clos_net *net)
{
    json_t *a = json_array();
    for (int j = 0; j < clos_m(net); j++) json_array_append_new(a, set_json(clos_dest(net, j), clos_r(net)));
    return a;
}

static int cmd_example(const opts *op)
{
    const int m = 5, n = 3, r = 4;
    clos_net *paper = clos_new(m, n, r), *algo = clos_new(m, n, r);
    json_t *o = json_pack("{s:s,s:[],s:[]}", "network", "v(5,3,4)", "assignment", "paper_routes");
    json_t *asg = json_object_get(o, "assignment"), *pr = json_object_get(o, "paper_routes"), *ar = json_array();
    int ok = 1;
    for (size_t i = 0; i < sizeof example / sizeof example[0]; i++) {
        uint64_t req[1] = {0};
        int mids[2], nm = 0, in = (example[i].port - 1) / n;
        for (int k = 0; k < 2 && example[i].outs[k]; k++) clos_add(req, example[i].outs[k] - 1);
        for (int k = 0; k < 2 && example[i].mids[k]; k++) mids[nm++] = example[i].mids[k] - 1;
        json_array_append_new(asg, json_pack("{s:i,s:i,s:o}", "input", example[i].port, "input_switch", in + 1,
                                             "outputs", set_json(req, r)));
        int id = clos_connect_via(paper, in, req, mids, nm);
        json_t *route = json_pack("{s:i,s:[]}", "input", example[i].port, "middle");
        for (int k = 0; id >= 0 && k < nm; k++) {
            uint64_t carried[1] = {0};
            for (int o2 = 0; o2 < r; o2++)
                if (clos_owner(paper, mids[k], o2) == id) clos_add(carried, o2);
            json_array_append_new(json_object_get(route, "middle"),
                                  json_pack("{s:i,s:o}", "switch", mids[k] + 1, "outputs", set_json(carried, r)));
        }
        json_array_append_new(pr, route);
        ok &= id >= 0;
        /* the control algorithm, Steps 1-3, with x up to min{n-1, r} = 2 */
        int aid = clos_connect(algo, in, req, 2, 0), am[CLOS_MAX_M];
        json_t *aroute = json_pack("{s:i,s:[]}", "input", example[i].port, "middle");
        int na = aid >= 0 ? clos_conn_mids(algo, aid, am, CLOS_MAX_M) : 0;
        for (int k = 0; k < na; k++) json_array_append_new(json_object_get(aroute, "middle"), json_integer(am[k] + 1));
        json_object_set_new(aroute, "blocked", json_boolean(aid < 0));
        json_array_append_new(ar, aroute);
    }
    int match = ok;
    for (int j = 0; j < m; j++) {
        uint64_t want[1] = {0};
        for (int k = 0; k < 4 && paper_m[j][k]; k++) clos_add(want, paper_m[j][k] - 1);
        match &= clos_dest(paper, j)[0] == want[0];
    }
    char err[200];
    json_object_set_new(o, "destination_sets", state_json(paper));
    json_object_set_new(o, "matches_paper", json_boolean(match));
    json_object_set_new(o, "state_consistent", json_boolean(!clos_check(paper, err, sizeof err)));
    json_object_set_new(o, "algorithm",
                        json_pack("{s:i,s:o,s:o}", "x", 2, "routes", ar, "destination_sets", state_json(algo)));
    if (op->json) print_json(o);
    else {
        printf("the paper's v(5,3,4) example: I1={1,2}, I2={1,4}, I5={2,4}, I6={2,4}, I8=I9=I11={3}, I12={1}\n"
               "its network state (the middle switches of each connection, and the output switches each carries):\n");
        for (size_t i = 0; i < json_array_size(pr); i++) {
            const json_t *rt = json_array_get(pr, i);
            report_printf(stdout, rt, "  I{input:%-2d}");
            const json_t *mm = json_object_get(rt, "middle");
            for (size_t k = 0; k < json_array_size(mm); k++) {
                report_printf(stdout, json_array_get(mm, k), " via middle {switch} to");
                const json_t *os = json_object_get(json_array_get(mm, k), "outputs");
                for (size_t q = 0; q < json_array_size(os); q++)
                    printf(" %lld", (long long)json_integer_value(json_array_get(os, q)));
                if (k + 1 < json_array_size(mm)) putchar(',');
            }
            putchar('\n');
        }
        for (int j = 0; j < m; j++) {
            printf("  M%d = {", j + 1);
            const json_t *s = json_array_get(json_object_get(o, "destination_sets"), (size_t)j);
            for (size_t q = 0; q < json_array_size(s); q++)
                printf("%s%lld", q ? "," : "", (long long)json_integer_value(json_array_get(s, q)));
            printf("}\n");
        }
        report_printf(stdout, o, "  equal to the paper's M1-M5: {matches_paper}\n");
        printf("the control algorithm (Steps 1-3, x <= 2), the requests in this order:\n");
        for (int j = 0; j < m; j++) {
            printf("  M%d = {", j + 1);
            const json_t *s =
                json_array_get(json_object_get(json_object_get(o, "algorithm"), "destination_sets"), (size_t)j);
            for (size_t q = 0; q < json_array_size(s); q++)
                printf("%s%lld", q ? "," : "", (long long)json_integer_value(json_array_get(s, q)));
            printf("}\n");
        }
    }
    json_decref(o);
    clos_free(paper);
    clos_free(algo);
    return match ? 0 : EXIT_RUNFAIL;
}

static closs_cfg sim_cfg(const opts *op, int m)
{
    return (closs_cfg){.m = m,
                       .n = op->n,
                       .r = (int)op->r,
                       .x = op->x,
                       .window = op->window,
                       .fmin = op->fmin,
                       .fmax = op->fmax,
                       .load = op->load,
                       .hold = op->hold,
                       .requests = op->requests,
                       .seed = op->seed,
                       .check_every = op->check_every};
}

static json_t *sim_json(const closs_cfg *c, const closs_result *s)
{
    return json_pack("{s:i,s:i,s:I,s:I,s:I,s:f,s:I,s:I,s:f,s:f,s:i,s:f,s:i,s:I}", "m", c->m, "x", c->x, "requests",
                     (json_int_t)s->requests, "blocked", (json_int_t)s->blocked, "routed", (json_int_t)s->routed,
                     "blocking", s->blocking, "busy_input", (json_int_t)s->busy_input, "truncated",
                     (json_int_t)s->truncated, "mean_fanout", s->mean_fanout, "mean_middle_switches", s->mean_mids,
                     "max_middle_switches", s->max_mids, "mean_connections", s->mean_active, "max_connections",
                     s->max_active, "check_failures", (json_int_t)s->check_failures);
}

static json_t *sim_head(const opts *op, const closm_bounds *b)
{
    return json_pack("{s:i,s:I,s:i,s:s,s:i,s:i,s:f,s:f,s:I,s:I,s:I,s:i}", "n", op->n, "r", (json_int_t)op->r, "x",
                     op->x, "window", op->window ? "paper" : "all", "fanout_min", op->fmin, "fanout_max", op->fmax,
                     "load", op->load, "hold", op->hold, "requests_per_point", (json_int_t)op->requests, "seed",
                     (json_int_t)op->seed, "theorem3_m_min", (json_int_t)b->th3.m_min, "clos_m_min", 2 * op->n - 1);
}

/* gnuplot on DIR/clos-sweep.gp: the data and script by file name, in DIR
 * (no user string reaches a shell), its stdout discarded; the same spawn
 * as the sweep's points and plot (sweep_run.h: the child dies with xnoc),
 * a failure said in one line */
static void run_gnuplot(const char *dir)
{
    char *argv[] = {"gnuplot", "clos-sweep.gp", NULL};
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    char why[300];
    int bad = sweep_run_tool(argv, devnull, dir, why, sizeof why);
    if (devnull >= 0) close(devnull);
    if (bad)
        cli_fail(EXIT_RUNFAIL, "--plot: %s (gnuplot-nox: make deps); the data and script are kept: %s/clos-sweep.gp",
                 why, dir);
}

static int clos_sweep(const opts *op, const closm_bounds *b)
{
    long from = op->m_from ? op->m_from : op->n, to = op->m_to ? op->m_to : b->th3.m_min + 2;
    if (to < from) cli_fail(EXIT_USAGE, "--m-to %ld is below --m-from %ld", to, from);
    if (to > CLOS_MAX_M) cli_fail(EXIT_USAGE, "--m-to %ld: at most %d middle switches", to, CLOS_MAX_M);
    json_t *o = sim_head(op, b), *pts = json_array();
    char err[256];
    for (long m = from; m <= to && !cli_interrupted; m++) {
        closs_cfg c = sim_cfg(op, (int)m);
        closs_result s;
        if (closs_run(&c, &s, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
        json_array_append_new(pts, sim_json(&c, &s));
        cli_progress("m = %ld of %ld: blocking %.5f", m, to, s.blocking);
    }
    cli_progress_done();
    json_object_set_new(o, "points", pts);
    if (op->out) {
        if (mkdir(op->out, 0777) && errno != EEXIST)
            cli_fail(EXIT_RUNFAIL, "cannot create %s: %s", op->out, strerror(errno));
        char *csv = xasprintf("%s/clos-sweep.csv", op->out);
        FILE *f = fopen(csv, "w");
        if (!f) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", csv, strerror(errno));
        fprintf(f, "m,x,requests,blocked,blocking,mean_middle_switches\n");
        for (size_t i = 0; i < json_array_size(pts); i++)
            report_printf(f, json_array_get(pts, i),
                          "{m},{x},{requests},{blocked},{blocking:%.6f},{mean_middle_switches:%.4f}\n");
        cli_out_close(f, "--out", csv);
        json_object_set_new(o, "csv", json_string(csv));
        free(csv);
        if (op->plot) {
            char *gp = xasprintf("%s/clos-sweep.gp", op->out);
            FILE *g = fopen(gp, "w");
            if (!g) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", gp, strerror(errno));
            /* only numbers go into the script; file names are fixed and relative to DIR */
            fprintf(g,
                    "set terminal pngcairo noenhanced size 900,600 font 'DejaVu Sans,10'\n"
                    "set output 'clos-sweep.png'\nset datafile separator ','\n"
                    "set xlabel 'middle switches m'\nset ylabel 'blocking probability'\nset grid\nset key top right\n"
                    "set title 'v(m, %d, %ld), x <= %d, fanout %d-%d, load %g: blocking of the control algorithm'\n"
                    "set arrow from %ld, graph 0 to %ld, graph 1 nohead dt 2 lc rgb 'red'\n"
                    "set label 'Theorem 3: m >= %ld' at %ld, graph 0.9 left offset 0.5,0 tc rgb 'red'\n"
                    "set arrow from %d, graph 0 to %d, graph 1 nohead dt 3 lc rgb 'blue'\n"
                    "set label 'Clos 2n-1 = %d' at %d, graph 0.8 left offset 0.5,0 tc rgb 'blue'\n"
                    "plot 'clos-sweep.csv' using 1:5 skip 1 with linespoints pt 7 title 'blocked / requests'\n",
                    op->n, op->r, op->x, op->fmin, op->fmax, op->load, b->th3.m_min, b->th3.m_min, b->th3.m_min,
                    b->th3.m_min, 2 * op->n - 1, 2 * op->n - 1, 2 * op->n - 1, 2 * op->n - 1);
            cli_out_close(g, "--out", gp);
            free(gp);
            run_gnuplot(op->out);
            json_object_set_new(o, "plot", json_sprintf("%s/clos-sweep.png", op->out));
        }
    }
    if (op->json) print_json(o);
    else {
        report_printf(stdout, o,
                      "v(m, {n}, {r}), x <= {x}, fanout {fanout_min}-{fanout_max}, load {load:%g}, hold {hold:%g}, "
                      "{requests_per_point} requests per m, seed {seed}\n"
                      "  (Theorem 3: m >= {theorem3_m_min}; Clos: m >= {clos_m_min})\n"
                      "     m    blocked   blocking  middle switches/connection\n");
        for (size_t i = 0; i < json_array_size(pts); i++)
            report_printf(stdout, json_array_get(pts, i),
                          "  {m:%4d} {blocked:%10lld}  {blocking:%.6f}  {mean_middle_switches:%.3f}\n");
        if (report_get(o, "csv")) report_printf(stdout, o, "  wrote {csv}\n");
        if (report_get(o, "plot")) report_printf(stdout, o, "  wrote {plot}\n");
    }
    json_decref(o);
    return 0;
}

static int cmd_simulate(const opts *op, const closm_bounds *b)
{
    int m = op->m ? op->m : (int)b->th3.m_min;
    closs_cfg c = sim_cfg(op, m);
    closs_result s;
    char err[256];
    if (closs_run(&c, &s, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
    if (s.check_failures) cli_fail(EXIT_RUNFAIL, "the network state failed its check %ld times", s.check_failures);
    json_t *o = sim_head(op, b), *p = sim_json(&c, &s);
    json_object_update(o, p);
    json_decref(p);
    if (op->json) print_json(o);
    else
        report_printf(stdout, o,
                      "v({m}, {n}, {r}), x <= {x} ({window} available middle switches), fanout "
                      "{fanout_min}-{fanout_max}, load {load:%g}, hold {hold:%g}, seed {seed}\n"
                      "  requests {requests}, blocked {blocked}, blocking probability {blocking:%.6f}\n"
                      "  mean fanout {mean_fanout:%.3f}, middle switches per connection {mean_middle_switches:%.3f} "
                      "(max {max_middle_switches}), connections {mean_connections:%.2f} (max {max_connections})\n"
                      "  (Theorem 3: m >= {theorem3_m_min}; Clos: m >= {clos_m_min})\n");
    json_decref(o);
    return 0;
}

static int cmd_adversary(const opts *op, const closm_bounds *b)
{
    long from = op->m_from ? op->m_from : op->n, to = op->m_to ? op->m_to : b->th3.m_min;
    if (to < from) cli_fail(EXIT_USAGE, "--m-to %ld is below --m-from %ld", to, from);
    if (to > CLOS_MAX_M) cli_fail(EXIT_USAGE, "--m-to %ld: at most %d middle switches", to, CLOS_MAX_M);
    json_t *o = json_pack("{s:i,s:I,s:i,s:s,s:I,s:I,s:I,s:i}", "n", op->n, "r", (json_int_t)op->r, "x", op->x, "window",
                          op->window ? "paper" : "all", "budget", (json_int_t)op->budget, "seed", (json_int_t)op->seed,
                          "theorem3_m_min", (json_int_t)b->th3.m_min, "clos_m_min", 2 * op->n - 1);
    json_t *pts = json_array();
    long largest = 0;
    char err[256];
    for (long m = from; m <= to && !cli_interrupted; m++) {
        closa_cfg c = {.m = (int)m,
                       .n = op->n,
                       .r = (int)op->r,
                       .x = op->x,
                       .window = op->window,
                       .budget = op->budget,
                       .seed = op->seed};
        closa_result a;
        if (closa_search(&c, &a, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
        json_t *p = json_pack("{s:I,s:b,s:I}", "m", (json_int_t)m, "forced", a.forced, "moves", (json_int_t)a.moves);
        if (a.forced) {
            json_object_set_new(p, "connections", json_integer(a.connections));
            json_object_set_new(p, "input_switch", json_integer(a.in + 1));
            json_object_set_new(p, "request", set_json(a.req, (int)op->r));
            json_object_set_new(p, "links_in_use", json_integer(a.links_in_use));
            largest = m;
        }
        json_array_append_new(pts, p);
        cli_progress("m = %ld of %ld: %s", m, to, a.forced ? "forced a block" : "none found");
    }
    cli_progress_done();
    json_object_set_new(o, "points", pts);
    json_object_set_new(o, "largest_forced_m", largest ? json_integer(largest) : json_null());
    if (op->json) print_json(o);
    else {
        report_printf(stdout, o,
                      "adversary on v(m, {n}, {r}), x <= {x}, {budget} moves per m, seed {seed} (Theorem 3: m >= "
                      "{theorem3_m_min}; Clos: m >= {clos_m_min})\n");
        for (size_t i = 0; i < json_array_size(pts); i++) {
            const json_t *p = json_array_get(pts, i);
            if (json_is_true(json_object_get(p, "forced"))) {
                report_printf(stdout, p,
                              "  m = {m:%3d}: blocked after {moves} moves, {connections} connections; the request "
                              "from input switch {input_switch} to {{");
                const json_t *rq = json_object_get(p, "request");
                for (size_t q = 0; q < json_array_size(rq); q++)
                    printf("%s%lld", q ? "," : "", (long long)json_integer_value(json_array_get(rq, q)));
                report_printf(stdout, p, "}} ({links_in_use} of its links in use)\n");
            } else report_printf(stdout, p, "  m = {m:%3d}: no block in {moves} moves\n");
        }
        if (largest) report_printf(stdout, o, "  largest m forced to block: {largest_forced_m}\n");
        else printf("  no m forced to block\n");
    }
    json_decref(o);
    return 0;
}

int cmd_clos(int argc, char **argv)
{
    opts op = {.load = 0.9, .hold = 1, .requests = 100000, .budget = 20000, .seed = 1, .max_r = 10077696};
    int table = 0, example_mode = 0, sim = 0, sweep = 0, adv = 0;
    const char *x_arg = NULL, *b_arg = NULL;
    cmd_opts co; /* --json, --seed */
    cmd_opts_init(&co, OPT_JSON | OPT_SEED);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) continue;
        else if (!strcmp(a, "--table")) table = 1;
        else if (!strcmp(a, "--example")) example_mode = 1;
        else if (!strcmp(a, "--simulate")) sim = 1;
        else if (!strcmp(a, "--sweep-m")) sweep = 1;
        else if (!strcmp(a, "--adversary")) adv = 1;
        else if (!strcmp(a, "--plot")) op.plot = 1;
        else if (!strcmp(a, "--n") && more) op.n = (int)cli_long(a, argv[++i], 1, CLOSM_MAX_N);
        else if (!strcmp(a, "--r") && more) op.r = cli_long(a, argv[++i], 1, CLOSM_MAX_R);
        else if (!strcmp(a, "--d") && more) op.d = cli_long(a, argv[++i], 1, CLOSM_MAX_R);
        else if (!strcmp(a, "--b") && more) b_arg = argv[++i];
        else if (!strcmp(a, "--m") && more) op.m = (int)cli_long(a, argv[++i], 1, CLOS_MAX_M);
        else if (!strcmp(a, "--x") && more) x_arg = argv[++i];
        else if (!strcmp(a, "--window") && more) {
            const char *w = argv[++i];
            if (!strcmp(w, "all")) op.window = 0;
            else if (!strcmp(w, "paper")) op.window = 1;
            else cli_fail(EXIT_USAGE, "--window: unknown '%s' (all, paper)", w);
        } else if (!strcmp(a, "--fanout") && more) op.fanout = argv[++i];
        else if (!strcmp(a, "--load") && more) op.load = cli_double(a, argv[++i], 1e-6, 1e6);
        else if (!strcmp(a, "--hold") && more) op.hold = cli_double(a, argv[++i], 1e-6, 1e6);
        else if (!strcmp(a, "--requests") && more) op.requests = cli_long(a, argv[++i], 1, 1000000000L);
        else if (!strcmp(a, "--check-every") && more) op.check_every = cli_long(a, argv[++i], 1, 1000000000L);
        else if (!strcmp(a, "--budget") && more) op.budget = cli_long(a, argv[++i], 1, 1000000000L);
        else if (!strcmp(a, "--m-from") && more) op.m_from = cli_long(a, argv[++i], 1, CLOS_MAX_M);
        else if (!strcmp(a, "--m-to") && more) op.m_to = cli_long(a, argv[++i], 1, CLOS_MAX_M);
        else if (!strcmp(a, "--max-r") && more) op.max_r = cli_long(a, argv[++i], 1, 1000000000000L);
        else if (!strcmp(a, "--out") && more) op.out = argv[++i];
        else cmd_bad_option(a, usage_text);
    }
    op.json = co.json;
    op.seed = co.seed;
    if (table + example_mode + sim + sweep + adv > 1)
        cli_fail(EXIT_USAGE, "--table, --example, --simulate, --sweep-m and --adversary exclude each other");
    if (op.plot && !op.out) cli_fail(EXIT_USAGE, "--plot needs --out DIR");
    if ((op.plot || op.out) && !sweep) cli_fail(EXIT_USAGE, "--out and --plot go with --sweep-m");
    if (table) return cmd_table(&op);
    if (example_mode) return cmd_example(&op);
    if (!op.n || !op.r) cli_fail(EXIT_USAGE, "--n and --r are required (see xnoc clos --help)");
    if (op.n < 2) cli_fail(EXIT_USAGE, "--n %d: the bounds need n >= 2 input ports per input switch", op.n);
    if (op.d > op.r) cli_fail(EXIT_USAGE, "--d %ld: a fanout bound above r = %ld", op.d, op.r);
    if (b_arg) parse_b(b_arg, &op.b_num, &op.b_den);
    closm_bounds b;
    char err[256];
    if (closm_bounds_eval(op.n, op.r, op.d, op.b_num, op.b_den, &b, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
    if (!(sim || sweep || adv)) {
        json_t *o = bounds_json(&b, op.m ? op.m : b.th3.m_min);
        if (op.json) print_json(o);
        else print_bounds(o);
        json_decref(o);
        return 0;
    }
    /* the traffic modes: a network the simulator can hold */
    if (op.r > CLOS_MAX_R || (long)op.n * op.r > 1 << 20)
        cli_fail(EXIT_USAGE, "--r %ld --n %d: the simulator takes r <= %d and n r <= 2^20", op.r, op.n, CLOS_MAX_R);
    if (adv && op.r > 256) cli_fail(EXIT_USAGE, "--r %ld: the adversary takes r <= 256", op.r);
    op.x = x_arg ? (int)cli_long("--x", x_arg, 1, op.r) : b.th3.x;
    op.fmin = 1, op.fmax = (int)op.r;
    if (op.fanout) {
        char *e;
        long lo = strtol(op.fanout, &e, 10), hi = lo;
        if (e != op.fanout && *e == '-') {
            const char *h = e + 1;
            hi = strtol(h, &e, 10);
            if (e == h) lo = 0;
        }
        if (e == op.fanout || *e || lo < 1 || hi < lo || hi > op.r)
            cli_fail(EXIT_USAGE, "--fanout '%s': expected A-B or K with 1 <= A <= B <= r = %ld", op.fanout, op.r);
        op.fmin = (int)lo, op.fmax = (int)hi;
    }
    if (sim) return cmd_simulate(&op, &b);
    if (sweep) return clos_sweep(&op, &b);
    return cmd_adversary(&op, &b);
}
