// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens gate BASE.json NEW.json: a CI verdict that can fail. Each metric is tested with
 * Welch's t on the logs of its values (compare.h). It regresses when NEW is worse, the p-value
 * after Holm-Bonferroni adjustment over every tested metric is below --alpha (default 0.01),
 * and the estimate is worse by at least --min-effect (default 5%). It passes when, at the
 * one-sided level 1 - --beta (default 0.05), it cannot be worse by --min-effect or more; one
 * that is neither (too few runs, or too much noise, to tell) is inconclusive, with the runs that
 * would settle it. Exit 0 pass, 1 regression, 2 unusable input (or usage), 3 inconclusive
 * (0 with --accept-inconclusive).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/compare.h"
#include "schedlens/results.h"

#define GATE_MAX_METRICS 64
#define GATE_DEFAULT_ALPHA 0.01
#define GATE_INCONCLUSIVE 3
#define GATE_MAX_RUNS 1000	/* runs a side beyond which the runs needed are not given */

struct gate_opts {
	const char *base, *new;
	double min_effect;	/* percent */
	double beta;		/* the most a passing metric may be worse by min_effect, one-sided */
	const char *metrics[GATE_MAX_METRICS];
	size_t nmetrics;
	const char *junit;
	bool quiet;
	bool all;		/* every metric with a direction, not only the suite's gate metrics */
	bool accept_inconclusive;	/* smoke runs: inconclusive metrics do not fail */
	struct compare_opts cmp;
};

static struct gate_opts gate_opts;

enum gate_status { GATE_PASS, GATE_REGRESSION, GATE_IMPROVED, GATE_UNSURE };

struct gate_item {
	const char *entry, *metric;
	struct metric_cmp mc;
	double p_adj;		/* Holm-adjusted p */
	double alpha_i;		/* the Holm level it was tested at: its interval is at 1 - alpha_i */
	double worst_pct;	/* how much worse it may be, one-sided at 1 - alpha (< 0: worse) */
	size_t n_needed;	/* GATE_UNSURE: runs a side that would settle it (0: > 1000) */
	enum gate_status status;
};

static const char *const gate_usage[] = {
	"usage: schedlens gate [OPTIONS] BASE.json NEW.json",
	"",
	"Fail (exit 1) when NEW regresses against BASE: worse, significant after",
	"Holm-Bonferroni correction over all tested metrics (Welch's t on the logs), and",
	"worse by at least the minimum effect. Pass (exit 0) when no metric can be worse by",
	"the minimum effect (one-sided, at 1 - beta). A metric that is neither is",
	"inconclusive, with the runs a side that would tell: exit 3. Exit 2: unusable input.",
	NULL
};

/* Whether the suite marked gate metrics in @doc ("gate": true in an entry's metrics). */
static bool has_gate_marks(const json_t *doc)
{
	const json_t *e, *m;
	const char *name;
	size_t i;

	json_array_foreach(json_object_get(doc, "entries"), i, e)
		json_object_foreach(json_object_get(e, "metrics"), name, m)
			if (json_is_true(json_object_get(m, "gate")))
				return true;
	return false;
}

static bool selected(const struct gate_opts *o, const json_t *entry, const char *metric,
		     bool marks)
{
	size_t i;

	if (!o->nmetrics)
		return o->all || !marks ||
		       json_is_true(json_object_get(
			       json_object_get(json_object_get(entry, "metrics"), metric), "gate"));
	for (i = 0; i < o->nmetrics; i++)
		if (!strcmp(o->metrics[i], metric))
			return true;
	return false;
}

static const char *status_word(enum gate_status st)
{
	switch (st) {
	case GATE_REGRESSION:
		return "REGRESSION";
	case GATE_IMPROVED:
		return "improved";
	case GATE_UNSURE:
		return "INCONCLUSIVE";
	default:
		return "pass";
	}
}

