/* booksim_cfg.h - BookSim2's config-file keys as `xnoc traffic` options,
 * for --config (config_file.h; the mapping: docs/traffic.md, "Config
 * files"). */
#ifndef XNOC_BOOKSIM_CFG_H
#define XNOC_BOOKSIM_CFG_H

#include "cmd/config_file.h"

extern const cfg_dialect booksim_cfg;
extern const char *const booksim_cfg_keys[]; /* the keys it maps */

#endif
