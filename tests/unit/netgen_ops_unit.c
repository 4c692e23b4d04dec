/* netgen_ops_unit TOPO [ROUTER] - prints the generated network netlist
 * (netgen_verilog) for a topology and --router string, so tests/abi.t.sh
 * can check what a router option changes in it: the model cache is keyed
 * by this text (sim_harness/net/netbuild.c), so ncu_ops=all (the default)
 * must leave it as it was and ncu_ops=xor must change it. */
#include <stdio.h>

#include "net/netgen.h"
#include "net/router_cfg.h"
#include "net/topo.h"

int main(int argc, char **argv)
{
    char err[300];
    if (argc < 2) {
        fprintf(stderr, "usage: netgen_ops_unit TOPO [ROUTER]\n");
        return 2;
    }
    topo *t = topo_parse(argv[1], 1, err, sizeof err);
    if (!t) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    router_cfg rc;
    router_cfg_default(&rc);
    if (argc > 2 && router_cfg_parse(&rc, argv[2], err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        topo_free(t);
        return 2;
    }
    netgen_verilog(stdout, t, &rc, 0);
    topo_free(t);
    return 0;
}
