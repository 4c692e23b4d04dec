/* topo_anynet.c - BookSim2's "anynet" network file as a topology,
 * "anynet:FILE": a line per router, "router R", then what it connects to,
 * "node N" (a terminal) or "router Q [LATENCY]" (a link, both directions;
 * the other router's line may repeat it).  As BookSim2 reads them (its
 * anynet.cpp): words in any case, routers and nodes numbered freely.
 *
 * xnoc's terminals are numbered by router (terminal i on router i / c), so
 * a file is accepted when every router has the same number c of nodes and
 * router R's are nodes R*c .. R*c+c-1; links take one cycle (a latency
 * other than 1 is refused).  Routing: along the breadth-first spanning tree
 * from router 0, up to the lowest common ancestor and down again.  A tree's
 * channels have no cyclic dependency, so one VC class is deadlock-free on
 * any graph (BookSim2's anynet routes shortest paths, which a graph with
 * cycles can deadlock); links off the tree are wired and idle.
 *
 * The file is untrusted: over 1 MiB, a line over 4096 characters, a word
 * that is not router/node or a number, a node on two routers, a self
 * link, a graph in pieces, more than 256 routers or 16 links on a router:
 * one line naming FILE:LINE. */
#include "net/topo_kind.h"
#include "util/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define ANY_MAX_ROUTERS 256
#define ANY_MAX_DEG 16
#define ANY_MAX_BYTES (1 << 20)

typedef struct {
    char path[64];
    int nr, conc, deg;                     /* routers, nodes per router, the largest number of links on a router */
    int nbr[ANY_MAX_ROUTERS][ANY_MAX_DEG]; /* [r][p]: the router on port p, or -1 */
    int parent[ANY_MAX_ROUTERS];           /* the spanning tree's (-1 at router 0) */
    int *down;                             /* [r * nr + q]: the port of r towards q below it, or -1 */
} anynet;

/* the files parsed so far (a topology is parsed again by name: the view, the netlist) */
static anynet *cache[8];
static int ncache;

static int port_to(const anynet *a, int r, int q)
{
    for (int p = 0; p < a->deg; p++)
        if (a->nbr[r][p] == q) return p;
    return -1;
}

/* word w (n chars) as a whole number 0..max, or -1 */
static long number(const char *w, size_t n, long max)
{
    long v = 0;
    if (!n || n > 9) return -1;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)w[i])) return -1;
        v = v * 10 + (w[i] - '0');
    }
    return v <= max ? v : -1;
}

/* word w for a message: at most 40 characters, printable ASCII ('?' for the rest) */
static const char *shown(const char *w, size_t n, char *buf)
{
    size_t i = 0;
    for (; i < n && i < 40; i++) buf[i] = w[i] > 0x20 && w[i] < 0x7f ? w[i] : '?';
    buf[i] = 0;
    return buf;
}

static int word_is(const char *w, size_t n, const char *s) { return strlen(s) == n && !strncasecmp(w, s, n); }

