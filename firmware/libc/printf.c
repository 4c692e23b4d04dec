/* printf.c - printf and friends of xnoc's small C library: the standard
 * conversions with flags, width and precision.  Floating point is printed
 * exactly (the decimal expansion of the double, rounded half-to-even, as
 * glibc does) with integer arithmetic only: the cores have no FPU and the
 * images no libgcc.  Not supported: %a, %L (long double), %ls, %lc. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "xnoc.h"

typedef struct {
    char *buf; /* NULL: the console */
    size_t n, len;
} out;

static void emit(out *o, char c)
{
    if (o->buf) {
        if (o->len + 1 < o->n) o->buf[o->len] = c;
    } else putchar_(c);
    o->len++;
}

static void emit_rep(out *o, char c, int n)
{
    while (n-- > 0) emit(o, c);
}

static void emit_str(out *o, const char *s, int n)
{
    while (n-- > 0) emit(o, *s++);
}

/* a field: [spaces] prefix [zeros] body [spaces], width counted over all */
static void field(out *o, const char *prefix, int zeros, const char *body, int blen, int width, int left, int zpad)
{
    int plen = (int)strlen(prefix), pad = width - plen - zeros - blen;
    if (!left && !zpad) emit_rep(o, ' ', pad);
    emit_str(o, prefix, plen);
    if (!left && zpad) emit_rep(o, '0', pad);
    emit_rep(o, '0', zeros);
    emit_str(o, body, blen);
    if (left) emit_rep(o, ' ', pad);
}

/* v / base and v % base for 64-bit v without libgcc's __udivdi3 */
static unsigned long long divmod(unsigned long long v, unsigned base, unsigned *rem)
{
    if (v >> 32 == 0) {
        *rem = (unsigned)v % base;
        return (unsigned)v / base;
    }
    unsigned long long q = 0;
    unsigned r = 0;
    for (int i = 63; i >= 0; i--) {
        r = r << 1 | (unsigned)(v >> i & 1);
        if (r >= base) {
            r -= base;
            q |= 1ull << i;
        }
    }
    *rem = r;
    return q;
}

/* ---------------------------------------------------------- exact doubles */

#define LIMBS 168 /* 16-bit limbs: m * 5^1074 has 2,547 bits */
typedef struct {
    uint32_t l[LIMBS];
    int n;
} big;

static void big_mul(big *b, uint32_t m) /* m < 65536 */
{
    uint32_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint32_t t = b->l[i] * m + carry;
        b->l[i] = t & 0xffff;
        carry = t >> 16;
    }
    while (carry) {
        b->l[b->n++] = carry & 0xffff;
        carry >>= 16;
    }
}

static uint32_t big_div(big *b, uint32_t d) /* d < 65536; returns the remainder */
{
    uint32_t r = 0;
    for (int i = b->n - 1; i >= 0; i--) {
        uint32_t t = r << 16 | b->l[i];
        b->l[i] = t / d;
        r = t % d;
    }
    while (b->n && !b->l[b->n - 1]) b->n--;
    return r;
}

/* The exact decimal digits of |v| (most significant first, no leading
 * zeros; none for 0) and dp, the digits before the point: v = 0.D * 10^dp */
typedef struct {
    char d[800];
    int nd, dp;
} decimal;

static void to_decimal(uint64_t bits, decimal *r)
{
    int e = (int)(bits >> 52 & 0x7ff);
    uint64_t m = bits & ((1ull << 52) - 1);
    if (e) m |= 1ull << 52;
    else e = 1;
    e -= 1075; /* v = m * 2^e */
    r->nd = r->dp = 0;
    if (!m) return;
    while (!(m & 1)) { /* fewer limbs and digits */
        m >>= 1;
        e++;
    }
    big b = {.n = 0};
    for (uint64_t t = m; t; t >>= 16) b.l[b.n++] = (uint32_t)(t & 0xffff);
    int frac = 0;
    if (e >= 0) {
        for (; e >= 15; e -= 15) big_mul(&b, 1u << 15);
        big_mul(&b, 1u << e);
    } else { /* m / 2^s = m * 5^s / 10^s */
        frac = -e;
        int s = frac;
        for (; s >= 6; s -= 6) big_mul(&b, 15625);
        while (s--) big_mul(&b, 5);
    }
    char rev[800];
    int n = 0;
    do { /* m > 0: at least one group */
        uint32_t q = big_div(&b, 10000);
        for (int i = 0; i < 4; i++, q /= 10) rev[n++] = (char)('0' + q % 10);
    } while (b.n);
    while (n && rev[n - 1] == '0') n--; /* leading zeros of the last group */
    for (int i = 0; i < n; i++) r->d[i] = rev[n - 1 - i];
    r->nd = n;
    r->dp = n - frac;
    while (r->nd && r->d[r->nd - 1] == '0') r->nd--; /* trailing zeros carry nothing */
}

