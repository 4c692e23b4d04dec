/* fuzz_router - --router strings (router_cfg_parse): whatever the text, the
 * parser either refuses it with a message that prints as one line (through
 * cli_fail, as cmd_opts prints it; its hook longjmps back) or leaves every
 * parameter in its documented range; and the routing-mode helpers then work
 * on a small dragonfly and mesh with the parsed configuration. */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/ni_regs.h"
#include "net/router_cfg.h"
#include "net/topo.h"
#include "util/cli.h"

static topo *df, *mesh;
static jmp_buf back;

static void on_fail(int code, char *msg)
{
    if (code != EXIT_USAGE || !msg || strchr(msg, '\n')) abort();
    free(msg);
    longjmp(back, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 4096) return 0;
    if (!df) {
        char e[200];
        df = topo_parse("dragonfly:a=2,p=1,h=1,g=3", 1, e, sizeof e);
        mesh = topo_parse("mesh:3x2", 1, e, sizeof e);
        if (!df || !mesh) abort();
    }
    char *s = malloc(n + 1), err[300];
    memcpy(s, d, n);
    s[n] = 0;
    router_cfg rc;
    router_cfg_default(&rc);
    err[0] = 0;
    if (router_cfg_parse(&rc, s, err, sizeof err)) {
        if (!err[0]) abort();
        cli_fail_hook = on_fail;
        if (!setjmp(back)) cli_fail(EXIT_USAGE, "%s", err); /* as cmd_opts_arg reports it: one line */
    } else {
        if (rc.vcs < 1 || rc.vcs > ROUTER_MAX_VCS || rc.buf < 1 || rc.buf > ROUTER_MAX_BUF || rc.ncu < 0 ||
            rc.ncu > 1 || rc.slots < 1 || rc.slots > 16 || rc.xorlat < 1 || rc.xorlat > 64 || rc.ncmax < 1 ||
            rc.ncmax > 256 || rc.timeout < 100 || rc.timeout > 1000000 || rc.sendq < 1 || rc.sendq > NI_MAX_SENDQ ||
            rc.threads < 1 || rc.threads > 16 || rc.routing < ROUTING_MIN || rc.routing > ROUTING_UGAL)
            abort();
        topo *ts[2] = {df, mesh};
        for (int i = 0; i < 2; i++) {
            topo *t = ts[i];
            if (router_classes(t, &rc) < 1 || router_groups(t, &rc) < 1) abort();
            uint64_t rng = n;
            for (int src = 0; src < t->nterms; src++)
                (void)routing_head_bits(t, &rc, src, (uint32_t)((src * 7 + (int)n) % (t->nterms + 2)), &rng);
        }
    }
    free(s);
    return 0;
}
