/* topo_kinds.c - the table of topology kinds and the parser: a string is
 * matched against each kind's spelling, read by that kind, checked against
 * the limits, then built (net/topo_kind.h; the kinds in topo_grid.c,
 * topo_octagon.c, topo_dragonfly.c, topo_clos.c).  Adding a kind is a file
 * and a row here.
 */
#include "net/topo_kind.h"
#include "util/cli.h"
#include "util/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PORTS 32 /* the router's config bus writes 5-bit ports (firmware/lib/flit.h) */

/* The kinds, in the order the parser tries them and the "known:" list names them. */
static const topo_ops *const kinds[] = {&topo_mesh_ops,      &topo_torus_ops, &topo_octagon_ops,
                                        &topo_dragonfly_ops, &topo_clos_ops,  &topo_anynet_ops};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* Router distances along the routing function's own paths (the dragonfly:
 * the minimal route is local-global-local, while the links also offer
 * shorter detours through a third group that routing never takes). */
static void routed_distances(topo *t)
{
    for (int a = 0; a < t->nrouters; a++)
        for (int b = 0; b < t->nrouters; b++) {
            int r = a, n = 0;
            while (r != b) {
                int l = t->out_link[r * t->nports + topo_route_router(t, r, b)];
                r = t->links[l].dst;
                n++;
            }
            t->dist[a * t->nrouters + b] = n;
        }
}

/* All-pairs router distances by breadth-first search over the links. */
static void compute_distances(topo *t)
{
    int n = t->nrouters;
    int *queue = xcalloc((size_t)n, sizeof *queue);
    for (int s = 0; s < n; s++) {
        int *d = &t->dist[s * n];
        for (int i = 0; i < n; i++) d[i] = -1;
        int head = 0, tail = 0;
        d[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            int r = queue[head++];
            for (int p = 0; p < t->nnet; p++) {
                int l = t->out_link[r * t->nports + p];
                if (l < 0) continue;
                int v = t->links[l].dst;
                if (d[v] < 0) {
                    d[v] = d[r] + 1;
                    queue[tail++] = v;
                }
            }
        }
    }
    free(queue);
}

topo *topo_parse(const char *spec, int k, char *err, size_t errlen)
{
    return topo_parse_max(spec, k, TOPO_MAX_TERMS, err, errlen);
}

/* "unknown topology": the nearest kind's word, and every kind's spelling */
static void unknown_kind(const char *spec, char *err, size_t errlen)
{
    const char *colon = strchr(spec, ':'), *words[32];
    int n = colon ? (int)(colon - spec) : (int)strlen(spec), nw = 0;
    char kind_s[72], usage[512];
    size_t u = 0;
    for (size_t i = 0; i < NKINDS; i++) {
        for (const char *const *w = kinds[i]->names; *w && nw < 32; w++) words[nw++] = *w;
        u += (size_t)snprintf(usage + u, sizeof usage - u, "%s%s", i ? ", " : "", kinds[i]->usage);
    }
    snprintf(kind_s, sizeof kind_s, "%.*s", n < 71 ? n : 71, spec);
    const char *near = suggest_pick(kind_s, words, (size_t)nw);
    snprintf(err, errlen, "unknown topology '%.*s' (%s%s%sknown: %s; suffix :c=N)", n, spec,
             near ? "did you mean " : "", near ? near : "", near ? "? " : "", usage);
}

topo *topo_parse_max(const char *spec, int k, int max_terms, char *err, size_t errlen)
{
    const topo_ops *ops = NULL;
    topo_shape s = {.conc = 1, .dims = {8}};
    const char *rest;
    size_t len = 0;
    if (!spec || !*spec) {
        snprintf(err, errlen, "empty topology (try mesh:4x4, torus:4x4, torus:4x4x4, octagon, fat-octagon)");
        return NULL;
    }
    for (size_t i = 0; i < NKINDS && !ops; i++)
        if ((len = kinds[i]->match(spec))) ops = kinds[i];
    if (!ops) {
        unknown_kind(spec, err, errlen);
        return NULL;
    }
    if (ops->parse(spec, len, &s, &rest, err, errlen)) return NULL;
    if (*rest && ops->no_suffix) {
        snprintf(err, errlen, "topology '%s': unexpected '%s' (%s)", spec, rest, ops->no_suffix);
        return NULL;
    }
    if (*rest) {
        char *end;
        if (strncmp(rest, ":c=", 3)) {
            snprintf(err, errlen, "topology '%s': unexpected '%s' (only the suffix :c=N may follow)", spec, rest);
            return NULL;
        }
        long c = isdigit((unsigned char)rest[3]) ? strtol(rest + 3, &end, 10) : 0;
        if (!c || end == rest + 3 || *end || c < 1 || c > 12) {
            snprintf(err, errlen, "topology '%s': concentration must be 1..12", spec);
            return NULL;
        }
        s.conc = (int)c;
    }
    if (k < 1 || k > TOPO_MAX_K) {
        snprintf(err, errlen, "ports per terminal k=%d: must be 1..%d", k, TOPO_MAX_K);
        return NULL;
    }
    topo_size z;
    ops->size(&s, &z);
    if (z.nnet + s.conc * k > MAX_PORTS) {
        snprintf(err, errlen, "topology '%s' with %d port(s) per terminal needs %d router ports (max %d)", spec, k,
                 z.nnet + s.conc * k, MAX_PORTS);
        return NULL;
    }
    if (z.nterms > max_terms || z.nrouters > TOPO_MAX_MODEL_ROUTERS) {
        snprintf(err, errlen, "topology '%s' has %ld terminals (max %d)", spec, z.nterms, max_terms);
        return NULL;
    }

    topo *t = xcalloc(1, sizeof *t);
    t->kind = ops->kind;
    t->ops = ops;
    t->conc = s.conc;
    t->k = k;
    t->nrouters = (int)z.nrouters;
    t->nterms = (int)z.nterms;
    t->nnet = z.nnet;
    t->nports = z.nnet + s.conc * k;
    ops->init(t, &s);
    int nnet = t->nnet, nrouters = t->nrouters;
    size_t np = (size_t)nrouters * (size_t)t->nports;
    t->links = xcalloc((size_t)nrouters * (size_t)nnet, sizeof *t->links);
    t->out_link = xcalloc(np, sizeof *t->out_link);
    t->in_link = xcalloc(np, sizeof *t->in_link);
    t->port_dim = xcalloc(np, 1);
    t->dateline = xcalloc(np, 1);
    t->x = xcalloc((size_t)nrouters, sizeof *t->x);
    t->y = xcalloc((size_t)nrouters, sizeof *t->y);
    t->dist = xcalloc((size_t)nrouters * (size_t)nrouters, sizeof *t->dist);
    for (size_t i = 0; i < np; i++) {
        t->out_link[i] = t->in_link[i] = -1;
        t->port_dim[i] = (i % (size_t)t->nports) >= (size_t)nnet ? DIM_TERM : DIM_X;
    }
    ops->wire(t);
    if (ops->routed_distances) routed_distances(t);
    else compute_distances(t);
    ops->name(t);
    return t;
}
