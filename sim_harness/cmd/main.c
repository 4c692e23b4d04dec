/* main.c - `xnoc <command> ...`: dispatch to the sub-commands. */
#include <stdio.h>
#include <string.h>

#include "util/cli.h"
#include "cmd/cmds.h"

/* Commands are linked in as their parts land; a missing one is reported. */
#pragma weak cmd_traffic
#pragma weak cmd_run
#pragma weak cmd_sched
#pragma weak cmd_collective
#pragma weak cmd_topo
#pragma weak cmd_qcdoc
#pragma weak cmd_ncmodel
#pragma weak cmd_sweep
#pragma weak cmd_dfmodel

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
    fprintf(f, "usage: xnoc <command> [options]   (xnoc <command> --help for details)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i].fn) fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].what);
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
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name)) continue;
        cli_cmd = commands[i].name;
        if (!commands[i].fn) cli_fail(EXIT_USAGE, "this build of xnoc has no '%s' command", argv[1]);
        return commands[i].fn(argc - 1, argv + 1);
    }
    char names[200] = "";
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", commands[i].name);
    }
    cli_fail(EXIT_USAGE, "unknown command '%s' (%s; xnoc --help)", argv[1], names);
}
