/* qcdoc_cmd.c - `xnoc qcdoc`: the QCDOC all-gather's analysis, counted
 * offset by offset (coll/qcdoc.h), checked against the paper's formulas
 * and, for the paper's 6^6 torus, against its printed table. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/report.h"
#include "cmd/cmds.h"
#include "cmd/cmd_opts.h"
#include "coll/qcdoc.h"

static const char *usage_text = "usage: xnoc qcdoc (--dims A,B,... | --topo torus:AxBx...) [--json]\n"
                                "\n"
                                "The QCDOC all-gather (Deng, Glimm, Davenport) on a torus of 1 to 6\n"
                                "dimensions, regular or not, computed by counting every offset: per step j\n"
                                "the data M_j each node receives (units of one node's data), the block\n"
                                "sums, the steps, the largest buffer (the paper's rule: the largest\n"
                                "M_{j-2} + M_{j-1} + M_j) and where, and the bandwidth efficiency (data a\n"
                                "node receives / what its 2D links carry in the algorithm's step times; a\n"
                                "step lasts as long as its most loaded channel).  Ties are split among\n"
                                "their channels as in the paper; efficiency_whole_messages is the plan the\n"
                                "firmware runs (whole messages, least loaded channel).  Regular tori are\n"
                                "checked against the paper's per-step formulas; for 6,6,6,6,6,6 the\n"
                                "paper's printed table is checked too and disagreements are listed.\n"
                                "docs/qcdoc.md.\n";

/* The paper's printed numbers for the 6^6 torus (Sect. 3.3), to check. */
static const double paper_m[18] = {12,   12,   6,  240,   120,  15, 1960,  520, 20,
                                   8160, 1200, 15, 17298, 3872, 6,  14896, 728, 1};
static const double paper_sum[6] = {30, 375, 2500, 9375, 18750, 15760};

/* "6,6,6" or "6x6x6": 1 to TOPO_MAX_DIMS sizes of 1..100000, strictly;
 * the count, or CLI_NOT_NUMBER / CLI_OUT_OF_RANGE */
static int parse_dims(const char *s, int *dims)
{
    int n = 0;
    for (const char *p = s;;) {
        size_t l = strcspn(p, ",x");
        if (n == TOPO_MAX_DIMS) return CLI_NOT_NUMBER;
        char *num = xasprintf("%.*s", (int)l, p);
        long v = 0;
        int r = cli_parse_long(num, 1, 100000, &v);
        free(num);
        if (r) return r;
        dims[n++] = (int)v;
        if (!p[l]) return n;
        p += l + 1;
    }
}

static int is_paper_torus(const qcdoc_model *m)
{
    if (m->ndims != 6) return 0;
    for (int d = 0; d < 6; d++)
        if (m->dims[d] != 6) return 0;
    return 1;
}

static json_t *check(const char *what, double printed, double counted)
{
    return json_pack("{s:s,s:f,s:f}", "what", what, "printed", printed, "counted", counted);
}

/* The options into dims; the count of dimensions, 0 after --help. */
static int parse_args(int argc, char **argv, int *dims, int *json)
{
    int nd = 0;
    cmd_opts co;
    cmd_opts_init(&co, OPT_TOPO | OPT_JSON);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (cmd_opts_arg(&co, argc, argv, &i)) {
            if (co.topo != argv[i]) continue; /* --json */
            const char *s = co.topo;          /* --topo: a torus only, checked where it stands */
            if (strncmp(s, "torus:", 6) || (nd = parse_dims(s + 6, dims)) < 1)
                cli_fail(EXIT_USAGE, "--topo '%s': the QCDOC all-gather runs on a torus such as torus:4x4x4", s);
        } else if (!strcmp(a, "--dims") && i + 1 < argc) {
            nd = parse_dims(argv[++i], dims);
            if (nd == CLI_OUT_OF_RANGE) cli_fail(EXIT_USAGE, "--dims '%s': each size must be 1..100000", argv[i]);
            if (nd < 1)
                cli_fail(EXIT_USAGE, "--dims '%s': expected 1 to %d sizes such as 6,6,6,6,6,6", argv[i], TOPO_MAX_DIMS);
        } else {
            cmd_bad_option(a, usage_text);
        }
    }
    *json = co.json;
    if (!nd) cli_fail(EXIT_USAGE, "--dims or --topo is required (see xnoc qcdoc --help)");
    return nd;
}

/* closed forms (regular tori): per step (the count that disagree), and the
 * paper's printed general rule into o's "paper_general_formula" */
