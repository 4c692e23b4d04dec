/* topo.h - the one topology description of xnoc.
 *
 * Everything that needs to know the shape of the network reads it from here:
 * the netlist generator, the routing tables loaded into the RTL, the schedule
 * synthesizer and the live view.  A topology is parsed from a string such as
 * "mesh:4x4", "torus:8x8", "torus:4x4x4", "octagon", "fat-octagon" or
 * "mesh:4x4:c=2", "dragonfly:a=4,p=2,h=2", "clos:m=2,n=2,r=2" (docs/topologies.md).
 * Each kind is one file filling one row of a table of functions
 * (net/topo_kind.h); t->ops is the row of t's kind.
 *
 * Vocabulary
 *   router    a switch; ids 0..nrouters-1 (mesh/torus: mixed radix, dimension
 *             0 fastest: id = c0 + d0*(c1 + d1*(c2 + ...)); 2-D: y*w + x)
 *   terminal  a core + NI attached to a router; ids 0..nterms-1,
 *             terminal t sits on router t / conc as local terminal t % conc
 *             (routers nterms/conc .. nrouters-1, the clos's spines, have none)
 *   port      router port; 0..nnet-1 network ports, then conc*k terminal ports:
 *             terminal-local j, channel c -> port nnet + j*k + c
 *   link      a directed router-to-router channel (full duplex = two links)
 *   channel   any directed channel: a link, an injection channel
 *             (terminal -> router) or an ejection channel (router -> terminal)
 */
#ifndef XNOC_TOPO_H
#define XNOC_TOPO_H

#include <stddef.h>
#include <stdint.h>

/* the numbers are firmware ABI (DEV_TOPO_KIND, firmware/lib/runtime.c) */
typedef enum { TOPO_MESH, TOPO_TORUS, TOPO_OCTAGON, TOPO_DRAGONFLY, TOPO_CLOS, TOPO_ANYNET } topo_kind;

/* What a link is, apart from its VC-class role (the dateline flag):
 * LOCAL   an ordinary link (mesh, ring, a dragonfly group's, leaf-spine)
 * GLOBAL  a dragonfly link between groups
 * WRAP    a torus link closing a ring (drawn leaving one edge, coming back
 *         at the other) */
typedef enum { TOPO_LINK_LOCAL, TOPO_LINK_GLOBAL, TOPO_LINK_WRAP } topo_link_kind;

/* How the view draws a kind: routers at t->x/y on a grid (mesh, torus, n-D
 * as small multiples), on a circle (octagon), groups on a circle
 * (dragonfly), or in tiers (clos: spines above leaves). */
typedef enum { TOPO_DRAW_GRID, TOPO_DRAW_RING, TOPO_DRAW_GROUPS, TOPO_DRAW_TIERS } topo_drawing;

/* Port "dimension" used by the VC-class rule (see docs/router.md):
 * a packet keeps its VC class while it continues in the same dimension,
 * drops to class 0 when it turns, and moves to class 1 on a dateline port. */
enum { DIM_X = 0, DIM_Y = 1, DIM_ACROSS = 6, DIM_TERM = 7 }; /* dimension d: d (0..5) */
enum { OCT_CW = 0, OCT_CCW = 1, OCT_ACROSS = 2 };
enum { MESH_XP = 0, MESH_XM = 1, MESH_YP = 2, MESH_YM = 3 }; /* dimension d: 2d (+), 2d+1 (-) */
#define TOPO_MAX_DIMS 6
#define TOPO_MAX_K 16 /* channels per terminal: NI_MAX_K (firmware/lib/ni_regs.h) */

typedef struct {
    int src, src_port; /* router and its output port */
    int dst, dst_port; /* router and its input port */
    int dateline;      /* 1: crossing this link moves a packet to VC class 1 */
    topo_link_kind kind;
} topo_link;

typedef struct topo_ops topo_ops; /* net/topo_kind.h */

typedef struct topo {
    topo_kind kind;
    const topo_ops *ops;     /* the kind's row of the table */
    char name[64];           /* canonical spelling, e.g. "mesh:4x4", "fat-octagon" */
    int ndims;               /* mesh/torus: 1..TOPO_MAX_DIMS; octagon: 0 */
    int dims[TOPO_MAX_DIMS]; /* mesh/torus: size of each dimension */
    int w, h;                /* the drawing grid: 2-D: the size; n-D: w = d0*d2*d4,
                          * h = d1*d3*d5 (nested planes); octagon: w = 8, h = 1 */
    int conc;                /* terminals per router */
    int k;                   /* injection = ejection channels per terminal */
    int nrouters, nterms;
    int nnet;     /* network ports per router (2*ndims, at least 4, mesh/torus; 3 octagon) */
    int nports;   /* ports per router: nnet + conc*k (same for all) */
    int nclasses; /* VC classes routing needs for deadlock freedom: 1 or 2 */
    int nlinks;
    topo_link *links;
    int *out_link;     /* [r*nports + p] -> link leaving router r at port p, or -1 */
    int *in_link;      /* [r*nports + p] -> link entering router r at port p, or -1 */
    uint8_t *port_dim; /* [r*nports + p] -> DIM_* */
    uint8_t *dateline; /* [r*nports + p] -> 1 if out port p of r is a dateline */
    double *x, *y;     /* [r] drawing position of router r, in [0,1] */
    int *dist;         /* [ra*nrouters + rb] router hops of the routed path (minimal but on the dragonfly) */
    /* dragonfly: groups of a routers (router id = group * a + i), each with
     * local ports 0..a-2 (to the group's other routers, in id order) and
     * global ports a-1 .. a-2+h; group x's global slot s = i*h + j (router
     * i, global port j) leads to group s < x ? s : s+1 (slots >= groups-1 are
     * unwired) */
    int df_a, df_h, groups;
    /* clos v(m, n, r), folded: routers 0..r-1 are the leaves (n terminals
     * each, network port j up to spine j, j < m), routers r..r+m-1 the
     * spines (network port i down to leaf i, i < r) */
    int clos_m, clos_n, clos_r;
    int anynet_file; /* anynet:FILE: the file's index among those read (net/topo_anynet.c) */
} topo;

