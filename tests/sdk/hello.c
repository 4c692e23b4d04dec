#include <stdio.h>
#include <string.h>
#include "util.h"

int main(void)
{
    char buf[64];
    strcpy(buf, "xnoc");
    strcat(buf, "-sdk");
    printf("%-5d|%08x|%s\n", 42, 0xbeefu, buf);
    printf("%s has %zu chars, cmp %d, strstr %s\n", buf, strlen(buf), strcmp(buf, "xnoc") > 0, strstr(buf, "sdk"));
    return check(buf);
}
