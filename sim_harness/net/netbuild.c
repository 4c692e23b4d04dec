/* netbuild.c - verilate + compile + cache a network model (see netbuild.h). */
#include "net/netbuild.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../firmware/lib/flit.h"
#include "util/cli.h"
#include "util/fnv.h"
#include "net/netgen.h"

/* Verilator flags.  -fno-gate keeps the router ports as the router's own
 * variables, so every instance shares one C++ copy of the router (with gate
 * substitution each instance gets its own code: 10x the C++ of an 8x8 mesh);
 * -fno-table likewise avoids per-instance lookup tables. */
#define VERILATOR_FLAGS                                                                                                \
    "--cc -O3 -fno-table -fno-gate --x-assign fast --x-initial fast "                                                  \
    "-Wno-fatal -Wno-lint -Wno-style --top-module xnoc_network"
#define VERILATOR_FAST " --noassert"
#define VERILATOR_ASSERT " --assert -DXNOC_ASSERT"
#define VL_INC "/usr/share/verilator/include"

/* C++ optimisation of the model's per-cycle code.  -O2 vs -O1 on an 8x8 mesh:
 * see docs/performance.md.  XNOC_CXX_OPT overrides it (for measurements). */
static const char *cxx_opt(void)
{
    const char *e = getenv("XNOC_CXX_OPT");
    return e && (!strcmp(e, "-O0") || !strcmp(e, "-O1") || !strcmp(e, "-O2") || !strcmp(e, "-O3")) ? e : "-O2";
}

int netbuild_default_variant(void)
{
    const char *e = getenv("XNOC_RTL_ASSERT");
    return e && atoi(e) ? NETBUILD_ASSERT : 0;
}

static int is_pkg(const char *name)
{
    size_t l = strlen(name);
    return l >= 7 && !strcmp(name + l - 7, "_pkg.sv");
}

/* by name, packages (*_pkg.sv) first: the modules use them */
static int cmp_str(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    if (is_pkg(x) != is_pkg(y)) return is_pkg(y) - is_pkg(x);
    return strcmp(x, y);
}

/* The tile (rtl/xnoc_tile.sv) is the tile build's top module only: the flat
 * netlist and synth leave it out of their sources and cache keys, so adding
 * or changing it rebuilds no flat model. */
#define TILE_SV "xnoc_tile.sv"

/* The router sources (the .sv files of rtl/, packages first; the tile's only
 * with `tile`) as heap paths, NULL-terminated, their names and contents
 * folded into *hash. */
static char **rtl_paths_of(uint64_t *hash, int tile, char *err, size_t errlen)
{
    char *dir = xasprintf("%s/rtl", cli_src_dir());
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot open the router sources in %s: %s", dir, strerror(errno));
        free(dir);
        return NULL;
    }
    char *names[64] = {0};
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        size_t l = strlen(e->d_name);
        if (l > 3 && !strcmp(e->d_name + l - 3, ".sv") && (tile || strcmp(e->d_name, TILE_SV)))
            names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (!n) {
        snprintf(err, errlen, "no router sources (*.sv) in %s", dir);
        free(dir);
        return NULL;
    }
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    char **paths = xcalloc((size_t)n + 1, sizeof *paths);
    for (int i = 0; i < n; i++) {
        size_t sz;
        paths[i] = xasprintf("%s/%s", dir, names[i]);
        char *text = cli_slurp(paths[i], &sz);
        if (text) *hash = fnv1a(fnv1a(*hash, names[i], strlen(names[i])), text, sz);
        free(text);
        free(names[i]);
    }
    free(dir);
    return paths;
}

static char **rtl_paths(uint64_t *hash, char *err, size_t errlen) { return rtl_paths_of(hash, 0, err, errlen); }

static void free_strv(char **v)
{
    for (char **p = v; p && *p; p++) free(*p);
    free(v);
}

int netbuild_rtl_sources(char *list, size_t len, uint64_t *hash, char *err, size_t errlen)
{
    char **paths = rtl_paths(hash, err, errlen);
    if (!paths) return -1;
    list[0] = 0;
    for (char **p = paths; *p; p++) {
        size_t used = strlen(list);
        snprintf(list + used, len - used, "%s'%s'", used ? " " : "", *p);
    }
    free_strv(paths);
    return 0;
}

/* An argument vector being built: every word a heap copy. */
typedef struct {
    char **v;
    int n, cap;
} strv;

static void sv_add(strv *a, char *owned)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? 2 * a->cap : 32;
        a->v = xrealloc(a->v, (size_t)a->cap * sizeof *a->v);
    }
    a->v[a->n++] = owned;
    a->v[a->n] = NULL;
}

/* words: space-separated, none quoted (the flag strings of this file) */
static void sv_words(strv *a, const char *words)
{
    for (const char *p = words; *p;) {
        while (*p == ' ') p++;
        size_t l = strcspn(p, " ");
        if (l) sv_add(a, xasprintf("%.*s", (int)l, p));
        p += l;
    }
}

/* Runs program argv[0] (found along PATH) with argv - no shell, so no path
 * is ever parsed as shell words - in folder cwd, its output and errors
 * appended to log.
 * With progress, a ticker names the step (`what`) and the seconds since t0
 * meanwhile.  The program's exit status (127: it could not be started,
 * the reason in the log; 128+N: killed by signal N). */
/* Starts argv (see netbuild_run_argv) with its output and errors on fd. */
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

/* Runs the n programs cmds[i] (argument vectors, as netbuild_run_argv) at
 * the same time and waits for all of them: 0, or the first non-zero exit
 * status in the order of cmds. */
static int run_argvs(char **const cmds[], int n, const char *cwd, const char *log, const char *what, int progress,
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
            cli_progress("%s (%.0f s in)", what, cli_now() - t0);
            usleep(200000);
        }
    }
    if (progress) cli_progress_done();
    for (int i = 0; i < n && i < 8; i++)
        if (exit_code(st[i])) return exit_code(st[i]);
    return 0;
}

int netbuild_run_argv(char *const argv[], const char *cwd, const char *log, const char *what, int progress, double t0)
{
    char **const cmds[1] = {(char **)argv};
    return run_argvs(cmds, 1, cwd, log, what, progress, t0);
}

