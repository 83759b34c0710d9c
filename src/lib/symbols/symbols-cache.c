// SPDX-License-Identifier: GPL-2.0
/*
 * Interned strings, and the persistent cache of resolved addresses: one file per DSO under
 * <cache_dir>/srcline/, named by the build-id of the file read (the kernel: by the identity of
 * the kallsyms file), holding every address looked up so far with its symbol, source line and
 * inline function, and the DSO's status. A later report of the same binaries answers from it
 * without reading their symbol tables or DWARF. The file is checked (magic, layout, size,
 * checksum, string bounds, the DSO's path, the debug file still there or still absent);
 * anything that does not check out is ignored, and rewritten once the DSO has been read.
 * Files and directory stay bounded: CACHE_MAX_ENTS entries a file, CACHE_MAX_FILES files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols-int.h"

uint64_t sym_hash(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 1099511628211ull;
	return h;
}

/* the cache file's checksum: FNV-1a by 64-bit words (the tail by bytes), 8 times faster */
static uint64_t sum64(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;
	uint64_t w;

	for (; n >= 8; n -= 8, c += 8) {
		memcpy(&w, c, 8);
		h = (h ^ w) * 1099511628211ull;
		h ^= h >> 29;
	}
	return sym_hash(c, n, h);
}

const char *sym_intern(struct sym_stacks *strs, const char *str)
{
	const struct sym_stack *e;

	if (!str || sym_stacks__add_n(strs, str, 0, 0))
		return NULL;
	e = sym_stacks__get(strs, str);
	return e ? e->key : NULL;
}

#define CACHE_MAGIC "SLSRCL05"	/* 04: C++ names demangled; 05: inline chains */
/* past this many entries a file keeps only what its last session looked up */
#define CACHE_MAX_ENTS 16384
/* past this many files in the directory the oldest go, down to CACHE_KEEP_FILES */
#define CACHE_MAX_FILES 512
#define CACHE_KEEP_FILES 384
#define NO_STR UINT32_MAX
#define CACHE_MAX_SIZE (64u << 20)
#define CACHE_DWARF_CHECKED 1u

struct cache_hdr {
	char magic[8];
	uint32_t hdr_size, ent_size;	/* another layout is another format */
	uint64_t checksum;		/* sum64() of the whole file with this field 0 */
	uint32_t nr_ents, str_size;
	uint32_t status, flags;
	uint32_t identity, debugfile;	/* string offsets */
};

struct cache_ent {
	uint64_t key, sym_start;
	uint32_t sym, file, inl, line;	/* string offsets or NO_STR */
	uint32_t state, chain;		/* chain: a string offset or NO_STR */
};

static int cache_path(const struct symbols *s, const char *id, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "%s/srcline/%s", s->cache_dir, id);

	return n < len ? 0 : -ENAMETOOLONG;
}

