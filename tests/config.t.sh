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
c booksim-no-equivalent 2 "^xnoc traffic: e7.cfg:2: 'vc_allocator': BookSim2's router microarchitecture \(xnoc's router is its RTL: .*\) \(--config-lenient ignores it\)$" $A traffic --config e7.cfg
printf 'topo = mesh:2x2\nsim_count = 3\n' > e8.cfg
c booksim-sim-count 2 "^xnoc traffic: e8.cfg:2: 'sim_count': BookSim2's simulation control \(a run here is one simulation" $A traffic --config e8.cfg
printf 'topology = mesh\nrouting_function = romm\n' > e9.cfg
c booksim-routing 2 "^xnoc traffic: e9.cfg:2: routing_function = romm: xnoc routes minimally \(dim_order, dor, min: dimension order on mesh and torus\) or, on a dragonfly, ugal or valiant$" $A traffic --config e9.cfg
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

# ---- BookSim2's files as users have them: in the format and with the keys of BookSim2's shipped
# examples (mesh88_lat, meshconfig, torus88, cmeshconfig, dragonflyconfig; written for these tests).
# --config-lenient runs each after ONE warning line listing the keys it ignores, with their lines.
cat > mesh88_lat <<'CFG'
// an 8x8 mesh, 20-flit packets; the rate in packets
topology = mesh;
k = 8;
n = 2;
routing_function = dor;
num_vcs     = 8;
vc_buf_size = 8;
wait_for_tail_credit = 1;
vc_allocator = islip;
sw_allocator = islip;
alloc_iters  = 1;
credit_delay   = 2;
routing_delay  = 0;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
input_speedup     = 2;
output_speedup    = 1;
internal_speedup  = 1.0;
traffic = transpose;
packet_size = 20;
sim_type = latency;
injection_rate = 0.005;
CFG
cat > meshconfig <<'CFG'
num_vcs     = 16;
vc_buf_size = 8;
wait_for_tail_credit = 1;
vc_allocator = islip;
sw_allocator = islip;
alloc_iters  = 2;
credit_delay   = 2;
routing_delay  = 0;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_final_delay = 1;
input_speedup     = 1;
output_speedup    = 1;
internal_speedup  = 1.0;
sim_type = latency;
warmup_periods = 3;
sample_period  = 1000;
sim_count          = 1;
topology = mesh;
k  = 8;
n  = 2;
routing_function = dor;
packet_size = 1;
use_read_write = 0;
traffic       = uniform;
injection_rate = 0.2;
CFG
printf 'topology = torus;\nk = 8;\nn = 2;\nrouting_function = dim_order;\nnum_vcs = 2;\ntraffic = uniform;\ninjection_rate = 0.15;\n' > torus88
cat > cmeshconfig <<'CFG'
//a concentrated mesh: xr, yr, x, y say how the concentration is formed
topology = cmesh;
k = 4;
n = 2;
c = 4;
xr = 2;
yr = 2;
x = 4;
y = 4;
routing_function = dor_no_express;
traffic = bitcomp;
use_read_write = 0;
batch_size = 2000;
CFG
cat > dragonflyconfig <<'CFG'
vc_buf_size = 256;
wait_for_tail_credit = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
alloc_iters  = 1;
credit_delay   = 2;
routing_delay  = 0;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_final_delay = 1;
input_speedup     = 1;
output_speedup    = 1;
internal_speedup  = 2.0;
warmup_periods = 3;
sim_count          = 1;
sample_period  = 10000;
routing_function = min;
num_vcs     = 2;
priority = none;
traffic       = uniform;
injection_rate = 0.8;
packet_size = 10;
injection_rate_uses_flits=1;
topology = dragonflynew;
k  = 4;
n  = 1;
watch_out=-;
CFG
short="--cycles 200 --warmup 100 --drain 3000 --json"
lenient() { # lenient NAME FILE JQ: runs, one warning line on stderr, the report true under JQ
    local j; j=$($X traffic --config-lenient "$2" $short 2>"$2.err")
    if [ "$(grep -c . "$2.err")" != 1 ] || ! grep -q "^xnoc traffic: warning: --config-lenient $2: " "$2.err"; then
        fail "$1" "stderr: $(head -c 300 "$2.err")"; else jcheck "$1" "$j" "$3"; fi
}
lenient booksim-mesh88_lat mesh88_lat '.topology=="mesh:8x8" and .router.vcs==8 and .router.buf==8 and .pattern=="transpose" and .packet==20 and .offered==0.1 and .errors==0'
grep -q "ignores 'wait_for_tail_credit' (line 8), 'vc_allocator' (line 9), 'sw_allocator' (line 10), 'alloc_iters' (line 11), 'credit_delay' (line 12), 'routing_delay' (line 13), 'vc_alloc_delay' (line 14), 'sw_alloc_delay' (line 15), 'input_speedup' (line 16), 'output_speedup' (line 17), 'internal_speedup' (line 18): BookSim2's router microarchitecture (xnoc's router is its RTL.*; 'sim_type' (line 21): BookSim2's simulation control" mesh88_lat.err \
    && ok booksim-lenient-lists-keys || fail booksim-lenient-lists-keys "$(head -c 400 mesh88_lat.err)"
