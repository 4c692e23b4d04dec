# dev-badreg.S - a load from an unassigned node-device register, no handler
    .globl _start
_start:
    li t0, 0x10000000
    lw t1, 0x3c(t0)          # hole between ROUTERS (0x38) and ARG0 (0x40)
1:  j 1b
