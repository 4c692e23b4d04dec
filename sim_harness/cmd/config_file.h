/* config_file.h - `--config F`: a command's options from a file of
 * `key = value` lines (docs/usage.md, "Config files").
 *
 *     // BookSim-style comments, and shell-style ones
 *     topo    = mesh:8x8          # the command's long options, without "--"
 *     rate    = 0.3;              # a trailing ';' is allowed (BookSim writes one)
 *     json    = true              # a flag (only true or false); false leaves any option out
 *
 * The file's options come first and the command line's after them, so a
 * flag on the command line overrides the file (each option keeps its last
 * value; --router adds its parameters on top, as on the command line).
 * Keys are the command's long options ('_' may stand for '-': trace_window);
 * a dialect (a table the command passes, such as the BookSim2 vocabulary of
 * booksim_cfg.c) may translate foreign keys first.
 *
 * The file is untrusted input.  A missing file, a directory, a file over
 * 1 MiB, a line over CFG_MAX_LINE characters, control characters or bytes
 * that are not UTF-8 (binary data), a line that is not `key = value`, an
 * unknown key (with a did-you-mean), a key set twice (unless the command
 * repeats that option, cfg_dialect.repeat): one line naming
 * FILE:LINE and the problem, exit 2.  A value the command refuses is named
 * the same way (FILE:LINE: before the command's own message). */
#ifndef XNOC_CONFIG_FILE_H
#define XNOC_CONFIG_FILE_H

#include <stddef.h>

#define CFG_MAX_LINE 1024
#define CFG_MAX_BYTES (1 << 20)

typedef struct {
    char *key;   /* option name without "--" (the file's key until translated) */
    char *value; /* NULL: a bare flag */
    char *orig;  /* the key as the file wrote it, for messages */
    int line;
} cfg_entry;

typedef struct {
    cfg_entry *v;
    size_t n, cap;
} cfg_entries;

/* What a file is refused for: every problem is collected, so that one run
 * lists them all (each with its line).  ignorable: a foreign key with no
 * meaning here, which lenient reading (--config-lenient) drops with one
 * warning instead: the group's reason, e.g. "BookSim2's router
 * microarchitecture: xnoc's router is its RTL". */
typedef struct {
    int line;
    char *msg;             /* heap */
    const char *ignorable; /* NULL, or the reason (static) */
    char *key;             /* ignorable: the key (heap) */
} cfg_problem;
typedef struct {
    cfg_problem *v;
    size_t n, cap;
    int lenient;  /* reading --config-lenient: the dialect may adapt values, noting each (cfg_note) */
    char **notes; /* what lenient reading changed ("num_vcs = 16 -> 8 (the flit's VC field)") */
    size_t nnotes;
} cfg_problems;
/* Adds a problem (msg: heap, taken) about line. */
void cfg_problem_add(cfg_problems *p, int line, char *msg);
/* Adds an ignorable key (its reason: static). */
void cfg_problem_ignorable(cfg_problems *p, int line, const char *key, const char *why);
/* Lenient reading: notes a value it adapted (msg: heap, taken). */
void cfg_note(cfg_problems *p, char *msg);

/* A foreign vocabulary.  translate() rewrites the entries it knows into the
 * command's options (adding, removing or merging entries), and adds a
 * problem for each it cannot; dir: the directory of the file (for files it
 * names).  keys: the foreign keys it knows (NULL-terminated), offered by the
 * did-you-mean; name: where they are listed, added to an unknown key's
 * message. */
typedef struct {
    const char *name;
    void (*translate)(cfg_entries *e, cfg_problems *p, const char *dir);
    const char *const *keys;
    /* the command's options that may be given several times (run's --arg):
     * the file may set them on several lines, each a word pair in order */
    const char *const *repeat;
} cfg_dialect;

/* Adds an entry (copies of the strings; value may be NULL). */
cfg_entry *cfg_add(cfg_entries *e, const char *key, const char *value, const char *orig, int line);
/* Removes entry i. */
void cfg_remove(cfg_entries *e, size_t i);
/* The index of the entry with this key, or -1. */
long cfg_find(const cfg_entries *e, const char *key);
void cfg_entries_free(cfg_entries *e);

/* Reads the text of a config file (n bytes, named path in messages) into
 * options of the command whose --help text is usage.  A pure function: no
 * file, no exit.  Returns NULL, or one line (heap) with *line the line it
 * is about: one problem "what" (*line its line), or several listed as
 * "N problems: PATH:L: what; PATH:L: what" (*line 0).  lenient: ignorable
 * keys are dropped and *warning (heap, else NULL) lists them and why. */
char *cfg_parse(const char *text, size_t n, const char *usage, const cfg_dialect *d, const char *path, int lenient,
                cfg_entries *out, int *line, char **warning);

/* If argv (argv[0] the command) has --config F (or --config-lenient F: F
 * read leniently, its one warning on stderr): a new argument vector,
 * argv[0], F's options as words, then the rest of argv without --config F;
 * *argc updated.  Without --config: argv itself.  Bad input ends the command
 * (exit 2) with one line naming F:LINE.  The vector stays valid (and
 * reachable) until the process ends. */
char **cmd_config_expand(int *argc, char **argv, const char *usage, const cfg_dialect *d);

#endif
