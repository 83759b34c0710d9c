// SPDX-License-Identifier: GPL-2.0
/* The symbolization session over a machine's address spaces (threads.h), and its DSOs. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "schedlens/kallsyms.h"
#include "schedlens/perfdata.h"
#include "schedlens/threads.h"
#include "schedlens/unwind.h"
#include "symbols-int.h"

#define KERNEL_DSO "[kernel.kallsyms]"

static int on_mmap(void *ctx, const struct stream_mmap *m, struct tmap *map);

static char *dup_or_null(const char *s, bool *fail)
{
	char *r;

	if (!s)
		return NULL;
	r = strdup(s);
	if (!r)
		*fail = true;
	return r;
}

struct symbols *symbols__new(const struct symbols_config *cfg, struct errbuf *err)
{
	struct symbols *s = calloc(1, sizeof(*s));
	bool fail = false;

	if (!s)
		goto out_nomem;
	s->cfg = *cfg;
	s->symfs = dup_or_null(cfg->symfs ? cfg->symfs : "", &fail);
	s->kallsyms = dup_or_null(cfg->kallsyms, &fail);
	s->vmlinux = dup_or_null(cfg->vmlinux, &fail);
	s->vdso = dup_or_null(cfg->vdso, &fail);
	s->strs = sym_stacks__new();
	/* the cache holds names as shown: demangled */
	s->cache_dir = dup_or_null(cfg->no_demangle ? NULL : cfg->cache_dir, &fail);
	if (fail || !s->strs ||
	    asprintf(&s->debugpath, ":.debug:%s/usr/lib/debug", s->symfs) < 0)
		goto out_free;
	s->cfg.symfs = s->symfs;
	s->cfg.kallsyms = s->kallsyms;
	s->cfg.vmlinux = s->vmlinux;
	s->cfg.vdso = s->vdso;
	s->cfg.cache_dir = s->cache_dir;
	s->cb.find_elf = dwfl_build_id_find_elf;
	/* (with --symfs the debuglink places are under it: the standard search) */
	s->cb.find_debuginfo = *s->symfs ? dwfl_standard_find_debuginfo : sym_find_debuginfo;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->debugpath;
	s->kernel = sym_dso__new(KERNEL_DSO, s->vmlinux ? s->vmlinux : KERNEL_DSO, true);
	if (!s->kernel)
		goto out_free;
	s->machine = cfg->machine;
	if (s->machine)
		threads__observe(s->machine, on_mmap, s);
	return s;
out_free:
	symbols__delete(s);
out_nomem:
	err__set(err, -ENOMEM, "cannot set up symbols: %s", strerror(ENOMEM));
	return NULL;
}

void symbols__delete(struct symbols *s)
{
	struct sym_dso *d, *dn;
	size_t i;

	if (!s)
		return;
	if (s->machine)
		threads__observe(s->machine, NULL, NULL);
	for (d = s->dsos; d; d = dn) {
		dn = d->next;
		sym_dso__delete(d);
	}
	sym_dso__delete(s->kernel);
	sym_src__delete_all(s->srcs);
	kallsyms__delete(s->ks);
	unwinder__delete(s->uw);
	for (i = 0; s->inl && i <= s->inl_mask; i++)
		free(s->inl[i].names);
	free(s->inl);
	free(s->rmemo);
	free(s->idents);
	free(s->ident_tab);
	sym_stacks__delete(s->strs);
	free(s->cache_dir);
	free(s->debugpath);
	free(s->symfs);
	free(s->kallsyms);
	free(s->vmlinux);
	free(s->vdso);
	free(s);
}

static size_t dso_slot(const char *name)
{
	uint32_t h = 2166136261u;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h % SYM_DSO_TAB;
}

static struct sym_dso *dso_find(struct symbols *s, const struct stream_mmap *m)
{
	size_t slot = dso_slot(m->filename);
	char path[4096];
	struct sym_dso *d;

	for (d = s->dso_tab[slot]; d; d = d->hnext) {
		if (strcmp(d->name, m->filename))
			continue;
		if (!m->has_build_id || !d->build_id_size ||
		    (d->build_id_size == m->build_id_size &&
		     !memcmp(d->build_id, m->build_id, m->build_id_size)))
			break;
	}
	if (d) {
		if (m->has_build_id && !d->build_id_size) {
			d->build_id_size = m->build_id_size;
			memcpy(d->build_id, m->build_id, m->build_id_size);
		}
		return d;
	}
	snprintf(path, sizeof(path), "%s%s", s->symfs, m->filename);
	d = sym_dso__new(m->filename, path, false);
	if (!d)
		return NULL;
	if (m->has_build_id) {
		d->build_id_size = m->build_id_size > 20 ? 20 : m->build_id_size;
		memcpy(d->build_id, m->build_id, d->build_id_size);
	}
	d->next = s->dsos;
	s->dsos = d;
	d->hnext = s->dso_tab[slot];
	s->dso_tab[slot] = d;
	return d;
}

