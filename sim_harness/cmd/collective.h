/* collective.h - what the files of `xnoc collective` share: the command
 * line (collective.c parses it), the runs of coll-innet.elf
 * (collective_innet.c: --algo innet, --op scan, reducescatter and allreduce on
 * the cores, --algo multicast). */
#ifndef XNOC_COLLECTIVE_H
#define XNOC_COLLECTIVE_H

#include "cmd/cmd_opts.h"
#include "collrun/coll_exec.h"
#include "view/view.h"

/* The command line of `xnoc collective`. */
typedef struct {
    cmd_opts co;
    view_opts vo;
    const char *opname, *from, *to, *algo_s, *file;
    const char *steps_s; /* --algo multicast --steps */
    const char *shape_s, *mcast_s, *xor_s, *alloc_s, *inpos_s, *decode_s;
    const char *measure_s, *events_path; /* --measure; --events F.jsonl (read back by --measure steps) */
    const char *dist_s;                  /* --distribute unit|tree (hnc, combine: phase E) */
    int sync_given;                      /* --sync on the command line */
    const char *redop_s, *redop_opt;     /* --reduce-op (or its old name --redop) */
    int bytes, use_shipped;
    double exact_limit; /* 0: the defaults (sched.h) */
    long exact_conflicts, exact_moves;
    coll_exec_opts xo; /* how the run goes (collrun/coll_exec.h) */
} coll_cli;

/* 1 when the command line asks for --algo innet or --op scan (exit 2 for a
 * scan with another algorithm) */
int collective_is_innet(const coll_cli *c);
/* --algo innet or --op scan, --algo multicast: the options checked, the
 * run, the report; return the exit status */
int collective_innet(coll_cli *c);
/* 1 when the command line asks for --op reducescatter, or --op allreduce not in
 * the network (exit 2 for a reduce-scatter --algo innet); then the options
 * checked, the run on the cores, the report; returns the exit status */
int collective_is_software(const coll_cli *c);
int collective_software(coll_cli *c);
int collective_mcast(coll_cli *c);

#endif
