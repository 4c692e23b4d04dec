/* router_cfg.c - the router parameters (router_cfg.h): defaults, the
 * --router parser, and what the routing mode asks of the routers and the
 * senders: VC classes, group-table size, the Valiant / UGAL head bits.
 * Pure functions of the topology and router_cfg, shared by the NI, the
 * traffic generator and the netlist generator. */
#include "net/router_cfg.h"
#include "util/cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/lib/flit.h"
#include "../../firmware/lib/ni_regs.h"
#include "util/rng.h"

int router_classes(const topo *t, const router_cfg *rc)
{
    return t->kind == TOPO_DRAGONFLY && rc->routing != ROUTING_MIN ? 3 : t->nclasses;
}

uint64_t routing_head_bits(const topo *t, const router_cfg *rc, int src, uint32_t dst, uint64_t *rng)
{
    if (rc->routing == ROUTING_MIN || t->kind != TOPO_DRAGONFLY || dst >= (uint32_t)t->nterms) return 0;
    int x = topo_group(t, topo_term_router(t, src)), y = topo_group(t, topo_term_router(t, (int)dst));
    if (x == y) return 0; /* inside a group: minimal */
    uint64_t r = splitmix64(rng);
    int i = (int)(r % (uint64_t)(t->groups - 2)), lo = x < y ? x : y, hi = x < y ? y : x;
    if (i >= lo) i++; /* skip both ends */
    if (i >= hi) i++;
    return 1ull << FLIT_VAL_BIT | (uint64_t)(rc->routing == ROUTING_UGAL) << FLIT_UGAL_BIT |
           FLIT_FIELD(i, FLIT_VGROUP_LSB, FLIT_VGROUP_W);
}

int router_groups(const topo *t, const router_cfg *rc)
{
    return t->kind == TOPO_DRAGONFLY && rc->routing != ROUTING_MIN ? t->groups : 1;
}

int router_lanes(const topo *t, const router_cfg *rc)
{
    if (!rc->ncu) return 1;
    if (rc->lanes > 0) return rc->lanes;
    if (rc->stream) return t->nports + 1; /* lane 0, and one per router port but the unit's */
    if (t->kind != TOPO_CLOS) return 1;
    return t->clos_n > t->clos_r ? t->clos_n : t->clos_r;
}

int router_lane_reserve(const topo *t, const router_cfg *rc) { return router_lanes(t, rc) > 1 && t->kind == TOPO_CLOS; }

void router_cfg_default(router_cfg *rc)
{
    rc->vcs = 2;
    rc->buf = 8;
    rc->ncu = 1;
    rc->slots = 4;
    rc->xorlat = 1;
    rc->ncmax = 32;
    rc->timeout = 100000;
    rc->ncu_ops = NCU_OPS_ALL;
    rc->lanes = 0;
    rc->stream = 0;
    rc->smax = 256;
    rc->sendq = 1;
    rc->routing = ROUTING_MIN;
    rc->threads = 1;
    rc->model = MODEL_DEFAULT;
}

/* s as a list: no empty item (",," or a comma at an end: a value lost in
 * editing), no key twice (which one was meant?) */
static int check_items(const char *s, char *err, size_t errlen)
{
    for (const char *p = s;; p += strcspn(p, ",") + 1) {
        size_t l = strcspn(p, ","), kl = strcspn(p, "=,");
        if (!l) {
            snprintf(err, errlen, "--router '%s': an empty item (a comma at an end, or two in a row)", s);
            return -1;
        }
        for (const char *q = s; q < p; q += strcspn(q, ",") + 1)
            if (strcspn(q, "=,") == kl && !strncmp(q, p, kl)) {
                snprintf(err, errlen, "--router '%s': '%.*s' is given twice", s, (int)kl, p);
                return -1;
            }
        if (!p[l]) return 0;
    }
}

