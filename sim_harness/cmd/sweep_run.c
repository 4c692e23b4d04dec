/* sweep_run.c - running a sweep's points (sweep_run.h): fork + exec, N at a
 * time, every child tied to the sweep; the Slurm engine and its tasks. */
#include "cmd/sweep_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/sweep_spec.h"
#include "util/cli.h"

volatile sig_atomic_t sweep_signal;

static void on_signal(int sig)
{
    if (!sweep_signal) sweep_signal = sig;
    signal(sig, SIG_DFL); /* a second one ends the sweep at once (its children die with it) */
}

void sweep_catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal; /* no SA_RESTART: a sleep ends early */
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

char *sweep_self(void)
{
    for (size_t cap = 256;; cap *= 2) {
        char *b = xmalloc(cap);
        ssize_t n = readlink("/proc/self/exe", b, cap);
        if (n <= 0) cli_fail(EXIT_RUNFAIL, "cannot find the xnoc binary (/proc/self/exe): %s", strerror(errno));
        if ((size_t)n < cap) {
            b[n] = 0;
            return b;
        }
        free(b);
    }
}

/* fork + exec (sweep_spawn); report_fd >= 0: a failure to enter cwd or to
 * start argv[0] is written there as "C errno" (C: 'd' directory, 'x' exec)
 * for the parent to say, instead of a line from the child */
static pid_t spawn(char *const *argv, int out_fd, int err_fd, const char *cwd, int report_fd)
{
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0) return pid;
    /* the child: dies with the sweep (kill -9 included), which it checks once
     * more in case the sweep died before the request */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int in = open("/dev/null", O_RDONLY);
    if (in >= 0) dup2(in, 0);
    if (out_fd >= 0) dup2(out_fd, 1);
    if (err_fd >= 0) dup2(err_fd, 2);
    if (cwd && chdir(cwd)) {
        if (report_fd >= 0) dprintf(report_fd, "d %d", errno);
        else dprintf(2, "xnoc %s: cannot enter %s: %s\n", cli_cmd, cwd, strerror(errno));
        _exit(127);
    }
    execvp(argv[0], argv);
    if (report_fd >= 0) dprintf(report_fd, "x %d", errno);
    else dprintf(2, "xnoc %s: cannot run %s: %s\n", cli_cmd, argv[0], strerror(errno));
    _exit(127);
}

pid_t sweep_spawn(char *const *argv, int out_fd, int err_fd, const char *cwd)
{
    return spawn(argv, out_fd, err_fd, cwd, -1);
}

int sweep_run_tool(char *const *argv, int out_fd, const char *cwd, char *why, size_t len)
{
    int p[2], st = -1;
    why[0] = 0;
    if (pipe2(p, O_CLOEXEC)) {
        snprintf(why, len, "cannot run %s: %s", argv[0], strerror(errno));
        return -1;
    }
    pid_t pid = spawn(argv, out_fd, -1, cwd, p[1]);
    int spawn_errno = errno;
    close(p[1]);
    char msg[32] = "";
    ssize_t n;
    while ((n = read(p[0], msg, sizeof msg - 1)) < 0 && errno == EINTR) {}
    close(p[0]);
    msg[n > 0 ? n : 0] = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    int e = msg[0] ? atoi(msg + 2) : 0;
    if (pid < 0) snprintf(why, len, "cannot run %s: %s", argv[0], strerror(spawn_errno));
    else if (msg[0] == 'd') snprintf(why, len, "cannot enter %s: %s", cwd, strerror(e));
    else if (msg[0] == 'x') snprintf(why, len, "cannot run %s: %s", argv[0], strerror(e));
    else if (WIFEXITED(st) && WEXITSTATUS(st)) snprintf(why, len, "%s exited with %d", argv[0], WEXITSTATUS(st));
    else if (WIFSIGNALED(st)) snprintf(why, len, "%s was killed by signal %d", argv[0], WTERMSIG(st));
    return why[0] ? -1 : 0;
}

