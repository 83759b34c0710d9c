/* SPDX-License-Identifier: GPL-2.0 */
/* Internal to src/lib/compare-*.c: the table renderers behind compare__render(). */
#ifndef SCHEDLENS_COMPARE_INT_H
#define SCHEDLENS_COMPARE_INT_H

#include "schedlens/compare.h"
#include "schedlens/table.h"

#define RENDER_MAX_DOCS 16

/* Renders the table of @metric within @group. */
typedef int (*render_table_fn)(const struct compare_render *r, const char *group,
			       const char *metric, enum table_format fmt, FILE *out,
			       struct errbuf *err);

/* Call @fn for every (group, selected metric) of the base document, in document order. */
int render__each_table(const struct compare_render *r, enum table_format fmt, FILE *out,
		       struct errbuf *err, render_table_fn fn);

int render__mmtests(const struct compare_render *r, enum table_format fmt, FILE *out,
		    struct errbuf *err);
int render__perf_stat(const struct compare_render *r, enum table_format fmt, FILE *out,
		      struct errbuf *err);
int render__default(const struct compare_render *r, enum table_format fmt, FILE *out,
		    struct errbuf *err);

#endif