/* the build-id debug file dwfl would find for @id ("<hex build-id>") */
static void build_id_debug_path(const struct symbols *s, const char *id, char *buf, size_t len)
{
	snprintf(buf, len, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", s->symfs, id, id + 2);
}

static const char *str_at(const char *strs, uint32_t size, uint32_t off, bool *bad)
{
	if (off == NO_STR)
		return NULL;
	if (off >= size) {
		*bad = true;
		return NULL;
	}
	return strs + off;
}

void sym_file_ident(const char *path, const struct stat *st, char *buf, size_t len)
{
	snprintf(buf, len, "%s %llu %llu %lld %lld.%09ld", path, (unsigned long long)st->st_dev,
		 (unsigned long long)st->st_ino, (long long)st->st_size,
		 (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

/*
 * @dbg: the identity of the separate debug file the entries came from, "" when none was
 * used: then there must still be none (by build-id), else it must be the same file.
 */
static bool debugfile_holds(const struct symbols *s, const struct sym_dso *d, const char *dbg)
{
	char path[4096], ident[4096 + 128], *sp;
	struct stat st;
	int i;

	if (d->kernel)
		return true;
	if (!*dbg) {
		build_id_debug_path(s, d->cache_id, path, sizeof(path));
		return access(path, F_OK) != 0;
	}
	snprintf(path, sizeof(path), "%s", dbg);
	for (i = 0; i < 4; i++) {	/* cut mtime, size, inode, device */
		sp = strrchr(path, ' ');
		if (!sp)
			return false;
		*sp = '\0';
	}
	if (stat(path, &st))
		return false;
	sym_file_ident(path, &st, ident, sizeof(ident));
	return !strcmp(ident, dbg);
}

/*
 * A cache file read and checked, its entries imported into the DSO's table as they are looked
 * up (sym_cache__import()): a session that looks up a few addresses of a kernel whose file
 * holds thousands interns a few names, not all of them.
 */
struct sym_cfile {
	char *buf;			/* the file */
	const struct cache_ent *ents;
	const char *strs;
	uint32_t nr, str_size;
	uint32_t *idx;			/* entry + 1 by key, open addressed (0: empty) */
	size_t mask;
	struct sym_stacks *intern;	/* where names go (symbols.strs) */
};

void sym_cache__close(struct sym_dso *d)
{
	if (!d->cfile)
		return;
	free(d->cfile->buf);
	free(d->cfile->idx);
	free(d->cfile);
	d->cfile = NULL;
}

bool sym_cache__import(struct sym_dso *d, uint64_t key, struct sym_cache_ent *e)
{
	const struct sym_cfile *cf = d->cfile;
	const struct cache_ent *c = NULL;
	bool bad = false;
	size_t i;

	if (!cf)
		return false;
	for (i = sym_hash64(key) & cf->mask; cf->idx[i]; i = (i + 1) & cf->mask)
		if (cf->ents[cf->idx[i] - 1].key == key) {
			c = &cf->ents[cf->idx[i] - 1];
			break;
		}
	if (!c)
		return false;
	/* (offsets and states were checked when the file was read) */
	e->sym = sym_intern(cf->intern, str_at(cf->strs, cf->str_size, c->sym, &bad));
	e->file = sym_intern(cf->intern, str_at(cf->strs, cf->str_size, c->file, &bad));
	e->inl = sym_intern(cf->intern, str_at(cf->strs, cf->str_size, c->inl, &bad));
	e->chain = sym_intern(cf->intern, str_at(cf->strs, cf->str_size, c->chain, &bad));
	if ((c->sym != NO_STR && !e->sym) || (c->file != NO_STR && !e->file) ||
	    (c->inl != NO_STR && !e->inl) || (c->chain != NO_STR && !e->chain)) {
		*e = (struct sym_cache_ent){ 0 };	/* ENOMEM: looked up again instead */
		return false;
	}
	e->key = key;
	e->sym_start = c->sym_start;
	e->line = c->line;
	e->state = c->state;
	d->cache_used++;
	return true;
}

static bool cache_parse(struct symbols *s, struct sym_dso *d, const char *identity,
			char *buf, size_t size)
{
	struct cache_hdr h;
	const struct cache_ent *ents;
	const char *strs, *id, *dbg;
	struct sym_cfile *cf;
	uint64_t sum;
	bool bad = false;
	size_t i, mask = 15, k;

	if (size < sizeof(h))
		return false;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, CACHE_MAGIC, 8) || h.hdr_size != sizeof(h) ||
	    h.ent_size != sizeof(struct cache_ent) || h.str_size == 0 ||
	    h.nr_ents > (size - sizeof(h)) / sizeof(struct cache_ent) ||
	    size != sizeof(h) + (size_t)h.nr_ents * sizeof(struct cache_ent) + h.str_size ||
	    h.status > SYM_DSO_ELSEWHERE)
		return false;
	memset(buf + offsetof(struct cache_hdr, checksum), 0, sizeof(h.checksum));
	sum = sum64(buf, size, SYM_HASH_SEED);
	if (sum != h.checksum)
		return false;
	ents = (const struct cache_ent *)(buf + sizeof(h));
	strs = buf + sizeof(h) + (size_t)h.nr_ents * sizeof(struct cache_ent);
	if (strs[h.str_size - 1])
		return false;
	id = str_at(strs, h.str_size, h.identity, &bad);
	dbg = str_at(strs, h.str_size, h.debugfile, &bad);
	if (bad || !id || !dbg || strcmp(id, identity) || !debugfile_holds(s, d, dbg))
		return false;
	for (i = 0; i < h.nr_ents; i++) {
		const struct cache_ent *c = &ents[i];
		bool chain = c->chain != NO_STR;

		/* an inline chain may be looked up where no symbol was (a caller's ip - 1) */
		if ((c->sym != NO_STR && c->sym >= h.str_size) ||
		    (c->file != NO_STR && c->file >= h.str_size) ||
		    (c->inl != NO_STR && c->inl >= h.str_size) ||
		    (chain && c->chain >= h.str_size) ||
		    !(c->state & (SYM_ENT_SYM | SYM_ENT_CHAIN)) ||
		    c->state > (SYM_ENT_SYM | SYM_ENT_LINE | SYM_ENT_INL | SYM_ENT_CHAIN) ||
		    !(c->state & SYM_ENT_CHAIN) != !chain || (chain && d->kernel))
			return false;
	}
	while (mask < (size_t)h.nr_ents * 2)
		mask = mask * 2 + 1;
	cf = calloc(1, sizeof(*cf));
	if (!cf || !(cf->idx = calloc(mask + 1, sizeof(*cf->idx)))) {
		free(cf);
		return false;
	}
	for (i = 0; i < h.nr_ents; i++) {	/* a key twice: the later entry, as before */
		for (k = sym_hash64(ents[i].key) & mask; cf->idx[k]; k = (k + 1) & mask)
			if (ents[cf->idx[k] - 1].key == ents[i].key)
				break;
		cf->idx[k] = (uint32_t)i + 1;
	}
	cf->buf = buf;
	cf->ents = ents;
	cf->strs = strs;
	cf->nr = h.nr_ents;
	cf->str_size = h.str_size;
	cf->mask = mask;
	cf->intern = s->strs;
	sym_cache__close(d);
	d->cfile = cf;
	d->status = h.status;
	d->dwarf_checked = h.flags & CACHE_DWARF_CHECKED;
	return true;
}

bool sym_cache__read(struct symbols *s, struct sym_dso *d, const char *identity)
{
	char path[4096], *buf = NULL;
	struct stat st;
	bool ok = false;
	size_t got = 0;
	int fd;

	if (!s->cache_dir || !d->cache_id || cache_path(s, d->cache_id, path, sizeof(path)))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > CACHE_MAX_SIZE)
		goto out_close;
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf)
		goto out_close;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, st.st_size - got);

		if (n <= 0)
			goto out_close;
		got += n;
	}
	ok = cache_parse(s, d, identity, buf, got);
	if (ok)
		buf = NULL;	/* d->cfile's */
	else
		d->dirty = true;	/* rewritten once the DSO has been read */
