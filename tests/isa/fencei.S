# fencei.S - self-modifying code: instructions stored to RAM, then
# fence.i, run as stored, even when the old instruction was already
# executed (and so decoded) before; byte and halfword patches too.
#include "test.h"
tests:
    la a2, patch
    li s1, 0
    # run the original once (addi a0, zero, 1), then patch it to addi a0, zero, 42
1:  jal ra, patch
    bnez s1, 2f
    CHECK(1, a0, 1)
    li a3, 0x02a00513; sw a3, 0(a2); fence.i
    li s1, 1
    j 1b
2:  CHECK(2, a0, 42)
    # patch the immediate's high byte only: addi a0, zero, 42 -> 42 + 0x100
    li a3, 0x12; sb a3, 3(a2); fence.i
    jal ra, patch;                            CHECK(3, a0, 0x12a)
    # halfword patch: rd a0 -> a1 (bits 7..11), keep the rest
    lhu a3, 0(a2); li t0, 0xf07f; and a3, a3, t0; ori a3, a3, 11 << 7; sh a3, 0(a2); fence.i
    li a1, 0
    jal ra, patch;                            CHECK(4, a1, 0x12a)
    # a loop body rewritten while the loop runs: add 1 becomes add 2 after iteration 3
    li a0, 0; li t1, 0; la a4, body; li a5, 0x00250513   # addi a0, a0, 2
3:
body: addi a0, a0, 1
    addi t1, t1, 1
    li t2, 3; bne t1, t2, 4f
    sw a5, 0(a4); fence.i
4:  li t2, 6; bne t1, t2, 3b
    CHECK(5, a0, 3 + 3 * 2)
    # copy a function to a buffer and call it there
    la t0, fn; la t1, buf; lw t2, 0(t0); sw t2, 0(t1); lw t2, 4(t0); sw t2, 4(t1); fence.i
    li a0, 5; jalr ra, 0(t1);                 CHECK(6, a0, 15)
    j pass

patch:
    addi a0, zero, 1
    ret
fn: addi a0, a0, 10
    ret
    .data
    .align 2
buf: .zero 8
