/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function names as users type them. "update_curr" stands for the function and its compiler
 * clones (update_curr.isra.0, .constprop.N, .part.N, .cold, .llvm.N, .lto_priv.N, and chains
 * of them such as .isra.0.cold); a name typed with a clone suffix stands for that clone only.
 * Inlined copies carry the bare DWARF name, so they match a bare name as the function does.
 * For a name that matches nothing, the nearest of the names seen.
 */
#ifndef SCHEDLENS_SYMMATCH_H
#define SCHEDLENS_SYMMATCH_H

#include <stdbool.h>
#include <stddef.h>

/* length of @sym without its clone suffixes (strlen(@sym) when it has none) */
size_t symmatch__base_len(const char *sym);

/* whether @sym is the function @want or one of its clones (see above); NULLs never match */
bool symmatch__is(const char *want, const char *sym);

/* Levenshtein distance of @a and @b (each cut at 255 characters) */
unsigned int symmatch__distance(const char *a, const char *b);

/*
 * The indexes of up to @max of @names[0 .. @nr) nearest @want, nearest first: by edit distance
 * of their base names, a name holding @want (or held in it) counting as distance 1, ties in
 * @names order (so a caller lists the hottest first); names farther than half of @want's
 * length (at least 3) are left out. Equal base names are given once. Returns how many.
 */
size_t symmatch__nearest(const char *want, const char *const *names, size_t nr, size_t *out,
			 size_t max);

#endif
