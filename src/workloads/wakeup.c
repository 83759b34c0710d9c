// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup: schbench. M message threads each serve W workers. A worker posts a request to its
 * message thread and sleeps; the message thread stamps the time and wakes it; the worker
 * records the wakeup latency (stamp to running), does a fixed amount of work (N matrix
 * multiplies over a cache footprint of F KiB) and records the request latency (stamp to work
 * done). After a warm-up, a measured window of D seconds; latencies go to log-linear
 * histograms (percentiles within HISTOGRAM_REL_ERROR, 1/128, of the exact values).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "schedlens/histogram.h"
#include "schedlens/phase.h"
#include "schedlens/workload.h"
#include "wl.h"

static const double wakeup_pcts[] = { 20, 50, 90, 99, 99.9 };

struct wakeup_cfg {
	long msg_threads, workers, ops, footprint_kb;
	uint64_t duration_ns, warmup_ns;
};

struct wk_run;

struct wk_worker {
	struct wk_msg *msg;
	struct wk_worker *next;
	_Atomic uint32_t woken;
	_Atomic uint64_t wake_ts;
	struct histogram *wake_h, *req_h;
	unsigned long *mat;
	size_t m;
	pthread_t tid;
	bool started;
};

struct wk_msg {
	struct wk_run *run;
	_Atomic(struct wk_worker *) head;
	_Atomic uint32_t seq;
	_Atomic long live;
	pthread_t tid;
	bool started;
};

struct wk_run {
	const struct wakeup_cfg *cfg;
	_Atomic int stop;
	_Atomic uint64_t start_ns, end_ns;
};

static const char wakeup_usage[] =
	"usage: schedlens bench wakeup [-m N] [-t N] [-n OPS] [-F KIB] [-d DURATION] [-w DURATION]\n"
	"  -m, --message-threads N  message threads (default 2)\n"
	"  -t, --threads N          workers per message thread (default 8)\n"
	"  -n, --operations N       matrix multiplies per request (default 5; 0: no work)\n"
	"  -F, --cache-footprint K  KiB of matrices per worker (default 256)\n"
	"  -d, --duration D         measured time after the warm-up (default 5s; schbench's -r)\n"
	"  -w, --warmup D           warm-up before measuring (default 1s, 0 for none)\n"
	"Latency percentiles come from a log-linear histogram: within 1/128 (0.8%) of the exact\n"
	"value. Wakeup latency: the message thread's wake to the worker running; request latency:\n"
	"the wake to the work done.\n";

