/* model_cache.c - the cache of built models and their keys (model_cache.h). */
#include "net/model_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/fnv.h"
#include "util/proc.h"

/* C++ optimisation of the model's per-cycle code.  -O2 vs -O1 on an 8x8 mesh:
 * see docs/performance.md.  XNOC_CXX_OPT overrides it (for measurements). */
const char *model_cache_cxx_opt(void)
{
    const char *e = getenv("XNOC_CXX_OPT");
    return e && (!strcmp(e, "-O0") || !strcmp(e, "-O1") || !strcmp(e, "-O2") || !strcmp(e, "-O3")) ? e : "-O2";
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
char **model_cache_rtl_paths(uint64_t *hash, int tile, char *err, size_t errlen)
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

int netbuild_rtl_sources(char *list, size_t len, uint64_t *hash, char *err, size_t errlen)
{
    char **paths = model_cache_rtl_paths(hash, 0, err, errlen);
    if (!paths) return -1;
    list[0] = 0;
    for (char **p = paths; *p; p++) {
        size_t used = strlen(list);
        snprintf(list + used, len - used, "%s'%s'", used ? " " : "", *p);
    }
    strv_free(paths);
    return 0;
}

/* Hashes a file of the source tree into h; -1 if it cannot be read. */
int model_cache_hash_file(const char *path, uint64_t *h)
{
    size_t n;
    char *text = cli_slurp(path, &n);
    if (!text) return -1;
    *h = fnv1a(*h, text, n);
    free(text);
    return 0;
}

/* Folds the identity of the installed Verilator (its programs' size, time
 * and inode, found along PATH) into h, so that an upgrade rebuilds the
 * cached models.  Cheaper than running `verilator --version` (a Perl start-
 * up) on every simulation; -1 when there is no verilator. */
int model_cache_verilator_id(uint64_t *h)
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

/* Removes the folders that killed builds left in the cache: NAME.tmpPID
 * whose process is gone and whose model nobody is building (its lock,
 * NAME.lock, is free).  A build that failed keeps its folder for its
 * build.log (a file "failed" marks it) until the same model is built again;
 * `mine` is the model this process is about to build, whose lock it holds. */
void model_cache_clean_stale(const char *cache, const char *mine, int progress)
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
        if (stale && proc_rm_tree(path) == 0 && progress)
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
void model_cache_note(const char *what, const char *dir, double seconds)
{
    const char *f = getenv("XNOC_BUILD_NOTE");
    FILE *o = f && *f ? fopen(f, "a") : NULL;
    if (!o) return;
    fprintf(o, "%s %s %.0f\n", what, dir, seconds);
    fclose(o);
}

/* ---- the manifest: what a cached model is, checked before it is loaded ---- */

#define MANIFEST "manifest"
#define MANIFEST_MAGIC "xnoc-model-manifest 1"

/* the content hash of a file (FNV-1a, util/fnv.h) and its size; -1 if unreadable */
static int file_digest(const char *path, uint64_t *h, size_t *n)
{
    char *text = cli_slurp(path, n);
    if (!text) return -1;
    *h = fnv1a(FNV1A_INIT, text, *n);
    free(text);
    return 0;
}

int model_cache_seal(const char *dir, const char *so, uint64_t key, const char *config, char *err, size_t errlen)
{
    char *sop = xasprintf("%s/%s", dir, so), *mp = xasprintf("%s/" MANIFEST, dir);
    uint64_t h;
    size_t n;
    int r = file_digest(sop, &h, &n);
    if (r) snprintf(err, errlen, "cannot read the model %s to seal it: %s", sop, strerror(errno));
    else {
        char *text = xasprintf(MANIFEST_MAGIC "\nkey %016llx\nconfig %s\nso %s %zu %016llx\n", (unsigned long long)key,
                               config, so, n, (unsigned long long)h);
        r = proc_write_file(mp, text, strlen(text));
        if (r) snprintf(err, errlen, "cannot write the model's manifest %s: %s", mp, strerror(errno));
        free(text);
    }
    free(sop);
    free(mp);
    return r ? -1 : 0;
}

int model_cache_check(const char *dir, const char *so, uint64_t key, const char *config, char *why, size_t whylen)
{
    char *mp = xasprintf("%s/" MANIFEST, dir), *sop = xasprintf("%s/%s", dir, so);
    size_t mn = 0;
    char *text = cli_slurp(mp, &mn);
    char cfg[512] = "", name[256] = "";
    unsigned long long mkey = 0, mhash = 0;
    size_t msize = 0;
    int r = -1;
    if (!text) snprintf(why, whylen, "no manifest (%s)", strerror(errno));
    else if (strlen(text) != mn || strncmp(text, MANIFEST_MAGIC "\n", sizeof MANIFEST_MAGIC) ||
             sscanf(text + sizeof MANIFEST_MAGIC, "key %16llx\nconfig %511[^\n]\nso %255s %zu %16llx", &mkey, cfg, name,
                    &msize, &mhash) != 5)
        snprintf(why, whylen, "its manifest is damaged");
    else if (mkey != key || strcmp(cfg, config) || strcmp(name, so))
        snprintf(why, whylen, "it was built for another configuration (%s, key %016llx)", cfg, mkey);
    else {
        uint64_t h;
        size_t n;
        if (file_digest(sop, &h, &n)) snprintf(why, whylen, "%s cannot be read: %s", so, strerror(errno));
        else if (n != msize) snprintf(why, whylen, "%s is %zu bytes, its manifest says %zu", so, n, msize);
        else if (h != mhash) snprintf(why, whylen, "%s's content hash differs from its manifest's", so);
        else r = 0;
    }
    free(text);
    free(mp);
    free(sop);
    return r;
}
