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

/* A foreign vocabulary.  translate() rewrites the entries it knows into the
 * command's options (adding, removing or merging entries); it returns NULL,
 * or a message (heap) with *line set to the line it is about.  keys: the
 * foreign keys it knows (NULL-terminated), offered by the did-you-mean;
 * name: where they are listed, added to an unknown key's message. */
typedef struct {
    const char *name;
    char *(*translate)(cfg_entries *e, int *line);
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

/* Reads the text of a config file (n bytes) into options of the command
 * whose --help text is usage.  A pure function: no file, no exit.  Returns
 * NULL, or one line (heap) with *line the line it is about (0: the file). */
char *cfg_parse(const char *text, size_t n, const char *usage, const cfg_dialect *d, cfg_entries *out, int *line);

/* If argv (argv[0] the command) has --config F: a new argument vector,
 * argv[0], F's options as words, then the rest of argv without --config F;
 * *argc updated.  Without --config: argv itself.  Bad input ends the command
 * (exit 2) with one line naming F:LINE.  The vector stays valid (and
 * reachable) until the process ends. */
char **cmd_config_expand(int *argc, char **argv, const char *usage, const cfg_dialect *d);

#endif
