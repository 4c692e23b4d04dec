/* traffic_coll.c - the allgather's schedule as synthetic traffic
 * (traffic_coll.h): per node an in-order send queue released as the NI
 * comes to hold each packet's content, and an XOR engine of fixed cost. */
#include "traffic/traffic_coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/hnc.h"
#include "traffic/traffic_nc.h"
#include "traffic/traffic_sim.h"
#include "util/cli.h"

#define NEVER UINT64_MAX
#define MAX_PHASES HNC_PHASES

typedef struct {
    int x, part; /* transfer, bundle part (0 for a datum) */
} item;

typedef struct {
    int dst, msg, part, phase, step;
    uint64_t created;
} rel_t;

typedef struct {
    int mcast;                        /* a multicast (unit_mcast), else an XOR (xor_unit) */
    int node, msg, part, phase, step; /* a unit's XOR in flight: where its result goes */
    size_t last;                      /* its second contribution's packet (index in s->pk) */
} uop_t;

typedef struct {
    uint64_t packets, flits, xors, start, end; /* start: first release; end: last arrival or XOR */
} phase_t;

struct tcoll {
    tcoll_opts o;
    const topo *t;
    coll_sched s;
    hnc_info hi;
    int len, n, nm, maxp, nphases;
    uint64_t *held; /* [(node * nm + m) * maxp + part]: the cycle the node holds it from, or NEVER */
    item **q;       /* [node]: sends in schedule order */
    int *qn, *qh;
    int **xq; /* [node]: its XORs (indexes into s.xors) in schedule order */
    int *xn, *xh;
    uint64_t *busy; /* [node]: its NI's XOR engine is busy until */
    rel_t *rel;     /* [packet index in s->pk] */
    size_t nrel, relcap;
    uint64_t pending, xors_left, last, done_at;
    int *step_phase;    /* [step] */
    uint64_t *step_max; /* [step]: the longest latency (release to arrival) of its packets */
    phase_t ph[MAX_PHASES];
    uop_t *uops; /* [tag] (xor_unit) */
    uint64_t unit_xors;
    uint64_t delivered;  /* the last packet's (or unit result's) arrival: the paper's end-to-end, decoding aside */
    struct sim *sim;     /* the run (packet records: their injection cycles) */
    uint64_t *step_inj;  /* [step]: the worst latency from injection (head into the network) to arrival */
    uint64_t *left;      /* [step]: packets and XORs not yet done (sync_steps) */
    uint64_t *step_end;  /* [step]: its last NI XOR's completion (sync_steps) */
    int cur;             /* sync_steps: the step running; later steps wait */
    unsigned char *want; /* [node]: scratch, a multicast's destinations */
};

static const char *const hnc_phase_names[MAX_PHASES] = {"B_F", "C", "D", "E", "G"};

static uint64_t *held_at(tcoll *c, int node, int m, int part)
{
    return &c->held[((size_t)node * (size_t)c->nm + (size_t)m) * (size_t)c->maxp + (size_t)part];
}

static int parts_of(const tcoll *c, int m) { return c->s.msgs[m].parts > 1 ? c->s.msgs[m].parts : 1; }

