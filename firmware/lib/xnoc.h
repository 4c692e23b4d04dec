/* xnoc.h - the bare-metal runtime of an xnoc node: identity, console,
 * cycle counter, barrier and the NI driver (noc_*).  Register map: docs/ni.md */
#ifndef XNOC_FW_H
#define XNOC_FW_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "dev_regs.h"
#include "flit.h"
#include "ni_regs.h"
#include "topo_kinds.h"

#define DEV(reg) (((volatile uint32_t *)DEV_BASE)[(reg) / 4]) /* a device register (dev_regs.h) */
#define NI ((volatile uint32_t *)NI_BASE)

static inline int node_id(void) { return (int)DEV(DEV_ID); }
static inline int node_count(void) { return (int)DEV(DEV_NODES); }
static inline uint32_t node_arg(int i) { return DEV(DEV_ARG0 + 4 * i); }
static inline int node_ports(void) { return (int)DEV(DEV_PORTS); }
/* --arg NAME=V: V, or dflt when the run gave no NAME */
uint32_t node_param(const char *name, uint32_t dflt);
/* routers a packet from this node to dst passes through (both ends included) */
static inline int route_hops(int dst)
{
    DEV(DEV_ROUTE_DST) = (uint32_t)dst;
    return (int)DEV(DEV_ROUTE_HOPS);
}
/* tells the harness (and the live view) which collective step this node is in */
static inline void report_step(int step) { DEV(DEV_STEP) = (uint32_t)step; }
static inline int node_routers(void) { return (int)DEV(DEV_ROUTERS); }
/* mesh/torus: dimensions (0 on the octagon) and the size of dimension d;
 * router ids are mixed radix, dimension 0 fastest (docs/topologies.md) */
static inline int node_ndims(void) { return (int)DEV(DEV_TOPO_NDIMS); }
static inline int node_dim(int d) { return (int)DEV(DEV_TOPO_DIM0 + 4 * d); }
uint64_t cycles(void);        /* network cycles since reset */
void barrier(void);           /* all running nodes (hardware barrier device) */
uint64_t barrier_cycle(void); /* network cycle the last barrier released in */
void sw_barrier(void);        /* the same, with messages over the NoC */
void exit_node(int code) __attribute__((noreturn));
const char *topo_name(char *buf); /* "mesh:4x4", "octagon", ... (buf: 48 bytes) */

void putchar_(int c);
/* a wrong argument for a format is a compile error (-Wformat, -Werror) */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
int snprintf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);

/* ---- NI driver ---- */
typedef struct {
    uint16_t src, tag;
    uint32_t len;
    const uint8_t *data;
} noc_msg;

/* Receive ring in this node's RAM (call once). */
void noc_init(void *ring, uint32_t size);
/* Starts a DMA send on channel ch (waits while the channel is busy). */
void noc_send(int ch, int dst, const void *buf, uint32_t len, uint16_t tag);
/* The same along an explicit source route: nhops output ports packed
 * port_bits each (the last is the ejection port at the destination). */
void noc_send_routed(int ch, int dst, uint64_t route, int nhops, const void *buf, uint32_t len, uint16_t tag);
/* noc_send_routed's body, for loops that issue many sends (the collective
 * library): one base register, the offsets as immediates, nine device
 * accesses and no call. */
static inline void noc_send_inline(int ch, int dst, uint32_t route_lo, uint32_t route_hi, int nhops, const void *buf,
                                   uint32_t len, uint16_t tag)
{
    volatile uint32_t *s = (volatile uint32_t *)(NI_BASE + NI_SEND(ch));
    __asm__("" : "+r"(s));  /* hide the alignment, or clang builds each address with an ori */
    (void)s[NI_S_ROOM / 4]; /* stalls until the channel can take this send */
    s[NI_S_DST / 4] = (uint32_t)dst;
    s[NI_S_ROUTE_LO / 4] = route_lo;
    s[NI_S_ROUTE_HI / 4] = route_hi;
    s[NI_S_NHOPS / 4] = (uint32_t)nhops;
    s[NI_S_ADDR / 4] = (uint32_t)(uintptr_t)buf;
    s[NI_S_LEN / 4] = len;
    s[NI_S_TAG / 4] = tag;
    s[NI_S_GO / 4] = 1;
}
/* noc_send_inline without the wait for room first: the channel latches a packet at GO
 * (docs/ni.md "Send queue"), so the next one's registers may be written while the last
 * one streams, and only the GO store waits for the channel.  A loop of sends then keeps
 * the link busy from one packet to the next (coll_innet_stream). */
