/* replay_events.h - the reader behind `xnoc replay`: an --events file
 * (net/hop_log.h wrote it) as per-packet spans, and the flits those spans
 * put on each channel up to a cycle.
 *
 * The file is untrusted input (event logs are shared): every field is
 * range-checked against the file's own network line and the documented
 * limits below, and nothing is materialized per flit or per cycle, so memory
 * is proportional to the file's lines and the work to its lines (plus the
 * cycles at which a picture is asked for).  The reader reports a bad file as
 * one line "FILE:LINE: ..." naming the field instead of exiting, so the
 * fuzzer (tests/fuzz/fuzz_events.c) can call it. */
#ifndef XNOC_REPLAY_EVENTS_H
#define XNOC_REPLAY_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "net/topo.h"

/* cycle and tail_cycle are below this: 2^48 cycles, years of simulation at
 * any speed xnoc reaches; keeps every product of a cycle and a flit count in
 * 64 bits */
#define REPLAY_MAX_CYCLE ((uint64_t)1 << 48)

/* One packet on one channel: its head on the channel at c0, its tail at c1
 * (for a packet still in flight when the run ended: c0 + flits - 1). Flit i
 * is replayed at c0 + (c1 - c0) * i / (flits - 1). */
typedef struct {
    uint64_t c0, c1;
    uint64_t line; /* where in the file */
    uint32_t flits;
    int32_t chan; /* view channel: links [0, nlinks), injection [nlinks, +nch), ejection [+nch, +nch) */
    int32_t vc;
} replay_span;

typedef struct {
    topo *t;
    int vcs;
    uint32_t max_flits; /* a packet's flits: head, meta, mask flits and the NI's largest message */
    replay_span *s;     /* sorted by c0 */
    size_t n, cap;
    uint64_t packets, unit_packets, hops, ejects, unit_ejects, incomplete;
    uint64_t first, last; /* cycles of the first and the last flit (0, 0 without flits) */
    uint64_t lines;
} replay_file;

/* Reads f (named name in messages).  topo_opt: --topo, which must agree
 * with the network line (or NULL).  0, or -1 and one line in err (e is
 * then freed). */
int replay_read(FILE *f, const char *name, const char *topo_opt, replay_file *e, char *err, size_t errlen);
void replay_free(replay_file *e);

/* Channels of the picture: links, injection and ejection channels. */
int replay_nchan(const replay_file *e);

/* The flits on each channel up to cycle c: a sweep over the spans in cycle
 * order, so the cycles asked for must not decrease.  Each call costs the
 * spans started since the previous one plus those still on a channel (at
 * most channels x VCs: a VC carries one packet at a time). */
typedef struct {
    const replay_file *e;
    size_t next;    /* first span not started */
    size_t *active; /* started, not finished */
    size_t nactive;
    uint64_t *done; /* [chan] flits of finished spans */
} replay_sweep;

void replay_sweep_init(replay_sweep *w, const replay_file *e);
/* counts[chan] = flits replayed on chan at cycles <= c */
void replay_sweep_at(replay_sweep *w, uint64_t c, uint64_t *counts);
/* After replay_sweep_at(w, c, ...): the first cycle after c at which a flit
 * is replayed, UINT64_MAX when none is left. */
uint64_t replay_sweep_next_flit(const replay_sweep *w, uint64_t c);
void replay_sweep_free(replay_sweep *w);

#endif