tcoll *tcoll_new(const topo *t, const tcoll_opts *o, int len, char *err, int errlen)
{
    tcoll *c = xcalloc(1, sizeof *c);
    c->o = *o;
    c->t = t;
    c->len = len;
    if (coll_init(&c->s, t, OP_ALLGATHER, NULL, NULL, err, errlen)) goto fail;
    if (o->algo == ALGO_TREE) {
        if (coll_builtin(&c->s, t, ALGO_TREE, err, errlen)) goto fail;
        c->nphases = 1;
    } else {
        hnc_opts ho = {.gw = o->gw,
                       .gh = o->gh,
                       .bytes = 8 * len,
                       .chunk = 256,
                       .in_pos = o->in_pos,
                       .combine = o->algo == ALGO_COMBINE,
                       .unit_mcast = o->unit_mcast};
        if (hnc_build(&c->s, t, &ho, &c->hi, err, errlen)) goto fail;
        c->nphases = HNC_PHASES;
    }
    int n = c->n = t->nterms, nm = c->nm = c->s.nmsgs;
    c->maxp = 1;
    for (int m = 0; m < nm; m++)
        if (parts_of(c, m) > c->maxp) c->maxp = parts_of(c, m);
    size_t nh = (size_t)n * (size_t)nm * (size_t)c->maxp;
    c->held = xmalloc(nh * sizeof *c->held);
    for (size_t i = 0; i < nh; i++) c->held[i] = NEVER;
    for (int m = 0; m < nm; m++)
        if (c->s.msgs[m].parts <= 1) *held_at(c, c->s.msgs[m].origin, m, 0) = 0;
    c->uops = xcalloc(65536, sizeof *c->uops);
    c->step_max = xcalloc((size_t)c->s.nsteps + 1, sizeof *c->step_max);
    c->step_phase = xcalloc((size_t)c->s.nsteps + 1, sizeof *c->step_phase);
    c->step_inj = xcalloc((size_t)c->s.nsteps + 1, sizeof *c->step_inj);
    c->left = xcalloc((size_t)c->s.nsteps + 1, sizeof *c->left);
    c->step_end = xcalloc((size_t)c->s.nsteps + 1, sizeof *c->step_end);
    if (o->algo != ALGO_TREE)
        for (int p = 0; p < HNC_PHASES; p++)
            for (int st = c->hi.first_step[p]; st < c->hi.first_step[p + 1] && st < c->s.nsteps; st++)
                c->step_phase[st] = p;
    for (int p = 0; p < MAX_PHASES; p++) c->ph[p].start = NEVER;
    /* the sends and XORs per node, by step (stable: the schedule's order within a step) */
    c->q = xcalloc((size_t)n, sizeof *c->q);
    c->qn = xcalloc((size_t)n, sizeof *c->qn);
    c->qh = xcalloc((size_t)n, sizeof *c->qh);
    c->xq = xcalloc((size_t)n, sizeof *c->xq);
    c->xn = xcalloc((size_t)n, sizeof *c->xn);
    c->xh = xcalloc((size_t)n, sizeof *c->xh);
    c->busy = xcalloc((size_t)n, sizeof *c->busy);
    c->want = xcalloc((size_t)n, 1);
    int *cap = xcalloc((size_t)n, sizeof *cap);
    for (int st = 0; st < c->s.nsteps; st++)
        for (int x = 0; x < c->s.nxfers; x++) {
            const coll_xfer *f = &c->s.xf[x];
            if (f->step != st) continue;
            if (f->src >= n || f->dst >= n || (f->len && !f->mc)) {
                snprintf(err, (size_t)errlen, "allgather: transfer %d goes through a unit (not modelled)", x);
                free(cap);
                goto fail;
            }
            if (f->mc && x > 0 && c->s.xf[x - 1].mc == f->mc) continue; /* queued with the multicast's first */
            int copies = 1;
            while (f->mc && x + copies < c->s.nxfers && c->s.xf[x + copies].mc == f->mc) copies++;
            for (int p = 0; p < (f->mc ? 1 : parts_of(c, f->msg)); p++) { /* a multicast: one part */
                if (c->qn[f->src] == cap[f->src]) {
                    cap[f->src] = cap[f->src] ? 2 * cap[f->src] : 16;
                    c->q[f->src] = xrealloc(c->q[f->src], (size_t)cap[f->src] * sizeof **c->q);
                }
                c->q[f->src][c->qn[f->src]++] = (item){x, f->mc ? f->part : p};
                c->pending += (uint64_t)copies;
                c->left[st] += (uint64_t)copies;
            }
        }
    memset(cap, 0, (size_t)n * sizeof *cap);
    for (int st = 0; st < c->s.nsteps; st++)
        for (int i = 0; i < c->s.nxors; i++) {
            const coll_xor *x = &c->s.xors[i];
            if (x->step != st) continue;
            if (c->xn[x->node] == cap[x->node]) {
                cap[x->node] = cap[x->node] ? 2 * cap[x->node] : 16;
                c->xq[x->node] = xrealloc(c->xq[x->node], (size_t)cap[x->node] * sizeof **c->xq);
            }
            c->xq[x->node][c->xn[x->node]++] = i;
            c->xors_left++;
            c->left[st]++;
        }
    free(cap);
    return c;
fail:
    tcoll_free(c);
    return NULL;
}

void tcoll_free(tcoll *c)
{
    if (!c) return;
    for (int i = 0; i < c->n; i++) {
        free(c->q[i]);
        free(c->xq[i]);
    }
    free(c->q);
    free(c->qn);
    free(c->qh);
    free(c->xq);
    free(c->xn);
    free(c->xh);
    free(c->busy);
    free(c->want);
    free(c->held);
    free(c->rel);
    free(c->step_phase);
    free(c->step_max);
    free(c->step_inj);
    free(c->left);
    free(c->step_end);
    free(c->uops);
    coll_free(&c->s);
    free(c);
}

