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

/* The message formatted, its control characters but tab escaped (\n, \xNN):
 * an error is one line, whatever input it quotes.  NULL without memory. */
static char *format_line(const char *fmt, va_list ap)
{
    char *raw = NULL;
    if (vasprintf(&raw, fmt, ap) < 0) return NULL;
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)raw; *p; p++)
        n += (*p < 0x20 && *p != '\t') || *p == 0x7f ? 4 : 1;
    char *out = malloc(n + 1), *o = out;
    if (!out) return raw;
    for (const unsigned char *p = (const unsigned char *)raw; *p; p++) {
        if (*p == '\n') o += sprintf(o, "\\n");
        else if ((*p < 0x20 && *p != '\t') || *p == 0x7f) o += sprintf(o, "\\x%02x", *p);
        else *o++ = (char)*p;
    }
    *o = 0;
    free(raw);
    return out;
}

static void vmsg(const char *fmt, va_list ap)
{
    fflush(stdout);
    char *m = format_line(fmt, ap);
    fprintf(stderr, "xnoc%s%s: %s\n", *cli_cmd ? " " : "", cli_cmd, m ? m : fmt);
    free(m);
}

void (*cli_fail_hook)(int code, char *msg);

void cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = cli_fail_hook ? format_line(fmt, ap) : NULL;
    if (!cli_fail_hook) {
        cli_progress_done();
        vmsg(fmt, ap);
    }
    va_end(ap);
    if (cli_fail_hook) cli_fail_hook(code, msg); /* frees msg and does not return */
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

/* ---- strict numbers */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* digits or 0x and hex digits, the whole of s[0..n), into *mag */
static int parse_mag(const char *s, size_t n, unsigned long long *mag)
{
    size_t i = 0;
    unsigned base = 10;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i >= n) return CLI_NOT_NUMBER;
    int over = 0;
    *mag = 0;
    for (; i < n; i++) {
        char c = s[i];
        int d = is_digit(c)                          ? c - '0'
                : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10
                : base == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                     : -1;
        if (d < 0) return CLI_NOT_NUMBER;
        if (*mag > (ULLONG_MAX - (unsigned)d) / base) over = 1;
        else *mag = *mag * base + (unsigned)d;
    }
    return over ? CLI_OUT_OF_RANGE : 0;
}

/* [-]digits or [-]0x hexdigits, the whole of s[0..n), in [lo, hi] */
static int parse_int(const char *s, size_t n, long lo, long hi, long *v)
{
    if (!s) return CLI_NOT_NUMBER;
    int neg = n > 0 && s[0] == '-';
    unsigned long long mag;
    int r = parse_mag(s + neg, n - (size_t)neg, &mag);
    if (r) return r;
    if (mag > (unsigned long long)LONG_MAX + (unsigned)neg) return CLI_OUT_OF_RANGE;
    long x = !neg ? (long)mag : mag == (unsigned long long)LONG_MAX + 1 ? LONG_MIN : -(long)mag;
    if (x < lo || x > hi) return CLI_OUT_OF_RANGE;
    *v = x;
    return 0;
}

int cli_parse_long(const char *s, long lo, long hi, long *v) { return parse_int(s, s ? strlen(s) : 0, lo, hi, v); }

int cli_parse_u64(const char *s, uint64_t *v)
{
    unsigned long long mag;
    int r = s ? parse_mag(s, strlen(s), &mag) : CLI_NOT_NUMBER;
    if (!r) *v = mag;
    return r;
}

int cli_parse_double(const char *s, double lo, double hi, double *v)
{
    /* digits, '.', an exponent: no spaces, '+' first, inf, nan or hex floats */
    if (!s || !(is_digit(*s) || *s == '.' || (*s == '-' && (is_digit(s[1]) || s[1] == '.')))) return CLI_NOT_NUMBER;
    for (const char *p = s; *p; p++)
        if (!is_digit(*p) && !strchr(".eE+-", *p)) return CLI_NOT_NUMBER;
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (*end || x != x) return CLI_NOT_NUMBER;
    if (errno || x < lo || x > hi) return CLI_OUT_OF_RANGE;
    *v = x;
    return 0;
}

int cli_parse_pair(const char *s, char sep, long lo, long hi, long *a, long *b)
{
    const char *m = s ? strchr(s, sep) : NULL;
    if (!m) return CLI_NOT_NUMBER;
    long x, y;
    int ra = parse_int(s, (size_t)(m - s), lo, hi, &x), rb = parse_int(m + 1, strlen(m + 1), lo, hi, &y);
    if (ra == CLI_NOT_NUMBER || rb == CLI_NOT_NUMBER) return CLI_NOT_NUMBER;
    if (ra || rb) return CLI_OUT_OF_RANGE;
    *a = x;
    *b = y;
    return 0;
}

