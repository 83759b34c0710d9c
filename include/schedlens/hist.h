/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A histogram of samples keyed by sort keys (perf report's hists): each entry sums the
 * samples and the period of one combination of key values. While adding, strings compare by
 * pointer (intern them: threads__intern); hist__collapse() then merges by content.
 */
#ifndef SCHEDLENS_HIST_H
#define SCHEDLENS_HIST_H

#include <stddef.h>
#include <stdint.h>

enum hist_sort {
	HIST_SORT_COMM,		/* the thread's comm */
	HIST_SORT_DSO,		/* the map's short name, "[unknown]" without one */
	HIST_SORT_SYM,		/* a symbol (sym != NULL) or else the map-relative address */
	HIST_SORT_PID,
	HIST_SORT_CPU,
	HIST_SORT_MAX
};

/* The values of every key for one sample; a histogram looks only at its own keys. */
struct hist_key {
	const char *comm;
	const char *dso;
	const void *sym;	/* symbol object of whoever resolves symbols; NULL: none */
	const char *sym_name;	/* its printable name */
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

#endif
