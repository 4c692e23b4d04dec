/* iss_driver.c - runs one RV32 ELF on one core, without the network, until
 * it writes tohost.  Used by tests/iss.t.sh (ISA programs, riscv-tests) and
 * as the ISS benchmark (-b).
 *
 * usage: iss_driver [-b] [-r RAM_KIB] [-n MAX_INSTR] FILE.elf
 *   exit 0 and "pass (N instructions)" when tohost = 1;
 *   exit 1 and one line on stderr otherwise (test n failed, fault, no end);
 *   exit 2 and the loader's line for a bad ELF.
 *
 * Test devices (what the tests/isa programs may touch besides RAM):
 *   0x02000000  msip: bit 0 drives mip.MSIP               (CLINT layout)
 *   0x02004000  mtimecmp lo/hi: mip.MTIP = mcycle >= mtimecmp
 *   0x0200bff8  mtime lo/hi: reads mcycle
 *   0x10000000  irq: write 1/0 raises/lowers mip.MEIP (the external line)
 *   0x10000004  slow: a load stalls (RV32_STALL) 3 times, then reads 3
 *   0x10000008  console: a byte store prints a character
 *   0x1000000c  wake: write N = raise MEIP N cycles later (while in wfi too)
 *   anything else: access fault
 * and HTIF syscalls (htif.h): SYS_write prints on stdout, SYS_exit(n) ends
 * the run as tohost = (n << 1) | 1 does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/elf_load.h"
#include "core/htif.h"
#include "core/rv32.h"

#define RAM_BASE 0x80000000u
#define NEVER UINT64_MAX

typedef struct {
    rv32 *c;
    uint64_t mtimecmp, wake_at;
    int slow_left;
} devices;

static int dev_mmio(void *ctx, uint32_t addr, int size, int is_store, uint32_t *val)
{
    devices *dv = ctx;
    rv32 *c = dv->c;
    if (addr == 0x10000008 && is_store) {
        putchar((int)(*val & 0xff));
        return RV32_MMIO_OK;
    }
    if (size != 4) return RV32_MMIO_FAULT;
    switch (addr) {
    case 0x02000000:
        if (is_store) rv32_irq(c, IRQ_MSI, *val & 1);
        else *val = c->mip >> IRQ_MSI & 1;
        return RV32_MMIO_OK;
    case 0x02004000: case 0x02004004: {
        int hi = addr & 4;
        if (!is_store) *val = (uint32_t)(dv->mtimecmp >> (hi ? 32 : 0));
        else if (hi) dv->mtimecmp = (dv->mtimecmp & 0xffffffffull) | (uint64_t)*val << 32;
        else dv->mtimecmp = (dv->mtimecmp & ~0xffffffffull) | *val;
        rv32_irq(c, IRQ_MTI, c->cycle >= dv->mtimecmp);
        c->stop = 1;        /* the next timer event moved: recompute the run length */
        return RV32_MMIO_OK;
    }
    case 0x0200bff8: case 0x0200bffc:
        if (is_store) return RV32_MMIO_FAULT;
        *val = (uint32_t)(c->cycle >> (addr & 4 ? 32 : 0));
        return RV32_MMIO_OK;
    case 0x10000000:
        if (!is_store) return RV32_MMIO_FAULT;
        rv32_irq(c, IRQ_MEI, *val != 0);
        return RV32_MMIO_OK;
    case 0x10000004:
        if (is_store) return RV32_MMIO_FAULT;
        if (dv->slow_left > 0) {
            dv->slow_left--;
            return RV32_MMIO_STALL;
        }
        *val = 3;
        dv->slow_left = 3;
        return RV32_MMIO_OK;
    case 0x1000000c:
        if (!is_store) return RV32_MMIO_FAULT;
        dv->wake_at = c->cycle + *val;
        c->stop = 1;
        return RV32_MMIO_OK;
    default: return RV32_MMIO_FAULT;
    }
}

static void htif_write(void *ctx, int fd, const uint8_t *buf, uint32_t len)
{
    (void)ctx;
    (void)fd;
    fwrite(buf, 1, len, stdout);
}

static void htif_exit(void *ctx, int code)
{
    rv32 *c = ctx;
    c->halted = 1;
    c->tohost_value = (uint32_t)code << 1 | 1;
}

