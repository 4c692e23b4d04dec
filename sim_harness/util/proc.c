/* proc.c - programs run from argument vectors, never through a shell, and
 * trees removed without one (proc.h). */
#include "util/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cli.h"

void strv_add(strv *a, char *owned)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? 2 * a->cap : 32;
        a->v = xrealloc(a->v, (size_t)a->cap * sizeof *a->v);
    }
    a->v[a->n++] = owned;
    a->v[a->n] = NULL;
}

/* words: space-separated, none quoted (the flag strings of this file) */
void strv_words(strv *a, const char *words)
{
    for (const char *p = words; *p;) {
        while (*p == ' ') p++;
        size_t l = strcspn(p, " ");
        if (l) strv_add(a, xasprintf("%.*s", (int)l, p));
        p += l;
    }
}

void strv_free(char **v)
{
    for (char **p = v; p && *p; p++) free(*p);
    free(v);
}

/* Runs program argv[0] (found along PATH) with argv - no shell, so no path
 * is ever parsed as shell words - in folder cwd, its output and errors
 * appended to log.
 * With progress, a ticker names the step (`what`) and the seconds since t0
 * meanwhile.  The program's exit status (127: it could not be started,
 * the reason in the log; 128+N: killed by signal N). */
/* Starts argv (see proc_run_argv) with its output and errors on fd. */
static pid_t spawn_argv(char *const argv[], const char *cwd, int fd)
{
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        if (chdir(cwd)) {
            dprintf(STDERR_FILENO, "xnoc: cannot enter %s: %s\n", cwd, strerror(errno));
            _exit(127);
        }
        execvp(argv[0], argv);
        dprintf(STDERR_FILENO, "xnoc: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

static int exit_code(int st) { return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1; }

/* Runs the n programs cmds[i] (argument vectors, as proc_run_argv) at
 * the same time and waits for all of them: 0, or the first non-zero exit
 * status in the order of cmds. */
int proc_run_argvs(char **const cmds[], int n, const char *cwd, const char *log, const char *what, int progress,
                   double t0)
{
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return 127;
    pid_t pids[8];
    int st[8], left = 0;
    for (int i = 0; i < n && i < 8; i++) {
        pids[i] = spawn_argv(cmds[i], cwd, fd);
        st[i] = pids[i] < 0 ? 127 << 8 : 0;
        left += pids[i] > 0;
    }
    close(fd);
    while (left > 0) {
        int any = 0;
        for (int i = 0; i < n && i < 8; i++) {
            if (pids[i] <= 0) continue;
            pid_t w = waitpid(pids[i], &st[i], progress ? WNOHANG : 0);
            if (w == 0 || (w < 0 && errno == EINTR)) continue;
            if (w < 0) st[i] = 127 << 8;
            pids[i] = 0;
            left--;
            any = 1;
        }
        if (progress && !any) {
            (void)t0; /* the command's elapsed time is cli_progress's prefix */
            cli_progress("%s", what);
            usleep(200000);
        }
    }
    if (progress) cli_progress_done();
    for (int i = 0; i < n && i < 8; i++)
        if (exit_code(st[i])) return exit_code(st[i]);
    return 0;
}

int proc_run_argv(char *const argv[], const char *cwd, const char *log, const char *what, int progress, double t0)
{
    char **const cmds[1] = {(char **)argv};
    return proc_run_argvs(cmds, 1, cwd, log, what, progress, t0);
}

int proc_write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(text, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path) ? -1 : 0;
}

/* `rm -rf path` without a shell: 0 when nothing is left at path. */
int proc_rm_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st)) return errno == ENOENT ? 0 : -1;
    return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
