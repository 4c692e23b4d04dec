/* coll_unit.c - built-in collective algorithms deliver what each collective
 * means (coll_check), and coll_check catches broken schedules. */
#include <stdio.h>
#include <string.h>

#include "coll/coll.h"
#include "net/topo.h"

static int fails;

static void expect(int cond, const char *what, const char *detail)
{
    printf("%s %s%s%s\n", cond ? "ok" : "FAIL", what, cond ? "" : ": ", cond ? "" : detail);
    fails += !cond;
}

int main(void)
{
    const char *topos[] = {"mesh:4x4", "octagon", "fat-octagon", "mesh:3x2"};
    char err[256], name[128];
    for (size_t ti = 0; ti < sizeof topos / sizeof *topos; ti++) {
        topo *t = topo_parse(topos[ti], 1, err, sizeof err);
        for (int op = 0; op < OP_COUNT; op++) {
            for (int a = ALGO_TREE; a < ALGO_COUNT; a++) {
                coll_sched s;
                const char *from = NULL, *to = NULL;
                if (op == OP_MNB || op == OP_MNS) {
                    from = "0-2";
                    to = "2-5";
                }
                if (op == OP_BCAST || op == OP_SCATTER) from = "3";
                if (op == OP_GATHER || op == OP_REDUCE) to = "1";
                if (coll_init(&s, t, op, from, to, err, sizeof err)) {
                    expect(0, "init", err);
                    continue;
                }
                snprintf(name, sizeof name, "%s/%s/%s", topos[ti], coll_op_name(op), coll_algo_name(a));
                if (coll_builtin(&s, t, a, err, sizeof err) == 0) {
                    int rc = coll_check(&s, err, sizeof err);
                    expect(rc == 0 && s.nxfers > 0, name, err);
                    /* dropping the last transfer must break every collective */
                    if (s.nxfers > 0) {
                        s.nxfers--;
                        snprintf(name + strlen(name), sizeof name - strlen(name), "/drop-last");
                        expect(coll_check(&s, err, sizeof err) != 0, name, "check accepted an incomplete schedule");
                    }
                }
                coll_free(&s);
            }
        }
        topo_free(t);
    }
    /* forwarding before holding: a bcast whose second hop runs first */
    topo *t = topo_parse("octagon", 1, err, sizeof err);
    coll_sched s;
    coll_init(&s, t, OP_BCAST, "0", NULL, err, sizeof err);
    coll_builtin(&s, t, ALGO_RING, err, sizeof err);
    s.xf[1].step = 0;
    expect(coll_check(&s, err, sizeof err) != 0 && strstr(err, "before holding"), "bcast/forward-before-hold",
           "not rejected");
    coll_free(&s);
    /* reduce counting a value twice */
    coll_init(&s, t, OP_REDUCE, NULL, "0", err, sizeof err);
    coll_builtin(&s, t, ALGO_ALL_AT_ONCE, err, sizeof err);
    coll_add(&s, 0, 3, 0, coll_msg_of(&s, 3, -1));
    expect(coll_check(&s, err, sizeof err) != 0, "reduce/double-count", "not rejected");
    coll_free(&s);
    /* rd needs a power of two */
    coll_init(&s, t, OP_ALLGATHER, "0-5", "0-5", err, sizeof err);
    expect(coll_builtin(&s, t, ALGO_RD, err, sizeof err) != 0 && strstr(err, "power-of-two"), "rd/non-power-of-two",
           "accepted");
    coll_free(&s);
    expect(coll_init(&s, t, OP_BCAST, "0-1", NULL, err, sizeof err) != 0 && strstr(err, "single terminal"),
           "bcast/two-roots", "accepted");
    coll_free(&s);
    topo_free(t);
    return fails != 0;
}
