// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens stat: count events over a workload, with repeats and honest dispersion, like
 * `perf stat -r N -ddd`. Counts run from the workload's exec to its exit (children included),
 * or over the measured phase of a built-in workload.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <perf/cpumap.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/counters.h"
#include "schedlens/events.h"
#include "schedlens/results.h"
#include "schedlens/sampler.h"
#include "schedlens/target.h"
#include "schedlens/workload.h"
#include "stat-int.h"

#define STAT_MAX_RUNS 10000

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


static const char *const stat_usage[] = {
	"usage: schedlens stat [-e EVENTS] [-d|-dd|-ddd] [-r N] [-a] [-C CPUS] [-p PID]",
	"                      [-x SEP] [--json] [-o FILE] [--whole] [-I MSEC [--interval-count N]]",
	"                      -- COMMAND [ARGS...]",
	"       schedlens stat [OPTIONS] --bench NAME [WORKLOAD OPTIONS...]",
	NULL
};

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

#define TP_SYS_MAX 64	/* a tracepoint subsystem's name, as events.c takes it */

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * A tracepoint glob ("sched:*", "sched:sched_wak*", "*:sched_switch") as perf expands it:
 * every tracepoint whose subsystem and name match, in the order tracefs lists them.
 */
static int add_tracepoint_glob(struct stat_state *st, const char *glob)
{
	const char *colon = strchr(glob, ':');
	char root[256], sysglob[TP_SYS_MAX], path[1024], name[EVENT_NAME_MAX];
	struct dirent *sd, *ed;
	DIR *sys, *evs;
	size_t found = 0;
	int ret;

	snprintf(sysglob, sizeof(sysglob), "%.*s", (int)(colon - glob), glob);
	ret = tracefs__find(NULL, root, sizeof(root), &st->err);
	if (ret)
		goto out;
	snprintf(path, sizeof(path), "%s/events", root);
	sys = opendir(path);
	if (!sys) {
		ret = err__set(&st->err, -errno, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	while (!ret && (sd = readdir(sys))) {
		if (sd->d_name[0] == '.' || fnmatch(sysglob, sd->d_name, 0))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", root, sd->d_name);
		evs = opendir(path);
		if (!evs)
			continue; /* enable, header_page: files */
		while (!ret && (ed = readdir(evs))) {
			if (ed->d_name[0] == '.' || fnmatch(colon + 1, ed->d_name, 0))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, sd->d_name,
				 ed->d_name);
			if (access(path, F_OK) ||
			    strlen(sd->d_name) + strlen(ed->d_name) + 2 > sizeof(name))
				continue; /* enable, filter */
			snprintf(name, sizeof(name), "%s:%s", sd->d_name, ed->d_name);
			ret = add_event(st, name, false);
			found++;
		}
		closedir(evs);
	}
	closedir(sys);
	if (!ret && !found)
		ret = err__set(&st->err, -ENOENT, "no tracepoint matches '%s' (see %s/events/)",
			       glob, root);
out:
	return ret;
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
		for (tok = strtok_r(copy, ",", &save); tok && !ret;
		     tok = strtok_r(NULL, ",", &save)) {
			const char *colon = strchr(tok, ':');

			if (colon && !strchr(colon + 1, ':') && is_glob(tok) &&
			    colon - tok < TP_SYS_MAX)
				ret = add_tracepoint_glob(st, tok);
			else
				ret = add_event(st, tok, false);
		}
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
	if (ret != -ENOMEM && o->interval_ms)
		ret = stat__interval_start(st, now_ns());
	/* a failure of every event is reported per event, not fatal */
	return ret == -ENOMEM ? ret : 0;
}

/* -I: print the intervals that ended, and wake when the next one ends */
static int hook_tick(void *ctx)
{
	struct stat_state *st = ctx;

	stat__interval_tick(st, st->out, stat_stop);
	st->iv.hooks->poll_ms = stat__interval_wait_ms(st);
	return 0;
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
	if (st->o->interval_ms && stat__interval_start(st, start))
		return -ENOMEM;
	/* perf: a -p target gone ends it without a last interval, Ctrl-C with one */
	while (!stat_stop && (!st->o->pid || !kill(st->o->pid, 0)) && !st->iv.done) {
		poll(NULL, 0, st->o->interval_ms ? stat__interval_wait_ms(st) : 100);
		if (st->o->interval_ms)
			stat__interval_tick(st, st->out, stat_stop);
	}
	rv->elapsed_s = (double)(now_ns() - start) / 1e9;
	return read_run(st, rv);
}

static double tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static int run_once(struct stat_state *st, struct run_values *rv)
{
	struct target t = { .argv = st->o->wl ? NULL : st->o->argv, .wl = st->o->wl,
			    .wl_cfg = st->o->wl_cfg };
	struct target_hooks h = { .ctx = st, .attach = hook_attach, .phase = hook_phase };
	struct rusage ru0, ru1;
	struct target_result res;
	int ret;

	/* -I: the tick sets the next poll's timeout to the interval's end */
	if (st->o->interval_ms) {
		h.tick = hook_tick;
		h.poll_ms = (int)st->o->interval_ms;
		st->iv.hooks = &h;
	}

	/* the child is reaped inside target__run: its CPU time joins RUSAGE_CHILDREN */
	getrusage(RUSAGE_CHILDREN, &ru0);
	ret = target__run(&t, &h, &stat_stop, &res, &st->err);
	getrusage(RUSAGE_CHILDREN, &ru1);
	if (st->o->interval_ms && !ret)
		stat__interval_end(st, st->out);
	rv->user_s = tv_seconds(&ru1.ru_utime) - tv_seconds(&ru0.ru_utime);
	rv->sys_s = tv_seconds(&ru1.ru_stime) - tv_seconds(&ru0.ru_stime);
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


static int run_stat(const struct stat_opts *o)
{
	struct stat_state st = { .o = o };
	struct sigaction sa = { .sa_handler = on_sigint };
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
	/* perf prints counts to stderr so the workload's stdout stays clean; so do we */
	st.out = stderr;
	if (o->output && !o->json && !(st.out = fopen(o->output, "w"))) {
		fprintf(stderr, "schedlens stat: cannot open '%s': %s\n", o->output, strerror(errno));
		st.out = NULL;
		code = 1;
		goto out;
	}
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
	/*
	 * perf stat re-raises the SIGINT that stopped it: 130 when it counted -a or -p, and with
	 * -I whatever it ran (it does not wait for the workload then)
	 */
	if (stat_stop && (o->interval_ms || o->pid || (o->system_wide && !o->argc && !o->wl)))
		code = 128 + SIGINT;
	/* -I: every interval printed as it ended, nothing after */
	if (o->interval_ms)
		goto out_close;
	if (stat_stop)
		fprintf(stderr, "schedlens stat: %s after %zu run%s\n",
			o->pid || o->argc || o->wl ? "interrupted" : "stopped", st.nr_runs,
			st.nr_runs == 1 ? "" : "s");
	if (!st.nr_runs)
		goto out;
	if (o->json) {
		ret = stat__write_json(&st, o->output ?: "-");
		if (ret) {
			fprintf(stderr, "schedlens stat: %s\n", st.err.msg);
			code = 1;
		}
		goto out;
	}
	if (o->sep)
		stat__print_csv(&st, st.out, "");
	else
		stat__print_text(&st, st.out, isatty(fileno(st.out)));
out_close:
	if (st.out != stderr ? fclose(st.out) : fflush(stderr)) {
		fprintf(stderr, "schedlens stat: cannot write the output\n");
		code = 1;
	}
	st.out = NULL;
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
	if (st.out && st.out != stderr)
		fclose(st.out);
	stat__interval_exit(&st);
	for (r = 0; r < (long)st.nr_runs; r++)
		free(st.runs[r].v);
	free(st.runs);
	counters__delete(st.ctr);
	free(st.evs);
	return code;
}

/*
 * @list in perf's CPU list syntax, strictly ("0", "0-3", "0,2-3"; each CPU once, as libperf
 * wants them), naming online CPUs only: 0, or -EINVAL with the reason in @err (which the
 * option parser puts after "-C 'LIST': ").
 */
static int check_cpu_list(const char *list, struct errbuf *err)
{
	struct perf_cpu_map *online = perf_cpu_map__new(NULL);
	size_t nr = 0, max = strlen(list) / 2 + 1, k;
	long (*ranges)[2] = calloc(max, sizeof(*ranges));
	const char *p = list;
	int ret = 0;

	if (!ranges)
		ret = err__set(err, -ENOMEM, "out of memory");
	else if (!*p)
		ret = err__set(err, -EINVAL, "expected a CPU list such as 0-3,6");
	while (!ret && *p) {
		char *end = NULL;
		long lo, hi, c;

		errno = 0;
		lo = hi = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
		if (lo >= 0 && !errno && *end == '-') {
			p = end + 1;
			hi = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
		}
		if (lo < 0 || hi < lo || errno || hi > INT32_MAX || (*end && *end != ',') ||
		    (*end == ',' && !end[1])) {
			ret = err__set(err, -EINVAL,
				       "not a CPU list (expected CPUs and ranges such as 0-3,6)");
			break;
		}
		for (k = 0; k < nr && !ret; k++)
			if (lo <= ranges[k][1] && hi >= ranges[k][0])
				ret = err__set(err, -EINVAL, "CPU %ld is listed twice",
					       lo > ranges[k][0] ? lo : ranges[k][0]);
		for (c = lo; online && c <= hi && !ret; c++)
			if (!perf_cpu_map__has(online, (struct perf_cpu){ .cpu = (int)c }))
				ret = err__set(err, -EINVAL, "CPU %ld is not online", c);
		if (nr < max) {
			ranges[nr][0] = lo;
			ranges[nr++][1] = hi;
		}
		p = *end ? end + 1 : end;
	}
	free(ranges);
	perf_cpu_map__put(online);
	return ret;
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

/* -e LIST: appended to the lists before it */
static int opt_event(const struct option *opt, const char *arg, struct errbuf *err)
{
	return append_events(opt->data, arg);
}

/* -C CPUS: system-wide on these */
static int opt_cpus(const struct option *opt, const char *arg, struct errbuf *err)
{
	struct stat_opts *o = opt->data;
	int ret = check_cpu_list(arg, err);

	if (!ret) {
		o->system_wide = true;
		o->cpus = arg;
	}
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { .repeat = 1 };
	struct errbuf err = { "" };
	const char *bench = NULL;
	long pid = 0;
	const struct option opts[] = {
		OPT_CALLBACK('e', "event", &o, opt_event, "LIST",
			     "events to count (perf names, tracepoints, rNNNN, libpfm4 names)"),
		OPT_INCR('d', "detailed", &o.detail,
			 "add L1 and LLC events; -dd and -ddd add more"),
		OPT_INT('r', "repeat", &o.repeat, 1, STAT_MAX_RUNS, "N",
			"run N times; print mean and ( +- standard error of the mean % )"),
		OPT_FLAG('a', "all-cpus", &o.system_wide,
			 "count system-wide (without a command: until Ctrl-C)"),
		OPT_CALLBACK('C', "cpu", &o, opt_cpus, "CPUS", "count system-wide on these CPUs"),
		OPT_INT('p', "pid", &pid, 1, INT32_MAX, "PID",
			"count an existing process until it exits or Ctrl-C"),
		OPT_STRING('x', "field-separator", &o.sep, "SEP", "CSV output like perf stat -x"),
		OPT_FLAG(0, "json", &o.json, "write a results document (schema schedlens-results)"),
		OPT_STRING('o', "output", &o.output, "FILE",
			   "write the output to FILE instead of stdout"),
		OPT_STRING_STOP(0, "bench", &bench, "NAME",
				"run a built-in workload in-process (see 'schedlens bench --list')"),
		OPT_FLAG(0, "whole", &o.whole,
			 "count from exec to exit even for `schedlens bench` workloads"),
		OPT_INT('I', "interval-print", &o.interval_ms, 0, INT32_MAX, "MSEC",
			"print the counts of every MSEC ms, as perf stat -I (0: off)"),
		OPT_INT(0, "interval-count", &o.interval_count, 0, INT32_MAX, "N",
			"stop printing after N intervals"),
		OPT_TEXT(""),
		OPT_TEXT("The workload's exit status is returned. Without -e: perf's default "
			 "events, plus the"),
		OPT_TEXT("L1 and LLC events where this machine has them."),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens stat", stat_usage, opts,
					 OPTIONS_STOP_AT_NON_OPTION };
	int n, code;

	n = cmd_options__parse(&cmd, argc, argv, &code);
	if (n < 0) {
		free(o.events);
		return code;
	}
	o.pid = (pid_t)pid;
	o.argv = argv + 1;
	o.argc = n;
	if (bench) {
		o.wl = workload__find(bench);
		if (!o.wl) {
			fprintf(stderr, "schedlens stat: '%s' is not a built-in workload; see "
					"'schedlens bench --list'\n", bench);
			goto usage_err;
		}
		/* the workload's own options follow; its argv[0] is its name */
		o.argv = argv;
		o.argv[0] = (char *)bench;
		o.argc = n + 1;
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
	if (o.interval_count && !o.interval_ms) {
		fprintf(stderr, "schedlens stat: --interval-count goes with -I (as in perf)\n");
		goto usage_err;
	}
	if (o.interval_ms && o.repeat > 1) {
		/* perf 6.1 runs the command N times and prints only the first run's intervals */
		fprintf(stderr, "schedlens stat: -I cannot be combined with -r: perf 6.1 takes both "
				"but prints the intervals of the first run only\n");
		goto usage_err;
	}
	if (o.interval_ms && o.json) {
		fprintf(stderr, "schedlens stat: -I and --json are exclusive\n");
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
	options__usage(stderr, stat_usage, opts);
	if (o.wl && o.wl_cfg && o.wl->free)
		o.wl->free(o.wl_cfg);
	free(o.events);
	return 2;
}
