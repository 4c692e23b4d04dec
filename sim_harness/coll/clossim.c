/* clossim.c - random multicast traffic on a v(m, n, r) network under the
 * paper's routing control, and the adversary (clossim.h). */
#include "coll/clossim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/clos_ctl.h"
#include "util/cli.h"
#include "util/rng.h"

static double uniform01(uint64_t *s) { return rng_unit(splitmix64(s)); }
static double expo(uint64_t *s, double mean) { return -log(1.0 - uniform01(s)) * mean; }
static int below(uint64_t *s, int n) { return (int)(splitmix64(s) % (uint64_t)n); }

/* f distinct random output switches among those with an idle port (all of
 * them if fewer); returns how many */
static int pick_outputs(const clos_net *net, uint64_t *rng, int f, uint64_t *req, int *idle)
{
    int r = clos_r(net), n = clos_n(net), ni = 0;
    for (int k = 0; k < r; k++)
        if (clos_out_count(net, k) < n) idle[ni++] = k;
    if (f > ni) f = ni;
    memset(req, 0, (size_t)clos_words(r) * sizeof *req);
    for (int i = 0; i < f; i++) { /* partial Fisher-Yates */
        int j = i + below(rng, ni - i), t = idle[i];
        idle[i] = idle[j];
        idle[j] = t;
        clos_add(req, idle[i]);
    }
    return f;
}

static int check_cfg(int m, int n, int r, int x, char *err, int errlen)
{
    if (m < 1 || m > CLOS_MAX_M || n < 1 || n > CLOS_MAX_N || r < 1 || r > CLOS_MAX_R || (long)n * r > 1 << 20)
        return snprintf(err, (size_t)errlen,
                        "network v(%d,%d,%d) out of range (m <= %d, n <= %d, r <= %d, n r <= 2^20)", m, n, r,
                        CLOS_MAX_M, CLOS_MAX_N, CLOS_MAX_R),
               -1;
    if (x < 1 || x > r) return snprintf(err, (size_t)errlen, "x must be 1..r = %d (got %d)", r, x), -1;
    return 0;
}

typedef struct {
    double t;
    int id;
} dep;

static void heap_push(dep *h, int *nh, dep d)
{
    int i = (*nh)++;
    while (i && h[(i - 1) / 2].t > d.t) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = d;
}

static dep heap_pop(dep *h, int *nh)
{
    dep top = h[0], last = h[--*nh];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *nh) break;
        if (c + 1 < *nh && h[c + 1].t < h[c].t) c++;
        if (h[c].t >= last.t) break;
        h[i] = h[c];
        i = c;
    }
    if (*nh) h[i] = last;
    return top;
}

int closs_run(const closs_cfg *cfg, closs_result *res, char *err, int errlen)
{
    if (check_cfg(cfg->m, cfg->n, cfg->r, cfg->x, err, errlen)) return -1;
    if (cfg->fmin < 1 || cfg->fmax < cfg->fmin || cfg->fmax > cfg->r)
        return snprintf(err, errlen, "fanout range %d..%d must lie in 1..r = %d", cfg->fmin, cfg->fmax, cfg->r), -1;
    if (!(cfg->load > 0) || !(cfg->hold > 0) || cfg->requests < 1)
        return snprintf(err, errlen, "load, hold and requests must be positive"), -1;
    clos_net *net = clos_new(cfg->m, cfg->n, cfg->r);
    int cap = clos_conn_cap(net), nh = 0, *idle = xmalloc((size_t)cfg->r * sizeof(int));
    dep *heap = xmalloc((size_t)cap * sizeof *heap);
    int *busy = xcalloc((size_t)cap, sizeof(int)); /* input port -> connection id + 1 */
    int *port_of = xmalloc((size_t)cap * sizeof(int));
    uint64_t rng = cfg->seed, req[CLOS_MAX_RW];
    double t = 0, rate = cfg->load * cfg->n * cfg->r / cfg->hold, fan = 0, mids = 0, act = 0;
    memset(res, 0, sizeof *res);
    char cerr[200];
    while (res->requests < cfg->requests) {
        t += expo(&rng, 1.0 / rate);
        while (nh && heap[0].t <= t) {
            dep d = heap_pop(heap, &nh);
            busy[port_of[d.id]] = 0;
            clos_disconnect(net, d.id);
        }
        int port = below(&rng, cap), in = port / cfg->n;
        int f = cfg->fmin + below(&rng, cfg->fmax - cfg->fmin + 1);
        if (busy[port]) {
            res->busy_input++;
            continue;
        }
        int got = pick_outputs(net, &rng, f, req, idle);
        if (!got) continue; /* every output port busy: not a request */
        if (got < f) res->truncated++;
        res->requests++;
        fan += got;
        act += clos_connections(net);
        int id = clos_connect(net, in, req, cfg->x, cfg->window ? (int)clos_window(cfg->n, got, cfg->x) : 0);
        if (id == CLOS_INVALID) { /* cannot happen: the request was built valid */
            snprintf(err, (size_t)errlen, "internal: an invalid request was generated");
            res->check_failures++;
            break;
        }
        if (id < 0) {
            res->blocked++;
        } else {
            res->routed++;
            int nm = clos_conn_mids(net, id, idle, 0);
            mids += nm;
            if (nm > res->max_mids) res->max_mids = nm;
            busy[port] = 1;
            port_of[id] = port;
            heap_push(heap, &nh, (dep){t + expo(&rng, cfg->hold), id});
            if (clos_connections(net) > res->max_active) res->max_active = clos_connections(net);
        }
        if (cfg->check_every && res->requests % cfg->check_every == 0 && clos_check(net, cerr, sizeof cerr))
            res->check_failures++;
    }
    res->blocking = res->requests ? (double)res->blocked / res->requests : 0;
    res->mean_fanout = res->requests ? fan / res->requests : 0;
    res->mean_mids = res->routed ? mids / res->routed : 0;
    res->mean_active = res->requests ? act / res->requests : 0;
    free(idle);
    free(heap);
    free(busy);
    free(port_of);
    clos_free(net);
    return 0;
}

