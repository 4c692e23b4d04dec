/* fuzz_parse - topology strings and terminal sets (cli_set), the parsers
 * every command's --topo, --from, --to and --sources go through. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "net/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 4096) return 0;
    char *s = malloc(n + 1), err[300];
    memcpy(s, d, n);
    s[n] = 0;
    char *sep = strchr(s, '|'); /* "TOPO|SET" */
    if (sep) *sep = 0;
    topo *t = topo_parse(s, 1 + (n & 1), err, sizeof err);
    if (t && t->nterms <= 4096 && sep) {
        unsigned char *m = calloc((size_t)t->nterms, 1);
        (void)cli_set(sep + 1, t->nterms, m, err, sizeof err);
        free(m);
    }
    topo_free(t);
    free(s);
    return 0;
}
