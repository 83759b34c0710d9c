/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between symbols.c (address spaces, sessions), symbols-dso.c (libdwfl, per-address
 * lookups) and symbols-cache.c (interned strings, the persistent per-build-id cache).
 */
#ifndef SCHEDLENS_SYMBOLS_INT_H
#define SCHEDLENS_SYMBOLS_INT_H

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "schedlens/symbols.h"
#include "schedlens/symstacks.h"

/*
 * Dwfl_Callbacks.find_debuginfo: dwfl_standard_find_debuginfo() where a separate debug file
 * can be found here (by build-id under the debuginfo path, or a debuglink file where the
 * standard search looks, on no --symfs), else -1 at once. The standard search asks
 * debuginfod last, and elfutils 0.188 dlopens libdebuginfod for that even with
 * DEBUGINFOD_URLS unset: 30 shared objects (libcurl, gnutls, krb5...) loaded and relocated
 * in a report of any file with a DSO that has no debug file. With DEBUGINFOD_URLS set, the
 * standard search alone.
 */
int sym_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		       char **debuginfo_file_name);

struct sym_fn {
	uint64_t start, end;
	const char *name;
	uint32_t idx;		/* order of reading: of equals the first is kept */
	uint8_t bind;		/* STB_* */
};

/* one cached lookup; key is the address looked up (after ip - 1 for return addresses) */
struct sym_cache_ent {
	uint64_t key;
	const char *sym, *file, *inl;	/* sym NULL: no symbol */
	const char *chain;	/* symbols__inlines()' names, each ended by SYM_CHAIN_SEP */
	uint64_t sym_start;
	uint32_t line;
	uint8_t state;		/* SYM_ENT_* known; 0: empty slot */
};

#define SYM_ENT_SYM	(1u << 0)
#define SYM_ENT_LINE	(1u << 1)
#define SYM_ENT_INL	(1u << 2)
#define SYM_ENT_CHAIN	(1u << 3)	/* chain known (a user DSO's: the kernel's cache is
					   by its kallsyms, not its vmlinux) */
#define SYM_CHAIN_SEP	'\x1e'

#define SYM_ENT_USED	(1u << 7)	/* looked up in this session (not persisted) */

struct sym_cfile;

struct sym_dso {
	char *name;		/* as recorded */
	char *path;		/* symfs + name, or the vmlinux; the file read once opened */
	uint8_t build_id[20], build_id_size;
	bool kernel, used;
	bool opened;		/* ELF reported and checked (cheap): status known unless OK */
	bool loaded;		/* symbol table (or kallsyms) read: lookups can be answered */
	bool dwarf_checked;	/* DWARF looked for (lazily, on the first line lookup) */
	bool cache_tried;	/* persistent cache looked for */
	bool dirty;		/* lookups the persistent cache does not have yet */
	char *cache_id;		/* its file name in the cache, NULL: not cacheable */
	char *cache_ident;	/* what the cache file must say it was made from */
	enum sym_dso_status status;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Phdr *loads;	/* PT_LOAD headers: file offset -> ELF address */
	size_t nr_loads;
	struct sym_fn *fns;	/* sorted by start */
	size_t nr_fns;
	struct sym_fn *all;	/* every function symbol, aliases too, by start (symbols-fns.c) */
	size_t nr_all;
	bool all_read;
	struct sym_cache_ent *cache;
	size_t cache_mask, cache_used;
	struct sym_cfile *cfile;	/* its cache file, entries not yet in cache (NULL: none) */
	int64_t kdelta;		/* kernel: runtime address - vmlinux address */
	int own_fd;		/* [vdso]: this process's, copied into a memfd (path names it);
				   -1: none */
	bool mismatch;		/* a file of this name, not the recorded build, was seen */
	bool parked;		/* opened, its ELF let go while its cache file answers (park()) */
	bool perfmap;		/* JIT code: "[JIT] tid PID", path the JIT's /tmp/perf-PID.map
				   (symbols by absolute address) */
	struct sym_dso *next;
	struct sym_dso *hnext;	/* symbols.dso_tab chain */
};

struct sym_src;
struct kallsyms;

#define SYM_DSO_TAB 256

