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
int netbuild_run_argv(char *const argv[], const char *cwd, const char *log, const char *what, int progress, double t0)
{
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return 127;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        return 127;
    }
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
    close(fd);
    int st = 0;
    pid_t w;
    if (progress) {
        while ((w = waitpid(pid, &st, WNOHANG)) == 0) {
            cli_progress("%s (%.0f s in)", what, cli_now() - t0);
            usleep(200000);
        }
        cli_progress_done();
    } else {
        while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR) {}
    }
    if (w < 0) return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
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
    char **defs;
    int include_tmp; /* -I the build folder: the flat glue includes its generated xnoc_io.inc */
} model_compile;

/* The C++ half of a build, the same for the flat network and the tile:
 * the trigger header copied beside obj/ (*file: its path, for the caller
 * to remove), Verilator's archive made, the glue compiled and linked with
 * it.  0 built, 1 a compiler failed (see log), -1 an error in err. */
static int compile_model(const model_compile *mc, const char *tmp, const char *work, const char *objd, const char *log,
                         const char *glue, const char *glue_hdr, const char *trig_hdr, int trace, int asserts,
                         int progress, double t_build, char **file, char *err, size_t errlen)
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
    /* The model's per-cycle code gets `opt`; its one-time code and the
     * Verilator runtime -O1 (they do not run per cycle). */
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
    sv_add(&a, xstrdup(glue));
    sv_add(&a, xasprintf("%s/V%s__ALL.a", objd, mc->top));
    sv_words(&a, VL_INC "/verilated.cpp " VL_INC "/verilated_threads.cpp");
    if (trace) sv_add(&a, xstrdup(VL_INC "/verilated_vcd_c.cpp"));
    sv_add(&a, xstrdup("-pthread"));
    failed = netbuild_run_argv(a.v, tmp, log, mc->what, progress, t_build);
    free_strv(a.v);
    return failed ? 1 : 0;
}

