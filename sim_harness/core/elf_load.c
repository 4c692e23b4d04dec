/* elf_load.c - load a RISC-V 32-bit executable with libelf. */
#include "core/elf_load.h"

#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static int by_addr(const void *a, const void *b)
{
    const elf_sym *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return (y->size > 0) - (x->size > 0); /* a function before a label at the same place */
}

void elf_info_free(elf_info *info)
{
    for (int i = 0; i < info->nsyms; i++) free(info->syms[i].name);
    free(info->syms);
    info->syms = NULL;
    info->nsyms = 0;
    for (int i = 0; i < info->nfiles; i++) free(info->files[i]);
    free(info->files);
    free(info->lines);
    info->files = NULL;
    info->lines = NULL;
    info->nfiles = info->nlines = 0;
}

static int line_by_addr(const void *a, const void *b)
{
    const elf_line *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The DWARF line tables of every compilation unit (libdw), as (address,
 * file, line) rows sorted by address; nothing if the image has none. */
static void find_lines(int fd, elf_info *info)
{
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    if (!dw) return;
    Dwarf_Off off = 0, next;
    size_t hsz;
    while (dwarf_nextcu(dw, off, &next, &hsz, NULL, NULL, NULL) == 0 && info->nlines < 1000000) {
        Dwarf_Die cu;
        Dwarf_Lines *lines;
        size_t n;
        if (dwarf_offdie(dw, off + hsz, &cu) && dwarf_getsrclines(&cu, &lines, &n) == 0) {
            for (size_t i = 0; i < n; i++) {
                Dwarf_Line *l = dwarf_onesrcline(lines, i);
                Dwarf_Addr a;
                int ln;
                const char *f = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
                if (!f || dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln) || ln <= 0) continue;
                const char *base = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
                int fi = info->nfiles - 1;
                while (fi >= 0 && strcmp(info->files[fi], base)) fi--;
                if (fi < 0) {
                    char **nf = realloc(info->files, (size_t)(info->nfiles + 1) * sizeof *nf);
                    char *s = strdup(base);
                    if (!nf || !s) {
                        free(s);
                        if (nf) info->files = nf;
                        continue;
                    }
                    info->files = nf;
                    fi = info->nfiles;
                    info->files[info->nfiles++] = s;
                }
                elf_line *nl = realloc(info->lines, (size_t)(info->nlines + 1) * sizeof *nl);
                if (!nl) continue;
                info->lines = nl;
                info->lines[info->nlines++] = (elf_line){(uint32_t)a, fi, ln};
            }
        }
        off = next;
    }
    dwarf_end(dw);
    if (info->nlines) qsort(info->lines, (size_t)info->nlines, sizeof *info->lines, line_by_addr);
}

