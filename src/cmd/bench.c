// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens bench: run a built-in workload stand-alone, -r times, print a human line per run
 * and optionally a results document (kind "bench"). Ctrl-C ends it at once: the line of the
 * run in flight covers the part that ran, the document holds the complete runs, exit 130.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/phase.h"
#include "schedlens/results.h"
#include "schedlens/stats.h"
#include "schedlens/workload.h"

#define BENCH_MAX_REPEAT 1000

struct bench_opts {
	const struct workload *w;
	void *cfg;
	long repeat;
	bool json, list;
	const char *output;	/* results document path, "-" for stdout, NULL for none */
};

static struct bench_opts bench_opts;

static const char *const bench_usage[] = {
	"usage: schedlens bench NAME [workload options] [-r N] [--json] [-o FILE]",
	"       schedlens bench --list",
	"       schedlens bench NAME --help",
	NULL
};

static void bench_list(void)
{
	size_t i;

	for (i = 0; workloads[i]; i++)
		printf("  %-20s %s\n", workloads[i]->name, workloads[i]->summary);
}

/* id "NAME k=v k=v" from the parameters, so that compare aligns equal set-ups */
static void bench_entry_id(const char *name, const json_t *params, char *buf, size_t len)
{
	const char *k;
	json_t *v;
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", name);
	json_object_foreach((json_t *)params, k, v) {
		if (n >= len)
			break;
		if (json_is_string(v))
			n += (size_t)snprintf(buf + n, len - n, " %s=%s", k, json_string_value(v));
		else if (json_is_integer(v))
			n += (size_t)snprintf(buf + n, len - n, " %s=%lld", k,
					      (long long)json_integer_value(v));
		else if (json_is_number(v))
			n += (size_t)snprintf(buf + n, len - n, " %s=%g", k, json_number_value(v));
	}
}

static int bench_record(json_t *entry, const json_t *metrics)
{
	const char *k, *unit, *better;
	json_t *m, *it = results__add_iteration(entry);
	enum better b;

	if (!it)
		return -ENOMEM;
	json_object_foreach((json_t *)metrics, k, m) {
		unit = json_string_value(json_object_get(m, "unit")) ?: "";
		better = json_string_value(json_object_get(m, "better")) ?: "none";
		b = !strcmp(better, "lower") ? BETTER_LOWER :
		    !strcmp(better, "higher") ? BETTER_HIGHER : BETTER_NONE;
		if (results__declare(entry, k, unit, b) ||
		    results__set(it, k, json_number_value(json_object_get(m, "value"))))
			return -ENOMEM;
	}
	return 0;
}

static void bench_summary(FILE *f, const json_t *entry, long n)
{
	json_t *metrics = json_object_get(entry, "metrics"), *m;
	double *v = calloc((size_t)n, sizeof(*v));
	struct summary s;
	const char *k;
	size_t got;

	if (!v)
		return;
	fprintf(f, "%s: %ld runs, mean +- sem:\n", json_string_value(json_object_get(entry, "id")),
		n);
	json_object_foreach(metrics, k, m) {
		got = results__values(entry, k, v, (size_t)n);
		if (!got || stats__summarize(v, got, &s))
			continue;
		fprintf(f, "  %-24s %14.6g %-6s ( +- %.2f%% )\n", k, s.mean,
			results__unit(entry, k), s.sem_pct);
	}
	free(v);
}

static void bench_on_sigint(int sig)
{
	workload__stop();
}

/*
 * Can results__write() create @path? It writes a temporary file beside it and renames that
 * over it: try the same before any work. 0, or -errno after saying why.
 */
static int bench_check_output(const char *path)
{
	const char *slash = strrchr(path, '/');
	char tmp[4096];
	struct stat st;
	int fd, e = 0;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		e = EISDIR;
	} else if ((size_t)snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX",
				    slash ? (int)(slash - path + 1) : 0, path,
				    slash ? slash + 1 : path) >= sizeof(tmp)) {
		e = ENAMETOOLONG;
	} else {
		fd = mkstemp(tmp);
		if (fd < 0) {
			e = errno;
		} else {
			close(fd);
			unlink(tmp);
		}
	}
	if (e)
		fprintf(stderr, "bench: cannot create '%s': %s\n", path, strerror(e));
	return -e;
}

/* After a stop: say what the document holds and where the run stood. */
static void bench_interrupted(const struct bench_opts *o, long run, long done, bool partial)
{
	char where[128];

	if (done == run)
		snprintf(where, sizeof(where), "after run %ld of %ld", done, o->repeat);
	else
		snprintf(where, sizeof(where), "in run %ld of %ld%s", run, o->repeat,
			 partial ? " (its line above covers the part that ran)" : "");
	if (!o->output)
		fprintf(stderr, "bench: interrupted %s\n", where);
	else if (done && !strcmp(o->output, "-"))
		fprintf(stderr, "bench: interrupted %s: the document on stdout holds the %ld "
				"complete run%s\n", where, done, done == 1 ? "" : "s");
	else if (done)
		fprintf(stderr, "bench: interrupted %s: '%s' holds the %ld complete run%s\n", where,
			o->output, done, done == 1 ? "" : "s");
	else
		fprintf(stderr, "bench: interrupted %s: no complete run, no document written\n",
			where);
}

