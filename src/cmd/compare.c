// SPDX-License-Identifier: GPL-2.0
/* schedlens compare BASE.json NEW.json [MORE.json ...]: comparison tables and plots. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/compare.h"
#include "schedlens/plot.h"
#include "schedlens/results.h"
#include "schedlens/table.h"

#define MAX_DOCS 16
#define MAX_METRICS 64

struct compare_cmd_opts {
	const char *paths[MAX_DOCS];
	const char *labels[MAX_DOCS];
	size_t ndocs, nlabels;
	const char *metrics[MAX_METRICS];
	size_t nmetrics;
	enum compare_style style;
	enum table_format format;
	bool json;
	const char *plot;
	int precision;
	struct compare_opts cmp;
};

static struct compare_cmd_opts compare_opts;

static const char *const compare_usage[] = {
	"usage: schedlens compare [OPTIONS] BASE.json [NEW.json MORE.json ...]",
	"",
	"Compare results documents entry by entry (aligned by entry id); with one",
	"document, summarise it (Min, Amean/Hmean, Stddev, CoeffVar, Max, BAmean-95).",
	NULL
};

static int load_docs(const struct compare_cmd_opts *o, json_t **docs, char **labels)
{
	struct errbuf err = { "" };
	size_t i;

	for (i = 0; i < o->ndocs; i++) {
		docs[i] = results__read(o->paths[i], &err);
		if (!docs[i]) {
			fprintf(stderr, "schedlens compare: %s\n", err.msg);
			return -EINVAL;
		}
		if (i < o->nlabels) {
			labels[i] = strdup(o->labels[i]);
		} else {
			char *copy = strdup(o->paths[i]), *dot;

			labels[i] = copy ? strdup(basename(copy)) : NULL;
			free(copy);
			if (labels[i] && (dot = strstr(labels[i], ".json")) && !dot[5])
				*dot = '\0';
		}
		if (!labels[i])
			return -ENOMEM;
		if (i && compare__check(docs[0], o->paths[0], docs[i], o->paths[i], &err)) {
			fprintf(stderr, "schedlens compare: %s\n", err.msg);
			return -EINVAL;
		}
	}
	return 0;
}

/* every -m metric is declared by some entry of BASE: else a typo, said as gate says it */
static int check_metrics(const struct compare_cmd_opts *o, const json_t *base)
{
	const json_t *e;
	size_t i, k;
	bool found;

	for (k = 0; k < o->nmetrics; k++) {
		found = false;
		json_array_foreach(json_object_get(base, "entries"), i, e)
			found |= json_object_get(json_object_get(e, "metrics"), o->metrics[k]) != NULL;
		if (!found) {
			fprintf(stderr, "schedlens compare: no selected metric '%s' in any entry of "
				"'%s'\n", o->metrics[k], o->paths[0]);
			return -EINVAL;
		}
	}
	return 0;
}

static int run_compare(const struct compare_cmd_opts *o)
{
	json_t *docs[MAX_DOCS] = { 0 };
	char *labels[MAX_DOCS] = { 0 };
	struct errbuf err = { "" };
	struct compare_render r = { 0 };
	size_t i;
	int ret;

	ret = load_docs(o, docs, labels);
	if (ret)
		goto out_free;
	if (check_metrics(o, docs[0])) {
		ret = 2;
		goto out_free;
	}
	r.docs = (const json_t *const *)docs;
	r.labels = (const char *const *)labels;
	r.ndocs = o->ndocs;
	r.style = o->style;
	r.precision = o->precision;
	r.metrics = o->nmetrics ? o->metrics : NULL;
	r.nmetrics = o->nmetrics;
	r.opts = o->cmp;
	if (o->json) {
		json_t *j = compare__to_json(&r);

		ret = j ? results__write(j, "-", stdout, &err) : -ENOMEM;
		json_decref(j);
	} else if (o->format == TABLE_CSV && o->ndocs > 1) {
		/* for programs: one table, whatever the style */
		ret = compare__tidy_csv(&r, stdout, &err);
	} else {
		ret = compare__render(&r, o->format, stdout, &err);
	}
	if (!ret && o->plot)
		ret = plot__svg(&r, o->plot, &err);
	if (ret)
		fprintf(stderr, "schedlens compare: %s\n", *err.msg ? err.msg : strerror(-ret));
	if (fflush(stdout)) {
		perror("schedlens compare: stdout");
		ret = -EIO;
	}
out_free:
	for (i = 0; i < o->ndocs; i++) {
		json_decref(docs[i]);
		free(labels[i]);
	}
	return ret == 2 ? 2 : ret ? 1 : 0;
}

