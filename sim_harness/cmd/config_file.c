/* config_file.c - `--config F`: options from a file of key = value lines
 * (config_file.h). */
#include "cmd/config_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd_opts.h"
#include "util/usage.h"
#include "util/cli.h"
#include "util/suggest.h"

cfg_entry *cfg_add(cfg_entries *e, const char *key, const char *value, const char *orig, int line)
{
    if (e->n == e->cap) e->v = xrealloc(e->v, (e->cap = e->cap ? 2 * e->cap : 16) * sizeof *e->v);
    cfg_entry *x = &e->v[e->n++];
    x->key = xstrdup(key);
    x->value = value ? xstrdup(value) : NULL;
    x->orig = xstrdup(orig ? orig : key);
    x->line = line;
    return x;
}

static void entry_free(cfg_entry *x)
{
    free(x->key);
    free(x->value);
    free(x->orig);
}

void cfg_remove(cfg_entries *e, size_t i)
{
    entry_free(&e->v[i]);
    memmove(&e->v[i], &e->v[i + 1], (e->n - i - 1) * sizeof *e->v);
    e->n--;
}

long cfg_find(const cfg_entries *e, const char *key)
{
    for (size_t i = 0; i < e->n; i++)
        if (!strcmp(e->v[i].key, key)) return (long)i;
    return -1;
}

void cfg_entries_free(cfg_entries *e)
{
    for (size_t i = 0; i < e->n; i++) entry_free(&e->v[i]);
    free(e->v);
    memset(e, 0, sizeof *e);
}

void cfg_problem_add(cfg_problems *p, int line, char *msg)
{
    if (p->n == p->cap) p->v = xrealloc(p->v, (p->cap = p->cap ? 2 * p->cap : 8) * sizeof *p->v);
    p->v[p->n++] = (cfg_problem){line, msg, NULL, NULL};
}

void cfg_problem_ignorable(cfg_problems *p, int line, const char *key, const char *why)
{
    cfg_problem_add(p, line, NULL);
    p->v[p->n - 1].ignorable = why;
    p->v[p->n - 1].key = xstrdup(key);
}

void cfg_note(cfg_problems *p, char *msg)
{
    p->notes = xrealloc(p->notes, (p->nnotes + 1) * sizeof *p->notes);
    p->notes[p->nnotes++] = msg;
}

static void problems_free(cfg_problems *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].msg);
        free(p->v[i].key);
    }
    for (size_t i = 0; i < p->nnotes; i++) free(p->notes[i]);
    free(p->notes);
    free(p->v);
}

/* The ignorable keys grouped by reason, "PATH:L 'key', ...: why"
 * ("L 'key'" without a path), joined by sep; NULL if none. */
static char *ignorable_text(const cfg_problems *p, const char *path, const char *sep, const char *tail)
{
    char *out = NULL;
    for (size_t i = 0; i < p->n; i++) {
        const char *why = p->v[i].ignorable;
        int first = 1;
        for (size_t j = 0; j < i && first; j++) first = p->v[j].ignorable != why;
        if (!why || !first) continue; /* each reason once, with all its keys */
        char *keys = NULL;
        for (size_t j = i; j < p->n; j++) {
            if (p->v[j].ignorable != why) continue;
            char *k =
                path ? xasprintf("%s%s%s:%d '%s'", keys ? keys : "", keys ? ", " : "", path, p->v[j].line, p->v[j].key)
                     : xasprintf("%s%s'%s' (line %d)", keys ? keys : "", keys ? ", " : "", p->v[j].key, p->v[j].line);
            free(keys);
            keys = k;
        }
        char *o = xasprintf("%s%s%s: %s%s", out ? out : "", out ? sep : "", keys, why, tail);
        free(out);
        free(keys);
        out = o;
    }
    return out;
}

/* the length of the UTF-8 sequence at p (at most n bytes), 0 if it is not one */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    size_t l = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!l || l > n || (l == 2 && p[0] < 0xc2)) return 0;
    for (size_t i = 1; i < l; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    return l;
}

