# outside-ram.S - linked at 0x1000, outside node RAM: the loader must refuse it
    .globl _start
_start:
    j _start