/* JIT code (threads.c names it "[JIT] tid PID", from /tmp/perf-PID.map), one DSO a process */
static struct sym_dso *perfmap_find(struct symbols *s, const struct tmap *map)
{
	size_t slot = dso_slot(map->dso);
	struct sym_dso *d;

	for (d = s->dso_tab[slot]; d; d = d->hnext)
		if (d->perfmap && !strcmp(d->name, map->dso))
			return d;
	d = sym_dso__new(map->dso, map->path, false);
	if (!d)
		return NULL;
	d->perfmap = true;
	d->next = s->dsos;
	s->dsos = d;
	d->hnext = s->dso_tab[slot];
	s->dso_tab[slot] = d;
	return d;
}

int symbols__build_id(struct symbols *s, const char *filename, const uint8_t *id, size_t size)
{
	struct stream_mmap m = { .filename = filename, .has_build_id = true };

	if (filename && !strcmp(filename, KERNEL_DSO) && size) {
		s->kernel->build_id_size = size > 20 ? 20 : size;
		memcpy(s->kernel->build_id, id, s->kernel->build_id_size);
		return 0;
	}
	if (!filename || filename[0] != '/' || !size)
		return 0;
	m.build_id_size = size > 20 ? 20 : size;
	memcpy(m.build_id, id, m.build_id_size);
	return dso_find(s, &m) ? 0 : -ENOMEM;
}

/* the machine's MMAP records: the kernel's start, and each user map's DSO */
static int on_mmap(void *ctx, const struct stream_mmap *m, struct tmap *map)
{
	struct symbols *s = ctx;

	if (!map) {
		if (!strncmp(m->filename, KERNEL_DSO, strlen(KERNEL_DSO)) && !s->ktext) {
			s->ktext = m->pgoff;
			snprintf(s->ktext_sym, sizeof(s->ktext_sym), "%s",
				 m->filename[strlen(KERNEL_DSO)] ? m->filename + strlen(KERNEL_DSO) :
								   "_text");
		}
		return 0;
	}
	map->priv = NULL;
	if (!m->len || !m->filename)
		return 0;
	if (map->identity && !strncmp(map->path, "/tmp/perf-", 10))
		map->priv = perfmap_find(s, map);
	else
		map->priv = dso_find(s, m);
	return map->priv ? 0 : -ENOMEM;
}

/* the map of @pid at @ip that has a DSO, or NULL */
static const struct tmap *map_find(struct symbols *s, uint32_t pid, uint64_t ip)
{
	const struct tmap *m = s->machine ? threads__map(s->machine, pid, ip) : NULL;

	return m && m->priv ? m : NULL;
}

/* remember the part of @m around @q that one PT_LOAD maps (all of it when none is known) */
static void memo_map(struct symbols *s, uint32_t pid, const struct tmap *m, uint64_t q)
{
	uint64_t off = q - m->start + m->pgoff, base = m->start - m->pgoff;
	struct sym_dso *d = m->priv;
	size_t i;

	s->memo.gen = symbols__generation(s);
	s->memo.pid = pid;
	s->memo.dso = d;
	s->memo.lo = m->start;
	s->memo.hi = m->end;
	s->memo.delta = d->perfmap ? 0 : (int64_t)(m->pgoff - m->start);
	for (i = 0; i < d->nr_loads; i++) {
		const GElf_Phdr *ph = &d->loads[i];

		if (off < ph->p_offset || off >= ph->p_offset + ph->p_memsz)
			continue;
		if (base + ph->p_offset > s->memo.lo)
			s->memo.lo = base + ph->p_offset;
		if (base + ph->p_offset + ph->p_memsz < s->memo.hi)
			s->memo.hi = base + ph->p_offset + ph->p_memsz;
		s->memo.delta += (int64_t)(ph->p_vaddr - ph->p_offset);
		return;
	}
	if (d->nr_loads)
		s->memo.hi = 0;	/* off_to_addr() gives the offset itself: not worth a memo */
}

void symbols__locate(struct symbols *s, uint32_t pid, uint64_t ip, uint16_t cpumode,
		     unsigned int flags, struct sym_addr *out)
{
	uint64_t back = (flags & SYM_RETADDR) && ip ? 1 : 0;
	const struct tmap *m;
	struct sym_dso *d;

	memset(out, 0, sizeof(*out));
	out->ip = ip;
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		out->dso = s->kernel;
		out->kernel = true;
		out->key = ip - back;
	} else if (pid == s->memo.pid && ip - back >= s->memo.lo && ip - back < s->memo.hi &&
		   s->memo.gen == symbols__generation(s)) {
		out->dso = s->memo.dso;
		out->key = ip - back + s->memo.delta;
	} else {
		m = map_find(s, pid, ip - back);
		if (!m) {
			out->key = ip;
			return;
		}
		out->dso = d = m->priv;
		sym_dso__open(s, d);
		out->key = d->perfmap ? ip - back :
			   sym_dso__off_to_addr(d, ip - back - m->start + m->pgoff);
		memo_map(s, pid, m, ip - back);
	}
	out->back = back;
}

