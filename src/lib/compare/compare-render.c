// SPDX-License-Identifier: GPL-2.0
/*
 * compare__render(): the default table (medians, bootstrap interval of the ratio, Mann-Whitney
 * U) and perf stat's before/after table with "+-SEM%", gains and derived ratios (IPC, miss
 * ratios); the MMTests table lives in compare-mmtests.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare-int.h"

int render__each_table(const struct compare_render *r, enum table_format fmt, FILE *out,
		       struct errbuf *err, render_table_fn fn)
{
	json_t *seen = json_object();
	const json_t *e, *m;
	const char *metric, *group;
	char label[128], key[64], gk[512];
	size_t i;
	int ret = 0;

	if (!seen)
		return err__set(err, -ENOMEM, "out of memory");
	json_array_foreach(json_object_get(r->docs[0], "entries"), i, e) {
		group = compare__row(r->docs[0], e, label, sizeof(label), key, sizeof(key));
		json_object_foreach(json_object_get(e, "metrics"), metric, m) {
			if (!compare__selected(r, metric))
				continue;
			snprintf(gk, sizeof(gk), "%s\n%s", group, metric);
			if (json_object_get(seen, gk))
				continue;
			json_object_set_new(seen, gk, json_true());
			ret = fn(r, group, metric, fmt, out, err);
			if (ret)
				goto out_put;
		}
	}
out_put:
	json_decref(seen);
	return ret;
}

/* Every entry of @group in the base document that has @metric, in order. */
static size_t group_entries(const struct compare_render *r, const char *group, const char *metric,
			    const json_t **out, size_t max)
{
	char label[128], key[64];
	const json_t *e;
	size_t i, n = 0;

	json_array_foreach(json_object_get(r->docs[0], "entries"), i, e) {
		if (n < max &&
		    !strcmp(compare__row(r->docs[0], e, label, sizeof(label), key, sizeof(key)),
			    group) &&
		    json_object_get(json_object_get(e, "metrics"), metric))
			out[n++] = e;
	}
	return n;
}

static const json_t *doc_entry(const struct compare_render *r, size_t d, const json_t *base)
{
	return d ? compare__find_entry(r->docs[d], json_string_value(json_object_get(base, "id")))
		 : base;
}

/* "%'.0f" without relying on the locale: 19699563964 -> "19,699,563,964" */
static void thousands(double v, char *buf, size_t len)
{
	char digits[64];
	size_t n, i, o = 0;
	const char *s = digits;

	snprintf(digits, sizeof(digits), "%.0f", v);
	if (*s == '-' && o + 1 < len)
		buf[o++] = *s++;
	n = strlen(s);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = s[i];
	}
	buf[o] = '\0';
}

/*
 * A value as perf stat prints it: counts as integers with thousands separators, seconds with
 * at least 4 significant digits (0.05012, not 0.05), anything else with 2 decimals.
 */
static void fmt_value(double v, bool counts, bool seconds, char *buf, size_t len)
{
	int dec = 2;

	if (counts) {
		thousands(v, buf, len);
		return;
	}
	if (seconds && v != 0 && isfinite(v))
		dec = (int)fmax(2, 3 - floor(log10(fabs(v))));
	snprintf(buf, len, "%.*f", dec, v);
}


/* Values of @metric per iteration, or for derived "a/b" ratios (times @scale) per iteration. */
static size_t metric_values(const json_t *entry, const char *num, const char *den, double scale,
			    double **out)
{
	size_t n = json_array_size(json_object_get(entry, "iterations")), k = 0, i;
	const json_t *it;

	*out = malloc((n ?: 1) * sizeof(**out));
	if (!*out)
		return 0;
	json_array_foreach(json_object_get(entry, "iterations"), i, it) {
		const json_t *vals = json_object_get(it, "values");
		const json_t *a = json_object_get(vals, num), *b = den ? json_object_get(vals, den) : NULL;

		if (!json_is_number(a) || (den && (!json_is_number(b) || json_number_value(b) == 0)))
			continue;
		(*out)[k++] = den ? scale * json_number_value(a) / json_number_value(b)
				  : json_number_value(a);
	}
	return k;
}

