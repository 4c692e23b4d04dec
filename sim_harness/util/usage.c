/* usage.c - what a --help text says about an option (usage.h). */
#include "util/usage.h"

#include <string.h>

int usage_writes(const char *usage, const char *a)
{
    size_t l = strlen(a);
    for (const char *p = strstr(usage, a); l > 2 && p; p = strstr(p + 1, a)) {
        const char *v = p + l;
        if ((p > usage && p[-1] != ' ' && p[-1] != '\n') || *v != ' ' || v[1] == ' ')
            continue; /* a flag, or a mention */
        size_t n = strcspn(++v, " \n,;)");
        if ((n == 3 && !strncmp(v, "DIR", 3)) || (n > 2 && !strncmp(v, "F.", 2))) return 1;
    }
    return 0;
}
