/* sweep_spec.c - the reader of sweep specs (sweep_spec.h): pure, no process,
 * no file, no exit; every problem is one line in *err. */
#include "cmd/sweep_spec.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/suggest.h"
#include "util/usage.h"

static const char *const commands[] = {"traffic", "run", "collective", "sched", "qcdoc", "ncmodel", NULL};
/* options a spec may not set: sweep gives --json itself, and a window has
 * no place in a batch.  The options that write files (usage_writes:
 * the command's --help says so) are refused too, derived from the help
 * (sweep_help_options' "!name" entries): a spec is a file users share, and
 * only the command line chooses where xnoc writes. */
static const char *const refused[] = {"json", "help", "view", NULL};

typedef struct {
    const char *text;
    size_t len;
} token;

typedef struct {
    token *num; /* the number tokens of the text, in order */
    size_t nnum, next;
    json_t *texts; /* "%p" of a number value -> its text */
    char *err;
} reader;

/* a name or string shown in a message: at most 40 bytes, printable */
static char *shown(const char *s)
{
    size_t n = strlen(s), k = n > 40 ? 40 : n;
    char *o = xmalloc(k + 4);
    for (size_t i = 0; i < k; i++) o[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    strcpy(o + k, n > k ? "..." : "");
    return o;
}

static int has_ctrl(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return 1;
    return 0;
}

static int in_list(const char *const *l, const char *s)
{
    for (; l && *l; l++)
        if (!strcmp(*l, s)) return 1;
    return 0;
}

void sweep_strv_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++) free(v[i]);
    free(v);
}

static void fail(reader *r, const char *fmt, const char *a, const char *b)
{
    if (r->err) return;
    char *sa = a ? shown(a) : NULL, *sb = b ? shown(b) : NULL;
    r->err = xasprintf(fmt, sa ? sa : "", sb ? sb : "");
    free(sa);
    free(sb);
}

/* The number tokens of (valid) JSON text, in document order. */
static void scan_numbers(reader *r, const char *t, size_t n)
{
    size_t cap = 0;
    for (size_t i = 0; i < n;) {
        char c = t[i];
        if (c == '"') {
            for (i++; i < n && t[i] != '"'; i++)
                if (t[i] == '\\') i++;
            i++;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t j = i;
            while (j < n && t[j] && strchr("+-.eE0123456789", t[j])) j++;
            if (r->nnum == cap) r->num = xrealloc(r->num, (cap = cap ? 2 * cap : 16) * sizeof *r->num);
            r->num[r->nnum++] = (token){t + i, j - i};
            i = j;
        } else i++;
    }
}

/* Walks the parsed tree in document order (jansson keeps the order of an
 * object's keys; duplicate keys are refused), pairing each number with its
 * token and checking that the token reads back as the same value. */
static void pair_numbers(reader *r, json_t *v)
{
    if (r->err) return;
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        SWEEP_OBJ_EACH(v, k, x)
        {
            (void)k;
            pair_numbers(r, x);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        SWEEP_ARR_EACH(v, i, x) pair_numbers(r, x);
    } else if (json_is_number(v)) {
        if (r->next >= r->nnum) {
            r->err = xasprintf("the numbers of the spec cannot be read back as written");
            return;
        }
        token tk = r->num[r->next++];
        char *s = xmalloc(tk.len + 1), *end;
        memcpy(s, tk.text, tk.len);
        s[tk.len] = 0;
        int same = json_is_integer(v) ? (strtoll(s, &end, 10) == json_integer_value(v))
                                      : (strtod(s, &end) == json_real_value(v));
        if (!same || *end) {
            r->err = xasprintf("the number %s cannot be read back as written", s);
            free(s);
            return;
        }
        char key[32];
        snprintf(key, sizeof key, "%p", (void *)v);
        json_object_set_new(r->texts, key, json_string(s));
        free(s);
    }
}

/* A number's word: the spec's text, or its exact decimal digits when the
 * value is a whole number written with a fraction or an exponent. */
