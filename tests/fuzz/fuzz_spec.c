/* fuzz_spec - sweep specs (sim_harness/cmd/sweep_spec.c): the reader on
 * arbitrary bytes, checked against a fixed option list (what `xnoc traffic
 * --help` names); for a spec it accepts, every point's ID and argument
 * words (up to 4096 points): IDs unique, short enough for a file name, of
 * [A-Za-z0-9.=,_~-] only; words never NULL.  The reader starts no process
 * and never exits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/sweep_spec.h"

static const char *const opts[] = {"topo",   "router", "ports", "pattern",  "sources", "rate", "packet",
                                   "cycles", "warmup", "drain", "seed",     "coding",  "json", "trace",
                                   "help",   "view",   "size",  "heat-max", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 65536) return 0;
    char *err = NULL;
    sweep_spec *s = sweep_spec_parse((const char *)d, n, (n & 1) ? opts : NULL, &err);
    if (!s) {
        if (!err || strchr(err, '\n')) abort(); /* one line, always */
        free(err);
        return 0;
    }
    free(sweep_spec_command((const char *)d, n));
    json_t *ids = json_object();
    size_t *idx = calloc(s->naxes + 1, sizeof *idx);
    long k = 0;
    do {
        char *id = sweep_point_id(s, idx);
        if (strlen(id) > SWEEP_MAX_ID ||
            strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.=,_~-") != strlen(id))
            abort();
        if (json_object_get(ids, id)) abort(); /* two points, one file */
        json_object_set_new(ids, id, json_true());
        size_t nw;
        char **w = sweep_point_words(s, idx, &nw);
        for (size_t i = 0; i < nw; i++) {
            if (!w[i]) abort();
            char *q = sweep_sh_quote(w[i]);
            free(q);
        }
        sweep_strv_free(w);
        free(id);
    } while (++k < 4096 && sweep_next(s, idx));
    free(idx);
    json_decref(ids);
    sweep_spec_free(s);
    return 0;
}
