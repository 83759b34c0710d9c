// SPDX-License-Identifier: GPL-2.0
#include "wl.h"

#include "schedlens/phase.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void wl__getopt_reset(void)
{
	optind = 0;
	opterr = 0;
}

int wl__bad_option(struct errbuf *err, const char *wl, char **argv, int c)
{
	const char *arg = argv[optind - 1] ?: "";

	if (c == ':')
		return err__set(err, -EINVAL, "%s: option '%s' needs a value", wl, arg);
	if (optopt && strncmp(arg, "--", 2))
		return err__set(err, -EINVAL, "%s: unknown option '-%c'", wl, optopt);
	return err__set(err, -EINVAL, "%s: unknown option '%s'", wl, arg);
}

int wl__parse_long(struct errbuf *err, const char *wl, const char *opt, const char *arg, long min,
		   long max, long *out)
{
	if (parse_long(arg, min, max, out))
		return err__set(err, -EINVAL, "%s: invalid %s '%s': expected an integer from %ld to %ld",
				wl, opt, arg, min, max);
	return 0;
}

int wl__parse_duration(struct errbuf *err, const char *wl, const char *opt, const char *arg,
		       bool zero_ok, double max_s, uint64_t *out)
{
	if (parse_duration_ns(arg, out) || (!*out && !zero_ok) || (double)*out > max_s * 1e9)
		return err__set(err, -EINVAL,
				"%s: invalid %s '%s': expected a duration %s 0 and at most %gs "
				"(e.g. 2, 500ms)",
				wl, opt, arg, zero_ok ? "from" : "above", max_s);
	return 0;
}

int wl__no_args(struct errbuf *err, const char *wl, int argc, char **argv)
{
	if (optind < argc)
		return err__set(err, -EINVAL, "%s: unexpected argument '%s'", wl, argv[optind]);
	return 0;
}

void wl__sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

int wl__metric(json_t *metrics, const char *name, double value, const char *unit,
	       enum better better)
{
	json_t *m = json_pack("{s:f, s:s, s:s}", "value", value, "unit", unit, "better",
			      better__name(better));

	return !m || json_object_set_new(metrics, name, m) ? -ENOMEM : 0;
}

double wl__value(const json_t *metrics, const char *name)
{
	return json_number_value(json_object_get(json_object_get(metrics, name), "value"));
}

struct wl_shared {
	volatile int abort;
};

struct wl_task {
	struct wl_tasks *t;
	wl_task_fn fn;
	void *arg;
	pthread_t tid;
	pid_t pid;
	int ret;
};

struct wl_tasks {
	bool threads, released;
	size_t n, max, nready;
	int ready[2], gate[2];
	struct wl_shared *shared;
	struct wl_task *tasks;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

struct wl_tasks *wl_tasks__new(bool threads, size_t max, struct errbuf *err)
{
	struct wl_tasks *t = calloc(1, sizeof(*t));