/* Hashes a file of the source tree into h; -1 if it cannot be read. */
static int hash_file(const char *path, uint64_t *h)
{
    size_t n;
    char *text = cli_slurp(path, &n);
    if (!text) return -1;
    *h = fnv1a(*h, text, n);
    free(text);
    return 0;
}

static int write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(text, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Folds the identity of the installed Verilator (its programs' size, time
 * and inode, found along PATH) into h, so that an upgrade rebuilds the
 * cached models.  Cheaper than running `verilator --version` (a Perl start-
 * up) on every simulation; -1 when there is no verilator. */
static int verilator_identity(uint64_t *h)
{
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    const char *progs[] = {"verilator", "verilator_bin"};
    int found = 0;
    for (int i = 0; i < 2; i++) {
        for (const char *p = path; *p;) {
            const char *end = strchr(p, ':');
            size_t n = end ? (size_t)(end - p) : strlen(p);
            char *file = xasprintf("%.*s/%s", (int)n, n ? p : ".", progs[i]);
            struct stat st;
            int is_prog = stat(file, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR);
            free(file);
            if (is_prog) {
                uint64_t id[3] = {(uint64_t)st.st_size, (uint64_t)st.st_mtime, (uint64_t)st.st_ino};
                *h = fnv1a(*h, id, sizeof id);
                found += i == 0;
                break;
            }
            p += n;
            if (*p == ':') p++;
        }
    }
    return found ? 0 : -1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path) ? -1 : 0;
}

/* `rm -rf path` without a shell: 0 when nothing is left at path. */
int netbuild_rm_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st)) return errno == ENOENT ? 0 : -1;
    return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Removes the folders that killed builds left in the cache: NAME.tmpPID
 * whose process is gone and whose model nobody is building (its lock,
 * NAME.lock, is free).  A build that failed keeps its folder for its
 * build.log (a file "failed" marks it) until the same model is built again;
 * `mine` is the model this process is about to build, whose lock it holds. */
static void clean_stale(const char *cache, const char *mine, int progress)
{
    DIR *d = opendir(cache);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *t = strrchr(e->d_name, '.');
        long pid;
        if (!t || strncmp(t, ".tmp", 4) || cli_parse_long(t + 4, 1, INT32_MAX, &pid) || pid == (long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive (or not ours to ask): in use */
        char *path = xasprintf("%s/%s", cache, e->d_name), *model = xasprintf("%.*s", (int)(t - e->d_name), e->d_name);
        char *own = xasprintf("%s/%s", cache, model), *lockp = xasprintf("%s.lock", own);
        char *failed = xasprintf("%s/failed", path);
        int same = !strcmp(own, mine), stale = same || access(failed, F_OK) != 0;
        if (stale && !same) { /* free only if nobody builds that model now */
            int fd = open(lockp, O_RDWR);
            if (fd >= 0) {
                stale = flock(fd, LOCK_EX | LOCK_NB) == 0;
                close(fd); /* releases it */
            }
        }
        if (stale && nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) == 0 && progress)
            fprintf(stderr, "xnoc: removed %s, left by a build that ended (process %ld)\n", path, pid);
        free(path);
        free(model);
        free(own);
        free(lockp);
        free(failed);
    }
    closedir(d);
}

/* XNOC_BUILD_NOTE=FILE: one line appended per model this process built
 * ("built DIR SECONDS") or waited for while another process built it
 * ("waited DIR SECONDS"), whatever XNOC_PROGRESS says - tests/run counts
 * them per test group. */
static void build_note(const char *what, const char *dir, double seconds)
{
    const char *f = getenv("XNOC_BUILD_NOTE");
    FILE *o = f && *f ? fopen(f, "a") : NULL;
    if (!o) return;
    fprintf(o, "%s %s %.0f\n", what, dir, seconds);
    fclose(o);
}

/* The model's cache key (see netbuild.h) and its generated sources: the
 * netlist *sv and the per-channel glue *io (heap, the caller frees them)
 * and the router sources *srcs (heap paths, NULL-terminated).  Every byte
 * of the key's input is what it was when builds ran through the shell, so
 * the models cached then are found. */
static int model_key(const topo *t, const router_cfg *rc, int variant, char **sv, size_t *svn, char **io, size_t *ion,
                     char ***srcs, uint64_t *key, char *err, size_t errlen)
{
    int monitor = variant & NETBUILD_MONITOR;
    const char *opt = cxx_opt();
    FILE *f = open_memstream(sv, svn);
    netgen_verilog(f, t, rc, monitor);
    fclose(f);
    f = open_memstream(io, ion);
    netgen_glue_io(f, t, rc, monitor);
    fclose(f);
    uint64_t h = FNV1A_INIT;
    *srcs = rtl_paths(&h, err, errlen);
    if (!*srcs) return -1;
    /* (the glue includes the link flit's header: its helpers are compiled in) */
    const char *glue_files[] = {"xnoc_glue.cpp", "xnoc_glue_common.h", "xnoc_vl_printf.h", "xnoc_vl_triggers.h",
                                "../../firmware/lib/link_flit.h"};
    for (size_t i = 0; i < sizeof glue_files / sizeof *glue_files; i++) {
        char *g = xasprintf("%s/sim_harness/glue/%s", cli_src_dir(), glue_files[i]);
        int bad = hash_file(g, &h);
        if (bad) snprintf(err, errlen, "cannot read the C++ glue %s: %s", g, strerror(errno));
        free(g);
        if (bad) return -1;
    }
    h = fnv1a(h, *sv, *svn);
    h = fnv1a(h, *io, *ion);
    h = fnv1a(h, VERILATOR_FLAGS, strlen(VERILATOR_FLAGS));
    h = fnv1a(h, opt, strlen(opt));
    h = fnv1a(h, &variant, sizeof variant);
    h = fnv1a(h, "dedupe-2", 8); /* models built before net/dedupe.c are rebuilt */
    if (verilator_identity(&h)) {
        snprintf(err, errlen, "verilator not found: run 'make deps' (it installs Debian's verilator)");
        return -1;
    }
    *key = h;
    return 0;
}

int netbuild_key(const topo *t, const router_cfg *rc, int variant, uint64_t *key, char *err, size_t errlen)
{
    char *sv = NULL, *io = NULL, **srcs = NULL;
    size_t svn = 0, ion = 0;
    int r = model_key(t, rc, variant, &sv, &svn, &io, &ion, &srcs, key, err, errlen);
    free(sv);
    free(io);
    free_strv(srcs);
    return r;
}

