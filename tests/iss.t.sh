# iss: the RV32IMAFDC core on its own (tests/iss_driver.c, one core, no network):
# the tests/isa programs, the benchmark's checksum against the host, fault
# reports, and the ELF loader's error lines.
source tests/lib.sh
RVCC="clang --target=riscv32-unknown-elf -march=rv32im -mabi=ilp32 -mno-relax -nostdlib -fuse-ld=lld"
unit_bin DRV iss_driver || exit 0

# Self-checking programs: tohost = 1 pass, (n << 1) | 1 = check n failed.
for src in tests/isa/*.S; do
    name=isa-$(basename "$src" .S)
    # a program's "# march: ..." line names the extensions it is written for
    march=$(sed -n 's/^# march: //p' "$src")
    if ! $RVCC ${march:+-march=$march} -Itests/isa -Wl,-T,tests/isa/link.ld -o "$TMP/$name.elf" "$src" 2>"$TMP/cc.log"; then
        fail "$name" "does not assemble: $(head -2 "$TMP/cc.log" | tr '\n' ' ')"
        continue
    fi
    if out=$("$DRV" -n 2000000 "$TMP/$name.elf" 2>&1) && [ "${out%% *}" = pass ]; then ok "$name"
    else fail "$name" "$out"; fi
done

# The benchmark computes the same checksum as the host compiler's build.
$RVCC -O2 -ffreestanding -fno-builtin -DROUNDS=20 -Wl,-T,tests/isa/link.ld -o "$TMP/bench.elf" firmware/bench/bench.c 2>"$TMP/cc.log" \
    && cc -O2 -DHOST -o "$TMP/bench-host" firmware/bench/bench.c 2>>"$TMP/cc.log"
want=$("$TMP/bench-host" 20)
got=$("$DRV" "$TMP/bench.elf" 2>&1 | head -1)
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok bench-checksum; else fail bench-checksum "core says '$got', host '$want'"; fi

# A trap with no handler installed stops the core with one line.
prog() { printf '    .globl _start\n_start:\n%s\n' "$2" >"$TMP/$1.S" && $RVCC -Wl,-T,tests/isa/link.ld -o "$TMP/$1.elf" "$TMP/$1.S"; }
prog illegal '    nop
    .word 0xffffffff'
check_fail fault-illegal 1 "^iss: illegal instruction 0xffffffff at PC 0x80000004 \(cycle 2\)$" "$DRV" "$TMP/illegal.elf"
prog badstore '    li t0, 0x40000000
    sw t0, 8(t0)'
check_fail fault-store 1 "^iss: store access fault at address 0x40000008 \(PC 0x80000004, instruction 0x0052a423\)" "$DRV" "$TMP/badstore.elf"
prog ebreak '    ebreak'
check_fail fault-ebreak 1 "^iss: breakpoint \(mcause 0x3\) at PC 0x80000000" "$DRV" "$TMP/ebreak.elf"
prog tohostfail '    li t0, 7
    la t1, tohost
    sw t0, 0(t1)
1:  j 1b
    .data
    .globl tohost
tohost: .word 0'
check_fail tohost-fail 1 "^iss: tohost: test 3 failed" "$DRV" "$TMP/tohostfail.elf"
# a 32-bit instruction in RAM's last halfword cannot be fetched
prog lasthalf '    li t0, 0x8003fffe
    li t1, 0x13
    sh t1, 0(t0)
    jr t0'
check_fail fault-fetch-last-halfword 1 "^iss: instruction access fault at address 0x8003fffe \(PC 0x8003fffe, instruction 0x00000013\)" "$DRV" "$TMP/lasthalf.elf"
prog spin '1:  j 1b'
check_fail no-tohost 1 "^iss: no tohost after" "$DRV" -n 1000 "$TMP/spin.elf"

# ELF loader: one clear line per kind of bad input
check_fail elf-x86 2 "iss_driver: an ELF for x86-64 \(machine 62\), not RISC-V: build it for the cores \(docs/firmware.md\)$" "$DRV" "$DRV"
printf 'int main(void){return 0;}' >"$TMP/x.c"
clang --target=riscv64-unknown-elf -march=rv64im -nostdlib -fuse-ld=lld -Wl,-e,main -o "$TMP/rv64.elf" "$TMP/x.c" 2>/dev/null
check_fail elf-64bit 2 "rv64.elf: a 64-bit ELF; xnoc cores are RV32" "$DRV" "$TMP/rv64.elf"
printf 'this is not an ELF file at all\n' >"$TMP/garbage"
check_fail elf-garbage 2 "garbage: not an ELF file$" "$DRV" "$TMP/garbage"
: >"$TMP/empty"
check_fail elf-empty 2 "empty: not an ELF file$" "$DRV" "$TMP/empty"
check_fail elf-missing 2 "nosuch.elf: No such file or directory$" "$DRV" "$TMP/nosuch.elf"
$RVCC -c -o "$TMP/obj.o" "$TMP/spin.S" 2>/dev/null
check_fail elf-object 2 "obj.o: not an executable \(ELF type 1; link it first\)$" "$DRV" "$TMP/obj.o"
$RVCC -Wl,-Ttext=0x1000 -o "$TMP/low.elf" "$TMP/spin.S"
check_fail elf-outside-ram 2 "low.elf: segment [0-9]+ at 0x000[0-9a-f]{5}-0x000[0-9a-f]{5} lies outside RAM 0x80000000-0x80040000" "$DRV" "$TMP/low.elf"
# the image is larger than a 4 KiB RAM: the segment's end lies past RAM
check_fail elf-too-big 2 "bench.elf: segment [0-9]+ at 0x800[0-9a-f]{5}-0x800[0-9a-f]{5} lies outside RAM 0x80000000-0x80001000" "$DRV" -r 4 "$TMP/bench.elf"

# HTIF syscalls (tests/htif/htif.S checks every answer itself): SYS_write
# prints, SYS_exit(n) ends like tohost = (n << 1) | 1, a block outside RAM
# is refused with one line.
htif() { $RVCC "$@" -Wl,-T,tests/isa/link.ld -o "$TMP/htif.elf" tests/htif/htif.S; }
htif
out=$("$DRV" "$TMP/htif.elf" 2>&1)
if [ "$out" = "hello from hart 0 via HTIF
pass (321 instructions)" ]; then ok htif-write-exit; else fail htif-write-exit "$out"; fi
htif -DEXIT_CODE=3
check_fail htif-exit-code 1 "^iss: tohost: test 3 failed \(tohost = 0x7\)$" "$DRV" "$TMP/htif.elf"
htif -DBADBLOCK=1
check_fail htif-bad-block 1 "^iss: tohost: syscall block at 0x00000040 lies outside RAM 0x80000000-0x80040000" "$DRV" "$TMP/htif.elf"
