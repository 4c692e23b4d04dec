/* bench.c - ISS speed benchmark: integer kernels typical of node firmware
 * (matrix multiply, CRC-32, insertion sort, memcpy-like copies, division).
 *
 * Prints "checksum XXXXXXXX" and ends through tohost.  The same file built
 * for the host (-DHOST) prints the checksum the core must reproduce, so the
 * benchmark is also a correctness test (tests/iss.t.sh).
 * The round count is the first argument on the host, ROUNDS on the target. */
#include <stdint.h>

#ifndef ROUNDS
#define ROUNDS 200
#endif
#define N 16

static uint32_t a[N][N], b[N][N], m[N][N];
static uint32_t arr[64];
static uint8_t bytes[256], copy[256];

static uint32_t crc32(const uint8_t *p, int n, uint32_t crc)
{
    crc = ~crc;
    for (int i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static uint32_t round_of(uint32_t seed)
{
    uint32_t s = seed, sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            s = s * 1664525u + 1013904223u;
            a[i][j] = s >> 24;
            b[i][j] = s >> 16 & 0xff;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            uint32_t t = 0;
            for (int k = 0; k < N; k++) t += a[i][k] * b[k][j];
            m[i][j] = t;
            sum += t;
        }
    for (int i = 0; i < 64; i++) {
        s = s * 1664525u + 1013904223u;
        arr[i] = s;
    }
    for (int i = 1; i < 64; i++) {
        uint32_t v = arr[i];
        int j = i - 1;
        while (j >= 0 && arr[j] > v) {
            arr[j + 1] = arr[j];
            j--;
        }
        arr[j + 1] = v;
    }
    for (int i = 0; i < 256; i++) bytes[i] = (uint8_t)(m[i / N % N][i % N] ^ arr[i % 64]);
    for (int i = 0; i < 256; i++) copy[255 - i] = bytes[i];
    sum ^= crc32(copy, 256, sum);
    for (int i = 1; i < 64; i++) sum += arr[i] / (uint32_t)i + arr[i] % 97u;
    return sum;
}

static uint32_t bench(int rounds)
{
    uint32_t sum = 0;
    for (int r = 0; r < rounds; r++) sum = sum * 31 + round_of(sum + (uint32_t)r);
    return sum;
}

#ifdef HOST
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    printf("checksum %08x\n", bench(argc > 1 ? atoi(argv[1]) : ROUNDS));
    return 0;
}
#else
volatile uint32_t tohost __attribute__((section(".tohost"), aligned(8)));
#define CONSOLE (*(volatile uint8_t *)0x10000008) /* tests/iss_driver.c device */

static void puts_(const char *s)
{
    while (*s) CONSOLE = (uint8_t)*s++;
}

void start_c(void)
{
    uint32_t v = bench(ROUNDS);
    char hex[] = "checksum 00000000\n";
    for (int i = 0; i < 8; i++) hex[9 + i] = "0123456789abcdef"[v >> (28 - 4 * i) & 15];
    puts_(hex);
    tohost = 1;
    for (;;) {}
}

/* stack at the top of the (default 256 KiB) RAM, then C */
__asm__(".section .text.start\n.globl _start\n_start:\n"
        "  li sp, 0x80040000\n  call start_c\n");
#endif
