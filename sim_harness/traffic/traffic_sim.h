/* traffic_sim.h - the state of a synthetic-traffic run (traffic_run.c) shared
 * with its ejection checker (traffic_check.c): the packet records, the
 * injection and ejection state per channel and VC, the error counts. */
#ifndef XNOC_TRAFFIC_SIM_H
#define XNOC_TRAFFIC_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "net/endpoint.h"
#include "net/net.h"
#include "system/test_hooks.h"
#include "net/topo.h"
#include "traffic/traffic_nc.h"

typedef struct {
    int src, dst, len, chan;
    uint32_t seq;
    uint64_t *flits; /* coding-group packet (NI framing), else NULL */
    uint64_t created, arrived;
    uint64_t injected;               /* the cycle its head entered the network (source queueing ends) */
    int got;                         /* flits received so far */
    uint8_t measured, done, dropped; /* dropped: never entered the network */
    uint8_t sent, lost;              /* sent: every flit injected; lost: reported lost */
    uint8_t val;                     /* arrived with VAL set: routed through group vgroup (dragonfly) */
    uint8_t vgroup;
} packet;

typedef struct {
    packet *v;
    size_t n, cap;
} packet_list;

typedef struct {
    int active; /* a packet is being sent */
    size_t pkt; /* index into the packet list */
    int vc, sent;
} inj_state;

typedef struct {
    int active, nc; /* nc: a coding-group packet, checked by traffic_nc */
    size_t pkt;
    int last_valid; /* last: the packet this VC completed last (a duplicated tail names it) */
    size_t last;
} ej_state;

/* --packet: a fixed length (lo == hi, n == 0), uniform over lo..hi (n == 0),
 * or one of v[0..n) with equal probability */
#define TRAFFIC_MAX_SIZES 16
typedef struct {
    int lo, hi, n;
    int v[TRAFFIC_MAX_SIZES];
} pkt_sizes;

/* Parses L, A-B or A,B[,...] (flits, 1..64); NULL, or why not. */
const char *traffic_sizes_parse(const char *spec, pkt_sizes *z);
double traffic_sizes_mean(const pkt_sizes *z);

typedef struct sim {
    const topo *t;
    xnoc_net *net;
    router_cfg rc;
    int pattern, len; /* len: the fixed length, or the largest */
    pkt_sizes sizes;
    double rate;
    uint64_t warmup, window, drain;
    packet_list pk;
    size_t *queue_head; /* per terminal: next packet index to send, in pk order */
    size_t **queue;     /* per terminal: list of packet indexes */
    size_t *qlen, *qcap;
    /* per terminal: coding-group packets, sent ahead of the background
     * queue (a contribution behind a saturated backlog would reach its unit
     * past the unit's time-out: source queueing, not a coding error) */
    size_t **ncq, *ncq_head, *ncq_len, *ncq_cap;
    uint64_t now;         /* the cycle being simulated (for traffic_create_nc) */
    uint64_t nc_wait_max; /* longest a coding-group packet waited at its source, cycles */
    int nch;
    xnoc_flit *inj, *ej; /* the shared loop's channels (net/net_loop.h) */
    xnoc_credit *ejc, *injc;
    endpoint *ep; /* [ch]: its credits, injection held and ejection owed (net/endpoint.h) */
    inj_state *is;
    ej_state *es; /* [ch * vcs + vc] */
    uint64_t *inj_flits;
    uint64_t errors, err_corrupt, err_misroute, err_dup, err_order, err_lost;
    char first_error[512];
    uint64_t measured_total, measured_done, window_flits, in_flight;
    uint64_t *src_window_flits; /* [src] flits of src's packets ejected in the window */
    uint64_t window_inj_flits;  /* background flits injected in the window (measured injection rate) */
    uint64_t last_progress;
    long bad_dest;   /* test hook XNOC_TEST_BAD_DEST=A: the first head injected goes to address A (-1 off) */
    size_t **by_src; /* [src]: packet indexes in sequence order (a head names src and seq) */
    size_t *by_src_n, *by_src_cap;
    nc_gen *nc;         /* --coding */
    struct tcoll *coll; /* --pattern allgather:A (traffic_coll.h), else NULL */
    /* called for every packet that arrives whole (tcoll_arrived), or NULL */
    void (*on_arrived)(struct tcoll *coll, size_t idx, uint64_t now);
    test_hooks *hooks; /* [term] XNOC_TEST_CORRUPT / _DROP / _DUP at ejection */
} sim;