static void describe(const struct gate_opts *o, const struct gate_item *it, char *buf,
		     size_t len)
{
	const struct metric_cmp *mc = &it->mc;
	bool worse = mc->change_pct < 0;
	double lo = worse ? -mc->change_hi : mc->change_lo, hi = worse ? -mc->change_lo : mc->change_hi;
	int n;

	if (mc->test == CMP_TEST_NONE) {
		snprintf(buf, len, "'%s' %s: n=%zu/%zu, a test needs at least 2 runs a side",
			 it->entry, it->metric, mc->base.n, mc->new.n);
		return;
	}
	n = snprintf(buf, len,
		     "'%s' %s: %s %.6g -> %.6g, %.2f%% %s (%.*g%% CI %.2f%% .. %.2f%% %s); "
		     "welch t%s p=%.3g, holm-adjusted p=%.3g %s alpha %g; n=%zu/%zu",
		     it->entry, it->metric, mc->welch.log ? "geometric mean" : "mean",
		     mc->welch.log ? exp(mc->welch.base_mean) : mc->base.mean,
		     mc->welch.log ? exp(mc->welch.base_mean + mc->welch.est) : mc->new.mean,
		     fabs(mc->change_pct), worse ? "worse" : "better",
		     2 + (int)ceil(-log10(it->alpha_i)), 100 * (1 - it->alpha_i), lo,
		     hi, worse ? "worse" : "better", mc->welch.log ? " on logs" : "", mc->p_value,
		     it->p_adj, it->p_adj < o->cmp.alpha ? "<" : ">=", o->cmp.alpha, mc->base.n,
		     mc->new.n);
	if (it->status != GATE_UNSURE || n < 0 || (size_t)n >= len)
		return;
	if (it->n_needed)
		snprintf(buf + n, len - n, "; may be %.2f%% worse (one-sided %g%%): about %zu runs a "
			 "side would tell", -it->worst_pct, 100 * (1 - o->beta), it->n_needed);
	else
		snprintf(buf + n, len - n, "; may be %.2f%% worse (one-sided %g%%): more than %d "
			 "runs a side would be needed", -it->worst_pct, 100 * (1 - o->beta),
			 GATE_MAX_RUNS);
}

static void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static int write_junit(const struct gate_opts *o, const struct gate_item *items, size_t n,
		       size_t failures)
{
	char line[1024], tmp[4096];
	FILE *f;
	size_t i;

	snprintf(tmp, sizeof(tmp), "%s.tmp", o->junit);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "schedlens gate: cannot create '%s': %s\n", tmp, strerror(errno));
		return -errno;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites>\n<testsuite name=\"schedlens gate\" tests=\"%zu\" "
		   "failures=\"%zu\" errors=\"0\">\n",
		n, failures);
	for (i = 0; i < n; i++) {
		fputs("  <testcase classname=\"", f);
		xml_escaped(f, items[i].entry);
		fputs("\" name=\"", f);
		xml_escaped(f, items[i].metric);
		fputs("\">", f);
		describe(o, &items[i], line, sizeof(line));
		if (items[i].status == GATE_REGRESSION ||
		    (items[i].status == GATE_UNSURE && !o->accept_inconclusive)) {
			fprintf(f, "\n    <failure message=\"%s\">",
				items[i].status == GATE_REGRESSION ? "regression" : "inconclusive");
			xml_escaped(f, line);
			fputs("</failure>\n  ", f);
		} else {
			fputs("<system-out>", f);
			xml_escaped(f, line);
			fputs("</system-out>", f);
		}
		fputs("</testcase>\n", f);
	}
	fputs("</testsuite>\n</testsuites>\n", f);
	if (fclose(f) || rename(tmp, o->junit)) {
		fprintf(stderr, "schedlens gate: cannot write '%s': %s\n", o->junit,
			strerror(errno));
		unlink(tmp);
		return -EIO;
	}
	return 0;
}

/*
 * Compare every selected metric with a direction: those with fewer than 2 runs on a side
 * come back untested (CMP_TEST_NONE). 0, or -EINVAL with detail in @err when a metric the gate
 * needs is missing from NEW (its entry, or its values), -ENOMEM.
 */
static int collect(const struct gate_opts *o, const json_t *base, const json_t *new,
		   struct gate_item **out, size_t *nout, struct errbuf *err)
{
	struct gate_item *items = NULL, *ni;
	const json_t *e, *ne, *m;
	const char *metric, *id;
	struct compare_opts fast = o->cmp;
	size_t i, n = 0;
	bool marks = has_gate_marks(base);
	int ret = 0;