/* Keeps the first `keep` digits, rounding half to even on the exact tail. */
static void round_keep(decimal *r, int keep)
{
    if (keep >= r->nd) return;
    if (keep < 0) {
        r->nd = 0;
        return;
    }
    int up;
    char first = r->d[keep];
    if (first != '5') up = first > '5';
    else {
        int rest = 0;
        for (int i = keep + 1; i < r->nd; i++) rest |= r->d[i] != '0';
        up = rest || (keep > 0 && (r->d[keep - 1] - '0') % 2); /* a tie goes to the even digit */
    }
    r->nd = keep;
    if (!up) {
        while (r->nd && r->d[r->nd - 1] == '0') r->nd--;
        return;
    }
    int i = keep - 1;
    while (i >= 0 && r->d[i] == '9') i--;
    if (i < 0) { /* 999.. rounds to 1000.. */
        r->d[0] = '1';
        r->nd = 1;
        r->dp++;
        return;
    }
    r->d[i]++;
    r->nd = i + 1;
}

static char digit_at(const decimal *r, int i) { return i >= 0 && i < r->nd ? r->d[i] : '0'; }

#define FBODY 1100
#define PREC_MAX 300

/* body of %f with precision p from a rounded decimal */
static int body_f(const decimal *r, int p, int alt, char *b)
{
    int n = 0;
    if (r->dp <= 0) b[n++] = '0';
    for (int i = 0; i < r->dp; i++) b[n++] = digit_at(r, i);
    if (p || alt) b[n++] = '.';
    for (int i = 0; i < p; i++) b[n++] = digit_at(r, r->dp + i);
    return n;
}

static int body_e(const decimal *r, int p, int alt, char E, char *b)
{
    int n = 0, x = r->nd ? r->dp - 1 : 0;
    b[n++] = digit_at(r, 0);
    if (p || alt) b[n++] = '.';
    for (int i = 1; i <= p; i++) b[n++] = digit_at(r, i);
    b[n++] = E;
    b[n++] = x < 0 ? '-' : '+';
    unsigned ax = (unsigned)(x < 0 ? -x : x);
    if (ax >= 100) b[n++] = (char)('0' + ax / 100);
    b[n++] = (char)('0' + ax / 10 % 10);
    b[n++] = (char)('0' + ax % 10);
    return n;
}

static void fmt_double(out *o, double v, char conv, int prec, int width, int left, int zpad, int alt, char sign)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int neg = (int)(bits >> 63);
    char prefix[2] = {neg ? '-' : sign, 0};
    int upper = conv == 'F' || conv == 'E' || conv == 'G';
    char b[FBODY];
    if ((bits >> 52 & 0x7ff) == 0x7ff) {
        const char *w = (bits & ((1ull << 52) - 1)) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        field(o, prefix, 0, w, 3, width, left, 0);
        return;
    }
    if (prec < 0) prec = 6;
    if (prec > PREC_MAX) prec = PREC_MAX;
    decimal r;
    to_decimal(bits, &r);
    int n;
    char lc = (char)(conv | 0x20);
    if (lc == 'f') {
        round_keep(&r, r.dp + prec);
        n = body_f(&r, prec, alt, b);
    } else if (lc == 'e') {
        round_keep(&r, prec + 1);
        n = body_e(&r, prec, alt, upper ? 'E' : 'e', b);
    } else { /* %g: %e or %f by the exponent, P significant digits */
        int P = prec ? prec : 1;
        round_keep(&r, P);
        int x = r.nd ? r.dp - 1 : 0;
        if (P > x && x >= -4) n = body_f(&r, P - 1 - x, alt, b);
        else n = body_e(&r, P - 1, alt, upper ? 'E' : 'e', b);
        if (!alt && memchr(b, '.', (size_t)n)) { /* no trailing zeros, no lone point */
            int e = 0;
            while (e < n && b[e] != 'e' && b[e] != 'E') e++;
            int k = e;
            while (b[k - 1] == '0') k--;
            if (b[k - 1] == '.') k--;
            memmove(b + k, b + e, (size_t)(n - e));
            n -= e - k;
        }
    }
    field(o, prefix, 0, b, n, width, left, zpad);
}

/* ------------------------------------------------------------------ format */

