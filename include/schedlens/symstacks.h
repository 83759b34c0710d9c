/* SPDX-License-Identifier: GPL-2.0 */
/* A table of counts keyed by strings: report's rows by label and call paths, folded stacks. */
#ifndef SCHEDLENS_SYMSTACKS_H
#define SCHEDLENS_SYMSTACKS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Counts keyed by a string (collapsed stacks for --folded, call paths for -g): each key sums
 * samples and period. Keys are copied, but for sym_stacks__merge_ref()'s.
 */
struct sym_stack {
	const char *key;
	uint64_t nr_samples, period;
	uint32_t depth;		/* sym_stacks__add_depth(): the largest depth given */
	int32_t tid;		/* and the thread of the first add */
};

struct sym_stacks;

/* a key with its length and hash, for a caller that adds the same key often */
struct sym_key {
	const char *str;
	size_t len;
	uint64_t hash;
};

/* @str's length and hash into @k (which points at @str: it must live as long as @k) */
void sym_key__set(struct sym_key *k, const char *str);

struct sym_stacks *sym_stacks__new(void);
void sym_stacks__delete(struct sym_stacks *st);
int sym_stacks__add(struct sym_stacks *st, const char *key, uint64_t period);
int sym_stacks__add_n(struct sym_stacks *st, const char *key, uint64_t nr_samples,
		      uint64_t period);
/* one sample with a depth (report's rows: how deep the callchain under them is) and thread */
int sym_stacks__add_depth(struct sym_stacks *st, const char *key, uint64_t period,
			  uint32_t depth, int32_t tid);
/* sym_stacks__add_depth() by a sym_key */
int sym_stacks__add_key(struct sym_stacks *st, const struct sym_key *k, uint64_t period,
			uint32_t depth, int32_t tid);
/* @nr_samples samples of @period in all under @k: sym_stacks__add_key()'s counts at once */
int sym_stacks__merge(struct sym_stacks *st, const struct sym_key *k, uint64_t nr_samples,
		      uint64_t period, uint32_t depth, int32_t tid);
/* sym_stacks__merge() keeping @k->str itself, not a copy: it must outlive @st */
int sym_stacks__merge_ref(struct sym_stacks *st, const struct sym_key *k, uint64_t nr_samples,
			  uint64_t period, uint32_t depth, int32_t tid);
/* the entry for @key, or NULL */
const struct sym_stack *sym_stacks__get(const struct sym_stacks *st, const char *key);
/* by period descending, then key; valid until the next add */
const struct sym_stack *sym_stacks__sorted(struct sym_stacks *st, size_t *nr);
/* the table's @nr slots in no order, a free one's key NULL; valid until the next add */
const struct sym_stack *sym_stacks__slots(const struct sym_stacks *st, size_t *nr);
/* how many keys @st holds (sym_stacks__slots()'s slots with a key) */
size_t sym_stacks__nr(const struct sym_stacks *st);

#endif