void symbols__lookup(struct symbols *s, const struct sym_addr *a, unsigned int flags,
		     struct sym_loc *out)
{
	memset(out, 0, sizeof(*out));
	out->ip = a->ip;
	out->kernel = a->kernel;
	if (!a->dso) {
		out->dso_name = "[unknown]";
		out->addr = a->key;
		return;
	}
	a->dso->used = true;
	out->dso = a->dso;
	out->dso_name = a->dso->name;
	out->addr = a->key + a->back;
	sym_dso__lookup(s, a->dso, a->key, flags & SYM_LINES, out);
}

/*
 * Resolving is a function of the address, the flags, the mode and the address space it is
 * read in (its version): a callchain's addresses recur sample after sample, so the answers
 * are kept in a direct-mapped memo by those. A kernel address reads the kernel's maps.
 */
/*
 * The versions of the address spaces @pid's addresses are read in (threads__map_space()):
 * @v[0] the user modes', @v[1] the kernel's; false where there is no machine, or @pid has no
 * maps yet (then each address asks, as resolving may make them)
 */
static bool spaces_of(struct symbols *s, uint32_t pid, uint64_t v[2])
{
	if (!s->machine)
		return false;
	v[0] = threads__map_space(s->machine, pid, PERF_RECORD_MISC_USER);
	v[1] = threads__map_space(s->machine, pid, PERF_RECORD_MISC_KERNEL);
	return v[0] != 0;
}

