/* dedupe.c - one copy of each of a verilated model's per-module functions.
 *
 * Verilator 5.006 shares a module's code among its instances (-fno-gate,
 * no_inline_module: one C++ class for all routers), but its scheduler emits
 * a module's evaluation function once per group of instances it orders
 * together, and does not merge the copies: with coding units, an 8x8 mesh's
 * router gets three copies of its ~20 KB sequential function
 * (corner, edge and inner routers), which the 64 routers then take turns
 * through - an instruction-cache miss stream that costs 4% of the run.
 *
 * This pass, run on the generated C++ before it is compiled, finds functions
 * of one class whose definitions are identical up to their own name and
 * points every call at the first.  "Identical" allows the orders the
 * scheduler varies for routers with different neighbours, and nothing that
 * could change what a function computes: a simple copy ("vlSelf->a =
 * vlSelf->b;" or "= LITERAL;") may stand anywhere among the statements of
 * its block that do not name a or b (it is moved up past them before the
 * copies are compared), and a run of independent simple copies (no target
 * written twice or read within the run) may come in any order (it is
 * sorted).  The other copies stay defined, uncalled.  Anything it does not
 * recognise it leaves alone. */
#include "net/netbuild.h"

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/fnv.h"

typedef struct {
    char name[256];   /* Vclass___what__TOP__..., the function's name */
    const char *body; /* its definition, from the name on, to the closing "\n}\n" */
    size_t len;
    char *norm;    /* normalized (below), computed once */
    uint64_t hash; /* of norm */
} fn_def;

typedef struct {
    char *path;
    char *text;
    size_t len;
} src_file;

/* The class of a function name: up to its "___" (Verilator's separator). */
static size_t class_len(const char *name)
{
    const char *p = strstr(name, "___");
    return p ? (size_t)(p - name) : 0;
}

/* A line "vlSelf->X = vlSelf->Y;" or "vlSelf->X = LITERAL;": its X (and Y,
 * "" for a literal) into lhs/rhs; 0 for any other line. */
static int simple_copy(const char *line, char *lhs, char *rhs, size_t n)
{
    const char *p = line;
    while (*p == ' ') p++;
    if (strncmp(p, "vlSelf->", 8)) return 0;
    p += 8;
    size_t i = 0;
    while ((isalnum((unsigned char)*p) || *p == '_') && i + 1 < n) lhs[i++] = *p++;
    lhs[i] = 0;
    if (!i || strncmp(p, " = ", 3)) return 0;
    p += 3;
    i = 0;
    if (!strncmp(p, "vlSelf->", 8)) {
        p += 8;
        while ((isalnum((unsigned char)*p) || *p == '_') && i + 1 < n) rhs[i++] = *p++;
        if (!i) return 0;
    } else {
        if (!isdigit((unsigned char)*p)) return 0;
        while (isalnum((unsigned char)*p)) p++; /* 0U, 0x1fULL */
    }
    rhs[i] = 0;
    return !strcmp(p, ";");
}

static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Orders a run of simple copies that are independent of each other (no
 * target written twice or read by another copy of the run): any order of
 * them computes the same, so sorted they compare equal however Verilator's
 * scheduler happened to order them. */
static void sort_run(char **line, int n)
{
    char(*lhs)[128] = xcalloc((size_t)n, sizeof *lhs), (*rhs)[128] = xcalloc((size_t)n, sizeof *rhs);
    int ok = 1;
    for (int i = 0; i < n; i++) simple_copy(line[i], lhs[i], rhs[i], sizeof lhs[i]);
    for (int i = 0; ok && i < n; i++)
        for (int j = 0; ok && j < n; j++)
            if (i != j && (!strcmp(lhs[i], lhs[j]) || !strcmp(lhs[i], rhs[j]))) ok = 0;
    if (ok) qsort(line, (size_t)n, sizeof *line, cmp_line);
    free(lhs);
    free(rhs);
}

/* The last character of a line that is not a blank; 0 for a blank line. */
static char last_char(const char *l)
{
    size_t n = strlen(l);
    while (n && isspace((unsigned char)l[n - 1])) n--;
    return n ? l[n - 1] : 0;
}

static int is_comment(const char *l)
{
    while (*l == ' ') l++;
    return !strncmp(l, "//", 2);
}

/* The first line of the statement that ends at line e: a statement ending
 * in ';' (with its continuation lines), or a braced statement ending in '}'
 * (its whole if / else chain); -1 if line e opens a block or is not the end
 * of a statement. */
