/* clossim.h - multicast connections arriving and departing on a v(m, n, r)
 * network routed by the paper's control algorithm (net/clos_ctl.h), and an
 * adversary that searches for network states that force it to block
 * (docs/clos.md).
 *
 * The traffic: requests arrive as a Poisson stream of rate load * n r /
 * hold at uniformly random input ports (a busy port: the arrival is not a
 * request, counted in busy_input); a request's fanout is uniform in
 * [fmin, fmax], its output switches uniformly random among those with an
 * idle output port (fewer idle than the fanout: all of them, counted in
 * truncated; none: not a request); a routed connection holds its paths for
 * an exponential time of mean hold.  A request that the algorithm cannot
 * route with at most x middle switches is blocked (lost).  Everything is
 * drawn from one splitmix64 stream: the same configuration and seed give the
 * same figures on every machine. */
#ifndef XNOC_CLOSSIM_H
#define XNOC_CLOSSIM_H

#include <stdint.h>

typedef struct {
    int m, n, r;
    int x;      /* at most x middle switches per connection */
    int window; /* 0: every available middle switch; 1: the paper's m' = (n-1) r'^(1/x) + 1 */
    int fmin, fmax;
    double load; /* offered Erlangs per input port */
    double hold; /* mean holding time */
    long requests;
    uint64_t seed;
    long check_every; /* clos_check the state every this many requests (0: never) */
} closs_cfg;

typedef struct {
    long requests, blocked, routed;
    long busy_input, truncated;
    double blocking;    /* blocked / requests */
    double mean_fanout; /* of the requests */
    double mean_mids;   /* middle switches per routed connection */
    int max_mids;
    double mean_active; /* connections in the network at an arrival */
    int max_active;
    long check_failures; /* clos_check failures (0) */
} closs_result;

/* 0, or -1 with one line in err (bad configuration). */
int closs_run(const closs_cfg *cfg, closs_result *res, char *err, int errlen);

typedef struct {
    int m, n, r, x, window;
    long budget; /* moves (a request or a departure) per search */
    uint64_t seed;
} closa_cfg;

typedef struct {
    int forced;       /* a valid request the algorithm blocked */
    long moves;       /* moves until then (or the budget) */
    int connections;  /* in the network when it blocked */
    int in;           /* the blocked request: its input switch, */
    int fanout;       /* its fanout and */
    uint64_t req[4];  /* its output switches (r <= 256) */
    int links_in_use; /* links of its input switch in use */
} closa_result;

/* Hill climbing over request sequences: each move adds a random valid
 * connection (routed by the algorithm; blocked: found) or removes one, kept
 * if the state is at least as hard for the hardest probe request (every
 * input switch with an idle port: all idle output switches, each one alone,
 * and random subsets), where harder = more middle switches needed by the
 * algorithm, then fewer ways to finish, then more links in use, and one
 * move in ten kept even if it is easier; a probe the
 * algorithm blocks is issued as the next request.  Restarts from the empty
 * network when stuck.  0, or -1 with one line in err. */
int closa_search(const closa_cfg *cfg, closa_result *res, char *err, int errlen);

#endif
