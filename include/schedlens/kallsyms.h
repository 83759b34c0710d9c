/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel addresses to symbols, from /proc/kallsyms or a copy of it: the text symbols (t, T,
 * w, W) sorted by address, looked up by binary search. A symbol ends where the next begins.
 */
#ifndef SCHEDLENS_KALLSYMS_H
#define SCHEDLENS_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlens/util.h"

struct kallsyms;

struct ksym {
	uint64_t addr;
	const char *name;
	const char *module;	/* "" for the kernel itself */
};

/*
 * Load @path (NULL: /proc/kallsyms). NULL with @err set when it cannot be read, holds no text
 * symbol, or every address is 0 (kernel.kptr_restrict hides them from this user).
 */
struct kallsyms *kallsyms__load(const char *path, struct errbuf *err);
void kallsyms__delete(struct kallsyms *k);

size_t kallsyms__nr(const struct kallsyms *k);
/* The symbol holding @addr, or NULL (below the first symbol, or far past the last). */
const struct ksym *kallsyms__find(const struct kallsyms *k, uint64_t addr);
/* The first symbol called @name (linear search), or NULL. */
const struct ksym *kallsyms__by_name(const struct kallsyms *k, const char *name);
/*
 * "name+0xoff" (perf's %pS style; "name" when @with_offset is false) or "0x..." when @addr
 * has no symbol; "0x0" for 0. Returns @buf.
 */
char *kallsyms__snprint(const struct kallsyms *k, uint64_t addr, bool with_offset, char *buf,
			size_t len);

#endif
