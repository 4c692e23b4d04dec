/* ncfunc_unit - the host-side reference of the coding units' combining
 * operators (sim_harness/coll/ncfunc.c) on hand-worked values: wrapping
 * sums, negative lanes, lanes that must not carry into each other, the
 * names.  Prints "ok NAME" / "FAIL NAME: why" lines (tests/abi.t.sh). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "coll/ncfunc.h"
#include "../../firmware/lib/flit.h"

static int fails;

static void expect(const char *name, int func, uint64_t a, uint64_t w, uint64_t want)
{
    uint64_t got = nc_func_apply(func, a, w);
    if (got == want) printf("ok %s\n", name);
    else {
        printf("FAIL %s: %s(%016" PRIx64 ", %016" PRIx64 ") = %016" PRIx64 ", expected %016" PRIx64 "\n", name,
               nc_func_name(func), a, w, got, want);
        fails++;
    }
}

int main(void)
{
    /* lanes: high [63:32], low [31:0] */
    expect("xor", NC_FUNC_XOR, 0xF0F0F0F0FFFF0000ull, 0x0FF00FF0FF00FF00ull, 0xFF00FF0000FFFF00ull);
    expect("and", NC_FUNC_AND, 0xF0F0F0F0FFFF0000ull, 0x0FF00FF0FF00FF00ull, 0x00F000F0FF000000ull);
    expect("or", NC_FUNC_OR, 0xF0F0F0F0FFFF0000ull, 0x0FF00FF0FF00FF00ull, 0xFFF0FFF0FFFFFF00ull);
    /* 0xFFFFFFFF + 1 wraps to 0 in its lane and does not carry into the high lane */
    expect("add32-wraps-no-carry", NC_FUNC_ADD32, 0x00000005FFFFFFFFull, 0x0000000700000001ull, 0x0000000C00000000ull);
    expect("add32-negative", NC_FUNC_ADD32, 0xFFFFFFFE7FFFFFFFull, 0x0000000300000001ull, 0x0000000180000000ull);
    /* the same words as one 64-bit lane: the carry crosses bit 32; 2^64-1 + 2 wraps to 1 */
    expect("add64-carries", NC_FUNC_ADD64, 0x00000005FFFFFFFFull, 0x0000000700000001ull, 0x0000000D00000000ull);
    expect("add64-wraps", NC_FUNC_ADD64, 0xFFFFFFFFFFFFFFFFull, 2, 1);
    /* -1 < 1 signed, 0xFFFFFFFF > 1 unsigned; INT_MIN the smallest signed, 0 the smallest unsigned */
    expect("min32s", NC_FUNC_MIN32S, 0xFFFFFFFF80000000ull, 0x000000017FFFFFFFull, 0xFFFFFFFF80000000ull);
    expect("max32s", NC_FUNC_MAX32S, 0xFFFFFFFF80000000ull, 0x000000017FFFFFFFull, 0x000000017FFFFFFFull);
    expect("min32u", NC_FUNC_MIN32U, 0xFFFFFFFF80000000ull, 0x000000017FFFFFFFull, 0x000000017FFFFFFFull);
    expect("max32u", NC_FUNC_MAX32U, 0xFFFFFFFF80000000ull, 0x000000017FFFFFFFull, 0xFFFFFFFF80000000ull);
    expect("min32s-lanes-apart", NC_FUNC_MIN32S, 0x0000000AFFFFFFF6ull, 0xFFFFFFF60000000Aull, 0xFFFFFFF6FFFFFFF6ull);
    /* products: each 32-bit lane keeps its low 32 bits (0x80000001 * 2 wraps to 2), no lane
     * carries into the other; the 64-bit lane's cross products reach bit 32, (2^64 - 1)^2 = 1 */
    expect("mul32-lanes-wrap", NC_FUNC_MUL32, 0x0000000380000001ull, 0x0000000500000002ull, 0x0000000F00000002ull);
    expect("mul64-cross", NC_FUNC_MUL64, 0x0000000100000001ull, 0x0000000100000001ull, 0x0000000200000001ull);
    expect("mul64-wraps", NC_FUNC_MUL64, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 1);
    expect("func-out-of-range", NC_FUNC_ALL, 0x1234, 0x5678, 0x1234);
    /* buffers: 12 bytes of int32 {-5, 7, INT_MAX} + {3, -9, 1}: the last word is a half flit */
    int32_t a[3] = {-5, 7, 0x7FFFFFFF}, b[3] = {3, -9, 1};
    uint8_t acc[12], src[12];
    memcpy(acc, a, 12);
    memcpy(src, b, 12);
    nc_func_combine(NC_FUNC_ADD32, acc, src, 12);
    memcpy(a, acc, 12);
    if (a[0] == -2 && a[1] == -2 && a[2] == (int32_t)0x80000000) printf("ok combine-add32-buffer\n");
    else {
        printf("FAIL combine-add32-buffer: %d %d %d\n", a[0], a[1], a[2]);
        fails++;
    }
    int names_ok = 1;
    for (int f = 0; f < NC_FUNC_ALL; f++) names_ok &= nc_func_parse(nc_func_name(f)) == f;
    names_ok &= nc_func_parse("mul") == -1 && nc_func_name(-1) == NULL && nc_func_name(NC_FUNC_ALL) == NULL;
    if (names_ok && !strcmp(nc_func_name(NC_FUNC_MAX32U), "max32u")) printf("ok names\n");
    else {
        printf("FAIL names: a name does not round-trip\n");
        fails++;
    }
    return fails != 0;
}
