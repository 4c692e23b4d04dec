/* hop_log.c - packet events from the RTL network's link taps (hop_log.h).
 *
 * A channel (router output, coding-unit output, NI injection channel)
 * carries the flits of one packet per VC contiguously (wormhole switching),
 * so one record per channel and VC follows a packet from its head to its
 * tail: the head gives the destination, the second flit (the meta flit) the
 * source and the tag. */
#include "net/hop_log.h"
#include "util/cli.h"

#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "net/netgen.h"

typedef struct {
    uint8_t open;
    int dst, src, tag;
    uint32_t flits;
    uint64_t cycle;
} pkt;

struct hop_log {
    FILE *f;
    xnoc_net *net;
    const topo *t;
    int P, V, ncu, nslots, nch; /* ports per router (with the unit's), VCs, taps, NI channels */
    pkt *open;                  /* [(tap or nslots + ch) * V + vc] */
    uint64_t count[3];
};

hop_log *hop_log_open(FILE *f, xnoc_net *net, const topo *t, const router_cfg *rc, char *err, size_t errlen)
{
    if (net_monitor_open(net, err, errlen)) return NULL;
    hop_log *h = xcalloc(1, sizeof *h);
    h->f = f;
    h->net = net;
    h->t = t;
    h->P = netgen_ports(t, rc);
    h->V = rc->vcs;
    h->ncu = rc->ncu;
    h->nslots = netgen_monitor_slots(t, rc);
    h->nch = t->nterms * t->k;
    h->open = xcalloc((size_t)(h->nslots + h->nch) * (size_t)h->V, sizeof *h->open);
    /* what the file describes, so that `xnoc replay` needs nothing else */
    fprintf(f, "{\"cycle\":0,\"event\":\"network\",\"topo\":\"%s\",\"ports\":%d,\"vcs\":%d,\"ncu\":%d}\n", t->name,
            t->k, rc->vcs, rc->ncu);
    return h;
}

/* The line for the packet in record p on channel `slot` (a tap, or nslots + NI channel). */
static void emit(hop_log *h, int slot, int vc, const pkt *p, uint64_t tail_cycle, int incomplete)
{
    const topo *t = h->t;
    int R = t->nrouters, kind, router, port;
    char where[96], name[16];
    if (slot >= h->nslots) { /* an NI's injection channel */
        int ch = slot - h->nslots, term = ch / t->k;
        kind = HOP_INJECT;
        router = topo_term_router(t, term);
        port = topo_term_port(t, term, ch % t->k);
        snprintf(where, sizeof where, "\"node\":%d,\"channel\":%d", term, ch % t->k);
    } else if (slot >= R * h->P) { /* a coding unit's output into its router */
        kind = HOP_INJECT;
        router = slot - R * h->P;
        port = h->P - 1;
        snprintf(where, sizeof where, "\"unit\":%d", router);
    } else {
        router = slot / h->P;
        port = slot % h->P;
        int term = port < t->nports ? topo_port_term(t, router, port) : -1;
        if (port >= t->nports) {
            kind = HOP_EJECT;
            snprintf(where, sizeof where, "\"unit\":%d", router);
        } else if (term >= 0) {
            kind = HOP_EJECT;
            snprintf(where, sizeof where, "\"node\":%d,\"channel\":%d", term, (port - t->nnet) % t->k);
        } else {
            int l = t->out_link[router * t->nports + port];
            kind = HOP_HOP;
            snprintf(where, sizeof where, "\"next\":%d", l >= 0 ? t->links[l].dst : -1);
        }
    }
    if (port < t->nports) topo_port_name_at(t, router, port, name, sizeof name);
    else snprintf(name, sizeof name, "unit");
    static const char *const kinds[] = {"inject", "hop", "eject"};
    char tail[40];
    if (incomplete) snprintf(tail, sizeof tail, "null,\"incomplete\":true");
    else snprintf(tail, sizeof tail, "%llu", (unsigned long long)tail_cycle);
    fprintf(h->f,
            "{\"cycle\":%llu,\"event\":\"%s\",\"router\":%d,\"port\":%d,\"port_name\":\"%s\",\"vc\":%d,%s,"
            "\"dst\":%d,\"src\":%d,\"tag\":%d,\"flits\":%u,\"tail_cycle\":%s}\n",
            (unsigned long long)p->cycle, kinds[kind], router, port, name, vc, where, p->dst, p->src, p->tag, p->flits,
            tail);
    h->count[kind]++;
}

static void see(hop_log *h, int slot, const xnoc_flit *f, uint64_t cycle)
{
    int vc = f->vc < h->V ? f->vc : h->V - 1;
    pkt *p = &h->open[(size_t)slot * (size_t)h->V + (size_t)vc];
    if (f->head) {
        if (p->open) emit(h, slot, vc, p, cycle, 1); /* a head without the last tail: never in a sound network */
        *p = (pkt){.open = 1,
                   .dst = (int)FLIT_GET(f->payload, FLIT_DEST_LSB, FLIT_DEST_W),
                   .src = -1,
                   .tag = -1,
                   .cycle = cycle};
    }
    if (!p->open) return; /* the body of a packet that started before the taps: not followed */
    if (++p->flits == 2) {
        p->src = (int)FLIT_GET(f->payload, FLIT_META_SRC_LSB, FLIT_META_SRC_W);
        p->tag = (int)FLIT_GET(f->payload, FLIT_META_TAG_LSB, FLIT_META_TAG_W);
    }
    if (f->tail) {
        emit(h, slot, vc, p, cycle, 0);
        p->open = 0;
    }
}

void hop_log_cycle(hop_log *h, const xnoc_flit *inj, uint64_t now)
{
    const xnoc_flit *mon = net_monitor(h->net);
    for (int ch = 0; ch < h->nch; ch++)
        if (inj[ch].valid) see(h, h->nslots + ch, &inj[ch], now - 1);
    for (int s = 0; s < h->nslots; s++)
        if (mon[s].valid) see(h, s, &mon[s], now);
}

uint64_t hop_log_count(const hop_log *h, int kind) { return h->count[kind]; }

void hop_log_close(hop_log *h)
{
    if (!h) return;
    for (int s = 0; s < h->nslots + h->nch; s++)
        for (int vc = 0; vc < h->V; vc++)
            if (h->open[(size_t)s * (size_t)h->V + (size_t)vc].open)
                emit(h, s, vc, &h->open[(size_t)s * (size_t)h->V + (size_t)vc], 0, 1);
    free(h->open);
    free(h);
}
