/* netbuild.c - verilate + compile + cache a network model (see netbuild.h). */
#include "net/netbuild.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/model_cache.h"
#include "net/netbuild_impl.h"
#include "util/cli.h"
#include "util/fnv.h"
#include "util/proc.h"

int netbuild_default_variant(void)
{
    const char *e = getenv("XNOC_RTL_ASSERT");
    return e && atoi(e) ? NETBUILD_ASSERT : 0;
}

/* Whether GNU make (Verilator's makefiles) can build in folder p: none of
 * the characters it or its recipes' shell would take apart (a space, a
 * quote, $, ...). */
static int make_safe(const char *p)
{
    return *p && p[strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._,=+:@-")] == 0;
}

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
            if (l) strv_add(into, xasprintf("#include \"%.*s.cpp\"\n", (int)l, line + 1));
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
    const char *opt = model_cache_cxx_opt();
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
    if (mc->first) strv_add(&rt, xstrdup(mc->first));
    strv_words(&rt, "-c -fPIC");
    strv_add(&rt, xstrdup(opt));
    strv_add(&rt, xstrdup("-w"));
    if (asserts) {
        strv_words(&rt, "-DXNOC_ASSERT_BUILD -DVL_PRINTF=xg_vl_printf -include");
        strv_add(&rt, xstrdup(glue_hdr));
    }
    strv_add(&rt, xstrdup("-include"));
    strv_add(&rt, xstrdup(trig_hdr));
    strv_words(&rt, "-I" VL_INC " -I" VL_INC "/vltstd");
    strv_words(&rtsrc, "verilated verilated_threads");
    if (trace) strv_add(&rtsrc, xstrdup("verilated_vcd_c"));
    uint64_t h = FNV1A_INIT;
    for (char **w = rt.v; *w; w++) h = fnv1a(h, *w, strlen(*w) + 1);
    for (char **w = rtsrc.v; *w; w++) h = fnv1a(h, *w, strlen(*w) + 1);
    if (model_cache_hash_file(trig_hdr, &h) || (asserts && model_cache_hash_file(glue_hdr, &h)) ||
        model_cache_verilator_id(&h)) {
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
        strv_words(c, "g++ -fPIC -w -include ../xnoc_vl_triggers.h -I. -I" VL_INC " -I" VL_INC "/vltstd");
        strv_words(c, "-DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE_FST=0 -faligned-new -fcf-protection=none");
        strv_add(c, xasprintf("-DVM_TRACE=%d", vm_trace));
        strv_add(c, xasprintf("-DVM_TRACE_VCD=%d", vm_trace));
        strv_add(c, xstrdup(k ? "-O1" : opt));
        strv_words(c, k ? TILE_CXX_SLOW : TILE_CXX_FAST);
        strv_words(c,
                   k ? "-c -o xnoc_unity_slow.o xnoc_unity_slow.cpp" : "-c -o xnoc_unity_fast.o xnoc_unity_fast.cpp");
    }
    strv *g = &cmd[ncmd++]; /* the glue, with the model's header */
    strv_add(g, xstrdup("g++"));
    if (mc->first) strv_add(g, xstrdup(mc->first));
    strv_words(g, "-c -fPIC");
    strv_add(g, xstrdup(opt));
    strv_words(g, TILE_CXX_GLUE);
    strv_add(g, xstrdup("-w"));
    if (trace) strv_add(g, xstrdup("-DXNOC_TRACE"));
    for (char **d = mc->defs; d && *d; d++) strv_add(g, xstrdup(*d));
    if (asserts) {
        strv_words(g, "-DXNOC_ASSERT_BUILD -DVL_PRINTF=xg_vl_printf -include");
        strv_add(g, xstrdup(glue_hdr));
    }
    strv_add(g, xstrdup("-include"));
    strv_add(g, xstrdup(trig_hdr));
    strv_words(g, "-I. -I" VL_INC " -I" VL_INC "/vltstd -o xnoc_glue.o");
    strv_add(g, xstrdup(mc->glue));
    if (!have_rt)
        for (char **w = rtsrc.v; *w; w++) {
            strv *c = &cmd[ncmd++];
            strv_add(c, xstrdup("g++"));
            for (char **f = rt.v; *f; f++) strv_add(c, xstrdup(*f));
            strv_add(c, xstrdup("-o"));
            strv_add(c, xasprintf("vlrt_%s.o", *w));
            strv_add(c, xasprintf(VL_INC "/%s.cpp", *w));
        }
    char **argvs[6];
    for (int i = 0; i < ncmd; i++) argvs[i] = cmd[i].v;
    if (proc_run_argvs(argvs, ncmd, objd, log, mc->what, progress, t_build)) {
        failed = 1;
        goto out;
    }
    strv l = {0};
    strv_add(&l, xstrdup("g++"));
    if (mc->first) strv_add(&l, xstrdup(mc->first));
    strv_words(&l, "-shared -fPIC");
    strv_add(&l, xstrdup(opt));
    strv_words(&l, TILE_CXX_LINK);
    strv_add(&l, xstrdup("-o"));
    strv_add(&l, xasprintf("%s/%s", tmp, mc->so));
    strv_words(&l, "xnoc_glue.o xnoc_unity_fast.o xnoc_unity_slow.o");
    for (char **w = rtsrc.v; *w; w++)
        strv_add(&l, have_rt ? xasprintf("%s/%s.o", rtdir, *w) : xasprintf("vlrt_%s.o", *w));
    strv_add(&l, xstrdup("-pthread"));
    failed = proc_run_argv(l.v, objd, log, mc->what, progress, t_build) ? 1 : 0;
    strv_free(l.v);
    if (!failed && !have_rt) { /* the runtime into the cache for the next build (a lost race is harmless) */
        rttmp = xasprintf("%s.tmp%d", rtdir, (int)getpid());
        int ok = mkdir(rttmp, 0777) == 0;
        for (char **w = rtsrc.v; ok && *w; w++) {
            char *from = xasprintf("%s/vlrt_%s.o", objd, *w), *to = xasprintf("%s/%s.o", rttmp, *w);
            ok = rename(from, to) == 0;
            free(from);
            free(to);
        }
        if (!ok || rename(rttmp, rtdir)) proc_rm_tree(rttmp);
    }
out:
    for (int i = 0; i < 6; i++) strv_free(cmd[i].v);
    strv_free(fast.v);
    strv_free(slow.v);
    strv_free(rt.v);
    strv_free(rtsrc.v);
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
    const char *opt = model_cache_cxx_opt();
    /* make puts CXXFLAGS into the shell commands of its recipes: the
     * trigger header goes there by a path relative to obj/ (a copy beside
     * it, the same bytes), never by the build folder's own path. */
    size_t tn;
    char *trig = cli_slurp(trig_hdr, &tn);
    *file = xasprintf("%s/xnoc_vl_triggers.h", work);
    int copied = trig && proc_write_file(*file, trig, tn) == 0;
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
    strv_words(&a, "make -s -j2 -C");
    strv_add(&a, xstrdup(objd));
    strv_add(&a, xstrdup("-f"));
    strv_add(&a, xasprintf("V%s.mk", mc->top));
    strv_add(&a, xasprintf("OPT_FAST=%s", opt));
    strv_words(&a, "OPT_SLOW=-O1 OPT_GLOBAL=-O1");
    strv_add(&a, xstrdup("CXXFLAGS=-fPIC -w -include ../xnoc_vl_triggers.h"));
    strv_add(&a, xasprintf("V%s__ALL.a", mc->top));
    int failed = proc_run_argv(a.v, tmp, log, mc->what, progress, t_build);
    strv_free(a.v);
    a = (strv){0};
    if (failed) return 1;
    strv_add(&a, xstrdup("g++"));
    if (mc->first) strv_add(&a, xstrdup(mc->first));
    strv_words(&a, "-shared -fPIC");
    strv_add(&a, xstrdup(opt));
    strv_add(&a, xstrdup("-w"));
    if (trace) strv_add(&a, xstrdup("-DXNOC_TRACE"));
    for (char **d = mc->defs; d && *d; d++) strv_add(&a, xstrdup(*d));
    if (asserts) {
        strv_words(&a, "-DXNOC_ASSERT_BUILD -DVL_PRINTF=xg_vl_printf -include");
        strv_add(&a, xstrdup(glue_hdr));
    }
    strv_add(&a, xstrdup("-include"));
    strv_add(&a, xstrdup(trig_hdr));
    if (mc->include_tmp) strv_add(&a, xasprintf("-I%s", tmp));
    strv_add(&a, xasprintf("-I%s", objd));
    strv_words(&a, "-I" VL_INC " -I" VL_INC "/vltstd -o");
    strv_add(&a, xasprintf("%s/%s", tmp, mc->so));
    strv_add(&a, xstrdup(mc->glue));
    strv_add(&a, xasprintf("%s/V%s__ALL.a", objd, mc->top));
    strv_words(&a, VL_INC "/verilated.cpp " VL_INC "/verilated_threads.cpp");
    if (trace) strv_add(&a, xstrdup(VL_INC "/verilated_vcd_c.cpp"));
    strv_add(&a, xstrdup("-pthread"));
    failed = proc_run_argv(a.v, tmp, log, mc->what, progress, t_build);
    strv_free(a.v);
    return failed ? 1 : 0;
}

