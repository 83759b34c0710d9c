// SPDX-License-Identifier: GPL-2.0
/* Call paths counted by number (callpaths.h): interned names, a trie of nodes, counts. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/callpaths.h"
#include "schedlens/util.h"

/* open addressing by a 64-bit key: the number it maps to, id 0 empty (a probe: one line) */
struct idslot {
	uint64_t key;
	uint32_t id;
};

struct idtab {
	struct idslot *v;
	size_t mask, used;
};

struct callpaths {
	/* interned strings: id i (from 1) at str[off[i]], len[i] bytes, hash[i] */
	char *str;
	size_t str_len, str_cap;
	size_t *off;
	uint32_t *len;
	uint64_t *hash;
	size_t nr_strs, strs_cap;
	struct idtab strs;	/* key: the hash (0 made 1), id: the string's */
	/* nodes: id i (from 1) is name[i] then the path tail[i] */
	uint32_t *name, *tail;
	size_t nr_nodes, nodes_cap;
	struct idtab nodes;	/* key: name << 32 | tail */
	struct callpaths_count *counts;
	size_t nr_counts, counts_cap;
	struct idtab pairs;	/* key: label << 32 | node, id: the count's index + 1 */
};

static uint64_t mix(uint64_t x)
{
	x *= 0x9e3779b97f4a7c15ull;
	return x ^ x >> 29;
}

static int idtab__init(struct idtab *t)
{
	t->mask = 1023;
	t->used = 0;
	t->v = calloc(t->mask + 1, sizeof(*t->v));
	return t->v ? 0 : -ENOMEM;
}

static void idtab__free(struct idtab *t)
{
	free(t->v);
}

static int idtab__grow(struct idtab *t)
{
	size_t nmask = t->mask * 2 + 1, i, j;
	struct idslot *n = calloc(nmask + 1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i <= t->mask; i++) {
		if (!t->v[i].id)
			continue;
		for (j = mix(t->v[i].key) & nmask; n[j].id; j = (j + 1) & nmask)
			;
		n[j] = t->v[i];
	}
	free(t->v);
	t->v = n;
	t->mask = nmask;
	return 0;
}

/* room for one more key: 0 or -ENOMEM */
static int idtab__room(struct idtab *t)
{
	return t->used * 2 >= t->mask ? idtab__grow(t) : 0;
}

/* @key with @id in free slot @i */
static void idtab__put(struct idtab *t, size_t i, uint64_t key, uint32_t id)
{
	t->v[i] = (struct idslot){ key, id };
	t->used++;
}

/* the slot of @key: where it is, or the free one it would take */
static size_t idtab__slot(struct idtab *t, uint64_t key)
{
	size_t i;

	for (i = mix(key) & t->mask; t->v[i].id && t->v[i].key != key; i = (i + 1) & t->mask)
		;
	return i;
}

static int grow_array(void **v, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 256;
	void *n;

	while (ncap < need)
		ncap *= 2;
	if (ncap == *cap)
		return 0;
	n = realloc(*v, ncap * size);
	if (!n)
		return -ENOMEM;
	*v = n;
	*cap = ncap;
	return 0;
}

/* arrays @a, @b and (unless NULL) @c of *@cap elements made to hold @need: 0, -ENOMEM */
static int grow_by(size_t *cap, size_t need, void **a, size_t asize, void **b, size_t bsize,
		   void **c, size_t csize)
{
	size_t ncap = *cap, old = *cap;
	void *n;

	if (need <= old)
		return 0;
	if (grow_array(a, &ncap, need, asize))
		return -ENOMEM;
	if (!(n = realloc(*b, ncap * bsize)))
		return -ENOMEM;	/* (@a larger than *@cap says: harmless) */
	*b = n;
	if (c) {
		if (!(n = realloc(*c, ncap * csize)))
			return -ENOMEM;
		*c = n;
	}
	*cap = ncap;
	return 0;
}

struct callpaths *callpaths__new(void)
{
	struct callpaths *cp = calloc(1, sizeof(*cp));

	if (!cp)
		return NULL;
	if (idtab__init(&cp->strs) || idtab__init(&cp->nodes) || idtab__init(&cp->pairs)) {
		callpaths__delete(cp);
		return NULL;
	}
	cp->nr_strs = cp->nr_nodes = 1;		/* 0 is CALLPATHS_NONE */
	return cp;
}

