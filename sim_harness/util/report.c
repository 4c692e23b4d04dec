/* report.c - text reports from JSON reports (report.h). */
#include "util/report.h"

#include <stdlib.h>
#include <string.h>

const json_t *report_get(const json_t *o, const char *path)
{
    char key[128];
    while (o && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key) return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        if (json_is_array(o)) { /* a number picks an element */
            char *end;
            unsigned long i = strtoul(key, &end, 10);
            o = (*key && !*end) ? json_array_get(o, i) : NULL;
        } else o = json_is_object(o) ? json_object_get(o, key) : NULL;
        path += n + (path[n] == '.');
    }
    return o;
}

/* One value with an optional printf conversion (fmt: "" or e.g. "%.2f"). */
static void put_value(FILE *f, const json_t *v, const char *fmt)
{
    char conv = *fmt ? fmt[strlen(fmt) - 1] : 0;
    if (json_is_integer(v) || json_is_real(v)) {
        double d = json_number_value(v);
        if (conv == 'f' || conv == 'g' || conv == 'e') fprintf(f, fmt, d);
        else if (conv == 'd' || conv == 'i' || conv == 'u' || conv == 'x') {
            /* the conversion is applied to a long long whatever its length modifier */
            int n = (int)strlen(fmt) - 1;
            while (n > 0 && strchr("hlLqjzt", fmt[n - 1])) n--;
            char ll[32];
            snprintf(ll, sizeof ll, "%.*sll%c", n, fmt, conv);
            fprintf(f, ll, (long long)d);
        } else if (json_is_integer(v)) fprintf(f, "%lld", (long long)json_integer_value(v));
        else fprintf(f, "%g", d);
    } else if (json_is_string(v)) fprintf(f, conv == 's' ? fmt : "%s", json_string_value(v));
    else if (json_is_boolean(v)) fputs(json_is_true(v) ? "true" : "false", f);
    else if (json_is_null(v)) fputs("null", f);
    else fputs("{...}", f);
}

int report_printf(FILE *f, const json_t *o, const char *tmpl)
{
    int missing = 0;
    for (const char *p = tmpl; *p; p++) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            fputc(*p++, f);
            continue;
        }
        const char *end = p[0] == '{' ? strchr(p, '}') : NULL;
        if (!end || end - p > 200) {
            fputc(*p, f);
            continue;
        }
        char spec[208], *fmt;
        memcpy(spec, p + 1, (size_t)(end - p - 1));
        spec[end - p - 1] = 0;
        fmt = strchr(spec, ':');
        if (fmt) *fmt++ = 0;
        const json_t *v = report_get(o, spec);
        if (v) put_value(f, v, fmt ? fmt : "");
        else {
            fprintf(f, "{?%s}", spec);
            missing++;
        }
        p = end;
    }
    return missing;
}
