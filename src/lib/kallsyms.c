// SPDX-License-Identifier: GPL-2.0
#include "schedlens/kallsyms.h"

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

struct kallsyms {
	struct ksym *syms;
	size_t nr, cap;
	char *text;		/* the whole file; names point into it */
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int kallsyms__add(struct kallsyms *k, uint64_t addr, const char *name, const char *mod)
{
	if (k->nr == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 65536;
		struct ksym *ns = realloc(k->syms, cap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		k->syms = ns;
		k->cap = cap;
	}
	k->syms[k->nr++] = (struct ksym){ addr, name, mod };
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
static int kallsyms__parse_line(struct kallsyms *k, char *line, char *eol, bool *nonzero)
{
	const unsigned char *p = (const unsigned char *)line;
	char *name, *mod = "", *end, *c;
	uint64_t addr = 0;
	int digits = 0;
	char type;

	while (hexdig[*p] && digits < 17) {
		addr = addr << 4 | (uint64_t)(hexdig[*p] - 1);
		p++;
		digits++;
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
	*nonzero |= addr != 0;
	return kallsyms__add(k, addr, name, mod);
}

static int read_all(const char *file, char **out, size_t *len)
{
	size_t cap = 8 << 20, n = 0;
	char *buf = NULL, *nb;
	struct stat st;
	ssize_t got;
	int fd = open(file, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	/* a regular file says its size; /proc/kallsyms says 0 and is about 5 MB */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 2;
	for (;;) {
		if (!buf || n + 1 >= cap) {
			cap = buf ? 2 * cap : cap;
			nb = realloc(buf, cap);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

struct kallsyms *kallsyms__load(const char *path, struct errbuf *err)
{
	struct kallsyms *k = calloc(1, sizeof(*k));
	const char *file = path ? path : "/proc/kallsyms";
	bool nonzero = false;
	size_t lineno = 0, len = 0;
	char *line, *nl, *stop;
	int ret;

	if (!k) {
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	ret = read_all(file, &k->text, &len);
	if (ret) {
		err__set(err, ret, "cannot open '%s': %s", file, strerror(-ret));
		goto out_free;
	}
	for (line = k->text, stop = k->text + len; line < stop; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(stop - line));
		if (!nl)
			nl = stop;
		lineno++;
		ret = nl > line ? kallsyms__parse_line(k, line, nl, &nonzero) : 0;
		if (ret == -ENOMEM) {
			err__set(err, ret, "out of memory");
			goto out_free;
		}
		if (ret) {
			err__set(err, ret, "'%s' line %zu: not a kallsyms line", file, lineno);
			goto out_free;
		}
	}
	if (!k->nr) {
		err__set(err, -ENOENT, "'%s' holds no kernel text symbol", file);
		goto out_free;
	}
	if (!nonzero) {
		err__set(err, -EACCES,
			 "every address in '%s' is 0: kernel.kptr_restrict hides them (run as root "
			 "or sysctl kernel.kptr_restrict=0)", file);
		goto out_free;
	}
	/* /proc/kallsyms comes mostly sorted: sort only when it is not */
	for (lineno = 1; lineno < k->nr && k->syms[lineno - 1].addr <= k->syms[lineno].addr;
	     lineno++)
		;
	if (lineno < k->nr)
		qsort(k->syms, k->nr, sizeof(*k->syms), ksym_cmp);
	return k;
out_free:
	kallsyms__delete(k);
	return NULL;
}

void kallsyms__delete(struct kallsyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->text);
	free(k);
}

size_t kallsyms__nr(const struct kallsyms *k)
{
	return k->nr;
}

const struct ksym *kallsyms__find(const struct kallsyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->nr, mid;

	if (!k->nr || addr < k->syms[0].addr)
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
