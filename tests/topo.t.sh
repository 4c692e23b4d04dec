# topo: the one topology description (parsing, wiring, routing)
source tests/lib.sh

j() { $XNOC topo --json "$@"; }

jcheck mesh-4x4-shape "$(j --topo mesh:4x4)" '.routers==16 and .terminals==16 and (.links|length)==48 and .ports_per_router==5 and .vc_classes==1'
jcheck mesh-1x1-single "$(j --topo mesh:1x1)" '.routers==1 and (.links|length)==0'
jcheck mesh-3x2-nonsquare "$(j --topo mesh:3x2)" '.routers==6 and (.links|length)==14'
jcheck torus-4x4-wrap "$(j --topo torus:4x4)" '(.links|length)==64 and ([.links[]|select(.dateline)]|length)==16 and .vc_classes==2'
jcheck octagon-shape "$(j --topo octagon)" '.routers==8 and .terminals==8 and (.links|length)==24 and ([.links[]|select(.dateline)]|length)==2'
jcheck fat-octagon-shape "$(j --topo fat-octagon)" '.topology=="fat-octagon" and .terminals==16 and .ports_per_router==5'
jcheck octagon-c2-is-fat "$(j --topo octagon:c=2)" '.topology=="fat-octagon"'
jcheck conc-suffix "$(j --topo mesh:2x2:c=3)" '.terminals==12 and .ports_per_router==7'
jcheck kport-ports "$(j --topo mesh:2x2 --ports 2)" '.ports_per_router==6'
jcheck octagon-links-i-pm1-p4 "$(j --topo octagon)" '[.links[]|select(.src_router==0)|.dst_router]|sort==[1,4,7]'

# Routes: XY on mesh (x first), Karim on octagon (1-2 cw, 6-7 ccw, 3-5 across first)
jcheck mesh-xy-route "$(j --topo mesh:3x2 --route 0:5)" '.route==[0,0,2,4]'
jcheck mesh-xy-route-back "$(j --topo mesh:3x2 --route 5:0)" '.route==[1,1,3,4]'
jcheck mesh-self-route "$(j --topo mesh:3x2 --route 4:4)" '.route==[4]'
jcheck octagon-rel1 "$(j --topo octagon --route 0:1)" '.route==[0,3]'
jcheck octagon-rel2 "$(j --topo octagon --route 0:2)" '.route==[0,0,3]'
jcheck octagon-rel3 "$(j --topo octagon --route 0:3)" '.route==[2,1,3]'
jcheck octagon-rel4 "$(j --topo octagon --route 0:4)" '.route==[2,3]'
jcheck octagon-rel5 "$(j --topo octagon --route 0:5)" '.route==[2,0,3]'
jcheck octagon-rel6 "$(j --topo octagon --route 0:6)" '.route==[1,1,3]'
jcheck octagon-rel7 "$(j --topo octagon --route 0:7)" '.route==[1,3]'
jcheck fat-octagon-local "$(j --topo fat-octagon --route 4:5)" '.route==[4]'
jcheck torus-shortest-wrap "$(j --topo torus:4x4 --route 0:3)" '.route==[1,4]'
jcheck torus-tie-positive "$(j --topo torus:4x4 --route 0:2)" '.route==[0,0,4]'

# n-dimensional meshes and tori: 2n network ports (+ and - per dimension),
# dimension-order routing, a dateline on each ring's wrap link
jcheck torus-444-shape "$(j --topo torus:4x4x4)" '.routers==64 and .dims==[4,4,4] and (.links|length)==384 and .ports_per_router==7 and .network_ports==6 and .vc_classes==2 and .diameter==6 and ([.links[]|select(.dateline)]|length)==96'
jcheck torus-3333-shape "$(j --topo torus:3x3x3x3)" '.routers==81 and (.links|length)==648 and .ports_per_router==9 and .diameter==4'
jcheck mesh-1d "$(j --topo mesh:8)" '.topology=="mesh:8" and .routers==8 and (.links|length)==14 and .dims==[8] and .diameter==7'
jcheck mesh-6d "$(j --topo mesh:2x2x2x2x2x2)" '.routers==64 and .network_ports==12 and .diameter==6 and .vc_classes==1'
jcheck torus-ring-of-2-two-links "$(j --topo torus:2x2x2)" '[.links[]|select(.src_router==0 and .dst_router==1)]|length==2'
jcheck torus-3d-kport "$(j --topo torus:4x4x4:c=2 --ports 6)" '.topology=="torus:4x4x4:c=2" and .terminals==128 and .ports_per_router==18'
jcheck torus-3d-route "$(j --topo torus:4x4x4 --route 0:21)" '.route==[0,2,4,6]'
jcheck torus-3d-route-wrap "$(j --topo torus:4x4x4 --route 0:55)" '.route==[1,2,5,6]'
jcheck mesh-3d-route-back "$(j --topo mesh:3x3x3 --route 26:0)" '.route==[1,1,3,3,5,5,6]'
check_fail seven-dims 2 "1 to 6 dimensions" $XNOC topo --topo torus:2x2x2x2x2x2x2
check_fail nd-too-many-terms 2 "has 4096 terminals \\(max 1024\\)" $XNOC topo --topo mesh:4x4x4x4x4x4
check_fail nd-side-zero 2 "each side must be 1..32" $XNOC topo --topo mesh:4x0x4
check_fail nd-trailing-x 2 "expected sizes" $XNOC topo --topo torus:4x4x

