/* view_test.h - what view_test.c and view_check.c share. */
#ifndef XNOC_VIEW_TEST_H
#define XNOC_VIEW_TEST_H

#include "net/topo.h"
#include "view/view.h"

/* the fake RTL network view_sample_net() reads (its counters in view_test.c) */
struct xnoc_net {
    int unused;
};

/* the topology of a spec, or exit 2 with the parser's line */
topo *parse_topo(const char *spec);
/* the view on t with o, or exit 2 with its error */
view *open_or_die(const topo *t, const view_opts *o);
/* `check CASE TOPO DIR` and `probe ...` (view_check.c) */
int cmd_check(int argc, char **argv);
int cmd_probe(int argc, char **argv);

#endif