const char *elf_symbolize(const elf_info *info, uint32_t addr, char *buf, size_t len)
{
    int lo = 0, hi = info->nsyms - 1, best = -1;
    while (lo <= hi) { /* the last symbol at or below addr */
        int mid = (lo + hi) / 2;
        if (info->syms[mid].addr <= addr) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    while (best > 0 && info->syms[best - 1].addr == info->syms[best].addr && info->syms[best].size == 0) best--;
    buf[0] = 0;
    if (best < 0) return buf;
    const elf_sym *s = &info->syms[best];
    if (s->size && addr - s->addr >= s->size) return buf;
    /* the last line-table row at or below addr, inside the same symbol */
    const elf_line *ln = NULL;
    for (int l = 0, h = info->nlines - 1; l <= h;) {
        int mid = (l + h) / 2;
        if (info->lines[mid].addr <= addr) {
            ln = &info->lines[mid];
            l = mid + 1;
        } else {
            h = mid - 1;
        }
    }
    char where[96] = "";
    if (ln && ln->addr >= s->addr) snprintf(where, sizeof where, " %s:%d", info->files[ln->file], ln->line);
    if (addr == s->addr) snprintf(buf, len, " <%s%s>", s->name, where);
    else snprintf(buf, len, " <%s+0x%x%s>", s->name, addr - s->addr, where);
    return buf;
}

static void find_symbols(Elf *e, elf_info *info)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; d && i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s)) continue;
            const char *name = elf_strptr(e, sh.sh_link, s.st_name);
            if (!name) continue;
            int type = GELF_ST_TYPE(s.st_info);
            if ((type == STT_FUNC || (type == STT_NOTYPE && s.st_shndx != SHN_UNDEF)) && name[0] && name[0] != '.' &&
                name[0] != '$' && strncmp(name, "__", 2) && s.st_value >= info->lo && s.st_value < info->hi &&
                info->nsyms < 100000) {
                elf_sym *q = realloc(info->syms, (size_t)(info->nsyms + 1) * sizeof *q);
                char *nm = strdup(name);
                if (q && nm) {
                    info->syms = q;
                    q[info->nsyms++] = (elf_sym){(uint32_t)s.st_value, (uint32_t)s.st_size, nm};
                } else {
                    free(nm);
                    if (q) info->syms = q;
                }
            }
            if (!strcmp(name, "tohost")) info->tohost = (uint32_t)s.st_value;
            else if (!strcmp(name, "fromhost")) info->fromhost = (uint32_t)s.st_value;
            else if (!strcmp(name, "__stack_bottom")) info->stack_bottom = (uint32_t)s.st_value;
        }
    }
}

#define RV32_FIX "xnoc cores are RV32IMAFDC: build with -march=rv32imafdc (or a subset) -mabi=ilp32d (or ilp32f, ilp32)"

/* The ISA the image was built for, where it says so: the ELF header's
 * flags (the quad-float ABI, RVE; RVC and the single/double-float ABIs are
 * fine) and the arch string of
 * the .riscv.attributes section ("rv32i2p0_m2p0_a2p0_c2p0").  0, or -1 with
 * one line in err naming the flag or extension and the -march to use. */
static int check_isa(Elf *e, const GElf_Ehdr *eh, const char *path, char *err, size_t errlen)
{
    unsigned fl = (unsigned)eh->e_flags;
    if ((fl & 0x6) == 0x6) {
        snprintf(err, errlen, "%s: built for the quad-float ABI (-mabi=ilp32q, ELF flags 0x6): " RV32_FIX, path);
        return -1;
    }
    if (fl & 0x8) {
        snprintf(err, errlen, "%s: built for RV32E (ELF flag 0x8, -mabi=ilp32e): " RV32_FIX, path);
        return -1;
    }
    Elf_Scn *scn = NULL;
    size_t shstr;
    if (elf_getshdrstrndx(e, &shstr)) return 0;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstr, sh.sh_name)) || strcmp(name, ".riscv.attributes"))
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf) return 0;
        const char *b = d->d_buf, *end = b + d->d_size, *arch = NULL;
        for (const char *p = b; p + 4 < end && !arch; p++)
            if (!memcmp(p, "rv32", 4) || !memcmp(p, "rv64", 4)) arch = p;
        if (!arch) return 0;
        size_t alen = strnlen(arch, (size_t)(end - arch));
        char *a = strndup(arch, alen);
        if (!a) return 0;
        int bad = 0;
        /* first token: rv32 + base letter + version, then _-separated extensions */
        for (char *tok = a + 4, *save = NULL, *t = strtok_r(tok, "_", &save); t && !bad;
             t = strtok_r(NULL, "_", &save)) {
            size_t n = 0;
            while (t[n] && !(t[n] >= '0' && t[n] <= '9')) n++;
            int ok = (n == 1 && strchr("imafdc", t[0])) || (n == 5 && !strncmp(t, "zicsr", 5)) ||
                     (n == 8 && !strncmp(t, "zifencei", 8)) || (n == 5 && !strncmp(t, "zmmul", 5));
            if (!ok) {
                bad = 1;
                snprintf(err, errlen, "%s: built for the '%.*s' extension (.riscv.attributes: %s): " RV32_FIX, path,
                         (int)n, t, arch);
            }
        }
        free(a);
        return bad ? -1 : 0;
    }
    return 0;
}