# Every route on every topology ends at the destination's ejection port
# within the diameter: checked for all pairs through the C API by the
# scheduler and network tests; here the failure paths.
check_fail unknown-topology 2 "unknown topology 'ring'" $XNOC topo --topo ring:4
check_fail mesh-no-size 2 "expected sizes AxB... \\(1 to 6 dimensions\\)" $XNOC topo --topo mesh:
check_fail mesh-zero 2 "each side must be 1..32" $XNOC topo --topo mesh:0x4
check_fail mesh-too-big 2 "each side must be 1..32" $XNOC topo --topo mesh:33x2
check_fail torus-1 2 "each side must be 2..32" $XNOC topo --topo torus:1x4
check_fail bad-suffix 2 "only the suffix :c=N" $XNOC topo --topo octagon:x
check_fail bad-conc 2 "concentration must be 1..12" $XNOC topo --topo mesh:2x2:c=0
check_fail too-many-ports 2 "needs 36 router ports \\(max 32\\)" $XNOC topo --topo mesh:2x2:c=8 --ports 4
check_fail too-many-terms 2 "terminals \\(max 1024\\)" $XNOC topo --topo mesh:32x32:c=2
check_fail bad-route 2 "--route '0:99'" $XNOC topo --topo octagon --route 0:99
check_fail no-topo 2 "--topo is required" $XNOC topo
check_fail unknown-flag 2 "unknown option '--bogus' \(see xnoc topo --help\)" $XNOC topo --topo octagon --bogus
check_fail unknown-command 2 "unknown command 'frobnicate'" $XNOC frobnicate
check topo-help $XNOC topo --help
# the text report is the JSON report rendered (util/report.h): every figure of the one is in the other
j=$($XNOC topo --topo dragonfly:a=2,p=1,h=1 --route 0:5 --json 2>/dev/null)
h=$($XNOC topo --topo dragonfly:a=2,p=1,h=1 --route 0:5 2>/dev/null)
want=$(jq -r '"\(.topology): \(.routers) routers, \(.terminals) terminals (\(.terminals_per_router) per router, \(.channels_per_terminal) channel(s) each), \(.ports_per_router) ports per router, \(.directed_links) directed links, \(.vc_classes) VC class(es)", (.links | to_entries[] | "link \(.key): router \(.value.src_router) \(.value.src_port_name) -> router \(.value.dst_router)\(if .value.dateline then " (dateline)" else "" end)"), "route \(.route_src) -> \(.route_dst):\([.route_hops[] | " r\(.router).\(.port_name)"] | join(" ->")) (port \(.route[-1]), terminal \(.route_dst))"' <<<"$j")
got=$(printf '%s\n' "$h" | grep -v '^  [0-9]* groups\|^  minimal' | sed 's/^ *//;s/  */ /g')
if [ -n "$j" ] && [ "$want" = "$got" ]; then ok topo-text-from-json; else fail topo-text-from-json "$(diff <(echo "$want") <(echo "$got") | head -4 | tr '\n' ' ')"; fi