int sweep_capture(char *const *argv, char **out, size_t *n)
{
    int p[2];
    *out = NULL;
    *n = 0;
    if (pipe2(p, O_CLOEXEC)) return -1;
    pid_t pid = sweep_spawn(argv, p[1], -1, NULL);
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return -1;
    }
    size_t cap = 4096;
    char *b = xmalloc(cap);
    for (;;) {
        if (*n + 1 >= cap) b = xrealloc(b, cap *= 2);
        ssize_t r = read(p[0], b + *n, cap - *n - 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        *n += (size_t)r;
    }
    b[*n] = 0;
    close(p[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    *out = b;
    return st;
}

void sweep_lock(const char *out)
{
    char *path = xasprintf("%s/sweep.lock", out);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) cli_fail(EXIT_USAGE, "--out %s: cannot create %s: %s", out, path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB)) {
        char who[32] = "";
        ssize_t r = pread(fd, who, sizeof who - 1, 0);
        who[r > 0 ? r : 0] = 0;
        who[strcspn(who, "\n")] = 0;
        cli_fail(EXIT_USAGE, "--out %s: another sweep (pid %s) is writing there", out, who[0] ? who : "?");
    }
    char pid[32];
    int l = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)l, 0) != l) { /* the pid is only for the message above */
    }
    free(path); /* fd stays open (and locked) until the sweep ends */
}

static int report_ok(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    json_decref(j);
    return j != NULL;
}

static double wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static char *joined(char *const *argv)
{
    size_t len = 1;
    for (size_t i = 0; argv[i]; i++) {
        char *q = sweep_sh_quote(argv[i]);
        len += strlen(q) + 1;
        free(q);
    }
    char *o = xmalloc(len), *p = o;
    for (size_t i = 0; argv[i]; i++) {
        char *q = sweep_sh_quote(argv[i]);
        p += sprintf(p, "%s%s", i ? " " : "", q);
        free(q);
    }
    *p = 0;
    return o;
}

static void nap(void)
{
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL); /* a signal ends it early */
}

typedef struct {
    pid_t pid;
    long seq;
    double start, wall;
    char *tmp, *final, *cmd;
} slot;

long sweep_run_local(const char *out, const sweep_jobs *j, int jobs_at_once, long done, long npoints)
{
    char *logp = xasprintf("%s/joblog.txt", out);
    FILE *log = fopen(logp, "a"); /* appended: a resumed sweep keeps the earlier runs' lines */
    if (!log) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", logp, strerror(errno));
    if (ftell(log) == 0) fputs("Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n", log);
    slot *s = xcalloc((size_t)jobs_at_once, sizeof *s);
    long next = 0, fin = 0, running = 0;
    double t0 = cli_now(), killed_at = 0;
    while ((next < j->n && !sweep_signal) || running) {
        for (int i = 0; i < jobs_at_once && next < j->n && !sweep_signal; i++) {
            if (s[i].pid) continue;
            char *id, **argv;
            j->make(j->ctx, next, &id, &argv);
            slot *x = &s[i];
            x->final = xasprintf("%s/points/%s.json", out, id);
            x->tmp = xasprintf("%s.tmp", x->final);
            char *errp = xasprintf("%s.err", x->final);
            int of = open(x->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666),
                ef = open(errp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
            if (of < 0 || ef < 0) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", x->tmp, strerror(errno));
            x->cmd = joined(argv);
            x->seq = ++next;
            x->start = cli_now();
            x->wall = wall_clock();
            x->pid = sweep_spawn(argv, of, ef, NULL);
            if (x->pid < 0) cli_fail(EXIT_RUNFAIL, "fork: %s", strerror(errno));
            close(of);
            close(ef);
            free(errp);
            running++;
        }
        int st;
        pid_t p;
        while (running && (p = waitpid(-1, &st, WNOHANG)) > 0) {
            int i = 0;
            while (i < jobs_at_once && s[i].pid != p) i++;
            if (i == jobs_at_once) continue;
            slot *x = &s[i];
            /* the report gets its final name only here, from a live sweep */
            int good = WIFEXITED(st) && WEXITSTATUS(st) == 0 && report_ok(x->tmp) && !rename(x->tmp, x->final);
            if (!good) unlink(x->tmp);
            fin += good;
            fprintf(log, "%ld\t:\t%.3f\t%.3f\t0\t0\t%d\t%d\t%s\n", x->seq, x->wall, cli_now() - x->start,
                    WIFEXITED(st) ? WEXITSTATUS(st) : -1, WIFSIGNALED(st) ? WTERMSIG(st) : 0, x->cmd);
            fflush(log);
            free(x->tmp);
            free(x->final);
            free(x->cmd);
            memset(x, 0, sizeof *x);
            running--;
        }
        if (sweep_signal && running) {
            /* stop the running points: SIGTERM, then SIGKILL after 5 s */
            int sig = killed_at && cli_now() - killed_at > 5 ? SIGKILL : SIGTERM;
            if (!killed_at || sig == SIGKILL)
                for (int i = 0; i < jobs_at_once; i++)
                    if (s[i].pid) kill(s[i].pid, sig);
            if (!killed_at) killed_at = cli_now();
        }
        double el = cli_now() - t0;
        if (fin > 0)
            cli_progress("sweep: %ld/%ld points, ETA %.0f s", done + fin, npoints,
                         el / (double)fin * (double)(npoints - done - fin));
        else cli_progress("sweep: %ld/%ld points", done + fin, npoints);
        if (running) nap();
    }
    cli_progress_done();
    fclose(log);
    free(logp);
    free(s);
    return fin;
}

static long count_points(const char *out)
{
    char *dir = xasprintf("%s/points", out);
    DIR *d = opendir(dir);
    long n = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        n += l > 5 && !strcmp(e->d_name + l - 5, ".json");
    }
    if (d) closedir(d);
    free(dir);
    return n;
}

