// SPDX-License-Identifier: GPL-2.0
/* A workload under a sampler: fork, hold on a pipe, attach, release, collect until it exits. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "schedlens/phase.h"
#include "sampler-int.h"

struct sampler_child {
	pid_t pid;
	int go_wr, err_rd;
	bool phase, reaped;
	int status;
	struct phase_ctl ctl;
	char name[256];
};

static void child_main(struct sampler_child *c, int go_rd, int err_wr, char *const argv[],
		       int (*fn)(void *arg), void *arg)
{
	char b;
	int e;

	close(c->go_wr);
	close(c->err_rd);
	if (read(go_rd, &b, 1) != 1)
		_exit(127);
	close(go_rd);
	if (c->phase && phase_ctl__child(&c->ctl))
		_exit(127);
	if (fn) {
		close(err_wr);
		_exit(fn(arg) & 0xff);
	}
	execvp(argv[0], argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

struct sampler_child *sampler_child__new(char *const argv[], int (*fn)(void *arg), void *arg,
					 bool phase, struct errbuf *err)
{
	struct sampler_child *c = calloc(1, sizeof(*c));
	int go[2] = { -1, -1 }, ep[2] = { -1, -1 };

	if (!c) {
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	c->ctl.ctl_rd = c->ctl.ctl_wr = c->ctl.ack_rd = c->ctl.ack_wr = -1;
	c->go_wr = c->err_rd = -1;
	c->phase = phase;
	snprintf(c->name, sizeof(c->name), "%s", fn || !argv ? "workload" : argv[0]);
	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		err__set(err, -errno, "cannot create a pipe: %s", strerror(errno));
		goto out_free;
	}
	if (phase && phase_ctl__init(&c->ctl)) {
		err__set(err, -errno, "cannot create the control pipes: %s", strerror(errno));
		goto out_free;
	}
	c->go_wr = go[1];
	c->err_rd = ep[0];
	c->pid = fork();
	if (c->pid < 0) {
		err__set(err, -errno, "cannot fork: %s", strerror(errno));
		goto out_free;
	}
	if (c->pid == 0)
		child_main(c, go[0], ep[1], argv, fn, arg);
	close(go[0]);
	close(ep[1]);
	if (phase)
		phase_ctl__parent(&c->ctl);
	return c;
out_free:
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	phase_ctl__exit(&c->ctl);
	free(c);
	return NULL;
}

pid_t sampler_child__pid(const struct sampler_child *c)
{
	return c->pid;
}

int sampler_child__start(struct sampler_child *c, struct errbuf *err)
{
	int e = 0;
	ssize_t n;

	if (write(c->go_wr, "g", 1) != 1)
		return err__set(err, -EPIPE, "cannot start '%s': it is gone", c->name);
	close(c->go_wr);
	c->go_wr = -1;
	do
		n = read(c->err_rd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_rd);
	c->err_rd = -1;
	if (n == (ssize_t)sizeof(e)) {
		if (waitpid(c->pid, &c->status, 0) == c->pid)
			c->reaped = true;
		return err__set(err, -e, "cannot run '%s': %s", c->name, strerror(e));
	}
	return 0;
}

void sampler_child__delete(struct sampler_child *c)
{
	if (!c)
		return;
	if (!c->reaped && c->pid > 0) {
		kill(c->pid, SIGTERM);
		waitpid(c->pid, &c->status, 0);
	}
	if (c->go_wr >= 0)
		close(c->go_wr);
	if (c->err_rd >= 0)
		close(c->err_rd);
	phase_ctl__exit(&c->ctl);
	free(c);
}

static int handle_phase(struct sampler *s, struct sampler_child *c, struct errbuf *err)
{
	struct pollfd p = { .fd = c->ctl.ctl_rd, .events = POLLIN };
	int r;

	if (poll(&p, 1, 50) <= 0)
		return 0;
	while ((r = phase_ctl__read(&c->ctl)) >= 0) {
		if (r)
			sampler__enable(s);
		else
			sampler__disable(s);
		phase_ctl__ack(&c->ctl);
	}
	if (r == -EINVAL)
		return err__set(err, r, "'%s' sent an unknown control command", c->name);
	if (r == -EPIPE) {
		close(c->ctl.ctl_rd);
		c->ctl.ctl_rd = -1;
	}
	return 0;
}

int sampler__run_child(struct sampler *s, struct sampler_child *c, const struct stream_ops *ops,
		       volatile sig_atomic_t *stop, int *status, struct errbuf *err)
{
	int ret, sent = 0;

	ret = sampler_child__start(c, err);
	if (ret)
		return ret;
	while (!c->reaped) {
		if (stop && *stop > sent) {
			kill(c->pid, *stop > 1 ? SIGKILL : SIGINT);
			sent = *stop;
		}
		if (c->phase && c->ctl.ctl_rd >= 0) {
			ret = handle_phase(s, c, err);
			if (!ret)
				ret = sampler__poll(s, 0, ops);
		} else {
			ret = sampler__poll(s, 100, ops);
		}
		if (ret)
			break;
		if (waitpid(c->pid, &c->status, WNOHANG) == c->pid)
			c->reaped = true;
	}
	if (!ret)
		ret = sampler__drain(s, ops);
	else
		sampler__drain(s, ops);
	if (status)
		*status = c->status;
	if (ret < 0 && err && !err->msg[0])
		err__set(err, ret, "reading the ring buffers: %s", strerror(-ret));
	return ret;
}