/* -s STYLE */
static int opt_style(const struct option *opt, const char *arg, struct errbuf *err)
{
	static const struct {
		const char *name;
		enum compare_style style;
	} styles[] = {
		{ "default", COMPARE_STYLE_DEFAULT },
		{ "mmtests", COMPARE_STYLE_MMTESTS },
		{ "perf-stat", COMPARE_STYLE_PERF_STAT },
	};
	enum compare_style *style = opt->data;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(styles); i++) {
		if (!strcmp(arg, styles[i].name)) {
			*style = styles[i].style;
			return 0;
		}
	}
	return err__set(err, -EINVAL, "unknown style (default, mmtests or perf-stat)");
}

/* -f FMT: a table format, or json */
static int opt_format(const struct option *opt, const char *arg, struct errbuf *err)
{
	struct compare_cmd_opts *o = opt->data;

	o->json = !strcmp(arg, "json");
	if (!o->json && table_format__parse(arg, &o->format))
		return err__set(err, -EINVAL, "unknown format (text, markdown, csv or json)");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cmd_opts *o = &compare_opts;
	long precision = -1, seed, resamples;
	const struct option opts[] = {
		OPT_CALLBACK('s', "style", &o->style, opt_style, "STYLE",
			     "default (medians; the change of the geometric means,\n"
			     "its CI at 1-alpha and Welch's t on the logs), mmtests,\n"
			     "perf-stat"),
		OPT_CALLBACK('f', "format", o, opt_format, "FMT",
			     "text (default), markdown, csv, json; csv and json are one\n"
			     "tidy table (a row per entry, metric and NEW document)"),
		OPT_STRINGS('l', "label", o->labels, &o->nlabels, MAX_DOCS, "NAME",
			    "column title of the next document (repeat; default:\n"
			    "the file name without .json)"),
		OPT_STRINGS('m', "metric", o->metrics, &o->nmetrics, MAX_METRICS, "NAME",
			    "only this metric (repeat)"),
		OPT_STRING(0, "plot", &o->plot, "FILE.svg",
			   "also draw every metric per iteration with intervals"),
		OPT_INT(0, "precision", &precision, 0, 12, "N",
			"decimals of values in mmtests tables (default: per table)"),
		OPT_DOUBLE_OPEN(0, "alpha", &o->cmp.alpha, 0, 1, "A",
				"significance level (default 0.05)"),
		OPT_INT(0, "seed", &seed, 0, LONG_MAX, "N",
			"seed of the medians' bootstrap interval (-f json)"),
		OPT_INT(0, "resamples", &resamples, 100, 10000000, "N",
			"bootstrap resamples (default 10000)"),
		OPT_TEXT(""),
		OPT_TEXT("Percentages are positive when NEW is better. In mmtests style '*' marks a mean"),
		OPT_TEXT("whose mean+-1.96*SD interval does not overlap the base's (MMTests' rule)."),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens compare", compare_usage, opts, 0 };
	int n, code, i;

	memset(o, 0, sizeof(*o));
	compare_opts__init(&o->cmp);
	seed = (long)o->cmp.seed;
	resamples = o->cmp.resamples;
	n = cmd_options__parse(&cmd, argc, argv, &code);
	if (n < 0)
		return code;
	o->precision = (int)precision;
	o->cmp.seed = (unsigned long)seed;
	o->cmp.resamples = (unsigned int)resamples;
	if (n < 1)
		return cmd_options__error(&cmd, "needs at least one results file");
	if (n > MAX_DOCS)
		return cmd_options__error(&cmd, "at most %d documents; too many from '%s'",
					  MAX_DOCS, argv[1 + MAX_DOCS]);
	if (o->nlabels > (size_t)n)
		return cmd_options__error(&cmd, "more labels than documents at '%s'",
					  o->labels[o->nlabels - 1]);
	for (i = 1; i <= n; i++)
		o->paths[o->ndocs++] = argv[i];
	return run_compare(o);
}
