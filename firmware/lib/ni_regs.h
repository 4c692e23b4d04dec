/* ni_regs.h - the network interface's register map: the one place it is
 * written down.  The harness's NI model (sim_harness/system/ni.c) and the firmware
 * driver (firmware/lib/noc.c) both include this file; docs/ni.md explains
 * each register.  Offsets are bytes from NI_BASE; every register is a
 * 32-bit word.  Plain C, no types beyond the preprocessor, so that the
 * freestanding firmware and the hosted harness can both use it. */
#ifndef XNOC_NI_REGS_H
#define XNOC_NI_REGS_H

#define NI_BASE 0x10001000u
#define NI_MAX_SENDQ 16      /* send descriptors a channel can hold (--router sendq) */
#define NI_MAX_K 16          /* send / receive channels per terminal (the head's 4-bit EJSEL) */
#define NI_MAX_PACKET 65536u /* bytes in one packet */
#define NI_MAX_POSTED 4096   /* posted receives the match table holds */

/* send channel c: 0x40 * c + */
#define NI_SEND(c) (0x40u * (unsigned)(c))
#define NI_S_DST 0x00u      /* destination address (terminal, or unit NT + r) */
#define NI_S_ROUTE_LO 0x04u /* source route, hop i's output port in bits [PB*i +: PB] */
#define NI_S_ROUTE_HI 0x08u
#define NI_S_NHOPS 0x0Cu /* 0 = table routing */
#define NI_S_ADDR 0x10u  /* buffer in RAM */
#define NI_S_LEN 0x14u   /* bytes */
#define NI_S_TAG 0x18u   /* 16-bit tag */
#define NI_S_GO                                                                                                        \
    0x1Cu                      /* W: start, or queue behind the packets in flight (stalls while
                                 * the channel holds sendq descriptors); R: busy */
#define NI_S_DONE 0x20u        /* R: completed sends */
#define NI_S_WAIT 0x24u        /* R: stalls until idle, returns DONE */
#define NI_S_GO_CYCLE_LO 0x28u /* R: network cycle of the last accepted GO */
#define NI_S_GO_CYCLE_HI 0x2Cu
#define NI_S_ROOM                                                                                                      \
    0x30u /* R: stalls until the channel can take a GO, returns DONE
                                 * (sendq = 1: until idle, as WAIT) */

/* network-coding fields of send channel c: 0x400 + 0x40 * c + */
#define NI_CODE(c) (0x400u + 0x40u * (unsigned)(c))
#define NI_C_MC 0x00u
#define NI_C_OP 0x04u
#define NI_C_COUNT 0x08u
#define NI_C_OUT_DEST 0x0Cu
#define NI_C_OUT_MC 0x10u
#define NI_C_OUT_OP 0x14u
#define NI_C_OUT_COUNT 0x18u
#define NI_C_MASK_ADDR 0x1Cu
#define NI_C_MASK_FLITS 0x20u
#define NI_C_HEAD_LO 0x24u
#define NI_C_HEAD_HI 0x28u
#define NI_C_FUNC 0x2Cu /* head FUNC [46:43]: a coding group's combining operator (NC_FUNC_*, flit.h) */

/* receive ring (unexpected messages): 0x800 + */
#define NI_RECV 0x800u
#define NI_R_BASE 0x00u
#define NI_R_SIZE 0x04u
#define NI_R_HEAD 0x08u
#define NI_R_TAIL 0x0Cu
#define NI_R_COUNT 0x10u
#define NI_R_IRQ_EN 0x14u
#define NI_R_PENDING 0x18u
#define NI_R_WAIT 0x1Cu
#define NI_R_LAST_CYCLE_LO 0x24u
#define NI_R_LAST_CYCLE_HI 0x28u
#define NI_R_FULL_CYCLES 0x2Cu
#define NI_R_LAST_HEAD_LO 0x30u
#define NI_R_LAST_HEAD_HI 0x34u
#define NI_R_LAST_MASK_LO 0x38u
#define NI_R_LAST_MASK_HI 0x3Cu
#define NI_R_LAST_MASK_FLITS 0x40u

/* posted receives matched by (source, tag), zero-copy: 0xC00 + */
#define NI_MATCH 0xC00u
#define NI_M_SRC 0x00u        /* source address of the descriptor, or NI_ANY_SRC */
#define NI_M_TAG 0x04u        /* tag */
#define NI_M_ADDR 0x08u       /* where the payload goes */
#define NI_M_LEN 0x0Cu        /* the length the message must have */
#define NI_M_CT 0x10u         /* RAM word the NI increments on completion (0: none) */
#define NI_M_POST 0x14u       /* W: post the descriptor; R: entries posted, not yet matched */
#define NI_M_DONE 0x18u       /* R: posted receives completed */
#define NI_M_UNEXPECTED 0x1Cu /* R: messages that matched nothing (went to the ring) */
#define NI_M_CT_ADDR 0x20u    /* counter CT_WAIT watches */
#define NI_M_CT_WAIT 0x24u    /* W: target; R: stalls until the counter reaches it, returns it */
#define NI_M_CAPACITY 0x28u   /* R: NI_MAX_POSTED */
#define NI_M_GUARD_LO 0x2Cu   /* [GUARD_LO, GUARD_HI): RAM no posted receive may cover */
#define NI_M_GUARD_HI 0x30u
#define NI_ANY_SRC 0xFFFFu

/* decode engine: XORs in the NI, as a DMA engine (docs/ni.md): 0xE00 +
 * Firmware points LIST at COUNT descriptors in RAM, NI_DEC_DESC_WORDS
 * words each, {dst, a, b, len}: dst = a ^ b over len bytes, in list order
 * (a descriptor may use what an earlier one wrote).  GO checks every
 * descriptor and queues the list; the engine spends NI_DEC_DESC_CYCLES on
 * each descriptor plus one network cycle per 8 bytes. */
#define NI_DEC 0xE00u
#define NI_D_LIST 0x00u   /* address of the descriptor list (4-byte aligned, in RAM) */
#define NI_D_COUNT 0x04u  /* descriptors in the list, 1..NI_DEC_MAX_LIST */
#define NI_D_GO 0x08u     /* W: check and queue the list (stalls while NI_DEC_QUEUE lists wait); R: busy */
#define NI_D_DONE 0x0Cu   /* R: descriptors completed */
#define NI_D_WAIT 0x10u   /* R: stalls until the engine is idle, returns DONE */
#define NI_D_CYCLES 0x14u /* R: network cycles the engine has been busy */
#define NI_DEC_DESC_WORDS 4
#define NI_DEC_DESC_CYCLES 2 /* fetching a 16-byte descriptor: two 8-byte words */
#define NI_DEC_QUEUE 4       /* lists GO holds, the one running included */
#define NI_DEC_MAX_LIST 4096

/* ring entry header: {u16 source, u16 tag, u32 length}; this length means
 * "continue at offset 0" */
#define NI_WRAP_MARK 0xFFFFFFFFu

#endif