int router_cfg_parse(router_cfg *rc, const char *s, char *err, size_t errlen)
{
    if (check_items(s, err, errlen)) return -1;
    char *copy = xstrdup(s), *save = NULL;
    int rc_ok = 0, vcs_given = 0;
    for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            snprintf(err, errlen, "--router '%s': expected key=value pairs such as vcs=4,buf=4", s);
            rc_ok = -1;
            break;
        }
        *eq = 0;
        if (!strcmp(kv, "pw")) { /* a parameter once, whose only value was 64 */
            snprintf(err, errlen, "--router: pw=%s: the payload width is not a parameter (every flit carries 64 bits)",
                     eq + 1);
            rc_ok = -1;
            break;
        }
        if (!strcmp(kv, "routing")) { /* a name, not a number */
            static const char *names[] = {"min", "valiant", "ugal"};
            int r = 0;
            while (r < 3 && strcmp(eq + 1, names[r])) r++;
            if (r == 3) {
                snprintf(err, errlen, "--router: routing='%s' is not min, valiant or ugal", eq + 1);
                rc_ok = -1;
                break;
            }
            rc->routing = r;
            continue;
        }
        if (!strcmp(kv, "ncu_ops")) { /* a name too */
            if (!strcmp(eq + 1, "xor")) rc->ncu_ops = NCU_OPS_XOR;
            else if (!strcmp(eq + 1, "all")) rc->ncu_ops = NCU_OPS_ALL;
            else {
                snprintf(err, errlen, "--router: ncu_ops='%s' is not xor or all", eq + 1);
                rc_ok = -1;
                break;
            }
            continue;
        }
        if (!strcmp(kv, "model")) { /* a name too */
            if (!strcmp(eq + 1, "flat")) rc->model = MODEL_FLAT;
            else if (!strcmp(eq + 1, "tile")) rc->model = MODEL_TILE;
            else {
                snprintf(err, errlen, "--router: model='%s' is not flat or tile", eq + 1);
                rc_ok = -1;
                break;
            }
            continue;
        }
        long v = 0;
        int bad = cli_parse_long(eq + 1, LONG_MIN, LONG_MAX, &v); /* the key's own range is checked below */
        const char *digits = eq + 1 + (eq[1] == '-');
        if (bad != CLI_NOT_NUMBER && strspn(digits, "0123456789") != strlen(digits)) { /* 0x10: one way to write it */
            snprintf(err, errlen, "--router: %s='%s': write the value in decimal", kv, eq + 1);
            rc_ok = -1;
            break;
        }
        if (bad == CLI_NOT_NUMBER) {
            snprintf(err, errlen, "--router: %s='%s' is not an integer", kv, eq + 1);
            rc_ok = -1;
            break;
        }
        static const struct {
            const char *name;
            long lo, hi;
            size_t off;
            const char *why;
        } keys[] = {
            {"vcs", 1, ROUTER_MAX_VCS, offsetof(router_cfg, vcs), ""},
            {"buf", 1, ROUTER_MAX_BUF, offsetof(router_cfg, buf), ""},
            {"ncu", 0, 1, offsetof(router_cfg, ncu), " (0: routers without coding units)"},
            {"slots", 1, 16, offsetof(router_cfg, slots), ""},
            {"xorlat", 1, 64, offsetof(router_cfg, xorlat), ""},
            {"ncmax", 1, 256, offsetof(router_cfg, ncmax), " (flits)"},
            {"timeout", 100, 1000000, offsetof(router_cfg, timeout), " (cycles)"},
            {"lanes", 1, 16, offsetof(router_cfg, lanes), " (coding-unit output links)"},
            {"stream", 0, 1, offsetof(router_cfg, stream), " (1: streaming reduction lanes in the coding units)"},
            {"smax", 1, 1024, offsetof(router_cfg, smax), " (flits: the longest streaming packet)"},
            {"sendq", 1, NI_MAX_SENDQ, offsetof(router_cfg, sendq), " (NI send descriptors per channel)"},
            {"threads", 1, 16, offsetof(router_cfg, threads),
             " (the flat build's Verilator threads, or the tile build's)"},
        };
        size_t i = 0;
        while (i < sizeof keys / sizeof keys[0] && strcmp(kv, keys[i].name)) i++;
        if (i < sizeof keys / sizeof keys[0] && !bad && v >= keys[i].lo && v <= keys[i].hi) {
            *(int *)((char *)rc + keys[i].off) = (int)v;
            vcs_given |= !strcmp(kv, "vcs");
            continue;
        }
        if (i < sizeof keys / sizeof keys[0] && bad) /* beyond a long: named as given */
            snprintf(err, errlen, "--router: %s=%s is out of range %ld..%ld%s", kv, eq + 1, keys[i].lo, keys[i].hi,
                     keys[i].why);
        else if (i == sizeof keys / sizeof keys[0])
            snprintf(err, errlen,
                     "--router: unknown parameter '%s' (known: vcs, buf, ncu, slots, xorlat, ncmax, timeout, "
                     "lanes, stream, smax, sendq, routing, threads, ncu_ops, model)",
                     kv);
        else
            snprintf(err, errlen, "--router: %s=%ld is out of range %ld..%ld%s", kv, v, keys[i].lo, keys[i].hi,
                     keys[i].why);
        rc_ok = -1;
        break;
    }
    free(copy);
    /* non-minimal routing takes three VC classes: without a vcs= of its own, 3 VCs (one per class) */
    if (!rc_ok && rc->routing != ROUTING_MIN && !vcs_given && rc->vcs % 3) rc->vcs = 3;
    return rc_ok;
}
