// SPDX-License-Identifier: GPL-2.0
#include "schedlens/phase.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct phase {
	int ctl, ack;
};

struct phase *phase__from_env(void)
{
	const char *v = getenv(PHASE_ENV);
	struct phase *ph;
	int ctl, ack;
	char tail;

	if (!v || sscanf(v, "fd:%d,%d%c", &ctl, &ack, &tail) != 2 || ctl < 0 || ack < 0)
		return NULL;
	if (fcntl(ctl, F_GETFD) < 0 || fcntl(ack, F_GETFD) < 0)
		return NULL;
	ph = calloc(1, sizeof(*ph));
	if (!ph)
		return NULL;
	ph->ctl = ctl;
	ph->ack = ack;
	return ph;
}

static int phase__send(struct phase *ph, const char *cmd)
{
	char buf[8];
	size_t got = 0;
	ssize_t n;
	char c;

	if (!ph)
		return 0;
	if (write(ph->ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return -errno ? -errno : -EIO;
	/* "ack\n"; perf's controller also sends the string's NUL: skip NULs */
	while (got < sizeof(buf) - 1) {
		n = read(ph->ack, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		if (c == '\0')
			continue;
		buf[got++] = c;
		if (c == '\n')
			break;
	}
	buf[got] = '\0';
	return strcmp(buf, "ack\n") ? -EPROTO : 0;
}

int phase__begin(struct phase *ph)
{
	return phase__send(ph, "enable\n");
}

int phase__end(struct phase *ph)
{
	return phase__send(ph, "disable\n");
}

void phase__delete(struct phase *ph)
{
	free(ph);
}

int phase_ctl__init(struct phase_ctl *c)
{
	int a[2], b[2];

	if (pipe2(a, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(b, O_CLOEXEC) < 0) {
		int err = -errno;

		close(a[0]);
		close(a[1]);
		return err;
	}
	c->ctl_rd = a[0];
	c->ctl_wr = a[1];
	c->ack_rd = b[0];
	c->ack_wr = b[1];
	fcntl(c->ctl_rd, F_SETFL, O_NONBLOCK);
	return 0;
}

int phase_ctl__child(struct phase_ctl *c)
{
	char v[64];

	close(c->ctl_rd);
	close(c->ack_wr);
	/* the child's ends must survive exec */
	fcntl(c->ctl_wr, F_SETFD, 0);
	fcntl(c->ack_rd, F_SETFD, 0);
	snprintf(v, sizeof(v), "fd:%d,%d", c->ctl_wr, c->ack_rd);
	return setenv(PHASE_ENV, v, 1) ? -errno : 0;
}

void phase_ctl__parent(struct phase_ctl *c)
{
	close(c->ctl_wr);
	close(c->ack_rd);
	c->ctl_wr = c->ack_rd = -1;
}

int phase_ctl__read(struct phase_ctl *c)
{
	char buf[16];
	size_t got = 0;
	ssize_t n;

	/* commands are short and written whole; read one line byte by byte */
	while (got < sizeof(buf) - 1) {
		n = read(c->ctl_rd, buf + got, 1);
		if (n == 0)
			return -EPIPE;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && got > 0)
				continue;
			return -errno;
		}
		if (buf[got++] == '\n')
			break;
	}
	buf[got] = '\0';
	if (!strcmp(buf, "enable\n"))
		return 1;
	if (!strcmp(buf, "disable\n"))
		return 0;
	return -EINVAL;
}

int phase_ctl__ack(struct phase_ctl *c)
{
	return write(c->ack_wr, "ack\n", 4) == 4 ? 0 : -EPIPE;
}

void phase_ctl__exit(struct phase_ctl *c)
{
	if (c->ctl_rd >= 0)
		close(c->ctl_rd);
	if (c->ack_wr >= 0)
		close(c->ack_wr);
	if (c->ctl_wr >= 0)
		close(c->ctl_wr);
	if (c->ack_rd >= 0)
		close(c->ack_rd);
	c->ctl_rd = c->ack_wr = c->ctl_wr = c->ack_rd = -1;
}