/* scancel the array whose ID sbatch --parsable wrote to idp ("ID" or
 * "ID;cluster"); nothing when it was not submitted yet */
static void cancel_array(const char *idp)
{
    size_t n = 0;
    char *text = cli_slurp(idp, &n);
    if (!text) return;
    text[strcspn(text, ";\n")] = 0;
    long id;
    if (!cli_parse_long(text, 1, LONG_MAX, &id)) {
        char *jid = xasprintf("%ld", id), *argv[] = {"scancel", jid, NULL};
        pid_t pid = sweep_spawn(argv, -1, -1, NULL);
        int st;
        if (pid > 0) waitpid(pid, &st, 0);
        free(jid);
    }
    free(text);
}

int sweep_run_slurm(const char *out, const char *self, const sweep_jobs *j, long done, long npoints)
{
    char *jobsp = xasprintf("%s/jobs.jsonl", out), *script = xasprintf("%s/sweep.sbatch", out);
    FILE *jf = fopen(jobsp, "w");
    if (!jf) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", jobsp, strerror(errno));
    for (long k = 0; k < j->n; k++) {
        char *id, **argv;
        j->make(j->ctx, k, &id, &argv);
        json_t *words = json_array();
        for (size_t i = 0; argv[i]; i++) json_array_append_new(words, json_string(argv[i]));
        json_t *line = json_pack("{s:s,s:o}", "id", id, "argv", words);
        json_dumpf(line, jf, JSON_COMPACT);
        fputc('\n', jf);
        json_decref(line);
    }
    if (fclose(jf)) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", jobsp, strerror(errno));
    /* the script holds two words, shell-quoted: the xnoc binary and the jobs file */
    char *qself = sweep_sh_quote(self), *qjobs = sweep_sh_quote(jobsp);
    FILE *sb = fopen(script, "w");
    if (!sb) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", script, strerror(errno));
    fprintf(sb,
            "#!/bin/sh\n#SBATCH --job-name=xnoc-sweep\n#SBATCH --array=1-%ld\n#SBATCH --ntasks=1\n"
            "# one point per array task: xnoc runs line SLURM_ARRAY_TASK_ID of jobs.jsonl (an argument\n"
            "# vector, no shell) and keeps its report only while the sweep that wrote this runs\n"
            "exec %s sweep --task %s \"$SLURM_ARRAY_TASK_ID\"\n",
            j->n, qself, qjobs);
    if (fclose(sb)) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", script, strerror(errno));
    /* the tasks' output files, a Slurm file pattern: a '%' of DIR doubled */
    size_t ol = strlen(out);
    char *esc = xmalloc(2 * ol + 1), *q = esc;
    for (const char *c = out; *c; c++) {
        if (*c == '%') *q++ = '%';
        *q++ = *c;
    }
    *q = 0;
    char *outopt = xasprintf("--output=%s/slurm-%%A_%%a.out", esc);
    /* --parsable: sbatch prints the array's job ID when it is submitted, into
     * OUT/slurm.jobid, so that a signal can cancel the tasks still queued */
    char *idp = xasprintf("%s/slurm.jobid", out);
    int idfd = open(idp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (idfd < 0) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", idp, strerror(errno));
    char *argv[] = {"sbatch", "--wait", "--parsable", outopt, script, NULL};
    pid_t pid = sweep_spawn(argv, idfd, -1, NULL);
    close(idfd);
    if (pid < 0) cli_fail(EXIT_RUNFAIL, "fork: %s", strerror(errno));
    int st = 0, stopped = 0;
    while (waitpid(pid, &st, WNOHANG) != pid) {
        if (sweep_signal && !stopped) {
            cancel_array(idp); /* queued and running tasks of the array: scancel, as argv */
            kill(pid, SIGTERM), stopped = 1;
        }
        long fin = count_points(out);
        cli_progress("sweep: %ld/%ld points (%ld run now)", fin, npoints, fin > done ? fin - done : 0);
        nap();
    }
    cli_progress_done();
    free(esc);
    free(outopt);
    free(qself);
    free(qjobs);
    free(jobsp);
    free(script);
    free(idp);
    return st;
}

int sweep_task(const char *jobs, const char *nstr)
{
    long n = cli_long("--task", nstr, 1, 1000000);
    FILE *f = fopen(jobs, "r");
    if (!f) cli_fail(EXIT_USAGE, "--task %s: %s", jobs, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    long i = 0;
    while (i < n && getline(&line, &cap, f) > 0) i++;
    fclose(f);
    json_error_t je;
    json_t *job = i == n ? json_loads(line, 0, &je) : NULL;
    free(line);
    const char *id = json_string_value(json_object_get(job, "id"));
    json_t *words = json_object_get(job, "argv");
    if (!id || !json_is_array(words) || !json_array_size(words) || strchr(id, '/'))
        cli_fail(EXIT_USAGE, "--task %s %ld: no such job", jobs, n);
    char **argv = xcalloc(json_array_size(words) + 1, sizeof *argv);
    for (size_t w = 0; w < json_array_size(words); w++) {
        argv[w] = (char *)json_string_value(json_array_get(words, w));
        if (!argv[w]) cli_fail(EXIT_USAGE, "--task %s %ld: word %zu is not a string", jobs, n, w);
    }
    char *dir = xstrdup(jobs), *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else strcpy(dir, ".");
    char *final = xasprintf("%s/points/%s.json", dir, id), *tmp = xasprintf("%s.tmp", final),
         *errp = xasprintf("%s.err", final), *lockp = xasprintf("%s/sweep.lock", dir);
    int of = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666),
        ef = open(errp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (of < 0 || ef < 0) cli_fail(EXIT_RUNFAIL, "cannot write %s: %s", tmp, strerror(errno));
    pid_t pid = sweep_spawn(argv, of, ef, NULL);
    close(of);
    close(ef);
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    int good = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && report_ok(tmp);
    /* the sweep holds the lock while it waits for the array: if the lock can
     * be had, it is gone, and the report is not kept */
    int lf = open(lockp, O_RDONLY | O_CLOEXEC);
    if (good && (lf < 0 || !flock(lf, LOCK_SH | LOCK_NB))) {
        good = 0;
        fprintf(stderr, "xnoc sweep: the sweep of %s has ended: report not kept\n", dir);
    }
    if (!good || rename(tmp, final)) unlink(tmp);
    if (lf >= 0) close(lf);
    json_decref(job);
    free(argv);
    free(dir);
    free(final);
    free(tmp);
    free(errp);
    free(lockp);
    return good ? 0 : 1;
}
