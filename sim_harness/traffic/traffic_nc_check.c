/* traffic_nc_check.c - every delivery of a coding group or multicast
 * checked byte for byte against its expected payload, a group finished
 * when its last copy lands, and the generator's report (traffic_nc.h). */
#include "traffic/traffic_nc_impl.h"
#include "util/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const nc_kind_names[NKIND] = {"multicast", "coded", "coded+multicast"};

/* ------------------------------------------------------------ checking */

static void finish(nc_gen *g, group *gr, uint64_t now)
{
    uint64_t lat = now - (gr->kind == KIND_MC && g->fanout ? gr->created : gr->started);
    g->meas_done += gr->measured && gr->kind == KIND_MC && g->fanout;
    if (gr->model >= 0) {
        uint64_t dev = lat > (uint64_t)gr->model ? lat - (uint64_t)gr->model : (uint64_t)gr->model - lat;
        g->probes++;
        g->probe_sum_dev += dev;
        if (dev > g->probe_max_dev) g->probe_max_dev = dev;
    }
    g->lat_sum += lat;
    if (lat > g->lat_max) g->lat_max = lat;
    g->completed[gr->kind]++;
    if (in_window(g, now)) {
        g->done_w++;
        if (gr->kind == KIND_MC && gr->src < g->t->nterms) g->src_done_w[gr->src]++;
    }
    if (gr->measured && gr->model < 0) {
        if (g->nlat == g->latcap) {
            g->latcap = g->latcap ? 2 * g->latcap : 256;
            g->lat = xrealloc(g->lat, g->latcap * sizeof *g->lat);
            g->lat_q = xrealloc(g->lat_q, g->latcap * sizeof *g->lat_q);
        }
        g->lat_q[g->nlat] = gr->kind == KIND_MC && g->fanout ? gr->started - gr->created : 0;
        g->lat[g->nlat++] = lat;
    }
    if (g->on_done) g->on_done(g->done_arg, gr->tag, now);
    if (gr->conn >= 0) clos_disconnect(g->clos, gr->conn);
    for (int r = 0; r < g->t->nrouters; r++) g->load[r] -= gr->uses[r];
    g->by_tag[gr->tag] = NULL;
    nc_group_free(gr);
}