static int check_formulas(json_t *o, const qcdoc_model *m)
{
    int cf_bad = 0, gen_bad = 0, gen_n = 0, nd = m->ndims;
    json_t *gen_first = json_null();
    int t = m->dims[0], r = t / 2;
    for (int j = 0; j < m->nsteps; j++)
        if (fabs(qcdoc_closed_form(m, m->block[j], m->level[j]) - m->msgs[j]) > 1e-6) cf_bad++;
    /* printed: M_{jr} + ... + M_{jr-l} = C(D,j) * ((2l+2)^r if r odd, (2l+1)^r if r even) */
    for (int b = 1; b <= nd; b++)
        for (int l = 0; l < r; l++) {
            double counted = 0, cnk = 1;
            for (int i = 0; i <= l; i++) {
                int j = (b - 1) * r + (r - i); /* 1-based step: block b, hop r - i */
                counted += m->msgs[j - 1];
            }
            for (int i = 1; i <= b; i++) cnk = cnk * (nd - b + i) / i;
            double printed = cnk * pow(r % 2 ? 2 * l + 2 : 2 * l + 1, r);
            gen_n++;
            if (fabs(printed - counted) > 1e-6) {
                if (!gen_bad)
                    gen_first =
                        json_pack("{s:i,s:i,s:f,s:f}", "block", b, "l", l, "printed", printed, "counted", counted);
                gen_bad++;
            }
        }
    json_object_set_new(o, "paper_general_formula",
                        json_pack("{s:i,s:i,s:o}", "checked", gen_n, "disagree", gen_bad, "first", gen_first));
    return cf_bad;
}

/* the paper's 6^6 table against the counts: the disagreements */
static json_t *paper_table(const qcdoc_model *m, double best, int best_j)
{
    json_t *paper = json_array();
    if (!is_paper_torus(m)) return paper;
    char what[64];
    for (int j = 0; j < 18; j++)
        if (fabs(paper_m[j] - m->msgs[j]) > 1e-6) {
            snprintf(what, sizeof what, "M_%d", j + 1);
            json_array_append_new(paper, check(what, paper_m[j], m->msgs[j]));
        }
    for (int b = 0; b < 6; b++) {
        double s = m->msgs[3 * b] + m->msgs[3 * b + 1] + m->msgs[3 * b + 2];
        if (fabs(paper_sum[b] - s) > 1e-6) {
            snprintf(what, sizeof what, "M_%d + M_%d + M_%d", 3 * b + 1, 3 * b + 2, 3 * b + 3);
            json_array_append_new(paper, check(what, paper_sum[b], s));
        }
    }
    if (best != 21185) json_array_append_new(paper, check("max_buffer", 21185, best));
    if (best_j != 14) json_array_append_new(paper, check("max_buffer_step", 14, best_j));
    return paper;
}

/* the steps' table (and the closed form of a regular torus) and the block sums */
static void report_steps(json_t *o, const qcdoc_model *m, int regular)
{
    json_t *ms = json_array(), *st = json_array(), *bl = json_array();
    for (int j = 0; j < m->nsteps; j++) {
        double mx = m->tsplit[j], mw = qcdoc_step_whole(m, j);
        json_array_append_new(ms, json_real(m->msgs[j]));
        json_t *e = json_pack("{s:i,s:i,s:i,s:f,s:f,s:f}", "step", j + 1, "block", m->block[j], "hop", m->level[j],
                              "messages", m->msgs[j], "max_channel_load", mx, "max_channel_load_whole", mw);
        if (regular) json_object_set_new(e, "closed_form", json_real(qcdoc_closed_form(m, m->block[j], m->level[j])));
        json_array_append_new(st, e);
    }
    for (int b = 1; b <= m->ndims; b++) {
        double s = 0;
        for (int j = 0; j < m->nsteps; j++)
            if (m->block[j] == b) s += m->msgs[j];
        json_array_append_new(bl, json_pack("{s:i,s:f}", "block", b, "sum", s));
    }
    json_object_set_new(o, "messages", ms);
    json_object_set_new(o, "block_sums", bl);
    json_object_set_new(o, "steps_table", st);
}