/* ---- the adversary ---- */

typedef struct {
    long a, b, c; /* middle switches needed, -(ways to finish), links in use: larger is harder */
} hardness;

static int harder_eq(hardness p, hardness q)
{
    if (p.a != q.a) return p.a > q.a;
    if (p.b != q.b) return p.b > q.b;
    return p.c >= q.c;
}

/* a move that makes the state easier is kept anyway one time in ten: pure
 * hill climbing stalls (v(5,3,4): no block in 20,000 moves for 4 seeds of
 * 4; with this, blocks for all 4) */
static int worse_ok(uint64_t *rng) { return splitmix64(rng) % 10 == 0; }

/* How hard request (in, req) is for the algorithm; 1 if it blocks with x. */
static int probe(const clos_net *net, int in, const uint64_t *req, const closa_cfg *cfg, hardness *h)
{
    int m = cfg->m, rw = clos_words(cfg->r), mid[CLOS_MAX_M], lim = m < cfg->r ? m : cfg->r;
    int win = cfg->window ? (int)clos_window(cfg->n, clos_popcount(req, rw), cfg->x) : 0;
    int p = clos_route(net, in, req, lim, win, mid);
    if (p < 0 || p > cfg->x) return 1;
    uint64_t open[CLOS_MAX_RW];
    memcpy(open, req, (size_t)rw * sizeof *open);
    for (int i = 0; i < p - 1; i++)
        for (int w = 0; w < rw; w++) open[w] &= clos_dest(net, mid[i])[w];
    const uint64_t *links = clos_in_links(net, in);
    long esc = 0, used = 0;
    for (int j = 0; j < m; j++) {
        if (clos_has(links, j)) {
            used++;
            continue;
        }
        int chosen = 0;
        for (int i = 0; i < p - 1; i++) chosen |= mid[i] == j;
        if (chosen) continue;
        uint64_t any = 0;
        for (int w = 0; w < rw; w++) any |= clos_dest(net, j)[w] & open[w];
        esc += !any;
    }
    *h = (hardness){p, -esc, used};
    return 0;
}

/* The hardest probe of the state; 1 (and the blocking request in bin, breq) if one blocks. */
static int state_hardness(const clos_net *net, const closa_cfg *cfg, uint64_t *rng, hardness *best, int *bin,
                          uint64_t *breq, int *idle)
{
    int r = cfg->r, n = cfg->n, rw = clos_words(r), ni = 0;
    uint64_t all[CLOS_MAX_RW] = {0}, req[CLOS_MAX_RW];
    for (int k = 0; k < r; k++)
        if (clos_out_count(net, k) < n) {
            clos_add(all, k);
            idle[ni++] = k;
        }
    *best = (hardness){0, -(long)cfg->m - 1, 0};
    if (!ni) return 0;
    for (int in = 0; in < r; in++) {
        if (clos_in_count(net, in) >= n) continue;
        for (int q = -1; q < ni + 4; q++) {
            if (q < 0) memcpy(req, all, (size_t)rw * sizeof *req);
            else if (q < ni) {
                memset(req, 0, (size_t)rw * sizeof *req);
                clos_add(req, idle[q]);
            } else {
                memset(req, 0, (size_t)rw * sizeof *req);
                for (int k = 0; k < ni; k++)
                    if (splitmix64(rng) & 1) clos_add(req, idle[k]);
                if (!clos_popcount(req, rw)) clos_add(req, idle[below(rng, ni)]);
            }
            hardness h;
            if (probe(net, in, req, cfg, &h)) {
                *bin = in;
                memcpy(breq, req, (size_t)rw * sizeof *req);
                return 1;
            }
            if (harder_eq(h, *best)) *best = h;
        }
    }
    return 0;
}

