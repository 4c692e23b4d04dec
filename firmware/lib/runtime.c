/* runtime.c - console printf, cycle counter, barriers, exit.  User images
 * (make image) are built with XNOC_LIBC and take memcpy, memset and the
 * printf family from the C library (firmware/libc) instead; the shipped
 * images keep these, so their instruction counts stay what they were. */
#include "xnoc.h"

#ifndef XNOC_LIBC
void *memcpy(void *d, const void *s, size_t n)
{
    uint8_t *dd = d;
    const uint8_t *ss = s;
    if ((((uintptr_t)d | (uintptr_t)s | n) & 3) == 0) {
        uint32_t *dw = d;
        const uint32_t *sw = s;
        for (size_t i = 0; i < n / 4; i++) dw[i] = sw[i];
        return d;
    }
    while (n--) *dd++ = *ss++;
    return d;
}

void *memset(void *d, int c, size_t n)
{
    uint8_t *p = d;
    while (n--) *p++ = (uint8_t)c;
    return d;
}
#endif

uint64_t cycles(void)
{
    uint32_t hi, lo;
    do {
        hi = DEV(DEV_CYCLE_HI);
        lo = DEV(DEV_CYCLE_LO);
    } while (hi != DEV(DEV_CYCLE_HI));
    return (uint64_t)hi << 32 | lo;
}

void barrier(void)
{
    DEV(DEV_BARRIER) = 1;
    (void)DEV(DEV_BARRIER); /* the load stalls until everyone has arrived */
}

uint64_t barrier_cycle(void) { return (uint64_t)DEV(DEV_BAR_CYCLE_HI) << 32 | DEV(DEV_BAR_CYCLE_LO); }

void exit_node(int code)
{
    DEV(DEV_EXIT) = (uint32_t)code;
    for (;;) {}
}

uint32_t node_param(const char *name, uint32_t dflt)
{
    DEV(DEV_PARAM_NAME) = (uint32_t)(uintptr_t)name; /* the device looks the name up */
    return DEV(DEV_PARAM_FOUND) ? DEV(DEV_PARAM_VALUE) : dflt;
}

void putchar_(int c) { DEV(DEV_CONSOLE) = (uint32_t)c; }

const char *topo_name(char *buf)
{
    int kind = (int)DEV(DEV_TOPO_KIND), c = (int)DEV(DEV_CONC);
    if (kind == XNOC_KIND_OCTAGON) {
        snprintf(buf, 32, c == 2 ? "fat-octagon" : c == 1 ? "octagon" : "octagon:c=%d", c);
        return buf;
    }
    if (kind == XNOC_KIND_DRAGONFLY) { /* DEV_TOPO_DIM0..2: a, h, g */
        snprintf(buf, 48, "dragonfly:a=%d,p=%d,h=%d,g=%d", node_dim(0), c, node_dim(1), node_dim(2));
        return buf;
    }
    if (kind == XNOC_KIND_CLOS) { /* DEV_TOPO_DIM0..2: m, n, r */
        snprintf(buf, 48, "clos:m=%d,n=%d,r=%d", node_dim(0), node_dim(1), node_dim(2));
        return buf;
    }
    int n = snprintf(buf, 32, "%s:", kind != XNOC_KIND_MESH ? "torus" : "mesh"); /* the grids */
    for (int d = 0; d < node_ndims(); d++) n += snprintf(buf + n, (size_t)(32 - n), d ? "x%d" : "%d", node_dim(d));
    if (c > 1) snprintf(buf + n, (size_t)(32 - n), ":c=%d", c);
    return buf;
}

#ifndef XNOC_LIBC
/* ---------------------------------------------------------------- printf */

typedef struct {
    char *buf;
    size_t n, len;
} out;

static void emit(out *o, char c)
{
    if (o->buf) {
        if (o->len + 1 < o->n) o->buf[o->len] = c;
    } else putchar_(c);
    o->len++;
}

/* 64-bit division by a small base without libgcc: bitwise long division */
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

static void emit_num(out *o, unsigned long long v, int base, int width, char pad, int neg)
{
    char tmp[24];
    int i = 0;
    do {
        unsigned r;
        v = divmod(v, (unsigned)base, &r);
        tmp[i++] = "0123456789abcdef"[r];
    } while (v);
    if (neg) tmp[i++] = '-';
    while (i < width) tmp[i++] = pad;
    while (i) emit(o, tmp[--i]);
}

static int format(out *o, const char *f, va_list ap)
{
    for (; *f; f++) {
        if (*f != '%') {
            emit(o, *f);
            continue;
        }
        f++;
        char pad = ' ';
        int width = 0, ll = 0;
        if (*f == '0') pad = '0';
        while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
        while (*f == 'l') {
            ll++;
            f++;
        }
        switch (*f) {
        case 'd': {
            long long v = ll > 1 ? va_arg(ap, long long) : va_arg(ap, int);
            emit_num(o, v < 0 ? (unsigned long long)-v : (unsigned long long)v, 10, width, pad, v < 0);
            break;
        }
        case 'u': emit_num(o, ll > 1 ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), 10, width, pad, 0); break;
        case 'x': emit_num(o, ll > 1 ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), 16, width, pad, 0); break;
        case 'c': emit(o, (char)va_arg(ap, int)); break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            while (*s) emit(o, *s++);
            break;
        }
        case '%': emit(o, '%'); break;
        default: emit(o, '?'); break;
        }
    }
    if (o->buf && o->n) o->buf[o->len < o->n ? o->len : o->n - 1] = 0;
    return (int)o->len;
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    out o = {buf, n, 0};
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

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out o = {0, 0, 0};
    int r = format(&o, fmt, ap);
    va_end(ap);
    return r;
}
#endif