/* Raise the lines whose time has come; returns the next event's cycle. */
static uint64_t devices_tick(devices *dv)
{
    rv32 *c = dv->c;
    rv32_irq(c, IRQ_MTI, c->cycle >= dv->mtimecmp);
    if (c->cycle >= dv->wake_at) {
        rv32_irq(c, IRQ_MEI, 1);
        dv->wake_at = NEVER;
    }
    uint64_t next = dv->wake_at;
    if (dv->mtimecmp > c->cycle && dv->mtimecmp < next) next = dv->mtimecmp;
    return next;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int bench = 0, opt;
    uint32_t ram_kib = 256;
    uint64_t max_instr = 100000000;
    while ((opt = getopt(argc, argv, "br:n:")) != -1) {
        switch (opt) {
        case 'b': bench = 1; break;
        case 'r': ram_kib = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'n': max_instr = strtoull(optarg, NULL, 0); break;
        default: fprintf(stderr, "usage: iss_driver [-b] [-r RAM_KIB] [-n MAX_INSTR] FILE.elf\n"); return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "usage: iss_driver [-b] [-r RAM_KIB] [-n MAX_INSTR] FILE.elf\n");
        return 2;
    }
    static rv32 core;
    rv32 *c = &core;
    char err[512];
    elf_info info;
    if (rv32_init(c, RAM_BASE, ram_kib * 1024, 0)) {
        fprintf(stderr, "iss: cannot allocate %u KiB of RAM\n", ram_kib);
        return 2;
    }
    if (elf_load(argv[optind], c->ram, RAM_BASE, c->ram_size, &info, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        rv32_free(c);
        return 2;
    }
    rv32_reset(c, info.entry);
    c->tohost = info.tohost;
    c->fromhost = info.fromhost;
    elf_info_free(&info);
    devices dv = {c, NEVER, NEVER, 3};
    c->mmio = dev_mmio;
    c->mmio_ctx = &dv;

    int rc = 1, why = RV32_BUDGET;
    uint64_t stalls = 0, spent = 0;   /* not instret: programs may write it */
    double t0 = now();
    while (spent < max_instr) {
        uint64_t next = devices_tick(&dv);
        /* run no further than the next device event, so lines rise on time */
        uint64_t chunk = max_instr - spent;
        if (next != NEVER && next - c->cycle < chunk) chunk = next - c->cycle;
        why = rv32_run(c, chunk);
        spent += why == RV32_BUDGET ? chunk : 1;
        if (why == RV32_STALL) {
            rv32_idle(c, 1);     /* the device is not ready: time passes, retry */
            if (++stalls > 1000000) break;
        } else if (why == RV32_WFI) {
            next = devices_tick(&dv);
            if (next == NEVER && !rv32_wakeup(c)) break;       /* nothing will ever wake it */
            if (!rv32_wakeup(c)) rv32_idle(c, next - c->cycle);
            devices_tick(&dv);
            /* calling rv32_run again resumes after the wfi: the harness wake */
        } else if (why == RV32_HTIF) {
            htif_host h = {htif_write, htif_exit, c};
            if (htif_serve(c, &h, err, sizeof err)) {
                fprintf(stderr, "iss: %s\n", err);
                rv32_free(c);
                return 1;
            }
            if (c->halted) {
                why = RV32_HALT;
                break;
            }
        } else if (why != RV32_BUDGET && why != RV32_STOP) {
            break;
        }
    }
    double dt = now() - t0;
    if (why == RV32_HALT) {
        if (c->tohost_value == 1) {
            printf("pass (%llu instructions)\n", (unsigned long long)c->instret);
            rc = 0;
        } else {
            fprintf(stderr, "iss: tohost: test %u failed (tohost = 0x%x)\n", c->tohost_value >> 1, c->tohost_value);
        }
    } else if (why == RV32_FAULT) {
        rv32_fault_text(c, err, sizeof err);
        fprintf(stderr, "iss: %s (cycle %llu)\n", err, (unsigned long long)c->cycle);
    } else if (why == RV32_WFI) {
        fprintf(stderr, "iss: wfi at PC 0x%08x with no interrupt source armed\n", c->pc);
    } else {
        fprintf(stderr, "iss: no tohost after %llu instructions (PC 0x%08x)\n", (unsigned long long)c->instret, c->pc);
    }
    if (bench)
        fprintf(stderr, "iss: %llu instructions in %.3f s: %.1f MIPS\n", (unsigned long long)c->instret, dt,
                c->instret / dt / 1e6);
    rv32_free(c);
    return rc;
}
