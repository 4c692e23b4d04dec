# badload.S - a load from an address outside RAM and devices, no handler
    .globl _start
_start:
    li t0, 0x40000000
    lw t1, 0(t0)
