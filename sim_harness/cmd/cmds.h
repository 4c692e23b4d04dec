/* cmds.h - the xnoc sub-commands; each lives in its own file. */
#ifndef XNOC_CMDS_H
#define XNOC_CMDS_H

int cmd_traffic(int argc, char **argv);    /* traffic.c */
int cmd_run(int argc, char **argv);        /* run.c */
int cmd_sched(int argc, char **argv);      /* cmd/sched_cmd.c */
int cmd_collective(int argc, char **argv); /* collective.c */
int cmd_topo(int argc, char **argv);       /* topo_cmd.c */
int cmd_qcdoc(int argc, char **argv);      /* qcdoc_cmd.c */
int cmd_ncmodel(int argc, char **argv);    /* ncmodel_cmd.c */
int cmd_sweep(int argc, char **argv);      /* sweep.c */
int cmd_dfmodel(int argc, char **argv);    /* dfmodel_cmd.c */
int cmd_replay(int argc, char **argv);     /* replay.c */
int cmd_synth(int argc, char **argv);      /* synth.c */
int cmd_clos(int argc, char **argv);       /* clos_cmd.c */

#endif
