/* htif.S - Spike's HTIF syscall proxy (sim_harness/core/htif.h), the way
 * riscv-tests' benchmarks/common/syscalls.c drives it: 64-bit magic_mem
 * { n, a0, a1, a2 }, tohost = its address, wait for fromhost != 0, clear
 * it, read the return value from magic_mem[0].
 *
 * Prints "hello from hart N via HTIF" (N = mhartid) through SYS_write,
 * checks the answers of the error paths, then ends with
 * SYS_exit(EXIT_CODE) (default 0).  A wrong answer ends with
 * tohost = (check << 1) | 1 instead.  BADBLOCK=1 writes an address outside
 * RAM to tohost instead (the harness must refuse it with one line).
 */
#ifndef EXIT_CODE
#define EXIT_CODE 0
#endif
#define MSG_LEN 27 /* "hello from hart N via HTIF\n" */
#define SYS_READ 63
#define SYS_WRITE 64
#define SYS_CLOSE 57
#define SYS_LSEEK 62
#define SYS_EXIT 93
#define SYS_GETMAINVARS 2011
/* syscall n (a1..a3 set by the caller); a0 = low word of the answer, a1 = high word */
#define SYSCALL(n) li a0, n; call syscall
#define EXPECT(check, lo, hi) li gp, check; li t6, lo; bne a0, t6, fail; li t6, hi; bne a1, t6, fail

    .section .text.start, "ax"
    .globl _start
_start:
    la sp, stack_top
#if BADBLOCK
    li t0, 0x40
    la t1, tohost
    sw t0, 0(t1)
1:  j 1b
#endif
    /* the message's digit = hart id */
    csrr t0, mhartid
    addi t0, t0, '0'
    la t1, digit
    sb t0, 0(t1)

    li a1, 1
    la a2, msg
    li a3, MSG_LEN
    SYSCALL(SYS_WRITE)
    EXPECT(1, MSG_LEN, 0)

    li a1, 7                      /* no such fd: -EBADF */
    la a2, msg
    li a3, 1
    SYSCALL(SYS_WRITE)
    EXPECT(2, -9, -1)

    li a1, 2                      /* a buffer outside RAM: -EFAULT */
    li a2, 0x1000
    li a3, 4
    SYSCALL(SYS_WRITE)
    EXPECT(3, -14, -1)

    li a1, 0                      /* stdin reads end of file */
    la a2, scratch
    li a3, 8
    SYSCALL(SYS_READ)
    EXPECT(4, 0, 0)

    li a1, 1
    SYSCALL(SYS_CLOSE)
    EXPECT(5, 0, 0)

    li a1, 1
    SYSCALL(SYS_LSEEK)
    EXPECT(6, -29, -1)            /* -ESPIPE */

    SYSCALL(1234)                 /* unknown: -ENOSYS */
    EXPECT(7, -38, -1)

    li t0, -1                     /* getmainvars: argc = 0, argv[0] = envp[0] = NULL */
    la t1, scratch
    sw t0, 0(t1)
    sw t0, 20(t1)
    mv a1, t1
    li a2, 24
    SYSCALL(SYS_GETMAINVARS)
    EXPECT(8, 0, 0)
    lw a0, 0(t1)
    lw a1, 20(t1)
    EXPECT(9, 0, 0)

    /* fromhost was cleared by us after every answer; tohost by the host */
    la t1, tohost
    lw a0, 0(t1)
    li a1, 0
    EXPECT(10, 0, 0)

    li a1, EXIT_CODE
    SYSCALL(SYS_EXIT)
    li gp, 11                     /* SYS_exit came back: a failure */
fail:
    slli gp, gp, 1
    ori gp, gp, 1
    la t1, tohost
    sw gp, 0(t1)
1:  j 1b

/* a0 = n, a1..a3 = arguments -> a0/a1 = magic_mem[0] */
syscall:
    la t0, magic
    sw a0, 0(t0)
    sw zero, 4(t0)
    sw a1, 8(t0)
    sw zero, 12(t0)
    sw a2, 16(t0)
    sw zero, 20(t0)
    sw a3, 24(t0)
    sw zero, 28(t0)
    fence
    la t1, tohost
    sw t0, 0(t1)
    sw zero, 4(t1)
    la t1, fromhost
1:  lw t2, 0(t1)
    beqz t2, 1b
    sw zero, 0(t1)
    fence
    lw a0, 0(t0)
    lw a1, 4(t0)
    ret

    .section .tohost, "aw"
    .align 6
    .globl tohost
tohost: .dword 0
    .globl fromhost
fromhost: .dword 0

    .data
msg: .ascii "hello from hart "
digit: .ascii "?"
    .ascii " via HTIF\n"
msg_end:
    .align 6
magic: .zero 64
scratch: .zero 32
    .bss
    .align 4
    .zero 1024
stack_top:
