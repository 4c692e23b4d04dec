/* ncfunc.c - the coding units' combining operators on the host (ncfunc.h). */
#include "coll/ncfunc.h"

#include <string.h>

#include "../../firmware/lib/flit.h"

static const char *const names[NC_FUNC_ALL] = {"xor",    "and",    "or",     "add32", "add64", "min32s",
                                               "max32s", "min32u", "max32u", "mul32", "mul64"};

static uint32_t lane(int func, uint32_t a, uint32_t w)
{
    int32_t sa = (int32_t)a, sw = (int32_t)w;
    switch (func) {
    case NC_FUNC_ADD32: return a + w; /* unsigned: wraps */
    case NC_FUNC_MIN32S: return sa < sw ? a : w;
    case NC_FUNC_MAX32S: return sa > sw ? a : w;
    case NC_FUNC_MIN32U: return a < w ? a : w;
    case NC_FUNC_MUL32: return a * w; /* unsigned: the low 32 bits */
    default: return a > w ? a : w;    /* NC_FUNC_MAX32U */
    }
}

uint64_t nc_func_apply(int func, uint64_t a, uint64_t w)
{
    switch (func) {
    case NC_FUNC_XOR: return a ^ w;
    case NC_FUNC_AND: return a & w;
    case NC_FUNC_OR: return a | w;
    case NC_FUNC_ADD64: return a + w;
    case NC_FUNC_MUL64: return a * w;
    case NC_FUNC_MUL32:
    case NC_FUNC_ADD32:
    case NC_FUNC_MIN32S:
    case NC_FUNC_MAX32S:
    case NC_FUNC_MIN32U:
    case NC_FUNC_MAX32U:
        return (uint64_t)lane(func, (uint32_t)(a >> 32), (uint32_t)(w >> 32)) << 32 |
               lane(func, (uint32_t)a, (uint32_t)w);
    default: return a;
    }
}

static uint64_t load(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

void nc_func_combine(int func, uint8_t *acc, const uint8_t *src, size_t len)
{
    for (size_t off = 0; off < len; off += 8) {
        size_t n = len - off < 8 ? len - off : 8;
        uint64_t r = nc_func_apply(func, load(acc + off, n), load(src + off, n));
        for (size_t i = 0; i < n; i++) acc[off + i] = (uint8_t)(r >> (8 * i));
    }
}

const char *nc_func_name(int func) { return func >= 0 && func < NC_FUNC_ALL ? names[func] : NULL; }

int nc_func_parse(const char *name)
{
    for (int f = 0; f < NC_FUNC_ALL; f++)
        if (!strcmp(name, names[f])) return f;
    return -1;
}

static const struct {
    const char *name;
    int func;
} redops[] = {{"sum", NC_FUNC_ADD32},  {"sum64", NC_FUNC_ADD64}, {"prod", NC_FUNC_MUL32},  {"prod64", NC_FUNC_MUL64},
              {"min", NC_FUNC_MIN32S}, {"max", NC_FUNC_MAX32S},  {"minu", NC_FUNC_MIN32U}, {"maxu", NC_FUNC_MAX32U},
              {"and", NC_FUNC_AND},    {"or", NC_FUNC_OR},       {"xor", NC_FUNC_XOR}};
#define NREDOPS (int)(sizeof redops / sizeof *redops)

int nc_redop_parse(const char *name)
{
    for (int i = 0; i < NREDOPS; i++)
        if (!strcmp(name, redops[i].name)) return redops[i].func;
    return -1;
}

const char *nc_redop_name(int func)
{
    for (int i = 0; i < NREDOPS; i++)
        if (redops[i].func == func) return redops[i].name;
    return "?";
}
