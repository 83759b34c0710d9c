/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live source of the record stream (stream.h): perf_event fds opened through libperf,
 * system-wide on a CPU list or following a task, read from per-CPU ring buffers and delivered
 * to a struct stream_ops merged in time order, like a perf.data file.
 *
 * The caller gives each event's perf_event_attr (sample_type, callchains, period); the
 * sampler adds PERF_SAMPLE_IDENTIFIER | TID | TIME | CPU to sample_type (records of several
 * events share one ring buffer per CPU and are merged by time), sets sample_id_all and
 * read_format ID and LOST (where the kernel has it, 6.0+, as perf 6.1), and adds a dummy
 * event for mmap/comm/task records when asked.
 * Tracepoint payloads are decoded with libtraceevent from the tracefs formats: the
 * tep_handle is stream_info.tep and each tracepoint's stream_evsel.tp.
 *
 * Ordering: records are copied out of the ring buffers on every pass and kept in a heap by
 * time; a record is delivered once a later pass has read past its time (perf's
 * FINISHED_ROUND rule), so memory stays bounded by two passes' worth of records.
 */
#ifndef SCHEDLENS_SAMPLER_H
#define SCHEDLENS_SAMPLER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "schedlens/stream.h"
#include "schedlens/util.h"

struct sampler;

struct sampler_event {
	struct perf_event_attr attr;
	const char *name;		/* "sched:sched_switch", "cpu-clock", ... */
};

struct sampler_opts {
	const struct sampler_event *events;
	size_t nr_events;
	const size_t *group_sizes;	/* NULL, or per event: > 1 leads a group of itself and
					 * the next events, opened on its fd as perf opens {A,B} */
	const char *cpus;		/* system-wide on this CPU list ("0-3,6"); NULL: online CPUs */
	pid_t pid;			/* > 0: follow this task instead (with its children, per CPU) */
	bool no_inherit;		/* with pid: only the task itself, per-thread buffers */
	bool tracking;			/* deliver mmap, comm, fork and exit records (always on) */
	bool start_disabled;		/* no event counts until sampler__enable() */
	int mmap_pages;			/* data pages per ring buffer, a power of two; 0: 512 */
	const char *tracefs;		/* NULL: /sys/kernel/tracing, else /sys/kernel/debug/tracing */
};

/*
 * The tracefs mount point into @buf: @hint if given and mounted, else the usual places.
 * 0, or -ENOENT with advice (how to mount it) in @err.
 */
int tracefs__find(const char *hint, char *buf, size_t len, struct errbuf *err);

/*
 * Fill @attr for tracepoint "sys:name" from tracefs (its id): type TRACEPOINT, period 1,
 * sample_type RAW. 0, or -ENOENT naming the unknown tracepoint (or the missing tracefs).
 */
int tracepoint__attr(const char *tracefs, const char *name, struct perf_event_attr *attr,
		     struct errbuf *err);

/*
 * Open and mmap every event. On failure returns NULL and @err names each event that failed and
 * why (EACCES: perf_event_paranoid advice; ENOENT/EOPNOTSUPP: not supported here).
 */
struct sampler *sampler__new(const struct sampler_opts *opts, struct errbuf *err);
void sampler__delete(struct sampler *s);

/* The stream description (events, tep); valid until sampler__delete(). */
const struct stream_info *sampler__info(const struct sampler *s);

/* Start / stop the caller's events (tracking records keep flowing). 0 or -errno. */
int sampler__enable(struct sampler *s);
int sampler__disable(struct sampler *s);

/*
 * Wait up to @timeout_ms for data (0: do not wait), read every ring buffer and deliver the
 * records that are safe to deliver in time order. ops->begin() is called on the first call.
 * Returns 0, a callback's non-zero value, or -errno.
 */
int sampler__poll(struct sampler *s, int timeout_ms, const struct stream_ops *ops);
/* Read everything left and deliver it all, then ops->end(). Same returns as poll. */
int sampler__drain(struct sampler *s, const struct stream_ops *ops);
const struct stream_stats *sampler__stats(const struct sampler *s);

/*
 * Parse a PERF_RECORD_SAMPLE in @attr's sample_type into @out (pointers into @h).
 * 0, or -EINVAL when the record is shorter than its sample_type says.
 */
int sample__parse(const struct perf_event_attr *attr, const struct perf_event_header *h,
		  struct stream_sample *out);
/* The sample_id_all trailer of a non-sample record: time, cpu, id (each 0 when absent). */
int sample_id__parse(const struct perf_event_attr *attr, const struct perf_event_header *h,
		     uint32_t *pid, uint32_t *tid, uint64_t *time, uint32_t *cpu, uint64_t *id);

#endif