#define VCOL(d) ((d) ? 2 * (d) : 1)
#define GCOL(d) (2 * (d) + 1)

struct ps_spec {
	const char *title;	/* column title stem */
	const char *num, *den;	/* metric, or ratio num / den */
	double scale;
	enum better better;
};

/* whether every value of the table's metric, in every document, is a whole number */
static bool table_counts(const struct compare_render *r, const json_t *const *entries,
			 size_t ne, const struct ps_spec *sp)
{
	size_t i, d, n, k;
	bool counts = !sp->den;
	double *v;

	for (i = 0; i < ne && counts; i++)
		for (d = 0; d < r->ndocs && counts; d++) {
			const json_t *de = doc_entry(r, d, entries[i]);

			v = NULL;
			n = de ? metric_values(de, sp->num, NULL, 1, &v) : 0;
			for (k = 0; k < n; k++)
				counts &= v[k] == floor(v[k]);
			free(v);
		}
	return counts;
}

static int ps_table(const struct compare_render *r, const char *group, const struct ps_spec *sp,
		    enum table_format fmt, FILE *out, struct errbuf *err)
{
	const json_t *entries[512];
	size_t ne = group_entries(r, group, sp->num, entries, 512), i, d;
	struct table *t = table__new(2 * r->ndocs);
	char label[128], key[64], buf[64], title[256];
	double *v = NULL;
	const char *unit;
	bool counts, seconds;
	int ret = -ENOMEM;

	if (!t)
		goto out_free;
	ret = 0;
	if (!ne)
		goto out_free;
	compare__row(r->docs[0], entries[0], label, sizeof(label), key, sizeof(key));
	snprintf(title, sizeof(title), "%s %s, %s", group, sp->title, compare__sign_note(sp->better));
	ret = table__set_title(t, title) ?: table__add_header(t) ?: table__cell(t, 0, "%s", key);
	for (d = 0; d < r->ndocs && !ret; d++) {
		ret = table__cell(t, VCOL(d), "%s %s", sp->title,
				  d ? (r->ndocs > 2 ? r->labels[d] : "after") : "before");
		if (d && !ret)
			ret = table__cell(t, GCOL(d), "%s", sp->better == BETTER_NONE ? "change" : "gain");
	}
	counts = table_counts(r, entries, ne, sp);
	unit = results__unit(entries[0], sp->num);
	seconds = !sp->den && (!strcmp(unit, "s") || !strcmp(unit, "seconds"));
	for (i = 0; i < ne && !ret; i++) {
		struct summary base = { 0 };

		compare__row(r->docs[0], entries[i], label, sizeof(label), key, sizeof(key));
		ret = table__add_row(t) ?: table__cell(t, 0, "%s", label);
		for (d = 0; d < r->ndocs && !ret; d++) {
			const json_t *de = doc_entry(r, d, entries[i]);
			struct summary s;
			size_t n = 0;

			free(v);
			v = NULL;
			if (de)
				n = metric_values(de, sp->num, sp->den, sp->scale, &v);
			if (!n || stats__summarize(v, n, &s)) {
				ret = table__cell(t, VCOL(d), "-");
				continue;
			}
			fmt_value(counts ? round(s.mean) : s.mean, counts, seconds, buf, sizeof(buf));
			ret = table__cell(t, VCOL(d), "%s +-%.2f%%", buf, s.sem_pct) ?:
			      table__csv(t, VCOL(d), "%.*f", counts ? 0 : 4, s.mean);
			if (!d)
				base = s;
			else if (!ret && base.n)
				ret = table__cell(t, GCOL(d), "%.2f%%",
						  compare__change_pct(base.mean, s.mean,
								      sp->better == BETTER_NONE
									      ? BETTER_HIGHER
									      : sp->better)) ?:
				      table__csv(t, GCOL(d), "%.2f",
						 compare__change_pct(base.mean, s.mean,
								     sp->better == BETTER_NONE
									     ? BETTER_HIGHER
									     : sp->better));
		}
	}
	for (d = 1; d < 2 * r->ndocs; d++)
		table__set_align(t, d, TABLE_RIGHT);
	if (!ret && (table__print(t, fmt, out) || fputc('\n', out) == EOF))
		ret = -EIO;
out_free:
	if (ret)
		err__set(err, ret, "cannot render the perf-stat table of '%s' %s", group, sp->num);
	free(v);
	table__delete(t);
	return ret;
}

