# sdk: the firmware developer's experience (docs/firmware.md) - user images
# built like an SDK's (several sources, user flags, build/user/), the C
# library against the host's, ELF flags the cores cannot run, and the bugs
# the emulator names early: endless loops (spin watchdog), stack overflows
# (stack guard), posted receives nobody matches (the NI's messages named)
source tests/lib.sh
U=build/user
img() { make -s image "$@" >/dev/null 2>"$TMP/make.err"; }
con() { sed -n 's/^\[node 0\] //p'; } # node 0's console lines

# Two sources, string.h, stdlib.h, assert.h and printf's conversions: the
# core prints byte for byte what the host's C library prints.
if img SRC="tests/sdk/hello.c tests/sdk/util.c" NAME=sdk-hello && [ -f $U/sdk-hello.elf ]; then ok sdk-two-sources
else fail sdk-two-sources "$(head -3 "$TMP/make.err")"; fi
cc -std=c11 -w -o "$TMP/host" tests/sdk/hello.c tests/sdk/util.c && "$TMP/host" >"$TMP/host.out"
$XNOC run --topo mesh:1x1 $U/sdk-hello.elf 2>&1 | con >"$TMP/core.out"
if [ -s "$TMP/host.out" ] && cmp -s "$TMP/host.out" "$TMP/core.out"; then ok sdk-printf-as-host
else fail sdk-printf-as-host "$(diff "$TMP/host.out" "$TMP/core.out" | head -4 | tr '\n' '|')"; fi
grep -qx '42   |0000beef|xnoc-sdk' "$TMP/core.out" && ok sdk-printf-width-flags || fail sdk-printf-width-flags "$(head -1 "$TMP/core.out")"

# a wrong printf argument is a compile error, not a silent '?'
img SRC=tests/sdk/badfmt.c NAME=sdk-badfmt; rc=$?
[ $rc != 0 ] && grep -q "format specifies type 'int' but the argument has type 'char \*'" "$TMP/make.err" && [ ! -e $U/sdk-badfmt.elf ] \
    && ok sdk-format-checked || fail sdk-format-checked "exit $rc: $(head -2 "$TMP/make.err" | tr '\n' ' ')"

# a user image called hello.c lands in build/user/, never on the shipped one
sum0=$(md5sum < build/firmware/hello.elf)
mkdir -p "$TMP/u" && printf '#include <stdio.h>\nint main(void) { printf("mine %%d\\n", N); return 0; }\n' >"$TMP/u/hello.c"
img SRC="$TMP/u/hello.c" CFLAGS="-DN=17 -O1"
[ "$(md5sum < build/firmware/hello.elf)" = "$sum0" ] && ok sdk-shipped-unchanged || fail sdk-shipped-unchanged "build/firmware/hello.elf changed"
# the user's flags are added (-DN=17), the shipped ones kept (-Werror: an unused variable fails)
out=$($XNOC run --topo mesh:1x1 $U/hello.elf 2>&1 | con)
[ "$out" = "mine 17" ] && ok sdk-user-cflags || fail sdk-user-cflags "'$out'"
printf 'int main(void) { int unused; return 0; }\n' >"$TMP/u/unused.c"
img SRC="$TMP/u/unused.c" CFLAGS=-O0; rc=$?
[ $rc != 0 ] && grep -q "unused variable" "$TMP/make.err" && ok sdk-shipped-flags-kept || fail sdk-shipped-flags-kept "exit $rc"
img SRC="$TMP/u/nothere.c"; rc=$?
[ $rc = 2 ] && grep -qx "make image: $TMP/u/nothere.c: no such file" "$TMP/make.err" && ok sdk-missing-source \
    || fail sdk-missing-source "exit $rc: $(head -1 "$TMP/make.err")"
img SRC="$TMP/u/hello.c" NAME=a/b; rc=$?
[ $rc = 2 ] && grep -q "NAME=a/b: a name, not a path" "$TMP/make.err" && ok sdk-name-not-path || fail sdk-name-not-path "exit $rc"
# the old usage: OUT= names the file
img SRC="$TMP/u/hello.c" CFLAGS=-DN=3 OUT="$TMP/u/x.elf" && [ "$($XNOC run --topo mesh:1x1 "$TMP/u/x.elf" 2>&1 | con)" = "mine 3" ] \
    && ok sdk-out-path || fail sdk-out-path "$(head -1 "$TMP/make.err")"

