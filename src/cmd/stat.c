// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens stat: count events over a workload, with repeats and honest dispersion, like
 * `perf stat -r N -ddd`. Counts run from the workload's exec to its exit (children included),
 * or over the measured phase of a built-in workload.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/commands.h"
#include "schedlens/counters.h"
#include "schedlens/events.h"
#include "schedlens/results.h"
#include "schedlens/stats.h"
#include "schedlens/target.h"
#include "schedlens/workload.h"

#define STAT_MAX_RUNS 10000

struct stat_opts {
	char *events;		/* -e lists joined by commas, or NULL for the default set */
	int detail;		/* -d count */
	long repeat;
	bool system_wide;
	const char *cpus;
	pid_t pid;
	const char *sep;	/* -x */
	bool json;
	const char *output;
	bool whole;		/* count exec..exit even for phase-aware workloads */
	const struct workload *wl;
	void *wl_cfg;
	char **argv;		/* the command, or the workload's argv */
	int argc;
};

static volatile sig_atomic_t stat_stop;

static void on_sigint(int sig)
{
	stat_stop = 1;
}

/* perf's default set, then what -d, -dd and -ddd add */
static const char *const default_events[] = { "task-clock",   "context-switches", "cpu-migrations",
					       "page-faults",  "cycles",	   "instructions",
					       "branches",     "branch-misses" };
static const char *const detail_events[3][6] = {
	{ "L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses" },
	{ "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses", "iTLB-loads",
	  "iTLB-load-misses" },
	{ "L1-dcache-prefetches", "L1-dcache-prefetch-misses" },
};

struct run_values {
	struct counter_value *v;	/* per event */
	double elapsed_s;
	int exit_code;
};

struct stat_state {
	const struct stat_opts *o;
	struct event_desc *evs;
	size_t nr;
	struct counters *ctr;
	struct run_values *runs;
	size_t nr_runs;
	bool follow_phase;
	struct errbuf err;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: schedlens stat [-e EVENTS] [-d|-dd|-ddd] [-r N] [-a] [-C CPUS] [-p PID]\n"
		"                      [-x SEP] [--json] [-o FILE] [--whole] -- COMMAND [ARGS...]\n"
		"       schedlens stat [OPTIONS] --bench NAME [WORKLOAD OPTIONS...]\n\n"
		"  -e, --event LIST    events to count (perf names, tracepoints, rNNNN, libpfm4 names)\n"
		"  -d, --detailed      add L1 and LLC events; -dd and -ddd add more\n"
		"  -r, --repeat N      run N times; print mean and ( +- standard error of the mean %% )\n"
		"  -a, --all-cpus      count system-wide (without a command: until Ctrl-C)\n"
		"  -C, --cpu CPUS      count system-wide on these CPUs\n"
		"  -p, --pid PID       count an existing process until it exits or Ctrl-C\n"
		"  -x, --field-separator SEP  CSV output like perf stat -x\n"
		"      --json          write a results document (schema schedlens-results)\n"
		"  -o, --output FILE   write the output to FILE instead of stdout\n"
		"      --bench NAME    run a built-in workload in-process (see 'schedlens bench --list')\n"
		"      --whole         count from exec to exit even for `schedlens bench` workloads\n\n"
		"The workload's exit status is returned. Without -e: perf's default events, plus the\n"
		"L1 and LLC events where this machine has them.\n");
}