static int ps_metric(const struct compare_render *r, const char *group, const char *metric,
		     enum table_format fmt, FILE *out, struct errbuf *err)
{
	const json_t *e[1];
	struct ps_spec sp = { metric, metric, NULL, 1, BETTER_NONE };

	if (group_entries(r, group, metric, e, 1))
		sp.better = results__better(e[0], metric);
	return ps_table(r, group, &sp, fmt, out, err);
}

static const struct ps_spec derived[] = {
	{ "IPC", "instructions", "cycles", 1, BETTER_HIGHER },
	{ "L1 misses/total*100", "L1-dcache-load-misses", "L1-dcache-loads", 100, BETTER_LOWER },
	{ "LLC misses/total*100", "LLC-load-misses", "LLC-loads", 100, BETTER_LOWER },
};

static int ps_derived(const struct compare_render *r, const char *group, const char *metric,
		      enum table_format fmt, FILE *out, struct errbuf *err)
{
	const json_t *e[1];
	size_t i;
	int ret = 0;

	/* after the group's last selected metric: one table per derived ratio it can form */
	for (i = 0; i < ARRAY_SIZE(derived) && !ret; i++) {
		if (strcmp(metric, derived[i].den) ||
		    !group_entries(r, group, derived[i].num, e, 1) ||
		    !json_object_get(json_object_get(e[0], "metrics"), derived[i].den))
			continue;
		ret = ps_table(r, group, &derived[i], fmt, out, err);
	}
	return ret;
}

int render__perf_stat(const struct compare_render *r, enum table_format fmt, FILE *out,
		      struct errbuf *err)
{
	return render__each_table(r, fmt, out, err, ps_metric) ?:
	       render__each_table(r, fmt, out, err, ps_derived);
}

static void fmt_num(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
}

static int def_table(const struct compare_render *r, const char *group, const char *metric,
		     enum table_format fmt, FILE *out, struct errbuf *err)
{
	const json_t *entries[512];
	size_t ne = group_entries(r, group, metric, entries, 512), i, d, c;
	bool many = r->ndocs > 2;
	struct table *t = table__new(9 + many);
	char label[128], key[64], b1[64], b2[64], title[256];
	int ret = -ENOMEM;

