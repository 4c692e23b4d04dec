/* clos_unit.c - the Clos multicast routing control (net/clos_ctl.c) and
 * bounds (coll/closmodel.c): exact roots against brute force, the paper's
 * table, Theorem 4 above Theorem 3, and random connect/disconnect sequences
 * with the state's invariants, Theorem 1 and the nonblocking guarantee
 * checked after every step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim_harness/coll/closmodel.h"
#include "../../sim_harness/net/clos_ctl.h"
#include "../../sim_harness/util/rng.h"

static long bad, checks;
#define CHECK(c, ...)                                                                                                  \
    do {                                                                                                               \
        checks++;                                                                                                      \
        if (!(c) && bad++ < 10) {                                                                                      \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                            \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

static long ipow(long a, int x)
{
    long p = 1;
    while (x--) p *= a;
    return p;
}

int main(void)
{
    /* clos_root_above: the least t with t^x > mult^x r, by brute force */
    for (long mult = 0; mult <= 6; mult++)
        for (long r = 1; r <= 300; r++)
            for (int x = 1; x <= 4; x++) {
                long t = 0;
                if (mult == 0) t = 1;
                else
                    while (ipow(t, x) <= ipow(mult, x) * r) t++;
                CHECK(clos_root_above(mult, r, x) == t, "root_above(%ld,%ld,%d) = %ld, want %ld", mult, r, x,
                      clos_root_above(mult, r, x), t);
            }
    /* exact roots where doubles are not: 4^(1/2), 27^(1/3), 6^9 */
    CHECK(clos_root_above(3, 4, 2) == 7, "3*sqrt(4)");
    CHECK(clos_root_above(1, 10077696, 9) == 7, "6^9");
    CHECK(clos_root_above(1000, 1953125, 9) == 5001, "1000 * 5");

    /* Theorem 3 by hand: n = 4, r = 16: x = 1: 51, x = 2: 18, x = 3: 3(3 + 2.52) = 16.56 -> 17 */
    closm_bounds b;
    char err[200];
    CHECK(!closm_bounds_eval(4, 16, 4, 3, 10, &b, err, sizeof err), "eval: %s", err);
    CHECK(b.th3.x == 3 && b.th3.m_min == 17 && fabs(b.th3.value - 3 * (3 + cbrt(16))) < 1e-9, "th3 x=%d m=%ld", b.th3.x,
          b.th3.m_min);
    CHECK(b.clos == 7 && b.cor1.x == 2 && b.cor1.m_min == 13, "clos %ld cor1 x=%d m=%ld", b.clos, b.cor1.x,
          b.cor1.m_min);
    CHECK(b.b_floor == 3 && b.cor4_m == 19, "b floor %ld", b.b_floor);
    /* n = 3, r = 4 (the example's network): x = 2, 2 (2 + 2) = 8 exactly -> m >= 9 */
    CHECK(!closm_bounds_eval(3, 4, 0, 0, 0, &b, err, sizeof err) && b.th3.x == 2 && b.th3.m_min == 9, "v(m,3,4)");
    /* d = 1 gives Clos's 2n - 1 (Corollary 2) and b = 1 Theorem 3 (Corollary 5 for d = 1) */
    for (int n = 2; n < 40; n++) {
        CHECK(!closm_bounds_eval(n, 50, 1, 1, 1, &b, err, sizeof err), "eval");
        CHECK(b.cor1.m_min == 2 * n - 1, "n=%d: Corollary 2 gives %ld", n, b.cor1.m_min);
        CHECK(b.cor3.m_min == b.th3.m_min && b.cor4_m == 2 * n - 1, "n=%d: b = 1", n);
    }
    /* Theorem 4 (natural log) is never below Theorem 3 */
    for (long r = 3; r <= 200000; r += r < 5000 ? 1 : 997) {
        closm_min t;
        closm_minx(1, r, r, &t);
        double t4 = 3 * log((double)r) / log(log((double)r));
        CHECK(t4 > t.coef, "r=%ld: Theorem 4 %.6f <= Theorem 3 %.6f", r, t4, t.coef);
    }
    /* the paper's table, row for row */
    static const long paper_r[] = {1, 2, 4, 9, 27, 81, 256, 1024, 4096, 16384, 78125, 390625, 1953125, 10077696};
    static const int paper_x[] = {1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 9};
    closm_row rows[40];
    int k = closm_table(10077696, rows, 40);
    CHECK(k == 14, "table rows %d", k);
    for (int i = 0; i < k && i < 14; i++) {
        CHECK(rows[i].r == paper_r[i] && rows[i].x == paper_x[i] && rows[i].c == i + 2, "row %d: %ld %d %d", i,
              rows[i].r, rows[i].x, rows[i].c);
        closm_min t;
        closm_minx(1, rows[i].r, rows[i].r, &t);
        CHECK(t.x == rows[i].x && fabs(t.coef - rows[i].c) < 1e-9, "row %d: min over x: x=%d %.9f", i, t.x, t.coef);
    }

    /* random traffic on small networks: invariants, Theorem 1, and no block at Theorem 3's m */
    uint64_t seed = 7;
    long routed = 0, blocked = 0;
    for (int trial = 0; trial < 400; trial++) {
        int n = 2 + (int)(splitmix64(&seed) % 4), r = 1 + (int)(splitmix64(&seed) % 9);
        closm_bounds cb;
        closm_bounds_eval(n, r, 0, 0, 0, &cb, err, sizeof err);
        int above = trial % 2, x = cb.th3.x;
        int m = above ? (int)cb.th3.m_min : 1 + (int)(splitmix64(&seed) % (unsigned long)cb.th3.m_min);
        int window = trial % 4 == 1;
        clos_net *c = clos_new(m, n, r);
        for (int step = 0; step < 300; step++) {
            if (clos_connections(c) && splitmix64(&seed) % 3 == 0) {
                int id;
                do id = (int)(splitmix64(&seed) % (unsigned)clos_conn_cap(c));
                while (clos_conn_in(c, id) < 0);
                clos_disconnect(c, id);
            } else {
                uint64_t req[1] = {0};
                int in = (int)(splitmix64(&seed) % (unsigned)r);
                for (int o = 0; o < r; o++)
                    if (splitmix64(&seed) % 3 == 0 && clos_out_count(c, o) < n) clos_add(req, o);
                if (!clos_valid(c, in, req)) {
                    CHECK(clos_connect(c, in, req, x, 0) == CLOS_INVALID, "invalid request accepted");
                    continue;
                }
                int mid[64], win = window ? (int)clos_window(n, clos_popcount(req, 1), x) : 0;
                int p = clos_route(c, in, req, x, win, mid);
                if (p > 0) { /* Theorem 1: the chosen switches are available and their sets miss I */
                    uint64_t open = req[0];
                    for (int i = 0; i < p; i++) {
                        CHECK(!clos_has(clos_in_links(c, in), mid[i]), "unavailable switch chosen");
                        open &= clos_dest(c, mid[i])[0];
                    }
                    CHECK(!open && p <= x, "route does not satisfy Theorem 1 (p=%d)", p);
                }
                CHECK(!above || p > 0, "blocked at m = %d >= Theorem 3's %ld (n=%d r=%d x=%d window=%d)", m,
                      cb.th3.m_min, n, r, x, window);
                int id = clos_connect(c, in, req, x, win);
                CHECK((id >= 0) == (p > 0), "connect and route disagree");
                if (id >= 0) routed++;
                else blocked++;
            }
            CHECK(!clos_check(c, err, sizeof err), "state: %s", err);
        }
        clos_free(c);
    }
    CHECK(routed > 10000 && blocked > 100, "traffic too light: %ld routed, %ld blocked", routed, blocked);
    /* clos_connect_via refuses what Theorem 1 refuses */
    clos_net *c = clos_new(2, 2, 2);
    uint64_t both = 3, one = 1;
    int m0 = 0, m01[2] = {0, 1};
    CHECK(clos_connect_via(c, 0, &one, &m0, 1) >= 0, "via");
    CHECK(clos_connect_via(c, 1, &both, &m0, 1) == CLOS_INVALID, "via: output 0 is taken on middle 0");
    CHECK(clos_connect_via(c, 1, &both, m01, 2) >= 0, "via 0,1");
    CHECK(clos_dest(c, 0)[0] == 3 && clos_dest(c, 1)[0] == 1, "Step 3's split");
    CHECK(!clos_check(c, err, sizeof err), "%s", err);
    clos_free(c);

    printf("clos_unit: %ld checks, %ld failed\n", checks, bad);
    return bad != 0;
}
