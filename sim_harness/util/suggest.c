/* suggest.c - the closest name to a typo (see suggest.h). */
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

int suggest_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64) return n > m ? (int)(n - m) + 64 : (int)(m - n) + 64; /* not a typo of a name */
    int d[65][65];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best) best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1; /* two neighbours swapped */
            d[i][j] = best;
        }
    return d[n][m];
}

const char *suggest_pick(const char *word, const char *const *cands, size_t n)
{
    int limit = (int)strlen(word) / 3, best = 1 << 30;
    if (limit < 1) limit = 1;
    const char *pick = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i] || !strcmp(cands[i], word)) continue;
        int d = suggest_distance(word, cands[i]);
        if (d <= limit && d < best) best = d, pick = cands[i];
    }
    return pick;
}

const char *suggest_option(const char *word, const char *usage)
{
    static char pick[72];
    const char *eq = strchr(word, '='); /* "--patern=x": the name only */
    char name[72];
    size_t wl = eq ? (size_t)(eq - word) : strlen(word);
    if (wl >= sizeof name || !usage) return NULL;
    memcpy(name, word, wl);
    name[wl] = 0;
    int limit = (int)(wl - 2) / 3, best = 1 << 30;
    if (limit < 1) limit = 1;
    *pick = 0;
    for (const char *p = strstr(usage, "--"); p; p = strstr(p + 2, "--")) {
        size_t l = 2;
        while ((p[l] >= 'a' && p[l] <= 'z') || (p[l] >= '0' && p[l] <= '9') || p[l] == '-') l++;
        if (l <= 2 || l >= sizeof pick || (p > usage && p[-1] != ' ' && p[-1] != '[' && p[-1] != '\n' && p[-1] != '('))
            continue;
        char cand[72];
        memcpy(cand, p, l);
        cand[l] = 0;
        if (!strcmp(cand, name)) continue;
        int d = suggest_distance(name, cand);
        if (d <= limit && d < best) best = d, memcpy(pick, cand, l + 1);
    }
    return *pick ? pick : NULL;
}
