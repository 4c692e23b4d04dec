/* sweep_spec.h - the reader of `xnoc sweep` specs (docs/sweeps.md): a pure
 * function from the spec's bytes to a checked grid, or one line saying what
 * is wrong.  It starts no process, touches no file and never exits (the
 * fuzz target tests/fuzz/fuzz_spec.c drives it); the runner (sweep.c,
 * sweep_run.c) does the rest.
 *
 * A spec is data: every option becomes argument-vector words ("--name",
 * "value"), never shell text.  What it checks:
 *   - keys (fixed and axes) are option names ([a-z0-9-], at most 64
 *     characters) the command takes (the caller passes them: the names of
 *     `xnoc COMMAND --help`, sweep_help_options), not one sweep sets itself
 *     (--json) or one that writes files where the spec says (--trace, ...);
 *   - values are strings, numbers or true/false/null; numbers keep the text
 *     the spec wrote them with (0.1 stays "0.1", 1e-7 stays "1e-7"); a number
 *     whose value is a whole number (1e7, 2.5e3, 4.0) is given as its exact
 *     decimal digits ("10000000"), so integer options accept it and real
 *     options read the same value;
 *   - point IDs (file names) are unique and fit in a file name: each value's
 *     ID part keeps [A-Za-z0-9.-] and turns the rest into '_'; two values of
 *     an axis whose parts would be equal get "~2", "~3", ... (a character no
 *     part has), a value listed twice is refused;
 *   - plot strings go into gnuplot: no control characters in them. */
#ifndef XNOC_SWEEP_SPEC_H
#define XNOC_SWEEP_SPEC_H

#include <jansson.h>
#include <stddef.h>

/* jansson's json_object_foreach and json_array_foreach, spelled out
 * (cppcheck, in make lint, does not read jansson.h) */
#define SWEEP_OBJ_EACH(obj, key, val)                                                                                  \
    for (void *it_ = json_object_iter(obj);                                                                            \
         it_ && ((key) = json_object_iter_key(it_), (val) = json_object_iter_value(it_), 1);                           \
         it_ = json_object_iter_next(obj, it_))
#define SWEEP_ARR_EACH(arr, i, val) for ((i) = 0; (i) < json_array_size(arr) && ((val) = json_array_get(arr, i)); (i)++)

typedef struct {
    char *word;   /* the option's value word (NULL: a bare flag, or left out) */
    int flag;     /* true: "--name" alone */
    int omit;     /* false / null: the option is not given */
    char *cell;   /* CSV cell / plot label text: word, "true" or "false" */
    char *idpart; /* its part of point IDs (unique within the axis) */
    json_t *json; /* the value, for results.jsonl (borrowed from root) */
} sweep_val;

typedef struct {
    char *name;
    sweep_val *v;
    size_t nv;
} sweep_opt; /* a fixed option (nv == 1) or an axis */

typedef struct {
    json_t *root;
    char *command;
    sweep_opt *fixed, *axes;
    size_t nfixed, naxes;
    long npoints;
    char **metrics;
    size_t nmetrics;
    int area; /* "area": true */
    /* "plot" (NULL x: none) */
    char *plot_x, **plot_y, **plot_series, *plot_reduce;
    size_t nplot_y, nplot_series;
    int plot_logx, plot_logy;
} sweep_spec;

/* Longest point ID: a file name (255) less ".json.tmp" and room to spare */
#define SWEEP_MAX_ID 200

/* Reads the spec text (n bytes).  opts: the command's option names
 * (without "--", NULL-terminated), or NULL to skip that check.  Returns the
 * spec, or NULL with *err set to one line (the caller frees it). */
sweep_spec *sweep_spec_parse(const char *text, size_t n, const char *const *opts, char **err);
void sweep_spec_free(sweep_spec *s);

/* The command of a spec without reading the rest (to ask it for its
 * options first); NULL if there is none.  The caller frees it. */
char *sweep_spec_command(const char *text, size_t n);

/* The option names ("--name") a command's --help text lists, NULL-terminated;
 * sweep_strv_free frees it.  If the help has a "Report keys:" section (a line
 * of its own, then one line per key up to a blank line: the key is the
 * line's first word, a label may follow), its keys follow as "=key"
 * entries, and sweep_spec_parse refuses a metric that is none of them.
 * An option that writes files (cmd_usage_writes) is also listed as
 * "!name", and sweep_spec_parse refuses it. */
char **sweep_help_options(const char *help);
void sweep_strv_free(char **v);

/* Point idx[] (one index per axis): its ID, and its argument words after
 * "xnoc COMMAND --json" (NULL-terminated; *nw words).  The caller frees
 * both (sweep_strv_free for the words: they are copies). */
char *sweep_point_id(const sweep_spec *s, const size_t *idx);
char **sweep_point_words(const sweep_spec *s, const size_t *idx, size_t *nw);
/* Next grid index (the last axis fastest); 0 after the last point. */
int sweep_next(const sweep_spec *s, size_t *idx);

/* A word shell-quoted for display (--dry-run, the job log); caller frees. */
char *sweep_sh_quote(const char *w);

#endif
