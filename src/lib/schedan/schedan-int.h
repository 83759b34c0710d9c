/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the scheduler analyses (schedan*.c), not for other modules. */
#ifndef SCHEDLENS_SCHEDAN_INT_H
#define SCHEDLENS_SCHEDAN_INT_H

#include <stdbool.h>

#include "schedlens/hugebuf.h"
#include "schedlens/schedan.h"
#include "schedlens/topology.h"

/*
 * One wakeup latency, of task number @task, path class @cls; once the vector is a sketch,
 * @count of them: those of the task and class in one histogram.h bucket, @ns their largest.
 */
struct lat_rec {
	uint64_t ns;
	uint32_t task;
	uint32_t cls : 8, count : 24;
};

/*
 * Every latency, exactly, up to LATVEC_EXACT of them; past that the vector is a sketch
 * (latvec__sketch()): records of one task, class and bucket merged, found through @idx, so
 * that its size follows the tasks and their spread, not the length of the input. A
 * percentile of a sketch is the largest value of its bucket: above the exact one by less than
 * a bucket's width, 1/64 of the value (HISTOGRAM_REL_ERROR * 2). 524,288 latencies (8 MB)
 * are 5.8 times the wakeups of hackbench's 800 tasks over 300,701 records; at 2^21 (32 MB,
 * grown from 16 MB beside it) `sched -i` of a 2 GB file took 99-110 MB, at 2^19 60 MB.
 */
#define LATVEC_EXACT (1u << 19)

struct latvec {
	struct lat_rec *v;
	size_t n, cap;
	struct hugebuf buf;	/* v's memory */
	uint64_t total;		/* latencies taken in (n of them while exact) */
	size_t exact_max;	/* LATVEC_EXACT, or $SCHEDLENS_LAT_EXACT (tests) */
	uint32_t *idx;		/* the sketch: v's index + 1 by (bucket, task, class), 0 free */
	size_t idx_mask, idx_used;
};

struct comm_group {
	char comm[16];
	uint64_t tasks;
	struct schedan_lat lat;
	uint32_t id;
};

/* the fields each switch and wakeup touch come first, in two cache lines */
struct task {
	uint32_t tid;
	uint32_t nr;			/* its number in schedan.tasks */
	int oncpu;			/* the CPU it runs on, -1 when not running */
	int pending_cpu;		/* the waker CPU whose window classifies it, or -1 */
	enum wake_class pending_class;	/* once the window closed */
	bool pending_idle_llc;		/* its target was idle and in the waker's LLC */
	bool pending_held;		/* @pending is a waking that came while it was on a CPU */
	bool included, exited;
	bool runnable;			/* switched out runnable (preempted) */
	char comm[16];
	uint64_t last_out, ready;	/* last switch-out; when it became runnable */
	uint64_t pending;		/* wakeup start, 0 when none */
	uint64_t switches, run_ns, max_run_ns, wait_ns, sleep_ns;
	uint64_t nr_lat;		/* wakeup latencies (included tasks only) */
	/* as a waker */
	uint32_t last_wakee;
	/* as a wakee: the last waker, and the distinct ones, saturating */
	uint32_t last_waker;
	uint64_t wakings, flips;
	uint32_t nr_wakers;		/* (the pairs in schedan.pairs) */
	uint32_t ppid;
	uint64_t migrations[MIGR__NR], wakeup_migrations;
	struct schedan_lat lat;		/* their percentiles, by schedan__percentiles() */
	uint32_t comm_group;		/* its number in schedan.comms, likewise */
};

/* one waker CPU's wakeup in progress */
struct window {
	bool open, woke_here, ipi_wakelist, ipi_resched, poll;
	bool dst_idle;			/* @dst ran its idle task when it became the target */
	uint32_t wakee;
	int dst;
	struct task *wakee_t;
};

/* where a tracepoint field is in the payload */
struct fld {
	uint32_t off, size;
};

struct tid_slot {
	uint32_t tid;
	struct task *t;		/* NULL: empty */
};

struct ipi_key {
	uint64_t callsite, callback;
	uint64_t count;
	bool wakelist;
	const char *cs_sym, *cb_sym;	/* kernel symbols (interned by ksyms), NULL: unknown */
	uint64_t cs_off, cb_off;
};