static int format(out *o, const char *f, va_list ap)
{
    for (; *f; f++) {
        if (*f != '%') {
            emit(o, *f);
            continue;
        }
        const char *start = f++;
        int left = 0, zpad = 0, alt = 0, width = 0, prec = -1, len = 0;
        char sign = 0;
        for (;; f++) {
            if (*f == '-') left = 1;
            else if (*f == '0') zpad = 1;
            else if (*f == '#') alt = 1;
            else if (*f == '+') sign = '+';
            else if (*f == ' ') {
                if (!sign) sign = ' ';
            } else break;
        }
        if (*f == '*') {
            width = va_arg(ap, int);
            if (width < 0) {
                left = 1;
                width = -width;
            }
            f++;
        } else
            while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
        if (*f == '.') {
            f++;
            prec = 0;
            if (*f == '*') {
                prec = va_arg(ap, int);
                f++;
            } else
                while (*f >= '0' && *f <= '9') prec = prec * 10 + (*f++ - '0');
        }
        /* length: 1 hh, 2 h, 3 l/z/t (32-bit), 4 ll/j (64-bit) */
        if (*f == 'h') len = *++f == 'h' ? (f++, 1) : 2;
        else if (*f == 'l') len = *++f == 'l' ? (f++, 4) : 3;
        else if (*f == 'j') len = 4, f++;
        else if (*f == 'z' || *f == 't') len = 3, f++;
        if (left) zpad = 0;
        switch (*f) {
        case 'd':
        case 'i':
        case 'u':
        case 'o':
        case 'x':
        case 'X':
        case 'p': {
            unsigned long long v;
            int neg = 0;
            char c = *f;
            if (c == 'p') {
                v = (uintptr_t)va_arg(ap, void *);
                if (!v) {
                    field(o, "", 0, "(nil)", 5, width, left, 0);
                    break;
                }
                alt = 1;
            } else if (c == 'd' || c == 'i') {
                long long s = len == 4 ? va_arg(ap, long long) : va_arg(ap, int);
                if (len == 1) s = (signed char)s;
                else if (len == 2) s = (short)s;
                neg = s < 0;
                v = neg ? 0 - (unsigned long long)s : (unsigned long long)s;
            } else {
                v = len == 4 ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned);
                if (len == 1) v = (unsigned char)v;
                else if (len == 2) v = (unsigned short)v;
            }
            unsigned base = c == 'o' ? 8 : c == 'x' || c == 'X' || c == 'p' ? 16 : 10;
            const char *dig = c == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
            char tmp[24], body[24];
            int n = 0;
            for (unsigned long long t = v; t;) {
                unsigned r;
                t = divmod(t, base, &r);
                tmp[n++] = dig[r];
            }
            if (prec < 0 && !n) tmp[n++] = '0'; /* "0", but %.0d of 0 is empty */
            if (c == 'o' && alt && (prec <= n) && (!n || tmp[n - 1] != '0')) tmp[n++] = '0';
            for (int i = 0; i < n; i++) body[i] = tmp[n - 1 - i];
            char prefix[3] = {0};
            if (neg) prefix[0] = '-';
            else if ((c == 'd' || c == 'i') && sign) prefix[0] = sign;
            else if (alt && v && (c == 'x' || c == 'X' || c == 'p')) {
                prefix[0] = '0';
                prefix[1] = c == 'X' ? 'X' : 'x';
            }
            int zeros = prec > n ? prec - n : 0;
            field(o, prefix, zeros, body, n, width, left, zpad && prec < 0);
            break;
        }
        case 'c': {
            char ch = (char)va_arg(ap, int);
            field(o, "", 0, &ch, 1, width, left, 0);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            int n = (int)(prec < 0 ? strlen(s) : strnlen(s, (size_t)prec));
            field(o, "", 0, s, n, width, left, 0);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G': fmt_double(o, va_arg(ap, double), *f, prec, width, left, zpad, alt, sign); break;
        case 'n': {
            void *p = va_arg(ap, void *);
            if (len == 1) *(signed char *)p = (signed char)o->len;
            else if (len == 2) *(short *)p = (short)o->len;
            else if (len == 4) *(long long *)p = (long long)o->len;
            else *(int *)p = (int)o->len;
            break;
        }
        case '%': emit(o, '%'); break;
        default: /* not a conversion this printf knows: print it as written */
            if (!*f) f--;
            emit_str(o, start, (int)(f - start + 1));
            break;
        }
    }
    if (o->buf && o->n) o->buf[o->len < o->n ? o->len : o->n - 1] = 0;
    return (int)o->len;
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    out o = {buf, n, 0};
    if (!buf) o.buf = (char *)"", o.n = 0; /* count only */
    return format(&o, fmt, ap);
}

int snprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

int vsprintf(char *buf, const char *fmt, va_list ap) { return vsnprintf(buf, (size_t)-1 >> 1, fmt, ap); }

int sprintf(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsprintf(buf, fmt, ap);
    va_end(ap);
    return r;
}

int vprintf(const char *fmt, va_list ap)
{
    out o = {0, 0, 0};
    return format(&o, fmt, ap);
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vprintf(fmt, ap);
    va_end(ap);
    return r;
}

int putchar(int c)
{
    putchar_(c);
    return (unsigned char)c;
}

int puts(const char *s)
{
    while (*s) putchar_(*s++);
    putchar_('\n');
    return 0;
}
