// SPDX-License-Identifier: GPL-2.0
/* String-keyed counts (symstacks.h): report's rows by label, call paths, folded stacks. */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/symstacks.h"
#include "schedlens/util.h"

struct sym_stacks {
	struct sym_stack *v;		/* open addressing, key NULL: empty */
	uint64_t *hash;			/* of v[i].key: compared before the key */
	uint8_t *borrowed;		/* v[i].key the caller's (sym_stacks__merge_ref()); NULL:
					   none is */
	size_t mask, used;
	struct sym_stack *sorted;
};

/* keys are call paths hundreds of bytes long, hashed for every sample */
static uint64_t str_hash(const char *s, size_t len)
{
	return hash_bytes(s, len, 0);
}

/* the slot of @key (of @len bytes, hash @h): where it is, or the free one it would take */
static size_t slot(const struct sym_stacks *st, const char *key, size_t len, uint64_t h)
{
	size_t i;

	for (i = h & st->mask; st->v[i].key; i = (i + 1) & st->mask)
		if (st->hash[i] == h && !memcmp(st->v[i].key, key, len + 1))
			break;
	return i;
}

struct sym_stacks *sym_stacks__new(void)
{
	struct sym_stacks *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->mask = 255;
	st->v = calloc(st->mask + 1, sizeof(*st->v));
	st->hash = calloc(st->mask + 1, sizeof(*st->hash));
	if (!st->v || !st->hash) {
		free(st->v);
		free(st->hash);
		free(st);
		return NULL;
	}
	return st;
}

void sym_stacks__delete(struct sym_stacks *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i <= st->mask; i++)
		if (!st->borrowed || !st->borrowed[i])
			free((char *)st->v[i].key);
	free(st->v);
	free(st->hash);
	free(st->borrowed);
	free(st->sorted);
	free(st);
}

static int grow(struct sym_stacks *st)
{
	size_t nmask = st->mask * 2 + 1, i, j;
	struct sym_stack *n = calloc(nmask + 1, sizeof(*n));
	uint64_t *nh = calloc(nmask + 1, sizeof(*nh));
	uint8_t *nb = st->borrowed ? calloc(nmask + 1, 1) : NULL;

	if (!n || !nh || (st->borrowed && !nb)) {
		free(n);
		free(nh);
		free(nb);
		return -ENOMEM;
	}
	for (i = 0; i <= st->mask; i++) {
		if (!st->v[i].key)
			continue;
		for (j = st->hash[i] & nmask; n[j].key; j = (j + 1) & nmask)
			;
		n[j] = st->v[i];
		nh[j] = st->hash[i];
		if (nb)
			nb[j] = st->borrowed[i];
	}
	free(st->v);
	free(st->hash);
	free(st->borrowed);
	st->v = n;
	st->hash = nh;
	st->borrowed = nb;
	st->mask = nmask;
	return 0;
}

int sym_stacks__add(struct sym_stacks *st, const char *key, uint64_t period)
{
	return sym_stacks__add_n(st, key, 1, period);
}

void sym_key__set(struct sym_key *k, const char *str)
{
	k->str = str;
	k->len = strlen(str);
	k->hash = str_hash(str, k->len);
}

/* the entry of @k, made (with @tid, a copy of the key unless @ref) when there is none */
static struct sym_stack *entry_ref(struct sym_stacks *st, const struct sym_key *k, int32_t tid,
				   bool ref)
{
	size_t i;

	if (ref && !st->borrowed && !(st->borrowed = calloc(st->mask + 1, 1)))
		return NULL;
	if (st->used * 2 >= st->mask && grow(st))
		return NULL;
	i = slot(st, k->str, k->len, k->hash);
	if (!st->v[i].key) {
		char *c = NULL;

		if (!ref && !(c = malloc(k->len + 1)))
			return NULL;
		st->v[i].key = ref ? k->str : memcpy(c, k->str, k->len + 1);
		if (ref)
			st->borrowed[i] = 1;
		st->v[i].tid = tid;
		st->hash[i] = k->hash;
		st->used++;
	}
	return &st->v[i];
}

/* NULL on ENOMEM */
static struct sym_stack *entry_key(struct sym_stacks *st, const struct sym_key *k, int32_t tid)
{
	return entry_ref(st, k, tid, false);
}

static struct sym_stack *entry(struct sym_stacks *st, const char *key, int32_t tid)
{
	struct sym_key k;

	sym_key__set(&k, key);
	return entry_key(st, &k, tid);
}

int sym_stacks__add_n(struct sym_stacks *st, const char *key, uint64_t nr_samples,
		      uint64_t period)
{
	struct sym_stack *e = entry(st, key, -1);

	if (!e)
		return -ENOMEM;
	e->nr_samples += nr_samples;
	e->period += period;
	return 0;
}

static int merge(struct sym_stacks *st, const struct sym_key *k, uint64_t nr_samples,
		 uint64_t period, uint32_t depth, int32_t tid, bool ref)
{
	struct sym_stack *e = entry_ref(st, k, tid, ref);

	if (!e)
		return -ENOMEM;
	e->nr_samples += nr_samples;
	e->period += period;
	if (depth > e->depth)
		e->depth = depth;
	return 0;
}

int sym_stacks__merge(struct sym_stacks *st, const struct sym_key *k, uint64_t nr_samples,
		      uint64_t period, uint32_t depth, int32_t tid)
{
	return merge(st, k, nr_samples, period, depth, tid, false);
}

int sym_stacks__merge_ref(struct sym_stacks *st, const struct sym_key *k, uint64_t nr_samples,
			  uint64_t period, uint32_t depth, int32_t tid)
{
	return merge(st, k, nr_samples, period, depth, tid, true);
}

int sym_stacks__add_key(struct sym_stacks *st, const struct sym_key *k, uint64_t period,
			uint32_t depth, int32_t tid)
{
	return merge(st, k, 1, period, depth, tid, false);
}

int sym_stacks__add_depth(struct sym_stacks *st, const char *key, uint64_t period,
			  uint32_t depth, int32_t tid)
{
	struct sym_key k;

	sym_key__set(&k, key);
	return sym_stacks__add_key(st, &k, period, depth, tid);
}

const struct sym_stack *sym_stacks__get(const struct sym_stacks *st, const char *key)
{
	size_t len = strlen(key), i = slot(st, key, len, str_hash(key, len));

	return st->v[i].key ? &st->v[i] : NULL;
}

static int stack_cmp(const void *a, const void *b)
{
	const struct sym_stack *x = a, *y = b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return strcmp(x->key, y->key);
}

const struct sym_stack *sym_stacks__sorted(struct sym_stacks *st, size_t *nr)
{
	size_t i, k = 0;

	free(st->sorted);
	st->sorted = malloc((st->used ? st->used : 1) * sizeof(*st->sorted));
	if (!st->sorted) {
		*nr = 0;
		return NULL;
	}
	for (i = 0; i <= st->mask; i++)
		if (st->v[i].key)
			st->sorted[k++] = st->v[i];
	qsort(st->sorted, k, sizeof(*st->sorted), stack_cmp);
	*nr = k;
	return st->sorted;
}

const struct sym_stack *sym_stacks__slots(const struct sym_stacks *st, size_t *nr)
{
	*nr = st->v ? st->mask + 1 : 0;
	return st->v;
}

size_t sym_stacks__nr(const struct sym_stacks *st)
{
	return st ? st->used : 0;
}
