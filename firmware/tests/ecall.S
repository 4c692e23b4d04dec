# ecall.S - an environment call with no trap handler
    .globl _start
_start:
    ecall
