/* crt0.S - start-up: stack at the top of this node's RAM, clear bss, call
 * main(), hand its return value to the exit device. */
    .section .text.start
    .globl _start
_start:
    li      t0, 0x10000000          /* node devices */
    lw      t1, 0x34(t0)            /* DEV_RAM_SIZE */
    li      sp, 0x80000000
    add     sp, sp, t1
    la      t2, __bss_start
    la      t3, __bss_end
1:  bgeu    t2, t3, 2f
    sw      zero, 0(t2)
    addi    t2, t2, 4
    j       1b
2:  call    main
    li      t0, 0x10000000
    sw      a0, 0x0c(t0)            /* DEV_EXIT */
3:  j       3b
