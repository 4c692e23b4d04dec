/* sched_file.c - write and read schedule files (docs/schedule-format.md). */
#include "sched/sched_file.h"

#include "util/cli.h"
#include "../firmware/lib/ni_regs.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static json_t *set_json(const unsigned char *m, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        if (m[i]) json_array_append_new(a, json_integer(i));
    return a;
}

int sched_file_write(const char *path, const topo *t, const coll_sched *s, const sched_result *r, char *err,
                     size_t errlen)
{
    json_t *o = json_object(), *msgs = json_array(), *steps = json_array();
    json_object_set_new(o, "format", json_string("xnoc-schedule"));
    json_object_set_new(o, "version", json_integer(1));
    json_object_set_new(o, "topology", json_string(t->name));
    json_object_set_new(o, "ports", json_integer(t->k));
    json_object_set_new(o, "op", json_string(coll_op_name(s->op)));
    json_object_set_new(o, "from", set_json(s->from, s->nterms));
    json_object_set_new(o, "to", set_json(s->to, s->nterms));
    if (s->detour >= 0) json_object_set_new(o, "detour", json_integer(s->detour));
    if (r) {
        json_object_set_new(o, "lower_bound", json_integer(r->lower_bound));
        json_object_set_new(o, "optimal", r->optimal == 1 ? json_true() : r->optimal == 0 ? json_false() : json_null());
    }
    for (int m = 0; m < s->nmsgs; m++)
        json_array_append_new(msgs, json_pack("{s:i,s:i,s:o}", "id", m, "origin", s->msgs[m].origin, "dest",
                                              s->msgs[m].dest >= 0 ? json_integer(s->msgs[m].dest) : json_null()));
    json_object_set_new(o, "messages", msgs);
    for (int st = 0; st < s->nsteps; st++) {
        json_t *xs = json_array();
        for (int x = 0; x < s->nxfers; x++) {
            const coll_xfer *f = &s->xf[x];
            if (f->step != st) continue;
            json_t *route = json_array();
            for (int h = 0; h < f->nports; h++) json_array_append_new(route, json_integer(f->ports[h]));
            json_array_append_new(xs, json_pack("{s:i,s:i,s:i,s:i,s:o}", "src", f->src, "dst", f->dst, "msg", f->msg,
                                                "chan", f->chan, "route", route));
        }
        json_array_append_new(steps, json_pack("{s:i,s:o}", "step", st, "transfers", xs));
    }
    json_object_set_new(o, "steps", steps);
    FILE *f = fopen(path, "w");
    int e = f ? 0 : errno;
    if (f) {
        json_dumpf(o, f, JSON_INDENT(1) | JSON_COMPACT);
        e = cli_out_finish(f); /* every byte on the disk, or the reason (a full disk) */
    }
    json_decref(o);
    if (e) snprintf(err, errlen, "%s: %s", path, strerror(e));
    return e ? -1 : 0;
}

/* an integer field as int; out-of-range values become -1, which every
 * check refuses */
static int small(json_t *v)
{
    long long x = json_integer_value(v);
    return x < -1 || x > 1 << 20 ? -1 : (int)x;
}

/* a set as "1,2,5" for coll_init */
static int set_string(json_t *a, int n, char *buf, size_t len, char *err, size_t errlen, const char *what)
{
    size_t used = 0;
    buf[0] = 0;
    if (!json_is_array(a) || json_array_size(a) == 0) {
        snprintf(err, errlen, "\"%s\" must be a non-empty array of terminals", what);
        return -1;
    }
    if (json_array_size(a) > (size_t)n) {
        snprintf(err, errlen, "\"%s\" lists %zu entries for %d terminals", what, json_array_size(a), n);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *v = json_array_get(a, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= n) {
            snprintf(err, errlen, "\"%s\"[%zu] is not a terminal of the topology", what, i);
            return -1;
        }
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "," : "", (long long)json_integer_value(v));
        if (used >= len) {
            snprintf(err, errlen, "\"%s\" is too long", what);
            return -1;
        }
    }
    return 0;
}

