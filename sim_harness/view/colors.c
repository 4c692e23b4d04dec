/* colors.c - the utilization colormap and the node state colors.
 *
 * Utilization runs dark blue (idle, still visible on the light background)
 * through green and yellow to red (a flit every cycle), the usual
 * "cold to hot" reading, interpolated linearly between four stops. */
#include "view_impl.h"

const SDL_Color COL_BG = {246, 246, 243, 255};
const SDL_Color COL_INK = {25, 25, 30, 255};
const SDL_Color COL_GRID = {120, 120, 128, 255};
const SDL_Color COL_PANEL = {232, 233, 236, 255};
const SDL_Color COL_ROUTER = {255, 255, 255, 255};
const SDL_Color COL_FILL = {255, 170, 60, 255};  /* buffered flits */
const SDL_Color COL_XOR = {190, 40, 190, 255};   /* in-network XOR reduction */
const SDL_Color COL_MCAST = {0, 150, 200, 255};  /* multicast copies */
const SDL_Color COL_SEL = {230, 0, 120, 255};    /* the clicked item */
const SDL_Color COL_TERM = {205, 208, 214, 255}; /* a terminal whose state the view is not told */

SDL_Color color_util(double u)
{
    static const double stop[4][3] = {{25, 35, 120}, {20, 170, 70}, {245, 215, 30}, {220, 25, 25}};
    if (!(u > 0)) u = 0; /* also NaN */
    if (u > 1) u = 1;
    double x = u * 3;
    int i = (int)x;
    if (i > 2) i = 2;
    double f = x - i;
    SDL_Color c = {0, 0, 0, 255};
    c.r = (Uint8)(stop[i][0] + f * (stop[i + 1][0] - stop[i][0]) + 0.5);
    c.g = (Uint8)(stop[i][1] + f * (stop[i + 1][1] - stop[i][1]) + 0.5);
    c.b = (Uint8)(stop[i][2] + f * (stop[i + 1][2] - stop[i][2]) + 0.5);
    return c;
}

static const struct {
    SDL_Color c;
    char letter;
    const char *name;
} states[VIEW_NODE_NSTATES] = {
    [VIEW_NODE_RUNNING] = {{70, 180, 90, 255}, 'R', "running"},
    [VIEW_NODE_WAITING] = {{240, 170, 40, 255}, 'W', "waiting"},
    [VIEW_NODE_EXITED] = {{150, 150, 155, 255}, 'X', "exited"},
    [VIEW_NODE_FAULTED] = {{215, 40, 40, 255}, 'F', "faulted"},
    [VIEW_NODE_IDLE] = {{200, 210, 225, 255}, 'I', "idle"},
};

static int valid(int s) { return s >= 0 && s < VIEW_NODE_NSTATES; }
SDL_Color color_state(int s) { return states[valid(s) ? s : VIEW_NODE_IDLE].c; }
char letter_state(int s) { return valid(s) ? states[s].letter : '?'; }
const char *name_state(int s) { return valid(s) ? states[s].name : "unknown"; }
