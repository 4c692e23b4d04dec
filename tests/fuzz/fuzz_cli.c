/* fuzz_cli - the command-line parsers: the options every network command
 * shares (cmd_opts_arg: --topo, --router, --ports, --json, --seed, then
 * cmd_opts_topo) and util/cli's strict number parsers (numbers, AxB, A:B,
 * cycle windows, terminal sets).  cli_fail ends a command with exit(); here
 * its hook (cli_fail_hook) takes the message and longjmps back, so that a
 * refusal is one input's end, not the fuzzer's.
 *
 * Input: arguments separated by NUL bytes (argv[0] first, as a shell would
 * pass them).  Every value a parser accepts is checked against its range;
 * a decimal number accepted prints back as itself. */
#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_opts.h"
#include "util/cli.h"

static jmp_buf back;
static int refusals;

static void on_fail(int code, char *msg)
{
    if (code != EXIT_USAGE || (msg && strchr(msg, '\n'))) abort(); /* bad input: exit 2 and one line */
    free(msg);
    refusals++;
    longjmp(back, 1);
}

/* a canonical decimal (no 0x, no leading zero) parsed by cli_parse_long prints back as itself */
static void round_trip(const char *s, long v)
{
    const char *p = s + (*s == '-');
    if ((p[0] == '0' && p[1]) || strcmp(s, "-0") == 0) return;
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", v);
    if (strcmp(buf, s)) abort();
}

static void numbers(const char *s)
{
    long v, a, b;
    uint64_t u, from, to;
    double x;
    if (cli_parse_long(s, LONG_MIN, LONG_MAX, &v) == 0) round_trip(s, v);
    if (cli_parse_long(s, -5, 70, &v) == 0 && (v < -5 || v > 70)) abort();
    if (cli_parse_u64(s, &u) == 0 && *s == '-') abort();
    if (cli_parse_double(s, -1, 1, &x) == 0 && !(x >= -1 && x <= 1)) abort();
    if (cli_parse_pair(s, 'x', 1, 64, &a, &b) == 0 && (a < 1 || a > 64 || b < 1 || b > 64)) abort();
    if (cli_parse_pair(s, ':', 0, 15, &a, &b) == 0 && (a < 0 || a > 15 || b < 0 || b > 15)) abort();
    unsigned char mask[16];
    char err[200];
    int c = cli_set(s, 16, mask, err, sizeof err);
    if (c > 16) abort();
    if (!setjmp(back)) {
        cli_window("--trace-window", s, &from, &to);
        if (from >= to) abort();
    }
    if (!setjmp(back) && cli_long("--packet", s, 1, 64) < 1) abort();
    if (!setjmp(back)) (void)cli_u64("--seed", s);
    if (!setjmp(back) && cli_double("--rate", s, 1e-9, 1.0) > 1.0) abort();
    if (!setjmp(back)) {
        cli_pair("--group-shape", s, 'x', 1, 65536, "GWxGH", &a, &b);
        if (a < 1 || b < 1 || a > 65536 || b > 65536) abort();
    }
}

/* Whether the numbers in a topology string multiply to at most 64: larger
 * ones build routers^2 distance tables (fuzz_parse covers those parses);
 * here they would only slow the fuzzing of the options down. */
static int small(const char *s)
{
    double prod = 1;
    for (const char *p = s; *p;) {
        if (*p < '0' || *p > '9') {
            p++;
            continue;
        }
        double v = 0;
        while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
        prod *= v > 1 ? v : 1;
    }
    return prod <= 64;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 4096) return 0;
    cli_fail_hook = on_fail;
    cli_cmd = "traffic";
    char *buf = malloc(n + 1);
    memcpy(buf, d, n);
    buf[n] = 0;
    char *argv[64];
    int argc = 0;
    for (size_t i = 0; i <= n && argc < 64;) { /* NUL-separated words */
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    for (int i = 1; i < argc; i++) numbers(argv[i]);
    static cmd_opts o;
    topo *volatile t = NULL; /* volatile: read after a longjmp */
    if (!setjmp(back)) {
        cmd_opts_init(&o, OPT_NET | OPT_SEED);
        for (int i = 1; i < argc; i++) (void)cmd_opts_arg(&o, argc, argv, &i);
        if (o.ports < 1 || o.ports > 16 || o.rc.vcs < 1 || o.rc.vcs > ROUTER_MAX_VCS) abort();
        if (o.topo && small(o.topo)) {
            t = cmd_opts_topo(&o);
            if (t->nterms < 1 || t->k != o.ports) abort();
        }
    }
    topo_free(t);
    free(buf);
    return 0;
}
