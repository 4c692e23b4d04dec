/* traffic_gen.c - the synthetic traffic's generator: destination patterns,
 * packet creation into the terminals' source queues, and the injection of
 * each channel's next flit under the routers' credits (traffic_sim.h). */
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "traffic/traffic_sim.h"

static packet *pl_add(packet_list *l)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    memset(&l->v[l->n], 0, sizeof *l->v);
    return &l->v[l->n++];
}

/* ---- patterns */

const char *const traffic_pattern_names[NPAT] = {"uniform", "transpose", "bitcomp",   "neighbor",   "hotspot",
                                                 "incast",  "allpairs",  "unitpairs", "groupshift", "tornado",
                                                 "bitrev",  "shuffle",   "randperm",  "multicast",  "allgather"};

static uint64_t rng_state;

void traffic_seed(uint64_t seed) { rng_state = seed * 0x2545F4914F6CDD1DULL + 7; }
static uint64_t rng(void)
{
    rng_state += 0x9e3779b97f4a7c15ULL;
    return traffic_mix64(rng_state);
}
double traffic_rng_unit(void) { return (double)(rng() >> 11) / 9007199254740992.0; }

static int *perm;                       /* randperm: perm[src] */
static int *hot, *hot_w, nhot, hot_sum; /* hotspot:NODES:WEIGHTS (BookSim2's hotspot({{...},{...}})) */

void traffic_pattern_free(void)
{
    free(perm);
    perm = NULL;
    free(hot);
    free(hot_w);
    hot = hot_w = NULL;
    nhot = hot_sum = 0;
}

/* "a,b,c" into v[0..max) (values lo..hi); the count, or -1 */
static int int_list(const char *s, int *v, int max, long lo, long hi)
{
    int n = 0;
    char *copy = xstrdup(s), *save = NULL;
    for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        long x;
        if (n == max || cli_parse_long(w, lo, hi, &x)) {
            free(copy);
            return -1;
        }
        v[n++] = (int)x;
    }
    free(copy);
    return n && s[strlen(s) - 1] != ',' && s[0] != ',' ? n : -1;
}

const char *traffic_hotspots(const char *spec, int nterms)
{
    traffic_pattern_free();
    const char *colon = strchr(spec, ':');
    char *nodes = colon ? xasprintf("%.*s", (int)(colon - spec), spec) : xstrdup(spec);
    hot = xmalloc((size_t)nterms * sizeof *hot);
    hot_w = xmalloc((size_t)nterms * sizeof *hot_w);
    nhot = int_list(nodes, hot, nterms, 0, nterms - 1);
    free(nodes);
    if (nhot < 0) return "hotspot:NODES[:WEIGHTS]: NODES is a list of terminals such as 0,5 (each 0..terminals-1)";
    int nw = colon ? int_list(colon + 1, hot_w, nhot, 1, 1000000) : 0;
    if (nw < 0) return "hotspot:NODES:WEIGHTS: WEIGHTS is a list of whole numbers 1..10^6, at most one per node";
    for (int i = nw; i < nhot; i++) hot_w[i] = nw ? hot_w[nw - 1] : 1; /* as BookSim2: the last weight repeats */
    for (int i = 0; i < nhot; i++) hot_sum += hot_w[i];
    return NULL;
}

