/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the report library (src/lib/report/report*.c): report.c the record-stream consumer
 * and the session, report-kagg.c kernel samples by place, report-sym.c the symbol side (rows
 * by label, notes, call graphs, focus, folded stacks), report-print.c the tables.
 */
#ifndef SCHEDLENS_REPORT_INT_H
#define SCHEDLENS_REPORT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "schedlens/hist.h"
#include "schedlens/perfdata.h"
#include "schedlens/report.h"
#include "schedlens/sample-read.h"
#include "schedlens/symbols.h"
#include "schedlens/threads.h"
#include "schedlens/util.h"

/*
 * The hist entry of a recent place (event, pid, tid, cpu where it is a key, misc, ip), direct
 * mapped: a sample at the place of an earlier one, while nothing changed what a lookup of its
 * thread gives (threads__generation()), goes to the same entry, which skips resolving its
 * thread, map and symbol again. 4096 entries: on the bench's sched file (800 tasks, 7 events)
 * 1024 left 69,601 of 300,701 samples to resolve, 4096 45,664, 16384 36,666.
 */
#define REPORT_MEMO_SIZE 4096

struct report_memo {
	uint64_t ip;
	uint64_t gen;		/* threads__generation() + 1; 0: empty */
	uint32_t pid, tid, cpu;
	uint16_t misc;
	uint32_t evidx;
	size_t idx;		/* hist__add_at() */
	const char *sym;	/* for symrep__repeat() */
};

struct report {
	const struct report_opts *o;
	const struct stream_info *info;
	struct threads *threads;
	struct hist **hists;		/* one per event */
	uint64_t *lost;			/* LOST_SAMPLES per event */
	uint64_t *nr_samples, *period;	/* per event */
	uint64_t *period_out;		/* per event: --percentage relative's left out */
	bool need_comm;			/* rows by label: the comm is a key or folded stacks */
	bool children;			/* --children, where the file has callchains */
	bool labels;			/* rows by label (symrep's), not the hists */
	size_t nr;
	const char *unknown;		/* interned "[unknown]" */
	struct perf_file *f;
	struct symbols *syms;		/* NULL with --no-symbols */
	struct symrep *symrep;
	struct focus *focus;
	char note[256];			/* what schedlens record noted in the file */
	struct report_memo *memo;	/* NULL: samples not counted by place */
	uint32_t memo_cpu;		/* ~0: the cpu is a key (in the memo's too); 0: not */
	struct stream_ops ops;		/* rep_begin may take kernel samples in any order */
	bool kagg_allowed;		/* false: read again in time order */
	struct report_kagg *kagg;	/* kernel samples by place (report-kagg.c), or NULL */
	struct hist_group *groups;	/* [event], set before printing */
	struct sample_read *sread;	/* NULL: no event's samples read counters */
	struct errbuf *err;		/* why the file cannot be reported */
	struct sample_filter *filter;	/* NULL: every sample counts */
	/* by key (comm, dso, sym): --comms, --dsos or --symbols of one name, whose column is
	 * left out and shown as a "# comm: NAME" line (perf's sort_entry__setup_elide()) */
	const char *elide[SYMREP_SYM + 1];
	FILE *out, *notes;		/* report__print()'s: the tables, and notes where out holds
					 * data only (-t, --folded) */
};

/*
 * perf's hists__set_unres_dso_col_len(): where a row shown has no symbol, the DSO column is
 * 16 wide at least (an address's hex digits), unless -t or --dsos; @w the width without
 */
size_t report__unres_dso_width(const struct report *r, size_t w);

/* the one name of key @key (a hist_sort or symrep_key: the same numbers) shown as a line
 * in place of its column, or NULL */
static inline const char *report__elided(const struct report *r, int key)
{
	return key >= 0 && key <= SYMREP_SYM ? r->elide[key] : NULL;
}

/* report.c: @nr samples of event @idx, @period in all, that a filter left out of the rows:
 * out of the totals too with --percentage relative */
void report__unfiltered_out(struct report *r, size_t idx, uint64_t nr, uint64_t period);

/* report.c: where @s landed, into hist key @k (its map into *@map unless NULL); symrep (if
 * any) counts it */
int report__place(struct report *r, const struct stream_sample *s, struct hist_key *k,
		  const struct tmap **map);

/* report-sym.c */
int report__sym_begin(struct report *r, const struct stream_info *info);
/* the symbol of the frame symrep attributes @s to, into @k (hist rows) */
int report__sym_sample(struct report *r, const struct stream_sample *s, struct taddr *al,
		       struct hist_key *k);
/* rows by label: the hists are not shown, symrep counts */
int report__label_sample(struct report *r, const struct stream_sample *s);
void report__print_notes(struct report *r);
/* the rows by label of event @idx and the @n - 1 members of its group after it */
int report__print_labels(struct report *r, size_t idx, size_t n);
void report__print_focus(struct report *r);
void report__print_folded(struct report *r);

/* report-kagg.c: kernel samples by place, outside time order */
bool report__kagg_eligible(const struct report *r, bool pipe);
int report__kagg_new(struct report *r);
void report__kagg_delete(struct report *r);
int report__kagg_sample(void *ctx, const struct stream_sample *s);
/* the places into the hists; *@again when the kernel maps changed, or a sample's comm could
 * not be told: read in time order */
int report__kagg_finish(struct report *r, bool *again);
/* with the comm a key (by_thread): the comms of @tids before a COMM or FORK record into @before,
 * and after it the changes noted with its @time (0 or -ENOMEM); the samples up to @limit settled
 * once every record up to it has come */
bool report__kagg_by_thread(const struct report *r);
void report__kagg_watch(struct report *r, const uint32_t *tids, size_t n, const char **before);
int report__kagg_changed(struct report *r, const uint32_t *tids, size_t n,
			 const char *const *before, uint64_t time);
int report__kagg_flushed(struct report *r, uint64_t limit);

/* report-print.c */
struct report_col {
	const char *title;
	size_t width;
	bool right;			/* aligned right: the share columns */
};

/* the hists and the tables by label, with the lost samples' line, as perf report --stdio */
int report__print_tables(struct report *r, const struct stream_stats *st);
/* "# Samples: 191  of events 'NAME'" (K, M, G past 1000, as perf) and the event count */
void report__print_count(const struct report *r, uint64_t nr_samples, uint64_t period,
			 bool plural, const char *name);
/* the name in the count line of event @idx: with @group and @idx a leader, its group's */
const char *report__event_desc(const struct report *r, size_t idx, bool group, char *buf,
			       size_t size);
/* the titles line and the dotted line of @n columns */
void report__print_head(FILE *out, const struct report_col *c, size_t n);
/* the share columns for @nr_members side by side into @c (3 at most); how many */
size_t report__share_cols(const struct report *r, struct report_col *c, size_t nr_members,
			  bool children);
/* a row's share columns: the @nr_pct shares in @pct (Overhead, or Children and Self, each
 * @nr_members wide), with -n the @nr_members sample counts in @nr, with --show-total-period
 * the periods in @period */
void report__print_shares(const struct report *r, const double *pct, size_t nr_pct,
			  const uint64_t *nr, const uint64_t *period, size_t nr_members);
/* @len bytes of @s, then spaces to @width: a row's key without printf */
void report__put_padded(FILE *out, const char *s, size_t len, size_t width);
/* -t SEP: a row's event and its shares by period and by samples */
void report__print_fields(const struct report *r, size_t idx, double period_pct,
			  double samples_pct);

#endif