/* One report: every figure; the text is written from it. */
static json_t *report(const qcdoc_model *m)
{
    int nd = m->ndims;
    /* the buffer rule, M_0 = 1 (a node's own data) */
    double best = -1, sum = 0;
    int best_j = 0, regular = 1, diameter = 0;
    for (int j = 0; j < m->nsteps; j++) {
        double b3 = m->msgs[j] + (j >= 1 ? m->msgs[j - 1] : 1) + (j >= 2 ? m->msgs[j - 2] : j == 1 ? 1 : 0);
        if (b3 > best) best = b3, best_j = j + 1;
        sum += m->msgs[j];
    }
    for (int d = 0; d < nd; d++) {
        regular &= m->dims[d] == m->dims[0];
        diameter += m->dims[d] / 2;
    }
    double T = qcdoc_time(m, 0), Tw = qcdoc_time(m, 1);
    double eff = (double)(m->nodes - 1) / (m->nch * T), effw = (double)(m->nodes - 1) / (m->nch * Tw);
    char dims_text[128] = "";
    for (int d = 0; d < nd; d++)
        snprintf(dims_text + strlen(dims_text), sizeof dims_text - strlen(dims_text), "%s%d", d ? "x" : "", m->dims[d]);
    json_t *o = json_object(), *dm = json_array(), *steps = json_object(), *gen = json_object();
    for (int d = 0; d < nd; d++) json_array_append_new(dm, json_integer(m->dims[d]));
    report_steps(steps, m, regular);
    int cf_bad = regular ? check_formulas(gen, m) : 0;
    json_object_set_new(o, "dims", dm);
    json_object_set_new(o, "nodes", json_integer(m->nodes));
    json_object_set_new(o, "dims_text", json_string(dims_text));
    json_object_set_new(o, "diameter", json_integer(diameter));
    json_object_set_new(o, "steps", json_integer(m->nsteps));
    json_object_set(o, "messages", json_object_get(steps, "messages"));
    json_object_set_new(o, "messages_sum", json_real(sum));
    json_object_set(o, "block_sums", json_object_get(steps, "block_sums"));
    json_object_set_new(o, "max_buffer", json_real(best));
    json_object_set_new(o, "max_buffer_step", json_integer(best_j));
    json_object_set_new(o, "step_time", json_real(T));
    json_object_set_new(o, "efficiency", json_real(eff));
    json_object_set_new(o, "step_time_whole_messages", json_real(Tw));
    json_object_set_new(o, "efficiency_whole_messages", json_real(effw));
    json_object_set_new(o, "regular", json_boolean(regular));
    json_object_set_new(o, "closed_form_matches", regular ? json_boolean(cf_bad == 0) : json_null());
    if (regular) json_object_set(o, "paper_general_formula", json_object_get(gen, "paper_general_formula"));
    json_object_set(o, "steps_table", json_object_get(steps, "steps_table"));
    json_object_set_new(o, "paper_table_disagreements", paper_table(m, best, best_j));
    json_decref(steps);
    json_decref(gen);
    return o;
}

/* the text, written from the JSON report (util/report.h) */
static void print_text(const json_t *o)
{
    int regular = json_is_true(report_get(o, "regular"));
    report_printf(stdout, o,
                  regular ? "QCDOC all-gather on a regular torus " : "QCDOC all-gather on an irregular torus ");
    report_printf(stdout, o, "{dims_text}: {nodes} nodes, diameter {diameter}, {steps} steps\n");
    printf("  step block hop  M_j (units of one node's data)  max channel (split / whole)%s\n",
           regular ? "  closed form" : "");
    /* array elements render as reports of their own */
    const json_t *st = report_get(o, "steps_table"), *pt = report_get(o, "paper_table_disagreements");
    for (size_t j = 0; j < json_array_size(st); j++) {
        report_printf(stdout, json_array_get(st, j),
                      "  {step:%4d} {block:%5d} {hop:%3d}  {messages:%10.0f} {max_channel_load:%32.3f} / "
                      "{max_channel_load_whole:%.0f}");
        if (regular) report_printf(stdout, json_array_get(st, j), "  {closed_form:%10.0f}");
        putchar('\n');
    }
    printf("  sum of M_j: ");
    report_printf(stdout, o, "{messages_sum:%.0f}");
    printf(" (nodes - 1 = %lld)\n", (long long)json_integer_value(report_get(o, "nodes")) - 1);
    report_printf(stdout, o,
                  "  largest buffer: {max_buffer:%.0f} units at step {max_buffer_step} (M_{{j-2}} + M_{{j-1}} + "
                  "M_j)\n");
    report_printf(stdout, o,
                  "  efficiency: {efficiency:%.3f} with ties split, {efficiency_whole_messages:%.3f} with whole "
                  "messages (the firmware's plan)\n");
    if (regular) {
        printf("  per-step formulas: %s; ", json_is_true(report_get(o, "closed_form_matches")) ? "agree" : "DISAGREE");
        report_printf(stdout, o,
                      "the paper's general rule as printed: {paper_general_formula.disagree} of "
                      "{paper_general_formula.checked} sums disagree\n");
    }
    for (size_t i = 0; i < json_array_size(pt); i++)
        report_printf(stdout, json_array_get(pt, i),
                      "  paper's table: {what} printed {printed:%.0f}, counted {counted:%.0f}\n");
}

int cmd_qcdoc(int argc, char **argv)
{
    int dims[TOPO_MAX_DIMS], json = 0;
    int nd = parse_args(argc, argv, dims, &json);
    if (!nd) return 0;
    qcdoc_model m;
    char err[256];
    if (qcdoc_build(&m, nd, dims, err, sizeof err)) cli_fail(EXIT_USAGE, "--dims: %s", err);
    json_t *o = report(&m);
    if (json) {
        json_dumpf(o, stdout, JSON_COMPACT);
        putchar('\n');
    } else print_text(o);
    json_decref(o);
    qcdoc_free(&m);
    return 0;
}
