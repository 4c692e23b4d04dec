/* diagnose.c - what the nodes of a stopped run are doing, in full: the
 * waiting nodes grouped by identical state ("nodes 0-12, 14 are waiting
 * for a packet at PC ..."), and what a node's NI holds that the firmware
 * does not take (held and unread messages beside the posted receives
 * they failed to match).  Nothing here is cut short: the strings are as
 * long as what they say (system.h: sys_error). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "system/system.h"
#include "util/cli.h"

/* *sb += the formatted text (sb: a heap string or NULL) */
static void __attribute__((format(printf, 2, 3))) sb_add(char **sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t l = *sb ? strlen(*sb) : 0;
    *sb = xrealloc(*sb, l + (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(*sb + l, (size_t)n + 1, fmt, ap);
    va_end(ap);
}

const char *sys_error(const sys *s) { return s->fault_full ? s->fault_full : s->fault; }

/* "from 1, tag 7, 64 bytes" for each message of a list, the first few of a long one */
#define NI_LIST_MAX 8

char *sys_describe_ni(const sys *s, int i)
{
    const ni *n = &s->nodes[i].ni;
    char *held = NULL, *ring = NULL, *posted = NULL;
    int nheld = 0, nring = 0;
    /* complete messages the NI holds (no ring, or no room in it) */
    for (int c = 0; c < n->k; c++)
        for (int v = 0; v < n->vcs; v++) {
            const ni_asm *a = &n->rx[c][v];
            if (!a->held) continue;
            if (nheld++ < NI_LIST_MAX)
                sb_add(&held, "%s(source %u, tag %u, %u bytes)", nheld > 1 ? ", " : "", a->src, a->tag, a->len);
        }
    /* messages in the ring the firmware has not read (they matched no posted receive) */
    const rv32 *core = &s->nodes[i].core;
    if (n->ring_size && n->ring_base - core->ram_base < core->ram_size &&
        n->ring_size <= core->ram_size - (n->ring_base - core->ram_base)) {
        const uint8_t *r = core->ram + (n->ring_base - core->ram_base);
        uint32_t t = n->tail, guard = 0;
        while (t != n->head && t + 8 <= n->ring_size && guard++ < 100000) {
            uint32_t hdr[2];
            memcpy(hdr, r + t, 8);
            if (hdr[1] == NI_WRAP_MARK) {
                t = 0;
                continue;
            }
            if (nring++ < NI_LIST_MAX)
                sb_add(&ring, "%s(source %u, tag %u, %u bytes)", nring > 1 ? ", " : "", hdr[0] & 0xffff, hdr[0] >> 16,
                       hdr[1]);
            t += 8 + ((hdr[1] + 7) & ~7u);
            if (t >= n->ring_size) t = 0;
        }
    }
    for (int p = 0; p < n->nposted && p < NI_LIST_MAX; p++) {
        const ni_post *q = &n->posted[p];
        if (q->src == NI_ANY_SRC) sb_add(&posted, "%s(any source, tag %u, %u bytes)", p ? ", " : "", q->tag, q->len);
        else sb_add(&posted, "%s(source %u, tag %u, %u bytes)", p ? ", " : "", q->src, q->tag, q->len);
    }
    char *out = NULL;
    if (nheld && !n->ring_size)
        sb_add(&out, " (its NI holds %d message(s) %s%s and no receive ring: noc_init() not called?", nheld, held,
               nheld > NI_LIST_MAX ? ", ..." : "");
    else if (nheld)
        sb_add(&out, " (its NI holds %d message(s) %s%s for room in its full %u-byte receive ring", nheld, held,
               nheld > NI_LIST_MAX ? ", ..." : "", n->ring_size);
    if (nring)
        sb_add(&out, "%sits receive ring holds %d unread message(s)%s: %s%s", out ? "; " : " (", nring,
               n->nposted || n->posted_done ? " that matched no posted receive" : "", ring,
               nring > NI_LIST_MAX ? ", ..." : "");
    if (out && n->nposted) sb_add(&out, "; posted, not matched: %s%s", posted, n->nposted > NI_LIST_MAX ? ", ..." : "");
    if (out) sb_add(&out, ")");
    free(held);
    free(ring);
    free(posted);
    return out ? out : xstrdup("");
}

/* "0-12, 14" */
static void add_range(char **sb, const int *ids, int n)
{
    for (int a = 0; a < n;) {
        int b = a;
        while (b + 1 < n && ids[b + 1] == ids[b] + 1) b++;
        if (b > a) sb_add(sb, "%s%d-%d", a ? ", " : "", ids[a], ids[b]);
        else sb_add(sb, "%s%d", a ? ", " : "", ids[a]);
        a = b + 1;
    }
}

void sys_group_states(sys *s, char **what)
{
    int n = s->n, *group = xcalloc((size_t)n, sizeof *group), *ids = xcalloc((size_t)n, sizeof *ids);
    for (int i = 0; i < n; i++) {
        group[i] = -1;
        if (!what[i]) continue;
        char pre[32];
        int pl = snprintf(pre, sizeof pre, "node %d ", i);
        if (!strncmp(what[i], pre, (size_t)pl)) memmove(what[i], what[i] + pl, strlen(what[i] + pl) + 1);
        group[i] = i; /* "is waiting ...": grouped with the first node that says the same */
        for (int j = 0; j < i; j++)
            if (group[j] == j && !strcmp(what[j], what[i])) {
                group[i] = j;
                break;
            }
    }
    char *line = xstrdup(s->fault);
    int first = 1;
    for (int i = 0; i < n; i++) {
        if (group[i] != i) continue;
        int m = 0;
        for (int j = i; j < n; j++)
            if (group[j] == i) ids[m++] = j;
        sb_add(&line, "%s", first ? ": " : "; ");
        first = 0;
        if (m == 1) sb_add(&line, "node %d %s", i, what[i]);
        else {
            sb_add(&line, "nodes ");
            add_range(&line, ids, m);
            sb_add(&line, " %s", !strncmp(what[i], "is ", 3) ? "are " : "");
            sb_add(&line, "%s", !strncmp(what[i], "is ", 3) ? what[i] + 3 : what[i]);
        }
    }
    for (int i = 0; i < n; i++) free(what[i]);
    free(what);
    free(group);
    free(ids);
    snprintf(s->fault, sizeof s->fault, "%s", line);
    free(s->fault_full);
    s->fault_full = NULL;
    if (strlen(line) >= sizeof s->fault) s->fault_full = line;
    else free(line);
}
