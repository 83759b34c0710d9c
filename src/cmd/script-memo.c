// SPDX-License-Identifier: GPL-2.0
/*
 * script's memo of printed text by key bytes: what a tracepoint payload (script-trace.c) or
 * a callchain address (script.c) printed once, kept in a table up to a bound of bytes. At
 * the bound the memo empties and fills again, so that what a recording repeats later is
 * kept and memory does not grow with the file.
 */
#include <errno.h>
#include <stdbool.h>
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

/* a memo with its front, or without one (the frame memo has its own) */
static struct text_memo *memo_new(size_t max_bytes, bool front)
{
	struct text_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->max_bytes = max_bytes;
	m->gen = 1;
	if (front)	/* (gen 0: stale) */
		m->front = calloc((size_t)1 << FRONT_BITS, sizeof(*m->front));
	return m;
}

struct text_memo *text_memo__new(size_t max_bytes)
{
	return memo_new(max_bytes, true);
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

/* frame_memo: see script-int.h */

struct frame_memo *frame_memo__new(size_t max_bytes, uint32_t base_len)
{
	struct frame_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->text = memo_new(max_bytes, false);	/* (this front takes the place of its) */
	m->front = calloc(FRAME_FRONT_LINES, sizeof(*m->front));
	m->base_len = base_len;
	if (!m->text || !m->front) {
		frame_memo__delete(m);
		return NULL;
	}
	m->gen = m->text->gen;
	return m;
}

void frame_memo__delete(struct frame_memo *m)
{
	if (!m)
		return;
	text_memo__delete(m->text);
	free(m->front);
	free(m->bases.slot);
	free(m->bases.hash);
	free(m->bases.keys);
	free(m);
}

static int bases_grow(struct frame_memo *m)
{
	struct frame_bases *b = &m->bases;
	size_t nmask = b->mask ? b->mask * 2 + 1 : 255, i, j;
	uint32_t *slot = calloc(nmask + 1, sizeof(*slot));
	uint64_t *hash = realloc(b->hash, (nmask + 1) / 2 * sizeof(*hash));
	unsigned char *keys = realloc(b->keys, (nmask + 1) / 2 * m->base_len);

	if (hash)
		b->hash = hash;
	if (keys)
		b->keys = keys;
	if (!slot || !hash || !keys) {
		free(slot);
		return -ENOMEM;
	}
	for (i = 0; i < b->nr; i++) {	/* base i + 1 */
		for (j = b->hash[i] & nmask; slot[j]; j = (j + 1) & nmask)
			;
		slot[j] = (uint32_t)i + 1;
	}
	free(b->slot);
	b->slot = slot;
	b->mask = nmask;
	return 0;
}

uint32_t frame_memo__base(struct frame_memo *m, const void *key, uint64_t hash)
{
	struct frame_bases *b = &m->bases;
	size_t i;
	uint32_t id;

	for (i = b->slot ? hash & b->mask : 0; b->slot && (id = b->slot[i]); i = (i + 1) & b->mask)
		if (b->hash[id - 1] == hash && !memcmp(b->keys + (size_t)(id - 1) * m->base_len,
						       key, m->base_len))
			return id;
	if ((b->nr + 1) * 2 > b->mask && bases_grow(m))
		return 0;
	if (b->nr >= UINT32_MAX - 1)
		return 0;
	for (i = hash & b->mask; b->slot[i]; i = (i + 1) & b->mask)
		;
	b->hash[b->nr] = hash;
	memcpy(b->keys + b->nr * m->base_len, key, m->base_len);
	b->slot[i] = (uint32_t)++b->nr;
	return (uint32_t)b->nr;
}

/* the text memo's key of a frame */
struct frame_ent_key {
	uint64_t addr;
	uint64_t base;
};

static uint64_t frame_hash(uint32_t base, uint64_t addr)
{
	uint64_t h = addr * 0x9e3779b97f4a7c15ull ^ (uint64_t)base * 0xc4ceb9fe1a85ec53ull;

	return h ^ h >> 31;
}

/* a text the memo keeps into the front; where the memo emptied since, the front first */
static const char *front_fill(struct frame_memo *m, struct frame_line *l, uint32_t base,
			      uint64_t addr, const char *text, uint32_t tlen)
{
	if (m->gen != m->text->gen) {
		memset(m->front, 0, FRAME_FRONT_LINES * sizeof(*m->front));
		m->gen = m->text->gen;
	}
	if (text)
		*l = (struct frame_line){ addr, text, base, tlen };
	return text;
}

const char *frame_memo__find(struct frame_memo *m, uint32_t base, uint64_t addr, uint32_t *tlen)
{
	struct frame_ent_key k = { addr, base };
	const char *text = text_memo__get(m->text, 0, &k, sizeof(k), frame_hash(base, addr), tlen);

	return front_fill(m, &m->front[frame_line_of(base, addr)], base, addr, text,
			  text ? *tlen : 0);
}

void frame_memo__put(struct frame_memo *m, uint32_t base, uint64_t addr, const char *text,
		     uint32_t tlen)
{
	struct frame_ent_key k = { addr, base };
	const char *kept = text_memo__put(m->text, 0, &k, sizeof(k), frame_hash(base, addr), text,
					  tlen);

	front_fill(m, &m->front[frame_line_of(base, addr)], base, addr, kept, tlen);
}
