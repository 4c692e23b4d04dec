/* clos_rtl.c - rtl/xnoc_clos_ctl.sv (verilated, glue.cpp) against the C
 * routing control (sim_harness/net/clos_ctl.c) on random network states:
 * v(17, n, 16) for n = 2..16 under random connections and departures, and
 * for every state a random request from a random input switch with a random
 * x; the chosen middle switches, their number and blocked must agree, and
 * the clocks must be 1 + the rounds of Step 2.
 * usage: clos_rtl [DECISIONS] (default 100000) */
#include <stdio.h>
#include <stdlib.h>

#include "../../sim_harness/net/clos_ctl.h"
#include "../../sim_harness/util/rng.h"
#include "glue.h"

int main(int argc, char **argv)
{
    long want = argc > 1 ? atol(argv[1]) : 100000, done = 0, bad = 0, blocked_n = 0, max_clocks = 0;
    long clocks_by_rounds[8] = {0};
    const int m = CLOS_RTL_M, r = CLOS_RTL_R, dw = (m * r + 31) / 32;
    uint64_t seed = 12345;
    clos_rtl_init();
    while (done < want) {
        int n = 2 + (int)(splitmix64(&seed) % 15);
        clos_net *c = clos_new(m, n, r);
        for (int step = 0; step < 400 && done < want; step++) {
            /* move the state: a departure or an arrival routed by the C model */
            if (clos_connections(c) && splitmix64(&seed) % 3 == 0) {
                int id;
                do id = (int)(splitmix64(&seed) % (unsigned)clos_conn_cap(c));
                while (clos_conn_in(c, id) < 0);
                clos_disconnect(c, id);
            } else {
                uint64_t req = splitmix64(&seed) & splitmix64(&seed) & 0xffff;
                int in = (int)(splitmix64(&seed) % r);
                for (int k = 0; k < r; k++)
                    if (clos_out_count(c, k) >= n) req &= ~(1ull << k);
                if (clos_valid(c, in, &req)) clos_connect(c, in, &req, 1 + (int)(splitmix64(&seed) % 5), 0);
            }
            /* a decision on this state: any request (valid or not: the algorithm is defined on sets) */
            uint64_t req = splitmix64(&seed) & 0xffff;
            if (splitmix64(&seed) & 1) req &= splitmix64(&seed);
            int in = (int)(splitmix64(&seed) % r), x = 1 + (int)(splitmix64(&seed) % 5), mid[CLOS_MAX_M];
            uint32_t dest[(CLOS_RTL_M * CLOS_RTL_R + 31) / 32] = {0}, avail = 0;
            for (int j = 0; j < m; j++) {
                uint64_t d = clos_dest(c, j)[0];
                for (int k = 0; k < r; k++)
                    if (d >> k & 1) dest[(j * r + k) / 32] |= 1u << ((j * r + k) % 32);
                if (!clos_has(clos_in_links(c, in), j)) avail |= 1u << j;
            }
            int p = clos_route(c, in, &req, x, 0, mid);
            uint32_t cmask = 0, hmask;
            int hcount, hblocked;
            for (int i = 0; i < p; i++) cmask |= 1u << mid[i];
            int clocks = clos_rtl_decide((uint32_t)req, dest, dw, avail, x, &hmask, &hcount, &hblocked);
            int ok = clocks > 0 && hblocked == (p < 0) && (p < 0 || (hmask == cmask && hcount == p && clocks == 1 + p));
            if (!ok && bad++ < 10)
                fprintf(stderr,
                        "decision %ld: n=%d in=%d req=%04llx x=%d: C %d switches (mask %05x), RTL %s %d (mask %05x) in "
                        "%d clocks\n",
                        done, n, in, (unsigned long long)req, x, p, cmask, hblocked ? "blocked" : "routed", hcount,
                        hmask, clocks);
            if (p < 0) blocked_n++;
            else if (p < 8) clocks_by_rounds[p]++;
            if (clocks > max_clocks) max_clocks = clocks;
            done++;
        }
        char err[200];
        if (clos_check(c, err, sizeof err) && bad++ < 10) fprintf(stderr, "state: %s\n", err);
        clos_free(c);
    }
    clos_rtl_final();
    printf(
        "clos_rtl: %ld decisions on v(%d,n,%d), %ld blocked, routed through 1/2/3/4/5 switches: %ld/%ld/%ld/%ld/%ld, "
        "at most %ld clocks; %ld disagree\n",
        done, m, r, blocked_n, clocks_by_rounds[1], clocks_by_rounds[2], clocks_by_rounds[3], clocks_by_rounds[4],
        clocks_by_rounds[5], max_clocks, bad);
    return bad != 0;
}
