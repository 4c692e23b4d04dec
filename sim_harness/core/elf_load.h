/* elf_load.h - load a RISC-V 32-bit executable into node RAM (libelf). */
#ifndef XNOC_ELF_LOAD_H
#define XNOC_ELF_LOAD_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t addr, size; /* size 0: an assembly label */
    char *name;
} elf_sym;

typedef struct {
    uint32_t addr;
    int file, line; /* index into elf_info.files, line number */
} elf_line;

typedef struct {
    uint32_t entry;
    uint32_t tohost, fromhost; /* symbol addresses, 0 if absent */
    uint32_t stack_bottom;     /* __stack_bottom (firmware/lib/link.ld): the stack's limit, 0 if absent */
    uint32_t lo, hi;           /* extent of the loaded segments */
    elf_sym *syms;             /* functions and labels, by address (elf_info_free) */
    int nsyms;
    elf_line *lines; /* DWARF line table rows, by address (none without -g) */
    int nlines;
    char **files; /* source file names the rows point at (base names) */
    int nfiles;
} elf_info;

/* Copies every PT_LOAD segment into ram (which starts at base, size bytes),
 * zero-filling bss.  Returns 0, or -1 with one line in err naming the
 * problem: not an ELF, not 32-bit, not RISC-V, built for an extension the
 * cores lack (the quad-float ABI, RV32E in the ELF flags; any letter but
 * I, M, A, F, D and C in .riscv.attributes), no loadable segment, a
 * segment outside RAM. */
int elf_load(const char *path, uint8_t *ram, uint32_t base, uint32_t size, elf_info *info, char *err, size_t errlen);

void elf_info_free(elf_info *info);

/* " <name+0x18 file.c:42>" for an address inside a known function or
 * after a label (the file:line part where the image has DWARF line
 * information, libdw), "" when the image has no symbol for it. */
const char *elf_symbolize(const elf_info *info, uint32_t addr, char *buf, size_t len);

#endif
