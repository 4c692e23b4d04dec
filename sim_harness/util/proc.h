/* proc.h - programs run from argument vectors, never through a shell (no
 * path is ever parsed as shell words), and a tree removed without `rm -rf`:
 * the model builds (net/netbuild.c) and synthesis (cmd/synth.c) use them. */
#ifndef XNOC_PROC_H
#define XNOC_PROC_H

#include <stddef.h>

/* An argument vector being built: every word a heap copy, NULL-terminated. */
typedef struct {
    char **v;
    int n, cap;
} strv;

/* appends owned (a heap string) */
void strv_add(strv *a, char *owned);
/* appends each word of `words` (space-separated, none quoted) */
void strv_words(strv *a, const char *words);
/* frees a NULL-terminated vector of heap strings (v may be NULL) */
void strv_free(char **v);

/* Runs program argv[0] (found along PATH) with argv in folder cwd, its
 * output and errors appended to log.  With progress, a ticker names the step
 * (`what`) and the seconds since t0 meanwhile.  The program's exit status
 * (127: it could not be started, the reason in the log; 128+N: killed by
 * signal N). */
int proc_run_argv(char *const argv[], const char *cwd, const char *log, const char *what, int progress, double t0);
/* Runs the n (at most 8) programs cmds[i] at the same time and waits for all
 * of them: 0, or the first non-zero exit status in the order of cmds. */
int proc_run_argvs(char **const cmds[], int n, const char *cwd, const char *log, const char *what, int progress,
                   double t0);

/* `rm -rf path` without a shell: 0 when nothing is left at path. */
int proc_rm_tree(const char *path);
/* Writes n bytes to path (created or truncated): 0, or -1. */
int proc_write_file(const char *path, const char *text, size_t n);

#endif
