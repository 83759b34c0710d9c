// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens validate SERIES BASE.json NEW.json: judge a kernel-patches/ series on the results
 * of the kernel without it (BASE) and with it (NEW). Exit codes as gate: 0 pass (validated or
 * no effect), 1 regression, 2 unusable input.
 */
#include <errno.h>
#include <float.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/manifest.h"
#include "schedlens/results.h"
#include "schedlens/validation.h"

struct validate_opts {
	const char *series, *base, *new;
	const char *mech_base, *mech_new;	/* sched documents, or base and new themselves */
	struct validation_opts v;
};

static const char *const validate_usage[] = {
	"usage: schedlens validate [--alpha P] [--min-effect PCT] SERIES BASE.json NEW.json",
	"                          [BASE-SCHED.json NEW-SCHED.json]",
	"",
	"Judge a kernel-patches/ series (folder or manifest) on two results documents:",
	"BASE from the kernel without the series, NEW from the kernel with it; its",
	"mechanism lines on two `schedlens sched --json` documents (BASE and NEW",
	"themselves when no other two are given).",
	NULL
};


static void format_value(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-3))
		snprintf(buf, len, "%.5g", v);
	else
		snprintf(buf, len, "%.4f", v);
}

static void print_row(const struct validation_row *row, int width)
{
	char base[32], new[32];

	format_value(row->base, base, sizeof(base));
	format_value(row->new, new, sizeof(new));
	printf("    %-*s %12s -> %-12s %-5s %+8.2f%%  ", width, row->entry, base, new, row->unit,
	       row->gain_pct);
	if (row->tested)
		printf("p=%-8.2g", row->p_adj);
	else
		printf("%-10s", "n=1");
	printf(" %s%s\n", vstatus__name(row->status), row->tested ? "" : " (untested)");
}

static void print_line(const struct manifest *m, const struct validation *v, size_t i,
		       int width)
{
	const struct manifest_metric *mm = &m->metrics[i];
	const struct validation_line *l = &v->lines[i];
	char want[32];
	size_t r;

	if (mm->guard)
		snprintf(want, sizeof(want), "loss <= %g%%", mm->pct);
	else if (isnan(mm->pct))
		snprintf(want, sizeof(want), "expected gain ?");
	else
		snprintf(want, sizeof(want), "expected ~%g%%", mm->pct);
	printf("%-7s %s %s (%s): %s", mm->guard ? "guard" : "improve", mm->glob, mm->metric, want,
	       vstatus__name(l->status));
	if (l->status == VSTATUS_ABSENT) {
		printf(" in both documents%s\n",
		       l->no_direction ? " with a better direction" : "");
		return;
	}
	printf(", %zu of %zu entries improved, %zu regressed, median gain %+.2f%%%s\n",
	       l->improved, l->nr_rows, l->regressed, l->median_gain,
	       l->untested ? (l->untested == l->nr_rows ? ", untested" : ", partly untested")
			   : "");
	for (r = l->first; r < l->first + l->nr_rows; r++)
		print_row(&v->rows[r], width);
}

static const char *verdict_reason(const struct validation *v)
{
	size_t i, untested = 0;

	for (i = 0; i < v->nr_lines; i++)
		untested += v->lines[i].untested;
	switch (v->verdict) {
	case VERDICT_VALIDATED:
		return untested ? "an expected improvement shows and nothing regressed; single values "
				  "were judged by their effect alone"
				: "an expected improvement is significant and nothing regressed";
	case VERDICT_NO_EFFECT:
		return "nothing expected improved, nothing regressed";
	case VERDICT_REGRESSION:
		return "a metric got worse beyond its tolerance";
	case VERDICT_INCONCLUSIVE:
		return NULL;	/* said by the caller, with the counts */
	default:
		return "no metric of the manifest was found in both documents";
	}
}

static const char *doc_suite(const json_t *doc)
{
	return json_string_value(json_object_get(json_object_get(doc, "run"), "suite"))
		       ?: json_string_value(json_object_get(doc, "suite"));
}

/* A document made by `run --suite` names its suite: say so when it is not the manifest's. */
static void warn_suite(const struct manifest *m, const json_t *doc, const char *path)
{
	const char *suite = doc_suite(doc);

	if (suite && strcmp(suite, m->suite))
		fprintf(stderr, "validate: warning: '%s' comes from suite '%s', not '%s'\n", path,
			suite, m->suite);
}

/* whether an entry of @doc that @glob matches has values of @metric */
static bool has_metric(const json_t *doc, const char *glob, const char *metric)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(doc, "entries"), i, e)
		if (!fnmatch(glob, json_string_value(json_object_get(e, "id")) ?: "", 0) &&
		    results__values(e, metric, NULL, 0))
			return true;
	return false;
}

/*
 * Input the verdict cannot rest on: two documents of different suites, or a metric of the
 * manifest that a document lacks (one of the two, or both when `run` made them: a table typed
 * from a thread may leave out what it did not publish). Says which and returns true.
 */