/* reads the file into a (routers, links, nodes); 0, or -1 with err */
static int read_file(anynet *a, const char *path, int *node_router, int *maxnode, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "topology 'anynet:%s': not a regular file", path);
        return -1;
    }
    if (stat(path, &st) == 0 && st.st_size > ANY_MAX_BYTES) {
        snprintf(err, errlen, "topology 'anynet:%s': larger than %d bytes: not a network file", path, ANY_MAX_BYTES);
        return -1;
    }
    size_t n = 0;
    char *text = cli_slurp(path, &n);
    if (!text) {
        snprintf(err, errlen, "topology 'anynet:%s': %s", path, strerror(errno));
        return -1;
    }
    if (n > ANY_MAX_BYTES) {
        free(text);
        snprintf(err, errlen, "topology 'anynet:%s': larger than %d bytes: not a network file", path, ANY_MAX_BYTES);
        return -1;
    }
    int line = 0, rc = 0;
    *maxnode = -1;
    for (size_t at = 0; at < n && !rc; line++) {
        const char *s = text + at, *nl = memchr(s, '\n', n - at);
        size_t len = nl ? (size_t)(nl - s) : n - at;
        at += len + 1;
        if (len > 4096) {
            snprintf(err, errlen, "%s:%d: line longer than 4096 characters", path, line + 1);
            rc = -1;
            break;
        }
        const char *w[2 * 1024];
        size_t wl[2 * 1024], nw = 0;
        for (size_t i = 0; i < len && nw < 2 * 1024;) {
            while (i < len && isspace((unsigned char)s[i])) i++;
            if (i >= len) break;
            size_t j = i;
            while (j < len && !isspace((unsigned char)s[j])) j++;
            w[nw] = s + i;
            wl[nw++] = j - i;
            i = j;
        }
        if (!nw) continue;
        long r = nw >= 2 && word_is(w[0], wl[0], "router") ? number(w[1], wl[1], ANY_MAX_ROUTERS - 1) : -1;
        if (r < 0) {
            char b[48];
            snprintf(err, errlen, "%s:%d: a line starts 'router R' (R 0..%d), not '%s'", path, line + 1,
                     ANY_MAX_ROUTERS - 1, shown(w[0], wl[0], b));
            rc = -1;
            break;
        }
        if (r >= a->nr) a->nr = (int)r + 1;
        for (size_t i = 2; i < nw && !rc; i += 2) {
            int node = word_is(w[i], wl[i], "node"), rt = word_is(w[i], wl[i], "router");
            long v = i + 1 < nw ? number(w[i + 1], wl[i + 1], node ? TOPO_MAX_TERMS - 1 : ANY_MAX_ROUTERS - 1) : -1;
            if ((!node && !rt) || v < 0) {
                char b[48];
                snprintf(err, errlen, "%s:%d: expected 'node N' (N 0..%d) or 'router R [LATENCY]', found '%s'", path,
                         line + 1, TOPO_MAX_TERMS - 1, shown(w[i], wl[i], b));
                rc = -1;
            } else if (node) {
                if (node_router[v] >= 0 && node_router[v] != r) {
                    snprintf(err, errlen, "%s:%d: node %ld is already on router %d (a node has one router)", path,
                             line + 1, v, node_router[v]);
                    rc = -1;
                }
                node_router[v] = (int)r;
                if (v > *maxnode) *maxnode = (int)v;
            } else {
                if (i + 2 < nw && number(w[i + 2], wl[i + 2], 1000000) >= 0) { /* a latency */
                    if (number(w[i + 2], wl[i + 2], 1000000) != 1) {
                        snprintf(err, errlen,
                                 "%s:%d: router %ld - router %ld latency %.*s: xnoc's links take one cycle", path,
                                 line + 1, r, v, (int)wl[i + 2], w[i + 2]);
                        rc = -1;
                        break;
                    }
                    i++;
                }
                if (v == r) {
                    snprintf(err, errlen, "%s:%d: router %ld is linked to itself", path, line + 1, r);
                    rc = -1;
                    break;
                }
                if (v >= a->nr) a->nr = (int)v + 1;
                for (int k = 0; k < 2 && !rc; k++) { /* both directions, once */
                    int x = k ? (int)v : (int)r, y = k ? (int)r : (int)v;
                    if (port_to(a, x, y) >= 0) continue;
                    int p = 0;
                    while (p < ANY_MAX_DEG && a->nbr[x][p] >= 0) p++;
                    if (p == ANY_MAX_DEG) {
                        snprintf(err, errlen, "%s:%d: router %d has more than %d links", path, line + 1, x,
                                 ANY_MAX_DEG);
                        rc = -1;
                        break;
                    }
                    a->nbr[x][p] = y;
                    if (p + 1 > a->deg) a->deg = p + 1;
                }
            }
        }
    }
    free(text);
    return rc;
}

/* the terminals' numbering, connectivity, and the spanning tree's routes */
static int check_and_route(anynet *a, const char *path, const int *node_router, int maxnode, char *err, size_t errlen)
{
    int nnodes = maxnode + 1;
    if (!a->nr || nnodes < 1) {
        snprintf(err, errlen, "topology 'anynet:%s': no routers or no nodes", path);
        return -1;
    }
    if (nnodes % a->nr) {
        snprintf(err, errlen,
                 "topology 'anynet:%s': %d nodes on %d routers: xnoc needs the same number of nodes on every router",
                 path, nnodes, a->nr);
        return -1;
    }
    a->conc = nnodes / a->nr;
    for (int v = 0; v < nnodes; v++)
        if (node_router[v] != v / a->conc) {
            snprintf(err, errlen,
                     "topology 'anynet:%s': node %d is %s router %d: xnoc numbers terminals by router (router R has "
                     "nodes R*%d .. R*%d+%d)",
                     path, v, node_router[v] < 0 ? "missing, expected on" : "not on", v / a->conc, a->conc, a->conc,
                     a->conc - 1);
            return -1;
        }
    /* breadth-first from router 0: the tree and its levels */
    int *queue = xcalloc((size_t)a->nr, sizeof *queue), head = 0, tail = 0;
    for (int r = 0; r < a->nr; r++) a->parent[r] = -2;
    a->parent[0] = -1;
    queue[tail++] = 0;
    while (head < tail) {
        int r = queue[head++];
        for (int p = 0; p < a->deg; p++) {
            int q = a->nbr[r][p];
            if (q >= 0 && a->parent[q] == -2) {
                a->parent[q] = r;
                queue[tail++] = q;
            }
        }
    }
    free(queue);
    if (tail < a->nr) {
        int lost = 0;
        while (a->parent[lost] != -2) lost++;
        snprintf(err, errlen, "topology 'anynet:%s': router %d cannot be reached from router 0", path, lost);
        return -1;
    }
    /* down[r][q]: for every q below r, the port of the child on its way up to r */
    a->down = xmalloc((size_t)a->nr * (size_t)a->nr * sizeof *a->down);
    for (int i = 0; i < a->nr * a->nr; i++) a->down[i] = -1;
    for (int q = 0; q < a->nr; q++)
        for (int c = q; a->parent[c] >= 0; c = a->parent[c])
            a->down[a->parent[c] * a->nr + q] = port_to(a, a->parent[c], c);
    return 0;
}