static void phase_event(phase_t *p, uint64_t t)
{
    if (t > p->end) p->end = t;
}

/* sync_steps: the step that may run at cycle now (every earlier one done) */
static void advance(tcoll *c, uint64_t now)
{
    while (c->cur < c->s.nsteps && !c->left[c->cur] && c->step_end[c->cur] <= now) c->cur++;
}

/* whether step st may start at cycle now */
static int may_run(const tcoll *c, int st) { return !c->o.sync_steps || st <= c->cur; }

/* The IN's multicast of one bundle part through its router's unit: the
 * transfers of its mc id name the destinations.  -1 while the slots are budgeted. */
static int send_mcast(tcoll *c, sim *s, const item *it, uint64_t now)
{
    const coll_xfer *f = &c->s.xf[it->x];
    memset(c->want, 0, (size_t)c->n);
    for (int y = it->x; y < c->s.nxfers && c->s.xf[y].mc == f->mc; y++) c->want[c->s.xf[y].dst] = 1;
    int tag = nc_gen_mcast(s->nc, now, f->src, c->want, c->len, traffic_create_nc, s);
    if (tag < 0) return -1;
    int phase = c->step_phase[f->step];
    c->uops[tag] = (uop_t){1, f->src, f->msg, it->part, phase, f->step, s->pk.n - 1};
    phase_t *ph = &c->ph[phase];
    ph->packets++;
    ph->flits += (uint64_t)s->pk.v[s->pk.n - 1].len;
    if (now < ph->start) ph->start = now;
    return 0;
}

int tcoll_step(tcoll *c, sim *s, uint64_t now)
{
    c->sim = s;
    advance(c, now);
    for (int node = 0; node < c->n; node++) {
        /* the NI's XORs, one at a time */
        while (c->xh[node] < c->xn[node] && c->busy[node] <= now) {
            const coll_xor *x = &c->s.xors[c->xq[node][c->xh[node]]];
            if (!may_run(c, x->step)) break;
            if (*held_at(c, node, x->amsg, x->apart) > now || *held_at(c, node, x->bmsg, x->bpart) > now) break;
            int phase = c->step_phase[x->step];
            if (c->o.xor_unit && c->o.algo == ALGO_HNC && phase == HNC_C) { /* the IN's router's unit XORs */
                int tag =
                    nc_gen_pair(s->nc, now, node, topo_term_router(c->t, node), node, c->len, traffic_create_nc, s);
                if (tag < 0) break; /* its slots are all taken: next cycle */
                c->uops[tag] = (uop_t){0, node, x->dmsg, x->dpart, phase, x->step, s->pk.n - 1};
                c->xh[node]++;
                c->ph[phase].xors++;
                c->unit_xors++;
                if (now < c->ph[phase].start) c->ph[phase].start = now;
                continue;
            }
            uint64_t done = now + (uint64_t)c->o.xor_overhead;
            uint64_t *d = held_at(c, node, x->dmsg, x->dpart);
            if (done < *d) *d = done;
            c->busy[node] = done;
            c->xh[node]++;
            c->xors_left--;
            c->left[x->step]--;
            if (done > c->step_end[x->step]) c->step_end[x->step] = done;
            phase_t *ph = &c->ph[c->step_phase[x->step]];
            ph->xors++;
            if (now < ph->start) ph->start = now;
            phase_event(ph, done);
            if (done > c->last) c->last = done;
        }
        /* its sends, in order, each once it holds the content */
        while (c->qh[node] < c->qn[node]) {
            const item *it = &c->q[node][c->qh[node]];
            const coll_xfer *f = &c->s.xf[it->x];
            if (!may_run(c, f->step) || *held_at(c, node, f->msg, it->part) > now) break;
            if (f->mc) {
                if (send_mcast(c, s, it, now) < 0) break; /* a unit of its tree has no slot: next cycle */
                c->qh[node]++;
                continue;
            }
            traffic_create(s, node, f->dst, now, 1);
            traffic_index_packet(s, s->pk.n - 1);
            size_t idx = s->pk.n - 1;
            if (idx >= c->relcap) {
                c->relcap = c->relcap ? 2 * c->relcap : 1024;
                while (c->relcap <= idx) c->relcap *= 2;
                c->rel = xrealloc(c->rel, c->relcap * sizeof *c->rel);
            }
            int phase = c->step_phase[f->step];
            c->rel[idx] = (rel_t){f->dst, f->msg, it->part, phase, f->step, now};
            c->nrel = idx + 1;
            phase_t *ph = &c->ph[phase];
            ph->packets++;
            ph->flits += (uint64_t)s->pk.v[idx].len;
            if (now < ph->start) ph->start = now;
            c->qh[node]++;
        }
    }
    if (c->pending || c->xors_left || now < c->last + 2) return 0; /* + 2: the link counters settle */
    c->done_at = now;
    return 1;
}

