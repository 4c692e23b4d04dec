/* sched_cmd.c - `xnoc sched`: lower bounds, schedules, schedule files and
 * their independent verification. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/report.h"
#include "cmd/cmds.h"
#include "cmd/cmd_opts.h"
#include "sched/sched.h"
#include "sched/sched_file.h"

static const char *usage_text =
    "usage: xnoc sched --topo T --op OP [--from SET] [--to SET] [options]\n"
    "       xnoc sched --verify FILE [--json]\n"
    "\n"
    "Lower bound and a conflict-free step schedule for a collective.\n"
    "  --op OP          bcast, scatter, gather, reduce, allgather, alltoall, mnb, mns, barrier\n"
    "  --from / --to    terminal sets such as 0-7,9 or all (defaults: root 0 or all)\n"
    "  --ports k        injection/ejection channels per terminal (1)\n"
    "  --detour h       also allow paths up to h hops longer than minimal (0)\n"
    "  --exact          SAT (CaDiCaL) from the lower bound up: the proven optimum\n"
    "  --moves N        the improving (tabu) search's budget in moves (2000000,\n"
    "                   fewer where a move costs more: large collectives)\n"
    "  --conflicts N    the exact search's budget in SAT conflicts for each step\n"
    "                   count it asks about (default: 1.2e11 / the clauses of the\n"
    "                   first CNF, at most 1000000: a minute or two of CPU)\n"
    "  --time-limit S   safety net in seconds (1800): the budgets above decide the\n"
    "                   answer, the same on any machine; a search stopped by the\n"
    "                   clock first reports \"out of time\" and exits 1\n"
    "  --seed N         heuristic seed (1)\n"
    "  -o FILE          write the schedule file (docs/schedule-format.md)\n"
    "  --ship DIR       write it to DIR under the name xnoc collective looks for\n"
    "                   (schedules/), if it is proven optimal\n"
    "  --verify FILE    check a schedule file: deliveries, conflicts, ports, causality\n"
    "  --json           one JSON object on stdout\n";

/* a cut width, or null where the paper's formula has no such cut */
static json_t *width_json(int w) { return w < 0 ? json_null() : json_integer(w); }

/* " b0=N" from the report's bound_terms, "-" where it is null */
static void print_width(const json_t *j, const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "bound_terms.%s", name);
    if (json_is_null(report_get(j, path))) printf(" %s=-", name);
    else {
        char tmpl[96];
        snprintf(tmpl, sizeof tmpl, " %s={%s}", name, path);
        report_printf(stdout, j, tmpl);
    }
}

static int verify_cmd(const char *path, int json)
{
    char err[512];
    topo *t = NULL;
    coll_sched s;
    int rc = sched_file_read(path, &t, &s, err, sizeof err);
    if (rc == -2) cli_fail(EXIT_USAGE, "%s", err); /* unreadable or malformed */
    if (rc == 0 && sched_verify(&s, t, err, sizeof err)) rc = -1;
    json_t *o = json_pack("{s:s,s:b}", "file", path, "valid", rc == 0);
    if (rc) json_object_set_new(o, "error", json_string(err));
    else {
        json_object_set_new(o, "op", json_string(coll_op_name(s.op)));
        json_object_set_new(o, "topology", json_string(t->name));
        json_object_set_new(o, "steps", json_integer(s.nsteps));
        json_object_set_new(o, "transfers", json_integer(s.nxfers));
    }
    if (json) {
        json_dumpf(o, stdout, JSON_COMPACT);
        putchar('\n');
    } else if (!rc) /* the text is written from the JSON report (util/report.h) */
        report_printf(stdout, o, "{file}: valid {op} schedule on {topology}: {steps} steps, {transfers} transfers\n");
    json_decref(o);
    if (rc) cli_error("%s: %s", path, err);
    coll_free(&s);
    topo_free(t);
    return rc ? EXIT_RUNFAIL : 0;
}

/* The command line of `xnoc sched`. */
typedef struct {
    cmd_opts co;
    const char *opname, *from, *to, *out, *verify, *ship;
    sched_opts o;
} sched_cli;

/* The options into c; 1 after --help. */
static int parse_args(int argc, char **argv, sched_cli *c)
{
    sched_opts *o = &c->o;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 1;
        } else if (cmd_opts_arg(&c->co, argc, argv, &i)) continue;
        else if (!strcmp(a, "--exact")) o->exact = 1;
        else if (!v) cmd_bad_option(a, usage_text);
        else if (!strcmp(a, "--op")) c->opname = argv[++i];
        else if (!strcmp(a, "--from")) c->from = argv[++i];
        else if (!strcmp(a, "--to")) c->to = argv[++i];
        else if (!strcmp(a, "--detour")) o->detour = (int)cli_long(a, argv[++i], 0, 4);
        else if (!strcmp(a, "--time-limit")) o->time_limit = cli_double(a, argv[++i], 0.01, 86400);
        else if (!strcmp(a, "--conflicts")) o->conflicts = cli_long(a, argv[++i], 1, 1000000000000L);
        else if (!strcmp(a, "--moves")) {
            o->moves = cli_long(a, argv[++i], 0, 1000000000000L);
            if (!o->moves) o->moves = -1; /* none (0 in sched_opts is the default) */
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) c->out = argv[++i];
        else if (!strcmp(a, "--verify")) c->verify = argv[++i];
        else if (!strcmp(a, "--ship")) c->ship = argv[++i];
        else cmd_bad_option(a, usage_text);
    }
    o->seed = c->co.seed;
    return 0;
}

