/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report library: a record stream (a perf.data file, src/lib/perfdata, or a live session)
 * into perf report's histograms, symbol attribution, call graphs, focus and folded stacks,
 * and those as perf report --stdio prints them. The command (src/cmd/report.c) is its
 * options, a run and the printing:
 *
 *	report__new(&r, &opts, file, !opts.ordered, &err);
 *	perf_file__run(file, report__ops(r), &err);
 *	report__finish(r, &again);	(again: read the input again with the same options,
 *					 in time order: report__new(..., false, ...))
 *	report__print(r, perf_file__stats(file), stdout, stderr);
 *	report__delete(r);
 */
#ifndef SCHEDLENS_REPORT_H
#define SCHEDLENS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "schedlens/hist.h"
#include "schedlens/sample-filter.h"
#include "schedlens/stream.h"
#include "schedlens/symbols.h"
#include "schedlens/symrep.h"
#include "schedlens/util.h"

struct perf_file;
struct report;

enum report_group {
	REPORT_GROUP_AUTO,		/* side by side where the file describes groups (perf) */
	REPORT_GROUP_ON,		/* --group: all events one group where it describes none */
	REPORT_GROUP_OFF,		/* --no-group: a table per event */
};

/* the most events of a group shown side by side; a larger one is shown event by event */
#define REPORT_MAX_MEMBERS 64

struct report_opts {
	const char *input;
	enum report_group group;
	bool show_nr;			/* -n: perf's Samples column, the count of each row */
	bool show_period;		/* --show-total-period: perf's Period column */
	bool no_skip_empty;		/* tables of events without samples too */
	bool header, stats;
	bool show_info;			/* -I: the topology features in full, as perf -I */
	enum hist_sort sorts[HIST_SORT_MAX];
	size_t nr_sorts;
	const char *sep;		/* -t: machine-readable fields */
	/* symbols: the sort keys again with srcline, and what goes through callchains */
	struct symrep_config sym;
	const char *symfs, *kallsyms, *vmlinux, *focus;
	bool no_symbols, no_cache, no_demangle;
	bool ordered;			/* no kernel samples outside time order (report-kagg.c) */
	double percent_limit;
	struct sample_filter_opts filter;	/* -C, --pid, --tid, --comms */
	bool relative;			/* --percentage relative: shares of the samples kept */
};

/*
 * A report of the stream @f will deliver (its header's build-ids, notes and kernel facts are
 * read from @f; NULL for a stream without a file) by options @o, which must outlive it. With
 * @unordered, kernel samples may be counted as they are read, outside time order, when the
 * keys allow it (report-kagg.c). 0 and *@out, or -errno with @err set (a --focus list that
 * cannot be read: -ENOENT).
 */
int report__new(struct report **out, const struct report_opts *o, struct perf_file *f,
		bool unordered, struct errbuf *err);
/* the stream consumer to run the input into (its begin may set .unordered) */
struct stream_ops *report__ops(struct report *r);
/*
 * After the input: the kernel places and the symbol attribution counted. *@again when the
 * kernel samples counted outside time order turned out not to be safe (the kernel maps
 * changed during the input): nothing to print, run a new report of the input without.
 */
int report__finish(struct report *r, bool *again);
/*
 * The tables, as perf report --stdio prints them, to @out; notes (a DSO without symbols, the
 * skid rule) to @out as '# note:' lines, or to @notes when @out holds data only (-t,
 * --folded). @st: the input's counts (the lost samples' line). 0 or -errno.
 */
int report__print(struct report *r, const struct stream_stats *st, FILE *out, FILE *notes);
/* the samples counted, of every event (those the time and CPU filters kept) */
uint64_t report__nr_samples(const struct report *r);
/* the symbol lookups kept for the next run (a cache: what cannot be written is looked up again) */
void report__save_cache(struct report *r);
void report__delete(struct report *r);

/* options: -g caller|callee|none into @g; 0 or -EINVAL */
int report__parse_graph(const char *arg, enum symrep_graph *g);
/* the sort keys for symrep: the hist keys in order, srcline among them */
int report__add_key(struct report_opts *o, const char *tok, int hs);
/*
 * --sort KEYS (comma-separated: comm, dso, sym, srcline, pid, cpu) into @o's hist and symbol
 * keys, after the other options (--children and -g make rows by label). 0 or -EINVAL with
 * the key named in @err.
 */
int report__set_sort(struct report_opts *o, const char *keys, struct errbuf *err);

#endif
