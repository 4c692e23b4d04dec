/* fuzz_events - the --events reader behind xnoc replay (cmd/replay_events.c)
 * on arbitrary bytes; when a file reads, its sweep at a few cycles, which
 * must count up to the channel totals without ever exceeding them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/replay_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (!n) return 0;
    FILE *f = fmemopen((void *)d, n, "r");
    if (!f) return 0;
    replay_file e;
    char err[600];
    int rc = replay_read(f, "fuzz.jsonl", NULL, &e, err, sizeof err);
    fclose(f);
    if (rc) {
        if (!err[0] || strchr(err, '\n')) abort(); /* one line, always */
        return 0;
    }
    int nchan = replay_nchan(&e);
    uint64_t *total = calloc((size_t)nchan + 1, sizeof *total), *prev = calloc((size_t)nchan + 1, sizeof *prev),
             *now = calloc((size_t)nchan + 1, sizeof *now);
    for (size_t i = 0; i < e.n; i++) total[e.s[i].chan] += e.s[i].flits;
    replay_sweep w;
    replay_sweep_init(&w, &e);
    uint64_t span = e.last - e.first, at[] = {e.first, e.first + span / 3, e.first + span / 2, e.last, UINT64_MAX};
    for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
        replay_sweep_at(&w, at[k], now);
        for (int c = 0; c < nchan; c++)
            if (now[c] < prev[c] || now[c] > total[c] || (at[k] >= e.last && now[c] != total[c])) abort();
        uint64_t f = replay_sweep_next_flit(&w, at[k]);
        if (f != UINT64_MAX && (f <= at[k] || at[k] >= e.last)) abort(); /* later, and none after the last */
        memcpy(prev, now, (size_t)nchan * sizeof *now);
    }
    replay_sweep_free(&w);
    free(total);
    free(prev);
    free(now);
    replay_free(&e);
    return 0;
}
