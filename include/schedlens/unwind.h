/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space DWARF unwinding of samples recorded with `--call-graph dwarf`
 * (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER), through libdwfl's frame unwinder as
 * perf's unwind-libdw does: the sampled registers start the walk, stack words come from the
 * sample's stack copy, anything else from the mapped file; CFI from .eh_frame or .debug_frame.
 * x86_64 only (the register layout of the sample).
 */
#ifndef SCHEDLENS_UNWIND_H
#define SCHEDLENS_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "schedlens/stream.h"

/* a file-backed mapping of the sampled process */
struct unwind_map {
	uint64_t start, end, pgoff;
	const char *path;
};

/* the mapping of @pid that holds @addr: 0, or -ENOENT */
typedef int (*unwind_find_map_fn)(void *ctx, uint32_t pid, uint64_t addr,
				  struct unwind_map *out);

struct unwinder;

struct unwinder *unwinder__new(unwind_find_map_fn find_map, void *ctx);
void unwinder__delete(struct unwinder *u);

/*
 * Walk the user stack of sample @s, whose process's mappings are at generation @gen (any
 * number that changes when a mapping the walks may have reported changes; one added beside
 * them need not change it: what was learnt of the process is dropped then): its program
 * counters, innermost first (the sample's own ip first; for callers the return address minus
 * one, as perf stores them), into @ips, at most @max. Returns the number of frames (0 when the sample has no user registers or stack, or
 * no file is behind its ip: perf's unwinding reports no frame then), or -errno.
 */
int unwinder__unwind(struct unwinder *u, const struct stream_sample *s, uint64_t gen,
		     uint64_t *ips, size_t max);

#endif
