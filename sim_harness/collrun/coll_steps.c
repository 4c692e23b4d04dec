/* coll_steps.c - each global step's worst latency from injection, read
 * from the packet events (coll_steps.h). */
#include "collrun/coll_steps.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"

typedef struct {
    uint64_t key, cycle; /* key: (src, tag, dst); cycle: the head's injection, or the tail's ejection */
} ev;

static int ev_cmp(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->cycle < y->cycle ? -1 : x->cycle > y->cycle;
}

static void push(ev **v, size_t *n, size_t *cap, uint64_t key, uint64_t cycle)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        *v = xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = (ev){key, cycle};
}

static int64_t field(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

int coll_step_latencies(FILE *f, uint64_t start, const uint64_t *step_cycles, int nsteps, uint64_t *worst,
                        uint64_t *matched, uint64_t *unmatched, char *err, size_t errlen)
{
    ev *inj = NULL, *ej = NULL;
    size_t ni = 0, ci = 0, ne = 0, ce = 0;
    char line[4096];
    long lineno = 0;
    memset(worst, 0, (size_t)nsteps * sizeof *worst);
    *matched = *unmatched = 0;
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        if (!o) {
            snprintf(err, errlen, "packet events, line %ld: %s", lineno, je.text);
            free(inj);
            free(ej);
            return -1;
        }
        const char *e = json_string_value(json_object_get(o, "event"));
        int64_t src = field(o, "src"), tag = field(o, "tag"), dst = field(o, "dst");
        int in = e && !strcmp(e, "inject"), out = e && !strcmp(e, "eject");
        if ((in || out) && src >= 0 && tag >= 0 && dst >= 0) {
            uint64_t key = (uint64_t)src << 40 | (uint64_t)(tag & 0xffffff) << 16 | (uint64_t)(dst & 0xffff);
            if (in) push(&inj, &ni, &ci, key, (uint64_t)field(o, "cycle"));
            else push(&ej, &ne, &ce, key, (uint64_t)field(o, "tail_cycle"));
        }
        json_decref(o);
    }
    if (ni) qsort(inj, ni, sizeof *inj, ev_cmp);
    if (ne) qsort(ej, ne, sizeof *ej, ev_cmp);
    size_t a = 0;
    for (size_t b = 0; b < ne; b++) { /* the k-th injection of a key with its k-th ejection */
        while (a < ni && inj[a].key < ej[b].key) a++;
        if (a >= ni || inj[a].key != ej[b].key || inj[a].cycle > ej[b].cycle) {
            (*unmatched)++;
            continue;
        }
        uint64_t t = start;
        int st = 0;
        while (st < nsteps && inj[a].cycle >= t + step_cycles[st]) t += step_cycles[st++];
        if (st < nsteps && ej[b].cycle - inj[a].cycle > worst[st]) worst[st] = ej[b].cycle - inj[a].cycle;
        (*matched)++;
        a++;
    }
    free(inj);
    free(ej);
    return 0;
}
