// SPDX-License-Identifier: GPL-2.0
#include "schedlens/target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "schedlens/phase.h"
#include "schedlens/workload.h"

bool target__is_own_bench(char *const *argv)
{
	char self[PATH_MAX], other[PATH_MAX], *path = NULL;
	ssize_t n;
	bool same = false;

	if (!argv || !argv[0] || !argv[1] || strcmp(argv[1], "bench"))
		return false;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return false;
	self[n] = '\0';
	if (strchr(argv[0], '/')) {
		path = realpath(argv[0], NULL);
	} else {
		/* search PATH like execvp would */
		const char *p = getenv("PATH") ?: "/usr/bin:/bin";
		char *copy = strdup(p), *dir, *save = NULL;

		for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !path;
		     dir = strtok_r(NULL, ":", &save)) {
			snprintf(other, sizeof(other), "%s/%s", dir, argv[0]);
			if (!access(other, X_OK))
				path = realpath(other, NULL);
		}
		free(copy);
	}
	same = path && !strcmp(path, self);
	free(path);
	return same;
}

struct child_pipes {
	int go[2];	/* parent -> child: attached, go on */
	int err[2];	/* child -> parent: exec errno (closed on a good exec) */
	int res[2];	/* child -> parent: in-process workload's JSON result */
	struct phase_ctl ctl;
};

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

static void close_pipes(struct child_pipes *p)
{
	close_pair(p->go);
	close_pair(p->err);
	close_pair(p->res);
	phase_ctl__exit(&p->ctl);
}

static int open_pipes(struct child_pipes *p)
{
	p->go[0] = p->go[1] = p->err[0] = p->err[1] = p->res[0] = p->res[1] = -1;
	p->ctl.ctl_rd = p->ctl.ctl_wr = p->ctl.ack_rd = p->ctl.ack_wr = -1;
	if (pipe2(p->go, O_CLOEXEC) || pipe2(p->err, O_CLOEXEC) || pipe2(p->res, O_CLOEXEC) ||
	    phase_ctl__init(&p->ctl)) {
		int e = -errno;

		close_pipes(p);
		return e ?: -EIO;
	}
	return 0;
}

/*
 * The parent's writes to its child (the go byte, phase acks) find no reader where the child
 * died first: a SIGINT to the terminal's process group reaches it between the fork and its
 * setpgid, and it dies of it once it unblocks SIGINT. They get EPIPE then, not a SIGPIPE that
 * would end the caller (`run` exited 141 where Ctrl-C means 130): SIGPIPE is blocked around
 * them, and one they raised is taken back before the caller's mask returns.
 */
static void sigpipe_block(sigset_t *old)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	sigprocmask(SIG_BLOCK, &s, old);
}

