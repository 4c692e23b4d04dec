/* 40 numbered lines on node 0 (the report keeps the last 32), then exit 3 */
#include <stdio.h>
#include "xnoc.h"

int main(void)
{
    if (node_id() != 0) return 0;
    for (int i = 0; i < 40; i++) printf("line %d\n", i);
    return 3;
}
