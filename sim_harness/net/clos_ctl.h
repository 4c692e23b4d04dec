/* clos_ctl.h - the routing control of a three-stage Clos multicast network
 * v(m, n, r) (Yang and Masson; /work/shared/papers/collective-communication-
 * notes.txt, "A wide-sense nonblocking multicast network"; docs/clos.md).
 *
 * The network: r input switches of n inputs, m middle switches, r output
 * switches of n outputs; every input switch has one link to every middle
 * switch and every middle switch one link to every output switch, "every
 * switch module is assumed to have multicast capability".  In the paper's
 * words:
 *
 *   "Input connection request: An input connection request I_j is the set
 *    of output switches to which input port j is to be connected."
 *   "Destination sets: Destination set M_j is the set of output switches to
 *    which the middle switch j is providing connection paths from the input
 *    ports."
 *   "Available middle switches: The available middle switches of input port
 *    j is the set of middle switches with currently unused links to the
 *    input switch associated with input j."
 *   Theorem 1: "We can satisfy a new connection request I_i ... using some x
 *    (x >= 1) middle switches, say, j_1, ..., j_x, from among the available
 *    middle switches if and only if I_i and the current destination sets of
 *    these x middle switches satisfy I_i /\ (M_j1 /\ ... /\ M_jx) = empty."
 *
 * The linear routing control algorithm (the paper's Steps 1-3, Strategy 1):
 *
 *   Step 1: mid_switch <- empty; for j = 1 to m' do S_j <- M_j /\ I_i;
 *   Step 2: repeat
 *             find S_k such that |S_k| = min{|S_1|, ..., |S_m'|};
 *             min_set <- S_k; mid_switch <- mid_switch \/ {k};
 *             if min_set != empty then for j = 1 to m' do S_j <- S_j /\ min_set;
 *           until min_set = empty;
 *   Step 3: connect I_i through the middle switches in mid_switch and update
 *           the destination sets of these middle switches.
 *
 * over "m' = (n-1) r'^(1/x) + 1 available middle switches" (r' = |I_i|).
 * What the paper leaves open, fixed here: ties go to the lowest index; a
 * switch already chosen is not chosen again (its S_k equals min_set); if
 * the minimum does not shrink, or x switches are chosen and min_set is still
 * not empty, the request is BLOCKED (in a network meeting Theorem 3's bound
 * neither happens: the minima fall below (n-1)/m' of the previous one each
 * round, so x rounds end at empty).  Step 3: the k-th chosen switch carries
 * the destinations still open after the first k-1 that it reaches, i.e.
 * (S before round k) \ M_k, so a switch that was chosen always carries some.
 *
 * Sets of output switches are bit sets of clos_words(r) 64-bit words, bit k
 * = output switch k (0-based; the paper counts from 1).  Middle switches,
 * input and output switches are 0-based here as well. */
#ifndef XNOC_CLOS_CTL_H
#define XNOC_CLOS_CTL_H

#include <stdint.h>

#define CLOS_MAX_M 4096
#define CLOS_MAX_N 4096
#define CLOS_MAX_R 4096 /* output switches a simulated network may have */
#define CLOS_MAX_RW (CLOS_MAX_R / 64)

enum { CLOS_BLOCKED = -1, CLOS_INVALID = -2 };

typedef struct clos_net clos_net;

/* Words of a set of r output switches. */
static inline int clos_words(int r) { return (r + 63) / 64; }
static inline int clos_has(const uint64_t *s, int k) { return (int)(s[k >> 6] >> (k & 63)) & 1; }
static inline void clos_add(uint64_t *s, int k) { s[k >> 6] |= 1ull << (k & 63); }

/* An idle v(m, n, r) network (1 <= m <= CLOS_MAX_M, ...), or NULL if the
 * sizes are out of range. */
clos_net *clos_new(int m, int n, int r);
void clos_free(clos_net *c);
int clos_m(const clos_net *c);
int clos_n(const clos_net *c);
int clos_r(const clos_net *c);

/* The least integer t above mult * r^(1/x), i.e. the least t with
 * t^x > mult^x r, in exact integer arithmetic (no rounding of the root);
 * mult <= 2^16 and x <= 64 stay exact, beyond that the root in doubles. */
long clos_root_above(long mult, long r, int x);
/* The paper's m' for a request of fanout r' and x rounds: the least integer
 * above (n-1) r'^(1/x), i.e. the least m' with m'^x > (n-1)^x r', computed
 * exactly (no rounding of the root). */
long clos_window(int n, int rprime, int x);

/* Steps 1-2 for request `req` (a set of output switches) from input switch
 * `in`, choosing at most max_x middle switches among the first `window`
 * available ones (0: all available).  Writes the chosen switches, in the
 * order chosen, to mid[0..] (room for max_x) and returns how many, or
 * CLOS_BLOCKED.  The state is not changed. */
int clos_route(const clos_net *c, int in, const uint64_t *req, int max_x, int window, int *mid);

/* 1 if a request from input switch `in` to `req` is valid: req not empty,
 * an idle input port on `in` (fewer than n connections), an idle output
 * port on every output switch of req (fewer than n connections there). */
int clos_valid(const clos_net *c, int in, const uint64_t *req);

/* Steps 1-3: routes and connects; the connection's id (>= 0), CLOS_BLOCKED
 * (state unchanged) or CLOS_INVALID (clos_valid fails). */
int clos_connect(clos_net *c, int in, const uint64_t *req, int max_x, int window);
/* Step 3 alone through the given middle switches (nmid of them, in order):
 * for a routing chosen by hand (the paper's example).  CLOS_INVALID if the
 * request is invalid, a switch is not available or repeated, or Theorem 1's
 * condition fails (some destination no given switch reaches), or a given
 * switch would carry nothing. */
int clos_connect_via(clos_net *c, int in, const uint64_t *req, const int *mid, int nmid);
/* Releases connection id: its links, ports and destination-set entries. */
void clos_disconnect(clos_net *c, int id);

/* M_j (clos_words(r) words), the links of input switch `in` in use (a set
 * of middle switches, clos_words(m) words), the connections at an input and
 * an output switch, all connections. */
const uint64_t *clos_dest(const clos_net *c, int j);
const uint64_t *clos_in_links(const clos_net *c, int in);
int clos_in_count(const clos_net *c, int in);
int clos_out_count(const clos_net *c, int out);
int clos_connections(const clos_net *c);
/* Connection id: its input switch (-1 if id is not active), its middle
 * switches (returns how many; up to max written to mid). */
int clos_conn_in(const clos_net *c, int id);
int clos_conn_mids(const clos_net *c, int id, int *mid, int max);
/* The connection carried from middle switch j to output switch k, or -1. */
int clos_owner(const clos_net *c, int j, int k);
/* Ids of active connections are below this. */
int clos_conn_cap(const clos_net *c);

/* Counts the bits of a set of w words. */
int clos_popcount(const uint64_t *s, int w);

/* Checks the state's invariants (destination sets = owners, link and port
 * counts, no output link shared); 0, or -1 with one line in err. */
int clos_check(const clos_net *c, char *err, int errlen);

#endif
