/* coll - runs the collective plan the harness placed in RAM (xnoc collective). */
#include "coll.h"
#include "plan.h"
#include "xnoc.h"

int main(void)
{
    uint32_t *plan = (uint32_t *)(uintptr_t)DEV(DEV_PLAN);
    if (!plan) {
        printf("no collective plan: run this image with xnoc collective\n");
        return 2;
    }
    return plan[PH_FLAGS] & PF_EXT ? coll_run_ext(plan) : coll_run(plan);
}
