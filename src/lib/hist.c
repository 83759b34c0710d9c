// SPDX-License-Identifier: GPL-2.0
/* Histograms keyed by sort keys: an open-addressing hash table of entries. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/hist.h"
#include "schedlens/util.h"

struct hist {
	enum hist_sort sorts[HIST_SORT_MAX];
	size_t nr_sorts;
	struct hist_entry *v;	/* entries, in insertion order */
	size_t nr, alloc;
	uint32_t *slots;	/* index + 1 into v, 0 = free */
	size_t nr_slots;
	uint64_t total_period, total_samples;
	size_t last;		/* index + 1 of the entry the previous sample went to */
	bool sorted;
};

static const char *const sort_names[] = {
	[HIST_SORT_COMM] = "comm", [HIST_SORT_DSO] = "dso", [HIST_SORT_SYM] = "sym",
	[HIST_SORT_PID] = "pid", [HIST_SORT_CPU] = "cpu",
};

int hist_sort__parse(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sort_names); i++)
		if (!strcmp(name, sort_names[i]))
			return i;
	return -1;
}

const char *hist_sort__name(enum hist_sort s)
{
	return s < HIST_SORT_MAX ? sort_names[s] : "?";
}

struct hist *hist__new(const enum hist_sort *sorts, size_t nr)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (!h || nr > HIST_SORT_MAX) {
		free(h);
		return NULL;
	}
	memcpy(h->sorts, sorts, nr * sizeof(*sorts));
	h->nr_sorts = nr;
	h->nr_slots = 1024;
	h->slots = calloc(h->nr_slots, sizeof(*h->slots));
	if (!h->slots) {
		free(h);
		return NULL;
	}
	return h;
}

void hist__delete(struct hist *h)
{
	if (!h)
		return;
	free(h->v);
	free(h->slots);
	free(h);
}

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t key_hash(const struct hist *h, const struct hist_key *k)
{
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < h->nr_sorts; i++) {
		switch (h->sorts[i]) {
		case HIST_SORT_COMM:
			x = mix(x, (uintptr_t)k->comm);
			break;
		case HIST_SORT_DSO:
			x = mix(x, (uintptr_t)k->dso);
			break;
		case HIST_SORT_SYM:
			x = mix(x, k->sym ? (uintptr_t)k->sym : k->addr);
			break;
		case HIST_SORT_PID:
			x = mix(x, (uint32_t)k->pid);
			break;
		case HIST_SORT_CPU:
			x = mix(x, (uint32_t)k->cpu);
			break;
		default:
			break;
		}
	}
	return x * 0x9e3779b97f4a7c15ULL;
}