int netbuild(const topo *t, const router_cfg *rc, int variant, int progress, char **path, char *err, size_t errlen)
{
    progress = progress && cli_progress_enabled();
    int trace = variant & NETBUILD_TRACE, asserts = variant & NETBUILD_ASSERT, monitor = variant & NETBUILD_MONITOR;
    const char *opt = cxx_opt();
    char *sv = NULL, *io = NULL, **srcs = NULL;
    size_t svn = 0, ion = 0;
    int lock = -1, rc_ = -1;
    uint64_t h;
    char *cache = NULL, *dir = NULL, *lockp = NULL, *tmp = NULL, *log = NULL, *file = NULL, *tag = NULL;
    char *work = NULL, *objd = NULL; /* where make compiles: tmp, or a private folder (make_safe) */
    char *glue = xasprintf("%s/sim_harness/glue/xnoc_glue.cpp", cli_src_dir());
    char *glue_hdr = xasprintf("%s/sim_harness/glue/xnoc_vl_printf.h", cli_src_dir());
    char *trig_hdr = xasprintf("%s/sim_harness/glue/xnoc_vl_triggers.h", cli_src_dir());
    strv a = {0};
    *path = NULL;
    if (model_key(t, rc, variant, &sv, &svn, &io, &ion, &srcs, &h, err, errlen)) goto out;

    cache = xasprintf("%s/cache", cli_build_dir());
    mkdir(cli_build_dir(), 0777);
    mkdir(cache, 0777);
    tag = xasprintf("%.95s", t->name); /* the folder names the models were cached under */
    for (char *c = tag; *c; c++)
        if (*c == ':' || *c == '=') *c = '_';
    char thr[16] = "";
    if (rc->threads > 1) snprintf(thr, sizeof thr, "-t%d", rc->threads);
    dir = xasprintf("%s/%s-k%d-v%d-b%d%s%s%s%s-%016llx", cache, tag, t->k, rc->vcs, rc->buf, thr, trace ? "-trace" : "",
                    asserts ? "-assert" : "", monitor ? "-mon" : "", (unsigned long long)h);
    *path = xasprintf("%s/net.so", dir);
    if (access(*path, R_OK) == 0) goto done;

    lockp = xasprintf("%s.lock", dir);
    lock = open(lockp, O_CREAT | O_RDWR, 0666);
    double t_wait = cli_now();
    if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) != 0) { /* another process builds it: say so, then wait */
        if (progress)
            fprintf(stderr, "xnoc: waiting for another xnoc building network %s k=%d vcs=%d buf=%d (%s)...\n", t->name,
                    t->k, rc->vcs, rc->buf, lockp);
        flock(lock, LOCK_EX);
    }
    if (access(*path, R_OK) == 0) { /* someone else built it meanwhile */
        build_note("waited", dir, cli_now() - t_wait);
        goto done;
    }
    clean_stale(cache, dir, progress);
    double t_build = cli_now();
    if (progress)
        fprintf(stderr,
                "xnoc: building network %s k=%d vcs=%d buf=%d%s%s%s (first use, cached afterwards): verilating...\n",
                t->name, t->k, rc->vcs, rc->buf, trace ? " with tracing" : "", asserts ? " with assertions" : "",
                monitor ? " with link taps" : "");
    tmp = xasprintf("%s.tmp%d", dir, (int)getpid());
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
    char *svp = xasprintf("%s/xnoc_network.sv", tmp), *iop = xasprintf("%s/xnoc_io.inc", tmp);
    int wrote = write_file(svp, sv, svn) == 0 && write_file(iop, io, ion) == 0;
    free(iop);
    if (!wrote) {
        free(svp);
        snprintf(err, errlen, "cannot write the generated network into %s", tmp);
        goto fail;
    }
    /* Every external program runs from an argument vector (run_argv): the
     * words are those the shell commands had, so the builds are the same. */
    sv_add(&a, xstrdup("verilator"));
    sv_words(&a, VERILATOR_FLAGS);
    sv_words(&a, asserts ? VERILATOR_ASSERT : VERILATOR_FAST);
    if (trace) sv_add(&a, xstrdup("--trace"));
    if (rc->threads > 1) { /* the model's evaluation split over threads (Verilator's own scheduler) */
        sv_add(&a, xstrdup("--threads"));
        sv_add(&a, xasprintf("%d", rc->threads));
    }
    /* Verilator expands $VAR and $(VAR) in file names: the build folder's
     * own files are named relative to it (the folder, its cwd). */
    sv_add(&a, xstrdup("-Mdir"));
    sv_add(&a, xstrdup(objd));
    for (char **p = srcs; *p; p++) sv_add(&a, xstrdup(*p));
    sv_add(&a, xstrdup("xnoc_network.sv"));
    free(svp);
    if (netbuild_run_argv(a.v, tmp, log, "building the network: verilating", progress, t_build)) {
        snprintf(err, errlen, "building network %s: verilator failed; see %s", t->name, log);
        goto fail;
    }
    free_strv(a.v);
    a = (strv){0};
    int moved = 0, dd = netbuild_dedupe(objd, &moved, err, errlen);
    if (dd) goto fail;
    FILE *lf = fopen(log, "a"); /* for whoever reads the build log: what the pass did */
    if (lf) {
        fprintf(lf, "net/dedupe.c: %d call(s) pointed at the first copy of an identical function\n", moved);
        fclose(lf);
    }
    if (progress)
        fprintf(stderr, "xnoc: [%.0f s] verilated; compiling the model (C++ %s)...\n", cli_now() - t_build, opt);
    strv defs = {0}; /* the network's own flags of the glue's compile */
    if (monitor) sv_add(&defs, xstrdup("-DXNOC_MONITOR"));
    if (rc->threads > 1) sv_add(&defs, xasprintf("-DXNOC_THREADS=%d", rc->threads));
    model_compile mc = {.top = "xnoc_network",
                        .so = "net.so",
                        .what = "building the network: compiling the model",
                        .first = NULL,
                        .defs = defs.v,
                        .include_tmp = 1};
    int failed = compile_model(&mc, tmp, work, objd, log, glue, glue_hdr, trig_hdr, trace, asserts, progress, t_build,
                               &file, err, errlen);
    free_strv(defs.v);
    if (failed < 0) goto fail;
    if (failed) {
        snprintf(err, errlen, "building network %s: compiling the verilated model failed; see %s", t->name, log);
        goto fail;
    }
    int kept = netbuild_rm_tree(objd) || unlink(file) || (strcmp(work, tmp) && rmdir(work)) || netbuild_rm_tree(dir) ||
               rename(tmp, dir);
    if (kept) {
        snprintf(err, errlen, "building network %s: cannot move the model into %s: %s", t->name, dir, strerror(errno));
        goto fail;
    }
    if (progress) fprintf(stderr, "xnoc: [%.0f s] network %s built\n", cli_now() - t_build, t->name);
    build_note("built", dir, cli_now() - t_build);
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
    free_strv(srcs);
    free(sv);
    free(io);
    free(cache);
    free(dir);
    free(lockp);
    free(tmp);
    free(log);
    free(file);
    free(tag);
    free(work);
    free(objd);
    free(glue);
    free(glue_hdr);
    free(trig_hdr);
    return rc_;
}

