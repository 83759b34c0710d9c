// SPDX-License-Identifier: GPL-2.0
/*
 * pipe: two tasks pass a token back and forth over two pipes for N round trips, as UnixBench's
 * context1 and `perf bench sched pipe` do; every round trip is two wakeups and two context
 * switches.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/phase.h"
#include "schedlens/workload.h"
#include "wl.h"

struct pipe_cfg {
	long loops;
	bool threads;
	enum wl_pin pin;
};

/* in memory shared with forked sides, a cache line each: the parent reads done */
struct pipe_side {
	_Alignas(64) long loops;
	int rd, wr, cpu;
	bool starts;
	int unused[2];	/* the peer's ends: a process closes them, so a dead peer means EOF */
	long done;	/* round trips done */
};

static const char pipe_usage[] =
	"usage: schedlens bench pipe [-l N] [-T] [--pin same|llc|cross-llc|none]\n"
	"  -l, --loops N   round trips (default 50000, about 1 s here; perf uses 1000000)\n"
	"  -T, --threads   two threads of one process (default: two processes)\n"
	"      --pin MODE  same: both on one CPU; llc: two CPUs sharing a last-level cache;\n"
	"                  cross-llc: two CPUs in different LLCs; none (default)\n";

static int pipe_parse(int argc, char **argv, void **cfgp, struct errbuf *err)
{
	static const struct option opts[] = {
		{ "loops", required_argument, NULL, 'l' },
		{ "threads", no_argument, NULL, 'T' },
		{ "pin", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	struct pipe_cfg *cfg = calloc(1, sizeof(*cfg));
	int c, ret = 0;

	if (!cfg)
		return err__set(err, -ENOMEM, "out of memory");
	cfg->loops = 50000;
	wl__getopt_reset();
	while (!ret && (c = getopt_long(argc, argv, ":l:T", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			ret = wl__parse_long(err, "pipe", "--loops", optarg, 1, 1000000000L,
					     &cfg->loops);
			break;
		case 'T':
			cfg->threads = true;
			break;
		case 'P':
			ret = wl_pin__parse(err, "pipe", optarg, &cfg->pin);
			break;
		default:
			ret = wl__bad_option(err, "pipe", argv, c);
		}
	}
	if (!ret)
		ret = wl__no_args(err, "pipe", argc, argv);
	if (ret) {
		free(cfg);
		return ret;
	}
	*cfgp = cfg;
	return 0;
}

static int xfer(struct wl_tasks *t, int fd, bool wr, int *token)
{
	ssize_t n;

	do
		n = wr ? write(fd, token, sizeof(*token)) : read(fd, token, sizeof(*token));
	while (n < 0 && errno == EINTR && !wl_tasks__stopped(t));
	if (n < 0 && errno == EINTR)
		return -EINTR;
	return n == sizeof(*token) ? 0 : -EIO;
}

static int pipe_side_run(struct wl_tasks *t, void *arg)
{
	struct pipe_side *s = arg;
	int token = 0, ret;
	long i;

	if (s->unused[0] >= 0) {
		close(s->unused[0]);
		close(s->unused[1]);
	}
	ret = wl_tasks__ready(t, wl_pin__self(s->cpu));
	for (i = 0; !ret && i < s->loops && !wl_tasks__stopped(t); i++) {
		if (s->starts)
			ret = xfer(t, s->wr, true, &token) ?: xfer(t, s->rd, false, &token);
		else
			ret = xfer(t, s->rd, false, &token) ?: xfer(t, s->wr, true, &token);
		/* stored as it goes: a side stopped midway may die of SIGPIPE */
		if (!ret)
			s->done = i + 1;
	}
	return ret;
}

static int pipe_metrics(long done, uint64_t ns, bool cut, json_t *metrics)
{
	double secs = (double)ns / 1e9;
	int ret = 0;

	if (done)
		ret = wl__metric(metrics, "round_trips_per_s", (double)done / secs, "ops/s",
				 BETTER_HIGHER) ?:
		      wl__metric(metrics, "us_per_round_trip", secs * 1e6 / (double)done, "us",
				 BETTER_LOWER);
	ret = ret ?: wl__metric(metrics, "elapsed", secs, "s", BETTER_LOWER);
	if (!ret && cut)
		ret = wl__metric(metrics, "round_trips", (double)done, "count", BETTER_NONE);
	return ret;
}

static int pipe_run(const void *vcfg, struct phase *ph, json_t *metrics, struct errbuf *err)
{
	const struct pipe_cfg *cfg = vcfg;
	struct pipe_side *sides;
	struct wl_tasks *t;
	int fwd[2] = { -1, -1 }, back[2] = { -1, -1 }, cpus[2], i, ret;
	uint64_t ns = 0;

	ret = wl_pin__choose_here(cfg->pin, cpus, err);
	if (ret)
		return ret;
	sides = wl__shared_calloc(2, sizeof(*sides));
	if (!sides)
		return err__set(err, -ENOMEM, "out of memory");
	if (pipe(fwd) || pipe(back)) {
		ret = err__set(err, -errno, "pipe: cannot create pipes: %s", strerror(errno));
		goto out_close;
	}
	t = wl_tasks__new(cfg->threads, 2, err);
	if (!t) {
		ret = -ENOMEM;
		goto out_close;
	}
	sides[0] = (struct pipe_side){ cfg->loops, back[0], fwd[1], cpus[0], true, { -1, -1 }, 0 };
	sides[1] = (struct pipe_side){ cfg->loops, fwd[0], back[1], cpus[1], false, { -1, -1 }, 0 };
	if (!cfg->threads) {
		sides[0].unused[0] = fwd[0];
		sides[0].unused[1] = back[1];
		sides[1].unused[0] = back[0];
		sides[1].unused[1] = fwd[1];
	}
	for (i = 0; i < 2 && !ret; i++)
		ret = wl_tasks__spawn(t, pipe_side_run, &sides[i], err);
	/* the parent's copies would keep a dead side's pipe open too */
	for (i = 0; i < 2 && !cfg->threads; i++) {
		close(fwd[i]);
		close(back[i]);
		fwd[i] = back[i] = -1;
	}
	if (!ret)
		ret = wl_tasks__measure(t, ph, &ns, err);
	/* stopped: the round trips done until then, when it had started */
	if (!ret || (ret == -EINTR && ns))
		ret = pipe_metrics(sides[0].done, ns, ret, metrics) ?: ret;
	wl_tasks__delete(t);
out_close:
	for (i = 0; i < 2; i++) {
		if (fwd[i] >= 0)
			close(fwd[i]);
		if (back[i] >= 0)
			close(back[i]);
	}
	wl__shared_free(sides, 2, sizeof(*sides));
	return ret;
}

static void pipe_format(const void *vcfg, const json_t *m, char *buf, size_t len)
{
	const struct pipe_cfg *cfg = vcfg;
	char n[64];

	wl__count(m, "round_trips", cfg->loops, n, sizeof(n));
	snprintf(buf, len, "pipe: %s round trips (%s, pin %s), %.3f us/rt, %.0f rt/s, %.3f s", n,
		 cfg->threads ? "threads" : "processes", wl_pin__name(cfg->pin),
		 wl__value(m, "us_per_round_trip"), wl__value(m, "round_trips_per_s"),
		 wl__value(m, "elapsed"));
}

static json_t *pipe_params(const void *vcfg)
{
	const struct pipe_cfg *cfg = vcfg;

	return json_pack("{s:I, s:s, s:s}", "loops", (json_int_t)cfg->loops, "mode",
			 cfg->threads ? "threads" : "processes", "pin", wl_pin__name(cfg->pin));
}

const struct workload workload_pipe = {
	.name = "pipe",
	.summary = "two tasks pass a token over two pipes (perf bench sched pipe, UnixBench context1)",
	.usage = pipe_usage,
	.parse = pipe_parse,
	.run = pipe_run,
	.format = pipe_format,
	.params = pipe_params,
	.free = free,
};
