/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between symbols.c (address spaces, sessions) and symbols-dso.c (libdwfl, caches). */
#ifndef SCHEDLENS_SYMBOLS_INTERNAL_H
#define SCHEDLENS_SYMBOLS_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "schedlens/symbols.h"

struct sym_fn {
	uint64_t start, end;
	const char *name;
};

/* one cached lookup; key is the address looked up (after ip - 1 for return addresses) */
struct sym_cache_ent {
	uint64_t key;
	const char *sym, *file, *inl;	/* sym NULL: no symbol */
	uint64_t sym_start;
	uint32_t line;
	uint8_t state;		/* 0 empty, 1 symbol known, 2 symbol and line known */
};

struct sym_dso {
	char *name;		/* as recorded */
	char *path;		/* symfs + name, or the vmlinux */
	uint8_t build_id[20], build_id_size;
	bool kernel, loaded, used;
	bool dwarf_checked;	/* DWARF looked for (lazily, on the first line lookup) */
	enum sym_dso_status status;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Phdr *loads;	/* PT_LOAD headers: file offset -> ELF address */
	size_t nr_loads;
	struct sym_fn *fns;	/* sorted by start */
	size_t nr_fns;
	struct sym_cache_ent *cache;
	size_t cache_mask, cache_used;
	int64_t kdelta;		/* kernel: runtime address - vmlinux address */
	struct sym_dso *next;
};

struct sym_src;
struct kallsyms;

struct symbols {
	struct symbols_config cfg;
	char *symfs, *kallsyms, *vmlinux;
	char *debugpath;
	Dwfl_Callbacks cb;
	struct sym_proc **procs;
	size_t procs_mask;
	struct sym_dso *dsos;
	struct sym_dso *kernel;
	uint64_t ktext;		/* runtime _text from the kernel MMAP record, 0 unknown */
	struct kallsyms *ks;	/* loaded with the kernel DSO when there is no vmlinux */
	struct sym_src *srcs;
};

struct sym_dso *sym_dso__new(const char *name, const char *path, bool kernel);
void sym_dso__delete(struct sym_dso *d);
void sym_dso__load(struct symbols *s, struct sym_dso *d);
/* file offset in the mapping -> ELF address (identity when the file is not read) */
uint64_t sym_dso__off_to_addr(const struct sym_dso *d, uint64_t off);
/* fill sym/sym_start (and lines when @lines) of @out for ELF address @key */
void sym_dso__lookup(struct symbols *s, struct sym_dso *d, uint64_t key, bool lines,
		     struct sym_loc *out);

#endif
