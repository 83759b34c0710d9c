// SPDX-License-Identifier: GPL-2.0
#include "wl.h"

#include "schedlens/phase.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* how often a stopping run passes SIGINT on again to tasks that have not ended yet */
#define WL_STOP_RESEND_MS 10
#define WL_STOP_RESEND_NS (WL_STOP_RESEND_MS * 1000000L)

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

/*
 * The stop (set by workload__stop() from a SIGINT handler) and a pipe the handler writes a
 * byte to, so that a run's waits wake whichever thread took the signal: the workloads' only
 * mutable globals. The pipe is made at the first wait, and lives as long as the process.
 */
static volatile sig_atomic_t wl_stop, wl_wake_rd = -1, wl_wake_wr = -1;

void workload__stop(void)
{
	int fd, e = errno;
	ssize_t n;

	wl_stop = 1;
	atomic_thread_fence(memory_order_seq_cst);
	fd = wl_wake_wr;
	n = fd >= 0 ? write(fd, "s", 1) : 0;
	(void)n; /* a full pipe has a wake pending already */
	errno = e;
}

bool workload__stopped(void)
{
	return wl_stop;
}

static void wl_wake_drain(void)
{
	char buf[64];

	if (wl_wake_rd >= 0)
		while (read(wl_wake_rd, buf, sizeof(buf)) > 0)
			;
}

void workload__clear_stop(void)
{
	wl_stop = 0;
	wl_wake_drain();
}

/*
 * poll() @pfd until @deadline_ns (monotonic, 0 for none): > 0 when one is ready, 0 at the
 * deadline, -EINTR on a stop, -errno. A stop that comes between the look at the flag and the
 * wait leaves a byte in the wake pipe, which ends the wait.
 */
static int wl_poll(struct pollfd *pfd, nfds_t n, uint64_t deadline_ns)
{
	struct timespec ts, *tsp = NULL;
	struct pollfd fds[2];
	int ret, p[2];
	uint64_t now;

	if (wl_wake_rd < 0 && !pipe2(p, O_CLOEXEC | O_NONBLOCK)) {
		wl_wake_rd = p[0];
		wl_wake_wr = p[1];
		/* against the handler's store of the stop and load of the pipe */
		atomic_thread_fence(memory_order_seq_cst);
	}
	fds[0] = (struct pollfd){ .fd = wl_wake_rd, .events = POLLIN };
	if (n)
		fds[1] = *pfd;
	for (;;) {
		if (wl_stop)
			return -EINTR;
		if (deadline_ns) {
			now = now_ns();
			if (now >= deadline_ns)
				return 0;
			ts.tv_sec = (time_t)((deadline_ns - now) / 1000000000ull);
			ts.tv_nsec = (long)((deadline_ns - now) % 1000000000ull);
			tsp = &ts;
		}
		/* without a wake pipe (no fds left), look at the stop every few milliseconds */
		if (fds[0].fd < 0 && (!tsp || ts.tv_sec || ts.tv_nsec > WL_STOP_RESEND_NS)) {
			ts = (struct timespec){ 0, WL_STOP_RESEND_NS };
			tsp = &ts;
		}
		ret = ppoll(fds, n + 1, tsp, NULL);
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret > 0 && fds[0].revents)
			wl_wake_drain();
		if (ret > 0 && n && fds[1].revents) {
			pfd->revents = fds[1].revents;
			return 1;
		}
	}
}

int wl__sleep_ns(uint64_t ns)
{
	return wl_poll(NULL, 0, now_ns() + (ns ?: 1));
}

void wl__count(const json_t *metrics, const char *name, long total, char *buf, size_t len)
{
	if (json_object_get(metrics, name))
		snprintf(buf, len, "%.0f of %ld", wl__value(metrics, name), total);
	else
		snprintf(buf, len, "%ld", total);
}

void wl__seconds(const json_t *metrics, const char *name, uint64_t total_ns, char *buf,
		 size_t len)
{
	if (json_object_get(metrics, name))
		snprintf(buf, len, "%.3f of %.1f", wl__value(metrics, name),
			 (double)total_ns / 1e9);
	else
		snprintf(buf, len, "%.1f", (double)total_ns / 1e9);
}

