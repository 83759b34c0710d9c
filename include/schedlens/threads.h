/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Threads, their comms and the memory maps of their processes, rebuilt from a record stream
 * (COMM, FORK, MMAP/MMAP2) the way perf's machine/thread/maps do, so a sample resolves to the
 * comm and the DSO perf report would show. Feed records in stream order; resolve samples as
 * they come. Strings returned are interned: equal strings are equal pointers, valid until
 * threads__delete().
 */
#ifndef SCHEDLENS_THREADS_H
#define SCHEDLENS_THREADS_H

#include <stdbool.h>
#include <stdint.h>

#include "schedlens/stream.h"

struct threads;

struct tmap {
	uint64_t start, end, pgoff;
	const char *dso;		/* short name: "libc.so.6", "[kernel.kallsyms]", "[ext4]" */
	const char *path;		/* as recorded; JIT code: /tmp/perf-PID.map, as perf names it */
	bool identity;			/* map_ip is the identity (kernel, anon memory) */
};

/* Where a sample landed, as perf's addr_location has it. */
struct taddr {
	/*
	 * The thread's comm at this point of the stream. Like perf, a thread's first COMM
	 * renames its ":tid" placeholder in place, so this string may change later and
	 * equal names may be distinct pointers: merge by content (hist__collapse).
	 */
	const char *comm;
	const struct tmap *map;		/* NULL: no map ("[unknown]") */
	uint64_t addr;			/* map-relative address (ip when no map) */
	char level;			/* 'k' kernel, '.' user, 'H' other */
};

struct threads *threads__new(void);
void threads__delete(struct threads *t);

int threads__comm(struct threads *t, uint32_t pid, uint32_t tid, const char *comm, bool exec);
int threads__mmap(struct threads *t, const struct stream_mmap *m);
/* @misc: the record's header.misc (perf's PERF_RECORD_MISC_FORK_EXEC: do not clone maps) */
int threads__task(struct threads *t, const struct stream_task *tk, uint16_t misc);

/* Changes when a kernel map is added or changed (not when the same one comes again). */
uint64_t threads__kmaps_gen(const struct threads *t);

/* Resolve a sample's ip (or any address with its cpumode) for pid/tid. 0 or -ENOMEM. */
int threads__resolve(struct threads *t, uint32_t pid, uint32_t tid, uint16_t misc,
		     uint64_t addr, struct taddr *out);

/* Intern a string. NULL on ENOMEM. */
const char *threads__intern(struct threads *t, const char *s);

#endif