void tcoll_unit_done(void *arg, int tag, uint64_t now)
{
    tcoll *c = arg;
    const uop_t *u = &c->uops[tag];
    if (u->mcast) return; /* its copies were counted one by one (tcoll_unit_delivered) */
    uint64_t *h = held_at(c, u->node, u->msg, u->part);
    if (now < *h) *h = now;
    phase_event(&c->ph[u->phase], now);
    if (now > c->last) c->last = now;
    if (now > c->delivered) c->delivered = now;
    c->xors_left--;
    c->left[u->step]--;
    uint64_t lat = now - c->sim->pk.v[u->last].injected;
    if (lat > c->step_inj[u->step]) c->step_inj[u->step] = lat;
}

void tcoll_unit_delivered(void *arg, int tag, int term, uint64_t now)
{
    tcoll *c = arg;
    const uop_t *u = &c->uops[tag];
    if (!u->mcast) return; /* an XOR's result: tcoll_unit_done */
    uint64_t *h = held_at(c, term, u->msg, u->part);
    if (now < *h) *h = now;
    phase_event(&c->ph[u->phase], now);
    if (now > c->last) c->last = now;
    if (now > c->delivered) c->delivered = now;
    uint64_t lat = now - c->sim->pk.v[u->last].injected;
    if (lat > c->step_inj[u->step]) c->step_inj[u->step] = lat;
    c->pending--;
    c->left[u->step]--;
}

void tcoll_arrived(tcoll *c, size_t idx, uint64_t now)
{
    if (idx >= c->nrel) return;
    const rel_t *r = &c->rel[idx];
    uint64_t *h = held_at(c, r->dst, r->msg, r->part);
    if (now < *h) *h = now;
    phase_event(&c->ph[r->phase], now);
    if (now > c->last) c->last = now;
    if (now > c->delivered) c->delivered = now;
    if (now - r->created > c->step_max[r->step]) c->step_max[r->step] = now - r->created;
    uint64_t lat = now - c->sim->pk.v[idx].injected;
    if (lat > c->step_inj[r->step]) c->step_inj[r->step] = lat;
    c->pending--;
    c->left[r->step]--;
}

/* the cycle by which every node holds every datum (NEVER if one does not) */
static uint64_t execution(const tcoll *c)
{
    uint64_t e = 0;
    for (int node = 0; node < c->n; node++)
        for (int m = 0; m < c->nm; m++) {
            if (c->s.msgs[m].parts > 1) continue;
            uint64_t h = c->held[((size_t)node * (size_t)c->nm + (size_t)m) * (size_t)c->maxp];
            if (h > e) e = h;
        }
    return e;
}

