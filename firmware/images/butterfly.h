/* butterfly.h - the butterfly of Fig. 1 (Shalaby, Fujiwara, Koibuchi, "The
 * Case for Network Coding for Collective Communication on HPC
 * Interconnection Networks") on mesh:3x2 with XY routing, in three
 * versions: each source sends its data to both destinations.
 *
 *      S1=3 --- IS=r4 --- S2=5        terminal t on router t, x = t % 3, y = t / 3
 *       |        |         |
 *      D1=0 --- ID=r1 --- D2=2
 *
 *   BF_UNICAST    S1 sends A to D1 and to D2, S2 sends B to D2 and to D1
 *                 (links 3->0 and 5->2 carry two packets each: XY routing
 *                 goes around the shared link 4->1);
 *   BF_VIA        (butterfly-unicast-via) the same, the far packets source-
 *                 routed as the butterfly's graph routes them, through the
 *                 shared link: S1 3->4->1->2, S2 5->4->1->0 (4->1 carries A
 *                 and B; a mode of its own, so that the other images' code,
 *                 and their cycle counts, stay as they were);
 *   BF_MULTICAST  one packet per source, replicated by the coding units:
 *                 S1 -> unit(0), which delivers to D1 and forwards to D2
 *                 (--arg tree=0: replicated at the source's own router);
 *   BF_CODED      S1 sends A to D1 and A to unit(4) as an ENCODE
 *                 contribution, S2 likewise with B; unit(4) sends A^B once
 *                 over 4 -> 1 to unit(1), which replicates it to unit(0) and
 *                 unit(2), where the destinations' own copies (A at D1, B at
 *                 D2) decode it: D1 gets B and D2 gets A.  --arg swdecode=1
 *                 sends A^B to the terminals and XORs in software instead.
 *
 * --arg bytes=N (default 64) per source, cut into chunks of at most the
 * units' packet limit (256 bytes by default), at most 4 chunks (the units'
 * coding slots).  Every destination checks every byte it receives and
 * exits 1 on a mismatch; it prints when its last byte arrived, counted
 * from the cycle the start barrier released:
 *   "butterfly-MODE: D1 (node 0) has A and B, 64 bytes each, byte-exact, done at +N cycles" */
#include "xnoc.h"

enum { BF_UNICAST, BF_MULTICAST, BF_CODED, BF_VIA };
enum { S1 = 3, S2 = 5, D1 = 0, D2 = 2, IS = 4, ID = 1, MAX_CHUNKS = 4 };
enum { TAG_A = 0x100, TAG_B = 0x200, TAG_X = 0x300 };

static const char *const mode_name[] = {"unicast", "multicast", "coded", "unicast-via"};
#define MAX_BYTES 2048
static uint8_t ring[8192] __attribute__((aligned(8)));
static uint8_t data[MAX_BYTES] __attribute__((aligned(8)));    /* this node's own data */
static uint8_t want[2][MAX_BYTES] __attribute__((aligned(8))); /* A and B as the destination expects them */
static uint8_t tmp[MAX_BYTES / MAX_CHUNKS] __attribute__((aligned(8)));
static uint64_t mask[NC_MASK_MAX];

static uint8_t pattern(int src, uint32_t i)
{
    uint32_t h = (uint32_t)src * 0x9E3779B1u ^ i * 0x85EBCA77u;
    h ^= h >> 13;
    h *= 0xC2B2AE3Du;
    h ^= h >> 16;
    return (uint8_t)h;
}

static void mask_of(int a, int b)
{
    for (int i = 0; i < NC_MASK_MAX; i++) mask[i] = 0;
    nc_mask_set(mask, a);
    nc_mask_set(mask, b);
}

/* first byte that differs, or -1 */
static int diff(const uint8_t *got, const uint8_t *exp, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (got[i] != exp[i]) return (int)i;
    return -1;
}

