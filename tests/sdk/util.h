int check(const char *s);
