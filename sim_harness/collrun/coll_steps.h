/* coll_steps.h - the network-coding paper's step measure for a firmware
 * run (`xnoc collective --measure steps`): from the run's packet events
 * (--events' lines, net/hop_log.h), each global step's worst packet
 * latency counted from the head's injection into the network (source
 * queueing in the NI excluded) to the tail's ejection. */
#ifndef XNOC_COLL_STEPS_H
#define XNOC_COLL_STEPS_H

#include <stdint.h>
#include <stdio.h>

/* Reads f (JSON lines from the start) and fills worst[0..nsteps): step st
 * runs from start + step_cycles[0..st) to the end of step_cycles[st]; a
 * packet belongs to the step its head was injected in.  A packet is an
 * inject line matched to the eject line of the same (src, tag, dst), in
 * order.  A unit's copy of a multicast (a unit injects it, its source a
 * terminal: addresses below nterms) is timed from the multicast's own
 * injection at that terminal, the last one of its (src, tag) before the
 * copy's ejection, so that E through the units counts the whole tree, not
 * its last hop.  *matched counts the packets timed, *unmatched the eject
 * lines without an injection.  0, or -1 with one line in err. */
int coll_step_latencies(FILE *f, int nterms, uint64_t start, const uint64_t *step_cycles, int nsteps, uint64_t *worst,
                        uint64_t *matched, uint64_t *unmatched, char *err, size_t errlen);

#endif
