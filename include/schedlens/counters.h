/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting events over a target through libperf: one fd set per event, opened one by one so
 * each is reported as supported or not (perf_evlist__open would stop at the first failure).
 */
#ifndef SCHEDLENS_COUNTERS_H
#define SCHEDLENS_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "schedlens/events.h"

struct counters;

struct counters_target {
	pid_t *tids;		/* count these threads (with inherit: and their children) ... */
	size_t nr_tids;
	const char *cpus;	/* ... or system-wide on these CPUs ("0-3"; NULL: all online) */
	bool system_wide;
	bool inherit;		/* follow forks of the counted threads */
	bool enable_on_exec;	/* start disabled; the kernel enables at the target's exec */
	bool start_disabled;	/* start disabled; counters__enable() starts counting */
};

struct counter_value {
	uint64_t val, ena, run;	/* raw sums over CPUs and threads */
	double scaled;		/* val * ena / run when multiplexed, else val */
	double running_pct;	/* 100 * run / ena; 0 when it never ran */
	bool counted;		/* false: opened but never scheduled (<not counted>) */
};

/* Copies @evs. NULL on ENOMEM. */
struct counters *counters__new(const struct event_desc *evs, size_t n);
void counters__delete(struct counters *c);
size_t counters__nr(const struct counters *c);
const struct event_desc *counters__event(const struct counters *c, size_t i);

/*
 * Open every event on @t. Events that fail keep their -errno (counters__open_error) and are
 * skipped by enable/read. Returns 0 when at least one opened, else the first -errno, with
 * advice in @err (events__open_advice).
 */
int counters__open(struct counters *c, const struct counters_target *t, struct errbuf *err);
int counters__open_error(const struct counters *c, size_t i);
int counters__enable(struct counters *c);
int counters__disable(struct counters *c);
/* Read event @i. -ENODEV when it is not open. */
int counters__read(struct counters *c, size_t i, struct counter_value *v);
/* Close every fd; the events stay for another open (the next repeat). */
void counters__close(struct counters *c);

#endif