/* Whether GNU make (Verilator's makefiles) can build in folder p: none of
 * the characters it or its recipes' shell would take apart (a space, a
 * quote, $, ...). */
static int make_safe(const char *p)
{
    return *p && p[strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._,=+:@-")] == 0;
}

/* How a verilated model becomes the shared object net.c loads: its top
 * module, the object's name, the progress words, a first compiler flag and
 * the model's own -D flags (NULL-terminated, may be NULL). */
typedef struct {
    const char *top, *so, *what, *first;
    const char *glue; /* the C++ glue (sim_harness/glue) */
    char **defs;
    int include_tmp; /* -I the build folder: the flat glue includes its generated xnoc_io.inc */
    int unity;       /* compile_unity: two translation units and a cached Verilator runtime */
} model_compile;

/* The model's classes of Verilator's makefile V<top>_classes.mk: the
 * per-cycle ones (VM_CLASSES_FAST, VM_SUPPORT_FAST) into *fast, the rest
 * (_SLOW) into *slow, each as a C++ file of #include lines; its VM_TRACE. */
static int unity_sources(const char *objd, const char *top, strv *fast, strv *slow, int *vm_trace)
{
    char *mk = xasprintf("%s/V%s_classes.mk", objd, top);
    size_t n;
    char *text = cli_slurp(mk, &n);
    free(mk);
    if (!text) return -1;
    strv *into = NULL;
    *vm_trace = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "VM_TRACE = ", 11)) *vm_trace = atoi(line + 11);
        if (!strncmp(line, "VM_", 3)) { /* (not VM_GLOBAL_*: the runtime) */
            int model = !strncmp(line, "VM_CLASSES_", 11) || !strncmp(line, "VM_SUPPORT_", 11);
            into = !model ? NULL : strstr(line, "_FAST +=") ? fast : strstr(line, "_SLOW +=") ? slow : NULL;
        } else if (line[0] == '\t' && into) {
            size_t l = strcspn(line + 1, " \\");
            if (l) sv_add(into, xasprintf("#include \"%.*s.cpp\"\n", (int)l, line + 1));
        } else into = NULL;
    }
    free(text);
    return fast->n && slow->n ? 0 : -1;
}

static int write_lines(const char *path, char **lines)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    for (char **l = lines; l && *l; l++) fputs(*l, f);
    return fclose(f);
}

/* The tile's code generation flags beyond `opt` (compile_unity; folded into
 * the tile's key).  Verilator's member functions have default visibility,
 * and with -fPIC GCC assumes any exported function may be interposed: it
 * neither inlines one nor calls it directly, so every step of a tile's eval
 * (eval_step, _eval, its triggers, _eval_nba, ...) was a call through the
 * PLT.  The model's classes are compiled -fvisibility=hidden (the object
 * exports only the glue's xg_* calls, which net.c looks up), the glue
 * -fno-semantic-interposition, and the per-cycle classes and the glue with
 * -flto, so the link inlines across them (the scheduler's steps into
 * eval_step).  mesh:32x32 ncu=0: 0.895 x the instructions of loading (the
 * configuration's 8.5 M evaluations), 0.969 x those of a cycle; the
 * router's own logic, unchanged, is most of a cycle (docs/performance.md). */
#define TILE_CXX_FAST "-fvisibility=hidden -fvisibility-inlines-hidden -flto"
#define TILE_CXX_SLOW "-fvisibility=hidden -fvisibility-inlines-hidden"
#define TILE_CXX_GLUE "-fno-semantic-interposition -fvisibility-inlines-hidden -flto"
#define TILE_CXX_LINK "-flto=2"

/* The tile's C++ half (model_compile.unity): a tile's model is small, so
 * make's file per class mostly compiled the same headers 17 times (16 s CPU
 * of a 27 s build, mesh:4x4 vcs=3,buf=6 with a unit).  Here the per-cycle
 * classes are one translation unit at `opt`, the rest one at -O1, the glue a
 * third, all three at once; Verilator's runtime (verilated.cpp ..., 5 s)
 * is compiled once per flag set into the cache (vlrt-KEY) and linked from
 * there.  The model files get the flags Verilator's makefile gives them. */
