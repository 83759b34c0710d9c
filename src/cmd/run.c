// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens run --suite NAME -o results.json: every workload of a suite over its parameter
 * range, each iteration in a forked child (target.h) with the suite's counters following the
 * workload's measured phase, deltas of /proc/vmstat around it, and the machine. The document
 * is rewritten atomically after every iteration: Ctrl-C or a crash loses at most the iteration
 * in flight, and --resume continues where the file stops.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/counters.h"
#include "schedlens/events.h"
#include "schedlens/results.h"
#include "schedlens/suite.h"
#include "schedlens/target.h"
#include "schedlens/topology.h"
#include "schedlens/workload.h"

#define RUN_INTERRUPTED 1

struct run_opts {
	const char *suite;
	const char *out;
	long iterations;	/* 0: the suite's */
	bool resume;
	bool quiet;
};

static struct run_opts run_opts;
static volatile sig_atomic_t run_stop;

struct run_state {
	const struct run_opts *o;
	struct suite *s;
	json_t *doc;
	size_t done, total;
	struct counters *ctr;
	struct errbuf err;
};

static void on_signal(int sig)
{
	run_stop = sig;
}

static const char *const run_usage[] = {
	"usage: schedlens run --suite NAME -o FILE [-n ITER] [--resume]",
	"",
	"Run a suite (data/suites/NAME.json, or a path) into a results document.",
	NULL
};

/* Parse the entry's events once; unknown names are dropped with a note. */
static int entry_events(struct run_state *st, const struct suite_entry *e, struct event_desc **evs,
			size_t *n)
{
	struct event_desc ev, *tmp;
	struct errbuf err;
	size_t i;

	*evs = NULL;
	*n = 0;
	for (i = 0; i < e->nevents; i++) {
		if (events__parse(e->events[i], &ev, &err)) {
			fprintf(stderr, "schedlens run: skipping event '%s': %s\n", e->events[i],
				err.msg);
			continue;
		}
		tmp = realloc(*evs, (*n + 1) * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		*evs = tmp;
		(*evs)[(*n)++] = ev;
	}
	return 0;
}

/* The 1-minute load average: how busy the machine was besides the workload. */
static double loadavg(void)
{
	char buf[128];
	double v;

	if (read_file_str("/proc/loadavg", buf, sizeof(buf)) || sscanf(buf, "%lf", &v) != 1)
		return -1;
	return v;
}

static json_t *vmstat_read(void)
{
	json_t *o = json_object();
	char name[128];
	unsigned long long v;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f || !o) {
		if (f)
			fclose(f);
		return o;
	}
	while (fscanf(f, "%127s %llu", name, &v) == 2)
		json_object_set_new(o, name, json_integer((json_int_t)v));
	fclose(f);
	return o;
}

static json_t *vmstat_delta(const struct suite *s, const json_t *before, const json_t *after)
{
	json_t *d = json_object();
	size_t i;

	for (i = 0; d && i < s->nvmstat; i++) {
		const json_t *a = json_object_get(after, s->vmstat[i]);
		const json_t *b = json_object_get(before, s->vmstat[i]);

		if (json_is_integer(a) && json_is_integer(b))
			json_object_set_new(d, s->vmstat[i],
					    json_integer(json_integer_value(a) - json_integer_value(b)));
	}
	return d;
}

static int hook_attach(void *ctx, pid_t pid)
{
	struct run_state *st = ctx;
	struct counters_target t = { .tids = &pid, .nr_tids = 1, .inherit = true,
				     .start_disabled = true };
	int ret;

	if (!st->ctr)
		return 0;
	ret = counters__open(st->ctr, &t, &st->err);
	/* events this machine lacks are noted per event, not fatal */
	return ret == -ENOMEM ? ret : 0;
}

static int hook_phase(void *ctx, bool enable, uint64_t t_ns)
{
	struct run_state *st = ctx;

	if (!st->ctr)
		return 0;
	return enable ? counters__enable(st->ctr) : counters__disable(st->ctr);
}