static char *number_word(const char *t)
{
    if (!strpbrk(t, ".eE")) return xstrdup(t);
    int neg = t[0] == '-';
    const char *p = t + neg;
    size_t ni = strspn(p, "0123456789");
    const char *frac = p[ni] == '.' ? p + ni + 1 : p + ni;
    size_t nf = p[ni] == '.' ? strspn(frac, "0123456789") : 0;
    const char *e = frac + nf;
    long ex = 0;
    if (*e == 'e' || *e == 'E') ex = strtol(e + 1, NULL, 10);
    if (ex > 100 || ex < -1000) return xstrdup(t);
    size_t nd = ni + nf;
    char *d = xmalloc(nd + 1);
    memcpy(d, p, ni);
    memcpy(d + ni, frac, nf);
    d[nd] = 0;
    long point = (long)ni + ex; /* digits before the decimal point */
    for (long i = point < 0 ? 0 : point; i < (long)nd; i++)
        if (d[i] != '0') {
            free(d);
            return xstrdup(t); /* not a whole number: the text as written */
        }
    size_t nint = point <= 0 ? 0 : (size_t)point;
    char *o = xmalloc(nint + 3), *q = o;
    if (neg) *q++ = '-';
    int lead = 1;
    for (size_t i = 0; i < nint; i++) {
        char c = i < nd ? d[i] : '0';
        if (lead && c == '0') continue;
        lead = 0;
        *q++ = c;
    }
    if (lead) q = o, *q++ = '0'; /* zero: no sign */
    *q = 0;
    free(d);
    return o;
}

static char *id_part(const char *cell)
{
    char *o = xstrdup(cell);
    for (char *c = o; *c; c++)
        if (!isalnum((unsigned char)*c) || (unsigned char)*c >= 0x80)
            if (*c != '.' && *c != '-') *c = '_';
    return o;
}

static void val_free(sweep_val *v)
{
    free(v->word);
    free(v->cell);
    free(v->idpart);
}

static void make_val(reader *r, sweep_val *o, json_t *v, const char *name)
{
    memset(o, 0, sizeof *o);
    o->json = v;
    if (json_is_true(v)) o->flag = 1, o->cell = xstrdup("true");
    else if (json_is_false(v)) o->omit = 1, o->cell = xstrdup("false");
    else if (json_is_null(v)) o->omit = 1, o->cell = xstrdup("null");
    else if (json_is_string(v)) {
        if (strlen(json_string_value(v)) != json_string_length(v) || has_ctrl(json_string_value(v)))
            fail(r, "a value of '%s' has a control character", name, NULL);
        o->word = xstrdup(json_string_value(v));
    } else if (json_is_number(v)) {
        char key[32];
        snprintf(key, sizeof key, "%p", (void *)v);
        const char *t = json_string_value(json_object_get(r->texts, key));
        o->word = t ? number_word(t) : xstrdup("0");
    } else fail(r, "'%s': a value must be a string, a number, true, false or null", name, NULL);
    if (!o->cell) o->cell = xstrdup(o->word ? o->word : "");
    o->idpart = id_part(o->cell);
}

/* opts (sweep_help_options) marks option k as writing files */
static int writer(const char *const *opts, const char *k)
{
    for (; *opts; opts++)
        if (opts[0][0] == '!' && !strcmp(opts[0] + 1, k)) return 1;
    return 0;
}

static void check_key(reader *r, const char *where, const char *k, const char *command, const char *const *opts)
{
    size_t n = strlen(k);
    int okname = n > 0 && n <= 64 && k[0] != '-' && strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
    char *msg;
    if (!okname)
        msg = xasprintf("%s: '%%s' is not an option name (at most 64 of a-z, 0-9, '-': it names files)", where);
    else if (in_list(refused, k)) msg = xasprintf("%s: '%%s' is set by sweep or opens a window: not in a sweep", where);
    else if (opts && writer(opts, k))
        msg = xasprintf("%s: '%%s' writes files: a sweep spec cannot choose where xnoc writes (not in a sweep)", where);
    else if (opts && !in_list(opts, k)) {
        size_t no = 0; /* the closest option name ("rat" -> "rate"); opts' "=key" entries are report keys */
        while (opts[no]) no++;
        const char **names = xcalloc(no + 1, sizeof *names);
        for (size_t i = 0; i < no; i++) names[i] = opts[i][0] == '=' || opts[i][0] == '!' ? NULL : opts[i];
        const char *near = suggest_pick(k, names, no);
        msg = xasprintf("%s: '%%s' is not an option of xnoc %s (%s%s%ssee xnoc %s --help)", where, command,
                        near ? "did you mean " : "", near ? near : "", near ? "? " : "", command);
        free(names);
    } else return;
    fail(r, msg, k, NULL);
    free(msg);
}