static int compile_unity(const model_compile *mc, const char *tmp, const char *objd, const char *log,
                         const char *glue_hdr, const char *trig_hdr, int trace, int asserts, int progress,
                         double t_build, char *err, size_t errlen)
{
    const char *opt = cxx_opt();
    strv fast = {0}, slow = {0}, cmd[6] = {{0}}, rt = {0}, rtsrc = {0};
    char *fast_cpp = xasprintf("%s/xnoc_unity_fast.cpp", objd), *slow_cpp = xasprintf("%s/xnoc_unity_slow.cpp", objd);
    char *rtdir = NULL, *rttmp = NULL;
    int vm_trace = 0, failed = -1, ncmd = 0;
    if (unity_sources(objd, mc->top, &fast, &slow, &vm_trace) || write_lines(fast_cpp, fast.v) ||
        write_lines(slow_cpp, slow.v)) {
        snprintf(err, errlen, "cannot list the verilated classes of %s in %s", mc->top, objd);
        goto out;
    }
    /* the runtime: its flags (the glue's, less the model's own) name its folder */
    if (mc->first) sv_add(&rt, xstrdup(mc->first));
    sv_words(&rt, "-c -fPIC");
    sv_add(&rt, xstrdup(opt));
    sv_add(&rt, xstrdup("-w"));
    if (asserts) {
        sv_words(&rt, "-DXNOC_ASSERT_BUILD -DVL_PRINTF=xg_vl_printf -include");
        sv_add(&rt, xstrdup(glue_hdr));
    }
    sv_add(&rt, xstrdup("-include"));
    sv_add(&rt, xstrdup(trig_hdr));
    sv_words(&rt, "-I" VL_INC " -I" VL_INC "/vltstd");
    sv_words(&rtsrc, "verilated verilated_threads");
    if (trace) sv_add(&rtsrc, xstrdup("verilated_vcd_c"));
    uint64_t h = FNV1A_INIT;
    for (char **w = rt.v; *w; w++) h = fnv1a(h, *w, strlen(*w) + 1);
    for (char **w = rtsrc.v; *w; w++) h = fnv1a(h, *w, strlen(*w) + 1);
    if (hash_file(trig_hdr, &h) || (asserts && hash_file(glue_hdr, &h)) || verilator_identity(&h)) {
        snprintf(err, errlen, "cannot read the C++ glue headers %s", trig_hdr);
        goto out;
    }
    rtdir = xasprintf("%s/cache/vlrt-%016llx", cli_build_dir(), (unsigned long long)h);
    int have_rt = 1;
    for (char **w = rtsrc.v; *w; w++) {
        char *o = xasprintf("%s/%s.o", rtdir, *w);
        have_rt &= access(o, R_OK) == 0;
        free(o);
    }
    /* the model: as verilated.mk compiles it (cwd objd) */
    for (int k = 0; k < 2; k++) {
        strv *c = &cmd[ncmd++];
        sv_words(c, "g++ -fPIC -w -include ../xnoc_vl_triggers.h -I. -I" VL_INC " -I" VL_INC "/vltstd");
        sv_words(c, "-DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE_FST=0 -faligned-new -fcf-protection=none");
        sv_add(c, xasprintf("-DVM_TRACE=%d", vm_trace));
        sv_add(c, xasprintf("-DVM_TRACE_VCD=%d", vm_trace));
        sv_add(c, xstrdup(k ? "-O1" : opt));
        sv_words(c, k ? TILE_CXX_SLOW : TILE_CXX_FAST);
        sv_words(c, k ? "-c -o xnoc_unity_slow.o xnoc_unity_slow.cpp" : "-c -o xnoc_unity_fast.o xnoc_unity_fast.cpp");
    }
    strv *g = &cmd[ncmd++]; /* the glue, with the model's header */
    sv_add(g, xstrdup("g++"));
    if (mc->first) sv_add(g, xstrdup(mc->first));
    sv_words(g, "-c -fPIC");
    sv_add(g, xstrdup(opt));
    sv_words(g, TILE_CXX_GLUE);
    sv_add(g, xstrdup("-w"));
    if (trace) sv_add(g, xstrdup("-DXNOC_TRACE"));
    for (char **d = mc->defs; d && *d; d++) sv_add(g, xstrdup(*d));
    if (asserts) {
        sv_words(g, "-DXNOC_ASSERT_BUILD -DVL_PRINTF=xg_vl_printf -include");
        sv_add(g, xstrdup(glue_hdr));
    }
    sv_add(g, xstrdup("-include"));
    sv_add(g, xstrdup(trig_hdr));
    sv_words(g, "-I. -I" VL_INC " -I" VL_INC "/vltstd -o xnoc_glue.o");
    sv_add(g, xstrdup(mc->glue));
    if (!have_rt)
        for (char **w = rtsrc.v; *w; w++) {
            strv *c = &cmd[ncmd++];
            sv_add(c, xstrdup("g++"));
            for (char **f = rt.v; *f; f++) sv_add(c, xstrdup(*f));
            sv_add(c, xstrdup("-o"));
            sv_add(c, xasprintf("vlrt_%s.o", *w));
            sv_add(c, xasprintf(VL_INC "/%s.cpp", *w));
        }
    char **argvs[6];
    for (int i = 0; i < ncmd; i++) argvs[i] = cmd[i].v;
    if (run_argvs(argvs, ncmd, objd, log, mc->what, progress, t_build)) {
        failed = 1;
        goto out;
    }
    strv l = {0};
    sv_add(&l, xstrdup("g++"));
    if (mc->first) sv_add(&l, xstrdup(mc->first));
    sv_words(&l, "-shared -fPIC");
    sv_add(&l, xstrdup(opt));
    sv_words(&l, TILE_CXX_LINK);
    sv_add(&l, xstrdup("-o"));
    sv_add(&l, xasprintf("%s/%s", tmp, mc->so));
    sv_words(&l, "xnoc_glue.o xnoc_unity_fast.o xnoc_unity_slow.o");
    for (char **w = rtsrc.v; *w; w++)
        sv_add(&l, have_rt ? xasprintf("%s/%s.o", rtdir, *w) : xasprintf("vlrt_%s.o", *w));
    sv_add(&l, xstrdup("-pthread"));
    failed = netbuild_run_argv(l.v, objd, log, mc->what, progress, t_build) ? 1 : 0;
    free_strv(l.v);
    if (!failed && !have_rt) { /* the runtime into the cache for the next build (a lost race is harmless) */
        rttmp = xasprintf("%s.tmp%d", rtdir, (int)getpid());
        int ok = mkdir(rttmp, 0777) == 0;
        for (char **w = rtsrc.v; ok && *w; w++) {
            char *from = xasprintf("%s/vlrt_%s.o", objd, *w), *to = xasprintf("%s/%s.o", rttmp, *w);
            ok = rename(from, to) == 0;
            free(from);
            free(to);
        }
        if (!ok || rename(rttmp, rtdir)) netbuild_rm_tree(rttmp);
    }
out:
    for (int i = 0; i < 6; i++) free_strv(cmd[i].v);
    free_strv(fast.v);
    free_strv(slow.v);
    free_strv(rt.v);
    free_strv(rtsrc.v);
    free(fast_cpp);
    free(slow_cpp);
    free(rtdir);
    free(rttmp);
    return failed;
}

/* The C++ half of a build, the same for the flat network and the tile:
 * the trigger header copied beside obj/ (*file: its path, for the caller
 * to remove), Verilator's archive made, the glue compiled and linked with
 * it.  0 built, 1 a compiler failed (see log), -1 an error in err. */
