/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's sample filters, shared by report and script: --time START,STOP (seconds, as
 * perf script prints them: the samples from START to STOP, either left out for no bound),
 * -C CPUS (the samples on those CPUs),
 * --pid, --tid (comma-separated numbers) and --comms (names: the thread's at the sample), as
 * perf 6.1 applies them; and report's --dsos (a DSO's short or recorded name) and --symbols
 * (names), of where the sample is attributed. script prints none of the samples filtered; report counts a sample
 * of another CPU nowhere, and one of another thread in the totals alone (perf's default
 * --percentage absolute: the rows' shares are of all samples).
 */
#ifndef SCHEDLENS_SAMPLE_FILTER_H
#define SCHEDLENS_SAMPLE_FILTER_H

#include <stdbool.h>

#include "schedlens/stream.h"
#include "schedlens/util.h"

struct sample_filter_opts {
	const char *time, *cpus, *pids, *tids, *comms;	/* NULL: that one not filtered */
	const char *dsos, *symbols;
};

enum sample_filter_names { SAMPLE_FILTER_COMMS, SAMPLE_FILTER_DSOS, SAMPLE_FILTER_SYMBOLS };

struct sample_filter;

/*
 * The filter of @o: NULL where nothing is filtered (*@ret 0), or on error (*@ret -EINVAL,
 * @err saying which list is not one, or -ENOMEM).
 */
struct sample_filter *sample_filter__new(const struct sample_filter_opts *o, int *ret,
					 struct errbuf *err);
void sample_filter__delete(struct sample_filter *f);
/* -C on a stream none of whose events samples the CPU: -EINVAL with what to do, as perf */
int sample_filter__check(const struct sample_filter *f, const struct stream_info *info,
			 const char *input, struct errbuf *err);
/* whether sample_filter__wants() needs the thread's name */
bool sample_filter__by_comm(const struct sample_filter *f);
/* whether @s passes: its time and CPU; its thread (named @comm); all (a NULL filter passes
 * all) */
bool sample_filter__time_cpu_ok(const struct sample_filter *f, const struct stream_sample *s);
bool sample_filter__thread_ok(const struct sample_filter *f, const struct stream_sample *s,
			      const char *comm);
bool sample_filter__wants(const struct sample_filter *f, const struct stream_sample *s,
			  const char *comm);
/* whether --dsos or --symbols is given; whether a place passes them (NULL: none there) */
bool sample_filter__by_place(const struct sample_filter *f);
bool sample_filter__place_ok(const struct sample_filter *f, const char *dso, const char *path,
			     const char *sym);
/* the one name of --comms, --dsos or --symbols, or NULL (perf elides a column of one name) */
const char *sample_filter__only(const struct sample_filter *f, enum sample_filter_names which);

#endif
