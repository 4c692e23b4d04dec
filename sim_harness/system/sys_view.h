/* sys_view.h - the live view / PNG frames of an emulated system: what
 * `xnoc run` and `xnoc collective` show (link load, buffers, each node's
 * state and collective step). */
#ifndef XNOC_SYS_VIEW_H
#define XNOC_SYS_VIEW_H

#include "system/system.h"
#include "view/view.h"

typedef struct sys_view sys_view;

/* Hooks view v into s's cycle loop (s->on_cycle): a sample whenever the
 * view wants one; closing the window stops the run (sys_run returns 3).
 * The status line counts nodes running / waiting / done and the range of
 * collective steps the nodes report (DEV_STEP). */
sys_view *sys_view_attach(sys *s, view *v);

/* The last picture and the heatmap; 0, or -1 with the reason in
 * view_error(). */
int sys_view_finish(sys_view *sv);

/* Unhooks and frees (not the view). */
void sys_view_free(sys_view *sv);

#endif
