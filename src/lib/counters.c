// SPDX-License-Identifier: GPL-2.0
#include "schedlens/counters.h"

#include <errno.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct counter {
	struct event_desc ev;
	struct perf_evsel *evsel;
	int open_err;
};

struct counters {
	struct counter *ctr;
	size_t nr;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
};

static int libperf_silent(enum libperf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static pthread_once_t libperf_once = PTHREAD_ONCE_INIT;

static void libperf_setup(void)
{
	libperf_init(libperf_silent);
}

struct counters *counters__new(const struct event_desc *evs, size_t n)
{
	struct counters *c;
	size_t i;

	pthread_once(&libperf_once, libperf_setup);
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->ctr = calloc(n ?: 1, sizeof(*c->ctr));
	if (!c->ctr) {
		free(c);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		c->ctr[i].ev = evs[i];
		c->ctr[i].open_err = -ENODEV;
	}
	c->nr = n;
	return c;
}

void counters__close(struct counters *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		if (c->ctr[i].evsel) {
			perf_evsel__close(c->ctr[i].evsel);
			perf_evsel__delete(c->ctr[i].evsel);
			c->ctr[i].evsel = NULL;
		}
	}
	perf_cpu_map__put(c->cpus);
	perf_thread_map__put(c->threads);
	c->cpus = NULL;
	c->threads = NULL;
}

void counters__delete(struct counters *c)
{
	if (!c)
		return;
	counters__close(c);
	free(c->ctr);
	free(c);
}

size_t counters__nr(const struct counters *c)
{
	return c->nr;
}

const struct event_desc *counters__event(const struct counters *c, size_t i)
{
	return i < c->nr ? &c->ctr[i].ev : NULL;
}

int counters__open_error(const struct counters *c, size_t i)
{
	return i < c->nr ? c->ctr[i].open_err : -EINVAL;
}

static int make_maps(struct counters *c, const struct counters_target *t, struct errbuf *err)
{
	size_t i;

	if (t->system_wide) {
		c->cpus = perf_cpu_map__new(t->cpus);
		c->threads = perf_thread_map__new_dummy();
		if (!c->cpus || perf_cpu_map__nr(c->cpus) == 0)
			return err__set(err, -EINVAL, "bad CPU list '%s'", t->cpus ?: "");
	} else {
		c->cpus = perf_cpu_map__dummy_new();
		c->threads = perf_thread_map__new_array((int)t->nr_tids, t->tids);
	}
	if (!c->cpus || !c->threads)
		return -ENOMEM;
	if (!t->system_wide)
		for (i = 0; i < t->nr_tids; i++)
			perf_thread_map__set_pid(c->threads, (int)i, t->tids[i]);
	return 0;
}

int counters__open(struct counters *c, const struct counters_target *t, struct errbuf *err)
{
	int first_err = 0, opened = 0, ret;
	size_t i;

	counters__close(c);
	if (!t->system_wide && t->nr_tids == 0)
		return err__set(err, -EINVAL, "nothing to count: no thread and not system-wide");
	ret = make_maps(c, t, err);
	if (ret)
		return ret;
	for (i = 0; i < c->nr; i++) {
		struct counter *ct = &c->ctr[i];
		struct perf_event_attr attr = ct->ev.attr;

		attr.read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr.inherit = t->inherit;
		attr.disabled = t->enable_on_exec || t->start_disabled;
		attr.enable_on_exec = t->enable_on_exec;
		ct->evsel = perf_evsel__new(&attr);
		if (!ct->evsel) {
			ct->open_err = -ENOMEM;
		} else {
			ct->open_err = perf_evsel__open(ct->evsel, c->cpus, c->threads);
			if (ct->open_err > 0)
				ct->open_err = -ct->open_err;
		}
		if (ct->open_err) {
			if (ct->evsel)
				perf_evsel__delete(ct->evsel);
			ct->evsel = NULL;
			if (!first_err) {
				first_err = ct->open_err;
				if (err)
					events__open_advice(ct->ev.name, first_err, err->msg,
							    sizeof(err->msg));
			}
			continue;
		}
		opened++;
	}
	return opened ? 0 : first_err ?: -EINVAL;
}

int counters__enable(struct counters *c)
{
	int ret = 0;
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (c->ctr[i].evsel && perf_evsel__enable(c->ctr[i].evsel))
			ret = -errno ?: -EIO;
	return ret;
}

int counters__disable(struct counters *c)
{
	int ret = 0;
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (c->ctr[i].evsel && perf_evsel__disable(c->ctr[i].evsel))
			ret = -errno ?: -EIO;
	return ret;
}

int counters__read(struct counters *c, size_t i, struct counter_value *v)
{
	struct perf_counts_values cv;
	int ci, ti, ncpu, nthr;

	memset(v, 0, sizeof(*v));
	if (i >= c->nr || !c->ctr[i].evsel)
		return -ENODEV;
	ncpu = perf_cpu_map__nr(c->cpus);
	nthr = perf_thread_map__nr(c->threads);
	for (ci = 0; ci < ncpu; ci++) {
		for (ti = 0; ti < nthr; ti++) {
			memset(&cv, 0, sizeof(cv));
			if (perf_evsel__read(c->ctr[i].evsel, ci, ti, &cv))
				return -errno ?: -EIO;
			v->val += cv.val;
			v->ena += cv.ena;
			v->run += cv.run;
		}
	}
	v->counted = v->run > 0;
	v->running_pct = v->ena ? 100.0 * (double)v->run / (double)v->ena : 0;
	if (v->run && v->run < v->ena)
		v->scaled = (double)v->val * (double)v->ena / (double)v->run;
	else
		v->scaled = (double)v->val;
	return 0;
}