/* "xyz..." for a message: at most 40 characters of s */
static char *quote_part(const char *s, size_t n)
{
    return n > 40 ? xasprintf("%.40s...", s) : xasprintf("%.*s", (int)n, s);
}

static int key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static char *parse_assign(const char *s, size_t n, int lineno, cfg_entries *e);

/* one line [s, s+n) (no '\n') into e; NULL or a message */
static char *parse_line(const char *s, size_t n, int lineno, cfg_entries *e)
{
    if (n > CFG_MAX_LINE) return xasprintf("line longer than %d characters", CFG_MAX_LINE);
    if (n && s[n - 1] == '\r') n--; /* a DOS line end */
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t l = utf8_len((const unsigned char *)s + i, n - i);
        if ((c < 0x20 && c != '\t') || c == 0x7f || !l)
            return xasprintf("binary data (byte 0x%02x in column %zu): not a text file of key = value lines", c, i + 1);
        i += l;
    }
    /* comments: // or # at the start or after a blank (a value may hold them: a//b) */
    for (size_t i = 0; i < n; i++)
        if ((s[i] == '#' || (s[i] == '/' && i + 1 < n && s[i + 1] == '/')) &&
            (!i || s[i - 1] == ' ' || s[i - 1] == '\t')) {
            n = i;
            break;
        }
    /* BookSim ends its assignments with ';', and may put several on a line */
    for (const char *semi; (semi = memchr(s, ';', n));) {
        char *m = parse_assign(s, (size_t)(semi - s), lineno, e);
        if (m) return m;
        n -= (size_t)(semi + 1 - s);
        s = semi + 1;
    }
    return parse_assign(s, n, lineno, e);
}

/* one assignment "key = value" (blanks around; empty: nothing) */
static char *parse_assign(const char *s, size_t n, int lineno, cfg_entries *e)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    if (!n) return NULL;
    const char *eq = memchr(s, '=', n);
    if (!eq) {
        char *q = quote_part(s, n), *m = xasprintf("expected key = value, found '%s'", q);
        free(q);
        return m;
    }
    size_t kl = (size_t)(eq - s);
    while (kl && (s[kl - 1] == ' ' || s[kl - 1] == '\t')) kl--;
    size_t ok = 0;
    while (ok < kl && key_char(s[ok])) ok++;
    if (!kl || ok < kl || kl > 64) {
        char *q = quote_part(s, kl), *m = xasprintf("bad key '%s' (an option name: letters, digits, '-' or '_', at "
                                                    "most 64)",
                                                    q);
        free(q);
        return m;
    }
    const char *v = eq + 1;
    size_t vl = n - (size_t)(v - s);
    while (vl && (*v == ' ' || *v == '\t')) v++, vl--;
    if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') v++, vl -= 2; /* "quoted" */
    char *key = xasprintf("%.*s", (int)kl, s);
    if (!vl) {
        char *m = xasprintf("'%s' has no value", key);
        free(key);
        return m;
    }
    char *val = xasprintf("%.*s", (int)vl, v);
    cfg_add(e, key, val, key, lineno);
    free(key);
    free(val);
    return NULL;
}

/* the closest of the usage's options and the dialect's keys to key */
static const char *near_key(const char *key, const char *usage, const cfg_dialect *d, char *buf, size_t len)
{
    char *dash = xasprintf("--%s", key);
    const char *o = suggest_option(dash, usage);
    free(dash);
    int best = o ? suggest_distance(key, o + 2) : 1 << 30;
    if (o) snprintf(buf, len, "%s", o + 2);
    size_t nk = 0;
    while (d && d->keys && d->keys[nk]) nk++;
    const char *f = nk ? suggest_pick(key, d->keys, nk) : NULL;
    if (f && suggest_distance(key, f) < best) snprintf(buf, len, "%s", f), best = 0;
    return o || f ? buf : NULL;
}

/* option key of usage is a flag: a line of the help starts with "--key"
 * and two blanks (the description's column) or nothing, not one blank and
 * a value word ("--rate R") */
