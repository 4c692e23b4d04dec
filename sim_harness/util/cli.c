/* cli.c - one-line errors, strict number parsing, progress, paths. */
#include "util/cli.h"

#include <errno.h>
#include <signal.h>
#include <time.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *cli_cmd = "";

static void vmsg(const char *fmt, va_list ap)
{
    fflush(stdout);
    fprintf(stderr, "xnoc%s%s: ", *cli_cmd ? " " : "", cli_cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_progress_done();
    vmsg(fmt, ap);
    va_end(ap);
    exit(code);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_progress_done();
    vmsg(fmt, ap);
    va_end(ap);
}

long cli_long(const char *flag, const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s ? s : "", &end, 0);
    if (!s || !*s || *end || errno) cli_fail(EXIT_USAGE, "%s: '%s' is not an integer", flag, s ? s : "");
    if (v < lo || v > hi) cli_fail(EXIT_USAGE, "%s: %ld is out of range [%ld, %ld]", flag, v, lo, hi);
    return v;
}

uint64_t cli_u64(const char *flag, const char *s)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-') cli_fail(EXIT_USAGE, "%s: '%s' is not a non-negative integer", flag, s ? s : "");
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno) cli_fail(EXIT_USAGE, "%s: '%s' is not a non-negative integer", flag, s);
    return v;
}

double cli_double(const char *flag, const char *s, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(s ? s : "", &end);
    if (!s || !*s || *end || errno || v != v) cli_fail(EXIT_USAGE, "%s: '%s' is not a number", flag, s ? s : "");
    if (v < lo || v > hi) cli_fail(EXIT_USAGE, "%s: %g is out of range [%g, %g]", flag, v, lo, hi);
    return v;
}

int cli_set(const char *s, int n, unsigned char *mask, char *err, int errlen)
{
    memset(mask, 0, (size_t)n);
    if (!s || !*s) {
        snprintf(err, (size_t)errlen, "empty terminal set");
        return -1;
    }
    if (!strcmp(s, "all")) {
        memset(mask, 1, (size_t)n);
        return n;
    }
    const char *p = s;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b;
        if (end == p) goto bad;
        p = end;
        b = a;
        if (*p == '-') {
            p++;
            b = strtol(p, &end, 10);
            if (end == p) goto bad;
            p = end;
        }
        if (a < 0 || b >= n || a > b) {
            snprintf(err, (size_t)errlen, "terminal set '%s': %ld-%ld outside 0-%d", s, a, b, n - 1);
            return -1;
        }
        for (long i = a; i <= b; i++) mask[i] = 1;
        if (*p == ',') p++;
        else if (*p) goto bad;
    }
    int cnt = 0;
    for (int i = 0; i < n; i++) cnt += mask[i];
    return cnt;
bad:
    snprintf(err, (size_t)errlen, "terminal set '%s': expected a list like 0-7,9,12-15", s);
    return -1;
}

static int progress_on = -1, progress_tty, progress_open;
static double progress_last, progress_t0 = -1;

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cli_progress_enabled(void)
{
    if (progress_on < 0) {
        const char *e = getenv("XNOC_PROGRESS");
        progress_on = e ? atoi(e) != 0 : 1;
        progress_tty = isatty(2);
        progress_t0 = progress_last = wall(); /* quick commands print nothing */
    }
    return progress_on;
}

double cli_elapsed(void)
{
    cli_progress_enabled();
    return wall() - progress_t0;
}

/* A terminal gets one live line, redrawn at most ten times a second; a pipe
 * or a log file gets a plain line every five seconds. */
void cli_progress(const char *fmt, ...)
{
    if (!cli_progress_enabled()) return;
    double now = wall();
    if (now - progress_last < (progress_tty ? 0.1 : 5.0)) return;
    progress_last = now;
    va_list ap;
    va_start(ap, fmt);
    if (progress_tty) fputs("\r\033[K", stderr);
    else fprintf(stderr, "xnoc%s%s: [%.0f s] ", *cli_cmd ? " " : "", cli_cmd, now - progress_t0);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (!progress_tty) fputc('\n', stderr);
    else fflush(stderr);
    progress_open = progress_tty;
}

