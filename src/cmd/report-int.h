/* SPDX-License-Identifier: GPL-2.0 */
/* report-info.c for report.c: the views of a perf.data file that need no report library. */
#ifndef SCHEDLENS_CMD_REPORT_INT_H
#define SCHEDLENS_CMD_REPORT_INT_H

#include <stdbool.h>

#include "schedlens/perfdata.h"
#include "schedlens/util.h"

/* --stats: records by type and samples per event, as perf report --stats */
int report__stats(struct perf_file *f, struct errbuf *err);
/* perf report --header-only's text; @full: with -I's topology, NUMA, cache, memory lines */
void report__print_header(const struct perf_file *f, const char *path, bool full);

#endif