static inline void noc_send_next_inline(int ch, int dst, const void *buf, uint32_t len, uint16_t tag)
{
    volatile uint32_t *s = (volatile uint32_t *)(NI_BASE + NI_SEND(ch));
    __asm__("" : "+r"(s));
    s[NI_S_DST / 4] = (uint32_t)dst;
    s[NI_S_NHOPS / 4] = 0;
    s[NI_S_ADDR / 4] = (uint32_t)(uintptr_t)buf;
    s[NI_S_LEN / 4] = len;
    s[NI_S_TAG / 4] = tag;
    s[NI_S_GO / 4] = 1;
}
/* Waits until channel ch has sent everything; returns its send count. */
uint32_t noc_send_wait(int ch);
/* Non-blocking: 1 and the oldest message if one is in the ring. */
int noc_poll(noc_msg *m);
/* Blocking receive (the core stalls on the NI until a packet arrives). */
void noc_recv(noc_msg *m);
/* Frees the oldest message's ring space (after noc_poll / noc_recv). */
void noc_release(const noc_msg *m);
/* NI timestamps (network cycles): when channel ch accepted its last GO, and
 * when the last message entered the receive ring.  Their difference is the
 * NI-to-NI latency of docs/ni.md's model. */
uint64_t noc_go_cycle(int ch);
uint64_t noc_recv_cycle(void);
/* cycles a complete packet has waited for ring space (back-pressure) */
uint32_t noc_full_cycles(void);
/* head flit of the last message that entered the ring, its first mask flit
 * and how many mask flits it carried (MC = 1 packets) */
uint64_t noc_last_head(void);
uint64_t noc_last_mask(void);
int noc_last_mask_flits(void);

/* ---- the NI's decode engine (docs/ni.md): XORs done by the NI ----
 * list: count descriptors of NI_DEC_DESC_WORDS words {dst, a, b, len}
 * (dst = a ^ b over len bytes, in list order).  noc_decode checks and queues
 * them (a refused descriptor is an access fault naming it); noc_decode_wait
 * stalls until the engine is idle and returns the descriptors done so far. */
void noc_decode(const uint32_t *list, uint32_t count);
uint32_t noc_decode_wait(void);
uint32_t noc_decode_cycles(void); /* network cycles the engine has been busy */

/* ---- posted receives: zero-copy, matched by (source, tag) in the NI ----
 * The payload of the first message from src (NOC_ANY_SRC: any) with tag
 * goes straight into buf, which must be len bytes; the message must have
 * exactly len bytes.  When it has landed the NI increments *ct (if ct is
 * not NULL).  Messages that match no posted receive go to the ring. */
#define NOC_ANY_SRC 0xFFFF
void noc_post(int src, uint16_t tag, void *buf, uint32_t len, volatile uint32_t *ct);
/* noc_post without the call (a loop that posts a receive per packet it sends) */
static inline void noc_post_inline(int src, uint16_t tag, void *buf, uint32_t len, volatile uint32_t *ct)
{
    NI[(NI_MATCH + NI_M_SRC) / 4] = (uint32_t)src;
    NI[(NI_MATCH + NI_M_TAG) / 4] = tag;
    NI[(NI_MATCH + NI_M_ADDR) / 4] = (uint32_t)(uintptr_t)buf;
    NI[(NI_MATCH + NI_M_LEN) / 4] = len;
    NI[(NI_MATCH + NI_M_CT) / 4] = (uint32_t)(uintptr_t)ct;
    NI[(NI_MATCH + NI_M_POST) / 4] = 1;
}
/* Stalls until *ct >= target (in the NI: no polling loop); returns *ct. */
uint32_t noc_ct_wait(volatile uint32_t *ct, uint32_t target);
/* The NI refuses posted receives that overlap [lo, hi) (e.g. a plan or code). */
void noc_guard(const void *lo, const void *hi);
uint32_t noc_posted_pending(void); /* posted, not yet matched */
uint32_t noc_posted_done(void);    /* posted receives completed */
uint32_t noc_unexpected(void);     /* messages that matched nothing (in the ring) */

