/* sweep_run.h - how `xnoc sweep` runs its points (docs/sweeps.md): every
 * process an argument vector (fork + exec, never a shell), started by the
 * sweep itself and tied to it:
 *   - each child asks the kernel for SIGKILL when the sweep dies
 *     (PR_SET_PDEATHSIG), even by kill -9, and stays in the sweep's
 *     process group;
 *   - a point's report goes to ID.json.tmp and only the sweep renames it to
 *     ID.json, after its process exited 0 with a JSON report: a point is
 *     written only while its sweep lives;
 *   - SIGINT, SIGTERM and SIGHUP stop the sweep the same way (the running
 *     points get SIGTERM; finished ones are kept);
 *   - OUT/sweep.lock (flock) keeps a second sweep out of the folder.
 * The Slurm engine hands the points to a job array whose tasks run
 * `xnoc sweep --task DIR/jobs.jsonl N` (the same argument vectors, from a
 * JSON file); a task keeps its point only while the sweep holds the lock. */
#ifndef XNOC_SWEEP_RUN_H
#define XNOC_SWEEP_RUN_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* the signal that stopped the sweep (SIGINT, SIGTERM, SIGHUP), or 0 */
extern volatile sig_atomic_t sweep_signal;
void sweep_catch_signals(void);

/* The running xnoc binary (/proc/self/exe); caller frees. */
char *sweep_self(void);

/* fork + exec argv[0] (a path, or a name looked up in PATH): stdin from
 * /dev/null, stdout to out_fd and stderr to err_fd (-1: the sweep's), in
 * directory cwd (NULL: the sweep's).  The child dies with the sweep.
 * Returns its pid, or -1 (errno).  xnoc clos --plot runs gnuplot with it
 * too (a failure to start names the running command: xnoc CMD: ...). */
pid_t sweep_spawn(char *const *argv, int out_fd, int err_fd, const char *cwd);
/* A tool (gnuplot) run to its end as sweep_spawn starts it, its stderr the
 * sweep's: 0 when it exited with 0; else -1 and one phrase in why, for the
 * caller's one line ("cannot run gnuplot: No such file or directory",
 * "gnuplot exited with 1"); the child says nothing of its own. */
int sweep_run_tool(char *const *argv, int out_fd, const char *cwd, char *why, size_t len);
/* Runs argv to its end, its stdout into *out (NUL-terminated, caller
 * frees); returns its wait status, or -1 if it could not start. */
int sweep_capture(char *const *argv, char **out, size_t *n);

/* Takes OUT/sweep.lock for the life of the process, or ends with one line
 * (exit 2) naming the sweep that holds it. */
void sweep_lock(const char *out);

/* The points still to run: point k's ID and argument vector (argv[0] the
 * xnoc binary), made on demand; the caller of the engines frees nothing
 * they get from it. */
typedef struct {
    long n;
    void *ctx;
    void (*make)(void *ctx, long k, char **id, char ***argv);
} sweep_jobs;

/* Runs the points jobs_at_once at a time into OUT/points, appending to
 * OUT/joblog.txt (GNU parallel's columns).  Returns the points that
 * finished; stops early (sweep_signal set) on a signal. */
long sweep_run_local(const char *out, const sweep_jobs *j, int jobs_at_once, long done, long npoints);
/* The same as a Slurm job array (OUT/jobs.jsonl, OUT/sweep.sbatch,
 * sbatch --wait).  Returns sbatch's wait status. */
int sweep_run_slurm(const char *out, const char *self, const sweep_jobs *j, long done, long npoints);
/* `xnoc sweep --task JOBS.jsonl N`: one array task. */
int sweep_task(const char *jobs, const char *n);

#endif