int sched_file_read(const char *path, topo **tp, coll_sched *s, char *err, size_t errlen)
{
    json_error_t je;
    memset(s, 0, sizeof *s);
    *tp = NULL;
    json_t *o = json_load_file(path, 0, &je);
    if (!o) {
        if (je.line > 0) snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
        else snprintf(err, errlen, "%s", je.text); /* not JSON at all (no such file, ...) */
        return -2;
    }
    int rc = -2;
    const char *fmt = json_string_value(json_object_get(o, "format"));
    json_t *ver = json_object_get(o, "version");
    const char *ts = json_string_value(json_object_get(o, "topology"));
    const char *ops = json_string_value(json_object_get(o, "op"));
    json_t *ports = json_object_get(o, "ports"), *msgs = json_object_get(o, "messages"),
           *steps = json_object_get(o, "steps");
    char e2[256], *from = NULL, *to = NULL;
    if (!fmt || strcmp(fmt, "xnoc-schedule")) {
        snprintf(err, errlen, "not an xnoc schedule file (\"format\" is not \"xnoc-schedule\")");
        goto done;
    }
    if (!json_is_integer(ver) || json_integer_value(ver) != 1) {
        snprintf(err, errlen, "schedule file version %lld is not supported (1 is)", (long long)json_integer_value(ver));
        goto done;
    }
    if (!ts || !ops || !json_is_integer(ports) || !json_is_array(msgs) || !json_is_array(steps)) {
        snprintf(err, errlen, "missing or mistyped field (topology, op, ports, messages, steps)");
        goto done;
    }
    if (json_integer_value(ports) < 1 || json_integer_value(ports) > NI_MAX_K) {
        snprintf(err, errlen, "\"ports\" %lld is out of range 1..%d", (long long)json_integer_value(ports), NI_MAX_K);
        goto done;
    }
    *tp = topo_parse(ts, (int)json_integer_value(ports), e2, sizeof e2);
    if (!*tp) {
        snprintf(err, errlen, "topology: %s", e2);
        goto done;
    }
    int op = coll_op_parse(ops), n = (*tp)->nterms;
    if (op < 0) {
        snprintf(err, errlen,
                 "unknown collective \"%s\" (barrier, bcast, scatter, gather, reduce, allgather, alltoall, mnb, mns)",
                 ops);
        goto done;
    }
    size_t setlen = (size_t)n * 12 + 1; /* ",%d" per terminal at most */
    from = xmalloc(setlen);
    to = xmalloc(setlen);
    if (set_string(json_object_get(o, "from"), n, from, setlen, err, errlen, "from") ||
        set_string(json_object_get(o, "to"), n, to, setlen, err, errlen, "to"))
        goto done;
    if (coll_init(s, *tp, (coll_op)op, op == OP_BARRIER ? NULL : from, op == OP_BARRIER ? NULL : to, e2, sizeof e2)) {
        snprintf(err, errlen, "%s", e2);
        goto done;
    }
    rc = -1;
    if ((int)json_array_size(msgs) != s->nmsgs) {
        snprintf(err, errlen, "%zu messages listed, the collective has %d", json_array_size(msgs), s->nmsgs);
        goto done;
    }
    for (int m = 0; m < s->nmsgs; m++) {
        json_t *g = json_array_get(msgs, (size_t)m), *d = json_object_get(g, "dest");
        if (!json_is_integer(json_object_get(g, "origin")) || !(json_is_null(d) || json_is_integer(d))) {
            rc = -2;
            snprintf(err, errlen, "message %d: needs an integer \"origin\" and an integer or null \"dest\"", m);
            goto done;
        }
        long long origin = json_integer_value(json_object_get(g, "origin"));
        long long dest = json_is_null(d) ? -1 : json_integer_value(d);
        if (origin != s->msgs[m].origin || dest != s->msgs[m].dest) {
            snprintf(err, errlen, "message %d is %lld -> %lld, the collective's message %d is %d -> %d", m, origin,
                     dest, m, s->msgs[m].origin, s->msgs[m].dest);
            goto done;
        }
    }
    for (size_t st = 0; st < json_array_size(steps); st++) {
        json_t *xs = json_object_get(json_array_get(steps, st), "transfers");
        if (!json_is_array(xs)) {
            rc = -2;
            snprintf(err, errlen, "step %zu has no \"transfers\" array", st);
            goto done;
        }
        for (size_t i = 0; i < json_array_size(xs); i++) {
            json_t *x = json_array_get(xs, i), *route = json_object_get(x, "route");
            json_t *src = json_object_get(x, "src"), *dst = json_object_get(x, "dst"), *msg = json_object_get(x, "msg");
            json_t *chan = json_object_get(x, "chan");
            if (!json_is_integer(src) || !json_is_integer(dst) || !json_is_integer(msg) || !json_is_integer(chan) ||
                !json_is_array(route) || json_array_size(route) > COLL_MAX_HOPS) {
                rc = -2;
                snprintf(
                    err, errlen,
                    "step %zu transfer %zu: needs integer src, dst, msg, chan and a route array of at most %d ports",
                    st, i, COLL_MAX_HOPS);
                goto done;
            }
            long long vs = json_integer_value(src), vd = json_integer_value(dst), vm = json_integer_value(msg),
                      vc = json_integer_value(chan);
            /* values the int fields cannot hold are reported as written; the
             * verifier names the rest (a terminal, channel or message that does not exist) */
#define HUGE_(x) ((x) < 0 || (x) > 1 << 20)
            const char *bad = HUGE_(vs) ? "src" : HUGE_(vd) ? "dst" : HUGE_(vm) ? "msg" : HUGE_(vc) ? "chan" : NULL;
#undef HUGE_
            if (bad) { /* the value as written, not as it would wrap */
                long long v = bad[0] == 's' ? vs : bad[0] == 'd' ? vd : bad[0] == 'm' ? vm : vc;
                int lim = bad[0] == 'm' ? s->nmsgs : bad[0] == 'c' ? (*tp)->k : n; /* the valid range */
                snprintf(err, errlen, "step %zu transfer %zu: %s %lld is out of range 0..%d", st, i, bad, v, lim - 1);
                goto done;
            }
            coll_xfer *f = coll_add(s, (int)st, small(src), small(dst), small(msg));
            f->chan = small(chan);
            f->nports = (int)json_array_size(route);
            for (int h = 0; h < f->nports; h++) {
                json_t *p = json_array_get(route, (size_t)h);
                if (!json_is_integer(p)) {
                    rc = -2;
                    snprintf(err, errlen, "step %zu transfer %zu: route[%d] is not an integer", st, i, h);
                    goto done;
                }
                long long v = json_integer_value(p);
                if (v < 0 || v > 127) { /* beyond any router: the verifier's message, here */
                    snprintf(err, errlen, "step %zu: transfer %d -> %d: hop %d names port %lld of a %d-port router", st,
                             f->src, f->dst, h, v, (*tp)->nports);
                    goto done;
                }
                f->ports[h] = (int8_t)v;
            }
        }
    }
    s->nsteps = (int)json_array_size(steps);
    json_t *det = json_object_get(o, "detour");
    if (det && (!json_is_integer(det) || json_integer_value(det) < 0 || json_integer_value(det) > 64)) {
        rc = -2;
        snprintf(err, errlen, "\"detour\" must be an integer 0..64 (links a route may exceed the minimal path by)");
        goto done;
    }
    s->detour = det ? (int)json_integer_value(det) : -1;
    rc = 0;
done:
    free(from);
    free(to);
    json_decref(o);
    return rc;
}