void traffic_pattern_setup(const topo *t, int pat, uint64_t seed)
{
    free(perm);
    perm = NULL;
    if (pat != PAT_RANDPERM) return;
    /* Sattolo's algorithm: a uniformly random cyclic permutation, so no
     * terminal sends to itself; its own generator, so that the mapping
     * depends on --seed alone */
    int n = t->nterms;
    perm = xmalloc((size_t)n * sizeof *perm);
    for (int i = 0; i < n; i++) perm[i] = i;
    uint64_t st = seed * 0x9e3779b97f4a7c15ULL + 0x5151;
    for (int i = n - 1; i > 0; i--) {
        st += 0x9e3779b97f4a7c15ULL;
        int j = (int)(traffic_mix64(st) % (uint64_t)i), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
}

int traffic_pattern_fixed(int pat)
{
    return pat == PAT_TRANSPOSE || pat == PAT_BITCOMP || pat == PAT_INCAST || pat == PAT_NEIGHBOR ||
           pat == PAT_GROUPSHIFT || pat == PAT_TORNADO || pat == PAT_BITREV || pat == PAT_SHUFFLE ||
           pat == PAT_RANDPERM;
}

static int log2_exact(int n)
{
    int b = 0;
    while ((1 << b) < n) b++;
    return b;
}

int traffic_dest_of(const topo *t, int pat, int src)
{
    int n = t->nterms, r = topo_term_router(t, src), j = src % t->conc;
    switch (pat) {
    case PAT_TRANSPOSE: {
        int x = r % t->w, y = r / t->w;
        return (x * t->w + y) * t->conc + j;
    }
    case PAT_BITCOMP: return (n - 1) ^ src;
    case PAT_TORNADO:
        if (t->ndims) { /* each coordinate x of k: x + ceil(k/2) - 1 (mod k), the same local terminal */
            int c[TOPO_MAX_DIMS];
            for (int d = 0; d < t->ndims; d++) {
                int k = t->dims[d];
                c[d] = (topo_coord(t, r, d) + (k + 1) / 2 - 1) % k;
            }
            return topo_router_at(t, c) * t->conc + j;
        }
        return (src + (n + 1) / 2 - 1) % n; /* octagon, dragonfly: on the terminal ring */
    case PAT_BITREV: {
        int b = log2_exact(n), d = 0;
        for (int i = 0; i < b; i++)
            if (src >> i & 1) d |= 1 << (b - 1 - i);
        return d;
    }
    case PAT_SHUFFLE: { /* rotate left by one bit */
        int b = log2_exact(n);
        return b ? ((src << 1) | (src >> (b - 1))) & (n - 1) : 0;
    }
    case PAT_RANDPERM: return perm[src];
    case PAT_INCAST: return 0;
    case PAT_GROUPSHIFT: /* dragonfly: the same terminal of the next group (one global link carries a group's all) */
        return (src + t->df_a * t->conc) % n;
    case PAT_NEIGHBOR:
        if (!t->ndims) return ((r + 1) % topo_term_routers(t)) * t->conc + j; /* octagon, dragonfly, clos: the next */
        {                                                                     /* +1 along dimension 0 */
            int x = topo_coord(t, r, 0);
            return (r - x + (x + 1) % t->dims[0]) * t->conc + j;
        }
    case PAT_HOTSPOT:
        if (nhot) { /* BookSim2's: a hotspot by weight, the source itself included */
            int x = (int)(rng() % (uint64_t)hot_sum), i = 0;
            while (x >= hot_w[i]) x -= hot_w[i++];
            return hot[i];
        }
        if (traffic_rng_unit() < 0.25) return src == 0 ? 1 % n : 0;
        /* fall through */
    default: {
        if (n == 1) return 0;
        int d = (int)(rng() % (uint64_t)(n - 1));
        return d >= src ? d + 1 : d;
    }
    }
}

/* Router hops of a delivered packet's path: minimal, or through its
 * intermediate group when it arrived non-minimally routed (Valiant / UGAL) */
int traffic_packet_hops(const topo *t, const packet *p)
{
    int ra = topo_term_router(t, p->src), rb = topo_term_router(t, p->dst);
    return p->val ? topo_df_valiant_hops(t, ra, rb, p->vgroup) : topo_distance(t, ra, rb);
}

const char *traffic_pattern_check(const topo *t, int pat)
{
    if (pat == PAT_TRANSPOSE && (t->ndims != 2 || t->w != t->h)) return "transpose needs a square 2-D mesh or torus";
    if (pat == PAT_BITCOMP && (t->nterms & (t->nterms - 1))) return "bitcomp needs a power-of-two number of terminals";
    if (pat == PAT_BITREV && (t->nterms & (t->nterms - 1))) return "bitrev needs a power-of-two number of terminals";
    if (pat == PAT_SHUFFLE && (t->nterms & (t->nterms - 1))) return "shuffle needs a power-of-two number of terminals";
    if (pat == PAT_RANDPERM && t->nterms < 2) return "randperm needs at least two terminals";
    if (pat == PAT_INCAST && t->nterms < 2) return "incast needs at least two terminals";
    if (pat == PAT_GROUPSHIFT && t->kind != TOPO_DRAGONFLY)
        return "groupshift is a dragonfly pattern (dragonfly:a=A,p=P,h=H)";
    if (pat == PAT_UNITPAIRS && t->nterms < 2) return "unitpairs needs at least two terminals";
    return NULL;
}

const char *traffic_sizes_parse(const char *spec, pkt_sizes *z)
{
    memset(z, 0, sizeof *z);
    const char *p = spec;
    int sep = strchr(spec, ',') ? ',' : strchr(spec, '-') ? '-' : 0;
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9') return "expected L, A-B or A,B,... (flits, 1..64)";
        long v = strtol(p, &end, 10);
        if (v < 1 || v > 64) return "each length must be 1..64 flits";
        if (sep == ',') {
            if (z->n == TRAFFIC_MAX_SIZES) return "at most 16 lengths";
            z->v[z->n++] = (int)v;
        } else if (p == spec) z->lo = z->hi = (int)v;
        else z->hi = (int)v;
        if (!*end) break;
        if (*end != sep || (sep == '-' && p != spec)) return "expected L, A-B or A,B,... (flits, 1..64)";
        p = end + 1;
    }
    if (sep == '-' && z->hi < z->lo) return "A-B needs A <= B";
    if (sep == '-' && p == spec) return "expected L, A-B or A,B,... (flits, 1..64)";
    if (sep == ',') {
        z->lo = 64;
        for (int i = 0; i < z->n; i++) {
            if (z->v[i] < z->lo) z->lo = z->v[i];
            if (z->v[i] > z->hi) z->hi = z->v[i];
        }
    }
    return NULL;
}