static bool kernel_space(uint16_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

static uint64_t ident_hash(const struct sym_ident *k)
{
	uint64_t h = (k->what * 0x9e3779b97f4a7c15ull ^ k->start) * 0xc4ceb9fe1a85ec53ull ^
		     (uintptr_t)k->dso ^ k->bits;

	return h ^ h >> 31;
}

static bool ident_grow(struct symbols *s)
{
	size_t nmask = s->ident_mask ? 2 * s->ident_mask + 1 : 4095, i, j;
	uint32_t *t = calloc(nmask + 1, sizeof(*t));

	if (!t)
		return false;
	for (i = 0; i < s->nr_idents; i++) {
		for (j = ident_hash(&s->idents[i]) & nmask; t[j]; j = (j + 1) & nmask)
			;
		t[j] = (uint32_t)i + 1;
	}
	free(s->ident_tab);
	s->ident_tab = t;
	s->ident_mask = nmask;
	return true;
}

/*
 * The number of what @l resolved to (struct sym_loc's ident): the one it had before, or the
 * next; 0 where the numbers are spent or memory is short
 */
static uint32_t ident_of(struct symbols *s, const struct sym_loc *l)
{
	struct sym_ident k = { l->sym ? (uintptr_t)l->sym : l->ip, l->sym ? l->sym_start : l->addr,
			       l->dso, (l->sym != NULL) | (uint32_t)l->kernel << 1 };
	size_t j;

	if ((s->nr_idents + 1) * 2 > s->ident_mask && !ident_grow(s))
		return 0;
	for (j = ident_hash(&k) & s->ident_mask; s->ident_tab[j]; j = (j + 1) & s->ident_mask) {
		const struct sym_ident *e = &s->idents[s->ident_tab[j] - 1];

		if (e->what == k.what && e->start == k.start && e->dso == k.dso && e->bits == k.bits)
			return s->ident_tab[j];
	}
	if (s->nr_idents >= SYM_IDENT_MAX)
		return 0;
	if (s->nr_idents == s->idents_cap) {
		size_t ncap = s->idents_cap ? 2 * s->idents_cap : 1024;
		struct sym_ident *v = realloc(s->idents, ncap * sizeof(*v));

		if (!v)
			return 0;
		s->idents = v;
		s->idents_cap = ncap;
	}
	s->idents[s->nr_idents++] = k;
	return s->ident_tab[j] = (uint32_t)s->nr_idents;
}

/* resolve_in() of what its memo does not have, into the memo's entry @e (NULL: none) */
static __attribute__((noinline)) void resolve_now(struct symbols *s, uint32_t pid, uint64_t ip,
						  uint16_t cpumode, unsigned int flags,
						  struct sym_rmemo *e, uint64_t space,
						  struct sym_loc *out)
{
	struct sym_addr a;

	symbols__locate(s, pid, ip, cpumode, flags, &a);
	symbols__lookup(s, &a, flags, out);
	if (!e)
		return;
	out->ident = ident_of(s, out);
	*e = (struct sym_rmemo){ ip, space, flags, cpumode, *out };
	if (++s->rmemo_misses > s->rmemo_mask && s->rmemo_mask + 1 < SYM_RMEMO_SIZE) {
		struct sym_rmemo *n = calloc(8 * (s->rmemo_mask + 1), sizeof(*n));

		if (n) {	/* else the small one goes on */
			free(s->rmemo);
			s->rmemo = n;
			s->rmemo_mask = 8 * (s->rmemo_mask + 1) - 1;
			s->rmemo_misses = 0;
		}
	}
}

/* the memo's space of a mode (threads__map_space() + 1) and that space's part of the hash */
struct memo_space {
	uint64_t space, mix;
	uint16_t mode;
};

static inline void memo_space__set(struct memo_space *m, uint64_t map_space, uint16_t mode)
{
	m->space = map_space + 1;
	m->mix = m->space * 0xc4ceb9fe1a85ec53ull;
	m->mode = mode;
}

/* @ip's slot in the memo (s->rmemo) in the space of @m */
static inline struct sym_rmemo *rmemo_slot(struct symbols *s, const struct memo_space *m,
					   uint64_t ip, unsigned int flags)
{
	return &s->rmemo[((ip * 0x9e3779b97f4a7c15ull ^ m->mix) >> 40 ^ flags ^ m->mode) &
			 s->rmemo_mask];
}

/* whether @e holds @ip's answer in the space of @m */
static inline bool rmemo_holds(const struct sym_rmemo *e, const struct memo_space *m,
			       uint64_t ip, unsigned int flags)
{
	return e->space == m->space && e->ip == ip && e->flags == flags && e->mode == m->mode;
}

/*
 * resolve_in() through the memo (s->rmemo, there) in the space of @m. Where the addresses
 * asked for one by one mostly miss it (a flat report: its places are kept by address already,
 * so what comes here is mostly new), a lookup costs a cache miss in megabytes of memo for
 * nothing: a window of SYM_RMEMO_WINDOW lookups with fewer than 1 in SYM_RMEMO_FEW hits makes
 * the next SYM_RMEMO_FEW - 1 windows go past it (the frame still numbered as through it), and
 * the window after them looks again. On the bench corpus's syswide.data `report --sort sym`
 * resolved 50,596 addresses here, 44,525 of them missing the memo.
 */
static inline void resolve_memo(struct symbols *s, const struct memo_space *m, uint32_t pid,
				uint64_t ip, unsigned int flags, struct sym_loc *out)
{
	struct sym_rmemo *e;

	if (s->rmemo_skip) {
		s->rmemo_skip--;
		resolve_now(s, pid, ip, m->mode, flags, NULL, 0, out);
		out->ident = ident_of(s, out);
		return;
	}
	if (++s->rmemo_looks == SYM_RMEMO_WINDOW) {
		if (s->rmemo_hits < SYM_RMEMO_WINDOW / SYM_RMEMO_FEW)
			s->rmemo_skip = (SYM_RMEMO_FEW - 1) * SYM_RMEMO_WINDOW;
		s->rmemo_looks = s->rmemo_hits = 0;
	}
	e = rmemo_slot(s, m, ip, flags);
	if (rmemo_holds(e, m, ip, flags)) {
		s->rmemo_hits++;
		*out = e->loc;
		return;
	}
	resolve_now(s, pid, ip, m->mode, flags, e, m->space, out);
}

/* whether the memo can be had: a machine to say what the addresses are read in */
static inline bool rmemo_ready(struct symbols *s)
{
	if (!s->machine)
		return false;
	if (!s->rmemo) {
		s->rmemo = calloc(SYM_RMEMO_FIRST, sizeof(*s->rmemo));
		s->rmemo_mask = SYM_RMEMO_FIRST - 1;
	}
	return s->rmemo;
}

/*
 * symbols__resolve() with the version of the address space @ip is read in (@space_of[0] the
 * user modes', @space_of[1] the kernel's: symbols__spaces()), where @space_of is not NULL
 */
static inline void resolve_in(struct symbols *s, const uint64_t *space_of, uint32_t pid,
			      uint64_t ip, uint16_t cpumode, unsigned int flags,
			      struct sym_loc *out)
{
	struct memo_space m;

	if (!rmemo_ready(s)) {
		resolve_now(s, pid, ip, cpumode, flags, NULL, 0, out);
		return;
	}
	memo_space__set(&m, space_of ? space_of[kernel_space(cpumode)] :
				       threads__map_space(s->machine, pid, cpumode), cpumode);
	resolve_memo(s, &m, pid, ip, flags, out);
}

void symbols__resolve(struct symbols *s, uint32_t pid, uint64_t ip, uint16_t cpumode,
		      unsigned int flags, struct sym_loc *out)
{
	resolve_in(s, NULL, pid, ip, cpumode, flags, out);
}

uint64_t symbols__generation(const struct symbols *s)
{
	return s->machine ? threads__generation(s->machine) : 0;
}

uint64_t symbols__space(struct symbols *s, uint32_t pid, uint16_t cpumode)
{
	return s->machine ? threads__map_space(s->machine, pid, cpumode) : 0;
}

const char *symbols__kernel_error(const struct symbols *s)
{
	return s->ks_err.msg;
}

int symbols__cache_save(struct symbols *s)
{
	struct sym_dso *d = s->kernel;
	int ret = 0, r;

	if (!s->cache_dir)
		return 0;
	for (; d; d = d == s->kernel ? s->dsos : d->next) {
		if (!d->dirty || !d->cache_id || !d->loaded)
			continue;
		r = sym_cache__write(s, d, d->cache_ident);
		ret = ret ?: r;
	}
	return ret;
}

const char *symbols__cache_dir(char *buf, size_t len)
{
	const char *off = getenv("SCHEDLENS_NO_CACHE"), *dir = getenv("SCHEDLENS_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (off && *off && strcmp(off, "0"))
		return NULL;
	if (dir)
		n = snprintf(buf, len, "%s", dir);
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/schedlens", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/schedlens", home);
	else
		return NULL;
	return n > 0 && (size_t)n < len ? buf : NULL;
}

enum sym_dso_status sym_dso__status(struct sym_dso *d)
{
	return d->status;
}

const char *sym_dso__name(const struct sym_dso *d)
{
	return d->name;
}

const char *sym_dso__status_str(enum sym_dso_status st)
{
	switch (st) {
	case SYM_DSO_OK:
		return "ok";
	case SYM_DSO_NO_DEBUGINFO:
		return "no debug info: symbols only, no source lines";
	case SYM_DSO_STRIPPED:
		return "stripped: no symbol table and no debug file, addresses only";
	case SYM_DSO_MISSING:
		return "file not found: addresses only";
	case SYM_DSO_BUILD_ID_MISMATCH:
		return "build-id differs from the recorded one: addresses only";
	case SYM_DSO_NOT_ELF:
		return "not an ELF file: addresses only";
	case SYM_DSO_KERNEL_NO_MAP:
		return "no kallsyms or vmlinux for this kernel: addresses only (--kallsyms, --vmlinux)";
	case SYM_DSO_ELSEWHERE:
		return "recorded on another machine: not looked up here (--symfs DIR)";
	case SYM_DSO_KALLSYMS:
		return "symbols from kallsyms: source lines need --vmlinux";
	case SYM_DSO_NO_JIT_MAP:
		return "JIT code without its /tmp/perf-PID.map here: addresses only";
	}
	return "?";
}

int symbols__for_each_dso(struct symbols *s, int (*fn)(void *ctx, struct sym_dso *d), void *ctx)
{
	struct sym_dso *d;
	int ret;

	if (s->kernel->used) {
		ret = fn(ctx, s->kernel);
		if (ret)
			return ret;
	}
	for (d = s->dsos; d; d = d->next) {
		if (!d->used)
			continue;
		ret = fn(ctx, d);
		if (ret)
			return ret;
	}
	return 0;
}

/* the unwinder's view of an address space: the mapping and the file behind it */
static int unwind_map(void *ctx, uint32_t pid, uint64_t addr, struct unwind_map *out)
{
	struct symbols *s = ctx;
	const struct tmap *m = map_find(s, pid, addr);
	struct sym_dso *d = m ? m->priv : NULL;

	if (d && !d->kernel && !d->opened && !strcmp(d->name, "[vdso]"))
		sym_dso__open(s, d);	/* the file of its image is known once it is opened */
	if (!d || !d->path || d->kernel)
		return -ENOENT;
	*out = (struct unwind_map){ m->start, m->end, m->pgoff, d->path };
	return 0;
}

size_t symbols__unwind(struct symbols *s, const struct stream_sample *smp, uint64_t *ips,
		       size_t max)
{
	int nr;

	if (!smp->user_stack_size || !smp->user_regs_abi || !max)
		return 0;
	if (!s->uw && !(s->uw = unwinder__new(unwind_map, s)))
		return 0;
	/* a Dwfl kept while the maps it may have reported stay (libdw reads a module's CFI,
	 * and decompresses its debug file, once a Dwfl) */
	nr = unwinder__unwind(s->uw, smp, s->machine ? threads__map_layout(s->machine, smp->pid) :
				       0, ips, max);
	return nr > 0 ? (size_t)nr : 0;
}

/* the user frames of a --call-graph dwarf sample, unwound from its registers and stack */
static size_t chain_unwound(struct symbols *s, const struct stream_sample *smp,
			    unsigned int flags, struct sym_loc *out, size_t n, size_t max)
{
	uint64_t ips[128];
	size_t i = 0, nr;

	if (n >= max)
		return n;
	nr = symbols__unwind(s, smp, ips, max - n < 128 ? max - n : 128);
	/* a user-mode sample's own ip is frame 0 already */
	if (nr > 0 && (smp->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER)
		i = 1;
	if (i)
		out[0].unwound = true;
	for (; i < nr && n < max; i++) {	/* callers are already ip - 1 */
		symbols__resolve(s, smp->pid, ips[i], PERF_RECORD_MISC_USER, flags & ~SYM_RETADDR,
				 &out[n]);
		out[n++].unwound = true;
	}
	return n;
}

bool symbols__chain_ok(const struct stream_sample *smp)
{
	return symbols__chain_ok_upto(smp, SIZE_MAX);
}

/* an address, or a context perf knows */
static inline bool chain_entry_ok(uint64_t v)
{
	if (__builtin_expect(v < PERF_CONTEXT_MAX, 1))
		return true;
	switch (v) {
	case PERF_CONTEXT_HV:
	case PERF_CONTEXT_KERNEL:
	case PERF_CONTEXT_USER:
	case PERF_CONTEXT_GUEST_KERNEL:	/* newer perf's (not 6.1's); PERF_CONTEXT_GUEST */
	case PERF_CONTEXT_GUEST_USER:	/* alone is not known to 6.12 either */
		return true;
	default:
		return false;
	}
}

bool symbols__chain_ok_upto(const struct stream_sample *smp, size_t max)
{
	const uint64_t *c = smp->callchain;
	uint64_t i = 0, nr = smp->nr_callchain;
	size_t n = 0;

	if (nr <= max) {	/* every entry counts: four at a time, contexts seldom among them */
		for (; i + 4 <= nr; i += 4)
			if (((c[i] >= PERF_CONTEXT_MAX) | (c[i + 1] >= PERF_CONTEXT_MAX) |
			     (c[i + 2] >= PERF_CONTEXT_MAX) | (c[i + 3] >= PERF_CONTEXT_MAX)) &&
			    !(chain_entry_ok(c[i]) && chain_entry_ok(c[i + 1]) &&
			      chain_entry_ok(c[i + 2]) && chain_entry_ok(c[i + 3])))
				return false;
		for (; i < nr; i++)
			if (!chain_entry_ok(c[i]))
				return false;
		return true;
	}
	for (; i < nr && n < max; i++) {
		if (!chain_entry_ok(c[i]))
			return false;
		n += c[i] < PERF_CONTEXT_MAX;
	}
	return true;
}

/* whether the callchain of @smp from entry @i on holds no marker perf does not know */
static bool chain_ok_from(const struct stream_sample *smp, uint64_t i)
{
	for (; i < smp->nr_callchain; i++)
		if (!chain_entry_ok(smp->callchain[i]))
			return false;
	return true;
}

size_t symbols__chain(struct symbols *s, const struct stream_sample *smp, unsigned int flags,
		      struct sym_loc *out, size_t max)
{
	uint16_t mode = smp->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t i, space[2], *sp = spaces_of(s, smp->pid, space) ? space : NULL;
	bool first = true, memo = sp && rmemo_ready(s);	/* memo: one space a mode */
	bool checked = false;	/* the markers past the one read checked too */
	struct memo_space ms = { 0 };
	struct sym_rmemo *e;
	size_t n = 0;

	if (!max)
		return 0;
	resolve_in(s, sp, smp->pid, smp->ip, mode, flags & ~SYM_RETADDR, &out[n++]);
	/*
	 * perf discards a chain it cannot read (!symbols__chain_ok()), the unwound part too. Its
	 * markers are checked as they come, the rest of them before the first lookup that is not
	 * in the memo (a lookup marks a file used and may open it: none for a chain discarded),
	 * and those past @max after.
	 */
	if (memo)
		memo_space__set(&ms, sp[kernel_space(mode)], mode);
	for (i = 0; i < smp->nr_callchain && n < max; i++) {
		uint64_t ip = smp->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_KERNEL:
				mode = PERF_RECORD_MISC_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				mode = PERF_RECORD_MISC_USER;
				break;
			case PERF_CONTEXT_GUEST_KERNEL:
				mode = PERF_RECORD_MISC_GUEST_KERNEL;
				break;
			case PERF_CONTEXT_GUEST_USER:
				mode = PERF_RECORD_MISC_GUEST_USER;
				break;
			case PERF_CONTEXT_HV:
				mode = PERF_RECORD_MISC_HYPERVISOR;
				break;
			default:
				return 1;
			}
			if (memo)
				memo_space__set(&ms, sp[kernel_space(mode)], mode);
			continue;
		}
		if (first && ip == smp->ip) {
			first = false;
			continue;
		}
		first = false;
		e = memo ? rmemo_slot(s, &ms, ip, flags) : NULL;
		if (e && rmemo_holds(e, &ms, ip, flags)) {
			out[n++] = e->loc;
			continue;
		}
		if (!checked && !chain_ok_from(smp, i))
			return 1;
		checked = true;
		if (e)
			resolve_now(s, smp->pid, ip, ms.mode, flags, e, ms.space, &out[n++]);
		else
			resolve_in(s, sp, smp->pid, ip, mode, flags, &out[n++]);
	}
	if (!checked && !chain_ok_from(smp, i))
		return 1;
	return chain_unwound(s, smp, flags, out, n, max);
}