static int usage_flag(const char *usage, const char *key)
{
    size_t l = strlen(key);
    for (const char *p = strstr(usage, "--"); p; p = strstr(p + 2, "--")) {
        const char *b = p;
        while (b > usage && b[-1] == ' ') b--;
        if ((b > usage && b[-1] != '\n') || strncmp(p + 2, key, l)) continue;
        const char *a = p + 2 + l;
        if (!*a || *a == '\n' || (a[0] == ' ' && (a[1] == ' ' || a[1] == '\n'))) return 1;
    }
    return 0;
}

/* the command may repeat option key (d->repeat) */
static int repeatable(const cfg_dialect *d, const char *key)
{
    for (size_t i = 0; d && d->repeat && d->repeat[i]; i++)
        if (!strcmp(d->repeat[i], key)) return 1;
    return 0;
}

/* entry i of e against the command's options: NULL, or why not (heap);
 * a flag's "true" becomes a bare flag */
static char *check_entry(cfg_entries *e, size_t i, const char *usage, const cfg_dialect *d)
{
    cfg_entry *x = &e->v[i];
    if (!strcmp(x->key, "config") || !strcmp(x->key, "config-lenient"))
        return xasprintf("'%s': a config file cannot include another", x->orig);
    if (!strcmp(x->key, "help")) return xasprintf("'%s' is not an option a config file can set", x->orig);
    char *dash = xasprintf("--%s", x->key);
    int known = usage && cmd_usage_names(usage, dash), writes = known && usage_writes(usage, dash);
    free(dash);
    if (!known) {
        char buf[80];
        const char *near = usage ? near_key(x->orig, usage, d, buf, sizeof buf) : NULL;
        return xasprintf("unknown key '%s' (%s%s%ssee xnoc %s --help%s%s)", x->orig, near ? "did you mean " : "",
                         near ? near : "", near ? "? " : "", *cli_cmd ? cli_cmd : "COMMAND", d && d->name ? "; " : "",
                         d && d->name ? d->name : "");
    }
    /* true gives a flag (its help line has no value word); false leaves any option out (as in sweep specs) */
    int flag = usage_flag(usage, x->key), yes = !x->value || !strcmp(x->value, "true"),
        no = x->value && !strcmp(x->value, "false");
    if (flag && !yes && !no) return xasprintf("'%s' is a flag: true or false, not '%s'", x->orig, x->value);
    if (!flag && !x->value) return xasprintf("'%s' needs a value", x->orig);
    if (!flag && yes && x->value)
        return xasprintf("'%s' takes a value, not %s (see xnoc %s --help)", x->orig, x->value,
                         *cli_cmd ? cli_cmd : "COMMAND");
    if (writes && !no) /* a file users share must not choose where xnoc writes */
        return xasprintf("'%s' writes files: a config file cannot choose where xnoc writes (give --%s on the "
                         "command line)",
                         x->orig, x->key);
    if (yes) {
        free(x->value);
        x->value = NULL;
    }
    if (no) return NULL;
    for (size_t j = 0; j < i && !repeatable(d, x->key); j++) /* a translated key and the option itself */
        if (!strcmp(e->v[j].key, x->key))
            return xasprintf("'%s' sets --%s, which line %d ('%s') already set", x->orig, x->key, e->v[j].line,
                             e->v[j].orig);
    return NULL;
}

/* The problems as one line (NULL if none), *line as cfg_parse says;
 * lenient: the ignorable ones into *warning instead. */
static char *problems_text(cfg_problems *p, const char *path, int lenient, int *line, char **warning)
{
    size_t hard = 0, first = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!p->v[i].ignorable || !lenient) {
            if (!hard++) first = i;
        }
    if (lenient && (hard < p->n || p->nnotes)) {
        char *ign = ignorable_text(p, NULL, "; ", "");
        char *w = xasprintf("%s%s", ign ? "ignores " : "", ign ? ign : "");
        for (size_t i = 0; i < p->nnotes; i++) {
            char *x = xasprintf("%s%s%s", w, *w ? "; " : "", p->notes[i]);
            free(w);
            w = x;
        }
        free(ign);
        *warning = w;
    }
    if (!hard) return NULL;
    if (hard == 1) { /* one problem: "what", on its line */
        *line = p->v[first].line;
        if (p->v[first].ignorable)
            return xasprintf("'%s': %s (--config-lenient ignores it)", p->v[first].key, p->v[first].ignorable);
        return xstrdup(p->v[first].msg);
    }
    /* the ignorable ones grouped by reason, then the others in line order */
    char *out = ignorable_text(p, path, "; ", " (--config-lenient ignores them)");
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].ignorable) continue;
        char *o = xasprintf("%s%s%s:%d: %s", out ? out : "", out ? "; " : "", path ? path : "line", p->v[i].line,
                            p->v[i].msg);
        free(out);
        out = o;
    }
    char *all = xasprintf("%zu problem%s: %s", hard, hard > 1 ? "s" : "", out);
    free(out);
    *line = 0;
    return all;
}

