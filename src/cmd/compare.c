// SPDX-License-Identifier: GPL-2.0
/* schedlens compare BASE.json NEW.json [MORE.json ...]: comparison tables and plots. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: schedlens compare [OPTIONS] BASE.json [NEW.json MORE.json ...]\n\n"
		"Compare results documents entry by entry (aligned by entry id); with one\n"
		"document, summarise it (Min, Amean/Hmean, Stddev, CoeffVar, Max, BAmean-95).\n\n"
		"  -s, --style STYLE     default (medians; the change of the geometric means,\n"
		"                        its CI at 1-alpha and Welch's t on the logs), mmtests,\n"
		"                        perf-stat\n"
		"  -f, --format FMT      text (default), markdown, csv, json; csv and json are one\n"
		"                        tidy table (a row per entry, metric and NEW document)\n"
		"  -l, --label NAME      column title of the next document (repeat; default:\n"
		"                        the file name without .json)\n"
		"  -m, --metric NAME     only this metric (repeat)\n"
		"      --plot FILE.svg   also draw every metric per iteration with intervals\n"
		"      --precision N     decimals of values in mmtests tables (default: per table)\n"
		"      --alpha A         significance level (default 0.05)\n"
		"      --seed N          seed of the medians' bootstrap interval (-f json)\n"
		"      --resamples N     bootstrap resamples (default 10000)\n"
		"  -h, --help\n\n"
		"Percentages are positive when NEW is better. In mmtests style '*' marks a mean\n"
		"whose mean+-1.96*SD interval does not overlap the base's (MMTests' rule).\n");
}

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

		ret = j ? results__write(j, "-", &err) : -ENOMEM;
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

static int bad_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "schedlens compare: %s '%s'\n", msg, arg);
	usage(stderr);
	return 2;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "style", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, 'l' },
		{ "metric", required_argument, NULL, 'm' },
		{ "plot", required_argument, NULL, 'P' },
		{ "precision", required_argument, NULL, 'p' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "seed", required_argument, NULL, 'S' },
		{ "resamples", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_cmd_opts *o = &compare_opts;
	long l;
	int c;

	memset(o, 0, sizeof(*o));
	o->precision = -1;
	compare_opts__init(&o->cmp);
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:f:l:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!strcmp(optarg, "mmtests"))
				o->style = COMPARE_STYLE_MMTESTS;
			else if (!strcmp(optarg, "perf-stat"))
				o->style = COMPARE_STYLE_PERF_STAT;
			else if (!strcmp(optarg, "default"))
				o->style = COMPARE_STYLE_DEFAULT;
			else
				return bad_usage("unknown style", optarg);
			break;
		case 'f':
			o->json = !strcmp(optarg, "json");
			if (!o->json && table_format__parse(optarg, &o->format))
				return bad_usage("unknown format", optarg);
			break;
		case 'l':
			if (o->nlabels == MAX_DOCS)
				return bad_usage("too many labels at", optarg);
			o->labels[o->nlabels++] = optarg;
			break;
		case 'm':
			if (o->nmetrics == MAX_METRICS)
				return bad_usage("too many metrics at", optarg);
			o->metrics[o->nmetrics++] = optarg;
			break;
		case 'P':
			o->plot = optarg;
			break;
		case 'p':
			if (parse_long(optarg, 0, 12, &l))
				return bad_usage("precision must be 0..12, not", optarg);
			o->precision = (int)l;
			break;
		case 'a':
			if (parse_double(optarg, &o->cmp.alpha) || !(o->cmp.alpha > 0) ||
			    !(o->cmp.alpha < 1))
				return bad_usage("alpha must be in (0, 1), not", optarg);
			break;
		case 'S':
			if (parse_long(optarg, 0, LONG_MAX, &l))
				return bad_usage("bad seed", optarg);
			o->cmp.seed = (unsigned long)l;
			break;
		case 'R':
			if (parse_long(optarg, 100, 10000000, &l))
				return bad_usage("resamples must be 100..10000000, not", optarg);
			o->cmp.resamples = (unsigned int)l;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind < 1) {
		fprintf(stderr, "schedlens compare: needs at least one results file\n");
		usage(stderr);
		return 2;
	}
	if (argc - optind > MAX_DOCS)
		return bad_usage("at most 16 documents; too many from", argv[optind + MAX_DOCS]);
	if (o->nlabels > (size_t)(argc - optind))
		return bad_usage("more labels than documents at", o->labels[o->nlabels - 1]);
	while (optind < argc)
		o->paths[o->ndocs++] = argv[optind++];
	return run_compare(o);
}
