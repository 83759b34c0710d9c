// SPDX-License-Identifier: GPL-2.0
/* Printable frame names and string-keyed counts for collapsed stacks and call paths. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/symbols.h"

const char *sym_loc__name(const struct sym_loc *l, char *buf, size_t len)
{
	if (l->sym)
		snprintf(buf, len, "%s", l->sym);
	else
		snprintf(buf, len, "0x%016" PRIx64, l->addr);
	return buf;
}

const char *sym_loc__srcline(const struct sym_loc *l, char *buf, size_t len)
{
	const char *base;

	if (l->srcfile && l->line) {
		base = strrchr(l->srcfile, '/');
		snprintf(buf, len, "%s:%u", base ? base + 1 : l->srcfile, l->line);
	} else if (l->sym) {
		snprintf(buf, len, "%s+%" PRIu64, l->sym, l->addr - l->sym_start);
	} else {
		snprintf(buf, len, "??:0");
	}
	return buf;
}

struct sym_stacks {
	struct sym_stack *v;		/* open addressing, key NULL: empty */
	size_t mask, used;
	struct sym_stack *sorted;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct sym_stacks *sym_stacks__new(void)
{
	struct sym_stacks *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->mask = 255;
	st->v = calloc(st->mask + 1, sizeof(*st->v));
	if (!st->v) {
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
		free((char *)st->v[i].key);
	free(st->v);
	free(st->sorted);
	free(st);
}

static int grow(struct sym_stacks *st)
{
	size_t nmask = st->mask * 2 + 1, i, j;
	struct sym_stack *n = calloc(nmask + 1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i <= st->mask; i++) {
		if (!st->v[i].key)
			continue;
		for (j = str_hash(st->v[i].key) & nmask; n[j].key; j = (j + 1) & nmask)
			;
		n[j] = st->v[i];
	}
	free(st->v);
	st->v = n;
	st->mask = nmask;
	return 0;
}

int sym_stacks__add(struct sym_stacks *st, const char *key, uint64_t period)
{
	return sym_stacks__add_n(st, key, 1, period);
}

int sym_stacks__add_n(struct sym_stacks *st, const char *key, uint64_t nr_samples,
		      uint64_t period)
{
	size_t i;

	if (st->used * 2 >= st->mask && grow(st))
		return -ENOMEM;
	for (i = str_hash(key) & st->mask; st->v[i].key; i = (i + 1) & st->mask)
		if (!strcmp(st->v[i].key, key))
			break;
	if (!st->v[i].key) {
		st->v[i].key = strdup(key);
		if (!st->v[i].key)
			return -ENOMEM;
		st->used++;
	}
	st->v[i].nr_samples += nr_samples;
	st->v[i].period += period;
	return 0;
}

const struct sym_stack *sym_stacks__get(const struct sym_stacks *st, const char *key)
{
	size_t i;

	for (i = str_hash(key) & st->mask; st->v[i].key; i = (i + 1) & st->mask)
		if (!strcmp(st->v[i].key, key))
			return &st->v[i];
	return NULL;
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
