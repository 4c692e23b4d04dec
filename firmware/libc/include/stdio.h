/* stdio.h - the console side of xnoc's small C library (firmware/libc).
 * Output goes to the node's console device: lines appear as "[node N] ..."
 * (or in --console-dir).  There are no files and no input. */
#ifndef XNOC_LIBC_STDIO_H
#define XNOC_LIBC_STDIO_H

#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)

/* %d %i %u %o %x %X %c %s %p %% %f %F %e %E %g %G, flags - + space # 0,
 * width and precision (numbers or *), lengths hh h l ll j z t; the format
 * attribute makes a mismatched argument a compile error (-Werror=format). */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int sprintf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vsprintf(char *buf, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
int snprintf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
int putchar(int c);
int puts(const char *s);

#endif
