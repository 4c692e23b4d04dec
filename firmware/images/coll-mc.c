/* coll-mc - coll.elf's plan runner with phase E's multicasts through the
 * routers' coding units (PO_MCAST, plan.h): firmware/coll/coll.c built with
 * COLL_MCAST=1 (firmware.mk).  xnoc collective --distribute unit runs it;
 * every other plan runs on coll.elf, whose code the option leaves as it is. */
#include "coll.h"
#include "plan.h"
#include "xnoc.h"

int main(void)
{
    uint32_t *plan = (uint32_t *)(uintptr_t)DEV(DEV_PLAN);
    if (!plan) {
        printf("no collective plan: run this image with xnoc collective --distribute unit\n");
        return 2;
    }
    return plan[PH_FLAGS] & PF_EXT ? coll_run_ext(plan) : coll_run(plan);
}