void cli_progress_done(void)
{
    if (progress_open) fputs("\r\033[K", stderr);
    progress_open = 0;
    progress_last = wall();
}

const char *cli_rate_eta(uint64_t done, uint64_t total, double since, char *buf, size_t len)
{
    double dt = wall() - since, rate = dt > 0 ? (double)done / dt : 0;
    int n = snprintf(buf, len, "%.0f k cycles/s", rate / 1e3);
    if (total > done && rate > 0 && n > 0 && (size_t)n < len) {
        double eta = (double)(total - done) / rate;
        if (eta >= 60) snprintf(buf + n, len - (size_t)n, ", ETA %d m %02d s", (int)(eta / 60), (int)eta % 60);
        else snprintf(buf + n, len - (size_t)n, ", ETA %d s", (int)eta);
    }
    return buf;
}

double cli_now(void) { return wall(); }

volatile sig_atomic_t cli_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    cli_interrupted = 1;
    signal(SIGINT, SIG_DFL); /* a second Ctrl-C ends the process at once */
}

void cli_catch_sigint(void) { signal(SIGINT, on_sigint); }

static char src_dir[PATH_MAX], build_dir[PATH_MAX + 16];

const char *cli_src_dir(void)
{
    if (*src_dir) return src_dir;
    const char *e = getenv("XNOC_SRC");
    if (e) {
        snprintf(src_dir, sizeof src_dir, "%s", e);
        return src_dir;
    }
    /* the binary lives in <src>/build/xnoc */
    char exe[PATH_MAX - 16];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *s = strrchr(exe, '/');
        if (s) *s = 0;
        s = strrchr(exe, '/');
        if (s) *s = 0;
        snprintf(src_dir, sizeof src_dir, "%s", exe);
    } else {
        snprintf(src_dir, sizeof src_dir, ".");
    }
    return src_dir;
}

const char *cli_build_dir(void)
{
    if (*build_dir) return build_dir;
    const char *e = getenv("XNOC_BUILD");
    if (e) snprintf(build_dir, sizeof build_dir, "%s", e);
    else snprintf(build_dir, sizeof build_dir, "%s/build", cli_src_dir());
    return build_dir;
}

void cli_window(const char *flag, const char *s, uint64_t *from, uint64_t *to)
{
    unsigned long long a, b;
    char tail;
    if (!s || sscanf(s, "%llu:%llu%c", &a, &b, &tail) != 2 || a >= b)
        cli_fail(EXIT_USAGE, "%s '%s': expected A:B with A < B (network cycles)", flag, s ? s : "");
    *from = a;
    *to = b;
}

/* ---- allocation */

static void *oom(void *p, size_t n)
{
    if (!p) cli_fail(EXIT_RUNFAIL, "out of memory (%zu bytes)", n);
    return p;
}

/* zero-sized requests get one byte, so that a NULL always means failure */
void *xmalloc(size_t n) { return oom(malloc(n ? n : 1), n ? n : 1); }
void *xcalloc(size_t n, size_t size)
{
    return oom(calloc(n ? n : 1, size ? size : 1), (n ? n : 1) * (size ? size : 1));
}
void *xrealloc(void *p, size_t n) { return oom(realloc(p, n ? n : 1), n ? n : 1); }
char *xstrdup(const char *s) { return oom(strdup(s), strlen(s) + 1); }

char *xasprintf(const char *fmt, ...)
{
    /* vasprintf, not vsnprintf(NULL, 0, ...): GCC 12 under -fsanitize=undefined
     * warns "null format string" on the sizing call (a false positive) */
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) cli_fail(EXIT_RUNFAIL, "out of memory (formatting '%s')", fmt);
    return s;
}

char *cli_slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    long len = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    if (len < 0 || fseek(f, 0, SEEK_SET)) {
        fclose(f);
        return NULL;
    }
    char *buf = xmalloc((size_t)len + 1);
    *n = fread(buf, 1, (size_t)len, f);
    buf[*n] = 0;
    fclose(f);
    return buf;
}
