// SPDX-License-Identifier: GPL-2.0
/* Aligning results documents and comparing one metric of two entries. */
#include "schedlens/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void compare_opts__init(struct compare_opts *o)
{
	o->alpha = 0.05;
	o->resamples = 10000;
	o->seed = 1;
}

const char *cmp_test__name(enum cmp_test t)
{
	switch (t) {
	case CMP_TEST_WELCH_LOG:
		return "welch-log";
	case CMP_TEST_WELCH:
		return "welch";
	default:
		return "none";
	}
}

const char *cmp_verdict__name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_SAME:
		return "same";
	case CMP_BETTER:
		return "better";
	case CMP_WORSE:
		return "worse";
	case CMP_CHANGED:
		return "changed";
	case CMP_INCONCLUSIVE:
		return "inconclusive";
	default:
		return "n/a";
	}
}

const char *compare__sign_note(enum better better)
{
	switch (better) {
	case BETTER_LOWER:
		return "lower is better (a + change is better)";
	case BETTER_HIGHER:
		return "higher is better (a + change is better)";
	default:
		return "no better direction (a + change is an increase)";
	}
}

double compare__change_pct(double base, double new, enum better better)
{
	if (base == 0 && new == 0)
		return 0;
	if (base == 0 || !isfinite(base) || !isfinite(new))
		return NAN;
	if (better == BETTER_LOWER)
		return 100 * (base - new) / fabs(base);
	return 100 * (new - base) / fabs(base);
}

/* Welch's t: the verdict, its estimate and the interval at 1 - alpha beside it */
static void welch_verdict(const double *base, size_t nb, const double *new, size_t nn,
			  enum better better, double alpha, struct metric_cmp *out)
{
	struct cmp_welch *w = &out->welch;
	double h, c1, c2;

	if (compare__welch_t(base, nb, new, nn, w)) {
		/* one run a side: its change, and no test; the very same value is no change */
		out->change_pct = out->median_change_pct;
		out->verdict = out->base.min == out->base.max && out->new.min == out->new.max &&
				       out->base.min == out->new.min
			       ? CMP_SAME
			       : CMP_INCONCLUSIVE;
		return;
	}
	out->test = w->log ? CMP_TEST_WELCH_LOG : CMP_TEST_WELCH;
	out->p_value = w->p;
	h = compare__welch_tq(w, alpha / 2) * w->se;
	out->change_pct = compare__welch_change(w, w->est, better);
	c1 = compare__welch_change(w, w->est - h, better);
	c2 = compare__welch_change(w, w->est + h, better);
	out->change_lo = fmin(c1, c2);
	out->change_hi = fmax(c1, c2);
	/* p < alpha exactly when the interval leaves out no change: one test, one answer */
	out->significant = w->p < alpha;
	if (!out->significant)
		out->verdict = CMP_SAME;
	else if (better == BETTER_NONE)
		out->verdict = CMP_CHANGED;
	else
		out->verdict = out->change_pct > 0 ? CMP_BETTER : CMP_WORSE;
}

int compare__values(const double *base, size_t nb, const double *new, size_t nn,
		    enum better better, const struct compare_opts *opts, struct metric_cmp *out)
{
	double lo, hi;
	int ret;

	memset(out, 0, sizeof(*out));
	out->better = better;
	out->ratio = out->median_lo = out->median_hi = out->median_change_pct = NAN;
	out->change_pct = out->change_lo = out->change_hi = out->mean_change_pct = NAN;
	out->u = out->p_value = out->mwu_p = NAN;
	if (nb && (ret = stats__summarize(base, nb, &out->base)))
		return ret;
	if (nn && (ret = stats__summarize(new, nn, &out->new)))
		return ret;
	if (!nb || !nn)
		return 0;
	if (out->base.median != 0)
		out->ratio = out->new.median / out->base.median;
	out->median_change_pct = compare__change_pct(out->base.median, out->new.median, better);
	out->mean_change_pct = compare__change_pct(out->base.mean, out->new.mean, better);
	welch_verdict(base, nb, new, nn, better, opts->alpha, out);
	if (nb < 2 || nn < 2)
		return 0;
	out->mwu_p = compare__mwu(new, nn, base, nb, &out->u, &out->mwu_exact);
	if (!opts->resamples)
		return 0;
	ret = compare__bootstrap_ratio(base, nb, new, nn, 1 - opts->alpha, opts->resamples,
				       opts->seed, &lo, &hi);
	if (ret == -ENOMEM)
		return ret;
	if (!ret) {
		out->median_lo = lo;
		out->median_hi = hi;
	}
	return 0;
}

