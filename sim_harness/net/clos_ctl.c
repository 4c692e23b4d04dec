/* clos_ctl.c - the routing control algorithm of a v(m, n, r) Clos multicast
 * network (clos_ctl.h has the paper's definitions and steps). */
#include "net/clos_ctl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"

typedef struct {
    int in;        /* input switch, -1 when the slot is free */
    int nmid;      /* middle switches carrying it */
    int *mid;      /* [min(m, r)] */
    uint64_t *req; /* its set of output switches */
} conn;

struct clos_net {
    int m, n, r, rw, mw; /* rw, mw: words of a set of output / middle switches */
    uint64_t *dest;      /* m x rw: M_j */
    uint64_t *links;     /* r x mw: the input switch's links in use */
    int *owner;          /* m x r: connection on link middle j -> output k, or -1 */
    int *in_count, *out_count;
    conn *conns; /* n*r slots: one per input port at most */
    int cap, active, *free_ids, nfree;
    /* scratch for clos_route */
    uint64_t *s;
    int *avail, *size;
};

int clos_popcount(const uint64_t *s, int w)
{
    int c = 0;
    for (int i = 0; i < w; i++) c += __builtin_popcountll(s[i]);
    return c;
}

clos_net *clos_new(int m, int n, int r)
{
    if (m < 1 || n < 1 || r < 1 || m > CLOS_MAX_M || n > CLOS_MAX_N || r > CLOS_MAX_R) return NULL;
    clos_net *c = xcalloc(1, sizeof *c);
    c->m = m, c->n = n, c->r = r, c->rw = clos_words(r), c->mw = clos_words(m);
    c->dest = xcalloc((size_t)m * c->rw, sizeof *c->dest);
    c->links = xcalloc((size_t)r * c->mw, sizeof *c->links);
    c->owner = xmalloc((size_t)m * r * sizeof *c->owner);
    for (size_t i = 0; i < (size_t)m * r; i++) c->owner[i] = -1;
    c->in_count = xcalloc((size_t)r, sizeof(int));
    c->out_count = xcalloc((size_t)r, sizeof(int));
    c->cap = n * r;
    c->conns = xcalloc((size_t)c->cap, sizeof *c->conns);
    c->free_ids = xmalloc((size_t)c->cap * sizeof(int));
    for (int i = 0; i < c->cap; i++) {
        c->conns[i].in = -1;
        c->free_ids[i] = c->cap - 1 - i; /* ids handed out from 0 up */
    }
    c->nfree = c->cap;
    c->s = xmalloc((size_t)m * c->rw * sizeof *c->s);
    c->avail = xmalloc((size_t)m * sizeof(int));
    c->size = xmalloc((size_t)m * sizeof(int));
    return c;
}

void clos_free(clos_net *c)
{
    if (!c) return;
    for (int i = 0; i < c->cap; i++) {
        free(c->conns[i].mid);
        free(c->conns[i].req);
    }
    free(c->conns);
    free(c->free_ids);
    free(c->dest);
    free(c->links);
    free(c->owner);
    free(c->in_count);
    free(c->out_count);
    free(c->s);
    free(c->avail);
    free(c->size);
    free(c);
}

int clos_m(const clos_net *c) { return c->m; }
int clos_n(const clos_net *c) { return c->n; }
int clos_r(const clos_net *c) { return c->r; }
const uint64_t *clos_dest(const clos_net *c, int j) { return c->dest + (size_t)j * c->rw; }
const uint64_t *clos_in_links(const clos_net *c, int in) { return c->links + (size_t)in * c->mw; }
int clos_in_count(const clos_net *c, int in) { return c->in_count[in]; }
int clos_out_count(const clos_net *c, int out) { return c->out_count[out]; }
int clos_connections(const clos_net *c) { return c->active; }
int clos_conn_cap(const clos_net *c) { return c->cap; }
int clos_owner(const clos_net *c, int j, int k) { return c->owner[(size_t)j * c->r + k]; }
int clos_conn_in(const clos_net *c, int id) { return id >= 0 && id < c->cap ? c->conns[id].in : -1; }

int clos_conn_mids(const clos_net *c, int id, int *mid, int max)
{
    if (clos_conn_in(c, id) < 0) return 0;
    const conn *k = &c->conns[id];
    for (int i = 0; i < k->nmid && i < max; i++) mid[i] = k->mid[i];
    return k->nmid;
}

/* Exact integers for the roots: little-endian 64-bit limbs, enough for
 * (n-1)^x r with n <= 2^16, x <= 64, r <= 2^32 (the callers stay below). */
typedef struct {
    int n;
    uint64_t w[40];
} big;

static int big_mul(big *b, uint64_t v)
{
    unsigned __int128 carry = 0;
    for (int i = 0; i < b->n; i++) {
        unsigned __int128 cur = (unsigned __int128)b->w[i] * v + carry;
        b->w[i] = (uint64_t)cur;
        carry = cur >> 64;
    }
    if (carry) {
        if (b->n == 40) return -1;
        b->w[b->n++] = (uint64_t)carry;
    }
    return 0;
}

