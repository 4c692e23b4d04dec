/* butterfly-unicast-via - see butterfly.h */
#include "butterfly.h"

int main(void) { return run_butterfly(BF_VIA); }
