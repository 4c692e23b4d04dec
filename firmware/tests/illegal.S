# illegal.S - an illegal instruction with no trap handler installed
    .globl _start
_start:
    nop
    .word 0xffffffff
