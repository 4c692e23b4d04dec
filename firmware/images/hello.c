/* hello - every node prints its id and the topology. */
#include "xnoc.h"

int main(void)
{
    char name[48];
    printf("hello from node %d of %d on %s\n", node_id(), node_count(), topo_name(name));
    return 0;
}