/* The machines an ELF a user hands us is most likely built for, by name. */
static const char *machine_name(unsigned m)
{
    switch (m) {
    case EM_386: return "x86 (i386)";
    case EM_X86_64: return "x86-64";
    case EM_ARM: return "ARM (32-bit)";
    case EM_AARCH64: return "AArch64";
    case EM_MIPS: return "MIPS";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC 64";
    case EM_S390: return "s390";
    case EM_SPARC: return "SPARC";
    case EM_SPARCV9: return "SPARC v9";
    case EM_LOONGARCH: return "LoongArch";
    default: return "another machine";
    }
}

int elf_load(const char *path, uint8_t *ram, uint32_t base, uint32_t size, elf_info *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(err, errlen, "%s: libelf is unusable", path);
        return -1;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int rc = -1;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    GElf_Ehdr eh;
    size_t nph = 0;
    if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
        snprintf(err, errlen, "%s: not an ELF file", path);
        goto done;
    }
    if (eh.e_machine != EM_RISCV) {
        snprintf(err, errlen, "%s: an ELF for %s (machine %u), not RISC-V: build it for the cores (docs/firmware.md)",
                 path, machine_name(eh.e_machine), (unsigned)eh.e_machine);
        goto done;
    }
    if (gelf_getclass(e) != ELFCLASS32) {
        snprintf(err, errlen, "%s: a 64-bit ELF; xnoc cores are RV32 (build with -march=rv32imafdc -mabi=ilp32d)",
                 path);
        goto done;
    }
    if (eh.e_ident[EI_DATA] != ELFDATA2LSB) {
        snprintf(err, errlen, "%s: a big-endian ELF; RISC-V is little-endian", path);
        goto done;
    }
    if (eh.e_type != ET_EXEC) {
        snprintf(err, errlen, "%s: not an executable (ELF type %u; link it first)", path, (unsigned)eh.e_type);
        goto done;
    }
    if (check_isa(e, &eh, path, err, errlen)) goto done;
    if (elf_getphdrnum(e, &nph)) nph = 0;
    int loaded = 0;
    info->lo = UINT32_MAX;
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        uint64_t lo = ph.p_paddr, hi = ph.p_paddr + ph.p_memsz;
        if (lo < base || hi > (uint64_t)base + size || ph.p_filesz > ph.p_memsz) {
            snprintf(err, errlen,
                     "%s: segment %zu at 0x%08llx-0x%08llx lies outside RAM 0x%08x-0x%08llx (--ram sets its size)",
                     path, i, (unsigned long long)lo, (unsigned long long)hi, base, (unsigned long long)base + size);
            goto done;
        }
        if (ph.p_filesz) {
            if (pread(fd, ram + (lo - base), ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) {
                snprintf(err, errlen, "%s: segment %zu is truncated", path, i);
                goto done;
            }
        }
        memset(ram + (lo - base) + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
        if (lo < info->lo) info->lo = (uint32_t)lo;
        if (hi > info->hi) info->hi = (uint32_t)hi;
        loaded++;
    }
    if (!loaded) {
        snprintf(err, errlen, "%s: no loadable segment", path);
        goto done;
    }
    info->entry = (uint32_t)eh.e_entry;
    find_symbols(e, info);
    if (info->nsyms) qsort(info->syms, (size_t)info->nsyms, sizeof *info->syms, by_addr); /* NULL when none */
    find_lines(fd, info);
    rc = 0;
done:
    if (rc) elf_info_free(info);
    if (e) elf_end(e);
    close(fd);
    return rc;
}
