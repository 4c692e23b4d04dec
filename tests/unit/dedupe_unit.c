/* dedupe_unit.c - net/dedupe.c points calls of identical generated functions
 * at one copy, allows only reorderings that cannot change what a function
 * computes, and leaves everything else alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/netbuild.h"

static int fails;

static void expect(int cond, const char *what, const char *detail)
{
    printf("%s %s%s%s\n", cond ? "ok" : "FAIL", what, cond ? "" : ": ", cond ? "" : detail);
    fails += !cond;
}

static void put(const char *dir, const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (!f) exit(2);
    fputs(text, f);
    fclose(f);
}

static char *get(const char *dir, const char *name)
{
    static char buf[16384];
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    if (!f) return "";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* a function of class Vm_r named n: its body lines b1, b2 */
static void def(char *out, size_t len, const char *n, const char *b1, const char *b2)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp,
             "\nVL_INLINE_OPT void Vm_r___nba_sequent__TOP__%s(Vm_r* vlSelf) {\n"
             "    VL_DEBUG_IF(VL_DBG_MSGF(\"+ Vm_r___nba_sequent__TOP__%s\\n\"); );\n"
             "    vlSelf->q = vlSelf->d;\n%s\n%s\n    vlSelf->z = (vlSelf->q + 1U);\n}\n",
             n, n, b1, b2);
    strncat(out, tmp, len - strlen(out) - 1);
}

int main(void)
{
    char dir[] = "/tmp/dedupe_unitXXXXXX", err[256];
    if (!mkdtemp(dir)) return 2;
    char a[16384] = "// class file\n";
    /* u0: the first copy; u1: identical; u2: two independent copies swapped;
     * u5, u3: two dependent copies in both orders (b reads a: not the same code);
     * u4: a different statement; u6, u7: a copy before or after an if / else
     * block that names neither of its variables (the same code); u8, u9: the
     * block writes the copy's target (not the same); u10, u11: a call on the
     * instance (could read anything: not the same) */
    def(a, sizeof a, "u0__0", "    vlSelf->a = vlSelf->x;", "    vlSelf->b = 0U;");
    def(a, sizeof a, "u1__0", "    vlSelf->a = vlSelf->x;", "    vlSelf->b = 0U;");
    def(a, sizeof a, "u2__0", "    vlSelf->b = 0U;", "    vlSelf->a = vlSelf->x;");
    def(a, sizeof a, "u5__0", "    vlSelf->a = vlSelf->x;", "    vlSelf->b = vlSelf->a;");
    def(a, sizeof a, "u3__0", "    vlSelf->b = vlSelf->a;", "    vlSelf->a = vlSelf->x;");
    def(a, sizeof a, "u4__0", "    vlSelf->a = vlSelf->y;", "    vlSelf->b = 0U;");
    const char *blk = "    if ((1U & (IData)(vlSelf->c)\n             >> 2U)) {\n        vlSelf->e = 1U;\n"
                      "    } else {\n        vlSelf->e = (vlSelf->f\n                     + 2U);\n    }",
               *blk_e = "    if (vlSelf->c) {\n        vlSelf->ab = 1U;\n    }";
    def(a, sizeof a, "u6__0", "    vlSelf->ab = vlSelf->x;", blk);
    def(a, sizeof a, "u7__0", blk, "    vlSelf->ab = vlSelf->x;");
    def(a, sizeof a, "u8__0", "    vlSelf->ab = vlSelf->x;", blk_e);
    def(a, sizeof a, "u9__0", blk_e, "    vlSelf->ab = vlSelf->x;");
    def(a, sizeof a, "u10__0", "    vlSelf->ab = vlSelf->x;", "    Vm_r___helper(vlSelf);");
    def(a, sizeof a, "u11__0", "    Vm_r___helper(vlSelf);", "    vlSelf->ab = vlSelf->x;");
    put(dir, "Vm_r__DepSet_1__0.cpp", a);
    const char *calls = "void Vm_r___nba_sequent__TOP__u2__0(Vm_r* vlSelf);\n"
                        "    Vm_r___nba_sequent__TOP__u0__0((&vlSymsp->r0));\n"
                        "    Vm_r___nba_sequent__TOP__u1__0((&vlSymsp->r1));\n"
                        "    Vm_r___nba_sequent__TOP__u2__0((&vlSymsp->r2));\n"
                        "    Vm_r___nba_sequent__TOP__u5__0((&vlSymsp->r5));\n"
                        "    Vm_r___nba_sequent__TOP__u3__0((&vlSymsp->r3));\n"
                        "    Vm_r___nba_sequent__TOP__u4__0((&vlSymsp->r4));\n"
                        "    Vm_r___nba_sequent__TOP__u6__0((&vlSymsp->r6));\n"
                        "    Vm_r___nba_sequent__TOP__u7__0((&vlSymsp->r7));\n"
                        "    Vm_r___nba_sequent__TOP__u8__0((&vlSymsp->r8));\n"
                        "    Vm_r___nba_sequent__TOP__u9__0((&vlSymsp->r9));\n"
                        "    Vm_r___nba_sequent__TOP__u10__0((&vlSymsp->r10));\n"
                        "    Vm_r___nba_sequent__TOP__u11__0((&vlSymsp->r11));\n";
    put(dir, "Vm___024root__DepSet_2__0.cpp", calls);
    int moved = -1;
    int rc = netbuild_dedupe(dir, &moved, err, sizeof err);
    expect(rc == 0, "dedupe-runs", err);
    char *c = get(dir, "Vm___024root__DepSet_2__0.cpp");
    expect(moved == 3, "dedupe-moves-three-calls", c);
    expect(strstr(c, "u0__0((&vlSymsp->r1))") != NULL, "dedupe-identical-copy", c);
    expect(strstr(c, "u0__0((&vlSymsp->r2))") != NULL, "dedupe-independent-copies-reordered", c);
    expect(strstr(c, "u3__0((&vlSymsp->r3))") != NULL && strstr(c, "u5__0((&vlSymsp->r5))") != NULL,
           "dedupe-keeps-dependent-reorder", c);
    expect(strstr(c, "u4__0((&vlSymsp->r4))") != NULL, "dedupe-keeps-different-code", c);
    expect(strstr(c, "u6__0((&vlSymsp->r7))") != NULL, "dedupe-copy-moved-past-independent-block", c);
    expect(strstr(c, "u8__0((&vlSymsp->r8))") != NULL && strstr(c, "u9__0((&vlSymsp->r9))") != NULL,
           "dedupe-copy-kept-below-block-naming-it", c);
    expect(strstr(c, "u10__0((&vlSymsp->r10))") != NULL && strstr(c, "u11__0((&vlSymsp->r11))") != NULL,
           "dedupe-copy-kept-below-call", c);
    expect(strstr(c, "void Vm_r___nba_sequent__TOP__u2__0(Vm_r* vlSelf);") != NULL, "dedupe-keeps-prototypes", c);
    expect(strcmp(get(dir, "Vm_r__DepSet_1__0.cpp"), a) == 0, "dedupe-keeps-definitions", "");
    /* a second pass finds nothing more to do */
    rc = netbuild_dedupe(dir, &moved, err, sizeof err);
    expect(rc == 0 && moved == 0, "dedupe-idempotent", err);
    rc = netbuild_dedupe("/nonexistent-dir", &moved, err, sizeof err);
    expect(rc == -1 && strstr(err, "/nonexistent-dir") != NULL, "dedupe-missing-dir-named", err);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) return 2;
    return fails ? 1 : 0;
}