static int add_event(struct stat_state *st, const char *name, bool only_if_supported)
{
	struct event_desc ev, *tmp;
	int ret = events__parse(name, &ev, &st->err);

	if (ret)
		return ret;
	if (only_if_supported && events__probe(&ev.attr))
		return 0;
	tmp = realloc(st->evs, (st->nr + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	st->evs = tmp;
	st->evs[st->nr++] = ev;
	return 0;
}

static int build_events(struct stat_state *st)
{
	const struct stat_opts *o = st->o;
	char *copy, *tok, *save = NULL;
	size_t i, d;
	int ret = 0;

	if (o->events) {
		copy = strdup(o->events);
		if (!copy)
			return -ENOMEM;
		for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save))
			ret = add_event(st, tok, false);
		free(copy);
	} else {
		for (i = 0; i < ARRAY_SIZE(default_events) && !ret; i++)
			ret = add_event(st, default_events[i], false);
		for (i = 0; i < 4 && !ret && o->detail == 0; i++)
			ret = add_event(st, detail_events[0][i], true);
	}
	for (d = 0; d < (size_t)o->detail && d < 3 && !ret; d++)
		for (i = 0; i < 6 && detail_events[d][i] && !ret; i++)
			ret = add_event(st, detail_events[d][i], false);
	return ret;
}

static int hook_attach(void *ctx, pid_t pid)
{
	struct stat_state *st = ctx;
	const struct stat_opts *o = st->o;
	struct counters_target t = {
		.tids = &pid,
		.nr_tids = 1,
		.cpus = o->cpus,
		.system_wide = o->system_wide,
		.inherit = true,
	};
	int ret;

	if (st->follow_phase)
		t.start_disabled = true;
	else if (o->system_wide || o->wl)
		t.start_disabled = false;
	else
		t.enable_on_exec = true;
	ret = counters__open(st->ctr, &t, &st->err);
	/* a failure of every event is reported per event, not fatal */
	return ret == -ENOMEM ? ret : 0;
}

static int hook_phase(void *ctx, bool enable, uint64_t t_ns)
{
	struct stat_state *st = ctx;

	if (!st->follow_phase)
		return 0;
	return enable ? counters__enable(st->ctr) : counters__disable(st->ctr);
}

static int read_run(struct stat_state *st, struct run_values *rv)
{
	size_t i;

	rv->v = calloc(st->nr, sizeof(*rv->v));
	if (!rv->v)
		return -ENOMEM;
	for (i = 0; i < st->nr; i++)
		counters__read(st->ctr, i, &rv->v[i]);
	return 0;
}

static int list_tids(pid_t pid, pid_t **tids, size_t *n)
{
	char path[64];
	struct dirent *de;
	pid_t *arr = NULL, *tmp;
	size_t cnt = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		long tid;

		if (parse_long(de->d_name, 1, INT32_MAX, &tid))
			continue;
		tmp = realloc(arr, (cnt + 1) * sizeof(*arr));
		if (!tmp) {
			free(arr);
			closedir(d);
			return -ENOMEM;
		}
		arr = tmp;
		arr[cnt++] = (pid_t)tid;
	}
	closedir(d);
	*tids = arr;
	*n = cnt;
	return cnt ? 0 : -ESRCH;
}

/* -p PID: count until the process is gone or Ctrl-C; -a alone: until Ctrl-C */
static int run_attached(struct stat_state *st, struct run_values *rv)
{
	struct counters_target t = { .inherit = true, .system_wide = st->o->system_wide,
				     .cpus = st->o->cpus };
	uint64_t start;
	int ret;

	if (st->o->pid) {
		ret = list_tids(st->o->pid, &t.tids, &t.nr_tids);
		if (ret)
			return err__set(&st->err, ret, "cannot attach to pid %d: %s",
					(int)st->o->pid, strerror(-ret));
	}
	ret = counters__open(st->ctr, &t, &st->err);
	free(t.tids);
	if (ret && ret != -ENOENT && ret != -EOPNOTSUPP)
		return ret;
	start = now_ns();
	while (!stat_stop && (!st->o->pid || !kill(st->o->pid, 0)))
		usleep(100000);
	rv->elapsed_s = (double)(now_ns() - start) / 1e9;
	return read_run(st, rv);
}

