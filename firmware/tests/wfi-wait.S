# wfi-wait.S - sets up a receive ring, enables the NI interrupt and sleeps
# in wfi for a packet that never comes (for the --max-cycles report)
    .globl _start
_start:
    li t0, 0x10001800        # NI receive registers
    li t1, 0x80001000
    sw t1, 0x00(t0)          # RING_BASE
    li t1, 256
    sw t1, 0x04(t0)          # RING_SIZE
    li t1, 1
    sw t1, 0x14(t0)          # IRQ_EN
    li t1, 0x800
    csrs mie, t1             # MEIE
1:  wfi
    j 1b