/* ---- network coding and hardware multicast (docs/network-coding.md) ----
 * Addresses: terminal t (0..NT-1) or the coding unit of router r, NT + r.
 * A mask has one bit per address, nc_mask_words() 64-bit words. */
/* NC_STREAM: a contribution to a unit's streaming combiner (routers built with --router
 * stream=1; its lane: the NI's, 1 + the terminal's router port); NC_SCAN: the same for an
 * in-network scan (its result to every terminal member too, OUT_MC: exclusive; firmware/coll/
 * innet_stream.c coll_innet_scan_stream) */
enum { NC_REPLICATE = 0, NC_ENCODE = 1, NC_STREAM = 2, NC_SCAN = 3, NC_NONE = FLIT_NONE, NC_MASK_MAX = 4 };
typedef struct {
    int mc;                        /* 1: the mask (below) travels with the packet */
    int op;                        /* NC_REPLICATE, NC_ENCODE, NC_STREAM or NC_SCAN, at the destination unit */
    int count;                     /* contributions the coding slot expects (1..15), 0 = not set here */
    int out_dest;                  /* where the slot's result goes, or NC_NONE */
    int out_mc, out_op, out_count; /* head fields of the result */
    const uint64_t *mask;          /* nc_mask_words() words (when mc = 1) */
} noc_code;
static inline int nc_units(void) { return (int)DEV(DEV_NC_UNITS); }           /* 1: routers have units */
static inline int nc_max_bytes(void) { return (int)DEV(DEV_NC_MAX); }         /* longest packet a unit takes */
static inline int nc_stream_max_bytes(void) { return (int)DEV(DEV_NC_SMAX); } /* ... a streaming lane, 0: none */
static inline int nc_unit(int router) { return node_count() + router; }
static inline int nc_router_of(int term) { return term / (int)DEV(DEV_CONC); }
int nc_mask_words(void);
static inline void nc_mask_set(uint64_t *mask, int addr) { mask[addr / 64] |= 1ull << (addr % 64); }
/* Sets channel ch's coding fields for the sends that follow (noc_send_inline
 * keeps them; NULL = plain again), after the channel's queued sends left. */
void noc_set_code(int ch, const noc_code *code);
/* Sets channel ch's combining operator (head FUNC: NC_FUNC_XOR .. NC_FUNC_MAX32U,
 * firmware/lib/flit.h) for the ENCODE contributions that follow, after the
 * channel's queued sends left.  It stays until set again (noc_set_code and
 * noc_send do not touch it); 0 = XOR, the reset value. */
void noc_set_func(int ch, int func);
/* A send with the coding fields of *code (NULL = a plain send); dst may be a unit. */
void noc_send_coded(int ch, int dst, const noc_code *code, const void *buf, uint32_t len, uint16_t tag);
/* Hardware multicast: the unit `unit` replicates the packet to every address of mask. */
void noc_multicast(int ch, int unit, const uint64_t *mask, const void *buf, uint32_t len, uint16_t tag);
/* One ENCODE contribution to `unit`'s slot `tag`: the slot XORs `count`
 * contributions and sends the result to out_dest (plain). */
void noc_encode(int ch, int unit, int count, int out_dest, const void *buf, uint32_t len, uint16_t tag);
/* The head flit channel ch builds from its current registers (DST, coding fields). */
uint64_t noc_head(int ch);
/* d = a ^ b, n bytes (software decoding) */
void nc_xor(void *d, const void *a, const void *b, uint32_t n);

#endif
