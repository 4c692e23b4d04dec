/* netbuild.c - verilate + compile + cache a network model (see netbuild.h). */
#include "netbuild.h"

/* Paths here are bounded by PATH_MAX; a truncated command would fail loudly. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "netgen.h"

/* Verilator flags.  -fno-gate keeps the router ports as the router's own
 * variables, so every instance shares one C++ copy of the router (with gate
 * substitution each instance gets its own code: 10x the C++ of an 8x8 mesh);
 * -fno-table likewise avoids per-instance lookup tables. */
#define VERILATOR_FLAGS "--cc -O3 -fno-table -fno-gate --x-assign fast --x-initial fast --noassert " \
                        "-Wno-fatal -Wno-lint -Wno-style --top-module xnoc_network"
#define CXX_OPT "-O2"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    *n = fread(buf, 1, (size_t)len, f);
    buf[*n] = 0;
    fclose(f);
    return buf;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The router sources, sorted, as a space-separated list of paths. */
static int rtl_sources(char *list, size_t len, uint64_t *hash, char *err, size_t errlen)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/rtl", cli_src_dir());
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot open the router sources in %s: %s", dir, strerror(errno));
        return -1;
    }
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        size_t l = strlen(e->d_name);
        if (l > 3 && !strcmp(e->d_name + l - 3, ".sv")) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    list[0] = 0;
    for (int i = 0; i < n; i++) {
        char path[4400];
        size_t sz;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text = slurp(path, &sz);
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

static int run(const char *cmd, const char *log)
{
    char full[16384];
    snprintf(full, sizeof full, "(%s) >>'%s' 2>&1", cmd, log);
    return system(full);
}

static int write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(text, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

int netbuild(const topo *t, const router_cfg *rc, int trace, int progress, char *path, size_t pathlen,
             char *err, size_t errlen)
{
    progress = progress && cli_progress_enabled();
    char *sv = NULL, *glue = NULL;
    size_t svn = 0, gluen = 0;
    FILE *f = open_memstream(&sv, &svn);
    netgen_verilog(f, t, rc);
    fclose(f);
    f = open_memstream(&glue, &gluen);
    netgen_glue(f, t, trace);
    fclose(f);

    uint64_t h = 0xcbf29ce484222325ULL;
    char srcs[8192];
    if (rtl_sources(srcs, sizeof srcs, &h, err, errlen)) goto fail;
    h = fnv(h, sv, svn);
    h = fnv(h, glue, gluen);
    h = fnv(h, VERILATOR_FLAGS CXX_OPT, strlen(VERILATOR_FLAGS CXX_OPT));
    char ver[128] = "";
    FILE *p = popen("verilator --version 2>/dev/null", "r");
    if (p) {
        if (!fgets(ver, sizeof ver, p)) ver[0] = 0;
        pclose(p);
    }
    if (!ver[0]) {
        snprintf(err, errlen, "verilator not found: run 'make deps' (it installs Debian's verilator)");
        goto fail;
    }
    h = fnv(h, ver, strlen(ver));

    char cache[4300], dir[4400], tmp[4500], lockp[4500], cmd[16384], log[4600];
    snprintf(cache, sizeof cache, "%s/cache", cli_build_dir());
    mkdir(cli_build_dir(), 0777);
    mkdir(cache, 0777);
    char tag[96];
    snprintf(tag, sizeof tag, "%s", t->name);
    for (char *c = tag; *c; c++)
        if (*c == ':' || *c == '=') *c = '_';
    snprintf(dir, sizeof dir, "%s/%s-k%d-v%d-b%d%s-%016llx", cache, tag, t->k, rc->vcs, rc->buf,
             trace ? "-trace" : "", (unsigned long long)h);
    snprintf(path, pathlen, "%s/net.so", dir);
    if (access(path, R_OK) == 0) goto done;

    snprintf(lockp, sizeof lockp, "%s.lock", dir);
    int lock = open(lockp, O_CREAT | O_RDWR, 0666);
    if (lock >= 0) flock(lock, LOCK_EX);
    if (access(path, R_OK) == 0) {          /* someone else built it meanwhile */
        if (lock >= 0) close(lock);
        goto done;
    }
    if (progress)
        fprintf(stderr, "xnoc: building the RTL network %s (k=%d, vcs=%d, buf=%d%s): first use, cached afterwards...\n",
                t->name, t->k, rc->vcs, rc->buf, trace ? ", with tracing" : "");
    snprintf(tmp, sizeof tmp, "%s.tmp%d", dir, (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", tmp, tmp);
    if (system(cmd) != 0) {
        snprintf(err, errlen, "cannot create the build directory %s", tmp);
        goto unlock;
    }
    snprintf(log, sizeof log, "%s/build.log", tmp);
    char svp[4600], gp[4600];
    snprintf(svp, sizeof svp, "%s/xnoc_network.sv", tmp);
    snprintf(gp, sizeof gp, "%s/glue.cpp", tmp);
    if (write_file(svp, sv, svn) || write_file(gp, glue, gluen)) {
        snprintf(err, errlen, "cannot write the generated network into %s", tmp);
        goto unlock;
    }
    snprintf(cmd, sizeof cmd, "verilator " VERILATOR_FLAGS "%s -Mdir '%s/obj' %s '%s'", trace ? " --trace" : "",
             tmp, srcs, svp);
    if (run(cmd, log)) {
        snprintf(err, errlen, "verilating the network failed; see %s", log);
        goto fail_keep;
    }
    if (progress) fprintf(stderr, "xnoc: compiling the verilated model...\n");
    snprintf(cmd, sizeof cmd,
             "make -s -j2 -C '%s/obj' -f Vxnoc_network.mk OPT_FAST='" CXX_OPT "' OPT_SLOW=-O1 OPT_GLOBAL=-O1 "
             "CXXFLAGS='-fPIC -w' Vxnoc_network__ALL.a && "
             "g++ -shared -fPIC -O1 -w -I'%s/obj' -I/usr/share/verilator/include "
             "-I/usr/share/verilator/include/vltstd -o '%s/net.so' '%s' '%s/obj/Vxnoc_network__ALL.a' "
             "/usr/share/verilator/include/verilated.cpp /usr/share/verilator/include/verilated_threads.cpp %s "
             "-pthread",
             tmp, tmp, tmp, gp, tmp, trace ? "/usr/share/verilator/include/verilated_vcd_c.cpp" : "");
    if (run(cmd, log)) {
        snprintf(err, errlen, "compiling the verilated network failed; see %s", log);
        goto fail_keep;
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s/obj' && rm -rf '%s' && mv '%s' '%s'", tmp, dir, tmp, dir);
    if (system(cmd) != 0) {
        snprintf(err, errlen, "cannot move the built network into %s", dir);
        goto unlock;
    }
    if (lock >= 0) close(lock);
done:
    free(sv);
    free(glue);
    return 0;
fail_keep:
unlock:
    if (lock >= 0) close(lock);
fail:
    free(sv);
    free(glue);
    return -1;
}
