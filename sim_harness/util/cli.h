/* cli.h - command-line conventions shared by every xnoc command.
 *
 * Bad input gets one line on stderr, "xnoc <cmd>: <problem>", and exit
 * status 2; a run that fails (fault, deadlock, verification error) exits 1.
 */
#ifndef XNOC_CLI_H
#define XNOC_CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EXIT_USAGE 2
#define EXIT_RUNFAIL 1

extern const char *cli_cmd; /* name of the running command, for messages */

/* Prints "xnoc <cmd>: <message>" and exits with status code. */
void cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Fuzz targets only: when set, cli_fail formats its message (on the heap,
 * NULL if that fails) and hands it to this hook instead of printing and
 * exiting; the hook frees it and must not return (tests/fuzz/fuzz_cli.c
 * longjmps back into the target). */
extern void (*cli_fail_hook)(int code, char *msg);
/* Same, without exiting. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that cannot fail silently: out of memory ends the command
 * with one line ("xnoc <cmd>: out of memory (N bytes)") and exit status 1.
 * Every allocation of the harness goes through these (the core emulator
 * and the ELF loader report failure to their callers instead). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A formatted string on the heap, sized to fit (paths, command words): the
 * one way the harness builds a path, instead of fixed buffers that truncate
 * a long --out or XNOC_BUILD. The caller frees it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2), nonnull(1)));
/* A whole file, NUL-terminated (its length in *n), or NULL if it cannot be read. */
char *cli_slurp(const char *path, size_t *n);

/* Outputs: did every byte written to f reach it?  Flushes f and reads its
 * error flag: 0, or the reason (an errno value; after an earlier failed
 * write whose errno is gone, one more byte is tried to learn it, the
 * output being lost anyway).  The one check of every file xnoc writes:
 * reports on stdout, --events, --console-dir, --histogram, pictures,
 * `clos --out`, `sched -o`. */
int cli_out_error(FILE *f);
/* Closes output f (NULL: 0) after cli_out_error: 0 or the reason. */
int cli_out_finish(FILE *f);
/* Closes output f (NULL: nothing) that option opt ("--events", or NULL)
 * named path; on a write error ends the command, exit 1, with one line
 * "opt path: reason". */
void cli_out_close(FILE *f, const char *opt, const char *path);

/* Strict number parsing, the one parser of every number a user gives
 * (options, --router values, WxH and A:B forms): decimal digits, a '-'
 * first where the range has negatives, or 0x and hex digits; nothing else
 * (no spaces, no '+', no trailing junk).  A value outside [lo, hi] is
 * refused, never wrapped or clamped.  The cli_parse_* functions return 0,
 * CLI_NOT_NUMBER or CLI_OUT_OF_RANGE (for callers that report errors
 * their own way); the others end the command with a usage line naming the
 * flag. */
enum { CLI_NOT_NUMBER = -1, CLI_OUT_OF_RANGE = -2 };
int cli_parse_long(const char *s, long lo, long hi, long *v);
int cli_parse_u64(const char *s, uint64_t *v);
int cli_parse_double(const char *s, double lo, double hi, double *v);
/* Two integers in [lo, hi] separated by sep ("4x2" with 'x', "0:3" with ':'). */
int cli_parse_pair(const char *s, char sep, long lo, long hi, long *a, long *b);
long cli_long(const char *flag, const char *s, long lo, long hi);
uint64_t cli_u64(const char *flag, const char *s);
double cli_double(const char *flag, const char *s, double lo, double hi);
/* "AxB" (dimensions, sep 'x') or "A:B" (sep ':'), each side in [lo, hi];
 * `form` names the expected form in the error ("WxH such as 4x2"). */
void cli_pair(const char *flag, const char *s, char sep, long lo, long hi, const char *form, long *a, long *b);

/* Parses a terminal set "0-7,9,12-15" into mask[0..n-1] (1 = in set).
 * Returns the number of members or -1 and one line in err. */
int cli_set(const char *s, int n, unsigned char *mask, char *err, int errlen);

/* Progress on stderr for every long operation: on a terminal one live line
 * ("\r...", at most ten redraws a second), otherwise a plain line with the
 * elapsed time every five seconds.  XNOC_PROGRESS=0 silences it (scripts,
 * the test suite); stdout stays clean.  cli_progress_done() ends the line. */
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_done(void);
int cli_progress_enabled(void);
double cli_elapsed(void); /* seconds since the command started */
double cli_now(void);     /* a monotonic clock, seconds */
/* "812 k cycles/s, ETA 1 m 05 s" for `done` of `total` cycles since cli_now() was `since` */
const char *cli_rate_eta(uint64_t done, uint64_t total, double since, char *buf, size_t len);

/* Ctrl-C (SIGINT) or SIGTERM: the first sets cli_interrupted to the signal's
 * number (long loops stop and report what they measured, a held --view
 * window closes), the second ends the process. */
extern volatile sig_atomic_t cli_interrupted;
void cli_catch_sigint(void);
/* The exit status of a command a signal stopped: 128 + its number, as a
 * shell reports a process the signal killed (SIGINT 130, SIGHUP 129,
 * SIGTERM 143), so a script can tell "interrupted" from "failed" (1). */
int cli_signal_status(int sig);

/* Directory for build products, defaults to "build" next to the binary's
 * project (XNOC_BUILD overrides). */
const char *cli_build_dir(void);
/* Root of the xnoc source tree (where rtl/ lives). */
const char *cli_src_dir(void);

/* A cycle window "A:B" (A < B) of option `flag` (--trace-window,
 * --frames-window) into *from, *to; exits with a usage line otherwise. */
void cli_window(const char *flag, const char *s, uint64_t *from, uint64_t *to);

#endif
