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

struct text_memo {
	struct memo_slot *tab;
	size_t mask, used;
	size_t bytes, max_bytes;
};

struct text_memo *text_memo__new(size_t max_bytes)
{
	struct text_memo *m = calloc(1, sizeof(*m));

	if (m)
		m->max_bytes = max_bytes;
	return m;
}

static void clear(struct text_memo *m)
{
	size_t i;

	for (i = 0; m->tab && i <= m->mask; i++) {
		free(m->tab[i].ent);
		m->tab[i].ent = NULL;
	}
	m->used = 0;
	m->bytes = 0;
}

void text_memo__delete(struct text_memo *m)
{
	if (!m)
		return;
	clear(m);
	free(m->tab);
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

const char *text_memo__get(const struct text_memo *m, int id, const void *key, uint32_t klen,
			   uint64_t hash, uint32_t *tlen)
{
	const struct memo_ent *n;
	size_t i;

	for (i = m->tab ? hash & m->mask : 0; m->tab && m->tab[i].ent; i = (i + 1) & m->mask) {
		n = m->tab[i].ent;
		if (m->tab[i].hash == hash && n->id == id && n->klen == klen &&
		    !memcmp(n->data, key, klen)) {
			*tlen = n->tlen;
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
	n = malloc(need);
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
