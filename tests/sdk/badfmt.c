/* a wrong printf argument: the build must fail (format attribute) */
#include <stdio.h>

int main(void)
{
    printf("%d\n", "x");
    return 0;
}
