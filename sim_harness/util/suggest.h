/* suggest.h - "did you mean ...?" for a mistyped name: the closest of a set
 * of candidates by edit distance (insertions, deletions, substitutions and
 * swaps of neighbours each cost 1), offered only when it is close enough to
 * be a typo rather than another word. */
#ifndef XNOC_SUGGEST_H
#define XNOC_SUGGEST_H

#include <stddef.h>

/* Optimal-string-alignment distance between a and b (case-sensitive). */
int suggest_distance(const char *a, const char *b);

/* The candidate closest to word if it is within max(1, strlen(word) / 3)
 * edits, else NULL (ties: the first). */
const char *suggest_pick(const char *word, const char *const *cands, size_t n);

/* The same over the "--name" words of a usage text: the option closest to
 * word (which starts with "--"), or NULL.  The result points into a static
 * buffer, valid until the next call. */
const char *suggest_option(const char *word, const char *usage);

#endif
