# config: `xnoc traffic --config F` (cmd/config_file.c, cmd/booksim_cfg.c):
# key = value files with traffic's options or BookSim2's keys become the
# same options as the command line, the command line overrides the file;
# bad files (missing, a directory, binary, overlong lines, unknown keys,
# bad values) get one line naming FILE:LINE and exit 2, never a crash
# (failure paths under ASan; fuzz_config fuzzes the reader)
source tests/lib.sh
c() { check_fail "$@"; }
A=$XNOC_ASAN
cd "$TMP"
X=$OLDPWD/$XNOC A=$OLDPWD/$XNOC_ASAN

# ---- BookSim2's vocabulary: the run the same command line gives
cat > bs.cfg <<'CFG'
// BookSim2 style: comments, ';' at the ends
topology = mesh;
k = 4;
n = 2;
router = iq;
num_vcs = 2;
vc_buf_size = 8;
routing_function = dim_order;
traffic = transpose;
packet_size = 4;
injection_rate = 0.025;   // packets/node/cycle: 0.1 flits
sample_period = 2000;
warmup_periods = 1;
seed = 3;
CFG
a=$($X traffic --config bs.cfg --json)
b=$($X traffic --topo mesh:4x4 --router vcs=2,buf=8 --pattern transpose --packet 4 --rate 0.1 --cycles 2000 --warmup 2000 --seed 3 --json)
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok booksim-same-as-flags; else fail booksim-same-as-flags "$(printf '%s\n%s' "$a" "$b" | head -c 400)"; fi
jcheck booksim-mapped "$a" '.topology == "mesh:4x4" and .router.vcs == 2 and .router.buf == 8 and .pattern == "transpose"
    and .packet == 4 and .offered == 0.1 and .warmup == 2000 and .measured_cycles == 2000 and .errors == 0'
# rate in flits as given; on_off with its bursts; {1,4}
printf 'topology = torus\nk = 4\ninjection_rate = 0.2\ninjection_rate_uses_flits = 1\npacket_size = {1,4}\ninjection_process = on_off\nburst_alpha = 0.25\nsample_period = 500\n' > t.cfg
j=$($X traffic --config t.cfg --json)
jcheck booksim-flits-onoff "$j" '.topology == "torus:4x4" and .offered == 0.2 and .packet == "1,4" and .injection == "onoff:0.25,0.5"
    and .measured_cycles == 500 and .warmup == 1000 and .errors == 0'

# ---- the command line overrides the file; --router adds on top of the file's
j=$($X traffic --config bs.cfg --rate 0.05 --router ncu=0 --cycles 1000 --json)
jcheck flags-override "$j" '.offered == 0.05 and .router.ncu == 0 and .router.vcs == 2 and .router.buf == 8 and .measured_cycles == 1000 and .packet == 4'
j=$($X traffic --config=bs.cfg --router=ncu=0 --cycles=1000 --json)
jcheck opt-equals-form "$j" '.router.ncu == 0 and .router.vcs == 2 and .measured_cycles == 1000 and .topology == "mesh:4x4"'

# ---- xnoc's own keys: '_' for '-', true = a bare flag, false = left out, CRLF lines, # comments, "quotes"
printf 'topo = "mesh:2x2"\r\nrate = 0.2   # flits\r\ncycles = 300\r\nhistogram_bin = 5\r\njson = true\r\nsources = 0-3\r\ntrace = false\r\n' > x.cfg
j=$($X traffic --config x.cfg --histogram h.csv)
jcheck native-keys "$j" '.topology == "mesh:2x2" and .offered == 0.2 and .measured_cycles == 300'
check native-histogram-bin test "$(sed -n 2p h.csv | cut -d, -f1)" = 0 -a "$(sed -n 3p h.csv | cut -d, -f1)" = 5
printf 'topology = mesh;  k = 2; n = 2;\nsample_period = 300; warmup_periods = 2; json = true;;\n' > m.cfg
jcheck several-per-line "$($X traffic --config m.cfg)" '.topology == "mesh:2x2" and .measured_cycles == 300 and .warmup == 600'
j=$($X traffic --config /dev/null --topo mesh:2x2 --cycles 200 --json)
jcheck empty-file "$j" '.topology == "mesh:2x2" and .measured_cycles == 200'