# double and float without F/D: libgcc's soft float (rv32im multilib, and
# rv32imac's with MARCH=), byte for byte what the host prints
cc -std=c11 -Wall -Werror -O2 -o "$TMP/dbl-host" tests/sdk/double.c && "$TMP/dbl-host" >"$TMP/dbl-host.out"
for m in rv32im rv32imac; do
    if img SRC=tests/sdk/double.c NAME=sdk-double-$m MARCH=$m; then
        $XNOC run --topo mesh:1x1 $U/sdk-double-$m.elf 2>&1 | con >"$TMP/dbl.out"
        if [ -s "$TMP/dbl-host.out" ] && cmp -s "$TMP/dbl-host.out" "$TMP/dbl.out"; then ok "sdk-double-$m"
        else fail "sdk-double-$m" "$(diff "$TMP/dbl-host.out" "$TMP/dbl.out" | head -4 | tr '\n' '|')"; fi
    else fail "sdk-double-$m" "$(head -2 "$TMP/make.err" | tr '\n' ' ')"; fi
done
# MARCH= reaches the compiler: the rv32imac image has RVC's ELF flag, rv32im's not
flags() { od -An -tx4 -j36 -N4 "$1" | tr -d ' '; }
[ "$(flags $U/sdk-double-rv32imac.elf)" = 00000001 ] && [ "$(flags $U/sdk-double-rv32im.elf)" = 00000000 ] \
    && ok sdk-march || fail sdk-march "e_flags $(flags $U/sdk-double-rv32imac.elf) / $(flags $U/sdk-double-rv32im.elf)"

# compressed and atomic instructions run (the SDK and runtime built for rv32imac)
img SRC="$TMP/u/hello.c" CFLAGS="-DN=1 -march=rv32imac" NAME=sdk-rvc
out=$($XNOC run --topo mesh:1x1 $U/sdk-rvc.elf 2>&1 | con)
[ "$out" = "mine 1" ] && ok sdk-rv32imac || fail sdk-rv32imac "'$out'"
# the hard-float ABIs run: -mabi=ilp32d and ilp32f images print as the host does
for m in "rv32imafdc ilp32d" "rv32imafc ilp32f"; do
    set -- $m
    if img SRC=tests/sdk/double.c NAME=sdk-double-$2 MARCH=$1 MABI=$2; then
        $XNOC run --topo mesh:1x1 $U/sdk-double-$2.elf 2>&1 | con >"$TMP/dbl.out"
        if [ -s "$TMP/dbl-host.out" ] && cmp -s "$TMP/dbl-host.out" "$TMP/dbl.out"; then ok "sdk-double-$2"
        else fail "sdk-double-$2" "$(diff "$TMP/dbl-host.out" "$TMP/dbl.out" | head -4 | tr '\n' '|')"; fi
    else fail "sdk-double-$2" "$(head -2 "$TMP/make.err" | tr '\n' ' ')"; fi
done
# the NI driver and runtime under other -march values: examples/sum.c's
# messages on a 2x2 mesh, compressed and hard-float
for m in "rv32imac ilp32" "rv32imafdc ilp32d"; do
    set -- $m
    if img SRC=examples/sum.c NAME=sdk-sum-$1 MARCH=$1 MABI=$2; then
        out=$($XNOC run --topo mesh:2x2 $U/sdk-sum-$1.elf 2>&1 | con)
        case "$out" in "sum of 3 ids = 6 (expected 6) in "*" cycles") ok "sdk-ni-$1" ;; *) fail "sdk-ni-$1" "'$out'" ;; esac
    else fail "sdk-ni-$1" "$(head -2 "$TMP/make.err" | tr '\n' ' ')"; fi
done
# an extension the cores lack: refused, one line naming it and the -march
img SRC="$TMP/u/hello.c" CFLAGS="-DN=1 -march=rv32im_zba" NAME=sdk-zba
check_fail sdk-elf-extension 2 "^xnoc run: build/user/sdk-zba.elf: built for the 'zba' extension \(.riscv.attributes: rv32i2p0_m2p0_zba1p0\): xnoc cores are RV32IMAFDC: build with -march=rv32imafdc \(or a subset\) -mabi=ilp32d \(or ilp32f, ilp32\)$" \
    $XNOC run --topo mesh:1x1 $U/sdk-zba.elf

# An endless loop on node 3 of fat-octagon while the other 15 exit (at
# cycle 26): the spin watchdog names node, PC, function and line within
# 100,000 cycles of their exit, with the default settings.
img SRC=tests/sdk/spin.c NAME=sdk-spin
check_fail sdk-spin-named 1 "^xnoc run: node 3 loops at PC 0x8[0-9a-f]{7} <main\+0x[0-9a-f]+ spin.c:9> \(cycle [0-9]+\): no device access \(reads of an unchanged register or a clock aside\), no new RAM page and no NI traffic for [0-9]+ cycles while every other node has exited or waits \(--spin-watchdog N sets the limit, 0 turns it off\)$" \
    $XNOC run --topo fat-octagon $U/sdk-spin.elf
