// SPDX-License-Identifier: GPL-2.0
#include "schedlens/table.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cell {
	char *text;
	char *csv;
	size_t span;	/* text output: columns this cell covers (0 or 1: its own) */
};

struct row {
	struct cell *cells;
	bool header;
};

struct column {
	enum table_align align;
	int min_width;
	char *sep;
};

struct table {
	size_t ncols, nrows, cap;
	struct column *cols;
	struct row *rows;
	char *title;
};

struct table *table__new(size_t ncols)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->ncols = ncols;
	t->cols = calloc(ncols ?: 1, sizeof(*t->cols));
	if (!t->cols) {
		free(t);
		return NULL;
	}
	return t;
}

void table__delete(struct table *t)
{
	size_t r, c;

	if (!t)
		return;
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			free(t->rows[r].cells[c].text);
			free(t->rows[r].cells[c].csv);
		}
		free(t->rows[r].cells);
	}
	for (c = 0; c < t->ncols; c++)
		free(t->cols[c].sep);
	free(t->rows);
	free(t->cols);
	free(t->title);
	free(t);
}

int table__set_title(struct table *t, const char *title)
{
	free(t->title);
	t->title = strdup(title);
	return t->title ? 0 : -ENOMEM;
}

void table__set_align(struct table *t, size_t col, enum table_align a)
{
	if (col < t->ncols)
		t->cols[col].align = a;
}

void table__set_width(struct table *t, size_t col, int min_width)
{
	if (col < t->ncols)
		t->cols[col].min_width = min_width;
}

int table__set_sep(struct table *t, size_t col, const char *sep)
{
	if (col >= t->ncols)
		return -EINVAL;
	free(t->cols[col].sep);
	t->cols[col].sep = strdup(sep);
	return t->cols[col].sep ? 0 : -ENOMEM;
}

static int add_row(struct table *t, bool header)
{
	struct row *rows;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;

		rows = realloc(t->rows, cap * sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		t->rows = rows;
		t->cap = cap;
	}
	t->rows[t->nrows].cells = calloc(t->ncols ?: 1, sizeof(struct cell));
	if (!t->rows[t->nrows].cells)
		return -ENOMEM;
	t->rows[t->nrows].header = header;
	t->nrows++;
	return 0;
}

int table__add_header(struct table *t)
{
	return add_row(t, true);
}

int table__add_row(struct table *t)
{
	return add_row(t, false);
}

int table__span(struct table *t, size_t col, size_t ncols)
{
	if (!t->nrows || col >= t->ncols || !ncols || col + ncols > t->ncols)
		return -EINVAL;
	t->rows[t->nrows - 1].cells[col].span = ncols;
	return 0;
}

size_t table__rows(const struct table *t)
{
	return t->nrows;
}

static int set_cell(struct table *t, size_t col, bool csv, const char *fmt, va_list ap)
{
	struct cell *c;
	char *s;

	if (!t->nrows || col >= t->ncols)
		return -EINVAL;
	if (vasprintf(&s, fmt, ap) < 0)
		return -ENOMEM;
	c = &t->rows[t->nrows - 1].cells[col];
	if (csv) {
		free(c->csv);
		c->csv = s;
	} else {
		free(c->text);
		c->text = s;
	}
	return 0;
}

int table__cell(struct table *t, size_t col, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = set_cell(t, col, false, fmt, ap);
	va_end(ap);
	return ret;
}

int table__csv(struct table *t, size_t col, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = set_cell(t, col, true, fmt, ap);
	va_end(ap);
	return ret;
}

static const char *text_of(const struct cell *c)
{
	return c->text ?: "";
}

static const char *sep_of(const struct table *t, size_t c)
{
	return t->cols[c].sep ?: (c ? "  " : "");
}

static void print_text(const struct table *t, FILE *out)
{
	int *w = calloc(t->ncols ?: 1, sizeof(*w));
	size_t r, c, last;

	if (!w)
		return;
	for (c = 0; c < t->ncols; c++) {
		w[c] = t->cols[c].min_width;
		for (r = 0; r < t->nrows; r++) {
			int len = (int)strlen(text_of(&t->rows[r].cells[c]));

			if (t->rows[r].cells[c].span > 1)
				continue;
			if (len > w[c])
				w[c] = len;
		}
	}
	if (t->title)
		fprintf(out, "%s\n", t->title);
	for (r = 0; r < t->nrows; r++) {
		const struct cell *cells = t->rows[r].cells;

		/* no trailing blanks: the last non-empty cell ends the line */
		for (last = t->ncols; last > 0 && !*text_of(&cells[last - 1]); last--)
			;
		for (c = 0; c < last; c++) {
			bool right = t->cols[c].align == TABLE_RIGHT;
			int pad = c + 1 == last && !right ? 0 : w[c];
			size_t k;

			fputs(sep_of(t, c), out);
			for (k = 1; k < cells[c].span && c + 1 < t->ncols; k++) {
				c++;
				pad += (int)strlen(sep_of(t, c)) + w[c];
			}
			fprintf(out, right ? "%*s" : "%-*s", pad, text_of(&cells[c - (k - 1)]));
		}
		fputc('\n', out);
	}
	free(w);
}

static void md_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("|*_`\\", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

static void print_markdown(const struct table *t, FILE *out)
{
	size_t r, c, nh = 0;
	bool sep_done = false;

	if (t->title)
		fprintf(out, "**%s**\n\n", t->title);
	for (r = 0; r < t->nrows; r++)
		nh += t->rows[r].header;
	for (r = 0; r < t->nrows; r++) {
		if (!t->rows[r].header && !sep_done) {
			if (!nh) {
				fputc('|', out);
				for (c = 0; c < t->ncols; c++)
					fputs("   |", out);
				fputc('\n', out);
			}
			fputc('|', out);
			for (c = 0; c < t->ncols; c++)
				fputs(t->cols[c].align == TABLE_RIGHT ? " ---: |" : " --- |", out);
			fputc('\n', out);
			sep_done = true;
		}
		fputc('|', out);
		for (c = 0; c < t->ncols; c++) {
			const char *s = text_of(&t->rows[r].cells[c]);

			fputc(' ', out);
			/* markdown collapses leading blanks anyway; keep the cell tidy */
			while (*s == ' ')
				s++;
			md_escape(out, s);
			fputs(" |", out);
		}
		fputc('\n', out);
	}
}

void table__csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_csv(const struct table *t, FILE *out)
{
	size_t r, c;

	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			const struct cell *cell = &t->rows[r].cells[c];
			const char *s = cell->csv ?: text_of(cell);

			if (c)
				fputc(',', out);
			while (*s == ' ')
				s++;
			table__csv_field(out, s);
		}
		fputs("\r\n", out);
	}
}

int table__print(const struct table *t, enum table_format fmt, FILE *out)
{
	switch (fmt) {
	case TABLE_MARKDOWN:
		print_markdown(t, out);
		break;
	case TABLE_CSV:
		print_csv(t, out);
		break;
	default:
		print_text(t, out);
		break;
	}
	return ferror(out) ? -EIO : 0;
}

int table_format__parse(const char *s, enum table_format *out)
{
	if (!strcmp(s, "text"))
		*out = TABLE_TEXT;
	else if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		*out = TABLE_MARKDOWN;
	else if (!strcmp(s, "csv"))
		*out = TABLE_CSV;
	else
		return -EINVAL;
	return 0;
}
