/* htif.h - Spike's host-target interface (HTIF) for one core: the syscall
 * proxy behind tohost/fromhost, as riscv-tests' benchmarks and pk-style
 * runtimes use it.
 *
 * A non-zero store to tohost stops the core (rv32.h): an odd value is an
 * exit code, (code << 1) | 1 (RV32_HALT); an even value is the address of
 * a "magic_mem" block of eight 64-bit words, { n, a0, a1, ... a6 }
 * (RV32_HTIF).  htif_serve() runs syscall n, writes its return value
 * (sign-extended to 64 bits) into word 0, clears tohost and sets fromhost
 * to 1, which is what the target's `while (fromhost == 0);` waits for.
 * Only the low word of the 64-bit tohost is read: on RV32 an address fits
 * and Spike's device/command fields (bits 63:48) are 0 for syscalls.
 *
 * Syscalls (Linux numbers, as Spike's fesvr): write (64) to fd 1 or 2 goes
 * to the host's console callback; exit (93) and exit_group (94) to its exit
 * callback; read (63) of fd 0 reads end of file; close (57) of fd 0-2
 * succeeds; getmainvars (2011) gives argc = 0; lseek (62) of fd 0-2
 * answers -ESPIPE; any other number (fstat, open, ...) answers -ENOSYS.
 * Bad fds answer -EBADF, buffers outside RAM -EFAULT.
 */
#ifndef XNOC_HTIF_H
#define XNOC_HTIF_H

#include <stddef.h>
#include <stdint.h>

#include "core/rv32.h"

enum {
    HTIF_SYS_CLOSE = 57,
    HTIF_SYS_LSEEK = 62,
    HTIF_SYS_READ = 63,
    HTIF_SYS_WRITE = 64,
    HTIF_SYS_EXIT = 93,
    HTIF_SYS_EXIT_GROUP = 94,
    HTIF_SYS_GETMAINVARS = 2011,
};

typedef struct {
    /* bytes written to fd 1 or 2 (fd says which) */
    void (*write)(void *ctx, int fd, const uint8_t *buf, uint32_t len);
    /* SYS_exit / SYS_exit_group: the program ended with this code */
    void (*exit)(void *ctx, int code);
    void *ctx;
} htif_host;

/* Serves the request c->tohost_value (an even address) names.  Returns 0,
 * or -1 with one line in err when the block itself lies outside RAM (the
 * target cannot be answered: the caller reports it as a fault). */
int htif_serve(rv32 *c, const htif_host *h, char *err, size_t errlen);

#endif