static bool unusable(const struct validate_opts *o, const struct manifest *m,
		     const json_t *base, const json_t *new)
{
	const char *sb = doc_suite(base), *sn = doc_suite(new);
	bool bad = false;
	size_t i;

	if (sb && sn && strcmp(sb, sn)) {
		fprintf(stderr, "validate: '%s' holds suite '%s', '%s' suite '%s': not results of "
			"the same suite\n", o->base, sb, o->new, sn);
		return true;
	}
	for (i = 0; i < m->nr_metrics; i++) {
		const struct manifest_metric *mm = &m->metrics[i];
		bool in_b = has_metric(base, mm->glob, mm->metric);
		bool in_n = has_metric(new, mm->glob, mm->metric);

		/* documents typed from a table (no suite) may leave a metric out of both */
		if ((in_b && in_n) || (!in_b && !in_n && !sb && !sn))
			continue;
		fprintf(stderr, "validate: the manifest's '%s' %s is absent from %s%s%s (suite "
			"'%s' measures it: run --suite %s)\n", mm->glob, mm->metric,
			in_b ? "" : o->base, !in_b && !in_n ? " and " : "", in_n ? "" : o->new,
			m->suite, m->suite);
		bad = true;
	}
	return bad;
}

static void print_mech(const struct manifest *m, const struct validation *v)
{
	size_t i, line;

	for (line = 0; line < m->nr_mechanisms; line++) {
		const struct manifest_mechanism *mm = &m->mechanisms[line];

		printf("mechanism %s %s share of %s wakeups (expected %+gpt):\n", mm->glob,
		       mm->paths, mm->scope, mm->points);
		for (i = 0; i < v->nr_mechs; i++) {
			const struct validation_mech *r = &v->mechs[i];

			if (r->line != line)
				continue;
			printf("    %s: %.2f%% (%.2f..%.2f, %zu runs, %.0f wakeups) -> %.2f%% "
			       "(%.2f..%.2f, %zu runs, %.0f wakeups): %+.2fpt, run-to-run spread "
			       "%.2fpt: %s\n",
			       r->entry, r->base, r->base_min, r->base_max, r->n_base,
			       r->wakeups_base, r->new, r->new_min, r->new_max, r->n_new,
			       r->wakeups_new, r->change, r->spread, mstatus__name(r->status));
			if (r->few_base || r->few_new)
				printf("    (%zu and %zu runs left out: fewer than %d wakeups in "
				       "scope)\n",
				       r->few_base, r->few_new, VALIDATION_MECH_MIN_WAKEUPS);
		}
	}
}

/* the mechanism's verdict line */
static void print_mech_verdict(const struct manifest *m, const struct validation *v)
{
	switch (v->mechanism) {
	case MSTATUS_SEEN:
		printf("mechanism seen: each share moved by at least its expected points, every run "
		       "beyond the other kernel's, more than %gx the run-to-run spread\n",
		       VALIDATION_MECH_SPREADS);
		break;
	case MSTATUS_NOT_SEEN:
		printf("mechanism not seen: a share moved less than expected, or not clear of the "
		       "run-to-run spread (%gx)\n", VALIDATION_MECH_SPREADS);
		break;
	case MSTATUS_UNJUDGED:
		printf("mechanism unjudged: fewer than 2 runs a side with %d wakeups in scope (the "
		       "run-to-run spread needs 2)\n", VALIDATION_MECH_MIN_WAKEUPS);
		break;
	default:
		if (m->nr_mechanisms)
			printf("mechanism absent: no sched document with wakeup paths for '%s'\n",
			       m->mechanisms[0].glob);
	}
}

