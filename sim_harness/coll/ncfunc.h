/* ncfunc.h - the host-side reference of the coding units' combining
 * operators (head field FUNC, firmware/lib/flit.h NC_FUNC_*; the RTL is
 * rtl/xnoc_ncu_absorb.sv): what a slot holding a makes of a later
 * contribution's data flit w, and the same over byte buffers, for the
 * tests and for verifying reduction collectives. */
#ifndef XNOC_NCFUNC_H
#define XNOC_NCFUNC_H

#include <stddef.h>
#include <stdint.h>

/* a combined with w by func (a data flit: 64 bits, 32-bit lanes [31:0] and
 * [63:32]), or the cores' NC_FUNC_MUL64; func outside 0 .. NC_FUNC_ALL-1 gives
 * a unchanged */
uint64_t nc_func_apply(int func, uint64_t a, uint64_t w);
/* acc[0..len) combined with src[0..len) by func, flit by flit as a unit
 * does: 8-byte little-endian words, a short last word zero-padded (the NI
 * pads a packet's last flit with zeros), only len bytes written back */
void nc_func_combine(int func, uint8_t *acc, const uint8_t *src, size_t len);
/* "xor", "and", "or", "add32", "add64", "min32s", "max32s", "min32u",
 * "max32u"; NULL for a value outside the table */
const char *nc_func_name(int func);
/* the code of a name above, or -1 */
int nc_func_parse(const char *name);

/* --reduce-op: the one vocabulary of every reduction, in the network or on
 * the cores (xnoc collective), as unit operators: sum (add32), sum64
 * (add64), prod (mul32), prod64 (mul64), min, max (signed), minu, maxu
 * (unsigned), and, or, xor.  The code of a name, or -1; the name of a code
 * ("?" outside the table). */
int nc_redop_parse(const char *name);
const char *nc_redop_name(int func);
#define NC_REDOP_LIST "sum, sum64, prod, prod64, min, max, minu, maxu, and, or, xor"

#endif