static int run_once(struct stat_state *st, struct run_values *rv)
{
	struct target t = { .argv = st->o->wl ? NULL : st->o->argv, .wl = st->o->wl,
			    .wl_cfg = st->o->wl_cfg };
	struct target_hooks h = { .ctx = st, .attach = hook_attach, .phase = hook_phase };
	struct target_result res;
	int ret;

	ret = target__run(&t, &h, &stat_stop, &res, &st->err);
	if (res.metrics && st->o->wl->format) {
		char line[512];

		st->o->wl->format(st->o->wl_cfg, res.metrics, line, sizeof(line));
		printf("%s\n", line);
	}
	json_decref(res.metrics);
	if (ret && !res.exec_failed && !(st->o->wl && res.interrupted))
		return ret;
	rv->exit_code = target__exit_code(&res);
	if (res.exec_failed)
		return ret;
	rv->elapsed_s = (double)((st->follow_phase && res.phases ? res.phase_ns
								  : res.end_ns - res.start_ns)) /
			1e9;
	ret = read_run(st, rv);
	counters__close(st->ctr);
	return ret;
}

/* the values of event @i over the runs where it counted */
static size_t event_values(const struct stat_state *st, size_t i, double *out)
{
	size_t r, n = 0;

	for (r = 0; r < st->nr_runs; r++)
		if (st->runs[r].v[i].counted)
			out[n++] = st->runs[r].v[i].scaled;
	return n;
}

static double event_mean(const struct stat_state *st, const char *name, bool *found)
{
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double)), mean = 0;
	size_t i, n;

	*found = false;
	for (i = 0; vals && i < st->nr; i++) {
		if (strcmp(st->evs[i].name, name))
			continue;
		n = event_values(st, i, vals);
		if (n) {
			struct summary s;

			stats__summarize(vals, n, &s);
			mean = s.mean;
			*found = true;
		}
		break;
	}
	free(vals);
	return mean;
}

static void rate(double per_sec, char *buf, size_t len)
{
	if (per_sec >= 1e9)
		snprintf(buf, len, "%8.3f G/sec", per_sec / 1e9);
	else if (per_sec >= 1e6)
		snprintf(buf, len, "%8.3f M/sec", per_sec / 1e6);
	else if (per_sec >= 1e3)
		snprintf(buf, len, "%8.3f K/sec", per_sec / 1e3);
	else
		snprintf(buf, len, "%8.3f /sec", per_sec);
}

/* perf's comment column for event @name with mean @v */
static void shadow(const struct stat_state *st, const char *name, double v, double elapsed,
		   char *buf, size_t len)
{
	static const struct {
		const char *miss, *base, *what;
	} ratios[] = {
		{ "branch-misses", "branches", "of all branches" },
		{ "cache-misses", "cache-references", "of all cache refs" },
		{ "L1-dcache-load-misses", "L1-dcache-loads", "of all L1-dcache accesses" },
		{ "LLC-load-misses", "LLC-loads", "of all LL-cache accesses" },
		{ "dTLB-load-misses", "dTLB-loads", "of all dTLB cache accesses" },
		{ "iTLB-load-misses", "iTLB-loads", "of all iTLB cache accesses" },
		{ "L1-icache-load-misses", "L1-icache-loads", "of all L1-icache accesses" },
	};
	bool f1, f2;
	double clock_ns = event_mean(st, "task-clock", &f1), base;
	size_t i;

	buf[0] = '\0';
	if (!strcmp(name, "task-clock") && elapsed > 0) {
		snprintf(buf, len, "# %8.3f CPUs utilized", v / 1e3 / elapsed);
		return;
	}
	if (!strcmp(name, "instructions")) {
		base = event_mean(st, "cycles", &f2);
		if (f2 && base > 0)
			snprintf(buf, len, "# %8.2f  insn per cycle", v / base);
		return;
	}
	if (!strcmp(name, "cycles") && f1 && clock_ns > 0) {
		snprintf(buf, len, "# %8.3f GHz", v / clock_ns);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(ratios); i++) {
		if (strcmp(name, ratios[i].miss))
			continue;
		base = event_mean(st, ratios[i].base, &f2);
		if (f2 && base > 0)
			snprintf(buf, len, "# %7.2f%% %s", 100.0 * v / base, ratios[i].what);
		return;
	}
	if (f1 && clock_ns > 0) {
		char r[32];

		rate(v / (clock_ns / 1e9), r, sizeof(r));
		snprintf(buf, len, "# %s", r);
	}
}