lenient booksim-meshconfig meshconfig '.topology=="mesh:8x8" and .router.vcs==8 and .pattern=="uniform" and .offered==0.2 and .errors==0'
grep -q "num_vcs = 16 runs as vcs=8 (the link flit's VC field)" meshconfig.err && ok booksim-lenient-notes-limit || fail booksim-lenient-notes-limit "$(head -c 300 meshconfig.err)"
j=$($X traffic --config torus88 $short 2>torus88.err)
jcheck booksim-torus88-strict "$j" '.topology=="torus:8x8" and .router.vcs==2 and .offered==0.15 and .errors==0'
[ ! -s torus88.err ] && ok booksim-torus88-no-warning || fail booksim-torus88-no-warning "$(head -2 torus88.err)"
lenient booksim-cmeshconfig cmeshconfig '.topology=="mesh:4x4:c=4" and .pattern=="bitcomp" and .errors==0'
grep -q "'xr' (line 6), 'yr' (line 7): cmesh's placement of a router's nodes" cmeshconfig.err && ok booksim-cmesh-layout || fail booksim-cmesh-layout "$(head -c 300 cmeshconfig.err)"
# dragonflynew k = 4: p = 4, a = 2p = 8, h = p = 4, g = a*p + 1 = 33 (1,056 nodes, as BookSim2's dragonfly.cpp)
lenient booksim-dragonflyconfig dragonflyconfig '.topology=="dragonfly:a=8,p=4,h=4,g=33" and .router.buf==64 and .packet==10 and .offered==0.8 and .errors==0'
# strict: every refusal of the file in one run, each with its (right) line
c booksim-strict-all-at-once 2 "^xnoc traffic: meshconfig: 16 problems: meshconfig:3 'wait_for_tail_credit', meshconfig:4 'vc_allocator', .*meshconfig:14 'internal_speedup': BookSim2's router microarchitecture .*\(--config-lenient ignores them\); meshconfig:15 'sim_type', meshconfig:18 'sim_count', meshconfig:24 'use_read_write': BookSim2's simulation control .*\(--config-lenient ignores them\); meshconfig:1: num_vcs = 16: at most 8 \(the link flit's VC field; --config-lenient runs 8\)$" $A traffic --config meshconfig
# a value the command refuses names the line that set it (num_vcs and vc_buf_size are two lines)
printf 'topology = mesh;\nk = 2;\nnum_vcs = 2;\nvc_buf_size = 0;\n' > e30.cfg
c booksim-value-line 2 "^xnoc traffic: e30.cfg:4: --router: buf=0 is out of range 1\.\.64$" $A traffic --config e30.cfg
printf 'topology = mesh;\nk = 2;\nnum_vcs = 0;\nvc_buf_size = 4;\n' > e31.cfg
c booksim-value-line-vcs 2 "^xnoc traffic: e31.cfg:3: --router: vcs=0 is out of range 1\.\.8$" $A traffic --config e31.cfg
# the routing names: min (nothing to set), ugal and valiant (the dragonfly's); others refused
printf 'topology = dragonfly:a=2,p=1,h=1;\nrouting_function = ugal_dragonflynew;\ninjection_rate = 0.1;\nsample_period = 200;\nwarmup_periods = 0;\n' > r1.cfg
jcheck booksim-ugal "$($X traffic --config r1.cfg --json)" '.router.routing=="ugal" and .errors==0'
# BookSim2's hotspot({{nodes},{weights}}): every packet to node 0 or 3, three to one
printf 'topology = mesh;\nk = 2;\ntraffic = hotspot({{0,3},{3,1}});\ninjection_rate = 0.1;\nsample_period = 2000;\n' > h.cfg
j=$($X traffic --config h.cfg --json)
jcheck booksim-hotspot "$j" '[.links[]|select(.kind=="eject")|.flits] as $e | .errors==0 and $e[1]==0 and $e[2]==0 and ($e[0]/$e[3] > 2.5) and ($e[0]/$e[3] < 3.5)'
c hotspot-bad-node 2 "^xnoc traffic: --pattern hotspot:0,9: hotspot:NODES\[:WEIGHTS\]: NODES is a list of terminals" $A traffic --topo mesh:2x2 --pattern hotspot:0,9
printf 'topology = cmesh;\nk = 4;\nc = 2;\nx = 3;\n' > e32.cfg
c booksim-cmesh-not-square 2 "^xnoc traffic: e32.cfg:4: cmesh: BookSim2's cmesh is 2-D with x = y = k" $A traffic --config e32.cfg

