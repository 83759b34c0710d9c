// SPDX-License-Identifier: GPL-2.0
/*
 * messaging: hackbench / `perf bench sched messaging`. Each of G groups has F receivers and F
 * senders; every sender writes L messages of S bytes to every receiver of its group, over a
 * socketpair (default) or a pipe per receiver. Reports the time from releasing all tasks to
 * the last one ending.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "schedlens/phase.h"
#include "schedlens/workload.h"
#include "wl.h"

struct messaging_cfg {
	long groups, fds, loops, size;
	bool pipes, threads;
};

/* in memory shared with forked tasks, a cache line each: the parent reads got */
struct messaging_task {
	_Alignas(64) const struct messaging_cfg *cfg;
	int in;		/* a receiver's read end; -1 for a sender */
	const int *out;	/* a sender's write ends, one per receiver of its group */
	long got;	/* messages a receiver read */
};

static const char messaging_usage[] =
	"usage: schedlens bench messaging [-g N] [-f N] [-l N] [-s BYTES] [-p] [-T]\n"
	"  -g, --groups N     groups (default 1)\n"
	"  -f, --fds N        senders and receivers per group (default 20)\n"
	"  -l, --loops N      messages each sender writes to each receiver (default 1000;\n"
	"                     the seeds use 100000, hackbench's default is 100)\n"
	"  -s, --datasize B   bytes per message (default 100)\n"
	"  -p, --pipe         pipes instead of socketpairs\n"
	"  -T, --threads      threads instead of processes (-t is the same)\n";