static void print_group_digits(FILE *f, double v, int width)
{
	char digits[64], out[96];
	int n, i, j = 0, lead;

	snprintf(digits, sizeof(digits), "%.0f", v);
	n = (int)strlen(digits);
	lead = n % 3 ?: 3;
	for (i = 0; i < n; i++) {
		if (i && (i - lead) % 3 == 0 && i >= lead)
			out[j++] = ',';
		out[j++] = digits[i];
	}
	out[j] = '\0';
	fprintf(f, "%*s", width, out);
}

static bool is_msec(const struct event_desc *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		ev->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

static double elapsed_mean(const struct stat_state *st, struct summary *s)
{
	double *e = calloc(st->nr_runs ?: 1, sizeof(double));
	size_t r;

	memset(s, 0, sizeof(*s));
	if (!e)
		return 0;
	for (r = 0; r < st->nr_runs; r++)
		e[r] = st->runs[r].elapsed_s;
	if (st->nr_runs)
		stats__summarize(e, st->nr_runs, s);
	free(e);
	return s->mean;
}

static void describe_target(const struct stat_opts *o, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	if (o->pid) {
		snprintf(buf, len, "process id '%d'", (int)o->pid);
		return;
	}
	if (o->system_wide && !o->argc) {
		snprintf(buf, len, "system wide");
		return;
	}
	used += (size_t)snprintf(buf, len, "%s", o->wl ? "schedlens bench " : "");
	for (i = 0; i < o->argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", o->argv[i]);
}

static void print_text(const struct stat_state *st, FILE *f, bool group)
{
	const struct stat_opts *o = st->o;
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double));
	struct summary es, s;
	char what[512], note[96];
	bool multiplexed = false;
	double elapsed = elapsed_mean(st, &es);
	size_t i, n, r;

	describe_target(o, what, sizeof(what));
	fprintf(f, "\n Performance counter stats for '%s'", what);
	if (st->nr_runs > 1)
		fprintf(f, " (%zu runs)", st->nr_runs);
	fprintf(f, ":\n\n");
	for (i = 0; vals && i < st->nr; i++) {
		const struct event_desc *ev = &st->evs[i];
		double run_pct = 0;

		if (counters__open_error(st->ctr, i) && !st->runs[0].v[i].ena) {
			fprintf(f, "%18s      %s\n", "<not supported>", ev->name);
			continue;
		}
		n = event_values(st, i, vals);
		if (!n) {
			fprintf(f, "%18s      %s\n", "<not counted>", ev->name);
			continue;
		}
		stats__summarize(vals, n, &s);
		for (r = 0; r < st->nr_runs; r++)
			run_pct += st->runs[r].v[i].running_pct / (double)st->nr_runs;
		if (is_msec(ev))
			fprintf(f, "%18.2f msec %-33s", s.mean / 1e6, ev->name);
		else if (group)
			print_group_digits(f, s.mean, 18), fprintf(f, "      %-33s", ev->name);
		else
			fprintf(f, "%18.0f      %-33s", s.mean, ev->name);
		shadow(st, ev->name, is_msec(ev) ? s.mean / 1e6 : s.mean, elapsed, note,
		       sizeof(note));
		if (st->nr_runs > 1 && s.mean != 0)
			fprintf(f, "%-36s( +- %5.2f%% )", note, s.sem_pct);
		else
			fprintf(f, "%s", note);
		if (run_pct < 99.995) {
			fprintf(f, "  (%.2f%%)", run_pct);
			multiplexed = true;
		}
		fprintf(f, "\n");
	}
	if (st->nr_runs > 1)
		fprintf(f, "\n %16.4f +- %.4f seconds time elapsed  ( +- %5.2f%% )\n\n", es.mean,
			es.sem, es.sem_pct);
	else
		fprintf(f, "\n %16.9f seconds time elapsed\n\n", elapsed);
	if (multiplexed)
		fprintf(f, " Some events were multiplexed: values in parentheses are the share of\n"
			   " the time each counted; the counts above are scaled up from it.\n\n");
	free(vals);
}