static int compile_model(const model_compile *mc, const char *tmp, const char *work, const char *objd, const char *log,
                         const char *glue_hdr, const char *trig_hdr, int trace, int asserts, int progress,
                         double t_build, char **file, char *err, size_t errlen)
{
    const char *opt = cxx_opt();
    /* make puts CXXFLAGS into the shell commands of its recipes: the
     * trigger header goes there by a path relative to obj/ (a copy beside
     * it, the same bytes), never by the build folder's own path. */
    size_t tn;
    char *trig = cli_slurp(trig_hdr, &tn);
    *file = xasprintf("%s/xnoc_vl_triggers.h", work);
    int copied = trig && write_file(*file, trig, tn) == 0;
    free(trig);
    if (!copied) {
        snprintf(err, errlen, "cannot copy the C++ glue %s into %s", trig_hdr, tmp);
        return -1;
    }
    if (mc->unity)
        return compile_unity(mc, tmp, objd, log, glue_hdr, trig_hdr, trace, asserts, progress, t_build, err, errlen);
    /* The model's per-cycle code gets `opt`; its one-time code -O1 (it
     * does not run per cycle). */
    strv a = {0};
    sv_words(&a, "make -s -j2 -C");
    sv_add(&a, xstrdup(objd));
    sv_add(&a, xstrdup("-f"));
    sv_add(&a, xasprintf("V%s.mk", mc->top));
    sv_add(&a, xasprintf("OPT_FAST=%s", opt));
    sv_words(&a, "OPT_SLOW=-O1 OPT_GLOBAL=-O1");
    sv_add(&a, xstrdup("CXXFLAGS=-fPIC -w -include ../xnoc_vl_triggers.h"));
    sv_add(&a, xasprintf("V%s__ALL.a", mc->top));
    int failed = netbuild_run_argv(a.v, tmp, log, mc->what, progress, t_build);
    free_strv(a.v);
    a = (strv){0};
    if (failed) return 1;
    sv_add(&a, xstrdup("g++"));
    if (mc->first) sv_add(&a, xstrdup(mc->first));
    sv_words(&a, "-shared -fPIC");
    sv_add(&a, xstrdup(opt));
    sv_add(&a, xstrdup("-w"));
    if (trace) sv_add(&a, xstrdup("-DXNOC_TRACE"));
    for (char **d = mc->defs; d && *d; d++) sv_add(&a, xstrdup(*d));
    if (asserts) {
        sv_words(&a, "-DXNOC_ASSERT_BUILD -DVL_PRINTF=xg_vl_printf -include");
        sv_add(&a, xstrdup(glue_hdr));
    }
    sv_add(&a, xstrdup("-include"));
    sv_add(&a, xstrdup(trig_hdr));
    if (mc->include_tmp) sv_add(&a, xasprintf("-I%s", tmp));
    sv_add(&a, xasprintf("-I%s", objd));
    sv_words(&a, "-I" VL_INC " -I" VL_INC "/vltstd -o");
    sv_add(&a, xasprintf("%s/%s", tmp, mc->so));
    sv_add(&a, xstrdup(mc->glue));
    sv_add(&a, xasprintf("%s/V%s__ALL.a", objd, mc->top));
    sv_words(&a, VL_INC "/verilated.cpp " VL_INC "/verilated_threads.cpp");
    if (trace) sv_add(&a, xstrdup(VL_INC "/verilated_vcd_c.cpp"));
    sv_add(&a, xstrdup("-pthread"));
    failed = netbuild_run_argv(a.v, tmp, log, mc->what, progress, t_build);
    free_strv(a.v);
    return failed ? 1 : 0;
}

/* One model to build, the same steps for the flat network and the tile:
 * the cache folder, its lock (another process building the same model is
 * waited for), the stale folders of killed builds, a private build folder
 * (NAME.tmpPID; its objects in a make-safe folder), Verilator, a step on its
 * output, the C++ half (compile_model), the finished folder moved into
 * place; a failed build keeps its folder, marked, for the log in it. */
typedef struct build_job build_job;
struct build_job {
    const char *dir;        /* the cache folder of the model */
    const char *so;         /* the shared object in it */
    const char *name;       /* error lines: "building NAME: ..." */
    const char *model_word; /* "compiling the verilated WORD failed" */
    const char *wait_line;  /* progress lines: waiting for another process, */
    const char *start_line; /* starting, */
    const char *done_line;  /* done ("[N s] " before it) */
    const char *verilating; /* the ticker's words while Verilator runs */
    char **vl_words;        /* verilator's words before -Mdir (NULL-terminated) */
    char **srcs;            /* the router sources */
    const char *extra_src;  /* a generated source in the build folder, or NULL */
    int trace, asserts;
    /* writes the generated sources into tmp (may be NULL) */
    int (*prepare)(const build_job *j, const char *tmp, char *err, size_t errlen);
    /* a step on Verilator's output in objd (or NULL), *count for its line in the build log (step_note, one %d) */
    int (*step)(const char *objd, int *count, char *err, size_t errlen);
    const char *step_note;
    const void *ctx; /* the caller's, for prepare */
    model_compile mc;
};

