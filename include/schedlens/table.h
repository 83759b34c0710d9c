/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables of text cells printed as aligned text (a terminal, a mail), markdown or CSV.
 * A table has a title, header rows and body rows. Each cell holds its display text and,
 * optionally, a plain value for CSV (e.g. "11.28" where the text says "*  11.28%*").
 * Text output: each column is padded to its widest cell (or its minimum width), left or right
 * aligned, and preceded by the column's separator (two spaces unless set).
 */
#ifndef SCHEDLENS_TABLE_H
#define SCHEDLENS_TABLE_H

#include <stdio.h>
#include <stddef.h>

enum table_format { TABLE_TEXT, TABLE_MARKDOWN, TABLE_CSV };
enum table_align { TABLE_LEFT, TABLE_RIGHT };

struct table;

/* A table of @ncols columns, left aligned. NULL on ENOMEM. */
struct table *table__new(size_t ncols);
void table__delete(struct table *t);

/* Title printed above the table (text: a line; markdown: bold; CSV: not printed). */
int table__set_title(struct table *t, const char *title);
void table__set_align(struct table *t, size_t col, enum table_align a);
void table__set_width(struct table *t, size_t col, int min_width);
/* Separator printed before column @col in text output ("" allowed); copied. */
int table__set_sep(struct table *t, size_t col, const char *sep);

/* Start a header row / a body row; cells of the new row are empty until set. 0 or -ENOMEM. */
int table__add_header(struct table *t);
int table__add_row(struct table *t);
/* Set cell @col of the last row. -EINVAL without a row or for a bad column, -ENOMEM. */
int table__cell(struct table *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The CSV value of cell @col of the last row (defaults to its text). */
int table__csv(struct table *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Text output: cell @col of the last row covers @ncols columns (it takes their widths and
 * separators, and does not widen @col). Markdown and CSV print it in @col alone.
 */
int table__span(struct table *t, size_t col, size_t ncols);

size_t table__rows(const struct table *t);

/* Print @t. 0 or -EIO. */
int table__print(const struct table *t, enum table_format fmt, FILE *out);

/* One CSV field to @out, quoted when it holds a comma, a quote or a line end (RFC 4180). */
void table__csv_field(FILE *out, const char *s);
/* Parse "text", "markdown" or "csv"; 0 or -EINVAL. */
int table_format__parse(const char *s, enum table_format *out);

#endif