static int run_bench(const struct bench_opts *o)
{
	bool doc_to_stdout = o->output && !strcmp(o->output, "-"), partial = false;
	FILE *human = doc_to_stdout ? stderr : stdout;
	struct sigaction sa = { .sa_handler = bench_on_sigint }, old_sa;
	struct phase *ph = phase__from_env();
	json_t *doc = NULL, *params, *entry = NULL, *metrics;
	struct errbuf err = { "" };
	char id[512], line[1024];
	int ret = 0;
	long i, done = 0;

	params = o->w->params(o->cfg);
	bench_entry_id(o->w->name, params, id, sizeof(id));
	doc = results__new("bench");
	entry = doc ? results__entry(doc, id, o->w->name, params) : NULL;
	if (!entry) {
		fprintf(stderr, "bench: out of memory\n");
		ret = 1;
		goto out_free;
	}
	/* Ctrl-C ends the run in flight with what it measured (workload.h); no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_sa);
	for (i = 0; i < o->repeat && !ret && !workload__stopped(); i++) {
		metrics = json_object();
		err.msg[0] = '\0';
		ret = metrics ? o->w->run(o->cfg, ph, metrics, &err) : -ENOMEM;
		if (ret == -EINTR) {
			partial = json_object_size(metrics) > 0;
			if (partial) {
				o->w->format(o->cfg, metrics, line, sizeof(line));
				fprintf(human, "%s\n", line);
				fflush(human);
			}
		} else if (ret) {
			fprintf(stderr, "bench: %s: %s\n", o->w->name, err.msg[0] ? err.msg : strerror(-ret));
		} else {
			/* a line per run as it ends, to follow a long -r */
			o->w->format(o->cfg, metrics, line, sizeof(line));
			fprintf(human, "%s\n", line);
			fflush(human);
			if (bench_record(entry, metrics)) {
				fprintf(stderr, "bench: out of memory\n");
				ret = -ENOMEM;
			} else {
				done++;
			}
		}
		json_decref(metrics);
	}
	sigaction(SIGINT, &old_sa, NULL);
	if (workload__stopped() && !ret)
		ret = -EINTR;
	/* interrupted: what the complete runs say, then where it stood */
	if ((!ret || ret == -EINTR) && done > 1)
		bench_summary(human, entry, done);
	if ((!ret || ret == -EINTR) && done && o->output && results__write(doc, o->output, stdout, &err)) {
		fprintf(stderr, "bench: %s\n", err.msg);
		ret = ret ?: -EIO;
	}
	if (ret == -EINTR) {
		fflush(human);
		bench_interrupted(o, i, done, partial);
	}
	if (fflush(stdout) && !ret) {
		fprintf(stderr, "bench: cannot write to stdout\n");
		ret = -EIO;
	}
	ret = ret == -EINTR ? 130 : ret ? 1 : 0;
out_free:
	json_decref(doc);
	json_decref(params);
	phase__delete(ph);
	return ret;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts *o = &bench_opts;
	struct errbuf err = { "" };
	const char *repeat = NULL, *name;
	bool help = false;
	const struct option opts[] = {
		OPT_STRING('r', "repeat", &repeat, "N", "run N times (default 1)"),
		OPT_FLAG(0, "json", &o->json,
			 "write a results document (kind \"bench\") to stdout"),
		OPT_STRING('o', "output", &o->output, "F",
			   "write the results document to F instead"),
		OPT_FLAG(0, "list", &o->list, "list the workloads"),
		OPT_FLAG('h', "help", &help, "this text; after NAME, the workload's options"),
		OPT_END(),
	};
	/* bench's own options before "--", by their whole names; the rest are the workload's */
	const struct cmd_options cmd = { "bench", bench_usage, opts,
					 OPTIONS_KEEP_UNKNOWN | OPTIONS_EXACT };
	int n, i, ret = 2;

	o->repeat = 1;
	n = cmd_options__parse(&cmd, argc, argv, &ret);
	if (n < 0)
		return ret;
	name = n ? argv[1] : NULL;
	if (name && name[0] == '-')
		return cmd_options__error(&cmd, "unknown option '%s' (workload options go after "
					  "NAME)", name);
	if (repeat && parse_long(repeat, 1, BENCH_MAX_REPEAT, &o->repeat))
		return cmd_options__error(&cmd, "invalid --repeat '%s': expected 1 to %d", repeat,
					  BENCH_MAX_REPEAT);
	if (o->list || (!name && help)) {
		if (o->list)
			bench_list();
		else
			options__usage(stdout, bench_usage, opts);
		return fflush(stdout) ? 1 : 0;
	}
	if (!name) {
		fprintf(stderr, "bench: which workload? one of:\n");
		for (i = 0; workloads[i]; i++)
			fprintf(stderr, "  %s\n", workloads[i]->name);
		options__usage(stderr, bench_usage, opts);
		return 2;
	}
	o->w = workload__find(name);
	if (!o->w) {
		fprintf(stderr, "bench: '%s' is not a workload; see 'schedlens bench --list'\n", name);
		return 2;
	}
	if (help) {
		fputs(o->w->usage, stdout);
		return fflush(stdout) ? 1 : 0;
	}
	if (o->json && !o->output)
		o->output = "-";
	if (o->w->parse(n, argv + 1, &o->cfg, &err)) {
		fprintf(stderr, "bench: %s\n", err.msg);
		fputs(o->w->usage, stderr);
		return 2;
	}
	/* an unusable -o fails now, not after the whole run */
	if (!o->output || !strcmp(o->output, "-") || !bench_check_output(o->output))
		ret = run_bench(o);
	o->w->free(o->cfg);
	return ret;
}