#define SYM_INL_MAX 32

static size_t inl_hash(const struct sym_dso *d, uint64_t addr)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20 ^ (uintptr_t)d);
}

static struct sym_inl *inl_slot(struct symbols *s, const struct sym_dso *d, uint64_t addr)
{
	size_t i;

	if (s->inl_used * 2 >= s->inl_mask) {
		size_t nmask = s->inl_mask ? s->inl_mask * 2 + 1 : 1023, j;
		struct sym_inl *n = calloc(nmask + 1, sizeof(*n));

		if (!n)
			return NULL;
		for (j = 0; s->inl && j <= s->inl_mask; j++) {
			const struct sym_inl *e = &s->inl[j];
			size_t k;

			if (!e->dso)
				continue;
			for (k = inl_hash(e->dso, e->addr) & nmask; n[k].dso; k = (k + 1) & nmask)
				;
			n[k] = *e;
		}
		free(s->inl);
		s->inl = n;
		s->inl_mask = nmask;
	}
	for (i = inl_hash(d, addr) & s->inl_mask; s->inl[i].dso; i = (i + 1) & s->inl_mask)
		if (s->inl[i].dso == d && s->inl[i].addr == addr)
			break;
	return &s->inl[i];
}

/*
 * The functions inlined at @addr of @d, innermost first, and the one they are in: from the
 * lookup cache (a user DSO's), else from DWARF and kept there. DWARF is read only for what
 * the cache lacks: opening it decompresses all of a distribution's debug file.
 */
