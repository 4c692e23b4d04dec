/* compute - a compute-bound kernel for the core-emulator benchmark: integer
 * matrix products and a CRC, ITER times (--arg 0=ITER, default 20). */
#include "xnoc.h"

#define N 24
static int32_t a[N][N], b[N][N], c[N][N];

int main(void)
{
    uint32_t iter = node_arg(0) ? node_arg(0) : 20, crc = 0xffffffffu;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = i * 7 + j;
            b[i][j] = i - 3 * j;
        }
    for (uint32_t it = 0; it < iter; it++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                int32_t s = 0;
                for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
                c[i][j] = s / (int32_t)(it + 1);
            }
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                uint32_t v = (uint32_t)c[i][j];
                for (int bit = 0; bit < 32; bit++) {
                    uint32_t m = -((crc ^ v) & 1u);
                    crc = (crc >> 1) ^ (0xEDB88320u & m);
                    v >>= 1;
                }
            }
        a[it % N][it % N] ^= (int32_t)crc;
    }
    if (node_id() == 0) printf("compute: crc 0x%08x after %u iterations\n", crc, iter);
    return 0;
}
