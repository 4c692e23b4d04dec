# tohost-fail.S - reports "test 3 failed" through tohost, like riscv-tests
    .globl _start
_start:
    li a0, 7
    la t0, tohost
    sw a0, 0(t0)
1:  j 1b
    .data
    .align 6
    .globl tohost
tohost: .word 0
