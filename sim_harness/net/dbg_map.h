/* dbg_map.h - the debug bus of the RTL network: the addresses the harness
 * reads a router's counters and its coding unit's registers at
 * (net.c; the netlist's unit window, netgen.c).  The one C table; the
 * RTL's copy is rtl/xnoc_pkg.sv (Dbg*), and tests/abi.t.sh fails if the two
 * disagree.
 *
 * A router and its unit share one DBG_ADDR_W-bit address.  The router
 * reads the counter kind in [9:8] (DBG_KIND_*) of the port in [7:0]; VC
 * occupancy takes the port in [7:3] and the VC in [2:0].  The unit answers
 * the window DBG_UNIT_BASE + i, i < 1 << DBG_UNIT_ADDR_W (0x340..0x37F,
 * inside kind 3, whose router register is at [7:0] = 0 only). */
#ifndef XNOC_DBG_MAP_H
#define XNOC_DBG_MAP_H

#define DBG_ADDR_W 10
#define DBG_KIND_LSB 8
#define DBG_KIND_W 2
#define DBG_KIND_FLITS 0  /* flits sent on out port [7:0] */
#define DBG_KIND_STALLS 1 /* cycles a routed flit waited for out port [7:0] */
#define DBG_KIND_OCC 2    /* flits buffered at input port [7:3], VC [2:0] */
#define DBG_KIND_ERR 3    /* [7:0] = 0: the sticky error bits */
#define DBG_OCC_VC_W 3
#define DBG_UNIT_BASE 0x340
#define DBG_UNIT_ADDR_W 6
/* the unit's registers, at DBG_UNIT_BASE + ... */
#define DBG_UNIT_CODED 0    /* result packets emitted */
#define DBG_UNIT_XOR 1      /* data flits combined into a slot */
#define DBG_UNIT_REPL 2     /* multicast copies emitted */
#define DBG_UNIT_SLOT_MAX 3 /* most slots in use at once */
#define DBG_UNIT_BUSY 4     /* sum over cycles of slots in use */
#define DBG_UNIT_ERR 5      /* sticky error bits */
#define DBG_UNIT_EINFO 6    /* the first error: {slot, need, got, code, tag} */
#define DBG_UNIT_INUSE 7    /* slots in use now */
#define DBG_UNIT_CONTRIB 8  /* packets absorbed */
#define DBG_UNIT_SLOTS 9    /* NumSlots */
#define DBG_UNIT_CLOCKED 10 /* cycles its gated clock ran */
#define DBG_UNIT_SLOT0 16   /* slot i's state at DBG_UNIT_SLOT0 + i */

/* a router's counter: kind k of port p (DBG_KIND_FLITS, _STALLS, _ERR) */
#define DBG_ROUTER(k, p) ((k) << DBG_KIND_LSB | (p))
/* the flits buffered at input port p, VC v */
#define DBG_OCC(p, v) (DBG_KIND_OCC << DBG_KIND_LSB | (p) << DBG_OCC_VC_W | (v))
/* the unit's register i */
#define DBG_UNIT(i) (DBG_UNIT_BASE + (i))

/* the netlist routes the window by its top address bits */
_Static_assert(DBG_UNIT_BASE % (1 << DBG_UNIT_ADDR_W) == 0 && DBG_UNIT_BASE >> DBG_KIND_LSB == DBG_KIND_ERR &&
                   (DBG_UNIT_BASE & ((1 << DBG_KIND_LSB) - 1)) != 0,
               "the unit's window is aligned, inside kind ERR, and leaves the router's error register");

#endif