static size_t chain_get(struct symbols *s, struct sym_dso *d, uint64_t addr, const char **v,
			size_t max)
{
	struct sym_cache_ent *c = d->kernel ? NULL : sym_dso__slot(d, addr);
	char buf[4096];
	const char *p, *q;
	size_t n = 0, i, len = 0;

	if (c && (c->state & SYM_ENT_CHAIN)) {
		for (p = c->chain; n < max && (q = strchr(p, SYM_CHAIN_SEP)); p = q + 1) {
			snprintf(buf, sizeof(buf), "%.*s", (int)(q - p), p);
			v[n] = sym_intern(s->strs, buf);
			if (!v[n])
				return 0;
			n++;
		}
		return n;
	}
	n = sym_dso__inlines(s, d, addr, v, max);
	for (i = 0; i < n; i++)	/* DWARF's strings: the symbol table's where equal */
		v[i] = sym_intern(s->strs, v[i]) ?: v[i];
	for (i = 0; c && i < n; i++) {
		size_t k = strlen(v[i]);

		if (len + k + 2 > sizeof(buf) || memchr(v[i], SYM_CHAIN_SEP, k))
			return n;	/* not kept */
		memcpy(buf + len, v[i], k);
		buf[len + k] = SYM_CHAIN_SEP;
		len += k + 1;
	}
	buf[len] = '\0';
	if (c && (c->chain = sym_intern(s->strs, buf))) {
		if (!c->state) {
			d->cache_used++;
			c->key = addr;
		}
		c->state |= SYM_ENT_CHAIN | SYM_ENT_USED;
		d->dirty = true;
	}
	return n;
}

