/* node 3 loops forever (a bug); every other node exits */
#include <stdio.h>
#include "xnoc.h"

static volatile int flag;

static void wait_for_flag(void)
{
    while (!flag) {} /* nobody ever sets it */
}

int main(void)
{
    if (node_id() == 3) wait_for_flag();
    return 0;
}
