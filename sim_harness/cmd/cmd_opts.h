/* cmd_opts.h - the options every network command shares, parsed in one
 * place: --topo T, --router K=V,..., --ports k, --json, --seed S (the view's
 * flags have their own parser, view_cli_arg).  A command's option loop asks
 * cmd_opts_arg() first:
 *
 *     cmd_opts co;  cmd_opts_init(&co, OPT_NET | OPT_SEED);
 *     for (int i = 1; i < argc; i++) {
 *         if (cmd_opts_arg(&co, argc, argv, &i)) continue;
 *         ... the command's own options ...
 *     }
 *     topo *t = cmd_opts_topo(&co);          // --topo required
 *
 * A missing or bad value ends the command with one line (exit status 2),
 * the same line whichever command it is. */
#ifndef XNOC_CMD_OPTS_H
#define XNOC_CMD_OPTS_H

#include <stdio.h>

#include <stdint.h>

#include "net/router_cfg.h"
#include "net/topo.h"

enum { OPT_TOPO = 1, OPT_ROUTER = 2, OPT_PORTS = 4, OPT_JSON = 8, OPT_SEED = 16, OPT_NET = 15 };

typedef struct {
    unsigned accept;  /* OPT_*: the options this command takes */
    const char *topo; /* --topo, or NULL */
    router_cfg rc;    /* --router on top of the defaults */
    int ports;        /* --ports (1) */
    int json;         /* --json */
    uint64_t seed;    /* --seed (1) */
    int seed_given;
} cmd_opts;

void cmd_opts_init(cmd_opts *o, unsigned accept);
/* If argv[*i] is a common option: stores it, advances *i past its value, 1. */
int cmd_opts_arg(cmd_opts *o, int argc, char **argv, int *i);
/* Ends the command (exit 2) on argv word a, which no option of usage (the
 * command's --help text) took: "option '--rate' needs a value" when a is
 * one of them, else "unknown option '--patern' (did you mean --pattern? see
 * xnoc traffic --help)". */
void cmd_bad_option(const char *a, const char *usage) __attribute__((noreturn));
/* Prints a command's usage text, "{topo-kinds}" in it replaced by every
 * topology kind's spelling (topo_kinds_usage: the kinds' own words),
 * wrapped under the column where it stands. */
void cmd_usage_print(FILE *f, const char *usage);
/* 1 if usage (a --help text) names option a ("--rate" as a whole word). */
int cmd_usage_names(const char *usage, const char *a);
/* The --topo topology with --ports channels, or exit 2 naming the problem. */
topo *cmd_opts_topo(const cmd_opts *o);

#endif