static bool key_eq(const struct hist *h, const struct hist_key *a, const struct hist_key *b)
{
	size_t i;

	for (i = 0; i < h->nr_sorts; i++) {
		switch (h->sorts[i]) {
		case HIST_SORT_COMM:
			if (a->comm != b->comm)
				return false;
			break;
		case HIST_SORT_DSO:
			if (a->dso != b->dso)
				return false;
			break;
		case HIST_SORT_SYM:
			/* perf's sort__sym_cmp: symbols by identity, else by address */
			if (a->sym != b->sym || (!a->sym && a->addr != b->addr))
				return false;
			break;
		case HIST_SORT_PID:
			if (a->pid != b->pid)
				return false;
			break;
		case HIST_SORT_CPU:
			if (a->cpu != b->cpu)
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

static int rehash(struct hist *h)
{
	size_t n = h->nr_slots * 2, i;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (i = 0; i < h->nr; i++) {
		size_t j = (key_hash(h, &h->v[i].key) >> 20) & (n - 1);

		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = i + 1;
	}
	free(h->slots);
	h->slots = s;
	h->nr_slots = n;
	return 0;
}

int hist__add(struct hist *h, const struct hist_key *k, uint64_t period)
{
	size_t j;

	if (h->sorted) {
		/* sorting moved entries: rebuild the index */
		memset(h->slots, 0, h->nr_slots * sizeof(*h->slots));
		h->nr_slots /= 2;
		if (rehash(h))
			return -ENOMEM;
		h->sorted = false;
		h->last = 0;
	}
	h->total_period += period;
	h->total_samples++;
	/* runs of samples with one key are common: skip the hash for them */
	if (h->last && key_eq(h, &h->v[h->last - 1].key, k)) {
		h->v[h->last - 1].nr_samples++;
		h->v[h->last - 1].period += period;
		return 0;
	}
	j = (key_hash(h, k) >> 20) & (h->nr_slots - 1);
	while (h->slots[j]) {
		struct hist_entry *e = &h->v[h->slots[j] - 1];

		if (key_eq(h, &e->key, k)) {
			e->nr_samples++;
			e->period += period;
			h->last = h->slots[j];
			return 0;
		}
		j = (j + 1) & (h->nr_slots - 1);
	}
	if (h->nr == h->alloc) {
		size_t n = h->alloc ? h->alloc * 2 : 256;
		struct hist_entry *v = realloc(h->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->v = v;
		h->alloc = n;
	}
	h->v[h->nr] = (struct hist_entry){ *k, 1, period };
	h->slots[j] = ++h->nr;
	h->last = h->nr;
	if (h->nr * 2 > h->nr_slots)
		return rehash(h);
	return 0;
}

int hist__add_idx(struct hist *h, const struct hist_key *k, uint64_t period, size_t *idx)
{
	int ret = hist__add(h, k, period);

	*idx = h->last - 1;
	return ret;
}

void hist__add_at(struct hist *h, size_t idx, uint64_t period)
{
	h->total_period += period;
	h->total_samples++;
	h->v[idx].nr_samples++;
	h->v[idx].period += period;
	h->last = idx + 1;
}

void hist__add_more(struct hist *h, size_t idx, uint64_t nr, uint64_t period)
{
	h->total_period += period;
	h->total_samples += nr;
	h->v[idx].nr_samples += nr;
	h->v[idx].period += period;
}

static int cmp_str(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

static int cmp_keys(const struct hist *h, const struct hist_key *a, const struct hist_key *b)
{
	size_t i;
	int r = 0;

	for (i = 0; i < h->nr_sorts && !r; i++) {
		switch (h->sorts[i]) {
		case HIST_SORT_COMM:
			r = cmp_str(a->comm, b->comm);
			break;
		case HIST_SORT_DSO:
			r = cmp_str(a->dso, b->dso);
			break;
		case HIST_SORT_SYM:
			if (a->sym || b->sym)
				r = a->sym == b->sym ? 0 : cmp_str(a->sym_name, b->sym_name) ?:
				    (a->sym < b->sym ? -1 : 1);
			else
				r = a->addr < b->addr ? -1 : a->addr > b->addr;
			break;
		case HIST_SORT_PID:
			r = a->pid < b->pid ? -1 : a->pid > b->pid;
			break;
		case HIST_SORT_CPU:
			r = a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
			break;
		default:
			break;
		}
	}
	return r;
}

static int cmp_collapse(const void *a, const void *b, void *h)
{
	return cmp_keys(h, &((const struct hist_entry *)a)->key,
			&((const struct hist_entry *)b)->key);
}

int hist__collapse(struct hist *h)
{
	size_t i, n = 0;

	if (!h->nr)
		return 0;
	qsort_r(h->v, h->nr, sizeof(*h->v), cmp_collapse, h);
	for (i = 1; i < h->nr; i++) {
		if (!cmp_keys(h, &h->v[n].key, &h->v[i].key)) {
			h->v[n].nr_samples += h->v[i].nr_samples;
			h->v[n].period += h->v[i].period;
		} else {
			h->v[++n] = h->v[i];
		}
	}
	h->nr = n + 1;
	h->sorted = true;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	if (x->nr_samples != y->nr_samples)
		return x->nr_samples > y->nr_samples ? -1 : 1;
	return 0;
}

const struct hist_entry *hist__sorted(struct hist *h, size_t *nr)
{
	if (h->nr)
		qsort(h->v, h->nr, sizeof(*h->v), cmp_entry);
	h->sorted = true;
	*nr = h->nr;
	return h->v;
}

uint64_t hist__total_period(const struct hist *h)
{
	return h->total_period;
}

uint64_t hist__total_samples(const struct hist *h)
{
	return h->total_samples;
}