int closa_search(const closa_cfg *cfg, closa_result *res, char *err, int errlen)
{
    if (check_cfg(cfg->m, cfg->n, cfg->r, cfg->x, err, errlen)) return -1;
    if (cfg->r > 256) return snprintf(err, (size_t)errlen, "the adversary takes r <= 256 (got %d)", cfg->r), -1;
    if (cfg->budget < 1) return snprintf(err, (size_t)errlen, "the budget must be positive"), -1;
    memset(res, 0, sizeof *res);
    clos_net *net = clos_new(cfg->m, cfg->n, cfg->r);
    int r = cfg->r, n = cfg->n, rw = clos_words(r), cap = clos_conn_cap(net);
    int *idle = xmalloc((size_t)r * sizeof(int)), *mid = xmalloc((size_t)CLOS_MAX_M * sizeof(int));
    uint64_t rng = cfg->seed, req[CLOS_MAX_RW], breq[CLOS_MAX_RW];
    hardness cur = {0, -(long)cfg->m - 1, 0}, h;
    long stuck = 0, patience = 200 + 20L * r;
    int bin = -1;
    for (res->moves = 0; res->moves < cfg->budget; res->moves++) {
        int in = -1, found = 0;
        if (clos_connections(net) && (splitmix64(&rng) % 3 == 0 || clos_connections(net) == cap)) {
            int id; /* a departure */
            do id = below(&rng, cap);
            while (clos_conn_in(net, id) < 0);
            int cin = clos_conn_in(net, id), nm = clos_conn_mids(net, id, mid, CLOS_MAX_M);
            uint64_t creq[CLOS_MAX_RW] = {0};
            for (int k = 0; k < r; k++) /* its destinations: the output links it owns */
                for (int i = 0; i < nm; i++)
                    if (clos_owner(net, mid[i], k) == id) clos_add(creq, k);
            clos_disconnect(net, id);
            found = state_hardness(net, cfg, &rng, &h, &bin, breq, idle);
            if (!found && !harder_eq(h, cur) && !worse_ok(&rng))
                clos_connect_via(net, cin, creq, mid, nm); /* undo (if it still fits) */
            else if (!found) cur = h;
        } else { /* an arrival */
            int tries = 0;
            do in = below(&rng, r);
            while (clos_in_count(net, in) >= n && ++tries < 4 * r);
            if (clos_in_count(net, in) >= n) continue;
            int ni = 0;
            for (int k = 0; k < r; k++) ni += clos_out_count(net, k) < n;
            if (!ni) continue;
            pick_outputs(net, &rng, 1 + below(&rng, ni), req, idle);
            int id = clos_connect(net, in, req, cfg->x,
                                  cfg->window ? (int)clos_window(n, clos_popcount(req, rw), cfg->x) : 0);
            if (id == CLOS_BLOCKED) {
                bin = in;
                memcpy(breq, req, sizeof breq);
                found = 1;
            } else {
                found = state_hardness(net, cfg, &rng, &h, &bin, breq, idle);
                if (!found && !harder_eq(h, cur) && !worse_ok(&rng)) clos_disconnect(net, id);
                else if (!found) cur = h, stuck = 0;
            }
        }
        if (found) {
            /* issue the blocking request: the algorithm must refuse it */
            int win = cfg->window ? (int)clos_window(n, clos_popcount(breq, rw), cfg->x) : 0;
            int links = 0;
            for (int j = 0; j < cfg->m; j++) links += clos_has(clos_in_links(net, bin), j);
            if (clos_connect(net, bin, breq, cfg->x, win) != CLOS_BLOCKED) {
                snprintf(err, (size_t)errlen, "internal: the probe that blocked was routed");
                free(idle);
                free(mid);
                clos_free(net);
                return -1;
            }
            res->forced = 1;
            res->moves++;
            res->connections = clos_connections(net);
            res->in = bin;
            res->fanout = clos_popcount(breq, rw);
            memcpy(res->req, breq, (size_t)rw * sizeof *breq);
            res->links_in_use = links;
            break;
        }
        if (++stuck > patience) { /* restart from the empty network */
            clos_free(net);
            net = clos_new(cfg->m, cfg->n, cfg->r);
            cur = (hardness){0, -(long)cfg->m - 1, 0};
            stuck = 0;
        }
    }
    free(idle);
    free(mid);
    clos_free(net);
    return 0;
}