/* Metrics must be keys of the command's report when its --help lists them
 * (entries "=key" of opts, sweep_help_options): a typo would give a silent
 * empty column. */
static void check_metrics(reader *r, const sweep_spec *s, const char *const *opts)
{
    size_t nk = 0;
    for (size_t i = 0; opts && opts[i]; i++) nk += opts[i][0] == '=';
    if (!nk) return;
    const char **keys = xcalloc(nk, sizeof *keys);
    nk = 0;
    for (size_t i = 0; opts[i]; i++)
        if (opts[i][0] == '=') keys[nk++] = opts[i] + 1;
    for (size_t m = 0; m < s->nmetrics && !r->err; m++) {
        const char *k = s->metrics[m];
        size_t i = 0;
        while (i < nk && strcmp(keys[i], k)) i++;
        if (i < nk) continue;
        /* "area": true adds the synthesized figures to every point's report (sweep.c) */
        static const char *const area_keys[] = {"cells_per_router", "network_cells", "router_cells", "unit_cells"};
        int is_area = 0;
        for (size_t a = 0; s->area && a < sizeof area_keys / sizeof *area_keys; a++)
            is_area |= !strcmp(k, area_keys[a]);
        if (is_area) continue;
        /* the closest key within half the word's length ("thruput" is 3 from "throughput") */
        const char *near = NULL;
        int best = strlen(k) <= 64 ? (int)strlen(k) / 2 + 1 : 0;
        for (size_t j = 0; j < nk && best; j++) {
            int d = suggest_distance(k, keys[j]);
            if (d < best) best = d, near = keys[j];
        }
        char *msg = xasprintf("metrics: '%%s' is not a key of xnoc %s's report%s%s%s (see xnoc %s --help)", s->command,
                              near ? " (did you mean " : "", near ? near : "", near ? "?)" : "", s->command);
        fail(r, msg, k, NULL);
        free(msg);
    }
    free(keys);
}

static char *str_field(reader *r, json_t *v, const char *what)
{
    if (!json_is_string(v)) {
        fail(r, "%s must be a string", what, NULL);
        return NULL;
    }
    const char *s = json_string_value(v);
    if (strlen(s) != json_string_length(v) || has_ctrl(s) || strlen(s) > SWEEP_MAX_ID) {
        char *m = xasprintf("%s '%%s': at most %d characters, none a control character", what, SWEEP_MAX_ID);
        fail(r, m, s, NULL);
        free(m);
        return NULL;
    }
    return xstrdup(s);
}

static char **str_list(reader *r, json_t *v, const char *what, size_t *n, int need)
{
    if (json_is_string(v)) v = json_pack("[O]", v);
    else json_incref(v);
    *n = 0;
    if (!json_is_array(v) || (need && !json_array_size(v))) {
        fail(r, need ? "%s must be a non-empty list of strings" : "%s must be a list of strings", what, NULL);
        json_decref(v);
        return NULL;
    }
    char **o = xcalloc(json_array_size(v) + 1, sizeof *o);
    size_t i;
    json_t *x;
    SWEEP_ARR_EACH(v, i, x)
    {
        char *s = str_field(r, x, what);
        if (!s) break;
        o[(*n)++] = s;
    }
    json_decref(v);
    return o;
}

