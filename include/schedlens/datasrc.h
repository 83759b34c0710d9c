/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PERF_SAMPLE_DATA_SRC decoded as perf 6.1 prints it (perf script's data_src field, from
 * tools/perf/util/mem-events.c perf_script__meminfo_scnprintf):
 *   "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A"
 * The value is the kernel's union perf_mem_data_src in host byte order (the file reader
 * swaps it as one u64).
 */
#ifndef SCHEDLENS_DATASRC_H
#define SCHEDLENS_DATASRC_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write the decoding of @data_src to @buf (always NUL-terminated when @size > 0), at most 99
 * characters as perf's 100-byte buffer holds. Returns the length written.
 */
size_t data_src__scnprintf(char *buf, size_t size, uint64_t data_src);

#endif