static size_t entry_values(const json_t *entry, const char *metric, double **out)
{
	size_t n = json_array_size(json_object_get(entry, "iterations"));

	*out = malloc((n ?: 1) * sizeof(**out));
	if (!*out)
		return 0;
	return results__values(entry, metric, *out, n);
}

int compare__metric(const json_t *base_entry, const json_t *new_entry, const char *metric,
		    const struct compare_opts *opts, struct metric_cmp *out, struct errbuf *err)
{
	const char *id = json_string_value(json_object_get(base_entry, "id")) ?: "?";
	enum better bb = results__better(base_entry, metric), bn = results__better(new_entry, metric);
	double *b = NULL, *n = NULL;
	size_t nb, nn;
	int ret;

	if (bb != bn && bb != BETTER_NONE && bn != BETTER_NONE) {
		return err__set(err, -EINVAL,
				"metric '%s' of '%s': lower is better on one side, higher on the "
				"other",
				metric, id);
	}
	nb = entry_values(base_entry, metric, &b);
	nn = entry_values(new_entry, metric, &n);
	ret = -ENOMEM;
	if (!b || !n) {
		err__set(err, ret, "out of memory");
		goto out_free;
	}
	ret = -ENOENT;
	if (!nb || !nn) {
		err__set(err, ret, "metric '%s' of '%s' has no value in %s", metric, id,
			 !nb ? "the base" : "the new results");
		goto out_free;
	}
	ret = compare__values(b, nb, n, nn, bb != BETTER_NONE ? bb : bn, opts, out);
	if (ret)
		err__set(err, ret, "metric '%s' of '%s': cannot summarise its values", metric,
			 id);
out_free:
	free(b);
	free(n);
	return ret;
}

const json_t *compare__find_entry(const json_t *doc, const char *id)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(doc, "entries"), i, e) {
		const char *eid = json_string_value(json_object_get(e, "id"));

		if (eid && !strcmp(eid, id))
			return e;
	}
	return NULL;
}

int compare__check(const json_t *base, const char *base_name, const json_t *other,
		   const char *other_name, struct errbuf *err)
{
	const json_t *e, *o, *m;
	const char *metric;
	size_t i, common = 0;

	json_array_foreach(json_object_get(base, "entries"), i, e) {
		const char *id = json_string_value(json_object_get(e, "id"));

		o = compare__find_entry(other, id);
		if (!o)
			continue;
		common++;
		json_object_foreach(json_object_get(e, "metrics"), metric, m) {
			enum better a = results__better(e, metric), b = results__better(o, metric);

			if (a != BETTER_NONE && b != BETTER_NONE && a != b)
				return err__set(err, -EINVAL,
						"'%s' and '%s' disagree on metric '%s' of '%s': "
						"%s is better in one, %s in the other",
						base_name, other_name, metric, id, better__name(a),
						better__name(b));
		}
	}
	if (!common)
		return err__set(err, -EINVAL,
				"'%s' and '%s' have no entry in common: not results of the same "
				"suite",
				base_name, other_name);
	return 0;
}

static const char *group_of(const json_t *entry)
{
	return json_string_value(json_object_get(entry, "group"))
		       ?: json_string_value(json_object_get(entry, "workload")) ?: "results";
}

static void scalar_str(const json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else
		snprintf(buf, len, "-");
}

const char *compare__row(const json_t *doc, const json_t *entry, char *label, size_t llen,
			 char *key, size_t klen)
{
	const char *group = group_of(entry), *k, *differing = NULL;
	const json_t *params = json_object_get(entry, "params"), *v, *e;
	size_t i, ndiff = 0;

	json_object_foreach((json_t *)params, k, v) {
		json_array_foreach(json_object_get(doc, "entries"), i, e) {
			if (e == entry || strcmp(group_of(e), group))
				continue;
			if (!json_equal(json_object_get(json_object_get(e, "params"), k), v)) {
				ndiff++;
				differing = k;
				break;
			}
		}
	}
	if (ndiff == 1) {
		scalar_str(json_object_get(params, differing), label, llen);
		snprintf(key, klen, "%s", differing);
	} else {
		snprintf(label, llen, "%s", json_string_value(json_object_get(entry, "id")) ?: "?");
		snprintf(key, klen, "entry");
	}
	return group;
}

bool compare__selected(const struct compare_render *r, const char *metric)
{
	size_t i;

	if (!r->metrics || !r->nmetrics)
		return true;
	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i], metric))
			return true;
	return false;
}
