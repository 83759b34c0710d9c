/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One record stream, two sources. A perf.data file (perfdata.h) and live ring buffers
 * (sampler.h) deliver the same records to a struct stream_ops, in time order, so every
 * analysis (report, annotate, sched) is written once against this header.
 *
 * Both sources decode records with one decoder and order them with one queue
 * (src/lib/stream/stream-int.h), so a rule (a LOST_SAMPLES record's id, a sample of no known
 * event counted in nr_unknown_id, a record too short for its type) is the same for both.
 *
 * Contract for sources:
 *  - ops->begin() is called once, before any record, with the events and the header facts;
 *  - records follow in time order (a file's FINISHED_ROUND semantics, a live session's merge
 *    of per-CPU buffers); pointers inside a record are valid only during the callback;
 *  - a callback returning non-zero stops the stream and the source returns that value;
 *  - lost records (PERF_RECORD_LOST, LOST_SAMPLES) are counted in stream_stats and passed to
 *    ops->lost(); record types the source does not know are counted and skipped, never fatal;
 *  - ops->end() is called once after the last record, also after an error that still left
 *    records read (so partial input is still reported).
 * Any callback may be NULL.
 */
#ifndef SCHEDLENS_STREAM_H
#define SCHEDLENS_STREAM_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlens/origin.h"

struct tep_handle;
struct tep_event;

struct stream_evsel {
	struct perf_event_attr attr;	/* host byte order; fields past the file's attr size are 0 */
	char name[128];			/* "cycles", "L1-dcache-load-misses", "sched:sched_switch" */
	struct tep_event *tp;		/* tracepoint format (PERF_TYPE_TRACEPOINT), else NULL */
	uint64_t *ids;			/* sample ids that map to this event */
	size_t nr_ids;
	int idx;			/* position in stream_info.evsels */
};

struct stream_sample {
	const struct stream_evsel *evsel;
	uint16_t misc;			/* header.misc: PERF_RECORD_MISC_CPUMODE_MASK and friends */
	uint64_t ip, time, addr, id, stream_id, period, phys_addr, weight, data_src, transaction;
	uint32_t pid, tid, cpu;
	uint64_t nr_callchain;		/* entries, PERF_CONTEXT_* markers included, as the kernel wrote */
	const uint64_t *callchain;
	uint32_t raw_size;		/* PERF_SAMPLE_RAW: tracepoint payload for libtraceevent */
	const void *raw;
	uint64_t nr_branches;
	const struct perf_branch_entry *branches;
	const void *read;		/* PERF_SAMPLE_READ, in the attr's read_format */
	uint64_t user_regs_abi, user_regs_mask;
	const uint64_t *user_regs;
	uint64_t user_stack_size;	/* PERF_SAMPLE_STACK_USER: dyn_size bytes at user_stack */
	const void *user_stack;
};

struct stream_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff, time;
	uint16_t misc;
	const char *filename;
	bool has_build_id;		/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
	uint8_t build_id[20], build_id_size;
	uint32_t maj, min, prot, flags;
	uint64_t ino, ino_generation;
};

struct stream_task {			/* FORK and EXIT */
	bool fork;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
	uint16_t misc;			/* the record's (PERF_RECORD_MISC_FORK_EXEC) */
};

struct stream_info {
	struct stream_evsel *evsels;
	size_t nr_evsels;
	struct tep_handle *tep;		/* file: its tracing-data section; live: tracefs. May be NULL */
	const char *path;		/* the file, or "(live)" */
	bool pipe_mode, big_endian;
	/* header facts; NULL or 0 when the source does not have them */
	const char *hostname, *os_release, *arch, *cpu_desc, *cpuid, *perf_version, *cmdline;
	uint32_t nr_cpus_online, nr_cpus_avail;
	/* recorded on the running kernel? decided once for the input (origin.h); live: this boot */
	struct origin origin;
};

struct stream_stats {
	uint64_t nr_records;		/* all records seen */
	uint64_t nr_samples;
	uint64_t nr_lost;		/* samples lost, summed from LOST and LOST_SAMPLES */
	uint64_t nr_lost_records;	/* number of LOST / LOST_SAMPLES records */
	uint64_t nr_unknown;		/* records of types the source skipped */
	uint64_t nr_by_type[128];	/* by PERF_RECORD_* type, types >= 128 under [127] */
	uint64_t nr_unknown_id;		/* samples whose id maps to no event: skipped */
};

struct stream_ops {
	void *ctx;
	int (*begin)(void *ctx, const struct stream_info *info);
	int (*sample)(void *ctx, const struct stream_sample *s);
	int (*comm)(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec, uint64_t time);
	int (*mmap)(void *ctx, const struct stream_mmap *m);
	int (*task)(void *ctx, const struct stream_task *t);
	int (*lost)(void *ctx, uint64_t id, uint64_t nr, uint64_t time);
	/* SWITCH / SWITCH_CPU_WIDE: out is true when switching out; next_prev_* only CPU-wide */
	int (*switch_)(void *ctx, uint32_t pid, uint32_t tid, uint32_t cpu, bool out,
		       uint32_t next_prev_pid, uint32_t next_prev_tid, uint64_t time);
	/* every record, before the typed callback above (@rec: its body, past the header);
	 * rarely needed (script, writers) */
	int (*raw)(void *ctx, const struct perf_event_header *h, const void *rec);
	int (*end)(void *ctx, const struct stream_stats *stats);
	/*
	 * Every record with a time up to @time has been delivered (a time-order flush, as
	 * perf's at a FINISHED_ROUND; ~0 at the end): a consumer of unordered samples can
	 * settle those of them not newer, the records around them known. Both sources call it.
	 */
	int (*flushed)(void *ctx, uint64_t time);
	/*
	 * The SAMPLEs whose cpumode (misc & PERF_RECORD_MISC_CPUMODE_MASK) has its bit here
	 * (1 << cpumode) may come to .sample as they are read, outside time order, for a
	 * consumer whose handling of them does not depend on the records around them (perf's
	 * ordered_events, for part of the samples; report's kernel samples by symbol). Both
	 * sources honour it. Read once .begin has returned: begin may set it.
	 */
	uint32_t unordered;
	/* the consumer reads no tracepoint payloads: the event formats are left unparsed, and
	 * info->tep and the events' tp stay NULL (their names are kept) */
	bool no_formats;
};

#endif