static void read_plot(reader *r, sweep_spec *s, json_t *p)
{
    if (!json_is_object(p)) {
        fail(r, "\"plot\" must be an object {\"x\": ..., \"y\": ..., \"series\": [...]}", NULL, NULL);
        return;
    }
    const char *k;
    json_t *v;
    SWEEP_OBJ_EACH(p, k, v)
    {
        (void)v;
        if (strcmp(k, "x") && strcmp(k, "y") && strcmp(k, "series") && strcmp(k, "reduce") && strcmp(k, "logx") &&
            strcmp(k, "logy"))
            fail(r, "plot: unknown key '%s' (x, y, series, reduce, logx, logy)", k, NULL);
    }
    if (!json_object_get(p, "x") || !json_object_get(p, "y"))
        fail(r, "\"plot\" needs {\"x\": AXIS, \"y\": METRIC or [METRICS], \"series\": [AXES]}", NULL, NULL);
    if (r->err) return;
    s->plot_x = str_field(r, json_object_get(p, "x"), "plot.x");
    s->plot_y = str_list(r, json_object_get(p, "y"), "plot.y", &s->nplot_y, 1);
    json_t *ser = json_object_get(p, "series");
    s->plot_series = ser ? str_list(r, ser, "plot.series", &s->nplot_series, 0) : xcalloc(1, sizeof(char *));
    for (size_t i = 0; i < s->nplot_series && !r->err; i++) {
        size_t a = 0;
        while (a < s->naxes && strcmp(s->axes[a].name, s->plot_series[i])) a++;
        if (a == s->naxes) fail(r, "plot.series: '%s' is not an axis", s->plot_series[i], NULL);
    }
    json_t *red = json_object_get(p, "reduce");
    if (red) {
        s->plot_reduce = str_field(r, red, "plot.reduce");
        if (s->plot_reduce && strcmp(s->plot_reduce, "max") && strcmp(s->plot_reduce, "min"))
            fail(r, "\"plot\": \"reduce\" must be \"max\" or \"min\", not '%s'", s->plot_reduce, NULL);
    }
    s->plot_logx = json_is_true(json_object_get(p, "logx"));
    s->plot_logy = json_is_true(json_object_get(p, "logy"));
}

static void read_axes(reader *r, sweep_spec *s, json_t *axes, const char *const *opts)
{
    s->axes = xcalloc(json_object_size(axes), sizeof *s->axes);
    s->npoints = 1;
    size_t idlen = 0, worst = 0, worstlen = 0;
    const char *k;
    json_t *v;
    SWEEP_OBJ_EACH(axes, k, v)
    {
        check_key(r, "axes", k, s->command, opts);
        if (json_object_get(json_object_get(s->root, "fixed"), k)) fail(r, "'%s' is both fixed and an axis", k, NULL);
        if (!json_is_array(v) || !json_array_size(v)) fail(r, "axis \"%s\" must be a non-empty list", k, NULL);
        if (r->err) return;
        sweep_opt *a = &s->axes[s->naxes++];
        a->name = xstrdup(k);
        a->v = xcalloc(json_array_size(v), sizeof *a->v);
        json_t *words = json_object(), *parts = json_object();
        size_t i, longest = 0;
        json_t *x;
        SWEEP_ARR_EACH(v, i, x)
        {
            sweep_val *o = &a->v[a->nv++];
            make_val(r, o, x, k);
            if (r->err) break;
            /* the same value twice (0.1 and 0.10, 1 and 1.0 are the same number) */
            char *wk = json_is_number(x) ? xasprintf("n%.17g", json_number_value(x))
                                         : xasprintf("%c%s",
                                                     o->flag   ? 't'
                                                     : o->omit ? 'o'
                                                               : 'w',
                                                     o->word ? o->word : "");
            if (json_object_get(words, wk)) fail(r, "axis '%s' lists '%s' twice", k, o->cell);
            json_object_set_new(words, wk, json_true());
            free(wk);
            /* parts equal once sanitized: "~2", "~3", ... (no part has a '~') */
            json_t *seen = json_object_get(parts, o->idpart);
            if (seen) {
                json_int_t c = json_integer_value(seen) + 1;
                json_integer_set(seen, c);
                char *p = xasprintf("%s~%lld", o->idpart, (long long)c);
                free(o->idpart);
                o->idpart = p;
            } else json_object_set_new(parts, o->idpart, json_integer(1));
            if (strlen(o->idpart) > longest) longest = strlen(o->idpart);
        }
        json_decref(words);
        json_decref(parts);
        if (r->err) return;
        size_t l = strlen(k) + 1 + longest;
        idlen += l + (s->naxes > 1);
        if (l > worstlen) worstlen = l, worst = s->naxes - 1;
        s->npoints *= (long)a->nv;
        if (s->npoints > 1000000) fail(r, "more than a million points", NULL, NULL);
    }
    if (!r->err && idlen > SWEEP_MAX_ID) {
        char *m = xasprintf("point IDs (file names) would be up to %zu characters, at most %d: shorten the values of "
                            "axis '%%s'",
                            idlen, SWEEP_MAX_ID);
        fail(r, m, s->axes[worst].name, NULL);
        free(m);
    }
}

