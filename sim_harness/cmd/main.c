/* main.c - `xnoc <command> ...`: dispatch to the sub-commands. */
#include <jansson.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cli.h"
#include "cmd/cmds.h"
#include "util/suggest.h"

/* the release this tree is (CHANGELOG.md) */
#define XNOC_VERSION "0.3.0-dev"

extern char **environ;

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} commands[] = {
    {"traffic", cmd_traffic, "synthetic traffic on the RTL network (latency, throughput, link loads)"},
    {"run", cmd_run, "run a RISC-V firmware image on every node of the RTL network"},
    {"collective", cmd_collective, "run a scheduled or built-in collective in firmware and verify it"},
    {"sched", cmd_sched, "lower bounds and conflict-free step schedules for collectives"},
    {"topo", cmd_topo, "describe a topology: routers, terminals, links, routes"},
    {"sweep", cmd_sweep, "run a grid of xnoc runs, N at a time or on Slurm: CSV, resume, plots"},
    {"ncmodel", cmd_ncmodel, "hop counts of the all-to-all broadcast with hierarchical network coding"},
    {"dfmodel", cmd_dfmodel, "link use of broadcasts on a dragonfly: the paper's formulas, exact and printed"},
    {"clos", cmd_clos, "the Clos multicast network v(m,n,r): nonblocking bounds, routing control, blocking"},
    {"synth", cmd_synth, "the area of a network's router and coding unit (yosys, generic gates)"},
    {"replay", cmd_replay, "replay an --events file: link loads, pictures and the live view again"},
    {"qcdoc", cmd_qcdoc, "the QCDOC all-gather on an n-D torus: message sizes, buffers, efficiency"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: xnoc <command> [options]   (xnoc <command> --help for details)\n"
               "       xnoc --version [--json]\n"
               "Options take their value as the next word or after '=' (--rate 0.1, --rate=0.1).\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].what);
}

/* The Verilator that builds the network models: its --version line, run as
 * an argument vector (no shell); "" when it cannot be run. */
static void verilator_version(char *buf, size_t len)
{
    int fd[2];
    *buf = 0;
    if (pipe(fd)) return;
    char *av[] = {"verilator", "--version", NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    pid_t pid;
    int bad = posix_spawnp(&pid, "verilator", &fa, NULL, av, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    while (!bad && n + 1 < len && (r = read(fd[0], buf + n, len - 1 - n)) > 0) n += (size_t)r;
    buf[n] = 0;
    close(fd[0]);
    int st = 0;
    if (!bad) waitpid(pid, &st, 0);
    if (bad || !WIFEXITED(st) || WEXITSTATUS(st)) *buf = 0;
    buf[strcspn(buf, "\n")] = 0;
}

static int version(int json)
{
    char v[256];
    verilator_version(v, sizeof v);
    if (json) {
        json_t *j = json_object();
        json_object_set_new(j, "xnoc", json_string(XNOC_VERSION));
        json_object_set_new(j, "verilator", *v ? json_string(v) : json_null());
        char *s = json_dumps(j, JSON_SORT_KEYS);
        printf("%s\n", s);
        free(s);
        json_decref(j);
    } else {
        printf("xnoc %s\n", XNOC_VERSION);
        printf("network models built with: %s\n", *v ? v : "no verilator found (make deps installs Debian's)");
    }
    return 0;
}

/* "--name=value" as the two words "--name" "value" (the first '=' splits:
 * --topo=dragonfly:a=4,p=2,h=2 keeps the topology's own '='s) */
static char **split_words; /* split_assignments' array and the names it made, freed at the end */
static char **split_made;
static int split_nmade;

static char **split_assignments(int *argc, char **argv)
{
    int n = 0;
    for (int i = 0; i < *argc; i++) n += 1 + (i > 1 && !strncmp(argv[i], "--", 2) && strchr(argv[i], '='));
    char **out = xcalloc((size_t)n + 1, sizeof *out);
    split_made = xcalloc((size_t)n + 1, sizeof *split_made);
    int k = 0;
    for (int i = 0; i < *argc; i++) {
        char *eq = i > 1 && !strncmp(argv[i], "--", 2) ? strchr(argv[i], '=') : NULL;
        if (eq) {
            out[k++] = split_made[split_nmade++] = xasprintf("%.*s", (int)(eq - argv[i]), argv[i]);
            out[k++] = eq + 1;
        } else out[k++] = argv[i];
    }
    *argc = n;
    split_words = out;
    return out;
}

static void split_free(void)
{
    for (int i = 0; i < split_nmade; i++) free(split_made[i]);
    free(split_made);
    free(split_words);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        if (argc > 3 || (argc == 3 && strcmp(argv[2], "--json"))) cli_fail(EXIT_USAGE, "--version takes only --json");
        return version(argc == 3);
    }
    argv = split_assignments(&argc, argv);
    const char *names[sizeof commands / sizeof commands[0]];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        names[i] = commands[i].name;
        if (strcmp(argv[1], commands[i].name)) continue;
        cli_cmd = commands[i].name;
        int rc = commands[i].fn(argc - 1, argv + 1);
        split_free();
        int e = rc ? 0 : cli_out_error(stdout); /* a failed run said so already */
        if (e) cli_fail(EXIT_RUNFAIL, "writing the report to standard output: %s", strerror(e));
        return rc;
    }
    const char *near = suggest_pick(argv[1], names, sizeof names / sizeof names[0]);
    if (near) cli_fail(EXIT_USAGE, "unknown command '%s' (did you mean %s? xnoc --help lists them)", argv[1], near);
    char *all = xstrdup("");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char *more = xasprintf("%s%s%s", all, i ? ", " : "", commands[i].name);
        free(all);
        all = more;
    }
    cli_fail(EXIT_USAGE, "unknown command '%s' (%s; xnoc --help)", argv[1], all);
}
