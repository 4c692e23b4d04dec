/* netbuild_impl.h - what the model builds share (netbuild.c the steps
 * every build takes, netbuild_flat.c, netbuild_tile.c, model_cache.c the
 * keys): the tools' flags, how a model is compiled, one build's job. */
#ifndef XNOC_NETBUILD_IMPL_H
#define XNOC_NETBUILD_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "util/proc.h"

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

/* the tile build's Verilator flags (netbuild_tile.c) */

#define VERILATOR_TILE_FLAGS                                                                                           \
    "--cc -O3 --x-assign fast --x-initial fast -Wno-fatal -Wno-lint -Wno-style --top-module xnoc_tile"

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

/* One model to build, the same steps for the flat network and the tile:
 * the cache folder, its lock (another process building the same model is
 * waited for), the stale folders of killed builds, a private build folder
 * (NAME.tmpPID; its objects in a make-safe folder), Verilator, a step on its
 * output, the C++ half (compile_model), the manifest, the finished folder
 * moved into place; a failed build keeps its folder, marked, for the log in
 * it. */
typedef struct build_job build_job;
struct build_job {
    const char *dir;        /* the cache folder of the model */
    uint64_t key;           /* its key (model_cache.h), in its manifest */
    const char *config;     /* the configuration it is built for, in its manifest: the folder's name */
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

/* Builds j's model unless the cache holds it (verified, model_cache.h):
 * 0 with *path kept, or -1 with err (and *path freed, NULL). */
int netbuild_model(const build_job *j, char **path, int progress, char *err, size_t errlen);

#endif
