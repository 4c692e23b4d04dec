/* metrics.h - the one table of report keys: key -> label and unit.
 *
 * `xnoc traffic --help` and `xnoc collective --help` print their "Report
 * keys:" section from it (one key a line, then its label and unit),
 * `xnoc sweep` checks a spec's metrics
 * against that section (sweep_help_options reads the first word of each
 * line) and labels its gnuplot axes from it ("avg latency (cycles)"
 * instead of "avg_latency"); sweep axes that are options (rate, packet)
 * have entries too.  A key no entry names is shown as itself. */
#ifndef XNOC_METRICS_H
#define XNOC_METRICS_H

#include <stdio.h>

typedef struct {
    const char *cmd;   /* the command whose report (or option, opt = 1) it is */
    const char *key;   /* the JSON key, or the option name without "--" */
    const char *label; /* words for an axis or a table */
    const char *unit;  /* "" when it has none (a count, a name) */
    int opt;           /* 1: an option (a sweep axis), not a report key */
} metric;

/* The entry of cmd's key, or NULL: a report key's, else an option's
 * (opt_first: an option's, else a report key's, for a sweep axis). */
const metric *metric_find(const char *cmd, const char *key, int opt_first);
/* "Report keys:" and one line per report key of cmd: key, label (unit). */
void metrics_help(FILE *f, const char *cmd);
/* An axis label: "label (unit)", "label" without a unit, key itself
 * without an entry.  The caller frees it. */
char *metric_axis_label(const char *cmd, const char *key, int opt_first);
/* For several keys on one axis: the labels joined by ", ", the unit once
 * at the end when they share it ("avg latency, p99 latency (cycles)").
 * The caller frees it. */
char *metric_axis_labels(const char *cmd, char *const *keys, size_t n);

#endif
