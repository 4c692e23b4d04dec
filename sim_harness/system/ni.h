/* ni.h - the network interface of a node: DMA send and DMA receive between
 * node RAM and the terminal's k injection / ejection channels.
 *
 * Packet format on the network (docs/ni.md):
 *   head flit   routing header (destination or source route, ejection channel)
 *               and the network-coding fields (MC, op, count, out_*)
 *   meta flit   [15:0] source terminal, [31:16] tag, [63:32] length in bytes
 *   mask flits  only when head MC = 1: ceil((NT + NR) / 64) words, bit a =
 *               address a (terminal a < NT, unit of router a - NT) is a destination
 *   data flits  ceil(length / 8), little-endian bytes of the buffer
 * (docs/ni.md, docs/network-coding.md; register map: firmware/lib/ni_regs.h)
 */
#ifndef XNOC_NI_H
#define XNOC_NI_H

#include <stdint.h>
#include <stdio.h>
#include "net/endpoint.h"
#include "net/net.h"
#include "core/rv32.h"
#include "net/topo.h"

#include "../../firmware/lib/flit.h" /* the flit format: one table for harness, firmware and (checked) RTL */
#include "../../firmware/lib/ni_regs.h"
#include "system/test_hooks.h" /* the register map: one home for harness and firmware */

/* head flit fields (the interface of the network-coding units) */
#define NI_HEAD_MC (1ull << FLIT_MC_BIT)
#define NI_OUT_NONE FLIT_NONE /* out_dest: not set by this contribution */
/* OP STREAM: a contribution to a unit's streaming combiner (--router stream=1), which it
 * enters on lane 1 + the terminal's port at its router (docs/network-coding.md) */
enum { NI_OP_REPLICATE = 0, NI_OP_ENCODE = 1, NI_OP_STREAM = 2, NI_OP_SCAN = 3 };

/* a posted receive: the payload of the first message from src with tag
 * goes to addr (zero-copy); ct, if not 0, is a RAM word incremented when it
 * has landed */
typedef struct {
    uint32_t src, tag, addr, len, ct;
} ni_post;

/* a packet as GO latched it: what goes on the wire */
typedef struct {
    uint64_t head, meta;      /* head and meta flit */
    uint32_t addr_go, len_go; /* buffer and length at GO (firmware may rewrite ADDR/LEN for the next send meanwhile) */
    int nflits, nmask;
    int mslot; /* nmask > 0: the mask words GO checked and copied, at ni_send.masks + mslot * M (firmware
                * may rewrite the mask in RAM at once: the packet carries what GO saw) */
} ni_wire;

/* a pending posted receive's buffer (len > 0): in ni.spans, sorted by addr
 * and never overlapping, from POST until its message has landed */
typedef struct {
    uint32_t addr, len, src, tag;
} ni_span;

typedef struct {
    /* programmed by firmware */
    uint32_t dst, route_lo, route_hi, nhops, addr, len, tag;
    /* network-coding fields of the head, and the mask buffer (MC = 1) */
    uint32_t mc, op, count, out_dest, out_mc, out_op, out_count, mask_addr, func;
    /* the packet on the wire, and those queued behind it (--router sendq) */
    ni_wire w;
    ni_wire q[NI_MAX_SENDQ];
    int qhead, qlen;
    uint64_t *masks; /* sendq latched masks of M words each (allocated at the first MC GO), used in turn */
    int mnext;       /* the slot the next MC GO takes */
    int busy, vc, sent;
    uint32_t done;
    uint64_t go_cycle; /* network cycle of the last accepted GO */
} ni_send;

typedef struct {
    int active;
    uint32_t src, tag, len, got; /* got: data bytes so far */
    int meta;                    /* meta flit seen */
    int mask_left, nmask;        /* mask flits still to come / seen (head MC = 1) */
    uint64_t head, mask0;        /* the head flit, the first mask flit */
    int held;                    /* complete, waiting for ring space; credit held */
    int posted;                  /* matched a posted receive: data goes to RAM at addr */
    uint32_t addr, ct;           /* the posted buffer and completion counter */
    uint8_t *buf;
    /* flits that arrived behind a held packet: accepted (the router had a
     * credit for them) but not yet processed, so their credits are owed */
    xnoc_flit q[ROUTER_MAX_BUF]; /* at most a VC buffer's worth are owed (a power of two) */
    int qhead, qlen;
} ni_asm;

/* the decode engine (NI_DEC, docs/ni.md): lists of XOR descriptors, each
 * latched at GO (checked then; later stores to the list change nothing) */