struct symbols {
	struct symbols_config cfg;
	char *symfs, *kallsyms, *vmlinux, *vdso;
	char *debugpath;
	Dwfl_Callbacks cb;
	struct threads *machine;	/* the caller's: its maps hold our DSOs (tmap.priv) */
	struct sym_dso *dsos;
	struct sym_dso *dso_tab[SYM_DSO_TAB];	/* dsos by name: every MMAP looks its file up */
	struct sym_dso *kernel;
	uint64_t ktext;		/* runtime _text from the kernel MMAP record, 0 unknown */
	char ktext_sym[16];	/* the symbol it is of: "_text", or "_stext" where kallsyms has
				 * no _text (arm64 before 6.x), as the map's name says */
	struct kallsyms *ks;	/* read as far as lookups need when there is no vmlinux */
	struct errbuf ks_err;	/* why kallsyms could not be read, "" when it could */
	struct sym_src *srcs;
	struct sym_stacks *strs;	/* every string a cache entry points to (the keys) */
	struct {		/* the last user address located: [lo, hi) of pid, key = ip + delta,
				 * while the machine's generation is gen */
		uint64_t gen;
		uint32_t pid;
		uint64_t lo, hi;
		int64_t delta;
		struct sym_dso *dso;
	} memo;
	char *cache_dir;	/* persistent cache, NULL: none */
	struct unwinder *uw;	/* --call-graph dwarf user stacks, made on the first one */
	struct sym_inl {	/* symbols__inlines() by place: DWARF scopes cost per address */
		const struct sym_dso *dso;
		uint64_t addr;
		const char **names;
		size_t nr;
	} *inl;
	size_t inl_mask, inl_used;
	struct sym_rmemo {	/* symbols__resolve() by what it reads: direct mapped */
		uint64_t ip, space;	/* space: threads__map_space(), + 1 (0: empty) */
		uint32_t flags;
		uint16_t mode;
		struct sym_loc loc;
	} *rmemo;
	size_t rmemo_mask;	/* entries - 1: SYM_RMEMO_FIRST, x8 up to SYM_RMEMO_SIZE */
	size_t rmemo_misses;	/* since the memo was made */
	/* resolve_memo()'s lookups and hits in its window, and the lookups left that go past the
	 * memo (set where it hit too few) */
	uint32_t rmemo_looks, rmemo_hits, rmemo_skip;
	/* sym_loc.ident's numbers: what each is (from 1), and an open-addressed index */
	struct sym_ident {
		uint64_t what, start;	/* sym and sym_start, or ip and addr */
		const struct sym_dso *dso;
		uint32_t bits;		/* 1: a symbol, 2: kernel */
	} *idents;
	uint32_t *ident_tab;
	size_t nr_idents, idents_cap, ident_mask;
};

/*
 * Entries of symbols.rmemo: a small memo first, made 8 times larger each time it has missed
 * as many times as it has entries (callchains' addresses recur; a flat report's places come
 * once each)
 */
#define SYM_RMEMO_FIRST (1u << 12)
#define SYM_RMEMO_SIZE (1u << 15)
#define SYM_RMEMO_WINDOW 4096	/* resolve_memo()'s lookups a window */
#define SYM_RMEMO_FEW 8		/* it goes past the memo when under 1 in this many hit */
/* numbers given at most (8 MB of them): frames past it are 0, compared field by field */
#define SYM_IDENT_MAX (1u << 18)

struct sym_dso *sym_dso__new(const char *name, const char *path, bool kernel);
void sym_dso__delete(struct sym_dso *d);
/* report the ELF and check it (cheap; the persistent cache is read here) */
void sym_dso__open(struct symbols *s, struct sym_dso *d);
/* read the symbol table (or kallsyms): needed for lookups the cache cannot answer */
void sym_dso__load(struct symbols *s, struct sym_dso *d);
/*
 * The function symbols of @d at @a, aliases too, in table order: *@nr of them (0: none).
 * With @covering, those of the nearest start below @a whose size reaches it.
 */
const struct sym_fn *sym_dso__aliases(struct sym_dso *d, uint64_t a, bool covering, size_t *nr);
/* symbols__inlines() for ELF address @key of @d */
size_t sym_dso__inlines(struct symbols *s, struct sym_dso *d, uint64_t key, const char **names,
			size_t max);
