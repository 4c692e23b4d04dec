/* fuzz_elf - the ELF loader (libelf) on arbitrary files: refused with one
 * line or loaded inside RAM, never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/elf_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    static char path[64];
    static uint8_t *ram;
    if (!ram) {
        snprintf(path, sizeof path, "/tmp/xnoc-fuzz-elf-%d", (int)getpid());
        ram = malloc(256 * 1024);
    }
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(d, 1, n, f);
    fclose(f);
    elf_info info;
    char err[300];
    if (elf_load(path, ram, 0x80000000u, 256 * 1024, &info, err, sizeof err) == 0) {
        char buf[300];
        for (uint32_t a = info.lo; a < info.hi && a < info.lo + 4096; a += 4)
            (void)elf_symbolize(&info, a, buf, sizeof buf);
        elf_info_free(&info);
    }
    return 0;
}
