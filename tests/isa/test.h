/* test.h - conventions of the tests/isa programs (riscv-tests style).
 *
 * gp holds the number of the check under way; the program ends by storing
 * to tohost: 1 = pass, (gp << 1) | 1 = check gp failed.  Every program gets
 * a trap handler that records mcause/mepc/mtval in s9/s10/s11 and resumes
 * at the address in s8 (set with EXPECT_TRAP just before an instruction
 * that must trap); a trap nobody expected (s8 = 0) fails the current check.
 * Programs define `tests:` and end it with `j pass`.
 */
#define CHECK(n, reg, exp)  li gp, n; li t6, exp; bne reg, t6, fail
#define CHECKR(n, reg, reg2) li gp, n; bne reg, reg2, fail
#define EXPECT_TRAP(resume) la s8, resume
/* the trap just taken had cause c and mtval v */
#define CHECK_TRAP(n, c, v) li gp, n; li t6, c; bne s9, t6, fail; li t6, v; bne s11, t6, fail

    .section .text.start, "ax"
    .globl _start
_start:
    li gp, 0x7ff            # "before the first check"
    li s8, 0
    la t0, trap_handler
    csrw mtvec, t0
    j tests

    .align 2
trap_handler:
    csrr s9, mcause
    csrr s10, mepc
    csrr s11, mtval
    beqz s8, fail
    csrw mepc, s8
    li s8, 0
    mret

pass:
    li t0, 1
    la t1, tohost
    sw t0, 0(t1)
1:  j 1b
fail:
    slli t0, gp, 1
    ori t0, t0, 1
    la t1, tohost
    sw t0, 0(t1)
2:  j 2b

    .pushsection .tohost, "aw"
    .align 3
    .globl tohost
tohost: .word 0, 0
    .globl fromhost
fromhost: .word 0, 0
    .popsection
