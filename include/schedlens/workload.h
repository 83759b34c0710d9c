/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The built-in workloads (src/workloads/), callable in-process by stat, record, sched and run,
 * and stand-alone as `schedlens bench NAME`. A workload never prints: it parses its options
 * into a config, runs, and puts its figures into a JSON object of metrics.
 *
 * Metrics object written by run(): { "<metric>": { "value": number, "unit": "s|us|ops/s|...",
 * "better": "lower"|"higher" }, ... }, the same shape results documents use per iteration.
 */
#ifndef SCHEDLENS_WORKLOAD_H
#define SCHEDLENS_WORKLOAD_H

#include <jansson.h>

#include "schedlens/util.h"

struct phase;

struct workload {
	const char *name;
	const char *summary;	/* one line for `schedlens bench --list` */
	const char *usage;	/* the options, for `schedlens bench NAME --help` */
	/* argv[0] is the workload name. Return 0, or -EINVAL with a usage message in @err. */
	int (*parse)(int argc, char **argv, void **cfg, struct errbuf *err);
	/*
	 * Run once. Call phase__begin() when the measured part starts and phase__end() when it
	 * ends (@ph may be NULL). Add the figures to @metrics. 0 or -errno with detail in @err;
	 * -EINTR after workload__stop(), with the figures of the part that ran (see below).
	 */
	int (*run)(const void *cfg, struct phase *ph, json_t *metrics, struct errbuf *err);
	/* The human line for @metrics, e.g. "pipe: 100000 round trips, 12.3 us/rt, 81234 rt/s". */
	void (*format)(const void *cfg, const json_t *metrics, char *buf, size_t len);
	/* The parameters as a JSON object, for results documents. New reference. */
	json_t *(*params)(const void *cfg);
	void (*free)(void *cfg);
};

/*
 * Stopping a run early (Ctrl-C). A command lets SIGINT end a run by installing, before it, a
 * handler that calls workload__stop() (async-signal-safe), with sigaction() and without
 * SA_RESTART; the tasks a workload starts inherit it. A run then ends within milliseconds:
 * it passes SIGINT on to its tasks (only while SIGINT has a handler), so that blocked ones
 * wake, joins them and returns -EINTR. Its metrics then hold the usual figures over the part
 * of the measured phase that ran, and what ran of it: "round_trips" (pipe), "messages"
 * (messaging), "calls" (pound-*), or "elapsed" seconds (wakeup, tcp); none when it stopped
 * before the measured phase. format() prints these as "N of M". The stop is process-wide
 * and holds for every later run until workload__clear_stop(); a forked process has its own.
 */
void workload__stop(void);
bool workload__stopped(void);
void workload__clear_stop(void);

/* NULL-terminated list of every built-in workload. */
extern const struct workload *const workloads[];

/* The workload called @name, or NULL. */
const struct workload *workload__find(const char *name);

#endif
