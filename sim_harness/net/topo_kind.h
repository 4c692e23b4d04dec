/* topo_kind.h - the table behind the topology kinds (net/ only).
 *
 * Each kind lives in a file of its own (topo_grid.c: mesh and torus,
 * topo_octagon.c, topo_dragonfly.c, topo_clos.c) and fills one topo_ops row;
 * topo_kinds.c holds the table and the parser (allocation, distances),
 * topo.c what all kinds share at run time (routes, names, paths),
 * dispatched through t->ops.  Adding a kind is one file and one row in
 * topo_kinds.c's table.
 */
#ifndef XNOC_TOPO_KIND_H
#define XNOC_TOPO_KIND_H

#include "net/topo.h"

/* What a kind's parser reads from the string, before anything is built. */
typedef struct {
    int conc;                /* terminals per router (a ":c=N" suffix may change it afterwards) */
    int nd;                  /* mesh/torus: dimensions */
    int dims[TOPO_MAX_DIMS]; /* mesh/torus: sizes */
    int p[3];                /* the kind's parameters: dragonfly a, h, g; clos m, n, r */
} topo_shape;

/* The counts a shape gives (after the suffix), checked against the limits
 * by topo.c before anything is allocated. */
typedef struct {
    int nnet;      /* network ports per router */
    long nrouters; /* routers */
    long nterms;   /* terminals: on routers 0 .. nterms/conc - 1 */
} topo_size;

struct topo_ops {
    topo_kind kind;
    const char *usage;        /* for "unknown topology": "octagon, fat-octagon" */
    const char *const *names; /* the kind's words for did-you-mean, NULL-terminated */
    /* the length of the spelling of this kind that spec starts with, 0 if none */
    size_t (*match)(const char *spec);
    /* reads spec (it matched len characters) into s; *rest: what follows.
     * 0, or -1 with one line in err */
    int (*parse)(const char *spec, size_t len, topo_shape *s, const char **rest, char *err, size_t errlen);
    /* NULL: the suffix :c=N may follow; else why nothing may follow */
    const char *no_suffix;
    void (*size)(const topo_shape *s, topo_size *z);
    /* sets the kind's own fields of t (ndims, dims, w, h, df_*, clos_*, nclasses) */
    void (*init)(topo *t, const topo_shape *s);
    /* adds the links (topo_add_link), port dimensions and drawing positions */
    void (*wire)(topo *t);
    /* the output port at router r towards router q != r: to terminal dest
     * (on q), or to q itself (its coding unit) when dest is -1 */
    int (*route)(const topo *t, int r, int q, int dest);
    int routed_distances; /* 1: t->dist from the routes, 0: breadth-first over the links */
    void (*name)(topo *t);
    /* name of network port p of router r */
    void (*port_name)(const topo *t, int r, int p, char *buf, size_t len);
    /* "router 5 (group 1)" */
    void (*router_label)(const topo *t, int r, char *buf, size_t len);
    /* the kind's figures for xnoc topo's JSON report, in order; returns how many */
    int (*facts)(const topo *t, topo_fact *f, int max);
    const char *describe; /* xnoc topo's text lines over its JSON report, or NULL */
    topo_drawing drawing;
    /* the kind's parameters: dimension sizes; dragonfly a, h, g; clos m, n, r */
    int (*param)(const topo *t, int i);
};

extern const topo_ops topo_mesh_ops, topo_torus_ops, topo_octagon_ops, topo_dragonfly_ops, topo_clos_ops;
extern const topo_ops topo_anynet_ops; /* net/topo_anynet.c */

/* Adds the directed link a.pa -> b.pb of the given kind; dateline: crossing
 * it moves a packet to VC class 1. */
void topo_add_link(topo *t, int a, int pa, int b, int pb, int dateline, topo_link_kind kind);

/* "key=N,key=N" with keys from keys (each once, values 1..1000; bigger
 * values are clamped to 1000 for the caller to refuse): v[i] is key i's
 * value, 0 when absent.  *rest: what follows.  -1 on a malformed list. */
int topo_parse_keys(const char *s, const char *keys, long *v, const char **rest);

#endif
