/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduler analyses over the record stream (stream.h): written once, fed by a live sampler
 * or a perf.data file. From sched:* and ipi:* tracepoints it computes
 *  - wakeup latency: from sched_waking (sched_wakeup when the input has no sched_waking;
 *    sched_wakeup_new for new tasks) of a task that is not on a CPU to its next sched_switch
 *    in; per task, per command name and overall (exact nearest-rank percentiles);
 *  - the path of each such wakeup, from the waker CPU's records between the sched_waking and
 *    its next sched_waking or sched_switch (or the wakee's switch in):
 *      same-cpu      the wakee's CPU is the waker's;
 *      wakelist-ipi  queued on the remote CPU's wakelist (no sched_wakeup on the waker CPU),
 *                    a call-function IPI sent (ipi_send_cpu from ttwu_queue_wakelist);
 *      wakelist-poll queued on the wakelist of a polling idle CPU (sched_wake_idle_without_ipi);
 *      direct-ipi    enqueued remotely by the waker (sched_wakeup on the waker CPU), with a
 *                    reschedule IPI (ipi_send_cpu with no callback);
 *      direct-poll   enqueued remotely, the idle target polling (no IPI);
 *      direct-noipi  enqueued remotely, no preemption of the target needed;
 *      unknown       none of the above could be told (IPI tracepoints missing, records lost);
 *    the classes add up to the wakeups counted;
 *  - IPIs by call site and callback (symbolized through kallsyms), count and rate;
 *  - migrations (sched_migrate_task) per task and in all, by topology class;
 *  - wakee flips per waker (how often the task it wakes changes) and distinct wakers per wakee;
 *  - per task run time, runnable wait, sleep and switches, with perf sched timehist -s
 *    semantics for switches and run time (counted at each switch out; run time since the
 *    CPU's previous sched_switch).
 */
#ifndef SCHEDLENS_SCHEDAN_H
#define SCHEDLENS_SCHEDAN_H

#include <jansson.h>
#include <stdint.h>
#include <sys/types.h>

#include "schedlens/stream.h"
#include "schedlens/util.h"

struct schedan;
struct topology;
struct kallsyms;

enum wake_class {
	WAKE_SAME_CPU,
	WAKE_WAKELIST_IPI,
	WAKE_WAKELIST_POLL,
	WAKE_DIRECT_IPI,
	WAKE_DIRECT_POLL,
	WAKE_DIRECT_NOIPI,
	WAKE_UNKNOWN,
	WAKE__NR,
};

struct schedan_opts {
	const struct topology *topo;	/* for migration classes; NULL: all "unknown" */
	const char *kallsyms_path;	/* IPI call sites, read at the first IPI record as far
					 * as they need; NULL: /proc/kallsyms. When none can be
					 * read, call sites stay addresses (a warning says why)
					 * and wakelist IPIs are told by their callback */
	const char *cache_dir;		/* persistent kernel lookups (symbols__cache_dir()), kept
					 * at the end of the input; NULL: none */
	pid_t root_pid;			/* > 0: report only this task and its descendants (from
					 * fork records); IPIs and totals of records stay global */
};

/* A tracepoint the analysis reads; without a required one it cannot run. */
struct schedan_tracepoint {
	const char *name;	/* "sched:sched_switch" */
	bool required;
	const char *instead_of;	/* recorded only where the kernel lacks this one (which comes
				 * earlier in the list), else NULL */
};

/* Where the wakeup paths' IPIs came from: "ipi:ipi_send_cpu" (6.6 and later), "ipi:ipi_raise"
 * (arm64 before), "irq_vectors:*_entry, where they land" (x86 before), or none. */
const char *schedan__ipi_source(const struct schedan *a);

/* The tracepoints the analysis reads, as `sched` and `record --sched` record them. */
#define SCHEDAN_MAX_TRACEPOINTS 16
const struct schedan_tracepoint *schedan__tracepoints(size_t *n);

struct schedan *schedan__new(const struct schedan_opts *opts, struct errbuf *err);
void schedan__delete(struct schedan *a);
/* Callbacks that feed @a; ctx is @a. begin() fails with -ENOENT when sched:sched_switch or
 * both sched_waking and sched_wakeup are missing (schedan__error() says which). */
void schedan__ops(struct schedan *a, struct stream_ops *ops);
const char *schedan__error(const struct schedan *a);
/* Things the input lacks that make a part of the report empty; "" when nothing. */
const char *schedan__warnings(const struct schedan *a);

const char *wake_class__name(enum wake_class c);

struct schedan_lat {
	uint64_t count, p50, p90, p99, p999, max;	/* ns */
};

/* Totals, for tests and callers: wakeups by class, overall latency, migrations by class. */
uint64_t schedan__wakeups(const struct schedan *a, enum wake_class c);
/* Of those, the wakeups whose target was another CPU of the waker's LLC (by @opts.topo) that
 * ran its idle task when the wakeup began: the wakeups 6.1's ttwu_queue_cond() sends to the
 * wakelist since "sched: Remove the limitation of WF_ON_CPU on wakelist if wakee cpu is idle" */
uint64_t schedan__wakeups_idle_llc(const struct schedan *a, enum wake_class c);
int schedan__latency(struct schedan *a, struct schedan_lat *out);
uint64_t schedan__migrations(const struct schedan *a, int migr_class);

struct schedan_report_opts {
	size_t top;			/* rows per per-task table; 0: all */
};

/* The tables as text (newly allocated, NULL on ENOMEM). */
char *schedan__report(struct schedan *a, const struct schedan_report_opts *o);
/* Everything as a JSON object (new reference): totals, classes, tasks, comms, ipis,
 * migrations, wakers, wakees, stream stats. NULL on ENOMEM. */
json_t *schedan__json(struct schedan *a);

#endif