/* Counter values into @it (values and raw "counters"); unsupported events noted once. */
static int add_counters(struct run_state *st, json_t *jentry, const struct suite_entry *e,
			json_t *it)
{
	json_t *raw = json_object(), *unsup = json_object_get(json_object_get(st->doc, "run"),
								"unsupported_events");
	size_t i;
	int ret = 0;

	if (!raw)
		return -ENOMEM;
	for (i = 0; i < counters__nr(st->ctr) && !ret; i++) {
		const char *name = counters__event(st->ctr, i)->name;
		struct counter_value v;

		if (counters__open_error(st->ctr, i) || counters__read(st->ctr, i, &v) ||
		    !v.counted) {
			size_t k;
			json_t *x;
			bool seen = false;

			json_array_foreach(unsup, k, x)
				seen |= !strcmp(json_string_value(x), name);
			if (!seen && counters__open_error(st->ctr, i))
				json_array_append_new(unsup, json_string(name));
			continue;
		}
		ret = results__set(it, name, v.scaled) ?:
		      results__declare(jentry, name, "", suite_entry__better(e, name, BETTER_NONE));
		if (!ret)
			json_object_set_new(raw, name,
					    json_pack("{s:I, s:I, s:I}", "val", (json_int_t)v.val,
						      "ena", (json_int_t)v.ena, "run",
						      (json_int_t)v.run));
	}
	json_object_set_new(it, "counters", raw);
	return ret;
}

static int add_metrics(json_t *jentry, const struct suite_entry *e, const json_t *metrics,
		       json_t *it)
{
	const char *name;
	const json_t *m;
	int ret = 0;

	json_object_foreach((json_t *)metrics, name, m) {
		const json_t *v = json_object_get(m, "value");
		const char *b = json_string_value(json_object_get(m, "better")) ?: "none";
		enum better dflt = !strcmp(b, "lower") ? BETTER_LOWER
				   : !strcmp(b, "higher") ? BETTER_HIGHER : BETTER_NONE;

		if (!json_is_number(v))
			continue;
		ret = results__set(it, name, json_number_value(v)) ?:
		      results__declare(jentry, name,
				       json_string_value(json_object_get(m, "unit")) ?: "",
				       suite_entry__better(e, name, dflt));
		if (!ret && suite_entry__gated(e, name))
			ret = json_object_set_new(json_object_get(json_object_get(jentry, "metrics"),
								  name),
						  "gate", json_true())
				      ? -ENOMEM
				      : 0;
		if (ret)
			break;
	}
	return ret;
}

/* One iteration: 0 (appended to @jentry), RUN_INTERRUPTED, or -errno with detail in st->err. */
static int run_iteration(struct run_state *st, const struct suite_entry *e,
			 const struct workload *wl, const void *cfg, json_t *jentry)
{
	struct target t = { .wl = wl, .wl_cfg = cfg };
	struct target_hooks h = { .ctx = st, .attach = hook_attach, .phase = hook_phase };
	struct target_result res = { 0 };
	json_t *before, *after = NULL, *it = NULL;
	double load = loadavg();
	int ret, code;

	before = vmstat_read();
	/*
	 * The workload runs in a process group of its own, which Ctrl-C at a terminal does
	 * not reach: the stop flag makes target__run pass SIGINT on to that whole group, and
	 * the iteration in flight is dropped, whether it ended early or not.
	 */
	ret = target__run(&t, &h, &run_stop, &res, &st->err);
	after = vmstat_read();
	code = target__exit_code(&res);
	if (run_stop || res.interrupted) {
		ret = RUN_INTERRUPTED;
		goto out_put;
	}
	if (ret)
		goto out_put;
	if (code || !res.metrics) {
		ret = err__set(&st->err, -EIO, "workload '%s' failed (exit %d)", wl->name, code);
		goto out_put;
	}
	it = json_pack("{s:{}}", "values");
	ret = it ? add_metrics(jentry, e, res.metrics, it) : -ENOMEM;
	if (!ret && st->ctr)
		ret = add_counters(st, jentry, e, it);
	if (!ret)
		json_object_set_new(it, "vmstat", vmstat_delta(st->s, before, after));
	if (!ret && load >= 0)
		json_object_set_new(it, "loadavg", json_real(load));
	if (!ret && json_array_append(json_object_get(jentry, "iterations"), it))
		ret = -ENOMEM;
	if (ret == -ENOMEM)
		err__set(&st->err, ret, "out of memory");
out_put:
	if (st->ctr)
		counters__close(st->ctr);
	json_decref(it);
	json_decref(before);
	json_decref(after);
	json_decref(res.metrics);
	return ret;
}