enum ev_kind {
	EV_OTHER,
	EV_SWITCH,
	EV_WAKING,
	EV_WAKEUP,
	EV_WAKEUP_NEW,
	EV_MIGRATE,
	EV_IDLE_NOIPI,
	EV_IPI_SEND_CPU,
	EV_IPI_RAISE,		/* ipi:ipi_raise (arm64 before 6.6): sender side, a CPU mask */
	EV_IPI_RECV,		/* irq_vectors:*_entry (x86 before 6.6): where the IPI lands */
	EV__NR,
};

struct tep_format_field;

struct schedan {
	struct schedan_opts opts;
	struct errbuf err;
	char warnings[1024];
	char path[256];			/* the input's, copied at begin() */
	enum ev_kind *kinds;
	size_t nr_kinds;
	bool has[EV__NR];
	struct tep_format_field *f[EV__NR][6];
	struct fld fl[EV__NR][6];
	uint32_t comm_len[EV__NR][6];	/* bytes of a comm field to copy, 0: not usable */
	uint32_t min_raw[EV__NR];	/* payload bytes the fields used need */
	bool native;			/* payload in this host's byte order: read fields directly */
	uint64_t nr_short;		/* payloads too short for their format: skipped */
	bool waking_mode;		/* wakeups start at sched_waking */
	bool hold_oncpu;		/* a waking of a task on a CPU is held (see wakeup_start()) */
	size_t nr_held;			/* tasks with pending_held */
	struct symbols *ksyms;		/* IPI call sites, made at the first one */
	bool ksyms_off;			/* another kernel's file, or no memory: addresses only */
	bool ksyms_named;		/* some call site was named */
	/* tasks: array + open-addressing index by tid */
	struct task **tasks;
	size_t nr_tasks, cap_tasks;
	struct tid_slot *index;
	size_t index_cap;
	/* the (wakee, waker) pairs seen: wakee's number << 32 | waker's tid; 0 empty */
	uint64_t *pairs;
	size_t nr_pairs, pairs_cap;
	/* per CPU */
	uint64_t *cpu_last_switch;
	struct task **cpu_curr;		/* the task last switched in, NULL when not known */
	bool *cpu_idle;			/* the last switch in was to the idle task */
	struct window *win;
	int nr_cpus;
	/* totals */
	uint64_t first_time, last_time;
	uint64_t class_count[WAKE__NR];
	uint64_t idle_llc_count[WAKE__NR];	/* of wakeups to an idle CPU in the waker's LLC */
	struct latvec lats;		/* every latency of an included task */
	uint64_t gen;			/* records taken in: percentiles are of this many */
	uint64_t lat_gen;
	bool lat_done;
	struct schedan_lat lat_all, lat_class[WAKE__NR];
	struct comm_group *comms;
	size_t nr_comms;
	uint64_t migr[MIGR__NR], wakeup_migr;
	struct ipi_key *ipis;
	size_t nr_ipis, cap_ipis;
	uint64_t nr_ipi_events, nr_lost, nr_lost_records, dropped, missed;
	uint64_t *ipi_in;		/* per CPU: when an IPI (EV_IPI_RECV) last landed there */
	uint64_t *ipi_out;		/* per CPU: when a wakelist IPI was last sent to it */
	uint64_t *woken_on;		/* per CPU: when a sched_wakeup last ran there */
	uint64_t raise_wakelist_reason;	/* ipi_raise's reason pointer for wakelist IPIs, 0 */
	struct stream_stats stats;
	bool have_stats;
};

int latvec__grow(struct latvec *v);
void latvec__free(struct latvec *v);

int latvec__sketch(struct latvec *v, uint64_t ns, uint32_t task, uint32_t cls);

static inline int latvec__push(struct latvec *v, uint64_t ns, uint32_t task, uint32_t cls)
{
	if (v->idx || v->n >= v->exact_max)
		return latvec__sketch(v, ns, task, cls);
	if (v->n == v->cap && latvec__grow(v))
		return -1;
	v->v[v->n++] = (struct lat_rec){ ns, task, cls, 1 };
	v->total++;
	return 0;
}
/*
 * Fill lat_all, lat_class, each task's lat and comms (most wakeups first) with nearest-rank
 * percentiles of what came in so far; 0 or -ENOMEM.
 */
int schedan__percentiles(struct schedan *a);

#endif