char *cfg_parse(const char *text, size_t n, const char *usage, const cfg_dialect *d, const char *path, int lenient,
                cfg_entries *out, int *line, char **warning)
{
    memset(out, 0, sizeof *out);
    *line = 0;
    *warning = NULL;
    cfg_problems pr = {.lenient = lenient};
    int lineno = 0;
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(text + at, '\n', n - at);
        size_t l = nl ? (size_t)(nl - (text + at)) : n - at;
        char *m = parse_line(text + at, l, ++lineno, out);
        if (m) {
            int binary = !strncmp(m, "binary data", 11);
            cfg_problem_add(&pr, lineno, m);
            if (binary) break; /* not a text file: nothing more to say about its lines */
        }
        at += l + 1;
    }
    /* a key twice is a mistake whichever value was meant */
    for (size_t i = 0; i < out->n; i++)
        for (size_t j = 0; j < i && !repeatable(d, out->v[i].key); j++)
            if (!strcmp(out->v[i].key, out->v[j].key)) {
                cfg_problem_add(&pr, out->v[i].line,
                                xasprintf("'%s' set twice (first on line %d)", out->v[i].key, out->v[j].line));
                cfg_remove(out, i--);
                break;
            }
    if (d && d->translate) {
        char *dir = NULL;
        const char *slash = path ? strrchr(path, '/') : NULL;
        dir = slash ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");
        d->translate(out, &pr, dir);
        free(dir);
    }
    for (size_t i = 0; i < out->n; i++) {
        cfg_entry *x = &out->v[i];
        for (char *p = x->key; *p; p++)
            if (*p == '_') *p = '-';
        int refused = 0; /* the dialect refused its line already */
        for (size_t j = 0; j < pr.n && !refused; j++) refused = pr.v[j].line == x->line && !pr.v[j].ignorable;
        if (refused) {
            cfg_remove(out, i--);
            continue;
        }
        char *m = check_entry(out, i, usage, d);
        if (m) {
            cfg_problem_add(&pr, x->line, m);
            cfg_remove(out, i--);
        } else if (x->value && !strcmp(x->value, "false")) cfg_remove(out, i--);
    }
    char *m = problems_text(&pr, path, lenient, line, warning);
    problems_free(&pr);
    return m;
}

/* the file's entries and where the command line starts, for cfg_fail_hook */
static const char *cfg_path;
static cfg_entries cfg_have;
static char **cfg_argv, **cfg_words;
static int cfg_argc, cfg_nfile;

/* does word w of argv (after the file's words) name option key? */
static int overridden(const char *key)
{
    for (int i = 1 + cfg_nfile; i < cfg_argc; i++)
        if (!strncmp(cfg_argv[i], "--", 2) && !strcmp(cfg_argv[i] + 2, key)) return 1;
    return 0;
}

/* a character of a name: an option's, a value's (reduce-bcast, sum64) */
static int name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'; }

/* s contains w as a word of its own: not inside a longer name (the value
 * bcast is not the one in reduce-bcast) */
static int names_value(const char *s, const char *w)
{
    size_t l = strlen(w);
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
        if (!(p > s && name_char(p[-1])) && !name_char(p[l])) return 1;
    return 0;
}

/* s contains "--key" as a whole word */
static int names_option(const char *s, const char *key)
{
    char *dash = xasprintf("--%s", key);
    int r = names_value(s, dash);
    free(dash);
    return r;
}

