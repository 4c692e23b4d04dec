# coll: built-in collective algorithms against the collectives' meaning
source tests/lib.sh
if unit_bin U coll_unit; then "$U"; fi