size_t symbols__inlines(struct symbols *s, const struct sym_loc *l, const char **names,
			size_t max)
{
	const char *v[SYM_INL_MAX];
	struct sym_inl *e;
	size_t n;

	if (!l->dso || !l->sym || (l->kernel && !s->vmlinux))
		return 0;
	e = inl_slot(s, l->dso, l->addr);
	if (!e || !e->dso) {
		sym_dso__load(s, l->dso);
		n = chain_get(s, l->dso, l->addr, v, SYM_INL_MAX);
		if (e && (e->names = malloc((n ? n : 1) * sizeof(*v)))) {
			memcpy(e->names, v, n * sizeof(*v));
			e->nr = n;
			e->dso = l->dso;
			e->addr = l->addr;
			s->inl_used++;
		}
		if (!e || !e->dso) {	/* out of memory: the answer, not kept */
			n = n < max ? n : max;
			memcpy(names, v, n * sizeof(*v));
			return n;
		}
	}
	n = e->nr < max ? e->nr : max;
	memcpy(names, e->names, n * sizeof(*names));
	return n;
}

const char *symbols__pick_kallsyms(const char *data, const char *given,
				   const struct origin *origin, char *buf, size_t len)
{
	if (given)
		return given;
	if (data && strcmp(data, "-")) {
		snprintf(buf, len, "%s.kallsyms", data);
		if (!access(buf, R_OK))
			return buf;
	}
	if (origin__kallsyms_apply(origin) && !access("/proc/kallsyms", R_OK)) {
		snprintf(buf, len, "/proc/kallsyms");
		return buf;
	}
	return NULL;
}