static void print_csv(const struct stat_state *st, FILE *f)
{
	const char *sep = st->o->sep;
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double));
	struct summary es, s;
	double elapsed = elapsed_mean(st, &es);
	char note[96];
	size_t i, n;

	for (i = 0; vals && i < st->nr; i++) {
		const struct event_desc *ev = &st->evs[i];

		n = event_values(st, i, vals);
		if (!n) {
			fprintf(f, "%s%s%s%s\n",
				counters__open_error(st->ctr, i) ? "<not supported>" : "<not counted>",
				sep, sep, ev->name);
			continue;
		}
		stats__summarize(vals, n, &s);
		shadow(st, ev->name, is_msec(ev) ? s.mean / 1e6 : s.mean, elapsed, note,
		       sizeof(note));
		fprintf(f, "%.2f%s%s%s%s%s%.2f%%\n", is_msec(ev) ? s.mean / 1e6 : s.mean, sep,
			is_msec(ev) ? "msec" : "", sep, ev->name, sep, s.sem_pct);
	}
	free(vals);
}

static const char *event_unit(const struct event_desc *ev)
{
	return is_msec(ev) ? "ns" : "count";
}

static int write_json(const struct stat_state *st, const char *path)
{
	const struct stat_opts *o = st->o;
	json_t *doc = results__new("stat"), *params, *entry, *argv, *summary;
	double *vals = calloc(st->nr_runs ?: 1, sizeof(double));
	struct summary s;
	char id[600];
	size_t i, r, n;
	int ret = -ENOMEM;

	if (!doc || !vals)
		goto out;
	describe_target(o, id, sizeof(id));
	argv = json_array();
	for (i = 0; i < (size_t)o->argc; i++)
		json_array_append_new(argv, json_string(o->argv[i]));
	params = json_pack("{s:o, s:b, s:s?, s:i}", "argv", argv, "system_wide", o->system_wide,
			   "cpus", o->cpus, "repeat", (int)o->repeat);
	entry = results__entry(doc, id, o->wl ? o->wl->name : "command", params);
	json_decref(params);
	if (!entry)
		goto out;
	json_object_set_new(entry, "counting", json_string(st->follow_phase ? "measured-phase"
									   : "exec-to-exit"));
	results__declare(entry, "elapsed", "s", BETTER_LOWER);
	for (i = 0; i < st->nr; i++)
		results__declare(entry, st->evs[i].name, event_unit(&st->evs[i]), BETTER_NONE);
	for (r = 0; r < st->nr_runs; r++) {
		json_t *it = results__add_iteration(entry), *ctrs = json_object();

		results__set(it, "elapsed", st->runs[r].elapsed_s);
		json_object_set_new(it, "exit_status", json_integer(st->runs[r].exit_code));
		for (i = 0; i < st->nr; i++) {
			const struct counter_value *v = &st->runs[r].v[i];
			int oe = counters__open_error(st->ctr, i);

			if (v->counted)
				results__set(it, st->evs[i].name, v->scaled);
			json_object_set_new(
				ctrs, st->evs[i].name,
				json_pack("{s:b, s:s?, s:I, s:I, s:I, s:f}", "supported",
					  !(oe && !v->ena), "error",
					  oe && !v->ena ? strerror(-oe) : NULL, "value",
					  (json_int_t)v->val, "time_enabled_ns", (json_int_t)v->ena,
					  "time_running_ns", (json_int_t)v->run, "scaled", v->scaled));
		}
		json_object_set_new(it, "counters", ctrs);
	}
	/* derived from the iterations above, for readers of stat's output alone */
	summary = json_object();
	for (i = 0; i <= st->nr; i++) {
		const char *name = i < st->nr ? st->evs[i].name : "elapsed";

		n = results__values(entry, name, vals, st->nr_runs);
		if (!n || stats__summarize(vals, n, &s))
			continue;
		json_object_set_new(summary, name,
				    json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (int)s.n,
					      "mean", s.mean, "stddev", s.stddev, "sem", s.sem,
					      "sem_pct", s.sem_pct, "min", s.min, "max", s.max));
	}
	json_object_set_new(entry, "summary", summary);
	ret = results__write(doc, path, (struct errbuf *)&st->err);