static int run_validate(const struct validate_opts *o)
{
	struct errbuf err = { "" };
	struct manifest *m = NULL;
	struct validation *v = NULL;
	json_t *base = NULL, *new = NULL, *mbase = NULL, *mnew = NULL;
	char commit[64], why[256] = "";
	const char *emulated = NULL;
	int width = 0, ret = 2;
	size_t i;

	m = manifest__read(o->series, NULL, &err);
	if (!m)
		goto out_err;
	base = results__read(o->base, &err);
	if (!base)
		goto out_err;
	new = results__read(o->new, &err);
	if (!new)
		goto out_err;
	if (unusable(o, m, base, new))
		goto out_free;
	if (o->mech_base) {
		mbase = results__read(o->mech_base, &err);
		mnew = mbase ? results__read(o->mech_new, &err) : NULL;
		if (!mnew)
			goto out_err;
	}
	if (validation__run(m, base, new, &o->v, &v, &err) ||
	    validation__mechanisms(v, m, mbase ?: base, mnew ?: new, &err))
		goto out_err;
	if (validation__emulated(base, why, sizeof(why)))
		emulated = o->base;
	else if (validation__emulated(new, why, sizeof(why)))
		emulated = o->new;
	warn_suite(m, base, o->base);
	warn_suite(m, new, o->new);

	printf("series:  %s (suite '%s')\n", m->name, m->suite);
	for (i = 0; i < m->nr_patches; i++)
		printf("patch:   %s [%s]\n", m->subjects[i],
		       manifest__short_commit(m, i, commit, sizeof(commit)));
	printf("base:    %s\nnew:     %s\n", o->base, o->new);
	printf("test:    %s, Holm-adjusted p over %zu tested entries, alpha %g, min effect "
	       "%g%%\n\n",
	       v->test, v->nr_tests, o->v.alpha, o->v.min_effect);
	for (i = 0; i < v->nr_rows; i++)
		if ((int)strlen(v->rows[i].entry) > width)
			width = strlen(v->rows[i].entry);
	for (i = 0; i < m->nr_metrics; i++)
		print_line(m, v, i, width);
	if (v->missing_in_new)
		printf("\n%zu matching entries of BASE are missing from NEW\n", v->missing_in_new);
	if (v->verdict == VERDICT_INCONCLUSIVE)
		printf("\nverdict: inconclusive: %zu of %zu entries have a single value a side, which "
		       "no test can judge (2 runs a side would); by their effects alone: %s\n",
		       v->nr_rows - v->nr_tests, v->nr_rows, verdict__name(v->by_effect));
	else
		printf("\nverdict: %s: %s\n", verdict__name(v->verdict), verdict_reason(v));
	for (i = 0; i < v->nr_rows; i++) {
		const struct validation_row *row = &v->rows[i];
		const struct manifest_metric *mm = &m->metrics[row->line];

		if (row->status != VSTATUS_REGRESSED)
			continue;
		printf("  %s of '%s': %+.2f%%", mm->metric, row->entry, row->gain_pct);
		if (row->tested)
			printf(" (%s p=%.2g, Holm-adjusted %.2g)", v->test, row->p, row->p_adj);
		else
			printf(" (a single value, untested)");
		printf(", more than the %g%% %s\n", mm->guard ? mm->pct : o->v.min_effect,
		       mm->guard ? "tolerated" : "minimum effect");
	}
	if (emulated)
		printf("  (not meaningful: '%s' ran on an emulated CPU, %s: its timings and cache "
		       "effects say nothing of real hardware)\n", emulated, why);
	if (m->nr_mechanisms) {
		printf("\n");
		print_mech(m, v);
		print_mech_verdict(m, v);
		if (emulated && m->lab)
			printf("lab: %s\n", m->lab);
	}
	if (fflush(stdout)) {
		fprintf(stderr, "validate: cannot write the report: %s\n", strerror(errno));
		goto out_free;
	}
	ret = v->verdict == VERDICT_REGRESSION	 ? 1
	      : v->verdict == VERDICT_UNUSABLE	 ? 2
	      : v->verdict == VERDICT_INCONCLUSIVE ? 3
						 : 0;
	if (v->mechanism == MSTATUS_NOT_SEEN)
		ret = 1;
	else if (emulated)
		ret = v->mechanism == MSTATUS_SEEN ? 0 : 3;
	goto out_free;
out_err:
	fprintf(stderr, "validate: %s\n", err.msg);
out_free:
	validation__delete(v);
	json_decref(base);
	json_decref(new);
	json_decref(mbase);
	json_decref(mnew);
	manifest__delete(m);
	return ret;
}

int cmd_validate(int argc, char **argv)
{
	struct validate_opts o = { 0 };
	const struct option opts[] = {
		OPT_DOUBLE_OPEN(0, "alpha", &o.v.alpha, 0, 1, "P",
				"family-wise significance level (default 0.05)"),
		OPT_PERCENT(0, "min-effect", &o.v.min_effect, 0, DBL_MAX, 0, "PCT",
			    "smallest gain or loss that counts, in percent (default 3)"),
		OPT_TEXT(""),
		OPT_TEXT("exit: 0 validated or no effect, 1 regression or mechanism "
			 "not seen, 2 unusable"),
		OPT_TEXT("input, 3 inconclusive (single values a side, which no test "
			 "can judge); on an"),
		OPT_TEXT("emulated CPU the performance verdict is not meaningful and "
			 "the mechanism's"),
		OPT_TEXT("decides: 0 seen, 1 not seen, 3 unjudged or absent"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "validate", validate_usage, opts, 0 };
	int n, c;

	validation_opts__init(&o.v);
	n = cmd_options__parse(&cmd, argc, argv, &c);
	if (n < 0)
		return c;
	if (n != 3 && n != 5) {
		options__usage(stderr, validate_usage, opts);
		return 2;
	}
	o.series = argv[1];
	o.base = argv[2];
	o.new = argv[3];
	if (n == 5) {
		o.mech_base = argv[4];
		o.mech_new = argv[5];
	}
	return run_validate(&o);
}
