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

/* 16 bytes: the core kernel's text alone is 100,000 of them (kallsyms__module() names a
 * module's) */
struct ksym {
	uint64_t addr;
	const char *name;
};

/*
 * Load @path (NULL: /proc/kallsyms). NULL with @err set when it cannot be read, holds no text
 * symbol, or every address is 0 (kernel.kptr_restrict hides them from this user).
 */
struct kallsyms *kallsyms__load(const char *path, struct errbuf *err);
/*
 * Load only as much of @path as resolving addresses up to @max_addr needs: /proc/kallsyms
 * lists the core kernel's text in address order before the modules, so reading can stop at
 * the first text symbol past @max_addr. Whenever the file does not look like that (a module
 * line or an address out of order first, @max_addr below the first symbol) the whole file is
 * read. Same errors as kallsyms__load().
 */
struct kallsyms *kallsyms__load_upto(const char *path, uint64_t max_addr, struct errbuf *err);
/* Read on until @addr resolves as with the whole file; 0 or -errno with @err set. */
int kallsyms__extend(struct kallsyms *k, uint64_t addr, struct errbuf *err);
/* Whether @addr resolves as with the whole file (always true after kallsyms__load()). */
bool kallsyms__covers(const struct kallsyms *k, uint64_t addr);
void kallsyms__delete(struct kallsyms *k);

/*
 * What names the symbols @path holds, for caches of lookups: a file by its path, device,
 * inode, size and mtime; the running kernel's /proc/kallsyms, whose inode outlives neither a
 * boot nor, for module addresses, the loading of a module, also by the boot id and a hash of
 * /proc/modules. 0, or -errno when @path cannot be checked.
 */
int kallsyms__identity(const char *path, char *buf, size_t len);

size_t kallsyms__nr(const struct kallsyms *k);
/*
 * The symbol holding @addr, or NULL (below the first symbol, far past the last, or not
 * covered by a partial load).
 */
const struct ksym *kallsyms__find(const struct kallsyms *k, uint64_t addr);
/* The module @s (of @k) is in, "" for the kernel itself. */
const char *kallsyms__module(const struct kallsyms *k, const struct ksym *s);
/* The first symbol called @name (linear search, in what was loaded), or NULL. */
const struct ksym *kallsyms__by_name(const struct kallsyms *k, const char *name);
/*
 * "name+0xoff" (perf's %pS style; "name" when @with_offset is false) or "0x..." when @addr
 * has no symbol; "0x0" for 0. Returns @buf.
 */
char *kallsyms__snprint(const struct kallsyms *k, uint64_t addr, bool with_offset, char *buf,
			size_t len);

#endif