static int build_model(const build_job *j, char **path, int progress, char *err, size_t errlen)
{
    const char *opt = cxx_opt();
    char *cache = xasprintf("%s/cache", cli_build_dir()), *lockp = NULL, *tmp = NULL, *log = NULL, *file = NULL;
    char *work = NULL, *objd = NULL; /* where make compiles: tmp, or a private folder (make_safe) */
    char *glue_hdr = xasprintf("%s/sim_harness/glue/xnoc_vl_printf.h", cli_src_dir());
    char *trig_hdr = xasprintf("%s/sim_harness/glue/xnoc_vl_triggers.h", cli_src_dir());
    strv a = {0};
    int lock = -1, rc_ = -1;
    mkdir(cli_build_dir(), 0777);
    mkdir(cache, 0777);
    if (access(j->so, R_OK) == 0) {
        build_note("cached", j->dir, 0);
        goto done;
    }
    lockp = xasprintf("%s.lock", j->dir);
    lock = open(lockp, O_CREAT | O_RDWR, 0666);
    double t_wait = cli_now();
    if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) != 0) { /* another process builds it: say so, then wait */
        if (progress) fprintf(stderr, "%s (%s)...\n", j->wait_line, lockp);
        flock(lock, LOCK_EX);
    }
    if (access(j->so, R_OK) == 0) { /* someone else built it meanwhile */
        build_note("waited", j->dir, cli_now() - t_wait);
        goto done;
    }
    clean_stale(cache, j->dir, progress);
    double t_build = cli_now();
    if (progress) fprintf(stderr, "%s\n", j->start_line);
    tmp = xasprintf("%s.tmp%d", j->dir, (int)getpid());
    if (netbuild_rm_tree(tmp) || mkdir(tmp, 0777)) {
        snprintf(err, errlen, "cannot create the build directory %s: %s", tmp, strerror(errno));
        free(tmp);
        tmp = NULL; /* not ours: not marked failed */
        goto fail;
    }
    log = xasprintf("%s/build.log", tmp);
    /* GNU make refuses a folder with a space; a quote or $ would reach its
     * recipes' shell: such a build folder (XNOC_BUILD) has the model
     * compiled in a private folder of TMPDIR (or /tmp), removed afterwards. */
    if (make_safe(tmp)) work = xstrdup(tmp);
    else {
        const char *td = getenv("TMPDIR");
        work = xasprintf("%s/xnoc-obj-XXXXXX", td && make_safe(td) ? td : "/tmp");
        if (!mkdtemp(work)) {
            snprintf(err, errlen, "cannot create a build folder %s: %s", work, strerror(errno));
            free(work);
            work = NULL;
            goto fail;
        }
    }
    objd = xasprintf("%s/obj", work);
    if (j->prepare && j->prepare(j, tmp, err, errlen)) goto fail;
    /* Every external program runs from an argument vector (run_argv): the
     * words are those the shell commands had, so the builds are the same.
     * Verilator expands $VAR and $(VAR) in file names: the build folder's
     * own files are named relative to it (the folder, its cwd). */
    for (char **w = j->vl_words; *w; w++) sv_add(&a, xstrdup(*w));
    sv_add(&a, xstrdup("-Mdir"));
    sv_add(&a, xstrdup(objd));
    for (char **p = j->srcs; *p; p++) sv_add(&a, xstrdup(*p));
    if (j->extra_src) sv_add(&a, xstrdup(j->extra_src));
    if (netbuild_run_argv(a.v, tmp, log, j->verilating, progress, t_build)) {
        snprintf(err, errlen, "building %s: verilator failed; see %s", j->name, log);
        goto fail;
    }
    int count = 0;
    if (j->step && j->step(objd, &count, err, errlen)) goto fail;
    FILE *lf = j->step ? fopen(log, "a") : NULL; /* for whoever reads the build log: what the step did */
    if (lf) {
        fprintf(lf, j->step_note, count);
        fputc('\n', lf);
        fclose(lf);
    }
    if (progress)
        fprintf(stderr, "xnoc: [%.0f s] verilated; compiling the %s (C++ %s)...\n", cli_now() - t_build, j->model_word,
                opt);
    int failed = compile_model(&j->mc, tmp, work, objd, log, glue_hdr, trig_hdr, j->trace, j->asserts, progress,
                               t_build, &file, err, errlen);
    if (failed < 0) goto fail;
    if (failed) {
        snprintf(err, errlen, "building %s: compiling the verilated %s failed; see %s", j->name, j->model_word, log);
        goto fail;
    }
    int kept = netbuild_rm_tree(objd) || unlink(file) || (strcmp(work, tmp) && rmdir(work)) ||
               netbuild_rm_tree(j->dir) || rename(tmp, j->dir);
    if (kept) {
        snprintf(err, errlen, "building %s: cannot move the model into %s: %s", j->name, j->dir, strerror(errno));
        goto fail;
    }
    if (progress) fprintf(stderr, "xnoc: [%.0f s] %s\n", cli_now() - t_build, j->done_line);
    build_note("built", j->dir, cli_now() - t_build);
done:
    rc_ = 0;
    goto out;
fail: /* a failed build keeps its directory, marked, for the log in it */
    if (tmp) {
        char *mark = xasprintf("%s/failed", tmp);
        write_file(mark, "", 0);
        free(mark);
        if (work && strcmp(work, tmp)) netbuild_rm_tree(work); /* the log stays in tmp */
    }
    free(*path);
    *path = NULL;
out:
    if (lock >= 0) close(lock);
    free_strv(a.v);
    free(cache);
    free(lockp);
    free(tmp);
    free(log);
    free(file);
    free(work);
    free(objd);
    free(glue_hdr);
    free(trig_hdr);
    return rc_;
}

/* the flat build's generated sources: the netlist and the glue's channels */
typedef struct {
    const char *sv, *io;
    size_t svn, ion;
} flat_src;

static int flat_prepare(const build_job *j, const char *tmp, char *err, size_t errlen)
{
    const flat_src *f = j->ctx;
    char *svp = xasprintf("%s/xnoc_network.sv", tmp), *iop = xasprintf("%s/xnoc_io.inc", tmp);
    int wrote = write_file(svp, f->sv, f->svn) == 0 && write_file(iop, f->io, f->ion) == 0;
    free(svp);
    free(iop);
    if (!wrote) snprintf(err, errlen, "cannot write the generated network into %s", tmp);
    return wrote ? 0 : -1;
}