static int stmt_start(char **line, int e)
{
    char c = last_char(line[e]);
    int o = e;
    if (is_comment(line[e])) return e;
    if (c == '}') {
        int depth = 0;
        for (o = e; o >= 0; o--) {
            for (const char *p = line[o]; *p; p++) depth += (*p == '}') - (*p == '{');
            if (depth == 0) break;
        }
        if (o < 0) return -1;
    } else if (c != ';') return -1;
    while (o > 0 && !is_comment(line[o - 1]) && !strchr(";{}", last_char(line[o - 1]))) o--;
    return o;
}

/* Whether lines s..e name the identifier id (as a whole word), call a
 * function on the instance or reach other instances: a simple copy of id
 * may not cross them. */
static int names_any(char **line, int s, int e, const char *id)
{
    size_t l = strlen(id);
    for (int k = s; k <= e; k++) {
        if (strstr(line[k], "vlSymsp") || strstr(line[k], "(vlSelf)")) return 1;
        for (const char *p = line[k]; l && (p = strstr(p, id)); p += l) {
            int before = p > line[k] && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
            int after = isalnum((unsigned char)p[l]) || p[l] == '_';
            if (!before && !after) return 1;
        }
    }
    return 0;
}

/* Moves every simple copy up past the statements before it in its block
 * that name neither its target nor its source (so either order computes
 * the same); a copy stops below the first statement that does, or at the
 * top of its block.  The moves are the same wherever Verilator's scheduler
 * happened to place the copy among independent statements. */
static void hoist_copies(char **line, int n)
{
    char x[128], y[128];
    for (int i = 0; i < n; i++) {
        /* a simple copy that starts a statement (not the tail of one) */
        if (!simple_copy(line[i], x, y, sizeof x) ||
            (i > 0 && stmt_start(line, i - 1) < 0 && last_char(line[i - 1]) != '{'))
            continue;
        int pos = i, crossed = 0;
        while (pos > 0 && crossed < 4000) { /* the cap bounds the pass's time on huge functions */
            int s = stmt_start(line, pos - 1);
            if (s < 0 || names_any(line, s, pos - 1, x) || (y[0] && names_any(line, s, pos - 1, y))) break;
            char *l = line[pos];
            memmove(line + s + 1, line + s, (size_t)(pos - s) * sizeof *line);
            line[s] = l;
            crossed += pos - s;
            pos = s;
        }
    }
}

/* The definition as lines, its own name replaced by "@", simple copies
 * moved up past independent statements and runs of independent simple
 * copies sorted; *n lines, one buffer (lines[0]). */
static char **normalize(const fn_def *d, int *n)
{
    size_t nl = strlen(d->name);
    char *t = xmalloc(d->len + 1), *o = t;
    for (size_t i = 0; i < d->len;) {
        if (i + nl <= d->len && !memcmp(d->body + i, d->name, nl)) {
            *o++ = '@';
            i += nl;
        } else *o++ = d->body[i++];
    }
    *o = 0;
    int cap = 64;
    char **line = xmalloc((size_t)cap * sizeof *line);
    *n = 0;
    for (char *p = t; p;) {
        if (*n == cap) line = xrealloc(line, (size_t)(cap *= 2) * sizeof *line);
        line[(*n)++] = p;
        p = strchr(p, '\n');
        if (p) *p++ = 0;
    }
    hoist_copies(line, *n);
    char a[128], b[128];
    for (int i = 0; i < *n;) {
        int j = i;
        while (j < *n && simple_copy(line[j], a, b, sizeof a)) j++;
        if (j - i > 1) sort_run(line + i, j - i);
        i = j > i ? j : i + 1;
    }
    return line;
}

/* The normalized definition as one string, and its hash (FNV-1a). */
static void prepare(fn_def *d)
{
    int n;
    char **line = normalize(d, &n);
    size_t len = 0;
    for (int i = 0; i < n; i++) len += strlen(line[i]) + 1;
    char *o = d->norm = xmalloc(len + 1);
    for (int i = 0; i < n; i++) {
        size_t l = strlen(line[i]);
        memcpy(o, line[i], l);
        o[l] = '\n';
        o += l + 1;
    }
    *o = 0;
    free(line[0]);
    free(line);
    d->hash = fnv1a_str(FNV1A_INIT, d->norm);
}

/* Two definitions are the same code if their normalized texts are equal. */
static int same_code(const fn_def *a, const fn_def *b) { return a->hash == b->hash && !strcmp(a->norm, b->norm); }

/* Function definitions of the hot per-module code: lines "VL_INLINE_OPT void
 * NAME(..." whose name has "__TOP__", each to its first "\n}\n". */
