// SPDX-License-Identifier: GPL-2.0
#include "schedlens/kallsyms.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* past the last symbol, addresses this far still belong to it */
#define LAST_SYMBOL_SPAN (1ull << 20)

struct kallsyms {
	struct ksym *syms;
	size_t nr, cap;
	char *names;
	size_t names_len, names_cap;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static long kallsyms__intern(struct kallsyms *k, const char *s)
{
	size_t n = strlen(s) + 1;
	long off;

	if (k->names_len + n > k->names_cap) {
		size_t cap = k->names_cap ? 2 * k->names_cap : 1 << 20;
		char *nn;

		while (cap < k->names_len + n)
			cap *= 2;
		nn = realloc(k->names, cap);
		if (!nn)
			return -ENOMEM;
		k->names = nn;
		k->names_cap = cap;
	}
	off = (long)k->names_len;
	memcpy(k->names + off, s, n);
	k->names_len += n;
	return off;
}

static int kallsyms__add(struct kallsyms *k, uint64_t addr, const char *name, const char *mod)
{
	long n, m = 0;

	if (k->nr == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 65536;
		struct ksym *ns = realloc(k->syms, cap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		k->syms = ns;
		k->cap = cap;
	}
	n = kallsyms__intern(k, name);
	if (n < 0)
		return (int)n;
	if (*mod) {
		m = kallsyms__intern(k, mod);
		if (m < 0)
			return (int)m;
	} else {
		m = -1;
	}
	/* offsets now, pointers once the arena stops moving */
	k->syms[k->nr].addr = addr;
	k->syms[k->nr].name = (const char *)(uintptr_t)n;
	k->syms[k->nr].module = (const char *)(intptr_t)m;
	k->nr++;
	return 0;
}

static int kallsyms__parse_line(struct kallsyms *k, char *line, bool *nonzero)
{
	char *p = line, *end, *name, *mod = "";
	uint64_t addr;
	char type;

	errno = 0;
	addr = strtoull(p, &end, 16);
	if (end == p || errno || *end != ' ')
		return -EINVAL;
	type = end[1];
	if (!type || end[2] != ' ')
		return -EINVAL;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	name = end + 3;
	end = name + strcspn(name, "\t\n ");
	if (*end == '\t') {
		*end = '\0';
		mod = end + 1;
		if (*mod == '[')
			mod++;
		mod[strcspn(mod, "]\n")] = '\0';
	} else {
		*end = '\0';
	}
	if (!*name)
		return -EINVAL;
	*nonzero |= addr != 0;
	return kallsyms__add(k, addr, name, mod);
}

struct kallsyms *kallsyms__load(const char *path, struct errbuf *err)
{
	struct kallsyms *k = calloc(1, sizeof(*k));
	const char *file = path ? path : "/proc/kallsyms";
	bool nonzero = false;
	char *line = NULL;
	size_t cap = 0, i, lineno = 0;
	FILE *f;
	int ret;

	if (!k) {
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	f = fopen(file, "r");
	if (!f) {
		err__set(err, -errno, "cannot open '%s': %s", file, strerror(errno));
		goto out_free;
	}
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		ret = kallsyms__parse_line(k, line, &nonzero);
		if (ret == -ENOMEM) {
			err__set(err, ret, "out of memory");
			goto out_close;
		}
		if (ret) {
			err__set(err, ret, "'%s' line %zu: not a kallsyms line", file, lineno);
			goto out_close;
		}
	}
	if (!k->nr) {
		err__set(err, -ENOENT, "'%s' holds no kernel text symbol", file);
		goto out_close;
	}
	if (!nonzero) {
		err__set(err, -EACCES,
			 "every address in '%s' is 0: kernel.kptr_restrict hides them (run as root "
			 "or sysctl kernel.kptr_restrict=0)", file);
		goto out_close;
	}
	for (i = 0; i < k->nr; i++) {
		intptr_t m = (intptr_t)k->syms[i].module;

		k->syms[i].name = k->names + (uintptr_t)k->syms[i].name;
		k->syms[i].module = m < 0 ? "" : k->names + m;
	}
	qsort(k->syms, k->nr, sizeof(*k->syms), ksym_cmp);
	fclose(f);
	free(line);
	return k;
out_close:
	fclose(f);
out_free:
	free(line);
	kallsyms__delete(k);
	return NULL;
}

void kallsyms__delete(struct kallsyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->names);
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
