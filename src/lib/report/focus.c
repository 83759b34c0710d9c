// SPDX-License-Identifier: GPL-2.0
#include "schedlens/focus.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct focus {
	struct focus_row *rows;		/* list order */
	size_t nr;
	int *by_name;			/* indexes into rows, sorted by name */
	char *names;			/* one buffer holding every name */
	unsigned int *seen;		/* per row: last sample that counted it (through) */
	struct focus_lines {
		struct focus_line *v;
		size_t nr, alloc;
	} *lines;			/* per row: its self samples by source line */
	unsigned int stamp;
	struct focus_row any;
	uint64_t nr_samples, period;
};

static int by_name_cmp(const void *a, const void *b, void *rows)
{
	const struct focus_row *r = rows;

	return strcmp(r[*(const int *)a].name, r[*(const int *)b].name);
}

static int parse_list(struct focus *f, char *text)
{
	char *save = NULL, *line;
	size_t alloc = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#'), *end;

		if (hash)
			*hash = '\0';
		line += strspn(line, " \t");
		end = line + strcspn(line, " \t\r");
		*end = '\0';
		if (!*line)
			continue;
		if (f->nr == alloc) {
			struct focus_row *n = realloc(f->rows, (alloc = alloc ? alloc * 2 : 64) *
							       sizeof(*n));
			if (!n)
				return -ENOMEM;
			f->rows = n;
		}
		memset(&f->rows[f->nr], 0, sizeof(f->rows[0]));
		f->rows[f->nr++].name = line;
	}
	return 0;
}

struct focus *focus__load(const char *what, const char *datadir, struct errbuf *err)
{
	struct focus *f = calloc(1, sizeof(*f));
	char path[4096];
	size_t i, wl = strlen(what);
	int ret;

	if (!f) {
		err__set(err, -ENOMEM, "focus: %s", strerror(ENOMEM));
		return NULL;
	}
	if (strchr(what, '/') || (wl > 5 && !strcmp(what + wl - 5, ".list")))
		snprintf(path, sizeof(path), "%s", what);
	else
		snprintf(path, sizeof(path), "%s/focus/%s.list", datadir, what);
	ret = read_file_all(path, &f->names, NULL);
	if (ret) {
		err__set(err, ret, "cannot read focus list '%s': %s", path, strerror(-ret));
		goto out_free;
	}
	ret = parse_list(f, f->names);
	if (!ret && !f->nr)
		ret = err__set(err, -EINVAL, "focus list '%s' names no function", path);
	if (ret)
		goto out_free;
	f->by_name = malloc(f->nr * sizeof(*f->by_name));
	f->seen = calloc(f->nr, sizeof(*f->seen));
	f->lines = calloc(f->nr, sizeof(*f->lines));
	if (!f->by_name || !f->seen || !f->lines) {
		err__set(err, -ENOMEM, "focus: %s", strerror(ENOMEM));
		goto out_free;
	}
	for (i = 0; i < f->nr; i++)
		f->by_name[i] = (int)i;
	qsort_r(f->by_name, f->nr, sizeof(*f->by_name), by_name_cmp, f->rows);
	f->any.name = "(any listed)";
	return f;
out_free:
	focus__delete(f);
	return NULL;
}

void focus__delete(struct focus *f)
{
	size_t i, j;

	if (!f)
		return;
	free(f->rows);
	free(f->by_name);
	free(f->seen);
	for (i = 0; f->lines && i < f->nr; i++) {
		for (j = 0; j < f->lines[i].nr; j++)
			free(f->lines[i].v[j].line);
		free(f->lines[i].v);
	}
	free(f->lines);
	free(f->names);
	free(f);
}

/* strcmp of @sym cut at its first '.' (compiler clones: foo.isra.0, foo.constprop.0) */
static int name_cmp(const char *sym, size_t len, const char *name)
{
	int c = strncmp(sym, name, len);

	if (c)
		return c;
	return name[len] ? -1 : 0;
}

int focus__find(const struct focus *f, const char *sym)
{
	size_t lo = 0, hi = f->nr, len;

	if (!sym)
		return -1;
	len = strcspn(sym, ".");
	if (!len)
		len = strlen(sym);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = name_cmp(sym, len, f->rows[f->by_name[mid]].name);

		if (!c)
			return f->by_name[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

int focus__add(struct focus *f, const char *const *syms, size_t nr, size_t nself,
	       uint64_t period)
{
	bool through_any = false, self_any = false;
	size_t i;
	int k;

	if (!++f->stamp) {
		memset(f->seen, 0, f->nr * sizeof(*f->seen));
		f->stamp = 1;
	}
	f->nr_samples++;
	f->period += period;
	for (i = 0; i < nr; i++) {
		k = focus__find(f, syms[i]);
		if (k < 0)
			continue;
		if (f->seen[k] == f->stamp)
			continue;
		if (i < nself) {
			f->rows[k].self_samples++;
			f->rows[k].self_period += period;
			self_any = true;
		}
		f->seen[k] = f->stamp;
		f->rows[k].through_samples++;
		f->rows[k].through_period += period;
		through_any = true;
	}
	if (self_any) {
		f->any.self_samples++;
		f->any.self_period += period;
	}
	if (through_any) {
		f->any.through_samples++;
		f->any.through_period += period;
	}
	return 0;
}

size_t focus__rows(const struct focus *f, const struct focus_row **rows)
{
	*rows = f->rows;
	return f->nr;
}

void focus__totals(const struct focus *f, struct focus_row *any, uint64_t *nr_samples,
		   uint64_t *period)
{
	*any = f->any;
	*nr_samples = f->nr_samples;
	*period = f->period;
}

int focus__add_line(struct focus *f, int idx, const char *line, uint64_t period)
{
	struct focus_lines *l;
	size_t i;

	if (idx < 0 || (size_t)idx >= f->nr)
		return 0;
	l = &f->lines[idx];
	for (i = 0; i < l->nr && strcmp(l->v[i].line, line); i++)
		;
	if (i == l->nr) {
		if (l->nr == l->alloc) {
			size_t na = l->alloc ? l->alloc * 2 : 8;
			struct focus_line *n = realloc(l->v, na * sizeof(*n));

			if (!n)
				return -ENOMEM;
			l->v = n;
			l->alloc = na;
		}
		l->v[i] = (struct focus_line){ strdup(line), 0, 0 };
		if (!l->v[i].line)
			return -ENOMEM;
		l->nr++;
	}
	l->v[i].samples++;
	l->v[i].period += period;
	return 0;
}

static int line_cmp(const void *a, const void *b)
{
	const struct focus_line *x = a, *y = b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return strcmp(x->line, y->line);
}

size_t focus__lines(struct focus *f, int idx, const struct focus_line **lines)
{
	struct focus_lines *l;

	*lines = NULL;
	if (idx < 0 || (size_t)idx >= f->nr)
		return 0;
	l = &f->lines[idx];
	if (l->nr > 1)	/* a function without lines has no array (qsort wants one) */
		qsort(l->v, l->nr, sizeof(*l->v), line_cmp);
	*lines = l->v;
	return l->nr;
}