void tcoll_json(const tcoll *c, json_t *j)
{
    json_t *a = json_object();
    uint64_t e = execution(c);
    json_object_set_new(a, "algorithm", json_string(coll_algo_name((coll_algo)c->o.algo)));
    json_object_set_new(a, "execution_cycles", e == NEVER ? json_null() : json_integer((json_int_t)e));
    json_object_set_new(a, "delivery_cycles", json_integer((json_int_t)c->delivered));
    uint64_t sum = 0; /* the paper's "sum of the maximum latency of all sequential steps" (Sect. 5.3) */
    for (int st = 0; st < c->s.nsteps; st++) sum += c->step_max[st];
    json_object_set_new(a, "step_latency_sum", json_integer((json_int_t)sum));
    json_object_set_new(a, "measure", json_string(c->o.sync_steps ? "steps" : "makespan"));
    if (c->o.sync_steps) { /* the paper's reading, beside the makespan of the same run */
        json_t *per = json_array();
        uint64_t isum = 0;
        for (int st = 0; st < c->s.nsteps; st++) {
            isum += c->step_inj[st];
            json_array_append_new(per, json_integer((json_int_t)c->step_inj[st]));
        }
        json_object_set_new(a, "paper_step_latency", json_integer((json_int_t)isum));
        json_object_set_new(a, "step_latencies", per);
    }
    json_object_set_new(a, "xor_overhead", json_integer(c->o.xor_overhead));
    json_object_set_new(a, "xor", json_string(c->o.xor_unit && c->o.algo == ALGO_HNC ? "unit" : "ni"));
    if (c->o.algo != ALGO_TREE) json_object_set_new(a, "distribute", json_string(c->o.unit_mcast ? "unit" : "tree"));
    json_object_set_new(a, "unit_xors", json_integer((json_int_t)c->unit_xors));
    json_object_set_new(a, "steps", json_integer(c->s.nsteps));
    uint64_t pk = 0, fl = 0, xo = 0;
    json_t *ph = json_object();
    for (int p = 0; p < c->nphases; p++) {
        const phase_t *f = &c->ph[p];
        pk += f->packets;
        fl += f->flits;
        xo += f->xors;
        json_object_set_new(ph, c->o.algo == ALGO_TREE ? "tree" : hnc_phase_names[p],
                            json_pack("{s:I,s:I,s:I,s:I,s:I}", "packets", (json_int_t)f->packets, "flits",
                                      (json_int_t)f->flits, "xors", (json_int_t)f->xors, "start",
                                      (json_int_t)(f->start == NEVER ? 0 : f->start), "end", (json_int_t)f->end));
    }
    json_object_set_new(a, "packets", json_integer((json_int_t)pk));
    json_object_set_new(a, "flits", json_integer((json_int_t)fl));
    json_object_set_new(a, "xors", json_integer((json_int_t)xo));
    if (c->o.algo != ALGO_TREE) {
        json_object_set_new(a, "group_shape", json_pack("[i,i]", c->hi.gw, c->hi.gh));
        json_object_set_new(a, "group_size", json_integer(c->hi.group_size));
        json_object_set_new(a, "num_groups", json_integer(c->hi.groups));
        json_object_set_new(a, "intermediate_position", json_pack("[i,i]", c->hi.in_x, c->hi.in_y));
        json_object_set_new(a, "in_position", json_string(ncm_in_position_name(c->o.in_pos)));
    }
    json_object_set_new(a, "phases", ph);
    json_object_set_new(j, "allgather", a);
    json_object_set_new(j, "execution_cycles", e == NEVER ? json_null() : json_integer((json_int_t)e));
}

static unsigned long long uint_at(const json_t *o, const char *key)
{
    return (unsigned long long)json_integer_value(json_object_get(o, key));
}

void tcoll_text(FILE *f, const json_t *a)
{
    const json_t *e = json_object_get(a, "execution_cycles"); /* null: some node never held every datum */
    const json_t *shape = json_object_get(a, "group_shape"), *in = json_object_get(a, "intermediate_position");
    int unit = !strcmp(json_string_value(json_object_get(a, "xor")), "unit");
    fprintf(f, "  allgather:%s: every node holds every datum at cycle %llu (XOR overhead %d cycle(s) at the NIs%s)",
            json_string_value(json_object_get(a, "algorithm")),
            json_is_integer(e) ? (unsigned long long)json_integer_value(e) : (unsigned long long)NEVER,
            (int)uint_at(a, "xor_overhead"), unit ? ", coding in the units" : "");
    if (shape)
        fprintf(f, "; groups %dx%d, intermediate node (%d,%d)", (int)json_integer_value(json_array_get(shape, 0)),
                (int)json_integer_value(json_array_get(shape, 1)), (int)json_integer_value(json_array_get(in, 0)),
                (int)json_integer_value(json_array_get(in, 1)));
    fputc('\n', f);
    const json_t *psl = json_object_get(a, "paper_step_latency");
    if (psl)
        fprintf(f,
                "  synchronized steps (--measure steps): makespan %llu cycles; the paper's measure, the sum of each "
                "step's worst latency from injection: %llu cycles over %d steps\n",
                json_is_integer(e) ? (unsigned long long)json_integer_value(e) : (unsigned long long)NEVER,
                (unsigned long long)json_integer_value(psl), (int)uint_at(a, "steps"));
    fputs("  phase: packets flits xors start end\n", f);
    const json_t *ph = json_object_get(a, "phases"); /* in the order tcoll_json set them */
    for (void *it = json_object_iter((json_t *)ph); it; it = json_object_iter_next((json_t *)ph, it)) {
        const json_t *h = json_object_iter_value(it);
        fprintf(f, "    %-4s %7llu %7llu %5llu %6llu %6llu\n", json_object_iter_key(it), uint_at(h, "packets"),
                uint_at(h, "flits"), uint_at(h, "xors"), uint_at(h, "start"), uint_at(h, "end"));
    }
}