j=$($XNOC run --json --topo fat-octagon $U/sdk-spin.elf 2>/dev/null)
jcheck sdk-spin-within-100k "$j" '([.nodes[]|select(.node!=3)|.cycles]|max) as $x | .ok==false and .nodes[3].state=="faulted" and .cycles - $x < 100000 and (.error|test("node 3 loops"))'
# node 3 polls noc_poll() for a message nobody sends (tests/sdk/poll.c), or reads the cycle counter
# until 2^40: a read that returns what the register returned last time, or a clock, is no
# progress, so the watchdog stops both within its window (default 50,000 cycles, checked every 256)
img SRC=tests/sdk/poll.c NAME=sdk-poll
check_fail sdk-poll-named 1 "^xnoc run: node 3 loops at PC 0x8[0-9a-f]{7} <main\+0x[0-9a-f]+ poll.c:13> \(cycle [0-9]+\): no device access \(reads of an unchanged register or a clock aside\)" \
    $XNOC run --topo fat-octagon $U/sdk-poll.elf
j=$($XNOC run --json --topo fat-octagon $U/sdk-poll.elf 2>/dev/null)
jcheck sdk-poll-within-window "$j" '([.nodes[]|select(.node!=3)|.cycles]|max) as $x | .ok==false and .nodes[3].state=="faulted" and .cycles - $x <= 50000 + 512'
img SRC=tests/sdk/poll.c NAME=sdk-clock CFLAGS=-DCLOCK
check_fail sdk-clock-named 1 "^xnoc run: node 3 loops at PC 0x8[0-9a-f]{7} <main\+0x[0-9a-f]+ poll.c:10> " $XNOC run --topo fat-octagon $U/sdk-clock.elf
# a double in firmware: the link error names the soft-float routine, and one line says what it is
printf '#include <stdio.h>\nvolatile double a = 1.5;\nint main(void) { printf("%%d\\n", (int)(a * 3.0)); return 0; }\n' >"$TMP/u/dbl.c"
img SRC="$TMP/u/dbl.c" NAME=sdk-double; rc=$?
# (once a soft-float library is linked, the image must compute 1.5 x 3 = 4 after truncation instead)
if [ $rc = 0 ]; then [ "$($XNOC run --topo mesh:1x1 $U/sdk-double.elf 2>&1 | con)" = 4 ] && ok sdk-double-explained || fail sdk-double-explained "linked, but does not print 4"; else
[ $rc != 0 ] && grep -qx "make image: __muldf3 is the C compiler's software floating point (a float or double operation): xnoc's cores are RV32IM without an FPU and this image links no soft-float library; use integers or fixed point" "$TMP/make.err" \
    && [ ! -e $U/sdk-double.elf.err ] && ok sdk-double-explained || fail sdk-double-explained "exit $rc: $(tail -2 "$TMP/make.err" | tr '\n' ' ')"; fi
# the limit is a flag: --spin-watchdog 2000 stops it 2,000-2,256 cycles after the loop began
j=$($XNOC run --json --topo fat-octagon --spin-watchdog 2000 $U/sdk-spin.elf 2>/dev/null)
jcheck sdk-spin-flag "$j" '.cycles < 2400 and (.error|test("for 2[0-9]{3} cycles"))'
# every node computing (compute.elf: matrix products on the same pages,
# ~80,000 cycles between device accesses) is work, not a hang nobody can end
j=$($XNOC run --json --topo mesh:2x2 --arg 0=2 build/firmware/compute.elf 2>/dev/null)
jcheck sdk-spin-not-compute "$j" '.ok==true and .cycles > 100000 and .exit_codes==[0,0,0,0]'
# and 0 turns it off: --max-cycles ends the run
check_fail sdk-spin-off 1 "^xnoc run: --max-cycles 60000 reached with 1 node\(s\) running: node 3 is running at PC 0x8[0-9a-f]{7} <main\+0x[0-9a-f]+ spin.c:9>$" \
    $XNOC run --topo fat-octagon --spin-watchdog 0 --max-cycles 60000 $U/sdk-spin.elf

# A recursion 1 KiB deeper than the stack: stopped at the first frame below
# __stack_bottom, right after its sp moved (recurse+0x4), before any store
# into it - so before any global is overwritten.  1 KiB shallower, it
# finishes and finds its globals next to the stack intact.
img SRC=tests/sdk/deep.c NAME=sdk-deep
check_fail sdk-stack-overflow 1 "^xnoc run: stack overflow on node 0 \(sp 0x8[0-9a-f]{7}, limit 0x8[0-9a-f]{7}\) at PC 0x8[0-9a-f]{7} <recurse\+0x4 deep.c:[0-9]+>, cycle [0-9]+: the stack grew down past __stack_bottom" \
    $XNOC run --topo mesh:1x1 $U/sdk-deep.elf