	if (!t)
		goto out_free;
	ret = 0;
	if (!ne)
		goto out_free;
	compare__row(r->docs[0], entries[0], label, sizeof(label), key, sizeof(key));
	snprintf(title, sizeof(title), "%s %s%s%s%s, %s", group, metric,
		 *results__unit(entries[0], metric) ? " (" : "", results__unit(entries[0], metric),
		 *results__unit(entries[0], metric) ? ")" : "",
		 compare__sign_note(results__better(entries[0], metric)));
	ret = table__set_title(t, title) ?: table__add_header(t);
	c = 0;
	ret = ret ?: table__cell(t, c++, "%s", key);
	if (many)
		ret = ret ?: table__cell(t, c++, "new");
	ret = ret ?: table__cell(t, c++, "n") ?: table__cell(t, c++, "%s median", r->labels[0]) ?:
	      table__cell(t, c++, "%s median", many ? "new" : r->labels[1]) ?:
	      table__cell(t, c++, "change") ?:
	      table__cell(t, c++, "%.0f%% CI of change", 100 * (1 - r->opts.alpha)) ?:
	      table__cell(t, c++, "p") ?: table__cell(t, c++, "test") ?:
	      table__cell(t, c++, "verdict");
	for (c = 1; c < 8 + (size_t)many; c++)
		table__set_align(t, c, TABLE_RIGHT);
	for (i = 0; i < ne && !ret; i++) {
		compare__row(r->docs[0], entries[i], label, sizeof(label), key, sizeof(key));
		for (d = 1; d < r->ndocs && !ret; d++) {
			const json_t *de = doc_entry(r, d, entries[i]);
			struct metric_cmp mc;
			struct errbuf e2;

			c = 0;
			ret = table__add_row(t) ?: table__cell(t, c++, "%s", label);
			if (many)
				ret = ret ?: table__cell(t, c++, "%s", r->labels[d]);
			if (ret)
				break;
			if (!de || compare__metric(entries[i], de, metric, &r->opts, &mc, &e2)) {
				ret = table__cell(t, c + 6, "%s", de ? "no values" : "missing");
				continue;
			}
			fmt_num(mc.base.median, b1, sizeof(b1));
			fmt_num(mc.new.median, b2, sizeof(b2));
			ret = table__cell(t, c++, "%zu/%zu", mc.base.n, mc.new.n) ?:
			      table__cell(t, c++, "%s", b1) ?: table__cell(t, c++, "%s", b2);
			if (!ret)
				ret = isnan(mc.change_pct)
					      ? table__cell(t, c, "-")
					      : table__cell(t, c, "%+.2f%%", mc.change_pct) ?:
						table__csv(t, c, "%.4f", mc.change_pct);
			c++;
			if (!ret)
				ret = isnan(mc.change_lo)
					      ? table__cell(t, c, "-")
					      : table__cell(t, c, "%+.2f%% .. %+.2f%%", mc.change_lo,
							    mc.change_hi) ?:
						table__csv(t, c, "%.4f..%.4f", mc.change_lo,
							   mc.change_hi);
			c++;
			if (!ret)
				ret = isnan(mc.p_value) ? table__cell(t, c, "-")
							: table__cell(t, c, "%.3g", mc.p_value);
			c++;
			ret = ret ?: table__cell(t, c++, "%s", cmp_test__name(mc.test)) ?:
			      table__cell(t, c++, "%s", cmp_verdict__name(mc.verdict));
		}
	}
	if (!ret && (table__print(t, fmt, out) || fputc('\n', out) == EOF))
		ret = -EIO;
out_free:
	if (ret)
		err__set(err, ret, "cannot render the table of '%s' %s", group, metric);
	table__delete(t);
	return ret;
}

int render__default(const struct compare_render *r, enum table_format fmt, FILE *out,
		    struct errbuf *err)
{
	return render__each_table(r, fmt, out, err, def_table);
}

