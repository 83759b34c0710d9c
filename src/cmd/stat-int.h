/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the files of schedlens stat: stat.c (options, runs), stat-print.c (output). */
#ifndef SCHEDLENS_CMD_STAT_INT_H
#define SCHEDLENS_CMD_STAT_INT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "schedlens/counters.h"
#include "schedlens/events.h"
#include "schedlens/target.h"
#include "schedlens/util.h"
#include "schedlens/workload.h"

struct stat_opts {
	char *events;		/* -e lists joined by commas, or NULL for the default set */
	int detail;		/* -d count */
	long repeat;
	bool system_wide;
	const char *cpus;
	pid_t pid;
	const char *sep;	/* -x */
	bool json;
	const char *output;
	bool whole;		/* count exec..exit even for phase-aware workloads */
	long interval_ms;	/* -I: print the counts of every interval this long; 0: off */
	long interval_count;	/* --interval-count: stop printing after this many; 0: never */
	const struct workload *wl;
	void *wl_cfg;
	char **argv;		/* the command, or the workload's argv */
	int argc;
};

struct run_values {
	struct counter_value *v;	/* per event */
	double elapsed_s;
	double user_s, sys_s;		/* the command's CPU time (rusage of the child) */
	int exit_code;
};

/* -I: where the intervals are (stat-interval.c) */
struct stat_interval {
	struct counter_value *prev;	/* per event: the counts at the last interval's end */
	uint64_t ref_ns;		/* the counting started: timestamps are from here */
	uint64_t next_ns;		/* the current interval ends */
	long printed;			/* intervals printed */
	bool done;			/* the last one is printed (count reached, or Ctrl-C) */
	struct target_hooks *hooks;	/* whose poll_ms the interval's end sets */
};

struct stat_state {
	const struct stat_opts *o;
	struct event_desc *evs;
	size_t nr;
	struct counters *ctr;
	struct run_values *runs;
	size_t nr_runs;
	bool follow_phase;
	struct stat_interval iv;
	FILE *out;		/* where the counts go: stderr, or -o FILE */
	struct errbuf err;
};

/*
 * stat-print.c: the runs as perf stat prints them (@group: digit grouping), its lines alone
 * (each after @prefix, as -I prints them), as -x CSV (each line after @prefix), and as a
 * results document at @path ("-": stdout). A state without counters (@ctr NULL) has every
 * event opened.
 */
void stat__print_text(const struct stat_state *st, FILE *f, bool group);
void stat__print_lines(const struct stat_state *st, FILE *f, const char *prefix, bool group);
void stat__print_csv(const struct stat_state *st, FILE *f, const char *prefix);
int stat__write_json(const struct stat_state *st, const char *path);

/*
 * stat-interval.c, -I as perf stat prints it: start at @now_ns (the counters are open);
 * then stat__interval_tick() whenever the caller wakes (it prints the intervals that ended,
 * and the one under way when @stop), stat__interval_end() when the target is gone (prints the
 * interval under way, unless the last is printed). Output to @f. 0 or -ENOMEM.
 */
int stat__interval_start(struct stat_state *st, uint64_t now_ns);
void stat__interval_tick(struct stat_state *st, FILE *f, bool stop);
void stat__interval_end(struct stat_state *st, FILE *f);
/* milliseconds until the current interval ends (at least 1) */
int stat__interval_wait_ms(const struct stat_state *st);
void stat__interval_exit(struct stat_state *st);

#endif