	fast.resamples = 0;	/* the gate reads no bootstrap interval */
	json_array_foreach(json_object_get(base, "entries"), i, e) {
		id = json_string_value(json_object_get(e, "id"));
		ne = compare__find_entry(new, id);
		json_object_foreach(json_object_get(e, "metrics"), metric, m) {
			struct metric_cmp mc;

			if (!selected(o, e, metric, marks) ||
			    results__better(e, metric) == BETTER_NONE ||
			    !results__values(e, metric, NULL, 0))
				continue;	/* not measured in BASE: nothing to hold NEW to */
			if (!ne) {
				ret = err__set(err, -EINVAL, "'%s' has no entry '%s': its %s cannot be "
					       "gated", o->new, id, metric);
				goto out;
			}
			ret = compare__metric(e, ne, metric, &fast, &mc, err);
			if (ret == -ENOENT) {
				ret = err__set(err, -EINVAL, "'%s' has no value of '%s' in entry '%s'",
					       o->new, metric, id);
				goto out;
			}
			if (ret)
				goto out;
			ni = realloc(items, (n + 1) * sizeof(*items));
			if (!ni) {
				ret = err__set(err, -ENOMEM, "out of memory");
				goto out;
			}
			items = ni;
			items[n++] = (struct gate_item){ .entry = id, .metric = metric, .mc = mc };
		}
	}
out:
	if (ret) {
		free(items);
		items = NULL;
		n = 0;
	}
	*out = items;
	*nout = n;
	return ret;
}

/* @w as if each side had had @n runs with the spread measured (0: as measured) */
static struct cmp_welch welch_at(const struct cmp_welch *w, size_t n)
{
	struct cmp_welch at = *w;
	double vb, vn;

	if (!n)
		return at;
	vb = w->sd_base * w->sd_base / (double)n;
	vn = w->sd_new * w->sd_new / (double)n;
	at.se = sqrt(vb + vn);
	at.df = vb + vn > 0 ? (vb + vn) * (vb + vn) / ((vb * vb + vn * vn) / (double)(n - 1))
			    : (double)(2 * n - 2);
	return at;
}

/* how much worse @mc may be, one-sided at 1 - @beta, with @n runs a side (0: as measured) */
static double worst_change(const struct metric_cmp *mc, double beta, size_t n)
{
	struct cmp_welch w = welch_at(&mc->welch, n);
	double d = compare__welch_tq(&w, beta) * w.se;

	/* the worse direction: up when lower is better, down when higher is */
	return compare__welch_change(&w, mc->better == BETTER_LOWER ? w.est + d : w.est - d,
				     mc->better);
}

/* whether @n runs a side would settle @it, if the runs were as noisy as these */
static bool settles(const struct gate_opts *o, const struct gate_item *it, size_t n)
{
	struct cmp_welch w = welch_at(&it->mc.welch, n);

	if (it->mc.change_pct <= -o->min_effect &&
	    fabs(w.est) > compare__welch_tq(&w, it->alpha_i / 2) * w.se)
		return true;	/* a regression */
	return worst_change(&it->mc, o->beta, n) > -o->min_effect;
}

/*
 * Holm-Bonferroni over the tested items: each one's adjusted p and the level it was tested
 * at, alpha / (m - k) for the k-th smallest p, and after the first that is not rejected, that
 * one's level for all the rest, so that a metric's interval leaves out no change exactly when
 * it is significant. 0 or -ENOMEM.
 */
