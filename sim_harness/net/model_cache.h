/* model_cache.h - the cache of built models (build/cache/) and their keys.
 *
 * A model's key covers everything it depends on: the generated netlist
 * (topology, k, router parameters) or the tile's parameters, the router
 * sources in rtl/, the glue (sim_harness/glue/ and the generated
 * per-channel part), the Verilator installed, the build flags and the
 * variant (netbuild_flat.c, netbuild_tile.c compute it from the parts
 * here); its folder is named by it.  Every model carries a manifest
 * (DIR/manifest: its key, the configuration it was built for, the size and
 * content hash of its shared object), written before the folder moves into
 * place and checked before the object is loaded: a model truncated,
 * emptied, bit-flipped or copied in from another configuration is reported
 * in one line and rebuilt (issue 46), never loaded. */
#ifndef XNOC_MODEL_CACHE_H
#define XNOC_MODEL_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* The router sources (the .sv files of rtl/, packages first; rtl/xnoc_tile.sv
 * only with `tile`) as heap paths, NULL-terminated, their names and
 * contents folded into *hash.  NULL with err. */
char **model_cache_rtl_paths(uint64_t *hash, int tile, char *err, size_t errlen);
/* The same list as space-separated quoted paths in list (for cmd/synth.c;
 * the model builds take them as separate arguments).  0, or -1 with err. */
int netbuild_rtl_sources(char *list, size_t len, uint64_t *hash, char *err, size_t errlen);
/* the C++ optimisation of the model's per-cycle code (-O2; XNOC_CXX_OPT, for measurements) */
const char *model_cache_cxx_opt(void);

/* Folds a source file's bytes into *h (FNV-1a); -1 if it cannot be read. */
int model_cache_hash_file(const char *path, uint64_t *h);
/* Folds the installed Verilator's identity (its programs' size, time and
 * inode along PATH) into *h, so an upgrade rebuilds; -1 without verilator. */
int model_cache_verilator_id(uint64_t *h);

/* Removes the folders killed builds left in cache (`mine`: the model this
 * process builds, its lock held). */
void model_cache_clean_stale(const char *cache, const char *mine, int progress);
/* XNOC_BUILD_NOTE=FILE: "WHAT DIR SECONDS" appended (built, waited, cached). */
void model_cache_note(const char *what, const char *dir, double seconds);

/* Writes the manifest of the model so (a file name) in folder dir: key,
 * config (one line of words), the object's size and content hash.  0, or
 * -1 with err. */
int model_cache_seal(const char *dir, const char *so, uint64_t key, const char *config, char *err, size_t errlen);
/* 0 when dir's manifest names this key, config and object, and the object
 * has its size and content hash; else -1 with why (a phrase: "no
 * manifest", "X is 12 bytes, its manifest says 345", ...). */
int model_cache_check(const char *dir, const char *so, uint64_t key, const char *config, char *why, size_t whylen);

#endif
