/* background.c - synthetic traffic from terminals that run no firmware,
 * while the others run a collective or an image (the dragonfly broadcast
 * paper's background traffic, Sect. IV).
 *
 * Each background terminal sends messages of `bytes` bytes, one packet
 * each, to a random other background terminal, with exponential
 * inter-arrival times of mean bytes / 8 / rate cycles (rate: the flits per
 * cycle it offers, a fraction of its injection channel), and drains every
 * message that reaches it.  It is driven through its NI's own registers,
 * exactly as firmware would drive them (ni_mmio): a receive ring in its
 * RAM, sends from its RAM.  Messages that cannot start yet (the channel is
 * busy) wait in order; the delay counts in the offered load, not hidden.
 */
#include "system/background.h"
#include "util/cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/system.h"
#include "util/rng.h"

#define BG_RING_OFF 0x1000u /* the ring, after the send buffer at RAM_BASE */
#define BG_RING_SIZE (32u * 1024)

struct background {
    int n;       /* background terminals */
    int *term;   /* their ids */
    double mean; /* cycles between message arrivals */
    int bytes;
    uint64_t *rng;
    double *next; /* cycle of the next arrival */
    int *pending; /* arrived, not yet started */
    uint64_t sent, received, rx_bytes;
};

/* a uniform number in [0, 1) */
static double unit(uint64_t *r) { return rng_unit(splitmix64(r)); }

static uint32_t reg(ni *n, uint32_t off)
{
    uint32_t v = 0;
    ni_mmio(n, off, 0, &v);
    return v;
}

static int store(ni *n, uint32_t off, uint32_t v) { return ni_mmio(n, off, 1, &v); }

int background_parse(const char *spec, int allow_zero, double *rate, int *bytes, char *err, int errlen)
{
    const char *colon = strchr(spec, ':');
    char *rs = colon ? xasprintf("%.*s", (int)(colon - spec), spec) : xstrdup(spec);
    double r = 0;
    long b = *bytes;
    int bad =
        cli_parse_double(rs, 0, 1, &r) || (r == 0 && !allow_zero) || (colon && cli_parse_long(colon + 1, 1, 65536, &b));
    free(rs);
    if (bad) {
        snprintf(err, (size_t)errlen,
                 "--background '%s': expected RATE[:BYTES], RATE in %s1] flits per cycle%s, BYTES 1..65536", spec,
                 allow_zero ? "[0, " : "(0, ", allow_zero ? " (0: none)" : "");
        return -1;
    }
    *rate = r;
    *bytes = (int)b;
    return 0;
}

background *background_create(sys *s, const unsigned char *mask, double rate, int bytes, uint64_t seed)
{
    background *b = xcalloc(1, sizeof *b);
    b->term = xmalloc((size_t)s->n * sizeof *b->term);
    for (int i = 0; i < s->n; i++)
        if (mask[i]) b->term[b->n++] = i;
    b->bytes = bytes;
    b->mean = rate > 0 ? bytes / 8.0 / rate : 0;
    b->rng = xcalloc((size_t)b->n, sizeof *b->rng);
    b->next = xcalloc((size_t)b->n, sizeof *b->next);
    b->pending = xcalloc((size_t)b->n, sizeof *b->pending);
    for (int j = 0; j < b->n; j++) {
        node *nd = &s->nodes[b->term[j]];
        b->rng[j] = seed * 1000003u + (uint64_t)b->term[j];
        b->next[j] = b->mean > 0 ? -b->mean * log(1 - unit(&b->rng[j])) : INFINITY;
        memset(nd->core.ram, 0xA5, (size_t)bytes); /* the payload: any bytes */
        store(&nd->ni, NI_RECV + NI_R_BASE, RAM_BASE + BG_RING_OFF);
        store(&nd->ni, NI_RECV + NI_R_SIZE, BG_RING_SIZE);
    }
    return b;
}

/* what a background terminal has received: take it out of the ring */
static void drain(background *b, node *nd)
{
    ni *n = &nd->ni;
    for (;;) {
        uint32_t tail = reg(n, NI_RECV + NI_R_TAIL), head = reg(n, NI_RECV + NI_R_HEAD);
        const uint32_t *h = (const uint32_t *)(nd->core.ram + BG_RING_OFF + tail);
        if (tail != head && h[1] == NI_WRAP_MARK) tail = 0; /* the NI wrapped to the start */
        if (tail == head) {
            store(n, NI_RECV + NI_R_TAIL, tail);
            return;
        }
        h = (const uint32_t *)(nd->core.ram + BG_RING_OFF + tail);
        b->received++;
        b->rx_bytes += h[1];
        tail += 8 + ((h[1] + 7) & ~7u);
        if (tail >= BG_RING_SIZE) tail = 0;
        store(n, NI_RECV + NI_R_TAIL, tail);
    }
}

void background_cycle(background *b, sys *s)
{
    double now = (double)s->cycle;
    for (int j = 0; j < b->n; j++) {
        node *nd = &s->nodes[b->term[j]];
        while (b->next[j] <= now) {
            b->pending[j]++;
            b->next[j] += -b->mean * log(1 - unit(&b->rng[j]));
        }
        if (b->pending[j] && b->n > 1) {
            int d = (int)(unit(&b->rng[j]) * (b->n - 1));
            int dst = b->term[d >= j ? d + 1 : d];
            ni *n = &nd->ni;
            store(n, NI_SEND(0) + NI_S_DST, (uint32_t)dst);
            store(n, NI_SEND(0) + NI_S_NHOPS, 0);
            store(n, NI_SEND(0) + NI_S_ADDR, RAM_BASE);
            store(n, NI_SEND(0) + NI_S_LEN, (uint32_t)b->bytes);
            store(n, NI_SEND(0) + NI_S_TAG, 0xB6);
            if (store(n, NI_SEND(0) + NI_S_GO, 1) == RV32_MMIO_OK) {
                b->pending[j]--;
                b->sent++;
            }
        }
        drain(b, nd);
    }
}

void background_stats(const background *b, background_stats_t *st)
{
    st->nodes = b->n;
    st->sent = b->sent;
    st->received = b->received;
    st->rx_bytes = b->rx_bytes;
    uint64_t q = 0;
    for (int j = 0; j < b->n; j++) q += (uint64_t)b->pending[j];
    st->waiting = q;
}

void background_free(background *b)
{
    if (!b) return;
    free(b->term);
    free(b->rng);
    free(b->next);
    free(b->pending);
    free(b);
}
