/* report.h - a command's text report written from its JSON report, so the
 * two never disagree: the command builds one json_t with every figure, then
 * either dumps it (--json) or prints text lines from templates over it.
 *
 *   report_printf(stdout, o, "  offered {offered:%.3f}, accepted {throughput:%.4f}\n");
 *
 * "{path}" is replaced by the value at path (keys joined by dots,
 * numbers index arrays: "router.vcs", "nodes.3.instructions"), "{path:FMT}" formats it with the printf conversion FMT
 * (a double for e/f/g, a long long for d/i/u/x, a string for s).  Defaults:
 * integers in decimal, reals with %g, strings as they are, true/false.
 * "{{" and "}}" are literal braces.  A path the report does not have is a
 * bug in the command: it prints as "{?path}" so tests see it.  An array's
 * element is a report too: render a row over json_array_get(report_get(o,
 * "links"), i) rather than building "{links.%d.x}" templates. */
#ifndef XNOC_REPORT_H
#define XNOC_REPORT_H

#include <jansson.h>
#include <stdio.h>

/* The value at a dotted path, or NULL. */
const json_t *report_get(const json_t *o, const char *path);
/* Writes tmpl with its placeholders replaced; returns the placeholders that
 * named no value (0 when the template and the report agree). */
int report_printf(FILE *f, const json_t *o, const char *tmpl);

#endif