static const anynet *load(const char *path, char *err, size_t errlen)
{
    for (int i = 0; i < ncache; i++)
        if (!strcmp(cache[i]->path, path)) return cache[i];
    if (strlen(path) > 56) {
        snprintf(err, errlen, "topology 'anynet:%.60s...': a path of at most 56 characters", path);
        return NULL;
    }
    if (ncache == (int)(sizeof cache / sizeof *cache)) {
        snprintf(err, errlen, "topology 'anynet:%s': more than %d network files in one run", path, ncache);
        return NULL;
    }
    anynet *a = xcalloc(1, sizeof *a);
    snprintf(a->path, sizeof a->path, "%s", path);
    memset(a->nbr, 0xff, sizeof a->nbr);
    int *node_router = xmalloc(TOPO_MAX_TERMS * sizeof *node_router), maxnode;
    for (int i = 0; i < TOPO_MAX_TERMS; i++) node_router[i] = -1;
    int bad = read_file(a, path, node_router, &maxnode, err, errlen) ||
              check_and_route(a, path, node_router, maxnode, err, errlen);
    free(node_router);
    if (bad) {
        free(a->down);
        free(a);
        return NULL;
    }
    return cache[ncache++] = a;
}

static const anynet *of(const topo *t) { return cache[t->anynet_file]; }

static size_t match_anynet(const char *spec) { return strncmp(spec, "anynet:", 7) ? 0 : 7; }

static int parse_anynet(const char *spec, size_t len, topo_shape *s, const char **rest, char *err, size_t errlen)
{
    const anynet *a = load(spec + len, err, errlen);
    if (!a) return -1;
    int i = 0;
    while (cache[i] != a) i++;
    s->p[0] = i;
    s->p[1] = a->nr;
    s->p[2] = a->deg;
    s->conc = a->conc;
    *rest = spec + strlen(spec);
    return 0;
}

static void size_anynet(const topo_shape *s, topo_size *z)
{
    z->nnet = s->p[2];
    z->nrouters = s->p[1];
    z->nterms = (long)s->p[1] * s->conc;
}

static void init_anynet(topo *t, const topo_shape *s)
{
    t->anynet_file = s->p[0];
    t->w = t->nrouters;
    t->h = 1;
    t->nclasses = 1;
}

static void wire_anynet(topo *t)
{
    const anynet *a = of(t);
    for (int r = 0; r < a->nr; r++) {
        for (int p = 0; p < a->deg; p++) {
            int q = a->nbr[r][p];
            if (q >= 0) topo_add_link(t, r, p, q, port_to(a, q, r), 0, TOPO_LINK_LOCAL);
        }
        double ang = (-90.0 + 360.0 * r / a->nr) * M_PI / 180.0;
        t->x[r] = 0.5 + 0.42 * cos(ang);
        t->y[r] = 0.5 + 0.42 * sin(ang);
    }
}

/* down the tree if q is below r, else up */
static int route_anynet(const topo *t, int r, int q, int dest)
{
    (void)dest;
    const anynet *a = of(t);
    int p = a->down[r * a->nr + q];
    return p >= 0 ? p : port_to(a, r, a->parent[r]);
}

static void name_anynet(topo *t) { snprintf(t->name, sizeof t->name, "anynet:%.56s", of(t)->path); }

static void port_name_anynet(const topo *t, int r, int p, char *buf, size_t len)
{
    snprintf(buf, len, "to-r%d", of(t)->nbr[r][p]);
}

static void label_anynet(const topo *t, int r, char *buf, size_t len)
{
    (void)t;
    snprintf(buf, len, "router %d", r);
}

static int param_anynet(const topo *t, int i)
{
    (void)t;
    (void)i;
    return 0;
}

static const char *const anynet_names[] = {"anynet", NULL};

const topo_ops topo_anynet_ops = {
    .kind = TOPO_ANYNET,
    .usage = "anynet:FILE",
    .names = anynet_names,
    .match = match_anynet,
    .parse = parse_anynet,
    .no_suffix = "the file says the nodes",
    .size = size_anynet,
    .init = init_anynet,
    .wire = wire_anynet,
    .route = route_anynet,
    .routed_distances = 1,
    .name = name_anynet,
    .port_name = port_name_anynet,
    .router_label = label_anynet,
    .drawing = TOPO_DRAW_RING,
    .param = param_anynet,
};