sweep_spec *sweep_spec_parse(const char *text, size_t n, const char *const *opts, char **err)
{
    reader r = {0};
    *err = NULL;
    json_error_t je;
    json_t *root = json_loadb(text, n, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        *err = xasprintf("%d: %s", je.line, je.text);
        for (char *c = *err; *c; c++) /* jansson quotes the text near the error: one line all the same */
            if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
        return NULL;
    }
    sweep_spec *s = xcalloc(1, sizeof *s);
    s->root = root;
    r.texts = json_object();
    scan_numbers(&r, text, n);
    pair_numbers(&r, root);
    if (!r.err && r.next != r.nnum) r.err = xasprintf("the numbers of the spec cannot be read back as written");
    if (!r.err && !json_is_object(root)) fail(&r, "a spec is an object {\"command\": ..., \"axes\": ...}", NULL, NULL);
    const char *k;
    json_t *v;
    if (!r.err) SWEEP_OBJ_EACH(root, k, v)
        {
            if (strcmp(k, "command") && strcmp(k, "fixed") && strcmp(k, "axes") && strcmp(k, "metrics") &&
                strcmp(k, "plot") && strcmp(k, "area"))
                fail(&r, "unknown key '%s' (command, fixed, axes, metrics, plot, area)", k, NULL);
        }
    const char *cmd = json_string_value(json_object_get(root, "command"));
    if (!r.err && (!cmd || !in_list(commands, cmd)))
        fail(&r, "\"command\" must be one of traffic, run, collective, sched, qcdoc, ncmodel", NULL, NULL);
    json_t *axes = json_object_get(root, "axes"), *fixed = json_object_get(root, "fixed"),
           *metrics = json_object_get(root, "metrics");
    if (!r.err && (!json_is_object(axes) || !json_object_size(axes)))
        fail(&r, "\"axes\" must be an object of value lists", NULL, NULL);
    if (!r.err && fixed && !json_is_object(fixed)) fail(&r, "\"fixed\" must be an object", NULL, NULL);
    if (!r.err && (!json_is_array(metrics) || !json_array_size(metrics)))
        fail(&r, "\"metrics\" must be a list of report keys", NULL, NULL);
    json_t *area = json_object_get(root, "area");
    if (!r.err && area && !json_is_boolean(area)) fail(&r, "\"area\" must be true or false", NULL, NULL);
    if (!r.err) {
        s->command = xstrdup(cmd);
        s->area = json_is_true(area);
        s->fixed = xcalloc(json_object_size(fixed) + 1, sizeof *s->fixed);
        SWEEP_OBJ_EACH(fixed, k, v)
        {
            check_key(&r, "fixed", k, cmd, opts);
            if (r.err) break;
            sweep_opt *f = &s->fixed[s->nfixed++];
            f->name = xstrdup(k);
            f->v = xcalloc(1, sizeof *f->v);
            f->nv = 1;
            make_val(&r, f->v, v, k);
            if (r.err) break;
        }
    }
    if (!r.err) read_axes(&r, s, axes, opts);
    if (!r.err) s->metrics = str_list(&r, metrics, "metrics", &s->nmetrics, 1);
    if (!r.err && json_object_get(root, "plot")) read_plot(&r, s, json_object_get(root, "plot"));
    if (!r.err) check_metrics(&r, s, opts);
    free(r.num);
    json_decref(r.texts);
    if (r.err) {
        *err = r.err;
        sweep_spec_free(s);
        return NULL;
    }
    return s;
}

void sweep_spec_free(sweep_spec *s)
{
    if (!s) return;
    for (int pass = 0; pass < 2; pass++) {
        sweep_opt *o = pass ? s->axes : s->fixed;
        size_t n = pass ? s->naxes : s->nfixed;
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < o[i].nv; j++) val_free(&o[i].v[j]);
            free(o[i].v);
            free(o[i].name);
        }
        free(o);
    }
    for (size_t i = 0; s->metrics && s->metrics[i]; i++) free(s->metrics[i]);
    free(s->metrics);
    sweep_strv_free(s->plot_y);
    sweep_strv_free(s->plot_series);
    free(s->plot_x);
    free(s->plot_reduce);
    free(s->command);
    json_decref(s->root);
    free(s);
}