double traffic_sizes_mean(const pkt_sizes *z)
{
    if (!z->n) return (z->lo + z->hi) / 2.0;
    double sum = 0;
    for (int i = 0; i < z->n; i++) sum += z->v[i];
    return sum / z->n;
}

static void push(size_t **q, size_t *len, size_t *cap, size_t idx)
{
    if (*len == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *q = xrealloc(*q, *cap * sizeof **q);
    }
    (*q)[(*len)++] = idx;
}

static void enqueue(sim *s, int term, size_t idx) { push(&s->queue[term], &s->qlen[term], &s->qcap[term], idx); }

void traffic_create(sim *s, int src, int dst, uint64_t now, int measured)
{
    packet *p = pl_add(&s->pk);
    p->src = src;
    p->dst = dst;
    const pkt_sizes *z = &s->sizes; /* draws only for a distribution: fixed runs keep their random stream */
    p->len = z->n             ? z->v[(int)(traffic_rng_unit() * z->n)]
             : z->lo == z->hi ? z->lo
                              : z->lo + (int)(traffic_rng_unit() * (z->hi - z->lo + 1));
    p->seq = (uint32_t)s->by_src_n[src]; /* index_packet() follows */
    p->created = now;
    p->measured = measured;
    p->chan = (int)(p->seq % (uint32_t)s->t->k);
    s->measured_total += measured;
    enqueue(s, src, s->pk.n - 1);
}

/* A coding-group packet from traffic_nc: into the source's coding queue,
 * which goes ahead of its background queue; never measured. */
void traffic_create_nc(void *arg, int src, const uint64_t *flits, int n)
{
    sim *s = arg;
    packet *p = pl_add(&s->pk);
    p->src = src;
    p->dst = -1;
    p->len = n;
    p->created = s->now;
    p->flits = xmalloc((size_t)n * sizeof *flits);
    memcpy(p->flits, flits, (size_t)n * sizeof *flits);
    push(&s->ncq[src], &s->ncq_len[src], &s->ncq_cap[src], s->pk.n - 1);
}

/* Picks the next flit of each injection channel. */
void traffic_inject(sim *s, uint64_t now)
{
    const topo *t = s->t;
    int vpc = s->rc.vcs / router_classes(t, &s->rc); /* class-0 VCs */
    for (int term = 0; term < t->nterms; term++) {
        for (int c = 0; c < t->k; c++) {
            int ch = term * t->k + c;
            inj_state *st = &s->is[ch];
            s->inj[ch].valid = 0;
            if (!st->active) {
                /* next queued packet for this channel: a coding-group packet
                 * first (they go on channel 0), else the background's */
                int nc = c == 0 && s->ncq_head[term] < s->ncq_len[term];
                size_t h = nc ? s->ncq_head[term] : s->queue_head[term];
                if (!nc && h >= s->qlen[term]) continue;
                size_t idx = nc ? s->ncq[term][h] : s->queue[term][h];
                if (s->pk.v[idx].chan != c) continue;
                /* the packet's sequence number picks the first class-0 VC tried */
                int best = ep_pick_vc(&s->ep[ch], vpc, (int)(s->pk.v[idx].seq % (uint32_t)vpc));
                if (best < 0) continue;
                if (nc) {
                    s->ncq_head[term]++;
                    if (now - s->pk.v[idx].created > s->nc_wait_max) s->nc_wait_max = now - s->pk.v[idx].created;
                } else s->queue_head[term]++;
                st->active = 1;
                st->pkt = idx;
                st->vc = best;
                st->sent = 0;
            }
            if (!ep_can_send(&s->ep[ch], st->vc)) continue;
            packet *p = &s->pk.v[st->pkt];
            xnoc_flit *f = &s->inj[ch];
            f->valid = 1;
            f->vc = (uint8_t)st->vc;
            f->head = st->sent == 0;
            f->tail = st->sent == p->len - 1;
            f->payload = p->flits  ? p->flits[st->sent]
                         : f->head ? traffic_head_word(s, p->src, p->dst, p->chan, p->seq)
                                   : traffic_body_word(p->src, p->seq, st->sent);
            ep_spend(&s->ep[ch], st->vc);
            s->inj_flits[ch]++;
            if (f->head) p->injected = now; /* coding-group packets too (allgather's step latencies) */
            if (!p->flits) {
                if (now >= s->warmup && now < s->warmup + s->window) s->window_inj_flits++;
            }
            s->in_flight += !p->flits; /* coding groups are tracked per group (units change flit counts) */
            if (++st->sent == p->len) {
                st->active = 0;
                p->sent = 1;
            }
        }
    }
}