static void entry_id(const struct suite_entry *e, long value, char *buf, size_t len)
{
	if (e->option[0])
		snprintf(buf, len, "%s %s=%ld", e->group, e->param, value);
	else
		snprintf(buf, len, "%s", e->group);
}

/* The workload's parsed config for one value of the range. */
static int parse_config(struct run_state *st, const struct suite_entry *e,
			const struct workload *wl, long value, void **cfg)
{
	char **argv = calloc(e->nargs + 4, sizeof(*argv)), num[32];
	size_t argc = 0, i;
	int ret;

	if (!argv)
		return -ENOMEM;
	argv[argc++] = (char *)wl->name;
	for (i = 0; i < e->nargs; i++)
		argv[argc++] = e->args[i];
	if (e->option[0]) {
		snprintf(num, sizeof(num), "%ld", value);
		argv[argc++] = (char *)e->option;
		argv[argc++] = num;
	}
	optind = 1;
	ret = wl->parse((int)argc, argv, cfg, &st->err);
	optind = 1;
	free(argv);
	if (ret)
		err__prefix(&st->err, ret, "suite '%s': workload '%s'", st->s->name, wl->name);
	return ret;
}

static int run_entry(struct run_state *st, const struct suite_entry *e, unsigned int iterations)
{
	const struct workload *wl = workload__find(e->workload);
	struct event_desc *evs = NULL;
	size_t nevs, v;
	int ret;

	if (!wl) {
		fprintf(stderr, "schedlens run: skipping '%s': workload '%s' is not built in\n",
			e->group, e->workload);
		return 0;
	}
	ret = entry_events(st, e, &evs, &nevs);
	if (ret)
		return err__set(&st->err, ret, "out of memory");
	for (v = 0; v < e->nvalues && !ret; v++) {
		json_t *jentry, *params;
		char id[256];
		void *cfg = NULL;
		size_t have;

		entry_id(e, e->values[v], id, sizeof(id));
		ret = parse_config(st, e, wl, e->values[v], &cfg);
		if (ret)
			break;
		params = wl->params ? wl->params(cfg) : json_object();
		jentry = results__entry(st->doc, id, wl->name, params);
		json_decref(params);
		if (!jentry || json_object_set_new(jentry, "group", json_string(e->group))) {
			wl->free(cfg);
			ret = err__set(&st->err, -ENOMEM, "out of memory");
			break;
		}
		have = json_array_size(json_object_get(jentry, "iterations"));
		st->done += have < iterations ? have : iterations;
		st->ctr = nevs ? counters__new(evs, nevs) : NULL;
		for (; have < iterations && !ret; have++) {
			if (run_stop) {
				ret = RUN_INTERRUPTED;
				break;
			}
			ret = run_iteration(st, e, wl, cfg, jentry);
			if (ret)
				break;
			st->done++;
			ret = results__write(st->doc, st->o->out, stdout, &st->err);
			if (!st->o->quiet)
				fprintf(stderr, "[%zu/%zu] %s #%zu\n", st->done, st->total, id,
					have + 1);
		}
		counters__delete(st->ctr);
		st->ctr = NULL;
		wl->free(cfg);
	}
	free(evs);
	return ret;
}