# ---- BookSim2's anynet: the config and its network file (in the format of BookSim2's example:
# three routers of three nodes, a triangle) become --topo anynet:FILE (net/topo_anynet.c)
printf 'router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\nrouter 2 node 6 node 7 node 8 router 1 router 0\n' > anynet_file
cat > anynet_config <<'CFG'
//three routers, three nodes each, from a network file
topology = anynet;
routing_function = min;
network_file = anynet_file;
traffic = uniform;
use_read_write = 0;
sample_period = 10000;
injection_rate = 0.01;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
alloc_iters  = 1;
num_vcs     = 1;
vc_buf_size = 3;
CFG
lenient booksim-anynet anynet_config '.topology=="anynet:anynet_file" and .router.vcs==1 and .router.buf==3 and .offered==0.01 and .errors==0 and ([.links[]|select(.kind=="link")]|length)==6'
# spanning-tree routing from router 0: the zero-load model 1 + 3*H + L - 1 exactly on every pair, the
# link off the tree (1 - 2) idle
j=$($X traffic --topo anynet:anynet_file --pattern allpairs --json)
jcheck anynet-allpairs-model "$j" '.pairs==81 and .zero_load_max_deviation==0 and .errors==0 and ([.links[]|select(.kind=="link" and ((.src_router==1 and .dst_router==2) or (.src_router==2 and .dst_router==1)))|.flits]==[0,0]) and .max_hops==2'
jcheck anynet-topo "$($X topo --topo anynet:anynet_file --json)" '.routers==3 and .terminals==9'
# the file is untrusted: one line naming FILE:LINE, exit 2
printf 'router 0 node 0 router 1 5\nrouter 1 node 1\n' > an1; c anynet-latency 2 "^xnoc topo: an1:1: router 0 - router 1 latency 5: xnoc's links take one cycle$" $A topo --topo anynet:an1
printf 'router 0 node 0 node 1\nrouter 1 node 2\n' > an2; c anynet-uneven 2 "^xnoc topo: topology 'anynet:an2': 3 nodes on 2 routers: xnoc needs the same number of nodes on every router$" $A topo --topo anynet:an2
printf 'router 0 node 0\nrouter 1 node 1\n' > an3; c anynet-pieces 2 "^xnoc topo: topology 'anynet:an3': router 1 cannot be reached from router 0$" $A topo --topo anynet:an3
printf 'router 0 node 1 router 1\nrouter 1 node 0\n' > an4; c anynet-numbering 2 "^xnoc topo: topology 'anynet:an4': node 0 is not on router 0: xnoc numbers terminals by router" $A topo --topo anynet:an4
printf 'router 0 node 0 router 0\n' > an5; c anynet-self 2 "^xnoc topo: an5:1: router 0 is linked to itself$" $A topo --topo anynet:an5
printf 'router 0 node 0 router 1\nrouter 1 node 0\n' > an6; c anynet-two-routers 2 "^xnoc topo: an6:2: node 0 is already on router 0" $A topo --topo anynet:an6
head -c 300 "$X" > an7; c anynet-binary 2 "^xnoc topo: an7:1: a line starts 'router R' \(R 0\.\.255\), not '\?ELF" $A topo --topo anynet:an7
c anynet-missing 2 "^xnoc topo: topology 'anynet:nope': No such file or directory$" $A topo --topo anynet:nope
c anynet-directory 2 "^xnoc topo: topology 'anynet:d.cfg': not a regular file$" $A topo --topo anynet:d.cfg
printf 'topology = anynet;\n' > an8.cfg; c anynet-no-file 2 "^xnoc traffic: an8.cfg:1: topology = anynet needs network_file = FILE$" $A traffic --config an8.cfg
