# fuzz: the libFuzzer targets (tests/fuzz/) briefly, under ASan + UBSan:
# the NI register interface with a stub network, topology and set parsers,
# the ELF loader, schedule reader + verifier + plan encoder, --router
# strings, command-line options and the strict number parsers, --config
# files.  `make fuzz`
# runs them longer (FUZZ_SECONDS).  Here each gets a fixed number of inputs
# (tests/fuzz/run.sh --runs), not seconds: the verdict does not depend on
# the machine's speed; XNOC_FUZZ_SECONDS=N runs them N seconds instead.
source tests/lib.sh
if ! make -s fuzz-build >"$TMP/build.log" 2>&1; then
    if grep -q "fuzzer" "$TMP/build.log"; then
        echo "skip fuzz: clang's libFuzzer runtime is missing (make deps installs libclang-rt-14-dev)"
    else
        fail fuzz-build "$(tail -3 "$TMP/build.log" | tr '\n' ' ')"
    fi
    exit 0
fi
tests/fuzz/run.sh "${XNOC_FUZZ_SECONDS:---runs}"