static int holm(const struct gate_opts *o, struct gate_item *items, size_t n)
{
	double *p = malloc((n ?: 1) * sizeof(*p)), level = NAN;
	size_t *idx = malloc((n ?: 1) * sizeof(*idx)), m = 0, i, j, t;

	if (!p || !idx) {
		free(p);
		free(idx);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		p[i] = items[i].mc.p_value;
		if (!isnan(p[i]))
			idx[m++] = i;
	}
	compare__holm(p, n, p);
	for (i = 1; i < m; i++)	/* by p, ascending */
		for (j = i; j > 0 && items[idx[j]].mc.p_value < items[idx[j - 1]].mc.p_value; j--) {
			t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (i = 0; i < m; i++) {
		struct gate_item *it = &items[idx[i]];

		if (isnan(level) && it->mc.p_value >= o->cmp.alpha / (double)(m - i))
			level = o->cmp.alpha / (double)(m - i);
		it->alpha_i = isnan(level) ? o->cmp.alpha / (double)(m - i) : level;
		it->p_adj = p[idx[i]];
	}
	free(p);
	free(idx);
	return 0;
}

/* The verdict of @it, its interval at its Holm level, and the runs that would settle it. */
static void judge(const struct gate_opts *o, struct gate_item *it, const json_t *base,
		  const json_t *new)
{
	struct metric_cmp *mc = &it->mc;
	struct compare_opts at = o->cmp;
	struct errbuf err;
	bool sig;
	size_t n;

	if (mc->test == CMP_TEST_NONE) {
		it->status = GATE_UNSURE;
		it->p_adj = NAN;
		it->n_needed = 2;
		return;
	}
	/* the interval at the level the metric was tested at, not at alpha */
	at.alpha = it->alpha_i;
	at.resamples = 0;
	compare__metric(compare__find_entry(base, it->entry), compare__find_entry(new, it->entry),
			it->metric, &at, mc, &err);
	sig = it->p_adj < o->cmp.alpha;
	it->worst_pct = worst_change(mc, o->beta, 0);
	if (sig && mc->change_pct <= -o->min_effect)
		it->status = GATE_REGRESSION;
	else if (sig && mc->change_pct >= o->min_effect)
		it->status = GATE_IMPROVED;
	else if (it->worst_pct > -o->min_effect)
		it->status = GATE_PASS;
	else
		it->status = GATE_UNSURE;
	if (it->status != GATE_UNSURE)
		return;
	n = mc->base.n > mc->new.n ? mc->base.n : mc->new.n;
	for (n++; n <= GATE_MAX_RUNS && !settles(o, it, n); n++)
		;
	it->n_needed = n <= GATE_MAX_RUNS ? n : 0;
}

/* Median 1-minute load average over the iterations of @doc (run records it); -1 if none. */
static double median_load(const json_t *doc)
{
	const json_t *e, *it;
	double *v = NULL, *nv, m = -1;
	size_t i, k, n = 0;

	json_array_foreach(json_object_get(doc, "entries"), i, e)
		json_array_foreach(json_object_get(e, "iterations"), k, it) {
			const json_t *l = json_object_get(it, "loadavg");

			if (!json_is_number(l) || !(nv = realloc(v, (n + 1) * sizeof(*v))))
				continue;
			v = nv;
			v[n++] = json_number_value(l);
		}
	if (n) {
		struct summary s;

		if (!stats__summarize(v, n, &s))
			m = s.median;
	}
	free(v);
	return m;
}

static int run_gate(const struct gate_opts *o)
{
	json_t *base = NULL, *new = NULL;
	struct gate_item *items = NULL;
	struct errbuf err = { "" };
	size_t n = 0, i, regressions = 0, unsure = 0;
	const char *verdict;
	char line[1024];
	int ret = 2;

	base = results__read(o->base, &err);
	if (!base)
		goto out_err;
	new = results__read(o->new, &err);
	if (!new || compare__check(base, o->base, new, o->new, &err))
		goto out_err;
	if (collect(o, base, new, &items, &n, &err))
		goto out_err;
	if (!n) {
		err__set(&err, -EINVAL, "nothing to gate on: no %smetric with a better direction "
			 "has values in '%s'", o->nmetrics ? "selected " : "", o->base);
		goto out_err;
	}
	if (holm(o, items, n)) {
		err__set(&err, -ENOMEM, "out of memory");
		goto out_err;
	}
	for (i = 0; i < n; i++) {
		struct gate_item *it = &items[i];

		judge(o, it, base, new);
		regressions += it->status == GATE_REGRESSION;
		unsure += it->status == GATE_UNSURE;
		if (it->status == GATE_REGRESSION || it->status == GATE_UNSURE ||
		    (!o->quiet && it->status == GATE_IMPROVED)) {
			describe(o, it, line, sizeof(line));
			printf("%s %s\n", status_word(it->status), line);
		}
	}
	if (o->junit && write_junit(o, items, n, regressions + (o->accept_inconclusive ? 0 : unsure)))
		goto out_free;
	{
		double lb = median_load(base), ln = median_load(new);

		if (lb >= 0 && ln >= 0 && fabs(ln - lb) > 1 && (ln > 1.5 * lb || lb > 1.5 * ln))
			printf("note: the machine's load average differed (median %.2f in BASE, "
			       "%.2f in NEW): other work may explain a difference\n",
			       lb, ln);
	}
	verdict = regressions ? "FAIL" : !unsure ? "pass" :
		  o->accept_inconclusive ? "pass (inconclusive accepted)" : "INCONCLUSIVE";
	printf("gate: %s: %zu metric%s tested, %zu regression%s, %zu inconclusive (welch t on "
	       "logs, holm-bonferroni at alpha %g, min effect %g%%)",
	       verdict, n, n == 1 ? "" : "s", regressions, regressions == 1 ? "" : "s", unsure,
	       o->cmp.alpha, o->min_effect);
	if (!o->nmetrics && !o->all && has_gate_marks(base))
		printf("; the suite's gate metrics, --all for every metric");
	printf("\n");
	ret = regressions ? 1 : unsure && !o->accept_inconclusive ? GATE_INCONCLUSIVE : 0;
	if (fflush(stdout)) {
		perror("schedlens gate: stdout");
		ret = 2;
	}
	goto out_free;
out_err:
	fprintf(stderr, "schedlens gate: %s\n", err.msg);
out_free:
	free(items);
	json_decref(base);
	json_decref(new);
	return ret;
}

int cmd_gate(int argc, char **argv)
{
	struct gate_opts *o = &gate_opts;
	long seed;
	const struct option opts[] = {
		OPT_PERCENT(0, "min-effect", &o->min_effect, 0, 1000, OPTION_OPEN_MAX, "P",
			    "smallest regression that counts, and the most a passing\n"
			    "metric may be worse, in % (default 5%)"),
		OPT_DOUBLE_OPEN(0, "alpha", &o->cmp.alpha, 0, 1, "A",
				"family-wise significance level (default 0.01): the chance\n"
				"of a false regression"),
		OPT_DOUBLE_OPEN(0, "beta", &o->beta, 0, 0.5, "B",
				"the chance that a metric worse by the minimum effect\n"
				"passes (default 0.05)"),
		OPT_STRINGS('m', "metric", o->metrics, &o->nmetrics, GATE_MAX_METRICS, "NAME",
			    "gate on this metric only (repeat)"),
		OPT_FLAG('a', "all", &o->all,
			 "every metric with a direction (default: the suite's gate\n"
			 "metrics when the results mark some, else all)"),
		OPT_FLAG(0, "accept-inconclusive", &o->accept_inconclusive,
			 "exit 0 when nothing regressed but some metric is\n"
			 "inconclusive (smoke runs); they are still listed"),
		OPT_STRING(0, "junit", &o->junit, "FILE", "also write a JUnit XML report"),
		OPT_INT(0, "seed", &seed, 0, LONG_MAX, "N",
			"bootstrap seed for the intervals (default 1)"),
		OPT_FLAG('q', "quiet", &o->quiet, "print regressions and the verdict only"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens gate", gate_usage, opts, 0 };
	int n, code;

	memset(o, 0, sizeof(*o));
	o->min_effect = 5;
	o->beta = 0.05;
	compare_opts__init(&o->cmp);
	/* measured by scripts/bench-gate.sh: 0.05 fired in 3% of A/A pairs here */
	o->cmp.alpha = GATE_DEFAULT_ALPHA;
	seed = (long)o->cmp.seed;
	n = cmd_options__parse(&cmd, argc, argv, &code);
	if (n < 0)
		return code;
	o->cmp.seed = (unsigned long)seed;
	if (n != 2)
		return cmd_options__error(&cmd, "needs exactly BASE.json and NEW.json");
	o->base = argv[1];
	o->new = argv[2];
	return run_gate(o);
}
