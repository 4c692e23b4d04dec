# ni-badgo.S - a DMA send of a buffer outside RAM: the NI refuses the GO
# store (an access fault naming the reason), no trap handler
    .globl _start
_start:
    li t0, 0x10001000        # NI send channel 0
    li t1, 0x40000000
    sw t1, 0x10(t0)          # ADDR: not RAM
    li t1, 16
    sw t1, 0x14(t0)          # LEN
    sw t1, 0x1c(t0)          # GO
1:  j 1b
