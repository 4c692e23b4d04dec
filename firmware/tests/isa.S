# isa.S - self-checking RV32IM + Zicsr edge cases (xnoc's own tests).
# Ends by storing to tohost: 1 = pass, (n << 1) | 1 = check n failed.
# Every check: compute into a0, expect a1; t6 holds the check number.
    .section .text
    .globl _start
#define CHECK(n, exp) li t6, n; li a1, exp; bne a0, a1, fail
_start:
    la      t0, trap
    csrw    mtvec, t0
    # --- M extension corner cases
    li a2, 7;  li a3, 0;  div  a0, a2, a3;   CHECK(1, -1)        # div by zero = -1
    li a2, 7;  li a3, 0;  divu a0, a2, a3;   CHECK(2, -1)        # divu by zero = 2^32-1
    li a2, 7;  li a3, 0;  rem  a0, a2, a3;   CHECK(3, 7)         # rem by zero = dividend
    li a2, 7;  li a3, 0;  remu a0, a2, a3;   CHECK(4, 7)
    li a2, 0x80000000; li a3, -1; div a0, a2, a3; CHECK(5, 0x80000000)  # overflow
    li a2, 0x80000000; li a3, -1; rem a0, a2, a3; CHECK(6, 0)
    li a2, -7; li a3, 2;  div  a0, a2, a3;   CHECK(7, -3)        # rounds toward zero
    li a2, -7; li a3, 2;  rem  a0, a2, a3;   CHECK(8, -1)
    li a2, -1; li a3, -1; mulh a0, a2, a3;   CHECK(9, 0)
    li a2, -1; li a3, -1; mulhu a0, a2, a3;  CHECK(10, -2)
    li a2, -1; li a3, -1; mulhsu a0, a2, a3; CHECK(11, -1)
    li a2, 0x80000000; li a3, 0x80000000; mulh a0, a2, a3; CHECK(12, 0x40000000)
    li a2, 0x12345678; li a3, 0x9abcdef0; mul a0, a2, a3; CHECK(13, 0x242d2080)
    # --- shifts by register use the low 5 bits only
    li a2, 1;  li a3, 33; sll a0, a2, a3;    CHECK(14, 2)
    li a2, 0x80000000; li a3, 63; sra a0, a2, a3; CHECK(15, -1)
    li a2, 0x80000000; li a3, 32; srl a0, a2, a3; CHECK(16, 0x80000000)
    # --- compares
    li a2, -1; li a3, 1;  slt a0, a2, a3;    CHECK(17, 1)
    li a2, -1; li a3, 1;  sltu a0, a2, a3;   CHECK(18, 0)
    li a2, 5;  sltiu a0, a2, -1;             CHECK(19, 1)      # imm sign-extends, then unsigned
    # --- x0 stays zero
    li a2, 5; add x0, a2, a2; mv a0, x0;     CHECK(20, 0)
    # --- misaligned loads and stores complete (as on Spike)
    la a2, buf
    li a3, 0x11223344; sw a3, 1(a2); lw a0, 1(a2); CHECK(21, 0x11223344)
    lhu a0, 3(a2);                           CHECK(22, 0x1122)
    li a3, 0xbeef; sh a3, 5(a2); lh a0, 5(a2); CHECK(23, 0xffffbeef)
    lbu a0, 4(a2);                           CHECK(24, 0x11)
    # --- CSRs
    csrr a0, misa;                           CHECK(25, 0x4000112d)
    csrr a0, mhartid;                        CHECK(26, 0)
    li a2, 0x55; csrw mscratch, a2; csrrs a0, mscratch, x0; CHECK(27, 0x55)
    li a2, 0x0f; csrrc a0, mscratch, a2; csrr a0, mscratch; CHECK(28, 0x50)
    csrrwi a0, mscratch, 9; csrr a0, mscratch; CHECK(29, 9)
    # unimplemented CSR -> illegal instruction, mcause 2, mtval = the instruction
    li s0, 0
    csrr a0, 0x7c0
    mv a0, s0;                               CHECK(30, 2)       # trap handler counted cause
    csrr a0, mtval; li a1, 0x7c002573; bne a0, a1, fail
    # writing a read-only CSR is illegal too
    li s0, 0
    csrw mhartid, x0
    mv a0, s0;                               CHECK(31, 2)
    # ecall / ebreak trap with the right cause and mepc
    li s0, 0
    ecall
    mv a0, s0;                               CHECK(32, 11)
    li s0, 0
1:  ebreak
    mv a0, s0;                               CHECK(33, 3)
    csrr a0, mtval; la a1, 1b; bne a0, a1, fail
    # jump to a target 2 mod 4: legal with C (IALIGN = 16), no trap
    li s0, 0
    la a2, 2f
    addi a2, a2, 2
    jalr x0, 0(a2)
2:  .half 0x0001                             # c.nop (jumped over)
    .half 0x0001                             # c.nop (the target)
    mv a0, s0;                               CHECK(34, 0)
    # minstret counts retired instructions
    csrr a2, minstret; nop; nop; csrr a3, minstret; sub a0, a3, a2; CHECK(35, 3)
    # --- self-modifying code: patch an instruction, fence.i, run it
    la a2, patch
    li a3, 0x02a00513                        # addi a0, zero, 42
    sw a3, 0(a2)
    fence.i
patch:
    addi a0, zero, 1
    CHECK(36, 42)
    # --- branches
    li a2, -1; li a3, 1; li a0, 0; bltu a3, a2, 3f; li a0, 1
3:  CHECK(37, 0)
    li a0, 1; jal ra, 4f; li a0, 0
4:  CHECK(38, 1)
pass:
    li a0, 1
    la t0, tohost
    sw a0, 0(t0)
5:  j 5b
fail:
    slli a0, t6, 1
    ori a0, a0, 1
    la t0, tohost
    sw a0, 0(t0)
6:  j 6b

# trap handler: s0 = mcause; skip the trapping instruction (mepc + 4), or
# for a misaligned jump return to the instruction after the jalr
    .align 2
trap:
    csrr s0, mcause
    li t1, 0
    beq s0, t1, 7f
    csrr t1, mepc
    addi t1, t1, 4
    csrw mepc, t1
    mret
7:  csrr t1, mepc                            # mepc = the jalr; continue after it
    addi t1, t1, 4
    csrw mepc, t1
    mret

    .data
    .align 3
buf: .zero 16
    .align 6
    .globl tohost
tohost: .word 0
    .word 0