/* A usage error about an option the file set (its name, or its value, in
 * the message) names the file's line first. */
static void cfg_fail_hook(int code, char *msg)
{
    const cfg_entry *at = NULL;
    /* the value first (of two --router lines, the one whose value is named), then the option's name */
    for (int pass = 0; pass < 2 && !at && code == EXIT_USAGE && msg; pass++)
        for (size_t i = 0; i < cfg_have.n && !at; i++) {
            const cfg_entry *x = &cfg_have.v[i];
            if (overridden(x->key)) continue;
            if (!pass ? x->value && strlen(x->value) >= 2 && names_value(msg, x->value) : names_option(msg, x->key))
                at = x;
        }
    cli_progress_done();
    fflush(stdout);
    if (at) fprintf(stderr, "xnoc %s: %s:%d: %s\n", cli_cmd, cfg_path, at->line, msg ? msg : "error");
    else fprintf(stderr, "xnoc %s: %s\n", cli_cmd, msg ? msg : "error");
    free(msg);
    exit(code);
}

char **cmd_config_expand(int *argc, char **argv, const char *usage, const cfg_dialect *d)
{
    int at = -1, lenient = 0;
    for (int i = 1; i < *argc; i++)
        if (!strcmp(argv[i], "--config") || !strcmp(argv[i], "--config-lenient")) {
            if (at >= 0) cli_fail(EXIT_USAGE, "--config given twice (one file; the command line overrides it)");
            if (i + 1 >= *argc)
                cli_fail(EXIT_USAGE, "option '%s' needs a value (see xnoc %s --help)", argv[i], cli_cmd);
            lenient = !strcmp(argv[i], "--config-lenient");
            at = i++;
        }
    if (at < 0) return argv;
    const char *path = argv[at + 1];
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f) cli_fail(EXIT_USAGE, "--config %s: %s", path, strerror(errno));
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
        cli_fail(EXIT_USAGE, "--config %s: is a directory, not a file of key = value lines", path);
    char *text = xmalloc(CFG_MAX_BYTES + 1);
    size_t n = fread(text, 1, CFG_MAX_BYTES + 1, f);
    int rerr = ferror(f) ? errno : 0;
    fclose(f);
    if (rerr) cli_fail(EXIT_USAGE, "--config %s: %s", path, strerror(rerr));
    if (n > CFG_MAX_BYTES)
        cli_fail(EXIT_USAGE, "--config %s: larger than %d bytes: not a config file", path, CFG_MAX_BYTES);
    int line;
    char *warning;
    char *err = cfg_parse(text, n, usage, d, path, lenient, &cfg_have, &line, &warning);
    free(text);
    if (warning && !err) cli_error("warning: --config-lenient %s: %s", path, warning);
    free(warning);
    if (err) {
        if (line) cli_fail(EXIT_USAGE, "%s:%d: %s", path, line, err);
        cli_fail(EXIT_USAGE, "%s: %s", path, err);
    }
    /* argv[0], the file's words, the command line's */
    size_t nw = 0;
    for (size_t i = 0; i < cfg_have.n; i++) nw += 1 + (cfg_have.v[i].value != NULL);
    cfg_words = xcalloc(nw + 1, sizeof *cfg_words);
    char **out = xcalloc((size_t)*argc + nw + 1, sizeof *out);
    int k = 0;
    out[k++] = argv[0];
    nw = 0;
    for (size_t i = 0; i < cfg_have.n; i++) {
        out[k++] = cfg_words[nw++] = xasprintf("--%s", cfg_have.v[i].key);
        if (cfg_have.v[i].value) out[k++] = cfg_have.v[i].value;
    }
    cfg_nfile = k - 1;
    for (int i = 1; i < *argc; i++)
        if (i != at && i != at + 1) out[k++] = argv[i];
    out[k] = NULL;
    *argc = k;
    cfg_path = path;
    cfg_argv = out;
    cfg_argc = k;
    if (!cli_fail_hook) cli_fail_hook = cfg_fail_hook;
    return out;
}
