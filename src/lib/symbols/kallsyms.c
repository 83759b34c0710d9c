// SPDX-License-Identifier: GPL-2.0
#include "schedlens/kallsyms.h"
#include "schedlens/hugebuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* past the last symbol, addresses this far still belong to it */
#define LAST_SYMBOL_SPAN (1ull << 20)
/* a partial load reads this much at a time */
#define STEP (64u << 10)
/* /proc/kallsyms (its size unknown) is read into buffers of this size first, doubling up to
 * BUF_MAX: a partial load of a few steps takes no huge page */
#define BUF_FIRST (256u << 10)
#define BUF_MAX (2u << 20)
#define SYMS_FIRST (64u << 10)	/* and the symbols, 2,730 first */

/* a module's symbol: its address and the module's name */
struct kmod {
	uint64_t addr;
	const char *module;
};

struct kallsyms {
	struct ksym *syms;
	size_t nr, cap;
	struct hugebuf syms_buf;
	struct kmod *mods;	/* the modules' symbols, by address once complete */
	size_t nr_mods, cap_mods;
	struct hugebuf *bufs;	/* the file's text, names point into it */
	size_t nr_bufs;
	/* reading, until the whole file is in */
	int fd;			/* -1 when done (or failed) */
	bool complete;
	char *buf;		/* the buffer being filled, bufs[nr_bufs - 1] */
	size_t len, cap_buf, parsed;
	char *file;
	size_t lineno;
	bool nonzero;
	bool ordered;		/* core kernel text so far: no module line, addresses ascending */
	uint64_t lo, hi;	/* first and last text address read */
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int kmod_cmp(const void *a, const void *b)
{
	const struct kmod *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int kallsyms__add(struct kallsyms *k, uint64_t addr, const char *name, const char *mod)
{
	if (*mod) {
		if (k->nr_mods == k->cap_mods) {
			size_t cap = k->cap_mods ? 2 * k->cap_mods : 1024;
			struct kmod *n = realloc(k->mods, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			k->mods = n;
			k->cap_mods = cap;
		}
		k->mods[k->nr_mods++] = (struct kmod){ addr, mod };
	}
	if (k->nr == k->cap) {
		if (hugebuf__reserve(&k->syms_buf, (k->cap + 1) * sizeof(*k->syms)))
			return -ENOMEM;
		k->syms = k->syms_buf.p;
		k->cap = k->syms_buf.cap / sizeof(*k->syms);
	}
	if (!k->nr)
		k->lo = addr;
	if (*mod || (k->nr && addr < k->hi))
		k->ordered = false;
	k->hi = addr;
	k->syms[k->nr++] = (struct ksym){ addr, name };
	return 0;
}

static const signed char hexdig[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/*
 * "ADDR TYPE NAME[\t[MODULE]]" from @line up to @eol (its '\n' or the final NUL), NUL
 * terminated in place; lines of other types are only checked.
 */
static int kallsyms__parse_line(struct kallsyms *k, char *line, char *eol)
{
	const unsigned char *p = (const unsigned char *)line;
	char *name, *mod = "", *end, *c;
	uint64_t addr = 0;
	int digits = 0;
	char type;

	if (eol - line > 18 && line[16] == ' ') {
		/* the usual 64-bit line: 16 digits, checked all at once */
		int bad = 0, i;

#pragma GCC unroll 16
		for (i = 0; i < 16; i++) {
			bad |= hexdig[p[i]] - 1;
			addr = addr << 4 | (uint64_t)((hexdig[p[i]] - 1) & 15);
		}
		if (bad >= 0) {
			p += 16;
			digits = 16;
		}
	}
	if (!digits) {
		for (addr = 0; hexdig[*p] && digits < 17; p++, digits++)
			addr = addr << 4 | (uint64_t)(hexdig[*p] - 1);
	}
	if (!digits || digits > 16 || p[0] != ' ' || !p[1] || p[1] == '\n' || p[2] != ' ')
		return -EINVAL;
	type = (char)p[1];
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	name = (char *)p + 3;
	end = memchr(name, '\t', (size_t)(eol - name)) ?: eol;
	c = memchr(name, ' ', (size_t)(end - name));
	if (c)
		end = c;
	if (end < eol && *end == '\t') {
		mod = end + 1;
		if (mod < eol && *mod == '[')
			mod++;
		for (c = mod; c < eol && *c != ']'; c++)
			;
		*c = '\0';
	}
	*end = '\0';
	if (end == name)
		return -EINVAL;
	k->nonzero |= addr != 0;
	return kallsyms__add(k, addr, name, mod);
}

/*
 * The whole lines in buf[parsed, len), at the end of the file the last one too, up to the
 * one that makes @addr covered
 */
static int kallsyms__parse(struct kallsyms *k, uint64_t addr, bool eof, struct errbuf *err)
{
	char *line = k->buf + k->parsed, *stop = k->buf + k->len, *nl;
	int ret;

	for (; line < stop; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(stop - line));
		if (!nl) {
			if (!eof)
				break;
			nl = stop;
		}
		k->lineno++;
		ret = nl > line ? kallsyms__parse_line(k, line, nl) : 0;
		if (ret == -ENOMEM)
			return err__set(err, ret, "out of memory");
		if (ret)
			return err__set(err, ret, "'%s' line %zu: not a kallsyms line", k->file,
					k->lineno);
		if (k->ordered && k->hi > addr && addr >= k->lo) {
			line = nl + 1;
			break;
		}
	}
	k->parsed = line < stop ? (size_t)(line - k->buf) : k->len;
	return 0;
}

/* a buffer of @cap bytes to read into, holding the unparsed tail of the last one */
static int kallsyms__new_buf(struct kallsyms *k, size_t cap)
{
	size_t tail = k->buf ? k->len - k->parsed : 0;
	struct hugebuf *nb = realloc(k->bufs, (k->nr_bufs + 1) * sizeof(*nb));
	struct hugebuf b = { .first = cap };

	if (!nb)
		return -ENOMEM;
	k->bufs = nb;
	if (cap < 2 * tail + STEP)
		cap = 2 * tail + STEP;
	if (hugebuf__reserve(&b, cap))
		return -ENOMEM;
	if (tail)
		memcpy(b.p, k->buf + k->parsed, tail);
	k->bufs[k->nr_bufs++] = b;
	k->buf = b.p;
	k->cap_buf = b.cap;
	k->len = tail;
	k->parsed = 0;
	return 0;
}

bool kallsyms__covers(const struct kallsyms *k, uint64_t addr)
{
	return k->complete || (k->ordered && k->nr && addr >= k->lo && addr < k->hi);
}

static int kallsyms__finish(struct kallsyms *k, struct errbuf *err)
{
	close(k->fd);
	k->fd = -1;
	if (!k->nr)
		return err__set(err, -ENOENT, "'%s' holds no kernel text symbol", k->file);
	if (!k->nonzero)
		return err__set(err, -EACCES,
				"every address in '%s' is 0: kernel.kptr_restrict hides them (run "
				"as root or sysctl kernel.kptr_restrict=0)", k->file);
	/* /proc/kallsyms comes sorted but for the modules: sort only when it is not */
	if (!k->ordered) {
		size_t i;

		for (i = 1; i < k->nr && k->syms[i - 1].addr <= k->syms[i].addr; i++)
			;
		if (i < k->nr)
			qsort(k->syms, k->nr, sizeof(*k->syms), ksym_cmp);
	}
	if (k->nr_mods)
		qsort(k->mods, k->nr_mods, sizeof(*k->mods), kmod_cmp);
	k->complete = true;
	return 0;
}

/*
 * Read on until @addr resolves as it would with the whole file: the core kernel's text comes
 * first and in address order, the modules after it; a table read up to a text symbol past
 * @addr holds @addr's symbol when @addr is not below the first. Anything else (a module line,
 * an address out of order, @addr outside that range) and the whole file is read.
 */
int kallsyms__extend(struct kallsyms *k, uint64_t addr, struct errbuf *err)
{
	ssize_t got;
	size_t want;
	int ret;

	while (!kallsyms__covers(k, addr)) {
		if (k->fd < 0)
			return err__set(err, -EIO, "'%s': read failed before its end", k->file);
		if (k->parsed < k->len) {
			/* what the last read left unparsed first */
			ret = kallsyms__parse(k, addr, false, err);
			if (ret)
				goto out_fail;
			if (kallsyms__covers(k, addr))
				break;
		}
		if (k->cap_buf - k->len < 2 &&
		    (ret = kallsyms__new_buf(k, k->cap_buf < BUF_MAX ? 2 * k->cap_buf : BUF_MAX))) {
			err__set(err, ret, "out of memory");
			goto out_fail;
		}
		want = k->cap_buf - k->len - 1;
		/* a step at a time while a part of the file may do */
		if (want > STEP && addr != UINT64_MAX && k->ordered && (!k->nr || addr >= k->lo))
			want = STEP;
		got = read(k->fd, k->buf + k->len, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			err__set(err, ret, "cannot read '%s': %s", k->file, strerror(-ret));
			goto out_fail;
		}
		k->len += (size_t)got;
		k->buf[k->len] = '\0';
		/* at the end every line, or the table would not be whole */
		ret = kallsyms__parse(k, got ? addr : UINT64_MAX, got == 0, err);
		if (ret)
			goto out_fail;
		if (got == 0)
			return kallsyms__finish(k, err);
	}
	return 0;
out_fail:
	close(k->fd);
	k->fd = -1;
	return ret;
}

struct kallsyms *kallsyms__load_upto(const char *path, uint64_t max_addr, struct errbuf *err)
{
	struct kallsyms *k = calloc(1, sizeof(*k));
	const char *file = path ? path : "/proc/kallsyms";
	size_t cap = BUF_FIRST;
	struct stat st;

	if (!k || !(k->file = strdup(file))) {
		free(k);
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	k->ordered = true;
	k->syms_buf.first = SYMS_FIRST;
	k->fd = open(file, O_RDONLY | O_CLOEXEC);
	if (k->fd < 0) {
		int e = errno;

		err__set(err, -e, "cannot open '%s': %s", file, strerror(e));
		goto out_free;
	}
	/* a regular file says its size; /proc/kallsyms says 0 (and takes a few buffers) */
	if (!fstat(k->fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 2;
	if (kallsyms__new_buf(k, cap)) {
		err__set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	if (kallsyms__extend(k, max_addr, err))
		goto out_free;
	return k;
out_free:
	kallsyms__delete(k);
	return NULL;
}

struct kallsyms *kallsyms__load(const char *path, struct errbuf *err)
{
	return kallsyms__load_upto(path, UINT64_MAX, err);
}

void kallsyms__delete(struct kallsyms *k)
{
	size_t i;

	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	for (i = 0; i < k->nr_bufs; i++)
		hugebuf__free(&k->bufs[i]);
	free(k->bufs);
	hugebuf__free(&k->syms_buf);
	free(k->mods);
	free(k->file);
	free(k);
}

/* FNV-1a over the whole of a small file (procfs: no size to go by); 0 when unreadable */
static uint64_t file_hash(const char *path)
{
	uint64_t h = 14695981039346656037ull;
	char buf[4096];
	ssize_t n, i;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			h = (h ^ (unsigned char)buf[i]) * 1099511628211ull;
	close(fd);
	return n < 0 ? 0 : h;
}

int kallsyms__identity(const char *path, char *buf, size_t len)
{
	char boot[64] = "";
	struct stat st;
	int n = 0, fd;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (!strncmp(path, "/proc/", 6)) {
		fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = (int)read(fd, boot, sizeof(boot) - 1);
		close(fd);
		if (n <= 0)
			return -EIO;
		boot[strcspn(boot, "\n")] = '\0';
		n = snprintf(buf, len, "boot %s modules %016llx ", boot,
			     (unsigned long long)file_hash("/proc/modules"));
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
	}
	snprintf(buf + n, len - (size_t)n, "%s %llu %llu %lld %lld.%09ld", path,
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		 (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	return 0;
}

size_t kallsyms__nr(const struct kallsyms *k)
{
	return k->nr;
}

const struct ksym *kallsyms__find(const struct kallsyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->nr, mid;

	if (!k->nr || addr < k->syms[0].addr || !kallsyms__covers(k, addr))
		return NULL;
	/* the last symbol whose address is <= addr */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == k->nr - 1 && addr - k->syms[lo].addr >= LAST_SYMBOL_SPAN)
		return NULL;
	return &k->syms[lo];
}
const char *kallsyms__module(const struct kallsyms *k, const struct ksym *s)
{
	const struct kmod key = { s->addr, NULL }, *m;

	if (!k->nr_mods || !k->complete)	/* (a module line makes the whole file read) */
		return "";
	m = bsearch(&key, k->mods, k->nr_mods, sizeof(*k->mods), kmod_cmp);
	return m ? m->module : "";
}

const struct ksym *kallsyms__by_name(const struct kallsyms *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->nr; i++)
		if (!strcmp(k->syms[i].name, name))
			return &k->syms[i];
	return NULL;
}

char *kallsyms__snprint(const struct kallsyms *k, uint64_t addr, bool with_offset, char *buf,
			size_t len)
{
	const struct ksym *s = k && addr ? kallsyms__find(k, addr) : NULL;

	if (!s)
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	else if (with_offset)
		snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
	else
		snprintf(buf, len, "%s", s->name);
	return buf;
}
