/* glue.h - Verilator's model of rtl/xnoc_clos_ctl.sv for clos_rtl.c
 * (NumMid = CLOS_RTL_M, NumOut = CLOS_RTL_R). */
#ifndef CLOS_RTL_GLUE_H
#define CLOS_RTL_GLUE_H

#include <stdint.h>

#define CLOS_RTL_M 17
#define CLOS_RTL_R 16

void clos_rtl_init(void);
void clos_rtl_final(void);
/* One decision: the request, M_j in dest (bit j*R + k), the available middle
 * switches and x; the chosen switches (mask), how many, blocked.  Returns
 * the clocks from the request to done_o (-1: no answer). */
int clos_rtl_decide(uint32_t req, const uint32_t *dest, int dest_words, uint32_t avail, int x, uint32_t *mid,
                    int *count, int *blocked);

#endif