typedef struct {
    uint32_t dst, a, b, len;
} ni_xor;
typedef struct {
    uint32_t list, count;      /* NI_D_LIST, NI_D_COUNT */
    ni_xor *q[NI_DEC_QUEUE];   /* the lists GO accepted, the running one first */
    uint32_t qn[NI_DEC_QUEUE]; /* their lengths */
    int qhead, qlen;
    uint32_t idx, left; /* descriptor of q[qhead] in progress, its cycles still to run (0: not started) */
    uint32_t done;
    uint64_t cycles; /* network cycles busy */
} ni_dec;

typedef struct ni {
    int term, k, vcs, vpc, buf, port_bits;
    int sendq;         /* descriptors a send channel holds, the one on the wire included */
    int units;         /* 1: every router has a network-coding unit (address NT + r) */
    router_cfg rc;     /* routing mode (dragonfly Valiant / UGAL heads) */
    uint64_t rng;      /* their intermediate groups */
    int nc_max_bytes;  /* longest packet a unit handles (data bytes) */
    int nc_smax_bytes; /* longest OP STREAM packet a streaming unit takes (0: no streaming units) */
    int mask_flits;    /* M = ceil((NT + NR) / 64) */
    const topo *t;
    rv32 *core;
    ni_send send[NI_MAX_K];
    ni_asm rx[NI_MAX_K][ROUTER_MAX_VCS];
    endpoint ep[NI_MAX_K]; /* each channel's credits: injection held, ejection owed (net/endpoint.h) */
    uint32_t ring_base, ring_size, head, tail, irq_en;
    uint64_t packets_sent, flits_sent, packets_recv, flits_recv;
    uint64_t coded_sent, mc_sent, mask_flits_sent; /* packets to units, MC packets, their mask flits */
    uint64_t inj_flits[NI_MAX_K];
    /* timestamps for latency measurement from firmware (docs/ni.md) */
    const uint64_t *now;            /* the system's network cycle counter */
    uint64_t last_commit;           /* cycle the last message entered the ring */
    uint64_t last_head, last_mask0; /* head and first mask flit of that message */
    int last_nmask;
    uint64_t full_cycles; /* cycles a complete packet waited for ring space */
    /* posted receives (match table, in post order) and the descriptor being built */
    ni_post *posted;
    int nposted;
    ni_span *spans; /* the buffers of posted receives not yet complete: no two overlap, nor the ring, nor the guard */
    int nspans;
    ni_post m;                   /* NI_M_SRC .. NI_M_CT */
    uint32_t ct_addr, ct_target; /* NI_M_CT_ADDR, NI_M_CT_WAIT */
    uint64_t posted_done, unexpected;
    uint32_t guard_lo, guard_hi; /* RAM no posted receive may cover (the collective plan) */
    ni_dec dec;                  /* the decode engine (ni_dec.c) */
    FILE *events;                /* --events: one JSON line per message sent and delivered, or NULL */
    test_hooks hooks;            /* XNOC_TEST_CORRUPT (data bytes), _DROP, _DUP (flits) */
    char refused[256];           /* why the last refused (faulting) access was refused */
    char error[200];
} ni;

void ni_init(ni *n, const topo *t, const router_cfg *rc, int term, rv32 *core);
void ni_free(ni *n);

/* MMIO access to the NI registers (offset from NI_BASE). */
int ni_mmio(ni *n, uint32_t off, int is_store, uint32_t *val);

/* One network cycle: consume what the network presents (ej flits, credits
 * for our injection channels), produce this cycle's injected flits and
 * ejection credits.  Arrays are indexed by this terminal's channel c. */
void ni_cycle(ni *n, const xnoc_flit *ej, const xnoc_credit *injc, xnoc_flit *inj, xnoc_credit *ejc);

/* The counter CT_WAIT watches (0 if none is named). */
uint32_t ni_ct_value(const ni *n);

/* Whether anything is in progress (for idle detection). */
int ni_busy(const ni *n);

/* A message the NI holds that firmware never took: in the receive ring
 * between TAIL and HEAD (not released), complete and waiting for ring space,
 * or still arriving (where says which). */
typedef struct {
    uint32_t src, tag, len;
    const char *where;
} ni_msg_left;

/* Fills out[0..max) with the messages the NI holds that firmware never
 * took (ring first, oldest first); returns how many there are in all. */
int ni_undelivered(const ni *n, ni_msg_left *out, int max);

#endif