static int messaging_parse(int argc, char **argv, void **cfgp, struct errbuf *err)
{
	static const struct option opts[] = {
		{ "groups", required_argument, NULL, 'g' }, { "fds", required_argument, NULL, 'f' },
		{ "loops", required_argument, NULL, 'l' },  { "datasize", required_argument, NULL, 's' },
		{ "pipe", no_argument, NULL, 'p' },	    { "threads", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct messaging_cfg *cfg = calloc(1, sizeof(*cfg));
	int c, ret = 0;

	if (!cfg)
		return err__set(err, -ENOMEM, "out of memory");
	*cfg = (struct messaging_cfg){ .groups = 1, .fds = 20, .loops = 1000, .size = 100 };
	wl__getopt_reset();
	while (!ret && (c = getopt_long(argc, argv, ":g:f:l:s:pTt", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			ret = wl__parse_long(err, "messaging", "--groups", optarg, 1, 1000, &cfg->groups);
			break;
		case 'f':
			ret = wl__parse_long(err, "messaging", "--fds", optarg, 1, 1000, &cfg->fds);
			break;
		case 'l':
			ret = wl__parse_long(err, "messaging", "--loops", optarg, 1, 100000000L,
					     &cfg->loops);
			break;
		case 's':
			ret = wl__parse_long(err, "messaging", "--datasize", optarg, 1, 1 << 20,
					     &cfg->size);
			break;
		case 'p':
			cfg->pipes = true;
			break;
		case 'T':
		case 't':
			cfg->threads = true;
			break;
		default:
			ret = wl__bad_option(err, "messaging", argv, c);
		}
	}
	if (!ret)
		ret = wl__no_args(err, "messaging", argc, argv);
	if (!ret && cfg->groups * cfg->fds > 5000)
		ret = err__set(err, -EINVAL, "messaging: %ld groups of %ld is over 5000 pairs of tasks",
			       cfg->groups, cfg->fds);
	if (ret) {
		free(cfg);
		return ret;
	}
	*cfgp = cfg;
	return 0;
}

/* One message of @size bytes: 0, -EINTR once the run stops, -EIO at EOF or on an error. */
static int messaging_xfer(struct wl_tasks *t, int fd, char *buf, size_t size, bool wr)
{
	size_t done = 0;
	ssize_t n;

	while (done < size) {
		n = wr ? write(fd, buf + done, size - done) : read(fd, buf + done, size - done);
		if (n > 0)
			done += (size_t)n;
		else if (!(n < 0 && errno == EINTR))
			return -EIO;
		else if (wl_tasks__stopped(t))
			return -EINTR;
	}
	return 0;
}

static int messaging_task_run(struct wl_tasks *t, void *arg)
{
	struct messaging_task *task = arg;
	const struct messaging_cfg *cfg = task->cfg;
	size_t size = (size_t)cfg->size;
	char *buf = calloc(1, size);
	long i, j, todo = cfg->loops * cfg->fds;
	int ret;

	ret = wl_tasks__ready(t, buf ? 0 : -ENOMEM);
	if (task->in >= 0) {
		while (!ret && task->got < todo && !wl_tasks__stopped(t)) {
			ret = messaging_xfer(t, task->in, buf, size, false);
			task->got += !ret;
		}
		free(buf);
		return ret;
	}
	for (i = 0; !ret && i < cfg->loops && !wl_tasks__stopped(t); i++)
		for (j = 0; !ret && j < cfg->fds; j++)
			ret = messaging_xfer(t, task->out[j], buf, size, true);
	free(buf);
	return ret;
}

/* Group @g's channels: fds[2r] is receiver r's read end, fds[2r + 1] (and wr[r]) its write end. */
static int messaging_channels(const struct messaging_cfg *cfg, size_t g, int *fds, int *wr,
			      struct errbuf *err)
{
	size_t r;
	int p[2];

	for (r = g * (size_t)cfg->fds; r < (g + 1) * (size_t)cfg->fds; r++) {
		if (cfg->pipes ? pipe(p) : socketpair(AF_UNIX, SOCK_STREAM, 0, p))
			return err__set(err, -errno, "messaging: cannot create %s %zu of %ld: %s",
					cfg->pipes ? "pipe" : "socketpair", r + 1,
					cfg->groups * cfg->fds, strerror(errno));
		fds[2 * r] = p[0];
		fds[2 * r + 1] = wr[r] = p[1];
	}
	return 0;
}

static void messaging_close(int *fds, size_t from, size_t to)
{
	for (; from < to; from++) {
		if (fds[from] >= 0)
			close(fds[from]);
		fds[from] = -1;
	}
}

static int messaging_run(const void *vcfg, struct phase *ph, json_t *metrics, struct errbuf *err)
{
	const struct messaging_cfg *cfg = vcfg;
	size_t pairs = (size_t)(cfg->groups * cfg->fds), f = (size_t)cfg->fds, g, i, r;
	struct messaging_task *tasks = wl__shared_calloc(2 * pairs, sizeof(*tasks));
	int *fds = malloc(2 * pairs * sizeof(*fds)), *wr = malloc(pairs * sizeof(*wr)), ret = 0;
	struct wl_tasks *t = NULL;
	double secs, msgs = 0;
	uint64_t ns = 0;

	if (!tasks || !fds || !wr) {
		ret = err__set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	for (i = 0; i < 2 * pairs; i++)
		fds[i] = -1;
	t = wl_tasks__new(cfg->threads, 2 * pairs, err);
	if (!t) {
		ret = -ENOMEM;
		goto out_free;
	}
	/*
	 * Per group, as hackbench: its channels, its receivers, its senders; processes then
	 * have the group's fds and the parent closes them, so no task inherits other groups'.
	 */
	for (g = 0; g < (size_t)cfg->groups && !ret; g++) {
		i = g * f;
		ret = messaging_channels(cfg, g, fds, wr, err);
		for (r = i; r < i + f && !ret; r++) {
			tasks[r] = (struct messaging_task){ cfg, fds[2 * r], NULL, 0 };
			ret = wl_tasks__spawn(t, messaging_task_run, &tasks[r], err);
		}
		for (r = i; r < i + f && !ret; r++) {
			tasks[pairs + r] = (struct messaging_task){ cfg, -1, wr + i, 0 };
			ret = wl_tasks__spawn(t, messaging_task_run, &tasks[pairs + r], err);
		}
		if (!cfg->threads)
			messaging_close(fds, 2 * i, 2 * (i + f));
	}
	if (!ret)
		ret = wl_tasks__measure(t, ph, &ns, err);
	if (ret && !(ret == -EINTR && ns))
		goto out_tasks;
	/* stopped: the messages read until then */
	for (r = 0; r < pairs; r++)
		msgs += (double)tasks[r].got;
	secs = (double)ns / 1e9;
	ret = wl__metric(metrics, "time", secs, "s", BETTER_LOWER) ?:
	      wl__metric(metrics, "messages_per_s", msgs / secs, "ops/s", BETTER_HIGHER) ?:
	      (ret ? wl__metric(metrics, "messages", msgs, "count", BETTER_NONE) : 0) ?: ret;
out_tasks:
	wl_tasks__delete(t);
	messaging_close(fds, 0, 2 * pairs);
out_free:
	free(wr);
	free(fds);
	wl__shared_free(tasks, 2 * pairs, sizeof(*tasks));
	return ret;
}

static void messaging_format(const void *vcfg, const json_t *m, char *buf, size_t len)
{
	const struct messaging_cfg *cfg = vcfg;

	char n[96] = "";

	/* a run cut short says how far it got */
	if (json_object_get(m, "messages"))
		snprintf(n, sizeof(n), ", %.0f of %ld messages", wl__value(m, "messages"),
			 cfg->groups * cfg->fds * cfg->fds * cfg->loops);
	snprintf(buf, len,
		 "messaging: %ld group%s of %ld senders and %ld receivers, %ld loops of %ld bytes "
		 "over %s (%s): %.3f s%s, %.0f msgs/s",
		 cfg->groups, cfg->groups == 1 ? "" : "s", cfg->fds, cfg->fds, cfg->loops, cfg->size,
		 cfg->pipes ? "pipes" : "socketpairs", cfg->threads ? "threads" : "processes",
		 wl__value(m, "time"), n, wl__value(m, "messages_per_s"));
}

static json_t *messaging_params(const void *vcfg)
{
	const struct messaging_cfg *cfg = vcfg;

	return json_pack("{s:I, s:I, s:I, s:I, s:s, s:s}", "groups", (json_int_t)cfg->groups,
			 "fds", (json_int_t)cfg->fds, "loops", (json_int_t)cfg->loops, "datasize",
			 (json_int_t)cfg->size, "ipc", cfg->pipes ? "pipe" : "socketpair", "mode",
			 cfg->threads ? "threads" : "processes");
}

const struct workload workload_messaging = {
	.name = "messaging",
	.summary = "groups of senders and receivers exchange messages "
		   "(hackbench, perf bench sched messaging)",
	.usage = messaging_usage,
	.parse = messaging_parse,
	.run = messaging_run,
	.format = messaging_format,
	.params = messaging_params,
	.free = free,
};
