// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens gate BASE.json NEW.json: a CI verdict. A metric regresses when NEW is worse, the
 * Mann-Whitney U p-value after Holm-Bonferroni adjustment over every tested metric is below
 * --alpha (default 0.01), and the median got worse by at least --min-effect (default 3%). Exit 0 pass, 1 regression,
 * 2 unusable input (or usage).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/commands.h"
#include "schedlens/compare.h"
#include "schedlens/results.h"

#define GATE_MAX_METRICS 64
#define GATE_DEFAULT_ALPHA 0.01

struct gate_opts {
	const char *base, *new;
	double min_effect;	/* percent */
	const char *metrics[GATE_MAX_METRICS];
	size_t nmetrics;
	const char *junit;
	bool quiet;
	bool all;		/* every metric with a direction, not only the suite's gate metrics */
	struct compare_opts cmp;
};

static struct gate_opts gate_opts;

struct gate_item {
	const char *entry, *metric;
	struct metric_cmp mc;
	double p_adj;
	bool regression, improvement;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: schedlens gate [OPTIONS] BASE.json NEW.json\n\n"
		"Fail (exit 1) when NEW regresses against BASE: worse, significant after\n"
		"Holm-Bonferroni correction over all tested metrics (Mann-Whitney U), and worse by\n"
		"at least the minimum effect. Exit 0 pass, 2 unusable input.\n\n"
		"      --min-effect P   smallest regression that counts, in %% (default 3%%)\n"
		"      --alpha A        family-wise significance level (default 0.01)\n"
		"  -m, --metric NAME    gate on this metric only (repeat)\n"
		"  -a, --all            every metric with a direction (default: the suite's gate\n"
		"                       metrics when the results mark some, else all)\n"
		"      --junit FILE     also write a JUnit XML report\n"
		"      --seed N         bootstrap seed for the intervals (default 1)\n"
		"  -q, --quiet          print regressions and the verdict only\n"
		"  -h, --help\n");
}

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

