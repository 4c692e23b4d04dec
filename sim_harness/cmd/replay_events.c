/* replay_events.c - an --events file as per-packet spans (replay_events.h).
 *
 * Bounds, all from the file's network line and documented limits:
 *   router, port, node, channel, unit, next: the topology's (network line)
 *   vc: below the network line's "vcs" (at most ROUTER_MAX_VCS)
 *   flits: 1 .. 2 + ceil((terminals + routers) / 64) + NI_MAX_PACKET / 8
 *          (head, meta, a multicast's mask flits, the NI's largest message)
 *   cycle: below REPLAY_MAX_CYCLE (2^48)
 *   tail_cycle: null (in flight when the run ended), or cycle + flits - 1 ..
 *          2^48 - 1 (a channel carries at most one flit a cycle)
 *   a channel's VC carries one packet at a time (wormhole): the spans of one
 *          channel and VC do not overlap.
 * Spans take 40 bytes each, and a packet line is longer than that. */
#include "cmd/replay_events.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "net/router_cfg.h"
#include "util/cli.h"
#include "../../firmware/lib/ni_regs.h"

typedef struct {
    const char *name;
    uint64_t line;
    char *err;
    size_t errlen;
} rd;

__attribute__((format(printf, 2, 3))) static int bad(rd *r, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->line) snprintf(r->err, r->errlen, "%s:%llu: %s", r->name, (unsigned long long)r->line, msg);
    else snprintf(r->err, r->errlen, "%s: %s", r->name, msg);
    for (char *c = r->err; *c; c++) /* one line, whatever the file's strings hold */
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    return -1;
}

/* An integer field in lo..hi into *v. */
static int field(rd *r, json_t *o, const char *key, long long lo, long long hi, long long *v)
{
    json_t *j = json_object_get(o, key);
    if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi)
        return bad(r, "\"%s\" must be an integer in %lld..%lld", key, lo, hi);
    *v = json_integer_value(j);
    return 0;
}

/* The topology from the network line (or --topo, which must agree). */
static int network_line(rd *r, replay_file *e, json_t *o, const char *topo_opt)
{
    const char *name = json_string_value(json_object_get(o, "topo"));
    long long k, vcs, ncu = 0;
    if (field(r, o, "ports", 1, 16, &k) || field(r, o, "vcs", 1, ROUTER_MAX_VCS, &vcs)) return -1;
    if (json_object_get(o, "ncu") && field(r, o, "ncu", 0, 1, &ncu)) return -1;
    if (!name) return bad(r, "the network line names no \"topo\"");
    char terr[300];
    if (!(e->t = topo_parse(name, (int)k, terr, sizeof terr))) return bad(r, "\"topo\": %s", terr);
    if (topo_opt) {
        topo *u = topo_parse(topo_opt, (int)k, terr, sizeof terr);
        if (!u) {
            snprintf(r->err, r->errlen, "%s", terr);
            return -1;
        }
        int same = !strcmp(u->name, e->t->name);
        topo_free(u);
        if (!same) return bad(r, "the events are of %s, not of --topo %s", e->t->name, topo_opt);
    }
    e->vcs = (int)vcs;
    e->max_flits = 2 + (uint32_t)(e->t->nterms + e->t->nrouters + 63) / 64 + NI_MAX_PACKET / 8;
    return 0;
}

static void push(replay_file *e, replay_span s)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 1024;
        e->s = xrealloc(e->s, e->cap * sizeof *e->s);
    }
    e->s[e->n++] = s;
}