/* One report: every figure; the text is written from it. */
static json_t *report(const topo *t, const coll_sched *s, const sched_cli *c, const sched_bound *b,
                      const sched_result *r, const char *out)
{
    json_t *j = json_object();
    json_object_set_new(j, "topology", json_string(t->name));
    json_object_set_new(j, "op", json_string(c->opname));
    json_object_set_new(j, "ports", json_integer(c->co.ports));
    json_object_set_new(j, "messages", json_integer(s->nmsgs));
    json_object_set_new(j, "transfers", json_integer(s->nxfers));
    json_object_set_new(j, "steps", json_integer(r->steps));
    json_object_set_new(j, "lower_bound", json_integer(r->lower_bound));
    json_object_set_new(j, "optimal", r->optimal == 1 ? json_true() : r->optimal == 0 ? json_false() : json_null());
    json_object_set_new(j, "greedy_steps", json_integer(r->greedy_steps));
    json_object_set_new(j, "heuristic_steps", json_integer(r->heuristic_steps));
    json_object_set_new(j, "proven_impossible", json_integer(r->proven_impossible));
    json_object_set_new(j, "ended", json_string(r->ended));
    json_object_set_new(j, "moves", json_integer(r->moves));
    json_object_set_new(j, "budget",
                        json_pack("{s:I,s:I,s:f}", "moves", (json_int_t)r->move_budget, "conflicts",
                                  (json_int_t)r->conflict_budget, "time_limit", r->time_limit));
    json_object_set_new(j, "seconds", json_real(r->seconds));
    json_object_set_new(j, "detour", json_integer(c->o.detour));
    json_object_set_new(j, "paths_sampled", json_boolean(r->paths_capped));
    json_t *bt = json_pack("{s:i,s:i,s:i,s:i,s:s,s:i}", "ports_inject", b->ports_inject, "ports_absorb",
                           b->ports_absorb, "log", b->log_bound, "cut", b->cut_bound, "largest",
                           b->largest ? b->largest : "", "paper_formula", b->paper);
    json_object_set_new(bt, "b0", width_json(b->b0));
    json_object_set_new(bt, "b1", width_json(b->b1));
    json_object_set_new(bt, "b2", width_json(b->b2));
    json_object_set_new(j, "bound_terms", bt);
    if (r->nquestions) {
        json_t *qs = json_array();
        for (int i = 0; i < r->nquestions && i < SCHED_MAX_QUESTIONS; i++)
            json_array_append_new(qs, json_pack("{s:i,s:s,s:I}", "steps", r->q[i].steps, "answer", r->q[i].answer,
                                                "learned", (json_int_t)r->q[i].learned));
        json_object_set_new(j, "sat",
                            json_pack("{s:I,s:I,s:I,s:o}", "vars", (json_int_t)r->sat_vars, "clauses",
                                      (json_int_t)r->sat_clauses, "learned", (json_int_t)r->sat_learned, "questions",
                                      qs));
    }
    if (r->sat_skipped) json_object_set_new(j, "exact_skipped", json_string(r->sat_skipped));
    if (out) json_object_set_new(j, "schedule", json_string(out));
    return j;
}

/* the text, written from the JSON report j (util/report.h) */
static void print_text(const json_t *j, const sched_bound *b, const sched_result *r, const char *out)
{
    int out_of_time = !strcmp(r->ended, "time");
    report_printf(stdout, j, "{op} on {topology} (k={ports}): {messages} message(s), {transfers} transfer(s)\n");
    report_printf(stdout, j,
                  "  lower bound {lower_bound}  (ports inject {bound_terms.ports_inject}, absorb "
                  "{bound_terms.ports_absorb}, log {bound_terms.log}, cut {bound_terms.cut}; largest: ");
    report_printf(stdout, j, b->largest ? "{bound_terms.largest})\n" : "-)\n");
    report_printf(stdout, j, "  paper's formula {bound_terms.paper_formula} with");
    print_width(j, "b0");
    print_width(j, "b1");
    print_width(j, "b2");
    report_printf(stdout, j, "\n  schedule  {steps} steps (greedy {greedy_steps}, improved {heuristic_steps})");
    fputs(r->optimal == 1   ? ", proven optimal"
          : r->optimal == 0 ? ", the bound is proven unreachable"
                            : ", optimality unknown",
          stdout);
    report_printf(stdout, j, ", {seconds:%.2f} s\n");
    if (r->proven_impossible)
        report_printf(stdout, j, "  {proven_impossible} steps proven impossible by the SAT solver\n");
    report_printf(stdout, j,
                  out_of_time                  ? "  search ended out of time ({budget.time_limit:%g} s)"
                  : !strcmp(r->ended, "proof") ? "  search ended by proof"
                                               : "  search ended by its budget");
    const char *sep = " ("; /* what the budgets were and what they bought */
    if (r->move_budget) {
        report_printf(stdout, j, " (tabu search: {moves} of {budget.moves} moves");
        sep = "; ";
    }
    if (r->nquestions) {
        printf("%s", sep);
        report_printf(stdout, j, "SAT, {budget.conflicts} conflicts a question:");
        for (int i = 0; i < r->nquestions && i < SCHED_MAX_QUESTIONS; i++)
            printf(" %d steps %s%s", r->q[i].steps, r->q[i].answer, i + 1 < r->nquestions ? "," : "");
        sep = "; ";
    }
    puts(sep[0] == ';' ? ")" : "");
    if (r->sat_skipped) report_printf(stdout, j, "  exact search skipped: {exact_skipped}\n");
    if (r->paths_capped) printf("  note: candidate routes were sampled (%d per pair at most)\n", SCHED_MAX_VARIANTS);
    if (out) report_printf(stdout, j, "  written to {schedule}\n");
}