static void describe(const struct gate_opts *o, const struct gate_item *it, char *buf,
		     size_t len)
{
	const struct metric_cmp *mc = &it->mc;
	bool worse = mc->change_pct < 0;
	double lo = worse ? -mc->change_hi : mc->change_lo, hi = worse ? -mc->change_lo : mc->change_hi;
	char ci[96];

	if (isnan(lo))
		snprintf(ci, sizeof(ci), "not significant: no interval computed");
	else
		snprintf(ci, sizeof(ci), "%.0f%% CI %.2f%% .. %.2f%% %s", 100 * o->cmp.confidence,
			 lo, hi, worse ? "worse" : "better");
	snprintf(buf, len,
		 "'%s' %s: median %.6g -> %.6g, %.2f%% %s (%s); mann-whitney u (%s) p=%.3g, "
		 "holm-adjusted p=%.3g %s alpha %g; n=%zu/%zu",
		 it->entry, it->metric, mc->base.median, mc->new.median, fabs(mc->change_pct),
		 worse ? "worse" : "better", ci, mc->test == CMP_TEST_MWU_EXACT ? "exact" : "normal",
		 mc->p_value, it->p_adj, it->p_adj < o->cmp.alpha ? "<" : ">=", o->cmp.alpha,
		 mc->base.n, mc->new.n);
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
		if (items[i].regression) {
			fputs("\n    <failure message=\"regression\">", f);
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

/* Compare every selected metric with a direction; 0 or the exit code for unusable input. */
static int collect(const struct gate_opts *o, const json_t *base, const json_t *new,
		   struct gate_item **out, size_t *nout, size_t *skipped)
{
	struct gate_item *items = NULL, *ni;
	const json_t *e, *ne, *m;
	const char *metric;
	struct compare_opts fast = o->cmp;
	struct errbuf err;
	size_t i, n = 0;
	bool marks = has_gate_marks(base);

	/* the verdict needs Mann-Whitney only: intervals later, for what gets reported */
	fast.resamples = 0;
	*skipped = 0;
	json_array_foreach(json_object_get(base, "entries"), i, e) {
		ne = compare__find_entry(new, json_string_value(json_object_get(e, "id")));
		if (!ne)
			continue;
		json_object_foreach(json_object_get(e, "metrics"), metric, m) {
			struct metric_cmp mc;

			if (!selected(o, e, metric, marks) ||
			    results__better(e, metric) == BETTER_NONE)
				continue;
			if (compare__metric(e, ne, metric, &fast, &mc, &err) ||
			    mc.base.n < 2 || mc.new.n < 2) {
				(*skipped)++;
				continue;
			}
			if (mc.significant &&
			    compare__metric(e, ne, metric, &o->cmp, &mc, &err)) {
				(*skipped)++;
				continue;
			}
			ni = realloc(items, (n + 1) * sizeof(*items));
			if (!ni) {
				free(items);
				return -ENOMEM;
			}
			items = ni;
			items[n] = (struct gate_item){
				.entry = json_string_value(json_object_get(e, "id")),
				.metric = metric, .mc = mc,
			};
			n++;
		}
	}
	*out = items;
	*nout = n;
	return 0;
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
	size_t n = 0, i, regressions = 0, skipped;
	double *p = NULL;
	char line[1024];
	int ret = 2;

	base = results__read(o->base, &err);
	if (!base)
		goto out_err;
	new = results__read(o->new, &err);
	if (!new || compare__check(base, o->base, new, o->new, &err))
		goto out_err;
	if (collect(o, base, new, &items, &n, &skipped)) {
		err__set(&err, -ENOMEM, "out of memory");
		goto out_err;
	}
	if (!n) {
		err__set(&err, -EINVAL,
			 "nothing to gate on: no %smetric with a better direction has at least 2 "
			 "iterations on both sides",
			 o->nmetrics ? "selected " : "");
		goto out_err;
	}
	p = malloc(n * sizeof(*p));
	if (!p) {
		err__set(&err, -ENOMEM, "out of memory");
		goto out_err;
	}
	for (i = 0; i < n; i++)
		p[i] = items[i].mc.p_value;
	compare__holm(p, n, p);
	for (i = 0; i < n; i++) {
		struct gate_item *it = &items[i];
		bool sig = p[i] < o->cmp.alpha;

		it->p_adj = p[i];
		it->regression = sig && it->mc.change_pct <= -o->min_effect;
		it->improvement = sig && it->mc.change_pct >= o->min_effect;
		regressions += it->regression;
		if (it->regression || (!o->quiet && it->improvement)) {
			describe(o, it, line, sizeof(line));
			printf("%s %s\n", it->regression ? "REGRESSION" : "improved", line);
		}
	}
	if (o->junit && write_junit(o, items, n, regressions))
		goto out_free;
	{
		double lb = median_load(base), ln = median_load(new);

		if (lb >= 0 && ln >= 0 && fabs(ln - lb) > 1 && (ln > 1.5 * lb || lb > 1.5 * ln))
			printf("note: the machine's load average differed (median %.2f in BASE, "
			       "%.2f in NEW): other work may explain a difference\n",
			       lb, ln);
	}
	printf("gate: %s: %zu metric%s tested, %zu regression%s (mann-whitney u, "
	       "holm-bonferroni at alpha %g, min effect %g%%)",
	       regressions ? "FAIL" : "pass", n, n == 1 ? "" : "s", regressions,
	       regressions == 1 ? "" : "s", o->cmp.alpha, o->min_effect);
	if (!o->nmetrics && !o->all && has_gate_marks(base))
		printf("; the suite's gate metrics, --all for every metric");
	if (skipped)
		printf("; %zu skipped (fewer than 2 iterations)", skipped);
	printf("\n");
	ret = regressions ? 1 : 0;
	if (fflush(stdout)) {
		perror("schedlens gate: stdout");
		ret = 2;
	}
	goto out_free;
out_err:
	fprintf(stderr, "schedlens gate: %s\n", err.msg);
out_free:
	free(p);
	free(items);
	json_decref(base);
	json_decref(new);
	return ret;
}

static int bad_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "schedlens gate: %s '%s'\n", msg, arg);
	usage(stderr);
	return 2;
}

static int parse_pct(const char *s, double *out)
{
	char buf[64];
	size_t len = strlen(s);

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", s);
	if (buf[len - 1] == '%')
		buf[len - 1] = '\0';
	if (parse_double(buf, out) || *out < 0 || *out >= 1000)
		return -EINVAL;
	return 0;
}

int cmd_gate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "min-effect", required_argument, NULL, 'e' },
		{ "alpha", required_argument, NULL, 'P' },
		{ "metric", required_argument, NULL, 'm' },
		{ "junit", required_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gate_opts *o = &gate_opts;
	long l;
	int c;

	memset(o, 0, sizeof(*o));
	o->min_effect = 3;
	compare_opts__init(&o->cmp);
	/* measured by scripts/bench-gate.sh: 0.05 fired in 3% of A/A pairs here */
	o->cmp.alpha = GATE_DEFAULT_ALPHA;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:qah", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (parse_pct(optarg, &o->min_effect))
				return bad_usage("min effect must be a percentage like 3%, not",
						 optarg);
			break;
		case 'P':
			if (parse_double(optarg, &o->cmp.alpha) || !(o->cmp.alpha > 0) ||
			    !(o->cmp.alpha < 1))
				return bad_usage("alpha must be in (0, 1), not", optarg);
			break;
		case 'm':
			if (o->nmetrics == GATE_MAX_METRICS)
				return bad_usage("too many metrics at", optarg);
			o->metrics[o->nmetrics++] = optarg;
			break;
		case 'j':
			o->junit = optarg;
			break;
		case 'S':
			if (parse_long(optarg, 0, LONG_MAX, &l))
				return bad_usage("bad seed", optarg);
			o->cmp.seed = (unsigned long)l;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'a':
			o->all = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "schedlens gate: needs exactly BASE.json and NEW.json\n");
		usage(stderr);
		return 2;
	}
	o->base = argv[optind];
	o->new = argv[optind + 1];
	return run_gate(o);
}