long cli_long(const char *flag, const char *s, long lo, long hi)
{
    long v = 0;
    int r = cli_parse_long(s, lo, hi, &v);
    if (r == CLI_NOT_NUMBER) cli_fail(EXIT_USAGE, "%s: '%s' is not an integer", flag, s ? s : "");
    if (r) cli_fail(EXIT_USAGE, "%s: %s is out of range [%ld, %ld]", flag, s, lo, hi);
    return v;
}

uint64_t cli_u64(const char *flag, const char *s)
{
    uint64_t v = 0;
    int r = cli_parse_u64(s, &v);
    if (r == CLI_NOT_NUMBER) cli_fail(EXIT_USAGE, "%s: '%s' is not a non-negative integer", flag, s ? s : "");
    if (r) cli_fail(EXIT_USAGE, "%s: %s is out of range [0, %llu]", flag, s, (unsigned long long)UINT64_MAX);
    return v;
}

double cli_double(const char *flag, const char *s, double lo, double hi)
{
    double v = 0;
    int r = cli_parse_double(s, lo, hi, &v);
    if (r == CLI_NOT_NUMBER) cli_fail(EXIT_USAGE, "%s: '%s' is not a number", flag, s ? s : "");
    if (r) cli_fail(EXIT_USAGE, "%s: %s is out of range [%g, %g]", flag, s, lo, hi);
    return v;
}

void cli_pair(const char *flag, const char *s, char sep, long lo, long hi, const char *form, long *a, long *b)
{
    int r = cli_parse_pair(s, sep, lo, hi, a, b);
    if (r == CLI_NOT_NUMBER) cli_fail(EXIT_USAGE, "%s '%s': expected %s", flag, s ? s : "", form);
    if (r) cli_fail(EXIT_USAGE, "%s '%s': each number must be %ld..%ld", flag, s, lo, hi);
}

/* A terminal number at p (digits only; a huge one becomes LONG_MAX, which
 * the range check refuses): the end of its digits, or NULL. */
static const char *set_number(const char *p, long *v)
{
    size_t l = 0;
    while (is_digit(p[l])) l++;
    if (!l) return NULL;
    if (parse_int(p, l, 0, LONG_MAX, v)) *v = LONG_MAX;
    return p + l;
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
        long a, b;
        const char *as = p;
        p = set_number(p, &a);
        if (!p) goto bad;
        const char *ae = p, *bs = as, *be = ae;
        b = a;
        if (*p == '-') {
            bs = p + 1;
            p = set_number(bs, &b);
            if (!p) goto bad;
            be = p;
        }
        if (a > b) {
            snprintf(err, (size_t)errlen, "terminal set '%s': range %.*s-%.*s runs backwards", s, (int)(ae - as), as,
                     (int)(be - bs), bs);
            return -1;
        }
        if (b >= n) {     /* named as written: a huge number is not wrapped */
            if (bs == as) /* a single terminal */
                snprintf(err, (size_t)errlen, "terminal set '%s': terminal %.*s does not exist (terminals 0-%d)", s,
                         (int)(ae - as), as, n - 1);
            else
                snprintf(err, (size_t)errlen, "terminal set '%s': %.*s-%.*s outside the terminals 0-%d", s,
                         (int)(ae - as), as, (int)(be - bs), bs, n - 1);
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
    /* the elapsed time is this prefix's, so that no caller prints it again */
    if (progress_tty) fprintf(stderr, "\r\033[K[%.0f s] ", now - progress_t0);
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
    cli_interrupted = sig;
    signal(sig, SIG_DFL); /* a second Ctrl-C (or SIGTERM) ends the process at once */
}

void cli_catch_sigint(void)
{
    signal(SIGINT, on_sigint);
    signal(SIGTERM, on_sigint);
}

int cli_signal_status(int sig) { return 128 + (sig > 0 && sig < 64 ? sig : SIGINT); }

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
    long a, b;
    if (cli_parse_pair(s, ':', 0, LONG_MAX, &a, &b) || a >= b)
        cli_fail(EXIT_USAGE, "%s '%s': expected A:B with A < B (network cycles)", flag, s ? s : "");
    *from = (uint64_t)a;
    *to = (uint64_t)b;
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

int cli_out_error(FILE *f)
{
    errno = 0;
    if (fflush(f)) return errno ? errno : EIO;
    if (!ferror(f)) return 0;
    errno = 0;
    if (write(fileno(f), "\n", 1) < 0 && errno) return errno;
    return EIO;
}

int cli_out_finish(FILE *f)
{
    if (!f) return 0;
    int e = cli_out_error(f);
    errno = 0;
    if (fclose(f) && !e) e = errno ? errno : EIO;
    return e;
}

void cli_out_close(FILE *f, const char *opt, const char *path)
{
    int e = cli_out_finish(f);
    if (e) cli_fail(EXIT_RUNFAIL, "%s%s%s: %s", opt ? opt : "", opt ? " " : "", path, strerror(e));
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