	if (!t)
		goto out_nomem;
	t->threads = threads;
	t->max = max;
	t->ready[0] = t->ready[1] = t->gate[0] = t->gate[1] = -1;
	t->tasks = calloc(max, sizeof(*t->tasks));
	if (!t->tasks)
		goto out_free;
	t->shared = mmap(NULL, sizeof(*t->shared), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t->shared == MAP_FAILED) {
		t->shared = NULL;
		goto out_free;
	}
	if (pipe2(t->ready, O_CLOEXEC) || pipe2(t->gate, O_CLOEXEC)) {
		err__set(err, -errno, "cannot create pipes: %s", strerror(errno));
		goto out_delete;
	}
	return t;

out_free:
	wl_tasks__delete(t);
out_nomem:
	err__set(err, -ENOMEM, "out of memory");
	return NULL;
out_delete:
	wl_tasks__delete(t);
	return NULL;
}

static void *task_thread(void *p)
{
	struct wl_task *task = p;

	task->ret = task->fn(task->t, task->arg);
	return NULL;
}

int wl_tasks__spawn(struct wl_tasks *t, wl_task_fn fn, void *arg, struct errbuf *err)
{
	struct wl_task *task;
	int ret;

	if (t->n >= t->max)
		return err__set(err, -ENOSPC, "too many tasks");
	task = &t->tasks[t->n];
	task->t = t;
	task->fn = fn;
	task->arg = arg;
	if (t->threads) {
		ret = pthread_create(&task->tid, NULL, task_thread, task);
		if (ret)
			return err__set(err, -ret, "cannot create thread %zu: %s", t->n, strerror(ret));
	} else {
		task->pid = fork();
		if (task->pid < 0)
			return err__set(err, -errno, "cannot fork task %zu: %s", t->n, strerror(errno));
		if (!task->pid) {
			close(t->gate[1]);
			close(t->ready[0]);
			_exit(fn(t, arg) ? 1 : 0);
		}
	}
	t->n++;
	return 0;
}

int wl_tasks__ready(struct wl_tasks *t, int status)
{
	char c = status ? 'x' : 'o';
	ssize_t n;

	do
		n = write(t->ready[1], &c, 1);
	while (n < 0 && errno == EINTR);
	/* a process lets go of its copy so that the parent sees EOF if all others die */
	if (!t->threads)
		close_fd(&t->ready[1]);
	do
		n = read(t->gate[0], &c, 1);
	while (n < 0 && errno == EINTR);
	return t->shared->abort || status ? -ECANCELED : 0;
}

int wl_tasks__wait_ready(struct wl_tasks *t, struct errbuf *err)
{
	size_t got = t->nready, failed = 0;
	char buf[256];
	ssize_t n, i;

	/* processes hold their own copies: ours must go for EOF to tell that one died */
	if (!t->threads)
		close_fd(&t->ready[1]);
	while (got < t->n) {
		n = read(t->ready[0], buf, sizeof(buf) < t->n - got ? sizeof(buf) : t->n - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return err__set(err, -EIO, "a task ended before it was ready");
		for (i = 0; i < n; i++)
			failed += buf[i] != 'o';
		got += (size_t)n;
	}
	t->nready = got;
	if (failed)
		return err__set(err, -EIO, "%zu of %zu tasks failed to set up", failed, t->n);
	return 0;
}

void wl_tasks__go(struct wl_tasks *t, bool abort)
{
	if (abort)
		t->shared->abort = 1;
	t->released = true;
	close_fd(&t->gate[1]);
}

int wl_tasks__join(struct wl_tasks *t, struct errbuf *err)
{
	size_t i, failed = 0;
	int status, sig = 0;

	if (!t->released)
		wl_tasks__go(t, true);
	for (i = 0; i < t->n; i++) {
		if (t->threads) {
			pthread_join(t->tasks[i].tid, NULL);
			failed += t->tasks[i].ret != 0 && t->tasks[i].ret != -ECANCELED;
			continue;
		}
		while (waitpid(t->tasks[i].pid, &status, 0) < 0 && errno == EINTR)
			;
		failed += !WIFEXITED(status) || WEXITSTATUS(status);
		if (WIFSIGNALED(status) && !sig)
			sig = WTERMSIG(status);
	}
	t->n = 0;
	if (failed && !t->shared->abort && sig)
		return err__set(err, -EIO, "%zu of the tasks failed (one killed by %s)", failed,
				strsignal(sig));
	if (failed && !t->shared->abort)
		return err__set(err, -EIO, "%zu of the tasks failed", failed);
	return 0;
}

void wl_tasks__delete(struct wl_tasks *t)
{
	if (!t)
		return;
	if (t->n)
		wl_tasks__join(t, NULL);
	close_fd(&t->ready[0]);
	close_fd(&t->ready[1]);
	close_fd(&t->gate[0]);
	close_fd(&t->gate[1]);
	if (t->shared)
		munmap(t->shared, sizeof(*t->shared));
	free(t->tasks);
	free(t);
}

int wl__phase_begin(struct phase *ph, struct errbuf *err)
{
	int ret = phase__begin(ph);

	return ret ? err__set(err, ret, "cannot start the measured phase: %s", strerror(-ret)) : 0;
}

int wl__phase_end(struct phase *ph, struct errbuf *err)
{
	int ret = phase__end(ph);

	return ret ? err__set(err, ret, "cannot end the measured phase: %s", strerror(-ret)) : 0;
}

int wl_tasks__measure(struct wl_tasks *t, struct phase *ph, uint64_t *ns, struct errbuf *err)
{
	uint64_t t0;
	int ret, end;

	ret = wl_tasks__wait_ready(t, err) ?: wl__phase_begin(ph, err);
	if (ret) {
		wl_tasks__join(t, NULL);
		return ret;
	}
	t0 = now_ns();
	wl_tasks__go(t, false);
	ret = wl_tasks__join(t, err);
	*ns = now_ns() - t0;
	end = wl__phase_end(ph, ret ? NULL : err);
	return ret ?: end;
}
