/* netbuild_flat.c - the flat build: the whole network verilated as one
 * model (netbuild.h netbuild()). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/model_cache.h"
#include "net/netbuild.h"
#include "net/netbuild_impl.h"
#include "net/netgen.h"
#include "util/cli.h"
#include "util/fnv.h"
#include "util/proc.h"

/* The model's cache key (see netbuild.h) and its generated sources: the
 * netlist *sv and the per-channel glue *io (heap, the caller frees them)
 * and the router sources *srcs (heap paths, NULL-terminated).  Every byte
 * of the key's input is what it was when builds ran through the shell, so
 * the models cached then are found. */
int netbuild_flat_key(const topo *t, const router_cfg *rc, int variant, char **sv, size_t *svn, char **io, size_t *ion,
                      char ***srcs, uint64_t *key, char *err, size_t errlen)
{
    int monitor = variant & NETBUILD_MONITOR;
    const char *opt = model_cache_cxx_opt();
    FILE *f = open_memstream(sv, svn);
    netgen_verilog(f, t, rc, monitor);
    fclose(f);
    f = open_memstream(io, ion);
    netgen_glue_io(f, t, rc, monitor);
    fclose(f);
    uint64_t h = FNV1A_INIT;
    *srcs = model_cache_rtl_paths(&h, 0, err, errlen);
    if (!*srcs) return -1;
    /* (the glue includes the link flit's header: its helpers are compiled in) */
    const char *glue_files[] = {"xnoc_glue.cpp", "xnoc_glue_common.h", "xnoc_vl_printf.h", "xnoc_vl_triggers.h",
                                "../../firmware/lib/link_flit.h"};
    for (size_t i = 0; i < sizeof glue_files / sizeof *glue_files; i++) {
        char *g = xasprintf("%s/sim_harness/glue/%s", cli_src_dir(), glue_files[i]);
        int bad = model_cache_hash_file(g, &h);
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
    if (model_cache_verilator_id(&h)) {
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
    int r = netbuild_flat_key(t, rc, variant, &sv, &svn, &io, &ion, &srcs, key, err, errlen);
    free(sv);
    free(io);
    strv_free(srcs);
    return r;
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
    int wrote = proc_write_file(svp, f->sv, f->svn) == 0 && proc_write_file(iop, f->io, f->ion) == 0;
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
    if (netbuild_flat_key(t, rc, variant, &sv, &svn, &io, &ion, &srcs, &h, err, errlen)) {
        free(sv);
        free(io);
        strv_free(srcs);
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
    strv_add(&vl, xstrdup("verilator"));
    strv_words(&vl, VERILATOR_FLAGS);
    strv_words(&vl, asserts ? VERILATOR_ASSERT : VERILATOR_FAST);
    if (trace) strv_add(&vl, xstrdup("--trace"));
    if (rc->threads > 1) { /* the model's evaluation split over threads (Verilator's own scheduler) */
        strv_add(&vl, xstrdup("--threads"));
        strv_add(&vl, xasprintf("%d", rc->threads));
    }
    if (monitor) strv_add(&defs, xstrdup("-DXNOC_MONITOR"));
    if (rc->threads > 1) strv_add(&defs, xasprintf("-DXNOC_THREADS=%d", rc->threads));
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
                   .key = h,
                   .config = strrchr(dir, '/') + 1,
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
    int r = netbuild_model(&j, path, progress, err, errlen);
    strv_free(vl.v);
    strv_free(defs.v);
    strv_free(srcs);
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
