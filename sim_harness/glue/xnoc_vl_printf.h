/* xnoc_vl_printf.h - force-included (-include) into verilated.cpp in
 * assert-enabled builds, which define VL_PRINTF=xg_vl_printf: Verilator's
 * messages then go to xnoc_glue.cpp, which keeps the first assertion
 * failure for net.c instead of printing it on stdout. */
#ifdef __cplusplus
extern "C"
#endif
    int
    xg_vl_printf(const char *fmt, ...);
