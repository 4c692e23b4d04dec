/* fuzz_sched - schedule files: the reader and the verifier on arbitrary
 * JSON; then, when it verifies, the plan encoder and the harness's plan
 * check (coll_plan_verify) on every node of it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "coll/coll_plan.h"
#include "sched/sched.h"
#include "sched/sched_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/xnoc-fuzz-sched-%d.json", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(d, 1, n, f);
    fclose(f);
    topo *t = NULL;
    coll_sched s;
    char err[400];
    if (sched_file_read(path, &t, &s, err, sizeof err) == 0 && t->nterms <= 64 &&
        sched_verify(&s, t, err, sizeof err) == 0) {
        static uint8_t ram[64 * 1024];
        for (int node = 0; node < s.nterms; node++) {
            int nw;
            uint32_t end;
            uint32_t *w = coll_plan_encode(&s, t, node, 16, 0, 1, 0, 0, 0x80000000u, &nw, &end);
            (void)coll_plan_verify(w, ram, 0x80000000u, sizeof ram, err, sizeof err);
            free(w);
        }
    }
    if (t) coll_free(&s);
    topo_free(t);
    return 0;
}