/* the table of d->fns, as perf 6.1 builds it (symbols-fns.c). 0 or -ENOMEM. */
int sym_dso__load_fns(struct symbols *s, struct sym_dso *d);
/* file offset in the mapping -> ELF address (identity when the file is not read) */
uint64_t sym_dso__off_to_addr(const struct sym_dso *d, uint64_t off);
/* and back: the file offset of an ELF address (itself where no load segment holds it) */
uint64_t sym_dso__addr_to_off(const struct sym_dso *d, uint64_t addr);
/* fill sym/sym_start (and lines when @lines) of @out for ELF address @key */
void sym_dso__lookup(struct symbols *s, struct sym_dso *d, uint64_t key, bool lines,
		     struct sym_loc *out);

/* the interned copy of @str, a key of @strs (NULL stays NULL); NULL on ENOMEM */
const char *sym_intern(struct sym_stacks *strs, const char *str);
/*
 * A user DSO's symbol name as perf 6.1 shows it, interned: a C++ name demangled as
 * cplus_demangle(DMGL_NO_OPTS) does, without parameters
 * ("simplify_context::simplify_binary_operation_1"), a symbol version ("@@GLIBCXX_3.4") kept
 * after it as bfd_demangle() keeps it; any other name as it is (and all, with no_demangle).
 */
const char *sym_demangle(struct symbols *s, const char *name);
/* qsort order of struct sym_fn: by start, then as read */
int sym_fn__by_start(const void *a, const void *b);

/*
 * The persistent cache of one DSO: <cache_dir>/srcline/<cache_id>, entries (address, symbol,
 * source line, inline) and the DSO's status. Read: the file checked whole and kept as
 * d->cfile, true when it was valid for @d (its path, its debug file still there); anything
 * else is ignored. Its entries go into d->cache as they are looked up (sym_dso__slot()).
 */
bool sym_cache__read(struct symbols *s, struct sym_dso *d, const char *identity);
/* the file's entry for @key into the empty slot @e, counted in d->cache_used; false: none */
bool sym_cache__import(struct sym_dso *d, uint64_t key, struct sym_cache_ent *e);
/* d->cfile let go (its entries not looked up with it) */
void sym_cache__close(struct sym_dso *d);
/* write @d's entries, its file's too, atomically (temporary file, rename). 0 or -errno */
int sym_cache__write(struct symbols *s, struct sym_dso *d, const char *identity);
/* a lookup table's hash of an address (MurmurHash3's finalizer, halved) */
static inline uint64_t sym_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	return x ^ x >> 33;
}
/* FNV-1a of @n bytes at @p, continuing from @h (SYM_HASH_SEED to start) */
#define SYM_HASH_SEED 1469598103934665603ull
uint64_t sym_hash(const void *p, size_t n, uint64_t h);
struct stat;
/* "PATH DEV INO SIZE MTIME" of a file: what a cache entry made from it is checked against */
void sym_file_ident(const char *path, const struct stat *st, char *buf, size_t len);
/* @key's slot in @d's lookup table (from its cache file if it has it there), else the empty
 * slot for it; NULL: ENOMEM */
struct sym_cache_ent *sym_dso__slot(struct sym_dso *d, uint64_t key);
/* room in @d's lookup table for @nr entries without growing: 0 or -ENOMEM */
int sym_dso__reserve(struct sym_dso *d, size_t nr);

/* where distributions put the debug file of build-id @id (@n bytes, at least 2) under
 * @symfs: SYMFS/usr/lib/debug/.build-id/xx/yyyy.debug, into @buf */
void sym_build_id_debug_path(char *buf, size_t len, const char *symfs, const uint8_t *id,
			     size_t n);
/* the GNU build-id note of the ELF file @path: up to @max bytes into @id, its size (0: none)
 * or -errno (-ENOEXEC: not an ELF) */
int sym_elf_build_id(const char *path, uint8_t *id, size_t max);
/*
 * The vmlinux of the recorded kernel (@kid: the recording's build-id for [kernel.kallsyms],
 * @kid_size 0 when it has none; @release its uname -r or NULL) into @buf, "" when none: @given
 * when set (-EINVAL with the reason in @err when its build-id is another's); else the first
 * of perf's places under @symfs (SYMFS/usr/lib/debug/.build-id/xx/yyyy.debug,
 * /boot/vmlinux-RELEASE, /usr/lib/debug/boot/vmlinux-RELEASE, ...) whose build-id is @kid's:
 * none is looked for without @kid. 0 or -EINVAL.
 */
int sym_vmlinux__pick(const char *given, const char *symfs, const char *release,
		      const uint8_t *kid, size_t kid_size, char *buf, size_t len,
		      struct errbuf *err);
void sym_src__delete_all(struct sym_src *src);

#endif