out_close:
	free(buf);
	close(fd);
	return ok;
}

/* string offsets: a pointer-keyed table, the strings being interned */
struct str_tab {
	const char **key;
	uint32_t *off;
	size_t mask;
	char *buf;
	size_t len, alloc;
};

static uint32_t str_off(struct str_tab *t, const char *str, int *err)
{
	size_t i, n;

	if (!str)
		return NO_STR;
	i = ((uintptr_t)str >> 3) * 0x9e3779b97f4a7c15ull >> 20 & t->mask;
	for (; t->key[i]; i = (i + 1) & t->mask)
		if (t->key[i] == str)
			return t->off[i];
	n = strlen(str) + 1;
	if (t->len + n > t->alloc) {
		size_t na = (t->len + n) * 2;
		char *b = realloc(t->buf, na);

		if (!b) {
			*err = -ENOMEM;
			return NO_STR;
		}
		t->buf = b;
		t->alloc = na;
	}
	memcpy(t->buf + t->len, str, n);
	t->key[i] = str;
	t->off[i] = t->len;
	t->len += n;
	return t->off[i];
}

static int mkdir_p(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return mkdir(path, 0700) && errno != EEXIST ? -errno : 0;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		c += w;
		n -= w;
	}
	return 0;
}

static int cache_store(struct symbols *s, struct sym_dso *d, const char *path,
		       const struct cache_hdr *h0, const struct cache_ent *ents,
		       const struct str_tab *t)
{
	char tmp[4096];
	struct cache_hdr h = *h0;
	size_t ents_size = (size_t)h.nr_ents * sizeof(*ents);
	uint64_t sum;
	int fd, ret;

	h.checksum = 0;
	sum = sum64(&h, sizeof(h), SYM_HASH_SEED);
	sum = sum64(ents, ents_size, sum);
	h.checksum = sum64(t->buf, t->len, sum);
	snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, &h, sizeof(h));
	if (!ret)
		ret = write_all(fd, ents, ents_size);
	if (!ret)
		ret = write_all(fd, t->buf, t->len);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

struct old_file {
	char name[256];
	struct timespec mtime;
};

