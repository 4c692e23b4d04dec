/* fuzz_ni - random firmware MMIO sequences against one node's NI, with a
 * stub network that keeps to the flow-control rules (a flit only where a
 * credit allows, credits back as the NI returns them) and delivers random
 * flits.  Whatever the firmware writes and whatever arrives, the NI must
 * neither crash nor touch memory outside the node's RAM (ASan/UBSan).  A
 * run stops, as sys_run does, once the NI reports an error; then the
 * messages it holds are listed, as `xnoc run` does at a run's end.
 *
 * Input: records of 8 bytes: [0] kind, [1..2] register offset, [3..6]
 * value, [7] flit bits (valid, vc, head, tail) for the stub network. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "system/ni.h"
#include "core/rv32.h"
#include "net/topo.h"

#define RAM_BASE 0x80000000u
#define RAM_SIZE (64u * 1024)

static topo *t;
static router_cfg rc;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (!t) {
        char err[200];
        t = topo_parse("mesh:2x2", 2, err, sizeof err);
        rc = (router_cfg){.vcs = 2, .buf = 4, .ncu = 1, .ncmax = 32};
    }
    rv32 core;
    if (rv32_init(&core, RAM_BASE, RAM_SIZE, 0)) return 0;
    ni nic;
    uint64_t now = 0;
    ni_init(&nic, t, &rc, 0, &core);
    nic.now = &now;
    int credit[NI_MAX_K][8];
    for (int c = 0; c < NI_MAX_K; c++)
        for (int v = 0; v < 8; v++) credit[c][v] = rc.buf;
    xnoc_flit ej[NI_MAX_K] = {0}, inj[NI_MAX_K];
    xnoc_credit injc[NI_MAX_K] = {0}, ejc[NI_MAX_K];
    for (size_t i = 0; i + 8 <= n && !nic.error[0]; i += 8) {
        const uint8_t *r = d + i;
        uint32_t off = (uint32_t)(r[1] | r[2] << 8) & 0xffc, v;
        memcpy(&v, r + 3, 4);
        /* values that point into RAM now and then, so deeper paths are reached */
        if (r[0] & 0x10) v = RAM_BASE + (v % (RAM_SIZE + 64));
        switch (r[0] & 3) {
        case 0: ni_mmio(&nic, off, 1, &v); break;
        case 1: ni_mmio(&nic, off, 0, &v); break;
        default: { /* one network cycle */
            int c = (r[7] >> 5) % t->k, vc = (r[7] >> 1) % rc.vcs;
            memset(ej, 0, sizeof ej);
            if ((r[7] & 1) && credit[c][vc] > 0) {
                ej[c] = (xnoc_flit){.valid = 1,
                                    .vc = (uint8_t)vc,
                                    .head = (r[7] >> 3) & 1,
                                    .tail = (r[7] >> 4) & 1,
                                    .payload = (uint64_t)v << 32 | v};
                if (r[0] & 0x20) ej[c].payload = (uint64_t)(v & 0xffff) | (uint64_t)(v >> 16 & 0x3ff) << 32;
                credit[c][vc]--;
            }
            for (int k = 0; k < t->k; k++) injc[k] = (xnoc_credit){.valid = (r[0] >> 6) & 1, .vc = 0};
            ni_cycle(&nic, ej, injc, inj, ejc);
            for (int k = 0; k < t->k; k++)
                if (ejc[k].valid && ejc[k].vc < rc.vcs) {
                    if (++credit[k][ejc[k].vc] > rc.buf) abort(); /* the NI returned a credit it never owed */
                }
            now++;
        }
        }
    }
    ni_msg_left left[4]; /* what a run's end reports: a walk of whatever the ring holds */
    if (ni_undelivered(&nic, left, 4) < 0) abort();
    ni_free(&nic);
    rv32_free(&core);
    return 0;
}
