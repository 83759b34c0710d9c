// SPDX-License-Identifier: GPL-2.0
/* Histograms keyed by sort keys: an open-addressing hash table of entries. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/hist.h"
#include "schedlens/perfdata.h"
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

/*
 * A hash of @k's keys: comm and DSO strings by pointer (key_eq()'s, while adding) or, with
 * @content, by their text (cmp_keys()'s, hist__collapse())
 */
static uint64_t hash_keys(const struct hist *h, const struct hist_key *k, bool content)
{
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < h->nr_sorts; i++) {
		const char *str = h->sorts[i] == HIST_SORT_COMM ? k->comm :
				  h->sorts[i] == HIST_SORT_DSO ? k->dso : NULL;

		switch (h->sorts[i]) {
		case HIST_SORT_COMM:
		case HIST_SORT_DSO:
			x = mix(x, !content ? (uintptr_t)str :
				   str ? hash_bytes(str, strlen(str), 1) : 0);
			break;
		case HIST_SORT_SYM:
			x = mix(x, k->sym ? (uintptr_t)k->sym ^ k->sym_start : k->addr);
			break;
		case HIST_SORT_PID:
			x = mix(x, (uint32_t)k->tid);
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

static uint64_t key_hash(const struct hist *h, const struct hist_key *k)
{
	return hash_keys(h, k, false);
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
			if (a->sym != b->sym || (a->sym && a->sym_start != b->sym_start) ||
			    (!a->sym && a->addr != b->addr))
				return false;
			break;
		case HIST_SORT_PID:
			if (a->tid != b->tid)
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

static int cmp_keys_one(enum hist_sort s, const struct hist_key *a, const struct hist_key *b)
{
	switch (s) {
	case HIST_SORT_COMM:
		return cmp_str(a->comm, b->comm);
	case HIST_SORT_DSO:
		return cmp_str(a->dso, b->dso);
	case HIST_SORT_SYM:
		if (a->sym || b->sym)
			return a->sym == b->sym ? (a->sym_start > b->sym_start) -
						  (a->sym_start < b->sym_start) :
			       cmp_str(a->sym_name, b->sym_name) ?: (a->sym < b->sym ? -1 : 1);
		return a->addr < b->addr ? -1 : a->addr > b->addr;
	case HIST_SORT_PID:
		return a->tid < b->tid ? -1 : a->tid > b->tid;
	case HIST_SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	default:
		return 0;
	}
}

static int cmp_keys(const struct hist *h, const struct hist_key *a, const struct hist_key *b)
{
	size_t i;
	int r = 0;

	for (i = 0; i < h->nr_sorts && !r; i++)
		r = cmp_keys_one(h->sorts[i], a, b);
	return r;
}

static int cmp_collapse(const void *a, const void *b, void *h)
{
	return cmp_keys(h, &((const struct hist_entry *)a)->key,
			&((const struct hist_entry *)b)->key);
}

/*
 * Entries equal by content merged into the first of them, in place, in insertion order: what
 * merging neighbours after a stable sort by content leaves, before sorting (the entries of
 * one content are mostly one comm's threads). The new count, or 0 on ENOMEM (nothing done).
 */
static size_t merge_by_content(struct hist *h)
{
	size_t mask = 1023, n = 0, i, j;
	uint32_t *tab;

	while (mask < h->nr * 2)
		mask = mask * 2 + 1;
	tab = calloc(mask + 1, sizeof(*tab));
	if (!tab)
		return 0;
	for (i = 0; i < h->nr; i++) {
		const struct hist_entry *e = &h->v[i];

		for (j = (hash_keys(h, &e->key, true) >> 20) & mask; tab[j]; j = (j + 1) & mask) {
			struct hist_entry *first = &h->v[tab[j] - 1];

			if (!cmp_keys(h, &first->key, &e->key)) {
				first->nr_samples += e->nr_samples;
				first->period += e->period;
				break;
			}
		}
		if (!tab[j]) {
			h->v[n] = *e;
			tab[j] = (uint32_t)++n;
		}
	}
	free(tab);
	return n;
}

/*
 * Entries equal by content merged into one. Their order is left as merge_by_content() leaves
 * it: hist_rows__new() sorts the rows by a total order (cmp_row(), which ends with
 * cmp_keys()), so no sort by content is needed here, but where there is no memory to merge
 * in a table (then by a sort by content and merging neighbours).
 */
int hist__collapse(struct hist *h)
{
	size_t i, n = 0, merged;

	if (h->nr < 2)
		goto out;
	merged = merge_by_content(h);
	if (merged) {
		h->nr = merged;
		goto out;
	}
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
out:
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

/*
 * Equal shares in perf's output order: its sort keys' se_sort (names ascending, a sample
 * without a map or a symbol after those with one); cmp_addr() then, for two without a
 * symbol, the order of its collapsed tree (addresses as signed numbers, ascending).
 */
static int cmp_output(const struct hist *h, const struct hist_key *a, const struct hist_key *b)
{
	size_t i;
	int r = 0;

	for (i = 0; i < h->nr_sorts && !r; i++) {
		switch (h->sorts[i]) {
		case HIST_SORT_DSO: {
			bool na = !strcmp(a->dso, "[unknown]"), nb = !strcmp(b->dso, "[unknown]");

			r = na != nb ? na - nb : na ? 0 : cmp_str(a->dso, b->dso);
			break;
		}
		case HIST_SORT_SYM:
			if (!a->sym != !b->sym)
				r = !a->sym - !b->sym;
			else if (a->sym)
				r = cmp_str(a->sym_name, b->sym_name);
			break;
		default:
			r = cmp_keys_one(h->sorts[i], a, b);
			break;
		}
	}
	return r;
}

static int cmp_addr(const struct hist *h, const struct hist_key *a, const struct hist_key *b)
{
	size_t i;
	int r = 0;

	for (i = 0; i < h->nr_sorts && !r; i++)
		if (h->sorts[i] == HIST_SORT_SYM && !a->sym && !b->sym)
			r = (int64_t)a->addr < (int64_t)b->addr ? -1 : (int64_t)a->addr > (int64_t)b->addr;
	return r;
}

struct hist_rows {
	struct hist_row *v;
	size_t nr, nr_members;
	const struct hist *keys;	/* whose sort keys order equal periods */
	bool by_samples;
	struct hist_key *key;		/* [row] */
	uint64_t *vals;			/* [row][period: nr_members, samples: nr_members] */
};

struct member_ref {
	const struct hist_entry *e;
	size_t m;
};

static int cmp_ref(const void *a, const void *b, void *h)
{
	const struct member_ref *x = a, *y = b;

	return cmp_keys(h, &x->e->key, &y->e->key) ?: (x->m > y->m) - (x->m < y->m);
}

static int cmp_row(const void *a, const void *b, void *ctx)
{
	const struct hist_rows *rows = ctx;
	const struct hist_row *x = a, *y = b;
	size_t i;

	int r;

	for (i = 0; i < rows->nr_members; i++)
		if (x->period[i] != y->period[i])
			return x->period[i] > y->period[i] ? -1 : 1;
	r = cmp_output(rows->keys, x->key, y->key);
	for (i = 0; !r && rows->by_samples && i < rows->nr_members; i++)
		if (x->nr_samples[i] != y->nr_samples[i])
			return x->nr_samples[i] > y->nr_samples[i] ? -1 : 1;
	/* last, the order by content: rows are distinct by it, so the order is total */
	return r ?: cmp_addr(rows->keys, x->key, y->key) ?: cmp_keys(rows->keys, x->key, y->key);
}

/* the members' entries, each once; with several members by key, equal keys side by side */
static struct member_ref *member_refs(struct hist **members, size_t nr, size_t *n)
{
	struct member_ref *refs;
	size_t m, i, k = 0;

	*n = 0;
	for (m = 0; m < nr; m++) {
		hist__collapse(members[m]);
		*n += members[m]->nr;
	}
	refs = malloc((*n ?: 1) * sizeof(*refs));
	if (!refs)
		return NULL;
	for (m = 0; m < nr; m++)
		for (i = 0; i < members[m]->nr; i++)
			refs[k++] = (struct member_ref){ &members[m]->v[i], m };
	if (nr > 1)	/* (one member's entries are distinct by content: hist__collapse()) */
		qsort_r(refs, *n, sizeof(*refs), cmp_ref, members[0]);
	return refs;
}

struct hist_rows *hist_rows__new(struct hist **members, size_t nr, bool by_samples)
{
	struct hist_rows *rows = calloc(1, sizeof(*rows));
	struct member_ref *refs = NULL;
	size_t n = 0, i;
	uint64_t *vals;

	if (!rows || !nr)
		goto out_fail;
	rows->nr_members = nr;
	rows->keys = members[0];
	rows->by_samples = by_samples;
	refs = member_refs(members, nr, &n);
	rows->v = calloc(n ?: 1, sizeof(*rows->v));
	rows->key = calloc(n ?: 1, sizeof(*rows->key));
	rows->vals = calloc((n ?: 1) * 2 * nr, sizeof(*rows->vals));
	if (!refs || !rows->v || !rows->key || !rows->vals)
		goto out_fail;
	for (i = 0; i < n; i++) {
		if (!rows->nr || nr == 1 ||
		    cmp_keys(members[0], &rows->key[rows->nr - 1], &refs[i].e->key)) {
			rows->key[rows->nr] = refs[i].e->key;
			rows->v[rows->nr].key = &rows->key[rows->nr];
			vals = &rows->vals[rows->nr * 2 * nr];
			rows->v[rows->nr].period = vals;
			rows->v[rows->nr].nr_samples = vals + nr;
			rows->nr++;
		}
		vals = &rows->vals[(rows->nr - 1) * 2 * nr];
		vals[refs[i].m] = refs[i].e->period;
		vals[nr + refs[i].m] = refs[i].e->nr_samples;
	}
	qsort_r(rows->v, rows->nr, sizeof(*rows->v), cmp_row, rows);
	free(refs);
	return rows;
out_fail:
	free(refs);
	hist_rows__delete(rows);
	return NULL;
}

void hist_rows__delete(struct hist_rows *rows)
{
	if (!rows)
		return;
	free(rows->v);
	free(rows->key);
	free(rows->vals);
	free(rows);
}

size_t hist_rows__nr(const struct hist_rows *rows)
{
	return rows->nr;
}

struct hist_row hist_rows__get(const struct hist_rows *rows, size_t i)
{
	return rows->v[i];
}

int hist_groups__init(struct hist_group *g, size_t nr, const struct perf_group_desc *desc,
		      size_t nr_desc, bool force)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; i < nr; i++)
		g[i] = (struct hist_group){ .nr_members = 1 };
	if (force && !nr_desc && nr) {
		g[0] = (struct hist_group){ .nr_members = nr, .forced = true };
		for (i = 1; i < nr; i++)
			g[i].nr_members = 0;
		return 0;
	}
	for (i = 0; i < nr_desc; i++) {
		size_t l = desc[i].leader_idx, n = desc[i].nr_members;
		bool fits = l < nr && n >= 1 && n <= nr - l;

		for (j = l; fits && j < l + n; j++)
			fits = g[j].nr_members == 1 && !g[j].name;
		if (!fits) {
			ret = -EINVAL;
			continue;
		}
		g[l].nr_members = n;
		if (desc[i].name && strcmp(desc[i].name, "{anon_group}"))
			g[l].name = desc[i].name;
		for (j = l + 1; j < l + n; j++)
			g[j].nr_members = 0;
	}
	return ret;
}

char *hist_group__desc(const struct hist_group *g, size_t leader, const char *const *names,
		       char *buf, size_t size)
{
	const struct hist_group *l = &g[leader];
	size_t i, n = 0;

	buf[0] = '\0';
	if (!l->forced)
		n = snprintf(buf, size, "%s { ", l->name ?: "anon group");
	for (i = 0; i < (l->nr_members ?: 1) && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", i ? ", " : "", names[leader + i]);
	if (!l->forced && n < size)
		snprintf(buf + n, size - n, " }");
	return buf;
}
