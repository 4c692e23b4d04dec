# hang.S - waits forever for a packet that never comes
    .globl _start
_start:
    li t0, 0x10001800
    lw t1, 0x1c(t0)          # NI receive WAIT: stalls until a packet arrives
    j _start