/* ---- the tile build: one router configuration, any network (netbuild.h) ---- */

#define VERILATOR_TILE_FLAGS                                                                                           \
    "--cc -O3 --x-assign fast --x-initial fast -Wno-fatal -Wno-lint -Wno-style --top-module xnoc_tile"

void netbuild_tile_params(const topo *t, const router_cfg *rc, netbuild_tile_p *tp)
{
    memset(tp, 0, sizeof *tp);
    tp->ports = t->nports;
    tp->vcs = rc->vcs;
    tp->buf = rc->buf;
    tp->addrs = netgen_addresses(t, rc);
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
}

/* The tile model's key: its parameters, the router sources with the tile, the
 * tile glue, the flags, the variant, the Verilator installed. */
static int tile_key(const netbuild_tile_p *tp, int variant, char ***srcs, uint64_t *key, char *err, size_t errlen)
{
    uint64_t h = FNV1A_INIT;
    *srcs = rtl_paths_of(&h, 1, err, errlen);
    if (!*srcs) return -1;
    const char *glue_files[] = {"xnoc_tile_glue.cpp", "xnoc_glue_common.h", "xnoc_vl_printf.h", "xnoc_vl_triggers.h",
                                "../../firmware/lib/link_flit.h"};
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
    h = fnv1a(h, "ico-2", 5); /* tile_patch_ico */
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

/* The falling-edge evaluation without the router's input logic.  Verilator
 * 5.006 runs a model's whole input-combinational region ("ico": the logic
 * behind top-level inputs) on every eval(), inputs changed or not; a tile's
 * link inputs feed its router's input logic, so that region was 20% of a
 * tile network's time (perf, mesh:8x8), half of it on the falling edge,
 * where no input but the clock has changed.  In the generated _eval_ico(),
 * the router's calls (not the coding unit's: its clock gate's latch is
 * level-sensitive to the clock; nor the tile's own) run only while
 * xnoc_tile_ico is set: the glue
 * clears it for the falling edge of a network cycle (xnoc_tile_glue.cpp
 * tick()).  The router's input logic reads no clock, so the values it
 * would recompute are the ones it holds.  *patched = calls guarded (0: the
 * function was not found, the model is unchanged: still exact, only slower). */
static int tile_patch_ico(const char *objd, int *patched, char *err, size_t errlen)
{
    *patched = 0;
    DIR *d = opendir(objd);
    if (!d) {
        snprintf(err, errlen, "cannot open the verilated tile in %s: %s", objd, strerror(errno));
        return -1;
    }
    const char *head = "void Vxnoc_tile___024root___eval_ico(";
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) && !*patched && !rc) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 4, ".cpp")) continue;
        char *f = xasprintf("%s/%s", objd, e->d_name);
        size_t n;
        char *text = cli_slurp(f, &n);
        char *at = text ? strstr(text, head) : NULL;
        if (at && (at == text || at[-1] == '\n')) {
            char *end = strstr(at, "\n}\n");
            FILE *o = end ? fopen(f, "wb") : NULL;
            if (!o) {
                snprintf(err, errlen, "cannot patch the verilated tile %s", f);
                rc = -1;
            } else {
                fprintf(o, "%.*sextern \"C\" int xnoc_tile_ico;\n", (int)(at - text), text);
                for (char *line = at; line <= end;) {
                    char *nl = strchr(line, '\n');
                    size_t len = (size_t)(nl - line);
                    const char *w = line + strspn(line, " ");
                    int call = *w == 'V' && memmem(line, len, "___ico_sequent__", 16) &&
                               memmem(line, len, "_xnoc_router_", 13) && nl[-1] == ';';
                    fprintf(o, "%.*s%s%.*s\n", (int)(w - line), line, call ? "if (xnoc_tile_ico) " : "", (int)(nl - w),
                            w);
                    *patched += call;
                    line = nl + 1;
                }
                fputs(end + 1, o);
                if (fclose(o)) rc = -1;
            }
        }
        free(text);
        free(f);
    }
    closedir(d);
    return rc;
}