static void sigpipe_restore(const sigset_t *old)
{
	static const struct timespec now;
	sigset_t s, pending;

	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	if (!sigismember(old, SIGPIPE) && !sigpending(&pending) && sigismember(&pending, SIGPIPE))
		sigtimedwait(&s, NULL, &now);
	sigprocmask(SIG_SETMASK, old, NULL);
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

/*
 * A workload that ignores the SIGINT passed on to it still ends, as perf record ends its
 * workload: SIGTERM TARGET_TERM_MS after the SIGINT, SIGKILL TARGET_TERM_MS after that. Returns
 * whether it sent one now.
 */
#define TARGET_TERM_MS 250
#define TARGET_POLL_MS 50

static bool escalate(pid_t who, uint64_t since_ns, int *signalled)
{
	if (*signalled == SIGKILL || now_ns() - since_ns < TARGET_TERM_MS * 1000000ull)
		return false;
	*signalled = *signalled == SIGINT ? SIGTERM : SIGKILL;
	kill(who, *signalled);
	return true;
}

/* In the child: never returns. */
static void child_run(const struct target *t, struct child_pipes *p, const sigset_t *mask)
{
	struct errbuf err = { "" };
	char c;
	int e;

	close(p->go[1]);
	close(p->err[0]);
	close(p->res[0]);
	/* SIGINT was blocked across the fork: one sent meanwhile (to this process group, or
	 * passed on by the parent) is delivered now, and ends the child as it should */
	signal(SIGINT, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	/* an in-process workload gets a group of its own, so a stop reaches every task it forks */
	if (!t->argv)
		setpgid(0, 0);
	phase_ctl__child(&p->ctl);
	while (read(p->go[0], &c, 1) < 0 && errno == EINTR)
		;
	close(p->go[0]);
	if (t->argv) {
		execvp(t->argv[0], t->argv);
		e = errno;
		write_all(p->err[1], (const char *)&e, sizeof(e));
		_exit(127);
	} else {
		struct phase *ph = phase__from_env();
		json_t *metrics = json_object(), *doc;
		char *s;
		int ret;

		ret = t->wl->run(t->wl_cfg, ph, metrics, &err);

		doc = json_pack("{s:o, s:i, s:s}", "metrics", metrics, "ret", ret, "error",
				err.msg);
		s = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
		if (s)
			write_all(p->res[1], s, strlen(s));
		_exit(ret ? 1 : 0);
	}
}

/*
 * Append what the (non-blocking) result pipe has to *buf. Returns 0 at EOF, 1 after reading
 * something, 2 when nothing is there now, -errno.
 */
static int read_result(int fd, char **buf, size_t *len)
{
	char chunk[4096], *nb;
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR ? 1 : errno == EAGAIN ? 2 : -errno;
	if (n == 0)
		return 0;
	nb = realloc(*buf, *len + (size_t)n + 1);
	if (!nb)
		return -ENOMEM;
	memcpy(nb + *len, chunk, (size_t)n);
	*len += (size_t)n;
	nb[*len] = '\0';
	*buf = nb;
	return 1;
}

static int handle_phase(struct child_pipes *p, const struct target_hooks *h,
			struct target_result *res, uint64_t *phase_start, struct errbuf *err)
{
	sigset_t mask;
	int cmd, ret;
	uint64_t t;

	for (;;) {
		cmd = phase_ctl__read(&p->ctl);
		if (cmd == -EAGAIN || cmd == -EPIPE)
			return 0;
		if (cmd < 0)
			return err__set(err, cmd, "bad measured-phase message from the workload");
		t = now_ns();
		if (cmd == 1 && !*phase_start) {
			*phase_start = t;
			res->phases++;
		} else if (cmd == 0 && *phase_start) {
			res->phase_ns += t - *phase_start;
			*phase_start = 0;
		}
		ret = h && h->phase ? h->phase(h->ctx, cmd == 1, t) : 0;
		sigpipe_block(&mask);
		phase_ctl__ack(&p->ctl);
		sigpipe_restore(&mask);
		if (ret)
			return ret;
	}
}

static int parse_workload_result(const char *buf, struct target_result *res, struct errbuf *err)
{
	json_error_t je;
	json_t *doc = buf ? json_loads(buf, 0, &je) : NULL;
	int ret = 0;

	if (!doc)
		return err__set(err, -EIO, "the workload ended without a result");
	if (json_integer_value(json_object_get(doc, "ret")))
		ret = err__set(err, (int)json_integer_value(json_object_get(doc, "ret")), "%s",
			       json_string_value(json_object_get(doc, "error")) ?: "workload failed");
	else
		res->metrics = json_incref(json_object_get(doc, "metrics"));
	json_decref(doc);
	return ret;
}

int target__run(const struct target *t, const struct target_hooks *h,
		volatile sig_atomic_t *stop, struct target_result *res, struct errbuf *err)
{
	struct child_pipes p;
	uint64_t phase_start = 0;
	char *resbuf = NULL;
	size_t reslen = 0;
	bool exited = false, res_eof = false, killed = false;
	int ret, pidfd = -1, exec_errno = 0, signalled = SIGINT;
	uint64_t killed_ns = 0;
	sigset_t intr, mask, pipe_mask;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	ret = open_pipes(&p);
	if (ret)
		return err__set(err, ret, "cannot create pipes: %s", strerror(-ret));
	fflush(NULL);
	/* until the child has its own SIGINT disposition, the caller's handler would swallow one */
	sigemptyset(&intr);
	sigaddset(&intr, SIGINT);
	sigprocmask(SIG_BLOCK, &intr, &mask);
	pid = fork();
	if (pid == 0)
		child_run(t, &p, &mask);
	if (pid > 0 && !t->argv)
		setpgid(pid, pid); /* as the child does: whichever runs first */
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (pid < 0) {
		ret = err__set(err, -errno, "cannot fork: %s", strerror(errno));
		goto out_close;
	}
	close(p.go[0]);
	close(p.err[1]);
	close(p.res[1]);
	p.go[0] = p.err[1] = p.res[1] = -1;
	phase_ctl__parent(&p.ctl);
	/* the workload's own children may hold the write end after it exits: never block on it */
	fcntl(p.res[0], F_SETFL, O_NONBLOCK);
	pidfd = (int)pidfd_open(pid, 0);

	ret = h && h->attach ? h->attach(h->ctx, pid) : 0;
	if (ret) {
		kill(pid, SIGKILL);
		waitpid(pid, &res->status, 0);
		goto out_close;
	}
	res->start_ns = now_ns();
	sigpipe_block(&pipe_mask);
	write_all(p.go[1], "g", 1);
	sigpipe_restore(&pipe_mask);
	close(p.go[1]);
	p.go[1] = -1;

	while (!exited) {
		struct pollfd pfd[3] = {
			{ .fd = pidfd, .events = POLLIN },
			{ .fd = p.ctl.ctl_rd, .events = POLLIN },
			{ .fd = res_eof ? -1 : p.res[0], .events = POLLIN },
		};
		int n = poll(pfd, 3, killed || !(h && h->tick) ? TARGET_POLL_MS : (h->poll_ms ?: 100));

		if (stop && *stop && !killed) {
			kill(t->wl ? -pid : pid, SIGINT);
			killed = true;
			killed_ns = now_ns();
			res->interrupted = true;
		} else if (killed && escalate(t->wl ? -pid : pid, killed_ns, &signalled)) {
			killed_ns = now_ns();
		}
		if (n < 0 && errno != EINTR) {
			ret = err__set(err, -errno, "poll: %s", strerror(errno));
			break;
		}
		if (n > 0 && pfd[1].revents) {
			ret = handle_phase(&p, h, res, &phase_start, err);
			if (ret)
				break;
		}
		if (n > 0 && pfd[2].revents) {
			ret = read_result(p.res[0], &resbuf, &reslen);
			if (ret < 0)
				break;
			res_eof = ret == 0 || (pfd[2].revents & (POLLHUP | POLLERR) && ret == 2);
			ret = 0;
		}
		if (h && h->tick) {
			ret = h->tick(h->ctx);
			if (ret)
				break;
		}
		if (waitpid(pid, &res->status, WNOHANG) == pid)
			exited = true;
	}
	if (!exited) {
		kill(pid, SIGKILL);
		waitpid(pid, &res->status, 0);
	}
	if (t->wl)
		kill(-pid, SIGKILL); /* tasks the workload left behind */
	res->end_ns = now_ns();
	if (phase_start) {
		res->phase_ns += res->end_ns - phase_start;
		if (h && h->phase)
			h->phase(h->ctx, false, res->end_ns);
	}
	/* the child wrote its result before exiting: take what is there, stop at EOF or empty */
	while (!res_eof && read_result(p.res[0], &resbuf, &reslen) == 1)
		;
	if (read(p.err[0], &exec_errno, sizeof(exec_errno)) == sizeof(exec_errno)) {
		res->exec_failed = true;
		ret = err__set(err, -exec_errno, "cannot run '%s': %s", t->argv[0],
			       strerror(exec_errno));
	} else if (!ret && t->wl && !res->interrupted) {
		ret = parse_workload_result(resbuf, res, err);
	}
out_close:
	free(resbuf);
	if (pidfd >= 0)
		close(pidfd);
	close_pipes(&p);
	return ret;
}

int target__exit_code(const struct target_result *res)
{
	if (res->exec_failed)
		return 127;
	if (WIFEXITED(res->status))
		return WEXITSTATUS(res->status);
	if (WIFSIGNALED(res->status))
		return 128 + WTERMSIG(res->status);
	return 1;
}