/* ---- the generator (traffic_gen.c) */

enum {
    PAT_UNIFORM,
    PAT_TRANSPOSE,
    PAT_BITCOMP,
    PAT_NEIGHBOR,
    PAT_HOTSPOT,
    PAT_INCAST,
    PAT_ALLPAIRS,
    PAT_UNITPAIRS,
    PAT_GROUPSHIFT,
    PAT_TORNADO,
    PAT_BITREV,
    PAT_SHUFFLE,
    PAT_RANDPERM,
    PAT_MULTICAST, /* multicast:F: coding-unit multicasts only (traffic_nc.c), no unicasts */
    PAT_ALLGATHER, /* allgather:A: a collective's schedule as traffic (traffic_coll.h) */
    NPAT
};
extern const char *const traffic_pattern_names[NPAT];
/* Why pattern pat cannot run on t, or NULL. */
const char *traffic_pattern_check(const topo *t, int pat);
/* hotspot:NODES[:WEIGHTS]: every packet to one of NODES, chosen by weight
 * (BookSim2's hotspot pattern); NULL, or why spec is not one. */
const char *traffic_hotspots(const char *spec, int nterms);
/* Prepares pattern pat on t (randperm: its permutation, drawn from seed alone). */
void traffic_pattern_setup(const topo *t, int pat, uint64_t seed);
void traffic_pattern_free(void);
/* Whether pattern pat sends every packet of a source to one destination. */
int traffic_pattern_fixed(int pat);
/* The destination of a new packet from src (random patterns draw from the generator's state). */
int traffic_dest_of(const topo *t, int pat, int src);
void traffic_seed(uint64_t seed);
double traffic_rng_unit(void); /* uniform in [0, 1) */
/* Router hops of a delivered packet's path (through its Valiant group when it took one). */
int traffic_packet_hops(const topo *t, const packet *p);
/* A new packet from src to dst into src's source queue (measured: created in the window). */
void traffic_create(sim *s, int src, int dst, uint64_t now, int measured);
/* A coding-group packet (traffic_nc's callback): queued like any other, never measured. */
void traffic_create_nc(void *arg, int src, const uint64_t *flits, int n);
/* The next flit of every injection channel into s->inj, VC chosen among
 * class 0 by sequence number, as credits allow. */
void traffic_inject(sim *s, uint64_t now);

/* a 64-bit mixer (splitmix64's finalizer): the traffic's random numbers and flit hashes */
static inline uint64_t traffic_mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

/* The words a packet carries: its head (routing fields where the router
 * reads them, then src, seq and a checksum) and body flit i. */
uint64_t traffic_head_word(const sim *s, int src, int dst, int chan, uint32_t seq);
uint64_t traffic_body_word(int src, uint32_t seq, int i);
/* Counts an error of a kind; the first one's text is kept for the report. */
void traffic_error(sim *s, uint64_t *kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Enters packet idx in its source's sequence index (after creating it). */
void traffic_index_packet(sim *s, size_t idx);
/* Marks flits [from, to) of packet p lost. */
void traffic_lose(sim *s, packet *p, int from, int to, uint64_t now, const char *why);
/* A flit ejected on channel ch: credit, test hooks, then checked byte for
 * byte against the packet it claims to belong to. */
void traffic_receive(sim *s, int ch, const xnoc_flit *f, uint64_t now);

#endif