void *wl__shared_calloc(size_t n, size_t size)
{
	void *p = MAP_FAILED;

	if (n && size <= SIZE_MAX / n)
		p = mmap(NULL, n * size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void wl__shared_free(void *p, size_t n, size_t size)
{
	if (p)
		munmap(p, n * size);
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
	volatile int stop;	/* the parent saw a stop: every task ends */
};

struct wl_task {
	struct wl_tasks *t;
	wl_task_fn fn;
	void *arg;
	pthread_t tid;
	pid_t pid;
	int ret;
	_Atomic bool ended;	/* a thread's fn returned */
};

/*
 * Every task holds the write end of done: a thread writes a byte there when it ends, a process
 * when it ends and closes its copy when it exits. The parent waits on the read end.
 */
struct wl_tasks {
	bool threads, released;
	size_t n, max, nready, nended;
	int ready[2], gate[2], done[2];
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
	t->ready[0] = t->ready[1] = t->gate[0] = t->gate[1] = t->done[0] = t->done[1] = -1;
	t->tasks = calloc(max, sizeof(*t->tasks));
	if (!t->tasks)
		goto out_free;
	t->shared = mmap(NULL, sizeof(*t->shared), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t->shared == MAP_FAILED) {
		t->shared = NULL;
		goto out_free;
	}
	if (pipe2(t->ready, O_CLOEXEC) || pipe2(t->gate, O_CLOEXEC) || pipe2(t->done, O_CLOEXEC)) {
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

static void task_ended(struct wl_tasks *t)
{
	ssize_t n;

	do
		n = write(t->done[1], "e", 1);
	while (n < 0 && errno == EINTR);
}

static void *task_thread(void *p)
{
	struct wl_task *task = p;

	task->ret = task->fn(task->t, task->arg);
	atomic_store(&task->ended, true);
	task_ended(task->t);
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
			close(t->done[0]);
			ret = fn(t, arg);
			task_ended(t);
			_exit(ret ? 1 : 0);
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

bool wl_tasks__stopped(const struct wl_tasks *t)
{
	return wl_stop || t->shared->stop;
}

/* processes hold their own copies of the write ends: ours must go for EOF to tell they died */
static void tasks_spawned(struct wl_tasks *t)
{
	if (!t->threads) {
		close_fd(&t->ready[1]);
		close_fd(&t->done[1]);
	}
}

int wl_tasks__wait_ready(struct wl_tasks *t, struct errbuf *err)
{
	struct pollfd pfd = { .fd = t->ready[0], .events = POLLIN };
	size_t got = t->nready, failed = 0;
	char buf[256];
	ssize_t n, i;
	int ret;

	tasks_spawned(t);
	while (got < t->n) {
		ret = wl_poll(&pfd, 1, 0);
		if (ret == -EINTR)
			return err__set(err, -EINTR, "interrupted");
		if (ret < 0)
			return err__set(err, ret, "cannot wait for the tasks: %s", strerror(-ret));
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
	if (wl_stop)
		return err__set(err, -EINTR, "interrupted");
	return 0;
}

void wl_tasks__go(struct wl_tasks *t, bool abort)
{
	if (abort)
		t->shared->abort = 1;
	t->released = true;
	close_fd(&t->gate[1]);
}

int wl_tasks__sleep(struct wl_tasks *t, uint64_t ns)
{
	struct pollfd pfd = { .fd = t->done[0], .events = POLLIN };
	int ret;

	tasks_spawned(t);
	ret = wl_poll(&pfd, 1, now_ns() + (ns ?: 1));
	/* a task that ended on a stop is no failure */
	if (ret > 0)
		ret = wl_tasks__stopped(t) ? -EINTR : -ECHILD;
	return ret;
}

/* A stop: tell the tasks through shared memory, and wake blocked ones with SIGINT if caught. */
static void tasks_interrupt(struct wl_tasks *t)
{
	struct sigaction sa;
	size_t i;

	t->shared->stop = 1;
	if (sigaction(SIGINT, NULL, &sa) || sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN)
		return;
	for (i = 0; i < t->n; i++) {
		if (!t->threads)
			kill(t->tasks[i].pid, SIGINT); /* not reaped yet: still ours, if a zombie */
		else if (!atomic_load(&t->tasks[i].ended))
			pthread_kill(t->tasks[i].tid, SIGINT);
	}
}

/* Wait until every task has ended; while stopping, pass the stop on every few milliseconds. */
static void tasks_await(struct wl_tasks *t)
{
	struct pollfd pfd = { .fd = t->done[0], .events = POLLIN };
	char buf[256];
	ssize_t n;
	int ret;

	tasks_spawned(t);
	while (t->nended < t->n) {
		if (wl_tasks__stopped(t)) {
			tasks_interrupt(t);
			ret = poll(&pfd, 1, WL_STOP_RESEND_MS);
			ret = ret < 0 ? -errno : ret;
		} else {
			ret = wl_poll(&pfd, 1, 0);
		}
		if (ret == 0 || ret == -EINTR)
			continue;
		if (ret < 0)
			return; /* the joins wait instead */
		n = read(t->done[0], buf, sizeof(buf));
		if (n > 0)
			t->nended += (size_t)n;
		else if (n == 0) /* processes: every copy of the write end is gone */
			t->nended = t->n;
		else if (errno != EINTR)
			return;
	}
}

int wl_tasks__join(struct wl_tasks *t, struct errbuf *err)
{
	size_t i, failed = 0;
	int status, sig = 0;
	bool stopped;

	if (!t->released)
		wl_tasks__go(t, true);
	tasks_await(t);
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
	t->n = t->nended = 0;
	/* a stop ends tasks midway: what they then say is no failure */
	stopped = t->shared->abort || wl_tasks__stopped(t);
	if (failed && !stopped && sig)
		return err__set(err, -EIO, "%zu of the tasks failed (one killed by %s)", failed,
				strsignal(sig));
	if (failed && !stopped)
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
	close_fd(&t->done[0]);
	close_fd(&t->done[1]);
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

	*ns = 0;
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
	ret = ret ?: end;
	if (!ret && wl_tasks__stopped(t))
		ret = err__set(err, -EINTR, "interrupted");
	return ret;
}
