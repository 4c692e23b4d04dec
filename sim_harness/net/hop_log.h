/* hop_log.h - packet events at every hop (--events F.jsonl on run and
 * collective): where each packet's head entered the network, every
 * router-to-router link it crossed and where it left, read from the link
 * taps of the RTL network (net_monitor_open()), not from a model of it.
 *
 * The first line names the network: {"cycle":0,"event":"network",
 * "topo":"mesh:4x4","ports":1,"vcs":2,"ncu":1}.  Then one JSON line per
 * packet per channel, written when the packet's tail has
 * crossed that channel:
 *   {"cycle":C,"event":"inject"|"hop"|"eject","router":R,"port":P,
 *    "port_name":"x+","vc":V, ...where from/to..., "dst":D,"src":S,"tag":T,
 *    "flits":N,"tail_cycle":C2}
 * cycle is the cycle the head was on the channel, tail_cycle the tail's, N
 * the flits counted on it (so a packet's lines add up to its flits times
 * its channels).  inject: "node"/"channel" (an NI's injection channel, the
 * cycle the NI drove it) or "unit" (a coding unit's result entering its
 * router); hop: "next" (the router it reached); eject: "node"/"channel" or
 * "unit".  src and tag come from the meta flit (-1 for a one-flit packet).
 * docs/view.md and docs/ni.md describe the format. */
#ifndef XNOC_HOP_LOG_H
#define XNOC_HOP_LOG_H

#include <stdint.h>
#include <stdio.h>

#include "net/net.h"
#include "net/topo.h"

typedef struct hop_log hop_log;

/* Switches net to its tapped model variant (before its first cycle) and
 * writes to f.  NULL + one line in err. */
hop_log *hop_log_open(FILE *f, xnoc_net *net, const topo *t, const router_cfg *rc, char *err, size_t errlen);
/* After each net_cycle(): inj is what the NIs drove in it (cycle now - 1),
 * the taps show cycle now. */
void hop_log_cycle(hop_log *h, const xnoc_flit *inj, uint64_t now);
/* Packets whose tail has not passed yet get a line with "incomplete":true. */
void hop_log_close(hop_log *h);
/* Lines written so far (inject, hop, eject). */
uint64_t hop_log_count(const hop_log *h, int kind);
enum { HOP_INJECT, HOP_HOP, HOP_EJECT };

#endif
