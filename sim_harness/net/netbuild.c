/* netbuild.c - verilate + compile + cache a network model (see netbuild.h). */
#include "net/netbuild.h"

/* Paths here are bounded by PATH_MAX; a truncated command would fail loudly. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

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

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
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

int netbuild_rtl_sources(char *list, size_t len, uint64_t *hash, char *err, size_t errlen)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/rtl", cli_src_dir());
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot open the router sources in %s: %s", dir, strerror(errno));
        return -1;
    }
    char *names[64] = {0};
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        size_t l = strlen(e->d_name);
        if (l > 3 && !strcmp(e->d_name + l - 3, ".sv")) names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    list[0] = 0;
    for (int i = 0; i < n; i++) {
        char path[4400];
        size_t sz;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text = cli_slurp(path, &sz);
        if (text) *hash = fnv(fnv(*hash, names[i], strlen(names[i])), text, sz);
        free(text);
        size_t used = strlen(list);
        snprintf(list + used, len - used, "%s'%s'", used ? " " : "", path);
        free(names[i]);
    }
    if (!n) {
        snprintf(err, errlen, "no router sources (*.sv) in %s", dir);
        return -1;
    }
    return 0;
}

int netbuild_run_step(const char *cmd, const char *log, const char *what, int progress, double t0)
{
    char full[16384];
    snprintf(full, sizeof full, "(%s) >>'%s' 2>&1", cmd, log);
    if (!progress) return system(full);
    pid_t pid = fork();
    if (pid < 0) return system(full);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, WNOHANG) == 0) {
        cli_progress("%s (%.0f s in)", what, cli_now() - t0);
        usleep(200000);
    }
    cli_progress_done();
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* Hashes a file of the source tree into h; -1 if it cannot be read. */
static int hash_file(const char *path, uint64_t *h)
{
    size_t n;
    char *text = cli_slurp(path, &n);
    if (!text) return -1;
    *h = fnv(*h, text, n);
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
            char file[4200];
            snprintf(file, sizeof file, "%.*s/%s", (int)n, n ? p : ".", progs[i]);
            struct stat st;
            if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR)) {
                uint64_t id[3] = {(uint64_t)st.st_size, (uint64_t)st.st_mtime, (uint64_t)st.st_ino};
                *h = fnv(*h, id, sizeof id);
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

int netbuild(const topo *t, const router_cfg *rc, int variant, int progress, char *path, size_t pathlen, char *err,
             size_t errlen)
{
    progress = progress && cli_progress_enabled();
    int trace = variant & NETBUILD_TRACE, asserts = variant & NETBUILD_ASSERT, monitor = variant & NETBUILD_MONITOR;
    const char *opt = cxx_opt();
    char *sv = NULL, *io = NULL;
    size_t svn = 0, ion = 0;
    int lock = -1;
    char tmp[4500] = ""; /* the private build folder, once made */
    FILE *f = open_memstream(&sv, &svn);
    netgen_verilog(f, t, rc, monitor);
    fclose(f);
    f = open_memstream(&io, &ion);
    netgen_glue_io(f, t, rc, monitor);
    fclose(f);

    uint64_t h = 0xcbf29ce484222325ULL;
    char srcs[8192], glue[4300], glue_hdr[4300], trig_hdr[4300];
    if (netbuild_rtl_sources(srcs, sizeof srcs, &h, err, errlen)) goto fail;
    snprintf(glue, sizeof glue, "%s/sim_harness/glue/xnoc_glue.cpp", cli_src_dir());
    snprintf(glue_hdr, sizeof glue_hdr, "%s/sim_harness/glue/xnoc_vl_printf.h", cli_src_dir());
    snprintf(trig_hdr, sizeof trig_hdr, "%s/sim_harness/glue/xnoc_vl_triggers.h", cli_src_dir());
    const char *glue_files[] = {glue, glue_hdr, trig_hdr};
    for (int i = 0; i < 3; i++) {
        if (hash_file(glue_files[i], &h)) {
            snprintf(err, errlen, "cannot read the C++ glue %s: %s", glue_files[i], strerror(errno));
            goto fail;
        }
    }
    h = fnv(h, sv, svn);
    h = fnv(h, io, ion);
    h = fnv(h, VERILATOR_FLAGS, strlen(VERILATOR_FLAGS));
    h = fnv(h, opt, strlen(opt));
    h = fnv(h, &variant, sizeof variant);
    h = fnv(h, "dedupe-2", 8); /* models built before net/dedupe.c are rebuilt */
    if (verilator_identity(&h)) {
        snprintf(err, errlen, "verilator not found: run 'make deps' (it installs Debian's verilator)");
        goto fail;
    }

    char cache[4300], dir[4400], lockp[4500], cmd[16384], log[4600];
    snprintf(cache, sizeof cache, "%s/cache", cli_build_dir());
    mkdir(cli_build_dir(), 0777);
    mkdir(cache, 0777);
    char tag[96];
    snprintf(tag, sizeof tag, "%s", t->name);
    for (char *c = tag; *c; c++)
        if (*c == ':' || *c == '=') *c = '_';
    char thr[16] = "";
    if (rc->threads > 1) snprintf(thr, sizeof thr, "-t%d", rc->threads);
    snprintf(dir, sizeof dir, "%s/%s-k%d-v%d-b%d%s%s%s%s-%016llx", cache, tag, t->k, rc->vcs, rc->buf, thr,
             trace ? "-trace" : "", asserts ? "-assert" : "", monitor ? "-mon" : "", (unsigned long long)h);
    snprintf(path, pathlen, "%s/net.so", dir);
    if (access(path, R_OK) == 0) goto done;

    snprintf(lockp, sizeof lockp, "%s.lock", dir);
    lock = open(lockp, O_CREAT | O_RDWR, 0666);
    double t_wait = cli_now();
    if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) != 0) { /* another process builds it: say so, then wait */
        if (progress)
            fprintf(stderr, "xnoc: waiting for another xnoc building network %s k=%d vcs=%d buf=%d (%s)...\n", t->name,
                    t->k, rc->vcs, rc->buf, lockp);
        flock(lock, LOCK_EX);
    }
    if (access(path, R_OK) == 0) { /* someone else built it meanwhile */
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
    snprintf(tmp, sizeof tmp, "%s.tmp%d", dir, (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", tmp, tmp);
    if (system(cmd) != 0) {
        snprintf(err, errlen, "cannot create the build directory %s", tmp);
        goto fail;
    }
    snprintf(log, sizeof log, "%s/build.log", tmp);
    char svp[4600], iop[4600];
    snprintf(svp, sizeof svp, "%s/xnoc_network.sv", tmp);
    snprintf(iop, sizeof iop, "%s/xnoc_io.inc", tmp);
    if (write_file(svp, sv, svn) || write_file(iop, io, ion)) {
        snprintf(err, errlen, "cannot write the generated network into %s", tmp);
        goto fail;
    }
    char vthr[48] = "", gthr[48] = "", defs[64];
    snprintf(defs, sizeof defs, "%s%s", trace ? "-DXNOC_TRACE " : "", monitor ? "-DXNOC_MONITOR " : "");
    if (rc->threads > 1) { /* the model's evaluation split over threads (Verilator's own scheduler) */
        snprintf(vthr, sizeof vthr, " --threads %d", rc->threads);
        snprintf(gthr, sizeof gthr, "-DXNOC_THREADS=%d ", rc->threads);
    }
    snprintf(cmd, sizeof cmd, "verilator " VERILATOR_FLAGS "%s%s%s -Mdir '%s/obj' %s '%s'",
             asserts ? VERILATOR_ASSERT : VERILATOR_FAST, trace ? " --trace" : "", vthr, tmp, srcs, svp);
    if (netbuild_run_step(cmd, log, "building the network: verilating", progress, t_build)) {
        snprintf(err, errlen, "building network %s: verilator failed; see %s", t->name, log);
        goto fail;
    }
    char objdir[4600];
    int moved = 0;
    snprintf(objdir, sizeof objdir, "%s/obj", tmp);
    if (netbuild_dedupe(objdir, &moved, err, errlen)) goto fail;
    FILE *lf = fopen(log, "a"); /* for whoever reads the build log: what the pass did */
    if (lf) {
        fprintf(lf, "net/dedupe.c: %d call(s) pointed at the first copy of an identical function\n", moved);
        fclose(lf);
    }
    if (progress)
        fprintf(stderr, "xnoc: [%.0f s] verilated; compiling the model (C++ %s)...\n", cli_now() - t_build, opt);
    /* The model's per-cycle code gets `opt`; its one-time code and the
     * Verilator runtime -O1 (they do not run per cycle). */
    snprintf(cmd, sizeof cmd,
             "make -s -j2 -C '%s/obj' -f Vxnoc_network.mk OPT_FAST='%s' OPT_SLOW=-O1 OPT_GLOBAL=-O1 "
             "CXXFLAGS=\"-fPIC -w -include '%s'\" Vxnoc_network__ALL.a && "
             "g++ -shared -fPIC %s -w %s%s%s%s -include '%s' -I'%s' -I'%s/obj' -I" VL_INC " -I" VL_INC
             "/vltstd -o '%s/net.so' '%s' "
             "'%s/obj/Vxnoc_network__ALL.a' " VL_INC "/verilated.cpp " VL_INC "/verilated_threads.cpp %s -pthread",
             tmp, opt, trig_hdr, opt, defs, gthr,
             asserts ? "-DXNOC_ASSERT_BUILD -DVL_PRINTF=xg_vl_printf -include " : "", asserts ? glue_hdr : "", trig_hdr,
             tmp, tmp, tmp, glue, tmp, trace ? VL_INC "/verilated_vcd_c.cpp" : "");
    if (netbuild_run_step(cmd, log, "building the network: compiling the model", progress, t_build)) {
        snprintf(err, errlen, "building network %s: compiling the verilated model failed; see %s", t->name, log);
        goto fail;
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s/obj' && rm -rf '%s' && mv '%s' '%s'", tmp, dir, tmp, dir);
    if (system(cmd) != 0) {
        snprintf(err, errlen, "building network %s: cannot move the model into %s", t->name, dir);
        goto fail;
    }
    if (progress) fprintf(stderr, "xnoc: [%.0f s] network %s built\n", cli_now() - t_build, t->name);
    build_note("built", dir, cli_now() - t_build);
done:
    if (lock >= 0) close(lock);
    free(sv);
    free(io);
    return 0;
fail: /* a failed build keeps its directory, marked, for the log in it */
    if (*tmp) {
        char *mark = xasprintf("%s/failed", tmp);
        write_file(mark, "", 0);
        free(mark);
    }
    if (lock >= 0) close(lock);
    free(sv);
    free(io);
    return -1;
}
