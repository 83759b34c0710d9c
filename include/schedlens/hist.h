/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A histogram of samples keyed by sort keys (perf report's hists): each entry sums the
 * samples and the period of one combination of key values. While adding, strings compare by
 * pointer (intern them: threads__intern); hist__collapse() then merges by content.
 */
#ifndef SCHEDLENS_HIST_H
#define SCHEDLENS_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hist_sort {
	HIST_SORT_COMM,		/* the thread's comm */
	HIST_SORT_DSO,		/* the map's short name, "[unknown]" without one */
	HIST_SORT_SYM,		/* a symbol (sym != NULL) or else the map-relative address */
	HIST_SORT_PID,		/* the thread, by tid: perf's pid key (sort_thread) */
	HIST_SORT_CPU,
	HIST_SORT_MAX
};

/* The values of every key for one sample; a histogram looks only at its own keys. */
struct hist_key {
	const char *comm;
	const char *dso;
	const void *sym;	/* symbol object of whoever resolves symbols; NULL: none */
	const char *sym_name;	/* its printable name */
	uint64_t sym_start;	/* where it starts: with sym, the symbol's identity (perf's
				   rows by symbol: equal names at other addresses apart) */
	uint64_t addr;		/* map-relative address, for SYM without a symbol */
	char level;		/* 'k', '.', 'H' as perf prints it */
	int32_t pid, tid;
	int32_t cpu;
};

struct hist_entry {
	struct hist_key key;
	uint64_t nr_samples, period;
};

struct hist;

/* NULL on ENOMEM. @sorts: the keys, in order; copied. */
struct hist *hist__new(const enum hist_sort *sorts, size_t nr);
void hist__delete(struct hist *h);
/* Add one sample. 0 or -ENOMEM. */
int hist__add(struct hist *h, const struct hist_key *k, uint64_t period);
/* hist__add(), and the entry's index for hist__add_at() in *@idx (valid until sorting). */
int hist__add_idx(struct hist *h, const struct hist_key *k, uint64_t period, size_t *idx);
/* One more sample of the entry hist__add_idx() gave @idx, before any sorting. */
void hist__add_at(struct hist *h, size_t idx, uint64_t period);
/* @nr more samples, @period in all, of the entry at @idx, before any sorting. */
void hist__add_more(struct hist *h, size_t idx, uint64_t nr, uint64_t period);
/*
 * Merge entries whose keys are equal by content (strings by strcmp), as perf's collapse
 * step does: call once all samples are in, before hist__sorted(). 0 or -ENOMEM.
 */
int hist__collapse(struct hist *h);
/* Entries by period (then samples) descending; valid until the next hist__add. */
const struct hist_entry *hist__sorted(struct hist *h, size_t *nr);
uint64_t hist__total_period(const struct hist *h);
uint64_t hist__total_samples(const struct hist *h);
/* "comm" -> HIST_SORT_COMM ...; -1 if unknown */
int hist_sort__parse(const char *name);
const char *hist_sort__name(enum hist_sort s);

/*
 * Histograms of the same sort keys side by side, as perf report --group shows an event
 * group (perf's hists__match and hists__link): one row per key that any member has, with
 * each member's samples and period (0 where a member has none). Rows are sorted as perf
 * sorts a group: by the first member's period, then by each next member's, then by the keys
 * (perf's output order: names ascending, no map or no symbol last), then with @by_samples by
 * the members' sample counts (perf's -n adds its Samples column to the sort keys), then by
 * address (perf's collapsed order).
 */
struct hist_rows;

struct hist_row {
	const struct hist_key *key;
	const uint64_t *period;		/* [member] */
	const uint64_t *nr_samples;	/* [member] */
};

/* @members: @nr >= 1 histograms of the same sort keys, which this collapses. NULL on ENOMEM. */
struct hist_rows *hist_rows__new(struct hist **members, size_t nr, bool by_samples);
void hist_rows__delete(struct hist_rows *rows);
size_t hist_rows__nr(const struct hist_rows *rows);
/* Row @i, valid while @rows lives. */
struct hist_row hist_rows__get(const struct hist_rows *rows, size_t i);

/*
 * The event groups of a file as perf report sets them up. Group descriptions (perf.data's
 * GROUP_DESC: leader index, member count, name) make a group of each leader and the events
 * after it; every other event is a group of its own. With @force and no descriptions, all
 * events are one group led by the first (perf's evlist__force_leader, for --group).
 */
struct perf_group_desc;

struct hist_group {
	size_t nr_members;	/* of the group this event leads; 0: a member, not a leader */
	const char *name;	/* the description's, NULL for "anon group" */
	bool forced;		/* --group on a file without groups: named by its events only */
};

/*
 * Into @g[0..@nr). Returns 0, or -EINVAL when a description does not fit the @nr events
 * (a leader past them, members past the end or inside another group): those events are
 * then groups of their own.
 */
int hist_groups__init(struct hist_group *g, size_t nr, const struct perf_group_desc *desc,
		      size_t nr_desc, bool force);
/*
 * The group led by @g[@leader] as perf names it, into @buf: "NAME { a, b }" ("anon group"
 * without a name), "a, b" when forced; @names: the events' names. Returns @buf.
 */
char *hist_group__desc(const struct hist_group *g, size_t leader, const char *const *names,
		       char *buf, size_t size);

#endif
