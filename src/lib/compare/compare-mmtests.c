// SPDX-License-Identifier: GPL-2.0
/*
 * MMTests' compare-kernels.sh tables: Min, Amean/Hmean, Stddev, CoeffVar, Max, BAmean-95 per
 * row, each document's value with its percentage against the base, "*" instead of the
 * parentheses where the mean -/+ 1.96 SD intervals of the two do not overlap.
 */
#include "schedlens/compare.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare-int.h"
#include "schedlens/table.h"

#define MMTESTS_ALPHA 0.05

double compare__mmtests_pdiff(double new, double base)
{
	if (new == base || new == 0)
		return 0;
	if (base == 0 || isnan(base))
		return 100;
	return new * 100 / base - 100;
}

double compare__mmtests_pndiff(double new, double base)
{
	if (new == base)
		return 0;
	if (new == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100 - new * 100 / base;
}

static double mean_of(const double *v, size_t n, bool hmean)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (hmean && v[i] <= 0)
			return NAN;
		s += hmean ? 1 / v[i] : v[i];
	}
	return hmean ? n / s : s / n;
}

int compare__mmtests_summary(const double *v, size_t n, enum better better,
			     struct mmtests_summary *s)
{
	double *sorted, d = 0, q;
	size_t i, best;

	memset(s, 0, sizeof(*s));
	s->ci_lo = s->ci_hi = s->stddev = NAN;
	if (!n)
		return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, v, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);
	s->n = n;
	s->better = better;
	s->hmean = better == BETTER_HIGHER;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->mean = mean_of(sorted, n, s->hmean);
	/* the best 95%: the lowest values when lower is better, the highest otherwise */
	best = n * 95 / 100 ?: 1;
	s->bmean95 = mean_of(s->hmean ? sorted + n - best : sorted, best, s->hmean);
	if (n > 1 && !isnan(s->mean)) {
		for (i = 0; i < n; i++)
			d += s->hmean ? pow(1 / sorted[i] - 1 / s->mean, 2)
				      : pow(sorted[i] - s->mean, 2);
		s->stddev = s->hmean ? sqrt(d * pow(s->mean, 4) / n) : sqrt(d / (n - 1));
		q = gsl_cdf_ugaussian_Pinv(1 - MMTESTS_ALPHA / 2) * s->stddev;
		s->ci_lo = s->mean - q;
		s->ci_hi = s->mean + q;
	}
	s->coeffvar = s->mean && !isnan(s->stddev) ? s->stddev * 100 / s->mean : 0;
	free(sorted);
	return 0;
}

bool compare__mmtests_significant(const struct mmtests_summary *base,
				  const struct mmtests_summary *new)
{
	if (isnan(base->ci_lo) || isnan(new->ci_lo))
		return false;
	return new->ci_hi < base->ci_lo || new->ci_lo > base->ci_hi;
}

enum mm_stat { MM_MIN, MM_MEAN, MM_STDDEV, MM_COEFFVAR, MM_MAX, MM_BMEAN95, MM_NSTATS };

static const char *mm_stat_name(enum mm_stat st, bool hmean)
{
	static const char *const amean[] = { "Min", "Amean", "Stddev", "CoeffVar", "Max",
					     "BAmean-95" };
	static const char *const hm[] = { "Min", "Hmean", "HStddev", "HCoeffVar", "Max",
					  "BHmean-95" };

	return hmean ? hm[st] : amean[st];
}

static double mm_stat(const struct mmtests_summary *s, enum mm_stat st)
{
	switch (st) {
	case MM_MIN:
		return s->min;
	case MM_MEAN:
		return s->mean;
	case MM_STDDEV:
		return s->stddev;
	case MM_COEFFVAR:
		return s->coeffvar;
	case MM_MAX:
		return s->max;
	default:
		return s->bmean95;
	}
}

/* Decimals for a table whose smallest base mean is @m: about five significant digits. */
static int auto_precision(double m)
{
	int p;

	if (!isfinite(m) || m == 0)
		return 2;
	p = 4 - (int)floor(log10(fabs(m)));
	return p < 2 ? 2 : p > 4 ? 4 : p;
}

/* "5.15.0-rc3-vanilla" -> "5.15.0-rc3" over "vanilla", as compare-kernels.sh splits names */
static void split_label(const char *label, char *top, char *bottom, size_t len)
{
	const char *dash = strchr(label, '-');

	if (dash && !strncmp(dash, "-rc", 3) && dash[3] >= '0' && dash[3] <= '9')
		dash = strchr(dash + 3, '-');
	if (!dash) {
		snprintf(top, len, "%s", "");
		snprintf(bottom, len, "%s", label);
		return;
	}
	snprintf(top, len, "%.*s", (int)(dash - label), label);
	snprintf(bottom, len, "%s", dash + 1);
}

struct mm_row {
	const json_t *entry;
	char label[128];
	struct mmtests_summary s[RENDER_MAX_DOCS];
	bool have[RENDER_MAX_DOCS];
};