int netbuild_tile(const topo *t, const router_cfg *rc, int variant, int progress, char **path, char *err, size_t errlen)
{
    progress = progress && cli_progress_enabled();
    variant &= ~NETBUILD_MONITOR; /* every tile model has its taps */
    int trace = variant & NETBUILD_TRACE, asserts = variant & NETBUILD_ASSERT;
    const char *opt = cxx_opt();
    netbuild_tile_p tp;
    netbuild_tile_params(t, rc, &tp);
    char **srcs = NULL, *cache = NULL, *dir = NULL, *lockp = NULL, *tmp = NULL, *log = NULL, *file = NULL;
    char *work = NULL, *objd = NULL, *what = NULL;
    char *glue = xasprintf("%s/sim_harness/glue/xnoc_tile_glue.cpp", cli_src_dir());
    char *glue_hdr = xasprintf("%s/sim_harness/glue/xnoc_vl_printf.h", cli_src_dir());
    char *trig_hdr = xasprintf("%s/sim_harness/glue/xnoc_vl_triggers.h", cli_src_dir());
    strv a = {0};
    int lock = -1, rc_ = -1;
    uint64_t h;
    *path = NULL;
    if (tile_key(&tp, variant, &srcs, &h, err, errlen)) goto out;
    cache = xasprintf("%s/cache", cli_build_dir());
    mkdir(cli_build_dir(), 0777);
    mkdir(cache, 0777);
    what = xasprintf("router p=%d addrs=%d vcs=%d buf=%d%s", tp.ports, tp.addrs, tp.vcs, tp.buf,
                     tp.ncu ? " with a coding unit" : "");
    dir = xasprintf("%s/tile-p%d-a%d-c%d-g%d-s%d-v%d-b%d%s%s%s-%016llx", cache, tp.ports, tp.addrs, tp.classes,
                    tp.groups, tp.route_bits, tp.vcs, tp.buf, tp.ncu ? "-u" : "", trace ? "-trace" : "",
                    asserts ? "-assert" : "", (unsigned long long)h);
    *path = xasprintf("%s/tile.so", dir);
    if (access(*path, R_OK) == 0) goto done;

    lockp = xasprintf("%s.lock", dir);
    lock = open(lockp, O_CREAT | O_RDWR, 0666);
    double t_wait = cli_now();
    if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) != 0) {
        if (progress) fprintf(stderr, "xnoc: waiting for another xnoc building the %s (%s)...\n", what, lockp);
        flock(lock, LOCK_EX);
    }
    if (access(*path, R_OK) == 0) {
        build_note("waited", dir, cli_now() - t_wait);
        goto done;
    }
    clean_stale(cache, dir, progress);
    double t_build = cli_now();
    if (progress)
        fprintf(stderr, "xnoc: building the %s%s%s (first use, cached afterwards, any network): verilating...\n", what,
                trace ? " with tracing" : "", asserts ? " with assertions" : "");
    tmp = xasprintf("%s.tmp%d", dir, (int)getpid());
    if (netbuild_rm_tree(tmp) || mkdir(tmp, 0777)) {
        snprintf(err, errlen, "cannot create the build directory %s: %s", tmp, strerror(errno));
        free(tmp);
        tmp = NULL;
        goto fail;
    }
    log = xasprintf("%s/build.log", tmp);
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
    sv_add(&a, xstrdup("verilator"));
    sv_words(&a, VERILATOR_TILE_FLAGS);
    sv_words(&a, asserts ? VERILATOR_ASSERT : VERILATOR_FAST);
    if (trace) sv_add(&a, xstrdup("--trace"));
    tile_gparams(&a, &tp);
    sv_add(&a, xstrdup("-Mdir"));
    sv_add(&a, xstrdup(objd));
    for (char **p = srcs; *p; p++) sv_add(&a, xstrdup(*p));
    if (netbuild_run_argv(a.v, tmp, log, "building the router tile: verilating", progress, t_build)) {
        snprintf(err, errlen, "building the %s: verilator failed; see %s", what, log);
        goto fail;
    }
    free_strv(a.v);
    a = (strv){0};
    int guarded = 0;
    if (tile_patch_ico(objd, &guarded, err, errlen)) goto fail;
    FILE *lf = fopen(log, "a");
    if (lf) {
        fprintf(lf, "netbuild.c tile_patch_ico: %d input-logic call(s) skipped on the falling edge\n", guarded);
        fclose(lf);
    }
    if (progress)
        fprintf(stderr, "xnoc: [%.0f s] verilated; compiling the tile (C++ %s)...\n", cli_now() - t_build, opt);
    strv defs = {0}; /* the tile's own flags of the glue's compile */
    sv_add(&defs, xasprintf("-DXNOC_NP=%d", tp.ports));
    sv_add(&defs, xasprintf("-DXNOC_NCU=%d", tp.ncu));
    model_compile mc = {.top = "xnoc_tile",
                        .so = "tile.so",
                        .what = "building the router tile: compiling",
                        .first = "-std=gnu++17",
                        .defs = defs.v,
                        .include_tmp = 0};
    int failed = compile_model(&mc, tmp, work, objd, log, glue, glue_hdr, trig_hdr, trace, asserts, progress, t_build,
                               &file, err, errlen);
    free_strv(defs.v);
    if (failed < 0) goto fail;
    if (failed) {
        snprintf(err, errlen, "building the %s: compiling the verilated tile failed; see %s", what, log);
        goto fail;
    }
    int kept = netbuild_rm_tree(objd) || unlink(file) || (strcmp(work, tmp) && rmdir(work)) || netbuild_rm_tree(dir) ||
               rename(tmp, dir);
    if (kept) {
        snprintf(err, errlen, "building the %s: cannot move the model into %s: %s", what, dir, strerror(errno));
        goto fail;
    }
    if (progress) fprintf(stderr, "xnoc: [%.0f s] router tile built\n", cli_now() - t_build);
    build_note("built", dir, cli_now() - t_build);
done:
    rc_ = 0;
    goto out;
fail:
    if (tmp) {
        char *mark = xasprintf("%s/failed", tmp);
        write_file(mark, "", 0);
        free(mark);
        if (work && strcmp(work, tmp)) netbuild_rm_tree(work);
    }
    free(*path);
    *path = NULL;
out:
    if (lock >= 0) close(lock);
    free_strv(a.v);
    free_strv(srcs);
    free(cache);
    free(dir);
    free(lockp);
    free(tmp);
    free(log);
    free(file);
    free(work);
    free(objd);
    free(what);
    free(glue);
    free(glue_hdr);
    free(trig_hdr);
    return rc_;
}