/* A figure of a kind for xnoc topo's report ("groups": 9). */
typedef struct {
    const char *key;
    long value;
} topo_fact;

/* dragonfly: the group of router r, and the router of group x whose global
 * link leads to group y (x != y) with the global port it uses */
static inline int topo_group(const topo *t, int r) { return t->df_a ? r / t->df_a : 0; }
int topo_df_gateway(const topo *t, int x, int y, int *port);
/* dragonfly: at router r, the port towards group y (its global port if r
 * holds the link, else the local port to the router that does; -1 in y),
 * and the router hops of the Valiant path from ra through group y to rb */
int topo_df_group_port(const topo *t, int r, int y);
int topo_df_valiant_hops(const topo *t, int ra, int rb, int y);

/* Parses spec; k = channels per terminal (k-port model, >= 1), at most
 * TOPO_MAX_TERMS terminals (terminal ids in plans, schedules, coding groups
 * and non-minimal traffic heads).  Returns NULL and writes one clear line
 * into err on bad input. */
#define TOPO_MAX_TERMS 1024
topo *topo_parse(const char *spec, int k, char *err, size_t errlen);
/* The same with another terminal limit, for models that never build the
 * network (xnoc dfmodel: the paper's 16,512 terminals); at most
 * TOPO_MAX_MODEL_ROUTERS routers (the distance table is routers^2). */
#define TOPO_MAX_MODEL_ROUTERS 4096
topo *topo_parse_max(const char *spec, int k, int max_terms, char *err, size_t errlen);
void topo_free(topo *t);

static inline int topo_term_router(const topo *t, int term) { return term / t->conc; }
static inline int topo_term_port(const topo *t, int term, int c) { return t->nnet + (term % t->conc) * t->k + c; }
/* coordinate d of router r (mesh/torus) */
int topo_coord(const topo *t, int r, int d);
/* the router at a coordinate vector (mesh/torus) */
int topo_router_at(const topo *t, const int *coord);
/* the drawing grid position of router r (column, row): 2-D: (x, y); n-D:
 * nested planes with one empty cell between them; and the grid's size */
void topo_grid_pos(const topo *t, int r, int *col, int *row);
void topo_grid_size(const topo *t, int *w, int *h);
/* name of port p: "+x", "-z", "cw", "across"; terminal ports "tJ.C"
 * (terminal-local J, channel C); the names of router 0's ports (the same on
 * every router but the clos's spines: topo_port_name_at) */
void topo_port_name(const topo *t, int p, char *buf, size_t len);
/* name of port p of router r: clos leaves "u0" (up to spine 0), spines "d0" */
void topo_port_name_at(const topo *t, int r, int p, char *buf, size_t len);
/* "router 5 (1,1)", "router 5 (group 1)", "router 5 (spine 1)" */
void topo_router_label(const topo *t, int r, char *buf, size_t len);
/* the kind's figures for reports (dragonfly: groups, ...); returns how many (<= max) */
int topo_facts(const topo *t, topo_fact *f, int max);
/* the kind's description lines, a template over xnoc topo's JSON report (util/report.h), or NULL */
const char *topo_describe(const topo *t);
/* how the view draws t */
topo_drawing topo_draw(const topo *t);
/* the kind's parameter i: dimension sizes (0 past ndims); dragonfly a, h, g; clos m, n, r */
int topo_param(const topo *t, int i);
/* routers with terminals: 0 .. topo_term_routers() - 1 */
static inline int topo_term_routers(const topo *t) { return t->nterms / t->conc; }

/* terminal attached at port p of router r, or -1 for a network port */
int topo_port_term(const topo *t, int r, int p);

/* Deterministic deadlock-free routing (XY, torus dimension order, Karim et al.
 * on the octagon, minimal local-global-local on the dragonfly, up-then-down
 * on the clos): the output port at router r for a packet to terminal dest.
 * At dest's own router it is dest's ejection port for channel 0. */
int topo_route(const topo *t, int r, int dest);
/* The output port at router r towards router q (its coding unit), -1 when q == r. */
int topo_route_router(const topo *t, int r, int q);

/* Router hops of the minimal path between two routers (0 when equal). */
int topo_distance(const topo *t, int ra, int rb);

/* The route the routing function takes from terminal src to dest, as output
 * ports (one per router visited, the last one the ejection port, channel 0).
 * Returns the number of ports written (<= max), or -1 if max is too small. */
int topo_route_ports(const topo *t, int src, int dest, int *ports, int max);

/* Enumerates every path from router ra to router rb with at most
 * topo_distance(ra, rb) + detour hops that visits no router twice.
 * Calls fn(ports, nhops, arg) for each (ports = network output ports taken);
 * stops early if fn returns non-zero. Returns the number of paths visited. */
long topo_paths(const topo *t, int ra, int rb, int detour, int (*fn)(const int *ports, int nhops, void *arg),
                void *arg);

/* Bits needed to name a port (PB in the head-flit route field). */
int topo_port_bits(const topo *t);

#endif