static int open_doc(struct run_state *st, unsigned int iterations)
{
	const struct run_opts *o = st->o;
	struct topology *topo;
	struct errbuf err;
	const char *had;

	if (o->resume) {
		st->doc = results__read(o->out, &st->err);
		if (!st->doc)
			return -EINVAL;
		had = json_string_value(json_object_get(json_object_get(st->doc, "run"), "suite"));
		if (!had || strcmp(had, st->s->name))
			return err__set(&st->err, -EINVAL,
					"'%s' holds suite '%s', not '%s': cannot resume it", o->out,
					had ?: "none", st->s->name);
		json_integer_set(json_object_get(json_object_get(st->doc, "run"), "resumed"),
				 json_integer_value(json_object_get(
					 json_object_get(st->doc, "run"), "resumed")) + 1);
		return 0;
	}
	if (!access(o->out, F_OK))
		return err__set(&st->err, -EEXIST,
				"'%s' exists: --resume continues it, or remove it first", o->out);
	st->doc = results__new("run");
	if (!st->doc || json_object_set_new(st->doc, "run",
					    json_pack("{s:s, s:s, s:i, s:i, s:[]}", "suite",
						      st->s->name, "description",
						      st->s->description, "iterations",
						      (int)iterations, "resumed", 0,
						      "unsupported_events")))
		return err__set(&st->err, -ENOMEM, "out of memory");
	topo = topology__read(NULL, &err);
	if (topo) {
		json_object_set_new(json_object_get(st->doc, "machine"), "topology",
				    topology__json(topo));
		topology__delete(topo);
	}
	return results__write(st->doc, o->out, stdout, &st->err);
}

static int run_run(const struct run_opts *o)
{
	struct run_state st = { .o = o };
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned int iterations;
	size_t i;
	int ret;

	st.s = suite__load(o->suite, sysconf(_SC_NPROCESSORS_ONLN), &st.err);
	if (!st.s) {
		fprintf(stderr, "schedlens run: %s\n", st.err.msg);
		return 2;
	}
	iterations = o->iterations ? (unsigned int)o->iterations : st.s->entries[0].iterations;
	ret = open_doc(&st, iterations);
	if (ret) {
		fprintf(stderr, "schedlens run: %s\n", st.err.msg);
		ret = 2;
		goto out_free;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i < st.s->nentries; i++)
		if (workload__find(st.s->entries[i].workload))
			st.total += st.s->entries[i].nvalues *
				    (o->iterations ? (size_t)o->iterations
						   : st.s->entries[i].iterations);
	for (i = 0, ret = 0; i < st.s->nentries && !ret; i++)
		ret = run_entry(&st, &st.s->entries[i],
				o->iterations ? (unsigned int)o->iterations
					      : st.s->entries[i].iterations);
	if (ret == RUN_INTERRUPTED) {
		fprintf(stderr, "schedlens run: interrupted: '%s' holds %zu complete iteration%s; "
				"--resume continues\n",
			o->out, st.done, st.done == 1 ? "" : "s");
		ret = 130;
	} else if (ret) {
		fprintf(stderr, "schedlens run: %s\n", st.err.msg);
		ret = 1;
	} else {
		ret = results__write(st.doc, o->out, stdout, &st.err) ? 1 : 0;
		if (ret)
			fprintf(stderr, "schedlens run: %s\n", st.err.msg);
		else if (!o->quiet)
			fprintf(stderr, "schedlens run: '%s': suite '%s', %zu iterations\n", o->out,
				st.s->name, st.done);
	}
out_free:
	json_decref(st.doc);
	suite__delete(st.s);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts *o = &run_opts;
	const struct option opts[] = {
		OPT_STRING('s', "suite", &o->suite, "NAME",
			   "prefetch, wakelist, wakee-flips, idle-cpumask, quick, or a file"),
		OPT_STRING('o', "output", &o->out, "FILE",
			   "the results document, rewritten after every iteration"),
		OPT_INT('n', "iterations", &o->iterations, 1, 100000, "N",
			"iterations per entry (default: the suite's)"),
		OPT_FLAG(0, "resume", &o->resume, "continue an interrupted FILE"),
		OPT_FLAG('q', "quiet", &o->quiet, "no progress lines"),
		OPT_TEXT(""),
		OPT_TEXT("Ctrl-C stops after discarding the iteration in flight; --resume continues."),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens run", run_usage, opts, 0 };
	int n, code;

	memset(o, 0, sizeof(*o));
	n = cmd_options__parse(&cmd, argc, argv, &code);
	if (n < 0)
		return code;
	if (!o->suite || !o->out || n)
		return cmd_options__error(&cmd, "needs --suite NAME and -o FILE%s",
					  n ? ", and nothing else" : "");
	return run_run(o);
}