/* "0-5,7" from a membership array (heap: the caller frees it) */
static char *set_canon(const unsigned char *m, int n)
{
    size_t w = 0, len = (size_t)n * 24 + 1; /* ",%d-%d" per terminal at most */
    char *buf = xmalloc(len);
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        if (!m[i]) continue;
        int j = i;
        while (j + 1 < n && m[j + 1]) j++;
        int r = j > i ? snprintf(buf + w, len - w, "%s%d-%d", w ? "," : "", i, j)
                      : snprintf(buf + w, len - w, "%s%d", w ? "," : "", i);
        if (r < 0 || (size_t)r >= len - w) break; /* cannot happen: len covers every terminal */
        w += (size_t)r;
        i = j;
    }
    return buf;
}

static int sets_equal(const coll_sched *a, const coll_sched *b)
{
    return a->nterms == b->nterms && !memcmp(a->from, b->from, (size_t)a->nterms) &&
           !memcmp(a->to, b->to, (size_t)a->nterms);
}

/* The shipped file's name for s on t (heap: the caller frees it). */
static char *shipped_name(const topo *t, const coll_sched *s)
{
    coll_sched d;
    char e[200], *name;
    int dflt = coll_init(&d, t, s->op, NULL, NULL, e, sizeof e) == 0 && sets_equal(&d, s);
    coll_free(&d);
    if (dflt) name = xasprintf("%s-%s-k%d.json", t->name, coll_op_name(s->op), t->k);
    else {
        char *from = set_canon(s->from, s->nterms), *to = set_canon(s->to, s->nterms);
        name = xasprintf("%s-%s-k%d-from%s-to%s.json", t->name, coll_op_name(s->op), t->k, from, to);
        free(from);
        free(to);
    }
    for (char *c = name; *c; c++)
        if (*c == ':' || *c == '=') *c = '_';
    return name;
}

void sched_file_shipped_name(const topo *t, const coll_sched *s, char *buf, size_t len)
{
    char *name = shipped_name(t, s);
    snprintf(buf, len, "%s", name);
    free(name);
}

int sched_file_shipped(const topo *t, const coll_sched *s, coll_sched *out, int *optimal, char **pathp, char *err,
                       size_t errlen)
{
    char *name = shipped_name(t, s), *path = xasprintf("%s/schedules/%s", cli_src_dir(), name);
    free(name);
    *pathp = path;
    if (access(path, R_OK)) return 0;
    topo *ft = NULL;
    char e[400];
    int rc = sched_file_read(path, &ft, out, e, sizeof e);
    if (!rc && (strcmp(ft->name, t->name) || ft->k != t->k || out->op != s->op || !sets_equal(out, s))) {
        snprintf(e, sizeof e, "it describes %s on %s (k=%d), not this collective", coll_op_name(out->op), ft->name,
                 ft->k);
        rc = -1;
    }
    if (!rc && sched_verify(out, t, e, sizeof e)) rc = -1;
    topo_free(ft);
    if (rc) {
        coll_free(out);
        snprintf(err, errlen, "%s: %s", path, e);
        return -1;
    }
    *optimal = -1;
    json_t *o = json_load_file(path, 0, NULL);
    json_t *opt = json_object_get(o, "optimal");
    if (json_is_boolean(opt)) *optimal = json_is_true(opt);
    json_decref(o);
    return 1;
}
