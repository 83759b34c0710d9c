// SPDX-License-Identifier: GPL-2.0
/* Source text of attributed lines, and the per-line attribution annotate prints. */
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/symlines.h"
#include "symbols-int.h"

struct sym_src {
	char *file;
	char *path;		/* the file read, NULL when none was found */
	char *text;		/* whole file, NULL when it could not be read */
	size_t *lines;		/* offset of each line start */
	size_t nr_lines;
	struct sym_src *next;
};

void sym_src__delete_all(struct sym_src *src)
{
	struct sym_src *n;

	for (; src; src = n) {
		n = src->next;
		free(src->file);
		free(src->path);
		free(src->text);
		free(src->lines);
		free(src);
	}
}

static int src_read(struct sym_src *src, const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, alloc = 0, i, n = 0;
	int ret = 0;

	if (!f)
		return -errno;
	for (;;) {
		size_t got;

		if (len + 4096 + 1 > alloc) {
			char *t = realloc(src->text, alloc = (alloc + 4096) * 2);

			if (!t) {
				ret = -ENOMEM;
				goto out_close;
			}
			src->text = t;
		}
		got = fread(src->text + len, 1, alloc - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	src->text[len] = '\0';
	for (i = 0; i < len; i++)
		n += src->text[i] == '\n';
	src->lines = malloc((n + 2) * sizeof(*src->lines));
	if (!src->lines) {
		ret = -ENOMEM;
		goto out_close;
	}
	src->lines[src->nr_lines++] = 0;
	for (i = 0; i < len; i++) {
		if (src->text[i] == '\n') {
			src->text[i] = '\0';
			if (i + 1 < len)
				src->lines[src->nr_lines++] = i + 1;
		}
	}
out_close:
	fclose(f);
	return ret;
}

/* DW_AT_comp_dir of the unit holding @addr of @d, or NULL */
static const char *comp_dir(struct symbols *s, struct sym_dso *d, uint64_t addr)
{
	Dwarf_Attribute attr;
	Dwarf_Addr bias;
	Dwarf_Die *cu;

	if (!d)
		return NULL;
	sym_dso__load(s, d);
	if (!d->mod || !(cu = dwfl_module_addrdie(d->mod, addr + d->kdelta, &bias)))
		return NULL;
	return dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
}

static const char *skip_dot_slash(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2 + strspn(p + 2, "/");
	return p;
}

static int src_try(struct sym_src *src, const char *dir, const char *rel)
{
	char path[4096];

	rel = skip_dot_slash(rel + strspn(rel, "/"));
	if (!*rel || snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (src_read(src, path))
		return -ENOENT;
	src->path = strdup(path);
	return src->path ? 0 : -ENOMEM;
}

/*
 * @file under @dir: its path relative to the compilation directory @cdir, then the path with
 * leading components cut, longest first, until a file exists
 */
static int src_find(struct sym_src *src, const char *dir, const char *cdir, const char *file)
{
	const char *f = skip_dot_slash(file), *p;
	size_t cl;

	if (cdir) {
		cdir = skip_dot_slash(cdir);
		cl = strlen(cdir);
		while (cl > 1 && cdir[cl - 1] == '/')
			cl--;
		if (cl && !strncmp(f, cdir, cl) && f[cl] == '/' && !src_try(src, dir, f + cl))
			return 0;
	}
	for (p = f; p; p = strchr(p, '/')) {
		p += *p == '/';
		if (!src_try(src, dir, p))
			return 0;
	}
	return -ENOENT;
}

static struct sym_src *src_get(struct symbols *s, const char *dir, struct sym_dso *d,
			       uint64_t addr, const char *file)
{
	struct sym_src *src;
	const char *cdir;
	char path[4096];

	for (src = s->srcs; src; src = src->next)
		if (!strcmp(src->file, file))
			return src;
	src = calloc(1, sizeof(*src));
	if (!src || !(src->file = strdup(file))) {
		free(src);
		return NULL;
	}
	src->next = s->srcs;
	s->srcs = src;
	if (dir) {
		src_find(src, dir, comp_dir(s, d, addr), file);
		return src;
	}
	cdir = file[0] != '/' ? comp_dir(s, d, addr) : NULL;
	if (cdir && cdir[0] == '/')
		snprintf(path, sizeof(path), "%s%s/%s", s->symfs, cdir, file);
	else
		snprintf(path, sizeof(path), "%s%s", file[0] == '/' ? s->symfs : "", file);
	if (!src_read(src, path))
		src->path = strdup(path);
	else if (*s->symfs && !src_read(src, file))
		src->path = strdup(file);
	return src;
}

static int src_line(const struct sym_src *src, unsigned int line, char *buf, size_t len)
{
	if (!src)
		return -ENOMEM;
	if (!src->text)
		return -ENOENT;
	if (!line || line > src->nr_lines)
		return -ERANGE;
	snprintf(buf, len, "%s", src->text + src->lines[line - 1]);
	return 0;
}

int symbols__source_line(struct symbols *s, const char *file, unsigned int line, char *buf,
			 size_t len)
{
	int ret = src_line(src_get(s, NULL, NULL, 0, file), line, buf, len);

	return ret == -ERANGE ? -ENOENT : ret;
}

int sym_line__source(struct symbols *s, const char *dir, const struct sym_line *e, char *buf,
		     size_t len, const char **path)
{
	struct sym_src *src;

	*path = NULL;
	if (!e->srcfile)
		return -ENOENT;
	src = src_get(s, dir, e->dso, e->addr, e->srcfile);
	if (src)
		*path = src->path;
	return src_line(src, e->line, buf, len);
}

int sym_lines__add(struct sym_lines *l, const struct sym_loc *loc, uint64_t period)
{
	struct sym_line *e = NULL;
	size_t i;

	for (i = l->nr; i-- > 0;) {
		struct sym_line *c = &l->v[i];

		if (loc->srcfile && c->srcfile ?
			    c->line == loc->line && !strcmp(c->srcfile, loc->srcfile) :
			    !loc->srcfile && !c->srcfile && c->addr == loc->addr) {
			e = c;
			break;
		}
	}
	if (!e) {
		if (l->nr == l->alloc) {
			size_t na = l->alloc ? l->alloc * 2 : 32;
			struct sym_line *n = realloc(l->v, na * sizeof(*n));

			if (!n)
				return -ENOMEM;
			l->v = n;
			l->alloc = na;
		}
		e = &l->v[l->nr++];
		memset(e, 0, sizeof(*e));
		e->srcfile = loc->srcfile;
		e->line = loc->srcfile ? loc->line : 0;
		e->addr = loc->addr;
		e->inl = loc->inl;
		e->dso = loc->dso;
	}
	if (loc->addr < e->addr)
		e->addr = loc->addr;
	e->nr_samples++;
	e->period += period;
	l->nr_samples++;
	l->period += period;
	return 0;
}

static int line_cmp(const void *a, const void *b, void *by_samples)
{
	const struct sym_line *x = a, *y = b;
	bool bs = *(const bool *)by_samples;
	uint64_t wx = bs ? x->nr_samples : x->period;
	uint64_t wy = bs ? y->nr_samples : y->period;
	int c;

	if (wx != wy)
		return wx > wy ? -1 : 1;
	if (!x->srcfile != !y->srcfile)
		return x->srcfile ? -1 : 1;
	if (x->srcfile && (c = strcmp(x->srcfile, y->srcfile)))
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void sym_lines__sort(struct sym_lines *l, bool by_samples)
{
	qsort_r(l->v, l->nr, sizeof(*l->v), line_cmp, &by_samples);
}

void sym_lines__exit(struct sym_lines *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