int nc_gen_flit(nc_gen *g, int term, int vc, const xnoc_flit *f, uint64_t now, char *err, size_t errlen)
{
    rx_state *rx = &g->rx[term * g->rc.vcs + vc];
    uint64_t w = f->payload;
    if (f->head) {
        if ((int)FLIT_GET(w, FLIT_DEST_LSB, FLIT_DEST_W) != term || FLIT_GET(w, FLIT_MC_BIT, 1)) {
            snprintf(err, errlen, "cycle %llu: coded/multicast packet for address %d (MC %d) arrived at terminal %d",
                     (unsigned long long)now, (int)FLIT_GET(w, FLIT_DEST_LSB, FLIT_DEST_W),
                     (int)FLIT_GET(w, FLIT_MC_BIT, 1), term);
            return -1;
        }
        rx->active = 1;
        rx->g = NULL;
        rx->got = 1;
        if (f->tail) {
            snprintf(err, errlen, "cycle %llu: coded/multicast packet at terminal %d ends at its head",
                     (unsigned long long)now, term);
            return -1;
        }
        return 0;
    }
    if (!rx->active) {
        snprintf(err, errlen, "cycle %llu: body flit without a head at terminal %d VC %d", (unsigned long long)now,
                 term, vc);
        return -1;
    }
    group *gr = rx->g;
    if (rx->got == 1) { /* meta: source, tag, length */
        int src = (int)FLIT_GET(w, FLIT_META_SRC_LSB, FLIT_META_SRC_W),
            tag = (int)FLIT_GET(w, FLIT_META_TAG_LSB, FLIT_META_TAG_W),
            len = (int)FLIT_GET(w, FLIT_META_LEN_LSB, FLIT_META_LEN_W);
        gr = g->by_tag[tag];
        if (!gr) {
            snprintf(err, errlen, "cycle %llu: terminal %d received tag 0x%04x of no active coding group",
                     (unsigned long long)now, term, tag);
            return -1;
        }
        if (src != gr->src || len != gr->len) {
            snprintf(err, errlen,
                     "cycle %llu: terminal %d, group 0x%04x (%s): meta source %d length %d, expected %d and %d",
                     (unsigned long long)now, term, tag, nc_kind_names[gr->kind], src, len, gr->src, gr->len);
            return -1;
        }
        if (gr->want[term] != 1) {
            snprintf(err, errlen, "cycle %llu: terminal %d received group 0x%04x (%s) %s", (unsigned long long)now,
                     term, tag, nc_kind_names[gr->kind],
                     gr->want[term] ? "twice" : "but is not one of its destinations");
            return -1;
        }
        rx->g = gr;
    } else {
        int i = rx->got - 2;
        if (i >= gr->nflits || w != gr->data[i]) {
            snprintf(err, errlen,
                     "cycle %llu: terminal %d, group 0x%04x (%s): data flit %d is 0x%016llx, expected 0x%016llx",
                     (unsigned long long)now, term, gr->tag, nc_kind_names[gr->kind], i, (unsigned long long)w,
                     (unsigned long long)(i < gr->nflits ? gr->data[i] : 0));
            return -1;
        }
    }
    rx->got++;
    g->flits_w += in_window(g, now) && rx->got == 2; /* the head, counted with its meta */
    g->flits_w += in_window(g, now);
    int last = rx->got == 2 + gr->nflits;
    if (f->tail != last) {
        snprintf(err, errlen, "cycle %llu: terminal %d, group 0x%04x: tail flag on flit %d of %d",
                 (unsigned long long)now, term, gr->tag, rx->got - 1, 2 + gr->nflits);
        return -1;
    }
    if (last) {
        rx->active = 0;
        gr->want[term] = 2;
        g->deliveries++;
        if (g->on_delivery) g->on_delivery(g->delivery_arg, gr->tag, term, now);
        if (--gr->pending == 0) finish(g, gr, now);
    }
    return 0;
}

int nc_gen_busy(const nc_gen *g)
{
    uint64_t s = 0, c = 0;
    for (int k = 0; k < NKIND; k++) {
        s += g->started[k];
        c += g->completed[k];
    }
    return (int)(s - c + g->queued);
}

void nc_gen_describe_pending(const nc_gen *g, char *buf, size_t len)
{
    const group *old = NULL;
    for (int i = 0; i < 65536; i++)
        if (g->by_tag[i] && (!old || g->by_tag[i]->started < old->started)) old = g->by_tag[i];
    if (!old) {
        snprintf(buf, len, "no coding group pending");
        return;
    }
    int first = -1;
    for (int a = 0; a < g->t->nterms && first < 0; a++)
        if (old->want[a] == 1) first = a;
    snprintf(buf, len,
             "%d coding group(s) pending, the oldest 0x%04x (%s, started at cycle %llu) still owes %d delivery(ies), "
             "e.g. to terminal %d",
             nc_gen_busy(g), old->tag, nc_kind_names[old->kind], (unsigned long long)old->started, old->pending, first);
}

