# htif: Spike's HTIF syscall proxy on every node of a network
# (sim_harness/core/htif.c; the program tests/htif/htif.S checks the answers
# of write, read, close, lseek, getmainvars and an unknown call itself and
# fails with tohost = (check << 1) | 1 if one is wrong).
source tests/lib.sh
RVCC="clang --target=riscv32-unknown-elf -march=rv32im -mabi=ilp32 -mno-relax -nostdlib -fuse-ld=lld"
htif() { $RVCC "$@" -Wl,-T,tests/isa/link.ld -o "$TMP/htif.elf" tests/htif/htif.S; }

# every node prints its own line through SYS_write and exits through SYS_exit
htif
out=$($XNOC run --topo mesh:2x2 --console-dir "$TMP/con" "$TMP/htif.elf" 2>&1 >/dev/null)
for i in 0 1 2 3; do
    if [ "$(cat "$TMP/con/node$i.txt")" = "hello from hart $i via HTIF" ]; then ok "htif-console-node$i"
    else fail "htif-console-node$i" "$(head -c 200 "$TMP/con/node$i.txt") $out"; fi
done
j=$($XNOC run --json --topo mesh:2x2 "$TMP/htif.elf" 2>/dev/null)
jcheck htif-exit-json "$j" '.ok==true and ([.nodes[].exit_code]==[0,0,0,0]) and ([.nodes[].instructions]|unique)==[321]'

# SYS_exit(3) is the node's exit code: the run fails naming it
htif -DEXIT_CODE=3
check_fail htif-exit-code 1 "^xnoc run: node 0 exited with 3$" $XNOC run --topo mesh:2x1 "$TMP/htif.elf"

# an even tohost value that is no RAM address: one line, exit 1, under ASan too
htif -DBADBLOCK=1
check_fail htif-bad-block 1 "^xnoc run: node 0 at PC 0x800000(1[0-9a-f]|[0-9a-f]), cycle [0-9]+: tohost: syscall block at 0x00000040 lies outside RAM 0x80000000-0x80040000" \
    $XNOC run --topo mesh:1x1 "$TMP/htif.elf"
check_fail htif-bad-block-asan 1 "tohost: syscall block at 0x00000040 lies outside RAM" $XNOC_ASAN run --topo mesh:1x1 "$TMP/htif.elf"
