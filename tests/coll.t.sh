# coll: built-in collective algorithms against the collectives' meaning
source tests/lib.sh
if cc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -g -fsanitize=address,undefined -Isim_harness \
      -o "$TMP/coll_unit" tests/unit/coll_unit.c sim_harness/coll/coll.c sim_harness/coll/coll_builtin.c sim_harness/coll/qcdoc.c sim_harness/coll/dfbcast.c \
      sim_harness/topo.c sim_harness/cli.c -lm 2>"$TMP/cc.log"; then
    "$TMP/coll_unit"
else
    fail coll-unit-build "$(head -5 "$TMP/cc.log")"
fi