struct symbols *symbols__new_input(const struct symbols_config *cfg, const char *data,
				   const struct stream_info *info, const struct perf_build_id *ids,
				   size_t nr, struct errbuf *err)
{
	const struct perf_build_id *kid = NULL;
	struct symbols_config c = *cfg;
	char kbuf[4096], vbuf[4096], dbuf[4096];
	struct symbols *s;
	size_t i;

	for (i = 0; i < nr && !kid; i++)
		if (ids[i].filename && !strcmp(ids[i].filename, KERNEL_DSO) && ids[i].size)
			kid = &ids[i];
	if (sym_vmlinux__pick(cfg->vmlinux, cfg->symfs, info->os_release, kid ? kid->id : NULL,
			      kid ? kid->size : 0, vbuf, sizeof(vbuf), err))
		return NULL;
	c.vmlinux = vbuf[0] ? vbuf : NULL;
	c.kallsyms = symbols__pick_kallsyms(data, cfg->kallsyms, &info->origin, kbuf, sizeof(kbuf));
	c.elsewhere = !cfg->symfs && !origin__same_machine(&info->origin);
	c.this_kernel = info->origin.kernel == ORIGIN_BOOT || info->origin.kernel == ORIGIN_BUILD;
	if (!c.vdso && data && strcmp(data, "-")) {	/* record's copy beside the file */
		snprintf(dbuf, sizeof(dbuf), "%s.vdso", data);
		c.vdso = access(dbuf, R_OK) ? NULL : dbuf;
	}
	s = symbols__new(&c, err);
	for (i = 0; s && i < nr; i++) {
		if (symbols__build_id(s, ids[i].filename, ids[i].id, ids[i].size)) {
			symbols__delete(s);
			err__set(err, -ENOMEM, "cannot set up symbols: %s", strerror(ENOMEM));
			return NULL;
		}
	}
	return s;
}

const char *symbols__record_note(const char *cmdline, char *buf, size_t len)
{
	const char *p = cmdline ? strstr(cmdline, SYMBOLS_NOTE_PREFIX) : NULL;
	size_t n;

	if (!p)
		return NULL;
	p += strlen(SYMBOLS_NOTE_PREFIX);
	n = strcspn(p, "\"\n");
	while (n && p[n - 1] == ' ')
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

bool symbols__is_skid(const char *sym)
{
	static const char *const skid[] = {
		"irq_enable", "irqrestore", "unlock_irq", "safe_halt",
	};
	size_t i;

	if (!sym)
		return false;
	if (!strncmp(sym, "__raw_callee_save_", 18))
		return true;
	for (i = 0; i < ARRAY_SIZE(skid); i++)
		if (strstr(sym, skid[i]))
			return true;
	return false;
}

uint64_t sym_loc__name_addr(const struct sym_loc *l)
{
	/* perf's hist_entry ip: a user DSO's map-relative address, its file offset */
	if (l->dso && !l->kernel && !l->at_ip && !l->dso->perfmap)
		return sym_dso__addr_to_off(l->dso, l->addr);
	return l->addr;
}

const char *sym_loc__name(const struct sym_loc *l, char *buf, size_t len)
{
	if (l->sym)
		snprintf(buf, len, "%s", l->sym);
	else if (len > 20)	/* perf's "%-#.*llx": 0x but for 0 */
		fmt_hex(buf, sym_loc__name_addr(l), 16, sym_loc__name_addr(l) != 0);
	else
		snprintf(buf, len, "%#.16" PRIx64, sym_loc__name_addr(l));
	return buf;
}

const char *sym_loc__srcline(const struct sym_loc *l, char *buf, size_t len)
{
	const char *base;

	if (l->srcfile && l->line) {
		base = strrchr(l->srcfile, '/');
		snprintf(buf, len, "%s:%u", base ? base + 1 : l->srcfile, l->line);
	} else if (l->sym) {
		snprintf(buf, len, "%s+%" PRIu64, l->sym, l->addr - l->sym_start);
	} else if (l->dso && l->dso_name) {	/* perf's "DSO[ADDR]": its short name */
		base = l->dso_name[0] == '/' ? strrchr(l->dso_name, '/') : NULL;
		snprintf(buf, len, "%s[%" PRIx64 "]", base ? base + 1 : l->dso_name, l->addr);
	} else {
		snprintf(buf, len, "??:0");
	}
	return buf;
}