/* 1 when j's model is in the cache and its manifest vouches for it; a model
 * that is there but damaged or another configuration's is said in one line
 * (once: *said) and rebuilt, never loaded. */
static int cached(const build_job *j, int *said)
{
    if (access(j->so, F_OK) != 0) return 0;
    char why[400];
    if (!model_cache_check(j->dir, j->mc.so, j->key, j->config, why, sizeof why)) return 1;
    if (!*said) fprintf(stderr, "xnoc: the cached model %s: %s; rebuilding it\n", j->dir, why);
    *said = 1;
    return 0;
}

int netbuild_model(const build_job *j, char **path, int progress, char *err, size_t errlen)
{
    const char *opt = model_cache_cxx_opt();
    char *cache = xasprintf("%s/cache", cli_build_dir()), *lockp = NULL, *tmp = NULL, *log = NULL, *file = NULL;
    char *work = NULL, *objd = NULL; /* where make compiles: tmp, or a private folder (make_safe) */
    char *glue_hdr = xasprintf("%s/sim_harness/glue/xnoc_vl_printf.h", cli_src_dir());
    char *trig_hdr = xasprintf("%s/sim_harness/glue/xnoc_vl_triggers.h", cli_src_dir());
    strv a = {0};
    int lock = -1, rc_ = -1, said = 0;
    mkdir(cli_build_dir(), 0777);
    mkdir(cache, 0777);
    if (cached(j, &said)) {
        model_cache_note("cached", j->dir, 0);
        goto done;
    }
    lockp = xasprintf("%s.lock", j->dir);
    lock = open(lockp, O_CREAT | O_RDWR, 0666);
    double t_wait = cli_now();
    if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) != 0) { /* another process builds it: say so, then wait */
        if (progress) fprintf(stderr, "%s (%s)...\n", j->wait_line, lockp);
        flock(lock, LOCK_EX);
    }
    if (cached(j, &said)) { /* someone else built it meanwhile */
        model_cache_note("waited", j->dir, cli_now() - t_wait);
        goto done;
    }
    model_cache_clean_stale(cache, j->dir, progress);
    double t_build = cli_now();
    if (progress) fprintf(stderr, "%s\n", j->start_line);
    tmp = xasprintf("%s.tmp%d", j->dir, (int)getpid());
    if (proc_rm_tree(tmp) || mkdir(tmp, 0777)) {
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
    for (char **w = j->vl_words; *w; w++) strv_add(&a, xstrdup(*w));
    strv_add(&a, xstrdup("-Mdir"));
    strv_add(&a, xstrdup(objd));
    for (char **p = j->srcs; *p; p++) strv_add(&a, xstrdup(*p));
    if (j->extra_src) strv_add(&a, xstrdup(j->extra_src));
    if (proc_run_argv(a.v, tmp, log, j->verilating, progress, t_build)) {
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
    if (model_cache_seal(tmp, j->mc.so, j->key, j->config, err, errlen)) goto fail;
    int kept = proc_rm_tree(objd) || unlink(file) || (strcmp(work, tmp) && rmdir(work)) || proc_rm_tree(j->dir) ||
               rename(tmp, j->dir);
    if (kept) {
        snprintf(err, errlen, "building %s: cannot move the model into %s: %s", j->name, j->dir, strerror(errno));
        goto fail;
    }
    if (progress) fprintf(stderr, "xnoc: [%.0f s] %s\n", cli_now() - t_build, j->done_line);
    model_cache_note("built", j->dir, cli_now() - t_build);
done:
    rc_ = 0;
    goto out;
fail: /* a failed build keeps its directory, marked, for the log in it */
    if (tmp) {
        char *mark = xasprintf("%s/failed", tmp);
        proc_write_file(mark, "", 0);
        free(mark);
        if (work && strcmp(work, tmp)) proc_rm_tree(work); /* the log stays in tmp */
    }
    free(*path);
    *path = NULL;
out:
    if (lock >= 0) close(lock);
    strv_free(a.v);
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