int netbuild(const topo *t, const router_cfg *rc, int variant, int progress, char **path, char *err, size_t errlen)
{
    progress = progress && cli_progress_enabled();
    int trace = variant & NETBUILD_TRACE, asserts = variant & NETBUILD_ASSERT, monitor = variant & NETBUILD_MONITOR;
    flat_src fs = {0};
    char *sv = NULL, *io = NULL, **srcs = NULL;
    size_t svn = 0, ion = 0;
    uint64_t h;
    *path = NULL;
    if (model_key(t, rc, variant, &sv, &svn, &io, &ion, &srcs, &h, err, errlen)) {
        free(sv);
        free(io);
        free_strv(srcs);
        return -1;
    }
    fs = (flat_src){sv, io, svn, ion};
    char *tag = xasprintf("%.95s", t->name); /* the folder names the models were cached under */
    for (char *c = tag; *c; c++)
        if (*c == ':' || *c == '=') *c = '_';
    char thr[16] = "";
    if (rc->threads > 1) snprintf(thr, sizeof thr, "-t%d", rc->threads);
    char *dir =
        xasprintf("%s/cache/%s-k%d-v%d-b%d%s%s%s%s-%016llx", cli_build_dir(), tag, t->k, rc->vcs, rc->buf, thr,
                  trace ? "-trace" : "", asserts ? "-assert" : "", monitor ? "-mon" : "", (unsigned long long)h);
    *path = xasprintf("%s/net.so", dir);
    strv vl = {0}, defs = {0}; /* verilator's words; the network's own flags of the glue's compile */
    sv_add(&vl, xstrdup("verilator"));
    sv_words(&vl, VERILATOR_FLAGS);
    sv_words(&vl, asserts ? VERILATOR_ASSERT : VERILATOR_FAST);
    if (trace) sv_add(&vl, xstrdup("--trace"));
    if (rc->threads > 1) { /* the model's evaluation split over threads (Verilator's own scheduler) */
        sv_add(&vl, xstrdup("--threads"));
        sv_add(&vl, xasprintf("%d", rc->threads));
    }
    if (monitor) sv_add(&defs, xstrdup("-DXNOC_MONITOR"));
    if (rc->threads > 1) sv_add(&defs, xasprintf("-DXNOC_THREADS=%d", rc->threads));
    char *name = xasprintf("network %s", t->name);
    char *wait_line = xasprintf("xnoc: waiting for another xnoc building network %s k=%d vcs=%d buf=%d", t->name, t->k,
                                rc->vcs, rc->buf);
    char *start_line =
        xasprintf("xnoc: building network %s k=%d vcs=%d buf=%d%s%s%s (first use, cached afterwards): verilating...",
                  t->name, t->k, rc->vcs, rc->buf, trace ? " with tracing" : "", asserts ? " with assertions" : "",
                  monitor ? " with link taps" : "");
    char *done_line = xasprintf("network %s built", t->name);
    char *glue = xasprintf("%s/sim_harness/glue/xnoc_glue.cpp", cli_src_dir());
    build_job j = {.dir = dir,
                   .so = *path,
                   .name = name,
                   .model_word = "model",
                   .wait_line = wait_line,
                   .start_line = start_line,
                   .done_line = done_line,
                   .verilating = "building the network: verilating",
                   .vl_words = vl.v,
                   .srcs = srcs,
                   .extra_src = "xnoc_network.sv",
                   .trace = trace,
                   .asserts = asserts,
                   .prepare = flat_prepare,
                   .step = netbuild_dedupe,
                   .step_note = "net/dedupe.c: %d call(s) pointed at the first copy of an identical function",
                   .ctx = &fs,
                   .mc = {.top = "xnoc_network",
                          .so = "net.so",
                          .what = "building the network: compiling the model",
                          .first = NULL,
                          .glue = glue,
                          .defs = defs.v,
                          .include_tmp = 1}};
    int r = build_model(&j, path, progress, err, errlen);
    free_strv(vl.v);
    free_strv(defs.v);
    free_strv(srcs);
    free(sv);
    free(io);
    free(tag);
    free(dir);
    free(name);
    free(wait_line);
    free(start_line);
    free(done_line);
    free(glue);
    return r;
}

/* ---- the tile build: one router configuration, any network (netbuild.h) ---- */

#define VERILATOR_TILE_FLAGS                                                                                           \
    "--cc -O3 --x-assign fast --x-initial fast -Wno-fatal -Wno-lint -Wno-style --top-module xnoc_tile"

/* The routing table of a tile without a unit: the network's address count
 * rounded up to a power of two (16 at least), so networks of 9 to 16
 * terminals share a model, those of 17 to 32 the next, and so on; the tile
 * flags an address beyond the network's at run time (rtl/xnoc_tile.sv na_q).
 * A coding unit's address space stays exact: its mask length, its unit
 * addresses (terminals + router) and its mask check are the network's. */
int netbuild_tile_addrs(const topo *t, const router_cfg *rc)
{
    int na = netgen_addresses(t, rc), b = 16;
    if (rc->ncu) return na;
    while (b < na) b *= 2;
    return b + router_groups(t, rc) <= 1 << CFG_ADDR_W ? b : na; /* the group table follows it */
}

void netbuild_tile_params(const topo *t, const router_cfg *rc, netbuild_tile_p *tp)
{
    memset(tp, 0, sizeof *tp);
    tp->ports = t->nports;
    tp->vcs = rc->vcs;
    tp->buf = rc->buf;
    tp->addrs = netbuild_tile_addrs(t, rc);
    tp->classes = router_classes(t, rc);
    tp->groups = router_groups(t, rc);
    tp->route_bits = topo_port_bits(t);
    tp->ncu = rc->ncu;
    if (rc->ncu) { /* the unit's parameters matter only with a unit: without, one model serves them all */
        tp->terms = t->nterms;
        tp->slots = rc->slots;
        tp->xorlat = rc->xorlat;
        tp->ncmax = rc->ncmax;
        tp->timeout = rc->timeout;
        tp->ncu_ops = rc->ncu_ops == NCU_OPS_XOR ? 0 : 1;
    }
    /* a unit's lanes past the first: router ports inside the tile (netgen.c wire_lanes) */
    tp->lanes = router_lanes(t, rc);
    tp->lane_reserve = router_lane_reserve(t, rc);
    tp->stream = rc->ncu && rc->stream;
}

/* The tile's Verilog parameters as Verilator's -G options (heap words into a). */
static void tile_gparams(strv *a, const netbuild_tile_p *tp)
{
    sv_add(a, xasprintf("-GNumPorts=%d", tp->ports));
    sv_add(a, xasprintf("-GNumVcs=%d", tp->vcs));
    sv_add(a, xasprintf("-GBufDepth=%d", tp->buf));
    sv_add(a, xasprintf("-GNumAddrs=%d", tp->addrs));
    sv_add(a, xasprintf("-GNumClasses=%d", tp->classes));
    sv_add(a, xasprintf("-GNumGroups=%d", tp->groups));
    sv_add(a, xasprintf("-GRouteBits=%d", tp->route_bits));
    sv_add(a, xasprintf("-GNcu=%d", tp->ncu));
    if (tp->ncu) {
        sv_add(a, xasprintf("-GNumTerms=%d", tp->terms));
        sv_add(a, xasprintf("-GNumSlots=%d", tp->slots));
        sv_add(a, xasprintf("-GXorLat=%d", tp->xorlat));
        sv_add(a, xasprintf("-GMaxFlits=%d", tp->ncmax));
        sv_add(a, xasprintf("-GTimeout=%d", tp->timeout));
        sv_add(a, xasprintf("-GNcuOps=%d", tp->ncu_ops));
    }
    if (tp->lanes > 1) { /* one lane: the RTL's defaults (the tile of one lane keeps its -G list) */
        sv_add(a, xasprintf("-GNumLanes=%d", tp->lanes));
        sv_add(a, xasprintf("-GLaneReserve=%d", tp->lane_reserve));
    }
    if (tp->stream) sv_add(a, xstrdup("-GStream=1"));
}

/* The tile model's key: its parameters, the router sources with the tile, the
 * tile glue, the flags, the variant, the Verilator installed. */
