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

/* the step a packet injected at cycle `at` belongs to (nsteps: after the last) */
static int step_of(uint64_t at, uint64_t start, const uint64_t *step_cycles, int nsteps)
{
    uint64_t t = start;
    int st = 0;
    while (st < nsteps && at >= t + step_cycles[st]) t += step_cycles[st++];
    return st;
}

/* the last of roots[0..n) (sorted) with key `key` injected at or before `at`, or NULL */
static const ev *root_of(const ev *roots, size_t n, uint64_t key, uint64_t at)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first entry above (key, at) */
        size_t mid = (lo + hi) / 2;
        if (roots[mid].key < key || (roots[mid].key == key && roots[mid].cycle <= at)) lo = mid + 1;
        else hi = mid;
    }
    return lo && roots[lo - 1].key == key ? &roots[lo - 1] : NULL;
}

int coll_step_latencies(FILE *f, int nterms, uint64_t start, const uint64_t *step_cycles, int nsteps, uint64_t *worst,
                        uint64_t *matched, uint64_t *unmatched, char *err, size_t errlen)
{
    ev *inj = NULL, *ej = NULL, *roots = NULL, *copies = NULL; /* roots: terminals' injections by (src, tag) */
    size_t ni = 0, ci = 0, ne = 0, ce = 0, nr = 0, cr = 0, nc = 0, cc = 0;
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
            free(roots);
            free(copies);
            return -1;
        }
        const char *e = json_string_value(json_object_get(o, "event"));
        int64_t src = field(o, "src"), tag = field(o, "tag"), dst = field(o, "dst");
        int in = e && !strcmp(e, "inject"), out = e && !strcmp(e, "eject");
        if ((in || out) && src >= 0 && tag >= 0 && dst >= 0) {
            uint64_t key = (uint64_t)src << 40 | (uint64_t)(tag & 0xffffff) << 16 | (uint64_t)(dst & 0xffff);
            uint64_t root = key & ~(uint64_t)0xffff;
            int from_unit = json_object_get(o, "unit") != NULL;
            if (in && from_unit && src < nterms) push(&copies, &nc, &cc, key, 0); /* a multicast's copy */
            else if (in) push(&inj, &ni, &ci, key, (uint64_t)field(o, "cycle"));
            else push(&ej, &ne, &ce, key, (uint64_t)field(o, "tail_cycle"));
            if (in && !from_unit) push(&roots, &nr, &cr, root, (uint64_t)field(o, "cycle"));
        }
        json_decref(o);
    }
    if (ni) qsort(inj, ni, sizeof *inj, ev_cmp);
    if (ne) qsort(ej, ne, sizeof *ej, ev_cmp);
    if (nr) qsort(roots, nr, sizeof *roots, ev_cmp);
    if (nc) qsort(copies, nc, sizeof *copies, ev_cmp);
    size_t a = 0, c = 0;
    for (size_t b = 0; b < ne; b++) { /* the k-th injection of a key with its k-th ejection */
        while (a < ni && inj[a].key < ej[b].key) a++;
        while (c < nc && copies[c].key < ej[b].key) c++;
        uint64_t from;
        if (c < nc && copies[c].key == ej[b].key) { /* a copy: from its multicast's injection */
            const ev *r = root_of(roots, nr, ej[b].key & ~(uint64_t)0xffff, ej[b].cycle);
            c++;
            if (!r) {
                (*unmatched)++;
                continue;
            }
            from = r->cycle;
        } else if (a >= ni || inj[a].key != ej[b].key || inj[a].cycle > ej[b].cycle) {
            (*unmatched)++;
            continue;
        } else from = inj[a++].cycle;
        int st = step_of(from, start, step_cycles, nsteps);
        if (st < nsteps && ej[b].cycle - from > worst[st]) worst[st] = ej[b].cycle - from;
        (*matched)++;
    }
    free(inj);
    free(ej);
    free(roots);
    free(copies);
    return 0;
}