out:
	free(vals);
	json_decref(doc);
	return ret;
}

static int run_stat(const struct stat_opts *o)
{
	struct stat_state st = { .o = o };
	struct sigaction sa = { .sa_handler = on_sigint };
	FILE *out = stdout;
	int ret, code = 0;
	long r;

	ret = build_events(&st);
	if (ret) {
		fprintf(stderr, "schedlens stat: %s\n", st.err.msg[0] ? st.err.msg : strerror(-ret));
		free(st.evs);
		return 2;
	}
	st.ctr = counters__new(st.evs, st.nr);
	st.runs = calloc((size_t)o->repeat, sizeof(*st.runs));
	if (!st.ctr || !st.runs) {
		fprintf(stderr, "schedlens stat: out of memory\n");
		code = 1;
		goto out;
	}
	st.follow_phase = !o->whole && (o->wl || target__is_own_bench(o->argv));
	sigaction(SIGINT, &sa, NULL);
	for (r = 0; r < o->repeat && !stat_stop; r++) {
		st.err.msg[0] = '\0';
		ret = o->pid || (o->system_wide && !o->argc && !o->wl)
			      ? run_attached(&st, &st.runs[r])
			      : run_once(&st, &st.runs[r]);
		if (ret) {
			fprintf(stderr, "schedlens stat: %s\n", st.err.msg[0] ? st.err.msg : strerror(-ret));
			code = st.runs[r].exit_code ?: 1;
			free(st.runs[r].v);
			goto out;
		}
		st.nr_runs++;
		code = st.runs[r].exit_code;
	}
	if (stat_stop)
		fprintf(stderr, "schedlens stat: %s after %zu run%s\n",
			o->pid || o->argc || o->wl ? "interrupted" : "stopped", st.nr_runs,
			st.nr_runs == 1 ? "" : "s");
	if (!st.nr_runs)
		goto out;
	if (o->json) {
		ret = write_json(&st, o->output ?: "-");
		if (ret) {
			fprintf(stderr, "schedlens stat: %s\n", st.err.msg);
			code = 1;
		}
		goto out;
	}
	if (o->output && !(out = fopen(o->output, "w"))) {
		fprintf(stderr, "schedlens stat: cannot open '%s': %s\n", o->output, strerror(errno));
		code = 1;
		goto out;
	}
	/* perf prints counts to stderr so the workload's stdout stays clean; so do we */
	if (o->sep)
		print_csv(&st, o->output ? out : stderr);
	else
		print_text(&st, o->output ? out : stderr, isatty(fileno(o->output ? out : stderr)));
	if (o->output ? fclose(out) : fflush(stderr)) {
		fprintf(stderr, "schedlens stat: cannot write the output\n");
		code = 1;
	}
	/* events that no run could open: say why once, below the table */
	for (size_t i = 0; i < st.nr; i++) {
		int oe = counters__open_error(st.ctr, i);
		char advice[512];

		if (oe && oe != -ENOENT && oe != -EOPNOTSUPP && oe != -ENODEV) {
			events__open_advice(st.evs[i].name, oe, advice, sizeof(advice));
			fprintf(stderr, "schedlens stat: %s\n", advice);
		}
	}
out:
	for (r = 0; r < (long)st.nr_runs; r++)
		free(st.runs[r].v);
	free(st.runs);
	counters__delete(st.ctr);
	free(st.evs);
	return code;
}

