/* coll-innet - reduce / allreduce inside the network (firmware/coll/
 * innet.c), or a scan, reduce-scatter or allreduce on the cores
 * (firmware/coll/scan.c, reduce.c), on the plan
 * `xnoc collective --algo innet` (or --op scan) places in RAM (innet.h
 * IP_*): the data at IP_BUF, the result there afterwards; the timed region
 * is the call itself, after a barrier. */
#include "innet.h"
#include "mcast.h"
#include "reduce.h"
#include "scan.h"
#include "xnoc.h"

static uint8_t ring[1024] __attribute__((aligned(8)));

static void stamp(uint32_t *w, int at)
{
    uint64_t t = cycles();
    w[at] = (uint32_t)t;
    w[at + 1] = (uint32_t)(t >> 32);
}

/* streaming units (coll_innet_stream): the same timed region, in a function of its own, so
 * that main's, which the other kinds run, stays as it was to the instruction */
static __attribute__((noinline)) int stream_rs_main(uint32_t *w, void *buf);
static __attribute__((noinline)) int stream_main(uint32_t *w, void *buf, int all)
{
    if (w[IP_STREAM] == 2) return stream_rs_main(w, buf); /* the reduce-scatter (plan kind REDUCE) */
    barrier();
    stamp(w, IP_T0_LO);
    int r = coll_innet_stream(buf, w[IP_BYTES], (int)w[IP_FUNC], (int)w[IP_ROOT], all);
    stamp(w, IP_T1_LO);
    w[IP_STATUS] = r == INNET_OK ? 1u : (uint32_t)(2 - r);
    return r == INNET_OK ? 0 : 1;
}

/* the scan through streaming units (coll_innet_scan_stream), the same timed region */
static __attribute__((noinline)) int scan_main(uint32_t *w, void *buf, int exclusive)
{
    barrier();
    stamp(w, IP_T0_LO);
    int r = coll_innet_scan_stream(buf, w[IP_BYTES], (int)w[IP_FUNC], exclusive);
    stamp(w, IP_T1_LO);
    w[IP_STATUS] = r == INNET_OK ? 1u : (uint32_t)(2 - r);
    return r == INNET_OK ? 0 : 1;
}

/* the reduce-scatter through streaming units (coll_innet_stream_rs), timed as stream_main */
static int stream_rs_main(uint32_t *w, void *buf)
{
    barrier();
    stamp(w, IP_T0_LO);
    int r = coll_innet_stream_rs(buf, w[IP_BYTES], (int)w[IP_FUNC], (int)w[IP_ROOT]);
    stamp(w, IP_T1_LO);
    w[IP_STATUS] = r == INNET_OK ? 1u : (uint32_t)(2 - r);
    return r == INNET_OK ? 0 : 1;
}

int main(void)
{
    uint32_t *w = (uint32_t *)(uintptr_t)DEV(DEV_PLAN);
    if (!w || w[IP_MAGIC] != INNET_MAGIC) {
        printf("no in-network reduction plan: run this image with xnoc collective --algo innet\n");
        return 2;
    }
    if (w[IP_ABSENT]) return 0; /* leaves before the barrier: the others go on without it */
    noc_init(ring, sizeof ring);
    coll_innet_set_window((int)w[IP_WINDOW]);
    coll_innet_set_tree((int)w[IP_PARENT], (int)w[IP_COUNT], (int)w[IP_PCOUNT]);
    coll_innet_set_unit((int)w[IP_UNIT] - 1);
    void *buf = (void *)(uintptr_t)w[IP_BUF];
    uint32_t kind = w[IP_KIND];
    if (w[IP_STREAM] && kind <= INNET_KIND_ALLREDUCE) return stream_main(w, buf, kind == INNET_KIND_ALLREDUCE);
    if (w[IP_STREAM] && kind <= INNET_KIND_EXSCAN) return scan_main(w, buf, kind == INNET_KIND_EXSCAN);
    const mcast_plan *mp = (const mcast_plan *)(uintptr_t)w[IP_WORK];
    int r = INNET_OK;
    if (kind == INNET_KIND_MCAST && (r = coll_mcast_post(buf, w[IP_BYTES], mp)) > 0) r = INNET_OK;
    barrier();
    stamp(w, IP_T0_LO);
    if (kind == INNET_KIND_MCAST) r = r == INNET_OK ? coll_mcast_run(buf, w[IP_BYTES], mp) : r;
    else if (kind == INNET_KIND_RS || kind == INNET_KIND_SWAR) {
        void *work = (void *)(uintptr_t)w[IP_WORK];
        r = kind == INNET_KIND_RS ? coll_reduce_scatter(buf, w[IP_BYTES], (int)w[IP_FUNC], (int)w[IP_ALGO], work)
                                  : coll_allreduce(buf, w[IP_BYTES], (int)w[IP_FUNC], (int)w[IP_ALGO], work);
        w[IP_COMBINE_CYCLES] = coll_reduce_combine_cycles();
        w[IP_COMBINE_WORDS] = coll_reduce_combine_words();
        if (r < 0) r = INNET_OP;
    } else
        r = kind >= INNET_KIND_SCAN
                ? coll_scan(buf, w[IP_BYTES], (int)w[IP_FUNC], kind == INNET_KIND_EXSCAN, (void *)(uintptr_t)w[IP_WORK])
                : coll_innet(buf, w[IP_BYTES], (int)w[IP_FUNC], (int)w[IP_ROOT], kind == INNET_KIND_ALLREDUCE);
    stamp(w, IP_T1_LO);
    w[IP_STATUS] = r == INNET_OK ? 1u : (uint32_t)(2 - r);
    return r == INNET_OK ? 0 : 1;
}