static int mm_header(struct table *t, const struct compare_render *r)
{
	char top[128], bottom[128];
	bool tops = false;
	size_t d;
	int ret;

	for (d = 0; d < r->ndocs; d++) {
		split_label(r->labels[d], top, bottom, sizeof(top));
		tops |= *top;
	}
	for (int line = !tops; line < 2; line++) {
		ret = table__add_header(t);
		if (ret)
			return ret;
		for (d = 0; d < r->ndocs; d++) {
			split_label(r->labels[d], top, bottom, sizeof(top));
			ret = table__cell(t, 2 + 2 * d, "%s", line ? bottom : top) ?:
			      table__span(t, 2 + 2 * d, 2);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int mm_cells(struct table *t, const struct mm_row *row, enum mm_stat st,
		    const struct compare_render *r, int prec)
{
	const struct mmtests_summary *b = &row->s[0];
	size_t d;
	int ret = 0;

	for (d = 0; d < r->ndocs && !ret; d++) {
		const struct mmtests_summary *s = &row->s[d];
		double v = mm_stat(s, st), pct;
		bool sig;

		if (!row->have[d] || !row->have[0]) {
			ret = table__cell(t, 2 + 2 * d, "%s", "-");
			continue;
		}
		if (isnan(v))
			v = 0;
		/* + is better: less spread, a lower value where lower is better, a higher one
		 * where higher is; without a direction + is an increase (the raw change) */
		if (st == MM_STDDEV || st == MM_COEFFVAR || b->better == BETTER_LOWER)
			pct = compare__mmtests_pndiff(v, isnan(mm_stat(b, st)) ? 0 : mm_stat(b, st));
		else
			pct = compare__mmtests_pdiff(v, mm_stat(b, st));
		sig = d && st == MM_MEAN && compare__mmtests_significant(b, s);
		ret = table__cell(t, 2 + 2 * d, "%.*f", prec, v) ?:
		      table__csv(t, 2 + 2 * d, "%.*f", prec, v);
		/* one document: nothing to compare with */
		if (!ret && r->ndocs > 1)
			ret = table__cell(t, 3 + 2 * d, sig ? "*%7.2f%%*" : "(%7.2f%%)", pct) ?:
			      table__csv(t, 3 + 2 * d, sig ? "%.2f*" : "%.2f", pct);
	}
	return ret;
}

static int mm_table(const struct compare_render *r, const char *group, const char *metric,
		    enum table_format fmt, FILE *out, struct errbuf *err)
{
	const json_t *base = r->docs[0], *e;
	struct mm_row *rows = NULL;
	struct table *t = NULL;
	size_t i, d, nrows = 0, n = json_array_size(json_object_get(base, "entries"));
	char key[64], title[256];
	double minmean = INFINITY, *v = NULL;
	int ret = -ENOMEM, prec;
	bool hmean = false;

	rows = calloc(n ?: 1, sizeof(*rows));
	t = table__new(2 + 2 * r->ndocs);
	if (!rows || !t)
		goto out_free;
	json_array_foreach(json_object_get(base, "entries"), i, e) {
		struct mm_row *row = &rows[nrows];

		if (strcmp(compare__row(base, e, row->label, sizeof(row->label), key, sizeof(key)),
			   group) ||
		    !json_object_get(json_object_get(e, "metrics"), metric))
			continue;
		row->entry = e;
		for (d = 0; d < r->ndocs; d++) {
			const json_t *de = d ? compare__find_entry(r->docs[d],
					json_string_value(json_object_get(e, "id"))) : e;
			size_t nv;

			if (!de)
				continue;
			nv = json_array_size(json_object_get(de, "iterations"));
			free(v);
			v = malloc((nv ?: 1) * sizeof(*v));
			if (!v)
				goto out_free;
			nv = results__values(de, metric, v, nv);
			if (nv && !compare__mmtests_summary(v, nv, results__better(e, metric),
							    &row->s[d]))
				row->have[d] = true;
		}
		if (!row->have[0])
			continue;
		hmean = row->s[0].hmean;
		minmean = fmin(minmean, fabs(row->s[0].mean));
		nrows++;
	}
	ret = 0;
	if (!nrows)
		goto out_free;
	prec = r->precision >= 0 ? r->precision : auto_precision(minmean);
	snprintf(title, sizeof(title), "%s %s%s%s%s, %s", group, metric,
		 *results__unit(rows[0].entry, metric) ? " (" : "",
		 results__unit(rows[0].entry, metric),
		 *results__unit(rows[0].entry, metric) ? ")" : "",
		 compare__sign_note(rows[0].s[0].better));
	ret = table__set_title(t, title);
	table__set_sep(t, 1, " ");
	for (d = 0; d < r->ndocs && !ret; d++) {
		table__set_align(t, 2 + 2 * d, TABLE_RIGHT);
		table__set_align(t, 3 + 2 * d, TABLE_RIGHT);
		table__set_width(t, 2 + 2 * d, fmt == TABLE_TEXT ? 12 : 0);
		ret = table__set_sep(t, 2 + 2 * d, "") ?:
		      table__set_sep(t, 3 + 2 * d, " ");
	}
	ret = ret ?: mm_header(t, r);
	for (enum mm_stat st = 0; st < MM_NSTATS && !ret; st++) {
		for (i = 0; i < nrows && !ret; i++) {
			ret = table__add_row(t) ?:
			      table__cell(t, 0, "%s", mm_stat_name(st, hmean)) ?:
			      table__cell(t, 1, "%s", rows[i].label) ?:
			      mm_cells(t, &rows[i], st, r, prec);
		}
	}
	if (!ret && (table__print(t, fmt, out) || fputc('\n', out) == EOF))
		ret = -EIO;
out_free:
	if (ret)
		err__set(err, ret, "cannot render the table of '%s' %s", group, metric);
	free(v);
	free(rows);
	table__delete(t);
	return ret;
}

int render__mmtests(const struct compare_render *r, enum table_format fmt, FILE *out,
		    struct errbuf *err)
{
	return render__each_table(r, fmt, out, err, mm_table);
}
