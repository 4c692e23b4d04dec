/* usage.h - what a command's --help text (its options table) says about an
 * option, for the readers of files users share (config files, sweep
 * specs), so that no list of options is kept twice. */
#ifndef XNOC_USAGE_H
#define XNOC_USAGE_H

/* 1 if option a ("--histogram") writes files: its help line in usage names
 * its value "DIR" or "F.ext" (the format it writes: --histogram F.csv,
 * --heatmap F.png, --console-dir DIR), the --help convention for outputs;
 * an input is "F" or "FILE" (--config F).  Config files and sweep specs
 * refuse these: only the command line chooses where xnoc writes. */
int usage_writes(const char *usage, const char *a);

#endif