/* The collective's sets on t, checked. */
static void sched_sets(const sched_cli *c, const topo *t, coll_sched *s)
{
    char err[512];
    int op = coll_op_parse(c->opname);
    if (coll_init(s, t, (coll_op)op, c->from, c->to, err, sizeof err)) cli_fail(EXIT_USAGE, "%s", err);
    if (s->nmsgs == 0 && op != OP_BARRIER && op != OP_REDUCE)
        cli_fail(EXIT_USAGE, "%s from %s to %s moves no message", c->opname, c->from ? c->from : "-",
                 c->to ? c->to : "-");
    if (sched_check_size(s, err, sizeof err)) cli_fail(EXIT_USAGE, "%s on %s: %s", c->opname, t->name, err);
}

int cmd_sched(int argc, char **argv)
{
    sched_cli c = {.o = {.detour = 0, .exact = 0, .seed = 1}}; /* budgets 0: the defaults (sched.h) */
    cmd_opts_init(&c.co, OPT_TOPO | OPT_PORTS | OPT_JSON | OPT_SEED);
    if (parse_args(argc, argv, &c)) return 0;
    if (c.verify) return verify_cmd(c.verify, c.co.json);
    if (!c.co.topo) cli_fail(EXIT_USAGE, "--topo is required (see xnoc sched --help)");
    if (!c.opname)
        cli_fail(EXIT_USAGE,
                 "--op is required (bcast, scatter, gather, reduce, allgather, alltoall, mnb, mns, barrier)");
    if (coll_op_parse(c.opname) < 0)
        cli_fail(
            EXIT_USAGE,
            "--op: unknown collective '%s' (bcast, scatter, gather, reduce, allgather, alltoall, mnb, mns, barrier)",
            c.opname);
    char err[512];
    topo *t = topo_parse(c.co.topo, c.co.ports, err, sizeof err);
    if (!t) cli_fail(EXIT_USAGE, "%s", err);
    coll_sched s;
    sched_sets(&c, t, &s);
    c.o.progress = cli_progress_enabled();
    sched_bound b;
    sched_lower_bound(&s, t, &b);
    sched_result r;
    if (sched_run(&s, t, &c.o, &r) < 0)
        cli_fail(EXIT_RUNFAIL, "no schedule found (a pair has no path within --detour %d)", c.o.detour);
    if (sched_verify(&s, t, err, sizeof err))
        cli_fail(EXIT_RUNFAIL, "internal error: the synthesized schedule fails verification: %s", err);
    int out_of_time = !strcmp(r.ended, "time");
    const char *out = c.out, *ship = c.ship;
    char *shipped = NULL;
    if (out_of_time) out = ship = NULL; /* an answer that depends on the machine's speed is not kept */
    if (ship) {                         /* DIR/<the name xnoc collective looks for>, only for a proven optimum */
        char name[8300];
        sched_file_shipped_name(t, &s, name, sizeof name);
        shipped = xasprintf("%s/%s", ship, name);
        if (r.optimal == 1) out = shipped;
        else
            cli_error("--ship: %s on %s is not proven optimal (%d steps, bound %d): not written", c.opname, t->name,
                      r.steps, r.lower_bound);
    }
    if (out && sched_file_write(out, t, &s, &r, err, sizeof err)) /* the run's answer is lost: a failed run */
        cli_fail(EXIT_RUNFAIL, "%s %s", out == shipped ? "--ship" : "-o", err);
    json_t *j = report(t, &s, &c, &b, &r, out);
    if (c.co.json) {
        json_dumpf(j, stdout, JSON_COMPACT);
        putchar('\n');
    } else print_text(j, &b, &r, out);
    json_decref(j);
    free(shipped);
    coll_free(&s);
    topo_free(t);
    if (out_of_time) {
        cli_error("out of time: --time-limit %g s passed before the search's budgets (--moves, --conflicts) ran out, "
                  "so its result would depend on the machine's speed: raise --time-limit or lower the budgets",
                  r.time_limit);
        return EXIT_RUNFAIL;
    }
    return 0;
}
