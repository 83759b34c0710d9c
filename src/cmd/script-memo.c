// SPDX-License-Identifier: GPL-2.0
/*
 * script's memo of printed text by key bytes: what a tracepoint payload (script-trace.c) or
 * a callchain address (script.c) printed once, kept in a table up to a bound of bytes. At
 * the bound the memo empties and fills again, so that what a recording repeats later is
 * kept and memory does not grow with the file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "script-int.h"

struct memo_ent {
	int id;
	uint32_t klen, tlen;
	char data[];			/* klen key bytes, then tlen text bytes and a NUL */
};

struct memo_slot {
	uint64_t hash;			/* in the table, so that a probe reads no entry */
	struct memo_ent *ent;		/* NULL: empty */
};

/*
 * The front: a direct-mapped copy of recently found keys of up to FRONT_KEY bytes, each in
 * one line with its text's address, so that the keys a recording repeats most (a hot
 * callchain's frames, a busy task's switch) are found in a cache-resident table without a
 * probe of the big one nor a read of an entry. An entry is of the generation it was filled
 * in: clear() starts a new one, which leaves every line stale.
 */
#define FRONT_BITS 12
#define FRONT_KEY 64

struct front_line {
	uint64_t hash;
	const char *text;
	uint32_t gen, klen, tlen;
	int id;
	unsigned char key[FRONT_KEY];
};

/* entries are cut from blocks of BLOCK bytes (or one of their own size), kept across clears */
#define BLOCK (1u << 20)

struct block {
	struct block *next;
	size_t size, used;
	char data[];
};

struct text_memo {
	struct memo_slot *tab;
	size_t mask, used;
	size_t bytes, max_bytes;
	struct block *blocks, *cur;	/* cur: the block entries are cut from now */
	uint32_t gen;
	struct front_line *front;	/* NULL where it could not be had */
};

struct text_memo *text_memo__new(size_t max_bytes)
{
	struct text_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->max_bytes = max_bytes;
	m->gen = 1;
	m->front = calloc((size_t)1 << FRONT_BITS, sizeof(*m->front));	/* (gen 0: stale) */
	return m;
}

/* every entry gone: the table's slots emptied, the blocks kept for the next entries */
static void clear(struct text_memo *m)
{
	struct block *b;

	if (m->tab)
		memset(m->tab, 0, (m->mask + 1) * sizeof(*m->tab));
	for (b = m->blocks; b; b = b->next)
		b->used = 0;
	m->cur = m->blocks;
	m->used = 0;
	m->bytes = 0;
	m->gen++;
}

void text_memo__delete(struct text_memo *m)
{
	struct block *b;

	if (!m)
		return;
	while ((b = m->blocks)) {
		m->blocks = b->next;
		free(b);
	}
	free(m->tab);
	free(m->front);
	free(m);
}

static int grow(struct text_memo *m)
{
	size_t nmask = m->mask ? m->mask * 2 + 1 : 1023, i, j;
	struct memo_slot *n = calloc(nmask + 1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; m->tab && i <= m->mask; i++) {
		if (!m->tab[i].ent)
			continue;
		for (j = m->tab[i].hash & nmask; n[j].ent; j = (j + 1) & nmask)
			;
		n[j] = m->tab[i];
	}
	free(m->tab);
	m->tab = n;
	m->mask = nmask;
	return 0;
}

/* @need bytes for an entry, 8-aligned, from the blocks: a block past cur with room, else a
 * new one at the end; NULL where none can be had */
static void *cut(struct text_memo *m, size_t need)
{
	struct block *b, **end;

	need = (need + 7) & ~(size_t)7;
	for (b = m->cur; b; b = b->next) {
		if (b->size - b->used >= need) {
			m->cur = b;
			b->used += need;
			return b->data + b->used - need;
		}
	}
	for (end = &m->blocks; *end; end = &(*end)->next)
		;
	b = malloc(sizeof(*b) + (need > BLOCK ? need : BLOCK));
	if (!b)
		return NULL;
	b->next = NULL;
	b->size = need > BLOCK ? need : BLOCK;
	b->used = need;
	*end = b;
	m->cur = b;
	return b->data;
}

const char *text_memo__get(struct text_memo *m, int id, const void *key, uint32_t klen,
			   uint64_t hash, uint32_t *tlen)
{
	struct front_line *fl = NULL;
	const struct memo_ent *n;
	size_t i;

	if (m->front && klen <= FRONT_KEY) {
		fl = &m->front[(hash ^ hash >> 29) & ((1u << FRONT_BITS) - 1)];
		if (fl->gen == m->gen && fl->hash == hash && fl->id == id && fl->klen == klen &&
		    !memcmp(fl->key, key, klen)) {
			*tlen = fl->tlen;
			return fl->text;
		}
	}
	for (i = m->tab ? hash & m->mask : 0; m->tab && m->tab[i].ent; i = (i + 1) & m->mask) {
		n = m->tab[i].ent;
		if (m->tab[i].hash == hash && n->id == id && n->klen == klen &&
		    !memcmp(n->data, key, klen)) {
			*tlen = n->tlen;
			if (fl) {
				fl->hash = hash;
				fl->text = n->data + klen;
				fl->gen = m->gen;
				fl->klen = klen;
				fl->tlen = n->tlen;
				fl->id = id;
				memcpy(fl->key, key, klen);
			}
			return n->data + klen;
		}
	}
	return NULL;
}

const char *text_memo__put(struct text_memo *m, int id, const void *key, uint32_t klen,
			   uint64_t hash, const char *text, uint32_t tlen)
{
	size_t need = sizeof(struct memo_ent) + klen + tlen + 1, i;
	struct memo_ent *n;

	if (need > m->max_bytes)
		return NULL;
	if (m->bytes + need > m->max_bytes)
		clear(m);
	if ((m->used + 1) * 2 > m->mask && grow(m))
		return NULL;
	n = cut(m, need);
	if (!n)
		return NULL;
	*n = (struct memo_ent){ id, klen, tlen };
	memcpy(n->data, key, klen);
	memcpy(n->data + klen, text, tlen);
	n->data[klen + tlen] = '\0';
	for (i = hash & m->mask; m->tab[i].ent; i = (i + 1) & m->mask)
		;
	m->tab[i] = (struct memo_slot){ hash, n };
	m->used++;
	m->bytes += need;
	return n->data + klen;
}
