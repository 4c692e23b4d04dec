/* assert.h - xnoc's small C library (firmware/libc).  A failed assertion
 * prints "FILE:LINE: FUNC: Assertion `EXPR' failed." on the node's console
 * and the node exits with 134 (abort).  NDEBUG turns assertions off. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
void __assert_fail(const char *expr, const char *file, unsigned line, const char *func) __attribute__((noreturn));
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
#endif
#ifndef __cplusplus
#define static_assert _Static_assert
#endif