static int find_defs(src_file *f, fn_def **defs, int *n, int *cap)
{
    const char *key = "\nVL_INLINE_OPT void ";
    for (const char *p = strstr(f->text, key); p; p = strstr(p + 1, key)) {
        const char *nm = p + strlen(key), *paren = strchr(nm, '(');
        if (!paren || (size_t)(paren - nm) >= sizeof(*defs)->name) continue;
        const char *end = strstr(paren, "\n}\n");
        if (!end) continue;
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 64;
            *defs = xrealloc(*defs, (size_t)*cap * sizeof **defs);
        }
        fn_def *d = &(*defs)[(*n)++];
        memcpy(d->name, nm, (size_t)(paren - nm));
        d->name[paren - nm] = 0;
        d->body = nm;
        d->len = (size_t)(end + 3 - nm);
        /* per-module code only: the root's functions are per instance, never alike */
        if (!strstr(d->name, "__TOP__") || !class_len(d->name) || strstr(d->name, "___024root___")) (*n)--;
    }
    return 0;
}

/* Replaces every call "from((&" by "to((&" in f; returns the calls moved. */
static int redirect(src_file *f, const char *from, const char *to)
{
    char pat[300], rep[300];
    snprintf(pat, sizeof pat, "%s((&", from);
    snprintf(rep, sizeof rep, "%s((&", to);
    size_t lp = strlen(pat), lr = strlen(rep);
    int count = 0;
    for (char *p = strstr(f->text, pat); p; p = strstr(p + lp, pat)) count++;
    if (!count) return 0;
    char *out = xmalloc(f->len + (size_t)count * (lr > lp ? lr - lp : 0) + 1), *o = out;
    const char *s = f->text;
    for (const char *p = strstr(s, pat); p; p = strstr(s, pat)) {
        memcpy(o, s, (size_t)(p - s));
        o += p - s;
        memcpy(o, rep, lr);
        o += lr;
        s = p + lp;
    }
    size_t rest = strlen(s);
    memcpy(o, s, rest + 1);
    free(f->text);
    f->text = out;
    f->len = (size_t)(o - out) + rest;
    return count;
}

int netbuild_dedupe(const char *objdir, int *moved, char *err, size_t errlen)
{
    *moved = 0;
    DIR *d = opendir(objdir);
    if (!d) {
        snprintf(err, errlen, "cannot read the model's build directory %s", objdir);
        return -1;
    }
    src_file *files = NULL;
    int nf = 0, capf = 0, rc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".cpp")) continue;
        if (nf == capf) {
            capf = capf ? 2 * capf : 32;
            files = xrealloc(files, (size_t)capf * sizeof *files);
        }
        size_t pl = strlen(objdir) + l + 2;
        files[nf].path = xmalloc(pl);
        snprintf(files[nf].path, pl, "%s/%s", objdir, e->d_name);
        files[nf].text = cli_slurp(files[nf].path, &files[nf].len);
        if (!files[nf].text) {
            snprintf(err, errlen, "cannot read %s", files[nf].path);
            free(files[nf].path);
            rc = -1;
            break;
        }
        nf++;
    }
    closedir(d);
    fn_def *defs = NULL;
    int nd = 0, capd = 0;
    for (int i = 0; !rc && i < nf; i++) find_defs(&files[i], &defs, &nd, &capd);
    for (int i = 0; !rc && i < nd; i++) prepare(&defs[i]);
    /* the pairs (duplicate, first copy); found before any text changes, since defs point into it */
    char(*from)[256] = xcalloc((size_t)nd + 1, sizeof *from), (*to)[256] = xcalloc((size_t)nd + 1, sizeof *to);
    int np = 0;
    for (int i = 0; !rc && i < nd; i++) {
        size_t cl = class_len(defs[i].name);
        for (int j = 0; j < i; j++) {
            if (class_len(defs[j].name) != cl || strncmp(defs[i].name, defs[j].name, cl)) continue;
            if (!same_code(&defs[j], &defs[i])) continue;
            /* the first match is a first copy: a copy of a copy would have matched that one earlier */
            snprintf(from[np], sizeof from[np], "%s", defs[i].name);
            snprintf(to[np], sizeof to[np], "%s", defs[j].name);
            np++;
            break;
        }
    }
    for (int i = 0; !rc && i < nf; i++) {
        int n = 0;
        for (int k = 0; k < np; k++) n += redirect(&files[i], from[k], to[k]);
        if (!n) continue;
        *moved += n;
        FILE *f = fopen(files[i].path, "wb");
        int bad = !f || fwrite(files[i].text, 1, files[i].len, f) != files[i].len;
        if ((f && fclose(f)) || bad) {
            snprintf(err, errlen, "cannot write %s", files[i].path);
            rc = -1;
        }
    }
    for (int i = 0; i < nf; i++) {
        free(files[i].path);
        free(files[i].text);
    }
    free(files);
    for (int i = 0; i < nd; i++) free(defs[i].norm); /* all prepared: nd is 0 if a read failed */
    free(defs);
    free(from);
    free(to);
    return rc;
}
