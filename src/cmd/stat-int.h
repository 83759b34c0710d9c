/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the files of schedlens stat: stat.c (options, runs), stat-print.c (output). */
#ifndef SCHEDLENS_CMD_STAT_INT_H
#define SCHEDLENS_CMD_STAT_INT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "schedlens/counters.h"
#include "schedlens/events.h"
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

struct stat_state {
	const struct stat_opts *o;
	struct event_desc *evs;
	size_t nr;
	struct counters *ctr;
	struct run_values *runs;
	size_t nr_runs;
	bool follow_phase;
	struct errbuf err;
};

/* stat-print.c: the runs as perf stat prints them (@group: digit grouping), as -x CSV, and
 * as a results document at @path ("-": stdout) */
void stat__print_text(const struct stat_state *st, FILE *f, bool group);
void stat__print_csv(const struct stat_state *st, FILE *f);
int stat__write_json(const struct stat_state *st, const char *path);

#endif
