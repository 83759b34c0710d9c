// SPDX-License-Identifier: GPL-2.0
/* A manifest's improve/guard lines judged on two results documents (validation.h). */
#include <errno.h>
#include <fnmatch.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/compare.h"
#include "schedlens/results.h"
#include "schedlens/validation.h"

#define MAX_VALUES 4096

void validation_opts__init(struct validation_opts *o)
{
	o->alpha = 0.05;
	o->min_effect = 3.0;
}

const char *vstatus__name(enum vstatus s)
{
	static const char *const names[] = { "absent", "neutral", "improved", "regressed" };

	return names[s];
}

const char *verdict__name(enum verdict v)
{
	static const char *const names[] = { "validated", "no effect", "regression", "unusable",
					     "inconclusive" };

	return names[v];
}

static const json_t *find_entry(const json_t *doc, const char *id)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(doc, "entries"), i, e) {
		if (!strcmp(json_string_value(json_object_get(e, "id")), id))
			return e;
	}
	return NULL;
}

struct run {
	const struct manifest *m;
	const struct validation_opts *o;
	struct compare_opts cmp;
	struct validation *v;
	double *a, *b;
};

/*
 * The values of @metric in @entry; a metric "A/B" the document lacks is computed per
 * iteration from A and B (iterations with B == 0 skip).
 */
static size_t values(const json_t *entry, const char *metric, double *out, size_t max)
{
	const char *slash = strchr(metric, '/');
	json_t *it, *vals;
	size_t n, i;
	char num[256];

	n = results__values(entry, metric, out, max);
	if (n || !slash || slash == metric || !slash[1] || slash - metric >= (long)sizeof(num))
		return n;
	snprintf(num, sizeof(num), "%.*s", (int)(slash - metric), metric);
	json_array_foreach(json_object_get(entry, "iterations"), i, it) {
		json_t *a, *b;

		vals = json_object_get(it, "values");
		a = json_object_get(vals, num);
		b = json_object_get(vals, slash + 1);
		if (n < max && json_is_number(a) && json_is_number(b) && json_number_value(b) != 0)
			out[n++] = json_number_value(a) / json_number_value(b);
	}
	return n;
}

