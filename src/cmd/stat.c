// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens stat: count events over a workload, with repeats and honest dispersion, like
 * `perf stat -r N -ddd`. Counts run from the workload's exec to its exit (children included),
 * or over the measured phase of a built-in workload.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/commands.h"
#include "schedlens/counters.h"
#include "schedlens/events.h"
#include "schedlens/results.h"
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
		ret = stat__write_json(&st, o->output ?: "-");
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
		stat__print_csv(&st, o->output ? out : stderr);
	else
		stat__print_text(&st, o->output ? out : stderr, isatty(fileno(o->output ? out : stderr)));
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