/* One inject/hop/eject line: a span on its channel. */
static int packet_line(rd *r, replay_file *e, json_t *o, const char *ev)
{
    const topo *t = e->t;
    int nch = t->nterms * t->k, chan = -1;
    long long router, port, flits, c0, vc, v;
    if (field(r, o, "router", 0, t->nrouters - 1, &router) ||
        field(r, o, "port", 0, t->nports, &port) || /* nports: the coding unit's port */
        field(r, o, "vc", 0, e->vcs - 1, &vc) || field(r, o, "flits", 1, e->max_flits, &flits) ||
        field(r, o, "cycle", 0, (long long)REPLAY_MAX_CYCLE - 1, &c0))
        return -1;
    json_t *tail = json_object_get(o, "tail_cycle");
    long long c1 = c0 + flits - 1;
    if (tail && !json_is_null(tail)) {
        if (field(r, o, "tail_cycle", c0 + flits - 1, (long long)REPLAY_MAX_CYCLE - 1, &c1)) {
            size_t n = strlen(r->err);
            snprintf(r->err + n, r->errlen - n, " or null (%lld flits from cycle %lld)", flits, c0);
            return -1;
        }
    } else {
        e->incomplete++;
    }
    json_t *unit = json_object_get(o, "unit");
    if (!strcmp(ev, "hop")) {
        int l = port < t->nports ? t->out_link[router * t->nports + port] : -1;
        if (l < 0) return bad(r, "router %lld has no link at port %lld in %s", router, port, t->name);
        if (json_object_get(o, "next") && field(r, o, "next", t->links[l].dst, t->links[l].dst, &v)) return -1;
        chan = l;
        e->hops++;
    } else if (unit) { /* into or out of a coding unit: no channel of the picture */
        if (field(r, o, "unit", router, router, &v)) return -1;
        if (!strcmp(ev, "inject")) e->unit_packets++;
        else e->unit_ejects++;
        return 0;
    } else {
        long long node, c;
        if (field(r, o, "node", 0, t->nterms - 1, &node) || field(r, o, "channel", 0, t->k - 1, &c)) return -1;
        if (topo_term_router(t, (int)node) != router || topo_term_port(t, (int)node, (int)c) != port)
            return bad(r, "node %lld channel %lld is not at router %lld port %lld in %s", node, c, router, port,
                       t->name);
        chan = t->nlinks + (!strcmp(ev, "inject") ? 0 : nch) + (int)(node * t->k + c);
        if (!strcmp(ev, "inject")) e->packets++;
        else e->ejects++;
    }
    push(e, (replay_span){.c0 = (uint64_t)c0,
                          .c1 = (uint64_t)c1,
                          .line = r->line,
                          .flits = (uint32_t)flits,
                          .chan = chan,
                          .vc = (int32_t)vc});
    return 0;
}

/* the cycle of a span's last flit */
static uint64_t last_flit(const replay_span *s) { return s->flits > 1 ? s->c1 : s->c0; }

