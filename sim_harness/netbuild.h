/* netbuild.h - verilate and compile a network once, cache it, reuse it.
 *
 * The cache key covers everything the model depends on: the generated
 * netlist (topology, k, router parameters), the router sources in rtl/, the
 * glue, the Verilator version and the build flags.  Builds happen in a
 * private directory renamed into place, under a lock, so concurrent runs of
 * the same configuration build it once. */
#ifndef XNOC_NETBUILD_H
#define XNOC_NETBUILD_H

#include <stddef.h>
#include "net.h"
#include "topo.h"

/* Returns the path of the shared object for (t, rc, trace) in path, building
 * it first if needed.  0 on success, -1 with one line in err. */
int netbuild(const topo *t, const router_cfg *rc, int trace, int progress, char *path, size_t pathlen,
             char *err, size_t errlen);

#endif