static int big_pow(big *b, uint64_t a, int x, uint64_t times)
{
    b->n = 1;
    b->w[0] = times;
    for (int i = 0; i < x; i++)
        if (big_mul(b, a)) return -1;
    while (b->n > 1 && !b->w[b->n - 1]) b->n--;
    return 0;
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

long clos_root_above(long mult, long r, int x)
{
    if (mult <= 0 || r <= 0) return 1; /* the least integer above 0 */
    if (x < 1) x = 1;
    big rhs, lhs;
    double est = (double)mult * pow((double)r, 1.0 / x);
    long t = (long)est - 2;
    if (t < 0) t = 0;
    if (big_pow(&rhs, (uint64_t)mult, x, (uint64_t)r)) return (long)est + 1; /* too large to be exact */
    /* t: the least with t^x > mult^x r, stepping from the floating-point root */
    while (t > 0 && !big_pow(&lhs, (uint64_t)t, x, 1) && big_cmp(&lhs, &rhs) > 0) t--;
    for (;;) {
        if (big_pow(&lhs, (uint64_t)t, x, 1)) return (long)est + 1;
        if (big_cmp(&lhs, &rhs) > 0) return t;
        t++;
    }
}

long clos_window(int n, int rprime, int x) { return n <= 1 ? 1 : clos_root_above(n - 1, rprime, x); }

int clos_route(const clos_net *c, int in, const uint64_t *req, int max_x, int window, int *mid)
{
    const int rw = c->rw;
    const uint64_t *links = clos_in_links(c, in);
    /* Step 1: S_j <- M_j /\ I_i over the available middle switches (the first `window`) */
    int na = 0;
    for (int j = 0; j < c->m && (!window || na < window); j++) {
        if (clos_has(links, j)) continue;
        uint64_t *s = c->s + (size_t)na * rw;
        const uint64_t *d = clos_dest(c, j);
        for (int w = 0; w < rw; w++) s[w] = d[w] & req[w];
        c->size[na] = clos_popcount(s, rw);
        c->avail[na++] = j;
    }
    /* Step 2 */
    int picks = 0, min_size = clos_popcount(req, rw) + 1;
    while (picks < max_x) {
        int k = -1;
        for (int a = 0; a < na; a++)
            if (c->size[a] >= 0 && (k < 0 || c->size[a] < c->size[k])) k = a;
        if (k < 0 || c->size[k] >= min_size) return CLOS_BLOCKED; /* the minimum did not shrink */
        mid[picks++] = c->avail[k];
        min_size = c->size[k];
        if (!min_size) return picks; /* min_set = empty */
        const uint64_t *ms = c->s + (size_t)k * rw;
        c->size[k] = -1; /* chosen: not again */
        for (int a = 0; a < na; a++) {
            if (c->size[a] < 0) continue;
            uint64_t *s = c->s + (size_t)a * rw;
            for (int w = 0; w < rw; w++) s[w] &= ms[w];
            c->size[a] = clos_popcount(s, rw);
        }
    }
    return CLOS_BLOCKED; /* x switches and min_set is not empty */
}

int clos_valid(const clos_net *c, int in, const uint64_t *req)
{
    if (in < 0 || in >= c->r || c->in_count[in] >= c->n) return 0;
    int any = 0;
    for (int k = 0; k < c->r; k++)
        if (clos_has(req, k)) {
            if (c->out_count[k] >= c->n) return 0;
            any = 1;
        }
    for (int w = 0; w < c->rw; w++) /* no bits beyond r */
        if (req[w] & ~(w == c->rw - 1 && (c->r & 63) ? (1ull << (c->r & 63)) - 1 : ~0ull)) return 0;
    return any;
}

/* Step 3: the connection through mid[0..nmid-1]; -1 if a switch would carry nothing */
static int install(clos_net *c, int in, const uint64_t *req, const int *mid, int nmid)
{
    const int rw = c->rw;
    uint64_t open[CLOS_MAX_RW];
    memcpy(open, req, (size_t)rw * sizeof *open);
    int id = c->free_ids[--c->nfree];
    conn *k = &c->conns[id];
    if (!k->mid) {
        k->mid = xmalloc((size_t)(c->m < c->r ? c->m : c->r) * sizeof(int));
        k->req = xmalloc((size_t)rw * sizeof(uint64_t));
    }
    k->in = in;
    k->nmid = nmid;
    memcpy(k->req, req, (size_t)rw * sizeof *req);
    for (int i = 0; i < nmid; i++) {
        int j = mid[i];
        uint64_t *d = c->dest + (size_t)j * rw;
        for (int w = 0; w < rw; w++) {
            uint64_t carry = open[w] & ~d[w];
            d[w] |= carry;
            open[w] &= ~carry;
            for (uint64_t b = carry; b; b &= b - 1) c->owner[(size_t)j * c->r + w * 64 + __builtin_ctzll(b)] = id;
        }
        c->links[(size_t)in * c->mw + (j >> 6)] |= 1ull << (j & 63);
        k->mid[i] = j;
    }
    c->in_count[in]++;
    for (int o = 0; o < c->r; o++)
        if (clos_has(req, o)) c->out_count[o]++;
    c->active++;
    return id;
}

int clos_connect(clos_net *c, int in, const uint64_t *req, int max_x, int window)
{
    if (!clos_valid(c, in, req)) return CLOS_INVALID;
    int cap = c->m < c->r ? c->m : c->r, mid[CLOS_MAX_M];
    if (max_x > cap) max_x = cap;
    int n = clos_route(c, in, req, max_x, window, mid);
    if (n < 0) return n;
    return install(c, in, req, mid, n);
}

int clos_connect_via(clos_net *c, int in, const uint64_t *req, const int *mid, int nmid)
{
    if (!clos_valid(c, in, req) || nmid < 1 || nmid > (c->m < c->r ? c->m : c->r)) return CLOS_INVALID;
    uint64_t open[CLOS_MAX_RW];
    memcpy(open, req, (size_t)c->rw * sizeof *open);
    for (int i = 0; i < nmid; i++) {
        if (mid[i] < 0 || mid[i] >= c->m || clos_has(clos_in_links(c, in), mid[i])) return CLOS_INVALID;
        for (int q = 0; q < i; q++)
            if (mid[q] == mid[i]) return CLOS_INVALID;
        const uint64_t *d = clos_dest(c, mid[i]);
        int carries = 0;
        for (int w = 0; w < c->rw; w++) {
            carries |= (open[w] & ~d[w]) != 0;
            open[w] &= d[w];
        }
        if (!carries) return CLOS_INVALID;
    }
    if (clos_popcount(open, c->rw)) return CLOS_INVALID; /* Theorem 1: I /\ M_j1 /\ ... /\ M_jx != empty */
    return install(c, in, req, mid, nmid);
}

void clos_disconnect(clos_net *c, int id)
{
    if (clos_conn_in(c, id) < 0) return;
    conn *k = &c->conns[id];
    for (int i = 0; i < k->nmid; i++) {
        int j = k->mid[i];
        for (int o = 0; o < c->r; o++)
            if (c->owner[(size_t)j * c->r + o] == id) {
                c->owner[(size_t)j * c->r + o] = -1;
                c->dest[(size_t)j * c->rw + (o >> 6)] &= ~(1ull << (o & 63));
            }
        c->links[(size_t)k->in * c->mw + (j >> 6)] &= ~(1ull << (j & 63));
    }
    c->in_count[k->in]--;
    for (int o = 0; o < c->r; o++)
        if (clos_has(k->req, o)) c->out_count[o]--;
    k->in = -1;
    c->active--;
    c->free_ids[c->nfree++] = id;
}

int clos_check(const clos_net *c, char *err, int errlen)
{
    int *links = xcalloc((size_t)c->r * c->m, sizeof(int)), *outs = xcalloc((size_t)c->r, sizeof(int)), bad = 0;
    int *ins = xcalloc((size_t)c->r, sizeof(int)), act = 0;
    for (int id = 0; id < c->cap && !bad; id++) {
        const conn *k = &c->conns[id];
        if (k->in < 0) continue;
        act++;
        ins[k->in]++;
        for (int o = 0; o < c->r; o++)
            if (clos_has(k->req, o)) {
                outs[o]++;
                int carriers = 0; /* every destination on exactly one of its middle switches */
                for (int i = 0; i < k->nmid; i++) carriers += clos_owner(c, k->mid[i], o) == id;
                if (carriers != 1)
                    bad = snprintf(err, (size_t)errlen, "connection %d reaches output switch %d %d times", id, o,
                                   carriers);
            }
        for (int i = 0; i < k->nmid && !bad; i++)
            if (links[k->in * c->m + k->mid[i]]++)
                bad = snprintf(err, (size_t)errlen, "link input %d -> middle %d carries two connections", k->in,
                               k->mid[i]);
    }
    for (int j = 0; j < c->m && !bad; j++)
        for (int o = 0; o < c->r && !bad; o++) {
            int id = clos_owner(c, j, o);
            if ((id >= 0) != clos_has(clos_dest(c, j), o) || (id >= 0 && c->conns[id].in < 0))
                bad = snprintf(err, (size_t)errlen, "M_%d and the owner of its link to output %d disagree", j, o);
        }
    for (int s = 0; s < c->r && !bad; s++) {
        if (ins[s] != c->in_count[s] || outs[s] != c->out_count[s] || ins[s] > c->n || outs[s] > c->n)
            bad = snprintf(err, (size_t)errlen, "port counts of switch %d disagree", s);
        for (int j = 0; j < c->m && !bad; j++)
            if ((links[s * c->m + j] != 0) != clos_has(clos_in_links(c, s), j))
                bad = snprintf(err, (size_t)errlen, "link input %d -> middle %d: in-use bit wrong", s, j);
    }
    if (!bad && act != c->active)
        bad = snprintf(err, (size_t)errlen, "%d connections counted, %d active", act, c->active);
    free(links);
    free(outs);
    free(ins);
    return bad ? -1 : 0;
}
