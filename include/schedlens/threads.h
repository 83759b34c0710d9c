/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine model: threads, their comms and the memory maps of their processes, rebuilt
 * from a record stream (COMM, FORK, MMAP/MMAP2) the way perf's machine/thread/maps do, so a
 * sample resolves to the comm and the DSO perf report would show. Feed records in stream
 * order; resolve samples as they come. It is the one address-space model: a symbols session
 * (symbols.h) observes the machine its caller feeds (symbols_config.machine) and keeps its
 * DSO in each map (tmap.priv). Strings returned are interned: equal strings are equal
 * pointers, valid until threads__delete().
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
	void *priv;			/* the observer's (symbols: the DSO behind the map) */
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

/*
 * @fn(@ctx, @m, @map) for every MMAP record fed: @map is the user-space map about to be added
 * (@fn may set its priv, which forks copy with it), NULL for a kernel one. A non-zero return
 * is threads__mmap()'s. One observer per machine (the symbols session).
 */
void threads__observe(struct threads *t,
		      int (*fn)(void *ctx, const struct stream_mmap *m, struct tmap *map), void *ctx);
/* Bumped by every change to what a lookup of an existing thread gives: a map, a fork's copy,
 * a thread replaced, a comm. Lookups stay valid while it stays; a new process that no lookup
 * has named yet (a FORK of a pid never seen) does not move it. */
uint64_t threads__generation(const struct threads *t);
/* The map of process @pid at @addr (user space), NULL when none; nothing is created. */
const struct tmap *threads__map(struct threads *t, uint32_t pid, uint64_t addr);

/*
 * The versions of the address spaces that resolving an address of @pid/@tid in @cpumode
 * reads (threads__resolve()'s, creating the thread as it does, and threads__map()'s of
 * @pid): the kernel's for PERF_RECORD_MISC_KERNEL, else the thread's and
 * threads__map_space()'s of @pid.
 * A version is another after any change of its space and never comes again in the process:
 * what was resolved at equal versions and address is resolved alike. 0 or -ENOMEM.
 */
int threads__space(struct threads *t, uint32_t pid, uint32_t tid, uint16_t cpumode,
		   uint64_t v[2]);

/*
 * The version of what threads__map() reads for @pid (0: no such process, no maps), or for
 * the kernel's modes the kernel maps': as threads__space()'s, nothing created.
 */
uint64_t threads__map_space(struct threads *t, uint32_t pid, uint16_t cpumode);
/*
 * The layout of @pid's maps (0: no such process, no maps): it changes when a map is cut or
 * replaced, or the process takes other maps, not when a map is added where none was (what
 * was mapped is still where it was then)
 */
uint64_t threads__map_layout(struct threads *t, uint32_t pid);

/* Changes when a kernel map is added or changed (not when the same one comes again). */
uint64_t threads__kmaps_gen(const struct threads *t);

/* Resolve a sample's ip (or any address with its cpumode) for pid/tid. 0 or -ENOMEM. */
int threads__resolve(struct threads *t, uint32_t pid, uint32_t tid, uint16_t misc,
		     uint64_t addr, struct taddr *out);

/* The comm of pid/tid as threads__resolve() gives it, creating the thread as it does; NULL
 * on ENOMEM. */
const char *threads__comm_of(struct threads *t, uint32_t pid, uint32_t tid);
/* thread @tid's comm as a lookup gives it now, NULL when there is no such thread (none made) */
const char *threads__comm_now(struct threads *t, uint32_t tid);

/* Intern a string. NULL on ENOMEM. */
const char *threads__intern(struct threads *t, const char *s);

#endif