# ---- the file is untrusted input: one line naming FILE:LINE, exit 2
printf 'topo = mesh:2x2\nrat = 0.1\n' > e1.cfg
c unknown-key 2 "^xnoc traffic: e1.cfg:2: unknown key 'rat' \(did you mean rate\? see xnoc traffic --help; docs/traffic.md lists the BookSim2 keys\)$" $A traffic --config e1.cfg
printf 'traffik = uniform\n' > e2.cfg
c unknown-booksim-key 2 "^xnoc traffic: e2.cfg:1: unknown key 'traffik' \(did you mean traffic\? " $A traffic --config e2.cfg
printf 'topo = mesh:2x2\n\n# c\nrate = abc\n' > e3.cfg
c bad-value 2 "^xnoc traffic: e3.cfg:4: --rate: 'abc' is not a number$" $A traffic --config e3.cfg
printf 'topo = mesh:2x2\npattern = tornadoo\n' > e4.cfg
c bad-pattern 2 "^xnoc traffic: e4.cfg:2: --pattern: unknown pattern 'tornadoo' \(did you mean tornado\? " $A traffic --config e4.cfg
printf 'topo = mesh:0x4\n' > e5.cfg
c bad-topology 2 "^xnoc traffic: e5.cfg:1: topology 'mesh:0x4': each side must be 1\.\.32$" $A traffic --config e5.cfg
c bad-value-overridden 2 "^xnoc traffic: --rate: 'x' is not a number$" $A traffic --config bs.cfg --rate x
printf 'topology = mesh\nk = 4\npacket_size = 4\ninjection_rate = 0.5\n' > e6.cfg
c booksim-rate-too-high 2 "^xnoc traffic: e6.cfg:4: --rate: 2 is out of range" $A traffic --config e6.cfg
printf 'topo = mesh:2x2\nvc_allocator = islip\n' > e7.cfg
c booksim-no-equivalent 2 "^xnoc traffic: e7.cfg:2: BookSim2's 'vc_allocator' has no xnoc equivalent: the router is xnoc's RTL" $A traffic --config e7.cfg
printf 'topo = mesh:2x2\nsim_count = 3\n' > e8.cfg
c booksim-sim-count 2 "^xnoc traffic: e8.cfg:2: BookSim2's 'sim_count' has no xnoc equivalent: a run is one simulation" $A traffic --config e8.cfg
printf 'topology = mesh\nrouting_function = romm\n' > e9.cfg
c booksim-routing 2 "^xnoc traffic: e9.cfg:2: routing_function = romm: xnoc routes mesh and torus in dimension order" $A traffic --config e9.cfg
printf 'topology = mesh\npacket_size = {1,4}\ninjection_rate = 0.1\n' > e10.cfg
c booksim-packets-rate-dist 2 "^xnoc traffic: e10.cfg:3: injection_rate = 0.1 is in packets .*needs one packet_size" $A traffic --config e10.cfg
printf 'topo = mesh:2x2\nrate = 0.1\nrate = 0.2\n' > e11.cfg
c key-twice 2 "^xnoc traffic: e11.cfg:3: 'rate' set twice \(first on line 2\)$" $A traffic --config e11.cfg
printf 'packet = 4\npacket_size = 2\n' > e12.cfg
c key-twice-translated 2 "^xnoc traffic: e12.cfg:2: 'packet_size' sets --packet, which line 1 \('packet'\) already set$" $A traffic --config e12.cfg
printf 'topo = mesh:2x2\nrate\n' > e13.cfg
c not-key-value 2 "^xnoc traffic: e13.cfg:2: expected key = value, found 'rate'$" $A traffic --config e13.cfg
printf 'rate = \n' > e14.cfg
c no-value 2 "^xnoc traffic: e14.cfg:1: 'rate' has no value$" $A traffic --config e14.cfg
printf 'ra te = 1\n' > e15.cfg
c bad-key 2 "^xnoc traffic: e15.cfg:1: bad key 'ra te' " $A traffic --config e15.cfg
printf 'topo = mesh:2x2\njson = yes\n' > e21.cfg
c flag-not-boolean 2 "^xnoc traffic: e21.cfg:2: 'json' is a flag: true or false, not 'yes'$" $A traffic --config e21.cfg
printf 'topo = mesh:2x2\nrate = true\n' > e22.cfg
c value-option-true 2 "^xnoc traffic: e22.cfg:2: 'rate' takes a value, not true \(see xnoc traffic --help\)$" $A traffic --config e22.cfg
printf 'config = e1.cfg\n' > e16.cfg
c no-include 2 "^xnoc traffic: e16.cfg:1: 'config': a config file cannot include another$" $A traffic --config e16.cfg
{ printf 'topo = mesh:2x2\ntrace = '; head -c 1100 /dev/zero | tr '\0' a; echo; } > e17.cfg
c overlong-line 2 "^xnoc traffic: e17.cfg:2: line longer than 1024 characters$" $A traffic --config e17.cfg
head -c 200 "$X" > e18.cfg
c binary-garbage 2 "^xnoc traffic: e18.cfg:1: binary data \(byte 0x7f in column 1\): not a text file" $A traffic --config e18.cfg
printf 'topo = mesh:2x2\nrate = 0.1\0\n' > e19.cfg
c nul-byte 2 "^xnoc traffic: e19.cfg:2: binary data \(byte 0x00 in column 11\)" $A traffic --config e19.cfg
printf 'topo = mesh\xff\n' > e20.cfg
c not-utf8 2 "^xnoc traffic: e20.cfg:1: binary data \(byte 0xff in column 12\)" $A traffic --config e20.cfg
c missing-file 2 "^xnoc traffic: --config nope.cfg: No such file or directory$" $A traffic --config nope.cfg
mkdir d.cfg
c directory 2 "^xnoc traffic: --config d.cfg: is a directory, not a file of key = value lines$" $A traffic --config d.cfg
c no-value-word 2 "^xnoc traffic: option '--config' needs a value \(see xnoc traffic --help\)$" $A traffic --topo mesh:2x2 --config
c twice 2 "^xnoc traffic: --config given twice" $A traffic --config bs.cfg --config bs.cfg
head -c 1100000 /dev/zero | tr '\0' '\n' > big.cfg
c too-large 2 "^xnoc traffic: --config big.cfg: larger than 1048576 bytes: not a config file$" $A traffic --config big.cfg
c topo-required 2 "^xnoc traffic: --topo is required \(see xnoc traffic --help\)$" $A traffic --config /dev/null
