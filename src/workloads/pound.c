// SPDX-License-Identifier: GPL-2.0
/*
 * pound-times / pound-clock-gettime: poundtime. T threads of one process split N calls of
 * times() or clock_gettime(CLOCK_PROCESS_CPUTIME_ID); both read the process's CPU time, which
 * walks every thread through task_sched_runtime() -> update_curr(). Reports the elapsed, user
 * and system time of the measured phase.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <time.h>

#include "schedlens/phase.h"
#include "schedlens/workload.h"
#include "wl.h"

struct pound_cfg {
	const char *name;
	bool gettime;
	long threads, calls;
};

struct pound_thread {
	bool gettime;
	long calls, done;
};

/* calls between two looks at the stop: a fraction of a millisecond */
#define POUND_STOP_EVERY 256

static const char pound_usage[] =
	"usage: schedlens bench pound-times|pound-clock-gettime [-t N] [-n CALLS]\n"
	"  -t, --threads N  threads (default 2)\n"
	"  -n, --calls N    calls in all, split across the threads (default 500000;\n"
	"                   the seed uses 5000000)\n";

static int pound_parse_common(int argc, char **argv, bool gettime, void **cfgp,
			      struct errbuf *err)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "calls", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct pound_cfg *cfg = calloc(1, sizeof(*cfg));
	const char *name = gettime ? "pound-clock-gettime" : "pound-times";
	int c, ret = 0;

	if (!cfg)
		return err__set(err, -ENOMEM, "out of memory");
	*cfg = (struct pound_cfg){ name, gettime, 2, 500000 };
	wl__getopt_reset();
	while (!ret && (c = getopt_long(argc, argv, ":t:n:", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			ret = wl__parse_long(err, name, "--threads", optarg, 1, 4096, &cfg->threads);
			break;
		case 'n':
			ret = wl__parse_long(err, name, "--calls", optarg, 1, 1000000000000L,
					     &cfg->calls);
			break;
		default:
			ret = wl__bad_option(err, name, argv, c);
		}
	}
	if (!ret)
		ret = wl__no_args(err, name, argc, argv);
	if (!ret && cfg->calls < cfg->threads)
		ret = err__set(err, -EINVAL, "%s: %ld calls cannot be split across %ld threads", name,
			       cfg->calls, cfg->threads);
	if (ret) {
		free(cfg);
		return ret;
	}
	*cfgp = cfg;
	return 0;
}

static int pound_times_parse(int argc, char **argv, void **cfgp, struct errbuf *err)
{
	return pound_parse_common(argc, argv, false, cfgp, err);
}

static int pound_gettime_parse(int argc, char **argv, void **cfgp, struct errbuf *err)
{
	return pound_parse_common(argc, argv, true, cfgp, err);
}

static int pound_thread_run(struct wl_tasks *t, void *arg)
{
	struct pound_thread *pt = arg;
	struct timespec ts;
	struct tms tms;
	long i, n;
	int ret;

	ret = wl_tasks__ready(t, 0);
	if (ret)
		return ret;
	while (pt->done < pt->calls && !wl_tasks__stopped(t)) {
		n = pt->calls - pt->done;
		n = n < POUND_STOP_EVERY ? n : POUND_STOP_EVERY;
		if (pt->gettime) {
			for (i = 0; i < n; i++)
				clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		} else {
			for (i = 0; i < n; i++)
				times(&tms);
		}
		pt->done += n;
	}
	return 0;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static int pound_run(const void *vcfg, struct phase *ph, json_t *metrics, struct errbuf *err)
{
	const struct pound_cfg *cfg = vcfg;
	struct pound_thread *pts = calloc((size_t)cfg->threads, sizeof(*pts));
	struct rusage r0, r1;
	struct wl_tasks *t;
	uint64_t ns = 0;
	double secs, calls = 0;
	long i;
	int ret = 0;

	if (!pts)
		return err__set(err, -ENOMEM, "out of memory");
	t = wl_tasks__new(true, (size_t)cfg->threads, err);
	if (!t) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < cfg->threads && !ret; i++) {
		pts[i].gettime = cfg->gettime;
		pts[i].calls = cfg->calls / cfg->threads + (i < cfg->calls % cfg->threads);
		ret = wl_tasks__spawn(t, pound_thread_run, &pts[i], err);
	}
	if (ret)
		goto out_tasks;
	/* rusage from just before the release, through the measured run, to the last join */
	ret = wl_tasks__wait_ready(t, err);
	if (!ret)
		getrusage(RUSAGE_SELF, &r0);
	ret = ret ?: wl_tasks__measure(t, ph, &ns, err);
	if (ret && !(ret == -EINTR && ns))
		goto out_tasks;
	getrusage(RUSAGE_SELF, &r1);
	/* stopped: the calls made until then */
	for (i = 0; i < cfg->threads; i++)
		calls += (double)pts[i].done;
	secs = (double)ns / 1e9;
	ret = wl__metric(metrics, "elapsed", secs, "s", BETTER_LOWER) ?:
	      wl__metric(metrics, "user", tv_s(&r1.ru_utime) - tv_s(&r0.ru_utime), "s",
			 BETTER_LOWER) ?:
	      wl__metric(metrics, "sys", tv_s(&r1.ru_stime) - tv_s(&r0.ru_stime), "s",
			 BETTER_LOWER) ?:
	      wl__metric(metrics, "calls_per_s", calls / secs, "ops/s", BETTER_HIGHER) ?:
	      (ret ? wl__metric(metrics, "calls", calls, "count", BETTER_NONE) : 0) ?: ret;
out_tasks:
	wl_tasks__delete(t);
out_free:
	free(pts);
	return ret;
}

static void pound_format(const void *vcfg, const json_t *m, char *buf, size_t len)
{
	const struct pound_cfg *cfg = vcfg;

	char n[64];

	wl__count(m, "calls", cfg->calls, n, sizeof(n));
	snprintf(buf, len,
		 "%s: %s calls by %ld threads: elapsed %.3f s, user %.3f s, sys %.3f s, "
		 "%.0f calls/s",
		 cfg->name, n, cfg->threads, wl__value(m, "elapsed"), wl__value(m, "user"),
		 wl__value(m, "sys"), wl__value(m, "calls_per_s"));
}

static json_t *pound_params(const void *vcfg)
{
	const struct pound_cfg *cfg = vcfg;

	return json_pack("{s:I, s:I}", "threads", (json_int_t)cfg->threads, "calls",
			 (json_int_t)cfg->calls);
}

const struct workload workload_pound_times = {
	.name = "pound-times",
	.summary = "threads pound times() (poundtime; task_sched_runtime -> update_curr)",
	.usage = pound_usage,
	.parse = pound_times_parse,
	.run = pound_run,
	.format = pound_format,
	.params = pound_params,
	.free = free,
};

const struct workload workload_pound_clock_gettime = {
	.name = "pound-clock-gettime",
	.summary = "threads pound clock_gettime(CLOCK_PROCESS_CPUTIME_ID) (poundtime)",
	.usage = pound_usage,
	.parse = pound_gettime_parse,
	.run = pound_run,
	.format = pound_format,
	.params = pound_params,
	.free = free,
};