static int cmp_chan(const void *a, const void *b)
{
    const replay_span *x = a, *y = b;
    if (x->chan != y->chan) return x->chan < y->chan ? -1 : 1;
    if (x->vc != y->vc) return x->vc < y->vc ? -1 : 1;
    if (x->c0 != y->c0) return x->c0 < y->c0 ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_c0(const void *a, const void *b)
{
    const replay_span *x = a, *y = b;
    if (x->c0 != y->c0) return x->c0 < y->c0 ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* A VC of a channel carries one packet at a time; then the spans in cycle order. */
static int check_spans(rd *r, replay_file *e)
{
    if (!e->n) return 0;
    qsort(e->s, e->n, sizeof *e->s, cmp_chan);
    for (size_t i = 1; i < e->n; i++) {
        const replay_span *p = &e->s[i - 1], *s = &e->s[i];
        if (p->chan == s->chan && p->vc == s->vc && s->c0 <= p->c1) {
            const replay_span *late = s->line > p->line ? s : p, *early = late == s ? p : s;
            r->line = late->line;
            return bad(r,
                       "\"cycle\" %llu..%llu overlaps the packet of line %llu (%llu..%llu) on this channel's vc %d: "
                       "a vc carries one packet at a time",
                       (unsigned long long)late->c0, (unsigned long long)late->c1, (unsigned long long)early->line,
                       (unsigned long long)early->c0, (unsigned long long)early->c1, s->vc);
        }
    }
    qsort(e->s, e->n, sizeof *e->s, cmp_c0);
    e->first = e->s[0].c0;
    for (size_t i = 0; i < e->n; i++)
        if (last_flit(&e->s[i]) > e->last) e->last = last_flit(&e->s[i]);
    return 0;
}

static int read_lines(rd *r, FILE *f, replay_file *e, const char *topo_opt)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while (!rc && (len = getline(&buf, &cap, f)) > 0) {
        r->line++;
        json_error_t je;
        json_t *o = json_loadb(buf, (size_t)len, 0, &je);
        const char *ev = json_string_value(json_object_get(o, "event"));
        if (!json_is_object(o)) rc = bad(r, "not a JSON object (%s)", je.text);
        else if (!ev) rc = bad(r, "no \"event\"");
        else if (!strcmp(ev, "network")) {
            if (e->t) rc = bad(r, "a second network line");
            else rc = network_line(r, e, o, topo_opt);
        } else if (!strcmp(ev, "inject") || !strcmp(ev, "hop") || !strcmp(ev, "eject")) {
            if (!e->t) rc = bad(r, "a packet before the network line (record it with xnoc run/collective --events)");
            else rc = packet_line(r, e, o, ev);
        } else if (strcmp(ev, "send") && strcmp(ev, "deliver")) {
            rc = bad(r, "unknown event '%.40s' (network, send, inject, hop, eject, deliver)", ev);
        }
        json_decref(o);
    }
    free(buf);
    e->lines = r->line;
    return rc;
}

int replay_read(FILE *f, const char *name, const char *topo_opt, replay_file *e, char *err, size_t errlen)
{
    rd r = {.name = name, .err = err, .errlen = errlen};
    memset(e, 0, sizeof *e);
    int rc = read_lines(&r, f, e, topo_opt);
    if (!rc && ferror(f)) {
        r.line = 0;
        rc = bad(&r, "read error");
    }
    if (!rc && !e->t) {
        r.line = 0;
        rc = bad(&r, "no network line: not an --events file of xnoc run or collective");
    }
    if (!rc) rc = check_spans(&r, e);
    if (rc) replay_free(e);
    return rc;
}

void replay_free(replay_file *e)
{
    free(e->s);
    topo_free(e->t);
    memset(e, 0, sizeof *e);
}

int replay_nchan(const replay_file *e) { return e->t->nlinks + 2 * e->t->nterms * e->t->k; }

void replay_sweep_init(replay_sweep *w, const replay_file *e)
{
    memset(w, 0, sizeof *w);
    w->e = e;
    /* at most one span per channel and VC is on its channel at a time (check_spans) */
    w->active = xmalloc(((size_t)replay_nchan(e) * (size_t)e->vcs + 1) * sizeof *w->active);
    w->done = xcalloc((size_t)replay_nchan(e) + 1, sizeof *w->done);
}

void replay_sweep_free(replay_sweep *w)
{
    free(w->active);
    free(w->done);
    memset(w, 0, sizeof *w);
}

/* Flits of span s at cycles <= c (c0 <= c < its last flit): flit i is at
 * c0 + floor(D i / (F - 1)), D = c1 - c0 >= F - 1, so the count is
 * ceil((c - c0 + 1)(F - 1) / D); both factors < 2^48 and 2^15. */
static uint64_t flits_by(const replay_span *s, uint64_t c)
{
    uint64_t d = c - s->c0, D = s->c1 - s->c0, F = s->flits;
    return ((d + 1) * (F - 1) + D - 1) / D;
}

void replay_sweep_at(replay_sweep *w, uint64_t c, uint64_t *counts)
{
    const replay_file *e = w->e;
    int nchan = replay_nchan(e);
    /* finished spans leave the active set before new ones enter, so it never holds two of one VC */
    size_t k = 0;
    for (size_t i = 0; i < w->nactive; i++) {
        const replay_span *s = &e->s[w->active[i]];
        if (last_flit(s) <= c) w->done[s->chan] += s->flits;
        else w->active[k++] = w->active[i];
    }
    w->nactive = k;
    for (; w->next < e->n && e->s[w->next].c0 <= c; w->next++) {
        const replay_span *s = &e->s[w->next];
        if (last_flit(s) <= c) w->done[s->chan] += s->flits;
        else w->active[w->nactive++] = w->next;
    }
    memcpy(counts, w->done, (size_t)nchan * sizeof *counts);
    for (size_t i = 0; i < w->nactive; i++) {
        const replay_span *s = &e->s[w->active[i]];
        counts[s->chan] += flits_by(s, c);
    }
}

uint64_t replay_sweep_next_flit(const replay_sweep *w, uint64_t c)
{
    const replay_file *e = w->e;
    uint64_t next = w->next < e->n ? e->s[w->next].c0 : UINT64_MAX;
    for (size_t i = 0; i < w->nactive; i++) {
        const replay_span *s = &e->s[w->active[i]];
        uint64_t k = flits_by(s, c), at = s->c0 + (s->c1 - s->c0) * k / (s->flits - 1); /* flit k: after c */
        if (at < next) next = at;
    }
    return next;
}