static int run_butterfly(int mode)
{
    int me = node_id(), k = node_ports();
    char tn[48];
    uint32_t bytes = node_param("bytes", 64);
    int tree = (int)node_param("tree", 1), swdec = (int)node_param("swdecode", 0);
    uint32_t chunk = (uint32_t)nc_max_bytes();
    if (!chunk || chunk > MAX_BYTES / MAX_CHUNKS) chunk = MAX_BYTES / MAX_CHUNKS;
    uint32_t nch = bytes ? (bytes + chunk - 1) / chunk : 1;
    if (node_count() != 6 || node_routers() != 6 || DEV(DEV_TOPO_KIND) != 0 || DEV(DEV_TOPO_W) != 3) {
        if (me == 0) printf("butterfly: needs --topo mesh:3x2, not %s\n", topo_name(tn));
        return 2;
    }
    if (nch > MAX_CHUNKS || bytes > MAX_BYTES) {
        if (me == 0) printf("butterfly: bytes=%u is more than %d chunks of %u bytes\n", bytes, MAX_CHUNKS, chunk);
        return 2;
    }
    if (mode == BF_VIA && k > 4) { /* its routes: 3 bits a hop, at most 8 ports a router */
        if (me == 0) printf("butterfly-unicast-via: at most 4 channels per terminal (--ports), not %d\n", k);
        return 2;
    }
    if (mode != BF_UNICAST && mode != BF_VIA && !nc_units()) {
        if (me == 0) printf("butterfly-%s: the routers have no coding units (--router ncu=0)\n", mode_name[mode]);
        return 2;
    }
    noc_init(ring, sizeof ring);
    int src = me == S1 || me == S2, dst = me == D1 || me == D2;
    if (src)
        for (uint32_t i = 0; i < bytes; i++) data[i] = pattern(me, i);
    if (dst)
        for (uint32_t i = 0; i < bytes; i++) want[0][i] = pattern(S1, i), want[1][i] = pattern(S2, i);
    barrier();
    if (!src && !dst) return 0;

    if (src) {
        int near = me == S1 ? D1 : D2, far = me == S1 ? D2 : D1;
        uint16_t tag = me == S1 ? TAG_A : TAG_B;
        uint64_t first_go = 0, last_go = 0;
        for (uint32_t c = 0; c < nch; c++) {
            uint8_t *p = data + c * chunk;
            uint32_t len = c == nch - 1 ? bytes - c * chunk : chunk;
            int ch0 = (int)(2 * c) % k, ch1 = (int)(2 * c + 1) % k;
            if (mode == BF_UNICAST) {
                noc_send(ch0, near, p, len, (uint16_t)(tag + c));
                if (!c) first_go = noc_go_cycle(ch0);
                noc_send(ch1, far, p, len, (uint16_t)(tag + c));
                last_go = noc_go_cycle(ch1);
            } else if (mode == BF_VIA) {
                /* mesh ports 0 +x, 1 -x, 3 -y, 4 the terminal's (k = 1), 3 bits a hop */
                uint64_t x = me == S1 ? 0 : 1, r = x | 3u << 3 | x << 6 | 4u << 9;
                noc_send(ch0, near, p, len, (uint16_t)(tag + c));
                if (!c) first_go = noc_go_cycle(ch0);
                noc_send_routed(ch1, far, r, 4, p, len, (uint16_t)(tag + c));
                last_go = noc_go_cycle(ch1);
            } else if (mode == BF_MULTICAST) {
                mask_of(D1, D2);
                noc_multicast(ch0, nc_unit(tree ? nc_router_of(near) : nc_router_of(me)), mask, p, len,
                              (uint16_t)(tag + c));
                if (!c) first_go = noc_go_cycle(ch0);
                last_go = noc_go_cycle(ch0);
            } else {
                noc_send(ch0, near, p, len, (uint16_t)(tag + c));
                if (!c) first_go = noc_go_cycle(ch0);
                if (swdec) mask_of(D1, D2);
                else mask_of(nc_unit(nc_router_of(D1)), nc_unit(nc_router_of(D2)));
                noc_code x = {.mc = 1,
                              .op = NC_ENCODE,
                              .count = 2,
                              .out_dest = nc_unit(ID),
                              .out_mc = 1,
                              .out_op = NC_REPLICATE,
                              .out_count = 2,
                              .mask = mask};
                noc_send_coded(ch1, nc_unit(IS), &x, p, len, (uint16_t)(TAG_X + c));
                last_go = noc_go_cycle(ch1);
            }
        }
        for (int c = 0; c < k; c++) noc_send_wait(c);
        printf("butterfly-%s: %s (node %d) sent %u bytes, GO at +%u .. +%u cycles\n", mode_name[mode],
               me == S1 ? "S1" : "S2", me, bytes, (unsigned)(first_go - barrier_cycle()),
               (unsigned)(last_go - barrier_cycle()));
        return 0;
    }

    /* a destination: 2 * nch messages (coded: its source's data, then the decoded other one) */
    int own = me == D1 ? 0 : 1; /* index of the data this node's "near" source sends */
    int bad = 0;
    uint32_t got[2] = {0, 0};
    uint64_t last = 0;
    for (uint32_t n = 0; n < 2 * nch; n++) {
        noc_msg m;
        noc_recv(&m);
        last = noc_recv_cycle();
        int which, c = m.tag & 0xff, from_x = (m.tag & 0xff00) == TAG_X;
        if (from_x) which = own ^ 1;
        else which = (m.tag & 0xff00) == TAG_A ? 0 : 1;
        uint32_t len = (uint32_t)c == nch - 1 ? bytes - (uint32_t)c * chunk : chunk;
        const uint8_t *exp = want[which] + (uint32_t)c * chunk;
        int ok_hdr = (uint32_t)c < nch && m.len == len && (m.tag & 0xff00) >= TAG_A && (m.tag & 0xff00) <= TAG_X;
        if (ok_hdr && mode == BF_CODED && !from_x && which == own && !swdec) {
            /* hardware decoding: this node's copy of its source's data goes to
             * its own router's unit, which XORs it with the coded packet */
            noc_encode(0, nc_unit(nc_router_of(me)), 2, me, m.data, m.len, (uint16_t)(TAG_X + c));
        }
        const uint8_t *payload = m.data;
        if (ok_hdr && mode == BF_CODED && from_x && swdec) {
            /* software decoding: A^B from the network, XOR this node's copy of its source's data */
            nc_xor(tmp, m.data, want[own] + (uint32_t)c * chunk, len);
            payload = tmp;
        }
        int d = ok_hdr ? diff(payload, exp, len) : -1;
        if (!ok_hdr) {
            printf("butterfly-%s: node %d: unexpected message from %u, tag 0x%x, %u bytes\n", mode_name[mode], me,
                   m.src, m.tag, m.len);
            bad++;
        } else if (d >= 0) {
            printf("butterfly-%s: node %d: %c chunk %d byte %d is 0x%02x, expected 0x%02x (from %u)\n", mode_name[mode],
                   me, which ? 'B' : 'A', c, c * (int)chunk + d, payload[d], exp[d], m.src);
            bad++;
        } else {
            got[which] += len;
        }
        noc_send_wait(0); /* the decode contribution may still read the ring */
        noc_release(&m);
    }
    uint64_t t = last - barrier_cycle();
    if (got[0] != bytes || got[1] != bytes) bad++;
    printf("butterfly-%s: %s (node %d) has A and B, %u bytes each, %s, done at +%u cycles\n", mode_name[mode],
           me == D1 ? "D1" : "D2", me, bytes, bad ? "MISMATCH" : "byte-exact", (unsigned)t);
    return bad ? 1 : 0;
}
