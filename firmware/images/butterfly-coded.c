/* butterfly-coded - see butterfly.h */
#include "butterfly.h"

int main(void) { return run_butterfly(BF_CODED); }