static int add_row(struct run *r, size_t line, const json_t *be, const json_t *ne)
{
	const struct manifest_metric *mm = &r->m->metrics[line];
	struct validation *v = r->v;
	struct validation_row *row, *rows;
	enum better better = results__better(be, mm->metric);
	struct metric_cmp mc;
	size_t na, nb;
	int ret;

	na = values(be, mm->metric, r->a, MAX_VALUES);
	nb = values(ne, mm->metric, r->b, MAX_VALUES);
	if (!na || !nb)
		return 0;
	if (better == BETTER_NONE)
		better = results__better(ne, mm->metric);
	if (better == BETTER_NONE)
		better = mm->better;
	if (better == BETTER_NONE) {
		v->lines[line].no_direction++;
		return 0;
	}
	rows = realloc(v->rows, (v->nr_rows + 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	v->rows = rows;
	row = &rows[v->nr_rows++];
	memset(row, 0, sizeof(*row));
	row->line = line;
	row->entry = json_string_value(json_object_get(be, "id"));
	row->unit = results__unit(be, mm->metric);
	row->n_base = na;
	row->n_new = nb;
	ret = compare__values(r->a, na, r->b, nb, better, &r->cmp, &mc);
	if (ret)
		return ret;
	row->base = mc.base.median;
	row->new = mc.new.median;
	row->gain_pct = mc.change_pct;
	row->p = mc.p_value;
	row->p_adj = NAN;
	row->tested = !isnan(mc.p_value);
	v->nr_tests += row->tested;
	return 0;
}

static int collect(struct run *r, const json_t *base, const json_t *new)
{
	const struct manifest *m = r->m;
	const json_t *be, *ne;
	size_t line, i;
	const char *id;
	int ret;

	for (line = 0; line < m->nr_metrics; line++) {
		r->v->lines[line].first = r->v->nr_rows;
		json_array_foreach(json_object_get(base, "entries"), i, be) {
			id = json_string_value(json_object_get(be, "id"));
			if (fnmatch(m->metrics[line].glob, id, 0))
				continue;
			ne = find_entry(new, id);
			if (!ne) {
				r->v->missing_in_new++;
				continue;
			}
			ret = add_row(r, line, be, ne);
			if (ret)
				return ret;
		}
		r->v->lines[line].nr_rows = r->v->nr_rows - r->v->lines[line].first;
	}
	return 0;
}

/* Holm-Bonferroni over every tested row, as gate does. */
static int adjust(struct validation *v)
{
	double *p = malloc((v->nr_tests ?: 1) * sizeof(*p));
	size_t i, n = 0;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < v->nr_rows; i++)
		if (v->rows[i].tested)
			p[n++] = v->rows[i].p;
	compare__holm(p, n, p);
	for (i = 0, n = 0; i < v->nr_rows; i++)
		if (v->rows[i].tested)
			v->rows[i].p_adj = p[n++];
	free(p);
	return 0;
}

static void judge_row(struct run *r, struct validation_row *row)
{
	const struct manifest_metric *mm = &r->m->metrics[row->line];
	double worse = mm->guard ? mm->pct : r->o->min_effect;
	double better = r->o->min_effect;

	if (row->tested)
		row->significant = row->p_adj < r->o->alpha;
	row->status = VSTATUS_NEUTRAL;
	if (isnan(row->gain_pct) || (row->tested && !row->significant))
		return;
	if (row->gain_pct >= better)
		row->status = VSTATUS_IMPROVED;
	else if (-row->gain_pct >= worse && (worse > 0 || row->gain_pct < 0))
		row->status = VSTATUS_REGRESSED;
}

static int judge_line(struct run *r, struct validation_line *l)
{
	double *gains;
	size_t i, n = 0;

	l->status = l->nr_rows ? VSTATUS_NEUTRAL : VSTATUS_ABSENT;
	l->median_gain = NAN;
	if (!l->nr_rows)
		return 0;
	gains = malloc(l->nr_rows * sizeof(*gains));
	if (!gains)
		return -ENOMEM;
	for (i = l->first; i < l->first + l->nr_rows; i++) {
		struct validation_row *row = &r->v->rows[i];

		judge_row(r, row);
		l->untested += !row->tested;
		l->improved += row->status == VSTATUS_IMPROVED;
		l->regressed += row->status == VSTATUS_REGRESSED;
		l->neutral += row->status == VSTATUS_NEUTRAL;
		if (!isnan(row->gain_pct))
			gains[n++] = row->gain_pct;
	}
	if (n) {
		gsl_sort(gains, 1, n);
		l->median_gain = gsl_stats_median_from_sorted_data(gains, 1, n);
	}
	free(gains);
	if (l->regressed)
		l->status = VSTATUS_REGRESSED;
	else if (l->improved)
		l->status = VSTATUS_IMPROVED;
	return 0;
}

static enum verdict decide(const struct manifest *m, struct validation *v)
{
	bool improved = false, regressed = false, tested_regression = false;
	bool tested_improved = false;
	size_t i;

	v->by_effect = VERDICT_UNUSABLE;
	if (!v->nr_rows)
		return VERDICT_UNUSABLE;
	for (i = 0; i < v->nr_lines; i++) {
		regressed |= v->lines[i].status == VSTATUS_REGRESSED;
		improved |= !m->metrics[i].guard && v->lines[i].status == VSTATUS_IMPROVED;
	}
	for (i = 0; i < v->nr_rows; i++) {
		const struct validation_row *row = &v->rows[i];

		tested_regression |= row->tested && row->status == VSTATUS_REGRESSED;
		tested_improved |= row->tested && row->status == VSTATUS_IMPROVED &&
				   !m->metrics[row->line].guard;
	}
	v->by_effect = regressed ? VERDICT_REGRESSION : improved ? VERDICT_VALIDATED
							      : VERDICT_NO_EFFECT;
	/* a single value a side cannot be tested: a verdict resting on one is no verdict */
	if (tested_regression)
		return VERDICT_REGRESSION;
	if (v->by_effect == VERDICT_VALIDATED && tested_improved)
		return VERDICT_VALIDATED;
	if (v->nr_tests < v->nr_rows)
		return VERDICT_INCONCLUSIVE;
	return v->by_effect;
}

int validation__run(const struct manifest *m, const json_t *base, const json_t *new,
		    const struct validation_opts *o, struct validation **out, struct errbuf *err)
{
	struct run r = { .m = m, .o = o };
	size_t i;
	int ret = -ENOMEM;

	r.v = calloc(1, sizeof(*r.v));
	r.a = malloc(MAX_VALUES * sizeof(double));
	r.b = malloc(MAX_VALUES * sizeof(double));
	if (!r.v || !r.a || !r.b)
		goto out_free;
	compare_opts__init(&r.cmp);
	r.cmp.alpha = o->alpha;
	r.cmp.resamples = 0;	/* validate uses the p-value, not the medians' bootstrap interval */
	r.v->test = "Welch's t on the logs (two-sided)";
	r.v->nr_lines = m->nr_metrics;
	r.v->lines = calloc(m->nr_metrics ?: 1, sizeof(*r.v->lines));
	if (!r.v->lines)
		goto out_free;
	ret = collect(&r, base, new) ?: adjust(r.v);
	for (i = 0; !ret && i < r.v->nr_lines; i++)
		ret = judge_line(&r, &r.v->lines[i]);
	if (ret)
		goto out_free;
	r.v->verdict = decide(m, r.v);
	*out = r.v;
	r.v = NULL;
out_free:
	if (ret)
		err__set(err, ret, "out of memory validating '%s'", m->name);
	validation__delete(r.v);
	free(r.a);
	free(r.b);
	return ret;
}

const char *mstatus__name(enum mstatus s)
{
	static const char *const names[] = { "absent", "unjudged", "seen", "not seen" };

	return names[s];
}

/* the wakeups of one iteration's scope table: in all, and on the paths matching @paths */
static bool scope_counts(const json_t *it, const char *scope, const char *paths, double *all,
			 double *match)
{
	const char *key = !strcmp(scope, "idle-llc") ? "wakeup_paths_idle_llc" : "wakeup_paths";
	const json_t *table = json_object_get(json_object_get(it, "sched"), key), *c;
	const char *name;

	*all = *match = 0;
	if (!json_is_object(table))
		return false;
	json_object_foreach((json_t *)table, name, c) {
		double n = json_is_number(c) ? json_number_value(c)
					     : json_number_value(json_object_get(c, "count"));

		*all += n;
		if (!fnmatch(paths, name, 0))
			*match += n;
	}
	return true;
}

/* the shares of @entry's iterations into @out (percent), sorted; how many; 0 without tables */
static size_t shares(const json_t *entry, const struct manifest_mechanism *mm, double *out,
		     size_t max, size_t *few, double *wakeups)
{
	const json_t *it;
	double all, match;
	size_t i, n = 0;

	*few = 0;
	*wakeups = 0;
	json_array_foreach(json_object_get(entry, "iterations"), i, it) {
		if (!scope_counts(it, mm->scope, mm->paths, &all, &match))
			continue;
		if (all < VALIDATION_MECH_MIN_WAKEUPS) {
			(*few)++;
			continue;
		}
		if (n < max) {
			out[n++] = 100.0 * match / all;
			*wakeups += all;
		}
	}
	if (n)
		gsl_sort(out, 1, n);
	return n;
}

static void judge_mech(const struct manifest_mechanism *mm, struct validation_mech *r,
		       const double *a, const double *b)
{
	bool up = mm->points > 0;

	r->base = gsl_stats_median_from_sorted_data(a, 1, r->n_base);
	r->new = gsl_stats_median_from_sorted_data(b, 1, r->n_new);
	r->base_min = a[0];
	r->base_max = a[r->n_base - 1];
	r->new_min = b[0];
	r->new_max = b[r->n_new - 1];
	r->change = r->new - r->base;
	r->spread = fmax(r->base_max - r->base_min, r->new_max - r->new_min);
	if (r->n_base < 2 || r->n_new < 2) {
		r->status = MSTATUS_UNJUDGED;
		return;
	}
	r->status = MSTATUS_NOT_SEEN;
	if ((up ? r->change : -r->change) < fabs(mm->points))
		return;
	if (up ? r->new_min <= r->base_max : r->new_max >= r->base_min)
		return;
	if (fabs(r->change) <= VALIDATION_MECH_SPREADS * r->spread)
		return;
	r->status = MSTATUS_SEEN;
}

int validation__mechanisms(struct validation *v, const struct manifest *m, const json_t *base,
			   const json_t *new, struct errbuf *err)
{
	double *a = malloc(MAX_VALUES * sizeof(double)), *b = malloc(MAX_VALUES * sizeof(double));
	const json_t *be, *ne;
	size_t line, i;
	bool unjudged = false, not_seen = false;
	int ret = 0;

	v->mechanism = MSTATUS_ABSENT;
	if (!a || !b) {
		ret = err__set(err, -ENOMEM, "out of memory validating '%s'", m->name);
		goto out_free;
	}
	for (line = 0; line < m->nr_mechanisms; line++) {
		const struct manifest_mechanism *mm = &m->mechanisms[line];

		json_array_foreach(json_object_get(base, "entries"), i, be) {
			const char *id = json_string_value(json_object_get(be, "id")) ?: "";
			struct validation_mech r = { .line = line, .entry = id }, *nv;

			if (fnmatch(mm->glob, id, 0))
				continue;
			ne = find_entry(new, id);
			if (!ne)
				continue;
			r.n_base = shares(be, mm, a, MAX_VALUES, &r.few_base, &r.wakeups_base);
			r.n_new = shares(ne, mm, b, MAX_VALUES, &r.few_new, &r.wakeups_new);
			if (!r.n_base && !r.n_new && !r.few_base && !r.few_new)
				continue;	/* no wakeup-path tables: not a sched document */
			if (r.n_base && r.n_new)
				judge_mech(mm, &r, a, b);
			else
				r.status = MSTATUS_UNJUDGED;
			nv = realloc(v->mechs, (v->nr_mechs + 1) * sizeof(*nv));
			if (!nv) {
				ret = err__set(err, -ENOMEM, "out of memory validating '%s'", m->name);
				goto out_free;
			}
			v->mechs = nv;
			v->mechs[v->nr_mechs++] = r;
			unjudged |= r.status == MSTATUS_UNJUDGED;
			not_seen |= r.status == MSTATUS_NOT_SEEN;
		}
	}
	if (v->nr_mechs)
		v->mechanism = not_seen ? MSTATUS_NOT_SEEN : unjudged ? MSTATUS_UNJUDGED
								      : MSTATUS_SEEN;
out_free:
	free(a);
	free(b);
	return ret;
}

bool validation__emulated(const json_t *doc, char *why, size_t len)
{
	const json_t *machine = json_object_get(doc, "machine");
	const char *cmdline = json_string_value(json_object_get(machine, "kernel_cmdline"));
	const char *model = json_string_value(json_object_get(machine, "cpu_model"));

	if (cmdline && strstr(cmdline, "schedlens.accel=tcg")) {
		snprintf(why, len, "a QEMU TCG guest of schedlens vm (schedlens.accel=tcg)");
		return true;
	}
	if (model && strstr(model, "QEMU TCG")) {
		snprintf(why, len, "CPU '%s'", model);
		return true;
	}
	return false;
}

void validation__delete(struct validation *v)
{
	if (!v)
		return;
	free(v->mechs);
	free(v->rows);
	free(v->lines);
	free(v);
}