static int append_events(struct stat_opts *o, const char *list)
{
	size_t len = (o->events ? strlen(o->events) + 1 : 0) + strlen(list) + 1;
	char *n = malloc(len);

	if (!n)
		return -ENOMEM;
	snprintf(n, len, "%s%s%s", o->events ?: "", o->events ? "," : "", list);
	free(o->events);
	o->events = n;
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "detailed", no_argument, NULL, 'd' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'p' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "bench", required_argument, NULL, 'b' },
		{ "whole", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct stat_opts o = { .repeat = 1 };
	struct errbuf err = { "" };
	const char *bench = NULL;
	long v;
	int c, code;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:dr:aC:p:x:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (append_events(&o, optarg))
				return 1;
			break;
		case 'd':
			o.detail++;
			break;
		case 'r':
			if (parse_long(optarg, 1, STAT_MAX_RUNS, &o.repeat)) {
				fprintf(stderr, "schedlens stat: -r '%s': expected 1..%d runs\n", optarg,
					STAT_MAX_RUNS);
				goto usage_err;
			}
			break;
		case 'a':
			o.system_wide = true;
			break;
		case 'C':
			o.system_wide = true;
			o.cpus = optarg;
			break;
		case 'p':
			if (parse_long(optarg, 1, INT32_MAX, &v)) {
				fprintf(stderr, "schedlens stat: -p '%s': not a process id\n", optarg);
				goto usage_err;
			}
			o.pid = (pid_t)v;
			break;
		case 'x':
			o.sep = optarg;
			break;
		case 'j':
			o.json = true;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'b':
			/* everything after the workload's name is the workload's */
			bench = optarg;
			goto parsed;
		case 'W':
			o.whole = true;
			break;
		case 'h':
			usage(stdout);
			free(o.events);
			return 0;
		default:
			goto usage_err;
		}
	}
parsed:
	o.argv = argv + optind;
	o.argc = argc - optind;
	if (bench) {
		o.wl = workload__find(bench);
		if (!o.wl) {
			fprintf(stderr, "schedlens stat: '%s' is not a built-in workload; see "
					"'schedlens bench --list'\n", bench);
			goto usage_err;
		}
		/* the workload's own options follow; its argv[0] is its name */
		o.argv = argv + optind - 1;
		o.argv[0] = (char *)bench;
		o.argc = argc - optind + 1;
		if (o.wl->parse(o.argc, o.argv, &o.wl_cfg, &err)) {
			fprintf(stderr, "schedlens stat: %s (see 'schedlens bench %s --help')\n",
				err.msg, bench);
			free(o.events);
			return 2;
		}
	}
	if (o.pid && (o.argc || o.wl || o.system_wide)) {
		fprintf(stderr, "schedlens stat: -p cannot be combined with a command or -a/-C\n");
		goto usage_err;
	}
	if (!o.pid && !o.wl && o.argc == 0 && !o.system_wide) {
		fprintf(stderr, "schedlens stat: no command to measure (or -a to count until Ctrl-C)\n");
		goto usage_err;
	}
	if (o.json && o.sep) {
		fprintf(stderr, "schedlens stat: --json and -x are exclusive\n");
		goto usage_err;
	}
	code = run_stat(&o);
	if (o.wl && o.wl->free)
		o.wl->free(o.wl_cfg);
	free(o.events);
	return code;
usage_err:
	usage(stderr);
	if (o.wl && o.wl_cfg && o.wl->free)
		o.wl->free(o.wl_cfg);
	free(o.events);
	return 2;
}
