/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call paths counted by number (report's -g and --children): a path is a node of a trie of
 * interned frame names, each node a name followed by the path it leads to (its tail), so
 * the paths of one sample that are tails of each other (every children entry's, from the
 * entry to the sampled frame) are one lookup a frame, not one string a path. Counts are
 * kept by (label, node); callpaths__next() walks a node's names.
 */
#ifndef SCHEDLENS_CALLPATHS_H
#define SCHEDLENS_CALLPATHS_H

#include <stddef.h>
#include <stdint.h>

#include "schedlens/symstacks.h"

/* no name, node or label: the empty path as a tail; as a result, the tables cannot grow */
#define CALLPATHS_NONE 0u

struct callpaths;

struct callpaths *callpaths__new(void);
void callpaths__delete(struct callpaths *cp);

/* the number of string @k (a frame name, or a label) interned; CALLPATHS_NONE: ENOMEM */
uint32_t callpaths__intern(struct callpaths *cp, const struct sym_key *k);
/* the node of name @name followed by path @tail (CALLPATHS_NONE: nothing after it) */
uint32_t callpaths__node(struct callpaths *cp, uint32_t name, uint32_t tail);
/*
 * One sample of @period under label @label (an interned string) at path @node: the index of
 * its count (for callpaths__add_at()), or -ENOMEM
 */
long callpaths__add(struct callpaths *cp, uint32_t label, uint32_t node, uint64_t period);
/* @nr more samples of @period in all at count @idx (callpaths__add()'s) */
void callpaths__add_at(struct callpaths *cp, size_t idx, uint64_t nr, uint64_t period);

struct callpaths_count {
	uint32_t label, node;
	uint64_t nr_samples, period;
};

/* the counts, in the order their keys were first added; valid until the next add */
const struct callpaths_count *callpaths__counts(const struct callpaths *cp, size_t *nr);
/* the interned string @id (callpaths__intern()'s) */
const char *callpaths__str(const struct callpaths *cp, uint32_t id, size_t *len);
/* node @node's name into *@name and *@len: the node after it (CALLPATHS_NONE: the end) */
uint32_t callpaths__next(const struct callpaths *cp, uint32_t node, const char **name,
			 size_t *len);

#endif