static int tile_key(const netbuild_tile_p *tp, int variant, char ***srcs, uint64_t *key, char *err, size_t errlen)
{
    uint64_t h = FNV1A_INIT;
    *srcs = rtl_paths_of(&h, 1, err, errlen);
    if (!*srcs) return -1;
    const char *glue_files[] = {"xnoc_tile_glue.cpp", "xnoc_glue_common.h", "xnoc_vl_printf.h",
                                "xnoc_vl_triggers.h", "xnoc_tile.vlt",      "../../firmware/lib/link_flit.h"};
    for (size_t i = 0; i < sizeof glue_files / sizeof *glue_files; i++) {
        char *g = xasprintf("%s/sim_harness/glue/%s", cli_src_dir(), glue_files[i]);
        int bad = hash_file(g, &h);
        if (bad) snprintf(err, errlen, "cannot read the C++ glue %s: %s", g, strerror(errno));
        free(g);
        if (bad) return -1;
    }
    const char *opt = cxx_opt();
    h = fnv1a(h, tp, sizeof *tp);
    h = fnv1a(h, VERILATOR_TILE_FLAGS, strlen(VERILATOR_TILE_FLAGS));
    h = fnv1a(h, opt, strlen(opt));
    h = fnv1a(h, &variant, sizeof variant);
    h = fnv1a(h, "unity-1", 7); /* compile_unity */
    const char *cxx[] = {TILE_CXX_FAST, TILE_CXX_SLOW, TILE_CXX_GLUE, TILE_CXX_LINK};
    for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++) h = fnv1a(h, cxx[i], strlen(cxx[i]) + 1);
    if (verilator_identity(&h)) {
        snprintf(err, errlen, "verilator not found: run 'make deps' (it installs Debian's verilator)");
        return -1;
    }
    *key = h;
    return 0;
}

int netbuild_tile_key(const topo *t, const router_cfg *rc, int variant, uint64_t *key, char *err, size_t errlen)
{
    netbuild_tile_p tp;
    netbuild_tile_params(t, rc, &tp);
    char **srcs = NULL;
    int r = tile_key(&tp, variant & ~NETBUILD_MONITOR, &srcs, key, err, errlen);
    free_strv(srcs);
    return r;
}

int netbuild_tile(const topo *t, const router_cfg *rc, int variant, int progress, char **path, char *err, size_t errlen)
{
    progress = progress && cli_progress_enabled();
    variant &= ~NETBUILD_MONITOR; /* every tile model has its taps */
    int trace = variant & NETBUILD_TRACE, asserts = variant & NETBUILD_ASSERT;
    netbuild_tile_p tp;
    netbuild_tile_params(t, rc, &tp);
    char **srcs = NULL;
    uint64_t h;
    *path = NULL;
    if (tile_key(&tp, variant, &srcs, &h, err, errlen)) {
        free_strv(srcs);
        return -1;
    }
    char *lanes = tp.lanes > 1 ? xasprintf(" of %d lanes", tp.lanes) : xstrdup("");
    char *what = xasprintf("router p=%d addrs=%d vcs=%d buf=%d%s%s", tp.ports, tp.addrs, tp.vcs, tp.buf,
                           tp.ncu ? " with a coding unit" : "", lanes);
    free(lanes);
    char *lw =
        tp.lanes > 1 ? xasprintf("-l%d%s%s", tp.lanes, tp.lane_reserve ? "r" : "", tp.stream ? "s" : "") : xstrdup("");
    char *dir = xasprintf("%s/cache/tile-p%d-a%d-c%d-g%d-s%d-v%d-b%d%s%s%s%s-%016llx", cli_build_dir(), tp.ports,
                          tp.addrs, tp.classes, tp.groups, tp.route_bits, tp.vcs, tp.buf, tp.ncu ? "-u" : "", lw,
                          trace ? "-trace" : "", asserts ? "-assert" : "", (unsigned long long)h);
    free(lw);
    *path = xasprintf("%s/tile.so", dir);
    strv vl = {0}, defs = {0}; /* verilator's words; the tile's own flags of the glue's compile */
    sv_add(&vl, xstrdup("verilator"));
    sv_words(&vl, VERILATOR_TILE_FLAGS);
    sv_words(&vl, asserts ? VERILATOR_ASSERT : VERILATOR_FAST);
    if (trace) sv_add(&vl, xstrdup("--trace"));
    tile_gparams(&vl, &tp);
    sv_add(&vl, xasprintf("%s/sim_harness/glue/xnoc_tile.vlt", cli_src_dir())); /* the router inlined */
    sv_add(&defs, xasprintf("-DXNOC_NP=%d", tp.ports));
    sv_add(&defs, xasprintf("-DXNOC_NCU=%d", tp.ncu));
    char *name = xasprintf("the %s", what);
    char *wait_line = xasprintf("xnoc: waiting for another xnoc building the %s", what);
    char *start_line = xasprintf("xnoc: building the %s%s%s (first use, cached afterwards, any network): verilating...",
                                 what, trace ? " with tracing" : "", asserts ? " with assertions" : "");
    char *glue = xasprintf("%s/sim_harness/glue/xnoc_tile_glue.cpp", cli_src_dir());
    build_job j = {.dir = dir,
                   .so = *path,
                   .name = name,
                   .model_word = "tile",
                   .wait_line = wait_line,
                   .start_line = start_line,
                   .done_line = "router tile built",
                   .verilating = "building the router tile: verilating",
                   .vl_words = vl.v,
                   .srcs = srcs,
                   .extra_src = NULL,
                   .trace = trace,
                   .asserts = asserts,
                   .prepare = NULL,
                   .step = NULL, /* nothing to do on the verilated tile */
                   .step_note = NULL,
                   .ctx = NULL,
                   .mc = {.top = "xnoc_tile",
                          .so = "tile.so",
                          .what = "building the router tile: compiling",
                          .first = "-std=gnu++17",
                          .glue = glue,
                          .defs = defs.v,
                          .include_tmp = 0,
                          .unity = 1}};
    int r = build_model(&j, path, progress, err, errlen);
    free_strv(vl.v);
    free_strv(defs.v);
    free_strv(srcs);
    free(what);
    free(dir);
    free(name);
    free(wait_line);
    free(start_line);
    free(glue);
    return r;
}