static int old_first(const void *a, const void *b)
{
	const struct old_file *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	return (x->mtime.tv_nsec > y->mtime.tv_nsec) - (x->mtime.tv_nsec < y->mtime.tv_nsec);
}

/* one file per binary and per kallsyms copy: keep the directory bounded, oldest out first */
static void cache_prune(const char *dir)
{
	struct old_file *v = NULL;
	size_t n = 0, alloc = 0, i;
	char path[4096 + 256];
	struct dirent *de;
	struct stat st;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(v->name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		if (n == alloc) {
			struct old_file *nv = realloc(v, (alloc = alloc ? alloc * 2 : 256) * sizeof(*v));

			if (!nv)
				goto out_free;
			v = nv;
		}
		snprintf(v[n].name, sizeof(v[n].name), "%s", de->d_name);
		v[n++].mtime = st.st_mtim;
	}
	if (n <= CACHE_MAX_FILES)
		goto out_free;
	qsort(v, n, sizeof(*v), old_first);
	for (i = 0; i < n - CACHE_KEEP_FILES; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, v[i].name);
		unlink(path);
	}
out_free:
	free(v);
	closedir(dp);
}

int sym_cache__write(struct symbols *s, struct sym_dso *d, const char *identity)
{
	struct cache_hdr h = { .magic = CACHE_MAGIC, .hdr_size = sizeof(h),
			       .ent_size = sizeof(struct cache_ent) };
	struct str_tab t = { 0 };
	struct cache_ent *ents = NULL;
	const char *mainfile = NULL, *dbg = NULL;
	char path[4096], dbg_ident[4096 + 128] = "";
	struct stat st;
	size_t i, n = 0;
	bool fresh;
	int ret = 0;

	if (!s->cache_dir || !d->cache_id)
		return 0;
	for (i = 0; d->cfile && i < d->cfile->nr; i++)	/* the file's entries not looked up */
		sym_dso__slot(d, d->cfile->ents[i].key);
	sym_cache__close(d);
	if (!d->cache_used)
		return 0;
	ret = cache_path(s, d->cache_id, path, sizeof(path));
	if (ret)
		return ret;
	*strrchr(path, '/') = '\0';
	ret = mkdir_p(path);
	path[strlen(path)] = '/';
	if (ret)
		return ret;
	t.mask = 1;
	while (t.mask < d->cache_used * 3 + 8)
		t.mask = t.mask * 2 + 1;
	t.key = calloc(t.mask + 1, sizeof(*t.key));
	t.off = calloc(t.mask + 1, sizeof(*t.off));
	ents = calloc(d->cache_used, sizeof(*ents));
	if (!t.key || !t.off || !ents) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (d->mod && !d->kernel)
		dwfl_module_info(d->mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &dbg);
	if (dbg && !stat(dbg, &st))
		sym_file_ident(dbg, &st, dbg_ident, sizeof(dbg_ident));
	else if (dbg)
		goto out_free;	/* gone already: nothing to check a cache against */
	h.identity = str_off(&t, identity, &ret);
	h.debugfile = str_off(&t, dbg_ident, &ret);
	for (i = 0; i <= d->cache_mask && n < d->cache_used && !ret; i++) {
		const struct sym_cache_ent *e = &d->cache[i];
		struct cache_ent *c = &ents[n];

		if (!e->state || (d->cache_used > CACHE_MAX_ENTS && !(e->state & SYM_ENT_USED)))
			continue;
		c->key = e->key;
		c->sym_start = e->sym_start;
		c->line = e->line;
		c->state = e->state & ~SYM_ENT_USED;
		c->sym = str_off(&t, e->sym, &ret);
		c->file = str_off(&t, e->file, &ret);
		c->inl = str_off(&t, e->inl, &ret);
		c->chain = e->state & SYM_ENT_CHAIN ? str_off(&t, e->chain, &ret) : NO_STR;
		n++;
	}
	if (ret)
		goto out_free;
	h.nr_ents = n;
	h.str_size = t.len;
	h.status = d->status;
	h.flags = d->dwarf_checked ? CACHE_DWARF_CHECKED : 0;
	fresh = access(path, F_OK) != 0;
	ret = cache_store(s, d, path, &h, ents, &t);
	if (!ret)
		d->dirty = false;
	if (!ret && fresh) {
		*strrchr(path, '/') = '\0';
		cache_prune(path);
	}
out_free:
	free(t.key);
	free(t.off);
	free(t.buf);
	free(ents);
	return ret;
}
