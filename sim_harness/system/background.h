/* background.h - synthetic traffic from terminals that run no firmware
 * (background.c): the load other jobs put on the network while a
 * collective or an image runs. */
#ifndef XNOC_BACKGROUND_H
#define XNOC_BACKGROUND_H

#include <stdint.h>

struct sys;
typedef struct background background;

typedef struct {
    int nodes;
    uint64_t sent, received, rx_bytes, waiting; /* messages; waiting: arrived, not started */
} background_stats_t;

/* "RATE[:BYTES]": RATE flits per cycle in [0, 1] (0 only if allow_zero:
 * none), BYTES 1..65536 (else *bytes is left as it is).  0, or -1 with
 * one line in err. */
int background_parse(const char *spec, int allow_zero, double *rate, int *bytes, char *err, int errlen);

/* mask[t]: terminal t is a background terminal; rate: flits per cycle each
 * offers; bytes: message size (one packet). */
background *background_create(struct sys *s, const unsigned char *mask, double rate, int bytes, uint64_t seed);
/* one network cycle: arrivals, sends, draining the rings (before ni_cycle) */
void background_cycle(background *b, struct sys *s);
void background_stats(const background *b, background_stats_t *st);
void background_free(background *b);

#endif