void nc_gen_json(const nc_gen *g, json_t *j)
{
    json_t *c = json_object();
    uint64_t done = 0;
    for (int k = 0; k < NKIND; k++) {
        json_object_set_new(
            c, nc_kind_names[k],
            json_pack("{s:I,s:I}", "started", (json_int_t)g->started[k], "completed", (json_int_t)g->completed[k]));
        done += g->completed[k];
    }
    json_object_set_new(c, "packets_sent", json_integer((json_int_t)g->packets_sent));
    json_object_set_new(c, "deliveries", json_integer((json_int_t)g->deliveries));
    json_object_set_new(c, "pending", json_integer(nc_gen_busy(g)));
    json_object_set_new(c, "dropped", json_integer((json_int_t)g->dropped));
    json_object_set_new(c, "max_slots_budgeted", json_integer(g->max_load));
    json_object_set_new(c, "avg_group_latency", json_real(done ? (double)g->lat_sum / (double)done : 0.0));
    uint64_t msum = 0, mmax = 0; /* the groups started in the measurement window */
    for (size_t i = 0; i < g->nlat; i++) {
        msum += g->lat[i];
        if (g->lat[i] > mmax) mmax = g->lat[i];
    }
    json_object_set_new(c, "window",
                        json_pack("{s:I,s:I,s:I,s:f,s:I}", "offered", (json_int_t)g->offered_w, "accepted",
                                  (json_int_t)g->done_w, "measured", (json_int_t)g->nlat, "avg_latency",
                                  g->nlat ? (double)msum / (double)g->nlat : 0.0, "max_latency", (json_int_t)mmax));
    json_object_set_new(c, "max_group_latency", json_integer((json_int_t)g->lat_max));
    if (g->fanout) {
        json_object_set_new(c, "fanout", json_integer(g->fanout));
        json_object_set_new(c, "max_payload", json_integer(8 * g->rc.ncmax < 64 ? 8 * g->rc.ncmax : 64));
        json_object_set_new(c, "max_queued", json_integer((json_int_t)g->queued_max));
        json_object_set_new(c, "through_stages", json_boolean(g->clos != NULL));
        json_object_set_new(c, "blocked", json_integer((json_int_t)g->blocked));
        json_object_set_new(c, "refused", json_integer((json_int_t)g->refused));
        json_object_set_new(c, "middle_switches", json_integer((json_int_t)g->mids));
    }
    json_object_set_new(j, "coding", c);
}

static unsigned long long coding_uint(const json_t *c, const char *key)
{
    return (unsigned long long)json_integer_value(json_object_get(c, key));
}

static unsigned long long completed(const json_t *c, int kind)
{
    return coding_uint(json_object_get(c, nc_kind_names[kind]), "completed");
}

void nc_gen_text(FILE *f, const json_t *c)
{
    fprintf(f,
            "coding groups: %llu multicast, %llu coded, %llu coded+multicast completed (%d pending); %llu deliveries "
            "byte-exact; group latency avg %.1f max %llu cycles; %llu dropped (no free slot)\n",
            completed(c, KIND_MC), completed(c, KIND_CODED), completed(c, KIND_CODED_MC),
            (int)coding_uint(c, "pending"), coding_uint(c, "deliveries"),
            json_number_value(json_object_get(c, "avg_group_latency")), coding_uint(c, "max_group_latency"),
            coding_uint(c, "dropped"));
    const json_t *w = json_object_get(c, "window");
    fprintf(f,
            "  in the window: %llu offered, %llu delivered whole; the %llu started in it: latency avg %.1f max %llu "
            "cycles (creation to the last delivery's tail)\n",
            coding_uint(w, "offered"), coding_uint(w, "accepted"), coding_uint(w, "measured"),
            json_number_value(json_object_get(w, "avg_latency")), coding_uint(w, "max_latency"));
    if (json_object_get(c, "fanout"))
        fprintf(f,
                "multicast:%d%s: tries blocked by the routing control %llu, refused (ports busy) %llu, no free "
                "slot %llu (a request waits at its source and tries again next cycle; at most %llu waited at once); "
                "%llu middle switches chosen\n",
                (int)coding_uint(c, "fanout"),
                json_is_true(json_object_get(c, "through_stages")) ? " through the stages" : "",
                coding_uint(c, "blocked"), coding_uint(c, "refused"), coding_uint(c, "dropped"),
                coding_uint(c, "max_queued"), coding_uint(c, "middle_switches"));
}