# clos:m=M,n=N,r=R (net/topo_clos.c): the folded v(m, n, r), r leaves of n
# terminals and m up-links (routers 0..r-1), m spines of r down-links
# (routers r..r+m-1); up to spine (destination terminal mod m), then down
j=$(j --topo clos:m=5,n=3,r=4)
jcheck clos-534-shape "$j" '.topology=="clos:m=5,n=3,r=4" and .routers==9 and .terminals==12 and .network_ports==5 and .ports_per_router==8 and .vc_classes==1 and .diameter==2 and .clos_m==5 and .clos_n==3 and .clos_r==4 and (.links|length)==40 and ([.links[]|select(.dateline)]|length)==0'
jcheck clos-534-every-leaf-to-every-spine "$j" '[.links[]|select(.src_router<4)|[.src_router,.dst_router-4,.src_port]]|all(.[1]==.[2]) and length==20 and (map([.[0],.[1]])|unique|length)==20'
jcheck clos-534-spine-down "$j" '[.links[]|select(.src_router>=4)|select(.dst_router!=.src_port or .dst_port!=.src_router-4)]|length==0'
jcheck clos-534-port-names "$j" '[.links[]|.src_port_name]|(.[0]=="u0" and .[4]=="u4" and .[20]=="d0" and .[39]=="d3")'
# terminal 11 (leaf 3): 11 mod 5 = spine 1 (router 5), its d3, then t2 (port 5 + 2)
jcheck clos-534-route-dmodm "$(j --topo clos:m=5,n=3,r=4 --route 0:11)" '.route==[1,3,7] and ([.route_hops[].port_name]==["u1","d3","term"])'
jcheck clos-534-route-same-leaf "$(j --topo clos:m=5,n=3,r=4 --route 3:5)" '.route==[7]'
jcheck clos-534-route-mod-wraps "$(j --topo clos:m=5,n=3,r=4 --route 11:5)" '.route==[0,1,7]'
jcheck clos-222-shape "$(j --topo clos:m=2,n=2,r=2 --route 0:3)" '.routers==4 and .terminals==4 and .ports_per_router==4 and (.links|length)==8 and .route==[1,1,3]'
jcheck clos-kport "$(j --topo clos:m=2,n=3,r=2 --ports 2)" '.ports_per_router==8 and .terminals==6'
h=$($XNOC topo --topo clos:m=5,n=3,r=4)
# its terminals are per leaf (the spines have none); other kinds say per router
if [ "$(head -1 <<<"$h")" = "clos:m=5,n=3,r=4: 9 routers, 12 terminals (3 per leaf, 1 channel(s) each), 8 ports per router, 40 directed links, 1 VC class(es)" ] &&
   [ "$($XNOC topo --topo mesh:4x4:c=2 | head -1)" = "mesh:4x4:c=2: 16 routers, 32 terminals (2 per router, 1 channel(s) each), 6 ports per router, 48 directed links, 1 VC class(es)" ]
then ok clos-terminals-per-leaf; else fail clos-terminals-per-leaf "$(head -1 <<<"$h")"; fi
if grep -q "^  folded Clos v(5, 3, 4): 4 leaf routers (3 terminals and 5 up-links each, ports u0..), 5 spine routers (4 down-links each, ports d0..);$" <<<"$h" &&
   grep -q "^  link  39: router 8 d3     -> router 3$" <<<"$h"; then ok clos-describe; else fail clos-describe "$(head -3 <<<"$h")"; fi
check_fail clos-missing 2 "topology 'clos:m=2,n=2': m, n and r are required \\(clos:m=M,n=N,r=R\\)" $XNOC topo --topo clos:m=2,n=2
check_fail clos-dup-key 2 "expected clos:m=M,n=N,r=R \\(each key once\\)" $XNOC topo --topo clos:m=2,m=3,n=2,r=2
check_fail clos-bad-key 2 "expected clos:m=M,n=N,r=R" $XNOC topo --topo clos:m=2,n=2,q=2
check_fail clos-zero 2 "m must be 1..31, n 1..12, r 1..31" $XNOC topo --topo clos:m=0,n=2,r=2
check_fail clos-big-r 2 "m must be 1..31, n 1..12, r 1..31" $XNOC topo --topo clos:m=2,n=2,r=32
check_fail clos-suffix 2 "unexpected ':c=2' \\(n= gives the terminals per leaf\\)" $XNOC topo --topo clos:m=2,n=2,r=2:c=2
check_fail clos-too-many-ports 2 "needs 33 router ports \\(max 32\\)" $XNOC topo --topo clos:m=31,n=2,r=2
check_fail clos-typo 2 "unknown topology 'cols' \\(did you mean clos\\?" $XNOC topo --topo cols:m=2,n=2,r=2

# the kind lists in --help are the kinds' own words (topo_ops.usage, the
# "unknown topology" line's list), not copies (issue 48): every kind the
# parser knows appears in run, traffic and topo --help
known=$($XNOC topo --topo bogus 2>&1 | sed -n 's/.*known: \(.*\); suffix :c=N)$/\1/p')
missing=""
for c in run traffic topo; do
    h=$($XNOC $c --help | tr -s ' \n' ' ')
    while IFS= read -r k; do
        case "$h" in *"$k"*) ;; *) missing="$missing $c:'$k'" ;; esac
    done < <(echo "$known" | sed 's/, \([a-z]\)/\n\1/g')
done
if [ -n "$known" ] && [ -z "$missing" ]; then ok help-kinds-from-ops
else fail help-kinds-from-ops "known '$known', missing:$missing"; fi