err=$($XNOC run --topo mesh:1x1 $U/sdk-deep.elf 2>&1 >/dev/null)
sp=$(sed -n 's/.*(sp \(0x[0-9a-f]*\), limit \(0x[0-9a-f]*\)).*/\1/p' <<<"$err"); lim=$(sed -n 's/.*(sp \(0x[0-9a-f]*\), limit \(0x[0-9a-f]*\)).*/\2/p' <<<"$err")
bottom=$(llvm-nm $U/sdk-deep.elf | sed -n 's/^\([0-9a-f]*\) . __stack_bottom$/0x\1/p')
[ -n "$sp" ] && [ "$lim" = "$bottom" ] && [ $((sp)) -lt $((lim)) ] && [ $((lim - sp)) -le 128 ] \
    && ok sdk-stack-first-frame || fail sdk-stack-first-frame "sp $sp limit $lim __stack_bottom $bottom"
out=$($XNOC run --topo mesh:1x1 --arg over=0 $U/sdk-deep.elf 2>&1); rc=$?
[ $rc = 0 ] && grep -q "^\[node 0\] depth [0-9]* sum [0-9]* globals 5 0$" <<<"$out" && ok sdk-stack-fits || fail sdk-stack-fits "exit $rc: $(head -1 <<<"$out")"

# A posted receive for the wrong tag: the diagnosis names the messages the
# NI holds (source, tag, length) beside the posted receive they missed.
check_fail sdk-posted-wrong-tag 1 "node 0 is waiting for posted receives \(counter at 0x8[0-9a-f]{7} is 0 of 1; 1 posted, not matched\) at PC 0x8[0-9a-f]{7} <noc_ct_wait\+0x[0-9a-f]+ noc.c:[0-9]+> \(its receive ring holds 2 unread message\(s\) that matched no posted receive: \(source 1, tag 7, 64 bytes\), \(source 1, tag 8, 16 bytes\); posted, not matched: \(source 1, tag 9, 64 bytes\)\)$" \
    $XNOC run --topo mesh:2x2 --arg case=9 build/firmware/posted.elf
# sixteen nodes in sixteen different states: one line of ~5,000 characters,
# nothing cut (every node's own posted receive and held message named, and
# the line ends where the last node's description ends)
img SRC=tests/sdk/stuck.c NAME=sdk-stuck
$XNOC run --topo mesh:4x4 $U/sdk-stuck.elf >/dev/null 2>"$TMP/stuck"; rc=$?
miss=""
for i in $(seq 0 15); do
    grep -q "node $i is waiting for posted receives .*(its receive ring holds 1 unread message(s) that matched no posted receive: (source $(( (i + 1) % 16 )), tag $((201 + i - (i == 15 ? 16 : 0)))" "$TMP/stuck" || miss="$miss $i"
    grep -q "posted, not matched: (source $(( (i + 1) % 16 )), tag $((100 + i)), 64 bytes))" "$TMP/stuck" || miss="$miss p$i"
done
[ $rc = 1 ] && [ -z "$miss" ] && [ "$(grep -c . "$TMP/stuck")" = 1 ] && grep -q 'tag 115, 64 bytes))$' "$TMP/stuck" \
    && ok sdk-diagnosis-uncut || fail sdk-diagnosis-uncut "exit $rc, missing:$miss, $(wc -c <"$TMP/stuck") bytes"
j=$($XNOC run --json --topo mesh:4x4 $U/sdk-stuck.elf 2>/dev/null)
jcheck sdk-diagnosis-uncut-json "$j" '(.error|length) > 4000 and (.error|endswith("tag 115, 64 bytes))"))'

# --json carries what the firmware printed (each node's last 32 lines) and
# the exit status: the two-source image's lines are the host's lines
j=$($XNOC run --json --topo mesh:1x1 $U/sdk-hello.elf 2>/dev/null)
jcheck sdk-json-console "$j" "(.nodes[0].console == $(jq -R . "$TMP/host.out" | jq -s -c .)) and .nodes[0].console_dropped == 0 and .exit_status == 0"
img SRC=tests/sdk/chatty.c NAME=sdk-chatty
j=$($XNOC run --json --topo mesh:2x2 $U/sdk-chatty.elf 2>/dev/null); rc=$?
jcheck sdk-json-console-bounded "$j" '.nodes[0].console == [range(8;40)|"line \(.)"] and .nodes[0].console_dropped == 8 and .nodes[1].console == [] and .exit_status == 1 and .exit_codes == [3,0,0,0] and .ok == false'
[ $rc = 1 ] && ok sdk-json-exit-status-matches || fail sdk-json-exit-status-matches "exit $rc"
