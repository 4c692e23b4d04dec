/* fuzz_config - `--config F` files (sim_harness/cmd/config_file.c) on
 * arbitrary bytes, read against traffic's options with the BookSim2
 * dialect (booksim_cfg.c) on odd-length inputs: refused with one line
 * that names a line of the input (or none), or options whose keys are
 * [a-z0-9-] names the usage lists, each at most once (but the keys the
 * dialect may repeat: BookSim's num_vcs and vc_buf_size are both
 * --router), values never holding a newline.  The reader opens no file and never exits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/booksim_cfg.h"
#include "cmd/cmd_opts.h"
#include "cmd/config_file.h"

static const char *usage = "  --topo T  --router K=V  --ports k  --pattern P  --sources SET  --rate R  --packet L\n"
                           "  --injection P  --cycles N; --warmup N  --drain N  --seed S  --coding R  --trace F\n"
                           "  --trace-window A:B  --histogram F  --histogram-bin W  --json  --config F  --view\n";

static int repeatable(const cfg_dialect *dl, const char *key)
{
    for (size_t i = 0; dl && dl->repeat && dl->repeat[i]; i++)
        if (!strcmp(dl->repeat[i], key)) return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 65536) return 0;
    cfg_entries e;
    int line = -1;
    char *warning = NULL;
    const cfg_dialect *dl = (n & 1) ? &booksim_cfg : NULL;
    char *err = cfg_parse((const char *)d, n, usage, dl, "f.cfg", (n & 3) == 3, &e, &line, &warning);
    if (warning && strchr(warning, '\n')) abort(); /* one line */
    free(warning);
    size_t lines = 1;
    for (size_t i = 0; i < n; i++) lines += d[i] == '\n';
    if (err) {
        if (strchr(err, '\n') || line < 0 || (size_t)line > lines) abort(); /* one line, about a line of the input */
        free(err);
    } else {
        if (line != 0) abort();
        for (size_t i = 0; i < e.n; i++) {
            char *dash = malloc(strlen(e.v[i].key) + 3);
            strcpy(dash, "--");
            strcat(dash, e.v[i].key);
            if (!cmd_usage_names(usage, dash) || !strcmp(e.v[i].key, "config")) abort();
            free(dash);
            if (strspn(e.v[i].key, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(e.v[i].key)) abort();
            if (e.v[i].value && strchr(e.v[i].value, '\n')) abort();
            for (size_t j = 0; j < i; j++)
                if (!strcmp(e.v[i].key, e.v[j].key) && !repeatable(dl, e.v[i].key)) abort();
        }
    }
    cfg_entries_free(&e);
    return 0;
}
