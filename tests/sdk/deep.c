/* A recursion whose frames need the whole stack and 1 KiB more (or, with
 * --arg over=0, 1 KiB less, and then it checks the globals next to the
 * stack and prints the sum) */
#include <stdio.h>
#include "xnoc.h"

#define FRAME 128
extern char __stack_bottom[];
static volatile uint32_t last_global[4] = {1, 2, 3, 4}; /* .data, next to .bss and the stack bottom */
static uint32_t zeros[16];

static uint32_t recurse(uint32_t depth);
static uint32_t (*volatile again)(uint32_t) = recurse; /* no loop made of the recursion */

static uint32_t recurse(uint32_t depth)
{
    volatile uint8_t frame[FRAME - 16];
    frame[0] = (uint8_t)depth;
    __asm__ volatile("" : : "r"(frame) : "memory"); /* the whole frame is in use */
    if (depth == 0) return frame[0];
    return again(depth - 1) + frame[0];
}

int main(void)
{
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    uint32_t room = sp - (uint32_t)(uintptr_t)__stack_bottom;
    uint32_t depth = node_param("over", 1) ? (room + 1024) / FRAME : (room - 1024) / FRAME;
    uint32_t sum = recurse(depth);
    printf("depth %u sum %u globals %u %u\n", depth, sum, last_global[0] + last_global[3], zeros[15]);
    return last_global[0] + last_global[3] != 5 || zeros[15] != 0;
}