int compare__render(const struct compare_render *r, enum table_format fmt, FILE *out,
		    struct errbuf *err)
{
	if (r->ndocs < 1 || r->ndocs > RENDER_MAX_DOCS)
		return err__set(err, -EINVAL, "compare needs 1 to %d results documents",
				RENDER_MAX_DOCS);
	/* one document: its summary, MMTests' rows without a comparison */
	switch (r->ndocs == 1 && r->style == COMPARE_STYLE_DEFAULT ? COMPARE_STYLE_MMTESTS
								     : r->style) {
	case COMPARE_STYLE_MMTESTS:
		return render__mmtests(r, fmt, out, err);
	case COMPARE_STYLE_PERF_STAT:
		return render__perf_stat(r, fmt, out, err);
	default:
		return render__default(r, fmt, out, err);
	}
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* the suite a document comes from, or "" (a table typed from a thread has none) */
static const char *suite_of(const json_t *doc)
{
	return json_string_value(json_object_get(json_object_get(doc, "run"), "suite"))
		       ?: json_string_value(json_object_get(doc, "suite")) ?: "";
}

/* One row of the tidy table: @e's @metric in document @d against BASE. NULL on ENOMEM. */
static json_t *tidy_row(const struct compare_render *r, const json_t *e, const char *metric,
			size_t d, const struct metric_cmp *mc)
{
	char label[256], key[64];

	return json_pack("{s:s, s:s, s:O, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:o, s:o, s:o, s:o, "
			 "s:o, s:o, s:o, s:o, s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
			 "suite", suite_of(r->docs[0]),
			 "group", compare__row(r->docs[0], e, label, sizeof(label), key, sizeof(key)),
			 "entry", json_object_get(e, "id"), "metric", metric,
			 "unit", results__unit(e, metric), "better", better__name(mc->better),
			 "base", r->labels[0], "new", r->labels[d],
			 "n_base", (int)mc->base.n, "n_new", (int)mc->new.n,
			 "base_median", num_or_null(mc->base.median),
			 "new_median", num_or_null(mc->new.median),
			 "base_mean", num_or_null(mc->base.mean),
			 "new_mean", num_or_null(mc->new.mean),
			 "change_pct", num_or_null(mc->change_pct),
			 "change_lo", num_or_null(mc->change_lo),
			 "change_hi", num_or_null(mc->change_hi),
			 "p_value", num_or_null(mc->p_value), "test", cmp_test__name(mc->test),
			 "verdict", cmp_verdict__name(mc->verdict),
			 "median_change_pct", num_or_null(mc->median_change_pct),
			 "median_ratio_lo", num_or_null(mc->median_lo),
			 "median_ratio_hi", num_or_null(mc->median_hi),
			 "mwu_p", num_or_null(mc->mwu_p), "ratio", num_or_null(mc->ratio));
}

json_t *compare__to_json(const struct compare_render *r)
{
	json_t *doc = json_pack("{s:s, s:s, s:[]}", "base", r->labels[0], "sign",
				"change_pct > 0: NEW is better (metrics with a direction); "
				"an increase (metrics without)", "comparisons"), *arr;
	const json_t *e, *m;
	const char *metric;
	size_t i, d;

	if (!doc)
		return NULL;
	arr = json_object_get(doc, "comparisons");
	json_array_foreach(json_object_get(r->docs[0], "entries"), i, e) {
		json_object_foreach(json_object_get(e, "metrics"), metric, m) {
			if (!compare__selected(r, metric))
				continue;
			for (d = 1; d < r->ndocs; d++) {
				const json_t *de = doc_entry(r, d, e);
				struct metric_cmp mc;
				struct errbuf err;

				if (!de || compare__metric(e, de, metric, &r->opts, &mc, &err))
					continue;
				if (json_array_append_new(arr, tidy_row(r, e, metric, d, &mc))) {
					json_decref(doc);
					return NULL;
				}
			}
		}
	}
	return doc;
}

/* a CSV field from a JSON value: numbers as they are, null as nothing */
static void csv_field(FILE *out, const json_t *v)
{
	if (json_is_null(v) || !v)
		return;
	if (json_is_integer(v)) {
		fprintf(out, "%lld", (long long)json_integer_value(v));
		return;
	}
	if (json_is_real(v)) {
		fprintf(out, "%.10g", json_real_value(v));
		return;
	}
	table__csv_field(out, json_string_value(v) ?: "");
}

int compare__tidy_csv(const struct compare_render *r, FILE *out, struct errbuf *err)
{
	static const char *const cols[] = {
		"suite", "group", "entry", "metric", "unit", "better", "base", "new", "n_base",
		"n_new", "base_median", "new_median", "base_mean", "new_mean", "change_pct",
		"change_lo", "change_hi", "p_value", "test", "verdict",
	};
	json_t *doc = compare__to_json(r), *row;
	size_t i, c;

	if (!doc)
		return err__set(err, -ENOMEM, "out of memory");
	for (c = 0; c < ARRAY_SIZE(cols); c++)
		fprintf(out, "%s%s", c ? "," : "", cols[c]);
	fputc('\n', out);
	json_array_foreach(json_object_get(doc, "comparisons"), i, row) {
		for (c = 0; c < ARRAY_SIZE(cols); c++) {
			if (c)
				fputc(',', out);
			csv_field(out, json_object_get(row, cols[c]));
		}
		fputc('\n', out);
	}
	json_decref(doc);
	return ferror(out) ? err__set(err, -EIO, "cannot write the table") : 0;
}