void callpaths__delete(struct callpaths *cp)
{
	if (!cp)
		return;
	idtab__free(&cp->strs);
	idtab__free(&cp->nodes);
	idtab__free(&cp->pairs);
	free(cp->str);
	free(cp->off);
	free(cp->len);
	free(cp->hash);
	free(cp->name);
	free(cp->tail);
	free(cp->counts);
	free(cp);
}

uint32_t callpaths__intern(struct callpaths *cp, const struct sym_key *k)
{
	uint64_t h = k->hash ? k->hash : 1;
	size_t i, n = cp->nr_strs;

	if (idtab__room(&cp->strs))
		return CALLPATHS_NONE;
	for (i = mix(h) & cp->strs.mask; cp->strs.v[i].id; i = (i + 1) & cp->strs.mask) {
		uint32_t id = cp->strs.v[i].id;

		if (cp->strs.v[i].key == h && cp->len[id] == k->len &&
		    !memcmp(cp->str + cp->off[id], k->str, k->len))
			return id;
	}
	if (n >= UINT32_MAX || k->len >= UINT32_MAX ||
	    grow_array((void **)&cp->str, &cp->str_cap, cp->str_len + k->len + 1, 1) ||
	    grow_by(&cp->strs_cap, n + 1, (void **)&cp->off, sizeof(*cp->off),
		    (void **)&cp->len, sizeof(*cp->len), (void **)&cp->hash, sizeof(*cp->hash)))
		return CALLPATHS_NONE;
	memcpy(cp->str + cp->str_len, k->str, k->len);
	cp->str[cp->str_len + k->len] = '\0';
	cp->off[n] = cp->str_len;
	cp->len[n] = (uint32_t)k->len;
	cp->hash[n] = h;
	cp->str_len += k->len + 1;
	idtab__put(&cp->strs, i, h, (uint32_t)n);
	return (uint32_t)cp->nr_strs++;
}

uint32_t callpaths__node(struct callpaths *cp, uint32_t name, uint32_t tail)
{
	uint64_t key = (uint64_t)name << 32 | tail;
	size_t i, n = cp->nr_nodes;

	if (name == CALLPATHS_NONE || idtab__room(&cp->nodes))
		return CALLPATHS_NONE;
	i = idtab__slot(&cp->nodes, key);
	if (cp->nodes.v[i].id)
		return cp->nodes.v[i].id;
	if (n >= UINT32_MAX || grow_by(&cp->nodes_cap, n + 1, (void **)&cp->name, sizeof(*cp->name),
				       (void **)&cp->tail, sizeof(*cp->tail), NULL, 0))
		return CALLPATHS_NONE;
	cp->name[n] = name;
	cp->tail[n] = tail;
	idtab__put(&cp->nodes, i, key, (uint32_t)n);
	return (uint32_t)cp->nr_nodes++;
}

void callpaths__add_at(struct callpaths *cp, size_t idx, uint64_t nr, uint64_t period)
{
	cp->counts[idx].nr_samples += nr;
	cp->counts[idx].period += period;
}

long callpaths__add(struct callpaths *cp, uint32_t label, uint32_t node, uint64_t period)
{
	uint64_t key = (uint64_t)label << 32 | node;
	size_t i;

	if (label == CALLPATHS_NONE || node == CALLPATHS_NONE)
		return -ENOMEM;
	if (idtab__room(&cp->pairs))
		return -ENOMEM;
	i = idtab__slot(&cp->pairs, key);
	if (!cp->pairs.v[i].id) {
		if (cp->nr_counts >= UINT32_MAX - 1 ||
		    grow_array((void **)&cp->counts, &cp->counts_cap, cp->nr_counts + 1,
			       sizeof(*cp->counts)))
			return -ENOMEM;
		cp->counts[cp->nr_counts] = (struct callpaths_count){ label, node, 0, 0 };
		idtab__put(&cp->pairs, i, key, (uint32_t)++cp->nr_counts);
	}
	callpaths__add_at(cp, cp->pairs.v[i].id - 1, 1, period);
	return (long)cp->pairs.v[i].id - 1;
}

const struct callpaths_count *callpaths__counts(const struct callpaths *cp, size_t *nr)
{
	*nr = cp->nr_counts;
	return cp->counts;
}

const char *callpaths__str(const struct callpaths *cp, uint32_t id, size_t *len)
{
	*len = cp->len[id];
	return cp->str + cp->off[id];
}

uint32_t callpaths__next(const struct callpaths *cp, uint32_t node, const char **name,
			 size_t *len)
{
	*name = callpaths__str(cp, cp->name[node], len);
	return cp->tail[node];
}
