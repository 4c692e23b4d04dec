/* htif.c - Spike's HTIF syscall proxy for one core (see htif.h). */
#include "core/htif.h"

#include <stdio.h>
#include <string.h>

#define HTIF_EBADF 9
#define HTIF_EFAULT 14
#define HTIF_ESPIPE 29
#define HTIF_ENOSYS 38

/* RAM offset of [addr, addr + len), or -1 if any of it lies outside RAM */
static int64_t ram_off(const rv32 *c, uint64_t addr, uint64_t len)
{
    uint64_t off = addr - c->ram_base;
    if (addr < c->ram_base || off > c->ram_size || len > c->ram_size - off) return -1;
    return (int64_t)off;
}

static uint64_t rd64(const rv32 *c, uint32_t off)
{
    uint64_t v;
    memcpy(&v, c->ram + off, 8);
    return v;
}

static void wr64(rv32 *c, uint32_t addr, uint64_t v)
{
    memcpy(c->ram + (addr - c->ram_base), &v, 8);
    rv32_ram_written(c, addr, 8);
}

static int64_t sys_write(rv32 *c, const htif_host *h, uint64_t fd, uint64_t buf, uint64_t len)
{
    if (fd != 1 && fd != 2) return -HTIF_EBADF;
    int64_t off = ram_off(c, buf, len);
    if (off < 0) return -HTIF_EFAULT;
    if (len && h->write) h->write(h->ctx, (int)fd, c->ram + off, (uint32_t)len);
    return (int64_t)len;
}

int htif_serve(rv32 *c, const htif_host *h, char *err, size_t errlen)
{
    uint32_t block = c->tohost_value;
    int64_t boff = ram_off(c, block, 64);
    if (boff < 0) {
        snprintf(err, errlen,
                 "tohost: syscall block at 0x%08x lies outside RAM 0x%08x-0x%08llx (an even tohost value is the "
                 "address of Spike's magic_mem)",
                 block, c->ram_base, (unsigned long long)c->ram_base + c->ram_size);
        return -1;
    }
    uint64_t a[8];
    c->tohost_value = 0; /* served (the exit callback may set it again) */
    for (int i = 0; i < 8; i++) a[i] = rd64(c, (uint32_t)boff + 8u * (uint32_t)i);
    int64_t ret;
    switch (a[0]) {
    case HTIF_SYS_WRITE: ret = sys_write(c, h, a[1], a[2], a[3]); break;
    case HTIF_SYS_EXIT:
    case HTIF_SYS_EXIT_GROUP:
        if (h->exit) h->exit(h->ctx, (int)(int32_t)a[1]);
        ret = 0;
        break;
    case HTIF_SYS_READ: ret = a[1] == 0 ? 0 : -HTIF_EBADF; break;
    case HTIF_SYS_CLOSE: ret = a[1] <= 2 ? 0 : -HTIF_EBADF; break;
    case HTIF_SYS_LSEEK: ret = a[1] <= 2 ? -HTIF_ESPIPE : -HTIF_EBADF; break;
    case HTIF_SYS_GETMAINVARS: {
        /* argc = 0, argv[0] = NULL, envp[0] = NULL: 24 bytes into a[1] */
        if (a[2] < 24 || ram_off(c, a[1], 24) < 0) {
            ret = -HTIF_EFAULT;
            break;
        }
        for (uint32_t i = 0; i < 3; i++) wr64(c, (uint32_t)a[1] + 8 * i, 0);
        ret = 0;
        break;
    }
    default: ret = -HTIF_ENOSYS;
    }
    wr64(c, block, (uint64_t)ret);
    if (c->tohost && ram_off(c, c->tohost, 8) >= 0) wr64(c, c->tohost, 0);
    if (c->fromhost && ram_off(c, c->fromhost, 8) >= 0) wr64(c, c->fromhost, 1);
    return 0;
}