char *sweep_spec_command(const char *text, size_t n)
{
    json_error_t je;
    json_t *root = json_loadb(text, n, 0, &je);
    const char *c = json_string_value(json_object_get(root, "command"));
    char *o = c && in_list(commands, c) ? xstrdup(c) : NULL;
    json_decref(root);
    return o;
}

/* o (NULL-terminated, n names, room for cap) with name added unless it is
 * there already (then name is freed) */
static char **add_name(char **o, size_t *n, size_t *cap, char *name)
{
    if (in_list((const char *const *)o, name)) {
        free(name);
        return o;
    }
    if (*n + 2 > *cap) o = xrealloc(o, (*cap *= 2) * sizeof *o);
    o[(*n)++] = name;
    o[*n] = NULL;
    return o;
}

char **sweep_help_options(const char *help)
{
    size_t n = 0, cap = 8;
    char **o = xcalloc(cap, sizeof *o);
    for (const char *p = help; (p = strstr(p, "--")); p += 2) {
        if (p > help && (isalnum((unsigned char)p[-1]) || p[-1] == '-')) continue;
        size_t l = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (!l || p[2] == '-') continue;
        char *name = xmalloc(l + 1);
        memcpy(name, p + 2, l);
        name[l] = 0;
        char *dash = xasprintf("--%s", name);
        if (usage_writes(help, dash)) o = add_name(o, &n, &cap, xasprintf("!%s", name));
        free(dash);
        o = add_name(o, &n, &cap, name);
    }
    /* the report keys, if the help lists them: a line "Report keys:", then
     * one line per key (its first word, [a-z0-9_]; a label may follow) up
     * to a blank line; entered as "=key" */
    const char *p = strstr(help, "\nReport keys:\n");
    if (p) p += strlen("\nReport keys:\n");
    while (p && *p && *p != '\n') {
        p += strspn(p, " \t");
        size_t l = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (l) {
            char *name = xmalloc(l + 2);
            name[0] = '=';
            memcpy(name + 1, p, l);
            name[l + 1] = 0;
            o = add_name(o, &n, &cap, name);
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return o;
}

char *sweep_point_id(const sweep_spec *s, const size_t *idx)
{
    size_t len = 1;
    for (size_t a = 0; a < s->naxes; a++) len += strlen(s->axes[a].name) + strlen(s->axes[a].v[idx[a]].idpart) + 2;
    char *o = xmalloc(len), *q = o;
    for (size_t a = 0; a < s->naxes; a++)
        q += sprintf(q, "%s%s=%s", a ? "," : "", s->axes[a].name, s->axes[a].v[idx[a]].idpart);
    *q = 0;
    return o;
}

char **sweep_point_words(const sweep_spec *s, const size_t *idx, size_t *nw)
{
    char **w = xcalloc(2 * (s->nfixed + s->naxes) + 1, sizeof *w);
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t cnt = pass ? s->naxes : s->nfixed;
        for (size_t i = 0; i < cnt; i++) {
            const sweep_opt *o = pass ? &s->axes[i] : &s->fixed[i];
            const sweep_val *v = &o->v[pass ? idx[i] : 0];
            if (v->omit) continue;
            w[n++] = xasprintf("--%s", o->name);
            if (!v->flag) w[n++] = xstrdup(v->word);
        }
    }
    *nw = n;
    return w;
}

int sweep_next(const sweep_spec *s, size_t *idx)
{
    for (size_t a = s->naxes; a-- > 0;) {
        if (++idx[a] < s->axes[a].nv) return 1;
        idx[a] = 0;
    }
    return 0;
}

char *sweep_sh_quote(const char *w)
{
    size_t n = strlen(w);
    if (n && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+%@-") == n)
        return xstrdup(w);
    char *o = xmalloc(4 * n + 3), *q = o;
    *q++ = '\'';
    for (; *w; w++) {
        if (*w == '\'') memcpy(q, "'\\''", 4), q += 4;
        else *q++ = *w;
    }
    *q++ = '\'';
    *q = 0;
    return o;
}