static int wakeup_parse(int argc, char **argv, void **cfgp, struct errbuf *err)
{
	static const struct option opts[] = {
		{ "message-threads", required_argument, NULL, 'm' },
		{ "threads", required_argument, NULL, 't' },
		{ "operations", required_argument, NULL, 'n' },
		{ "cache-footprint", required_argument, NULL, 'F' },
		{ "duration", required_argument, NULL, 'd' },
		{ "runtime", required_argument, NULL, 'd' },
		{ "warmup", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	struct wakeup_cfg *cfg = calloc(1, sizeof(*cfg));
	int c, ret = 0;

	if (!cfg)
		return err__set(err, -ENOMEM, "out of memory");
	*cfg = (struct wakeup_cfg){ .msg_threads = 2, .workers = 8, .ops = 5, .footprint_kb = 256,
				    .duration_ns = 5000000000ull, .warmup_ns = 1000000000ull };
	wl__getopt_reset();
	while (!ret && (c = getopt_long(argc, argv, ":m:t:n:F:d:w:", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			ret = wl__parse_long(err, "wakeup", "--message-threads", optarg, 1, 1024,
					     &cfg->msg_threads);
			break;
		case 't':
			ret = wl__parse_long(err, "wakeup", "--threads", optarg, 1, 1024, &cfg->workers);
			break;
		case 'n':
			ret = wl__parse_long(err, "wakeup", "--operations", optarg, 0, 100000, &cfg->ops);
			break;
		case 'F':
			ret = wl__parse_long(err, "wakeup", "--cache-footprint", optarg, 1, 1 << 20,
					     &cfg->footprint_kb);
			break;
		case 'd':
			ret = wl__parse_duration(err, "wakeup", "--duration", optarg, false, 3600,
						 &cfg->duration_ns);
			break;
		case 'w':
			ret = wl__parse_duration(err, "wakeup", "--warmup", optarg, true, 3600,
						 &cfg->warmup_ns);
			break;
		default:
			ret = wl__bad_option(err, "wakeup", argv, c);
		}
	}
	if (!ret)
		ret = wl__no_args(err, "wakeup", argc, argv);
	if (!ret && cfg->msg_threads * cfg->workers > 4096)
		ret = err__set(err, -EINVAL, "wakeup: %ld x %ld workers is over 4096",
			       cfg->msg_threads, cfg->workers);
	if (ret) {
		free(cfg);
		return ret;
	}
	*cfgp = cfg;
	return 0;
}

static void futex_wait(_Atomic uint32_t *addr, uint32_t val, const struct timespec *timeout)
{
	syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, val, timeout, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr)
{
	syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* C = A x B over the worker's footprint, @ops times (fewer when the run stops) */
static void wk_work(struct wk_worker *w, long ops, _Atomic int *stop)
{
	size_t m = w->m, i, j, k;
	unsigned long *a = w->mat, *b = a + m * m, *c = b + m * m, sum;
	long op;

	for (op = 0; op < ops; op++) {
		for (i = 0; i < m; i++) {
			if (atomic_load_explicit(stop, memory_order_relaxed))
				return;
			for (j = 0; j < m; j++) {
				sum = 0;
				for (k = 0; k < m; k++)
					sum += a[i * m + k] * b[k * m + j];
				c[i * m + j] = sum;
			}
		}
	}
}

static void *wk_worker_fn(void *arg)
{
	struct wk_worker *w = arg;
	struct wk_msg *msg = w->msg;
	struct wk_run *run = msg->run;
	uint64_t stamp, t_run, t_done;

	while (!atomic_load(&run->stop)) {
		atomic_store(&w->woken, 0);
		w->next = atomic_load(&msg->head);
		while (!atomic_compare_exchange_weak(&msg->head, &w->next, w))
			;
		atomic_fetch_add(&msg->seq, 1);
		futex_wake(&msg->seq);
		while (!atomic_load(&w->woken))
			futex_wait(&w->woken, 0, NULL);
		t_run = now_ns();
		if (atomic_load(&run->stop))
			break;
		stamp = atomic_load(&w->wake_ts);
		wk_work(w, run->cfg->ops, &run->stop);
		t_done = now_ns();
		if (stamp >= atomic_load(&run->start_ns) && t_done <= atomic_load(&run->end_ns)) {
			histogram__record(w->wake_h, t_run - stamp);
			histogram__record(w->req_h, t_done - stamp);
		}
	}
	atomic_fetch_sub(&msg->live, 1);
	return NULL;
}

static void *wk_msg_fn(void *arg)
{
	static const struct timespec tick = { 0, 1000000 };
	struct wk_msg *msg = arg;
	struct wk_worker *w, *next;
	uint32_t seen;
	bool stop;

	for (;;) {
		seen = atomic_load(&msg->seq);
		w = atomic_exchange(&msg->head, NULL);
		if (!w) {
			stop = atomic_load(&msg->run->stop);
			if (stop && !atomic_load(&msg->live))
				break;
			/* while stopping, poll: exiting workers do not wake us */
			futex_wait(&msg->seq, seen, stop ? &tick : NULL);
			continue;
		}
		for (; w; w = next) {
			next = w->next;
			atomic_store(&w->wake_ts, now_ns());
			atomic_store(&w->woken, 1);
			futex_wake(&w->woken);
		}
	}
	return NULL;
}

static int wk_worker_init(struct wk_worker *w, struct wk_msg *msg, const struct wakeup_cfg *cfg)
{
	size_t i;

	w->msg = msg;
	w->m = (size_t)sqrt((double)cfg->footprint_kb * 1024 / 3 / sizeof(unsigned long));
	if (!w->m)
		w->m = 1;
	w->wake_h = histogram__new();
	w->req_h = histogram__new();
	w->mat = malloc(3 * w->m * w->m * sizeof(*w->mat));
	if (!w->wake_h || !w->req_h || !w->mat)
		return -ENOMEM;
	for (i = 0; i < 3 * w->m * w->m; i++)
		w->mat[i] = i;
	return 0;
}

static int wk_metrics(json_t *metrics, const char *what, const struct histogram *h)
{
	char name[64];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(wakeup_pcts); i++) {
		snprintf(name, sizeof(name), "%s_p%g", what, wakeup_pcts[i]);
		ret = wl__metric(metrics, name, histogram__percentile(h, wakeup_pcts[i]) / 1e3, "us",
				 BETTER_LOWER);
		if (ret)
			return ret;
	}
	snprintf(name, sizeof(name), "%s_min", what);
	ret = wl__metric(metrics, name, (double)histogram__min(h) / 1e3, "us", BETTER_LOWER);
	snprintf(name, sizeof(name), "%s_max", what);
	ret = ret ?: wl__metric(metrics, name, (double)histogram__max(h) / 1e3, "us", BETTER_LOWER);
	snprintf(name, sizeof(name), "%s_samples", what);
	return ret ?: wl__metric(metrics, name, (double)histogram__count(h), "count", BETTER_NONE);
}

static int wakeup_run(const void *vcfg, struct phase *ph, json_t *metrics, struct errbuf *err)
{
	const struct wakeup_cfg *cfg = vcfg;
	size_t nm = (size_t)cfg->msg_threads, nw = nm * (size_t)cfg->workers, i;
	struct wk_worker *workers = calloc(nw, sizeof(*workers));
	struct wk_msg *msgs = calloc(nm, sizeof(*msgs));
	struct histogram *wake_h = histogram__new(), *req_h = histogram__new();
	struct wk_run run = { .cfg = cfg };
	uint64_t start = 0, end = 0;
	int ret = 0, e, cut = 0;

	atomic_store(&run.end_ns, UINT64_MAX);
	atomic_store(&run.start_ns, UINT64_MAX);
	if (!workers || !msgs || !wake_h || !req_h) {
		ret = err__set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	for (i = 0; i < nm; i++) {
		msgs[i].run = &run;
		atomic_store(&msgs[i].live, cfg->workers);
	}
	for (i = 0; i < nw && !ret; i++)
		if (wk_worker_init(&workers[i], &msgs[i / (size_t)cfg->workers], cfg))
			ret = err__set(err, -ENOMEM, "out of memory");
	for (i = 0; i < nm && !ret; i++) {
		e = pthread_create(&msgs[i].tid, NULL, wk_msg_fn, &msgs[i]);
		if (e)
			ret = err__set(err, -e, "wakeup: cannot create a message thread: %s", strerror(e));
		msgs[i].started = !e;
	}
	for (i = 0; i < nw && !ret; i++) {
		e = pthread_create(&workers[i].tid, NULL, wk_worker_fn, &workers[i]);
		if (e)
			ret = err__set(err, -e, "wakeup: cannot create a worker: %s", strerror(e));
		workers[i].started = !e;
	}
	if (ret)
		goto out_stop;
	ret = wl__sleep_ns(cfg->warmup_ns);
	if (ret) /* stopped before the measured phase: nothing to say */
		goto out_stop;
	ret = wl__phase_begin(ph, err);
	if (ret)
		goto out_stop;
	start = now_ns();
	atomic_store(&run.start_ns, start);
	cut = wl__sleep_ns(cfg->duration_ns);
	end = now_ns();
	atomic_store(&run.end_ns, end);
	/* stopped: the load ends first, the phase after */
	if (cut)
		atomic_store(&run.stop, 1);
	ret = wl__phase_end(ph, err);
out_stop:
	atomic_store(&run.stop, 1);
	for (i = 0; i < nm; i++) {
		atomic_fetch_add(&msgs[i].seq, 1);
		futex_wake(&msgs[i].seq);
	}
	/* workers not started never count down */
	for (i = 0; i < nw; i++)
		if (!workers[i].started)
			atomic_fetch_sub(&workers[i].msg->live, 1);
	for (i = 0; i < nw; i++)
		if (workers[i].started)
			pthread_join(workers[i].tid, NULL);
	for (i = 0; i < nm; i++)
		if (msgs[i].started)
			pthread_join(msgs[i].tid, NULL);
	if (ret)
		goto out_free;
	for (i = 0; i < nw; i++) {
		histogram__merge(wake_h, workers[i].wake_h);
		histogram__merge(req_h, workers[i].req_h);
	}
	ret = wk_metrics(metrics, "wakeup", wake_h) ?: wk_metrics(metrics, "request", req_h) ?:
	      wl__metric(metrics, "requests_per_s",
			 (double)histogram__count(req_h) / ((double)(end - start) / 1e9), "ops/s",
			 BETTER_HIGHER);
	/* stopped in the measured phase: its figures so far, and how long it ran */
	if (!ret && cut)
		ret = wl__metric(metrics, "elapsed", (double)(end - start) / 1e9, "s",
				 BETTER_NONE) ?: cut;
out_free:
	for (i = 0; workers && i < nw; i++) {
		histogram__delete(workers[i].wake_h);
		histogram__delete(workers[i].req_h);
		free(workers[i].mat);
	}
	histogram__delete(wake_h);
	histogram__delete(req_h);
	free(workers);
	free(msgs);
	return ret;
}

static size_t wk_format_lat(const json_t *m, const char *what, char *buf, size_t len)
{
	char name[64], min[64];
	size_t n, i;

	snprintf(name, sizeof(name), "%s_samples", what);
	snprintf(min, sizeof(min), "%s_min", what);
	n = (size_t)snprintf(buf, len, "  %s latency (us), %.0f samples: min %.1f", what,
			     wl__value(m, name), wl__value(m, min));
	for (i = 0; i < ARRAY_SIZE(wakeup_pcts) && n < len; i++) {
		snprintf(name, sizeof(name), "%s_p%g", what, wakeup_pcts[i]);
		n += (size_t)snprintf(buf + n, len - n, ", p%g %.1f", wakeup_pcts[i],
				      wl__value(m, name));
	}
	snprintf(name, sizeof(name), "%s_max", what);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, ", max %.1f\n", wl__value(m, name));
	return n;
}

static void wakeup_format(const void *vcfg, const json_t *m, char *buf, size_t len)
{
	const struct wakeup_cfg *cfg = vcfg;
	char d[64];
	size_t n;

	wl__seconds(m, "elapsed", cfg->duration_ns, d, sizeof(d));
	n = (size_t)snprintf(buf, len,
			     "wakeup: %ld message threads x %ld workers, %ld ops over %ld KiB per "
			     "request, %s s after %.1f s warm-up: %.1f requests/s\n",
			     cfg->msg_threads, cfg->workers, cfg->ops, cfg->footprint_kb, d,
			     (double)cfg->warmup_ns / 1e9, wl__value(m, "requests_per_s"));
	if (n < len)
		n += wk_format_lat(m, "wakeup", buf + n, len - n);
	if (n < len)
		n += wk_format_lat(m, "request", buf + n, len - n);
	/* the caller adds the final newline */
	if (n && n <= len && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
}

static json_t *wakeup_params(const void *vcfg)
{
	const struct wakeup_cfg *cfg = vcfg;

	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:f}", "message_threads",
			 (json_int_t)cfg->msg_threads, "threads", (json_int_t)cfg->workers,
			 "operations", (json_int_t)cfg->ops, "cache_footprint_kb",
			 (json_int_t)cfg->footprint_kb, "duration_s", (double)cfg->duration_ns / 1e9,
			 "warmup_s", (double)cfg->warmup_ns / 1e9);
}

const struct workload workload_wakeup = {
	.name = "wakeup",
	.summary = "message threads wake workers that do a fixed amount of work (schbench)",
	.usage = wakeup_usage,
	.parse = wakeup_parse,
	.run = wakeup_run,
	.format = wakeup_format,
	.params = wakeup_params,
	.free = free,
};
