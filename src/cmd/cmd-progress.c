// SPDX-License-Identifier: GPL-2.0
/* The progress line of a perf.data file being read, and its SIGBUS (cmd-int.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "schedlens/perfdata.h"
#include "schedlens/util.h"
#include "cmd-int.h"

static void show(void *ctx, uint64_t done, uint64_t total)
{
	struct cmd_progress *p = ctx;
	uint64_t t = now_ns();

	if (t - p->start_ns < p->after_ns || (p->shown && t - p->last_ns < 250000000ull))
		return;
	p->shown = true;
	p->last_ns = t;
	if (total)
		fprintf(stderr, "\r[ reading '%s': %.0f%% of %.1f MB ]", p->path,
			100.0 * (double)done / (double)total, (double)total / 1e6);
	else
		fprintf(stderr, "\r[ reading '%s': %.1f MB ]", p->path, (double)done / 1e6);
	fflush(stderr);
}

/*
 * The reader maps the file (its headers; the records of a --call-graph dwarf recording): a file
 * cut short under the mapping while it is read (overwritten in place) faults with SIGBUS where
 * a read would have come up short. That ends the command with a message, not a "Bus error".
 */
static char sigbus_msg[512];
static size_t sigbus_len;

static void on_sigbus(int sig)
{
	ssize_t n = write(STDERR_FILENO, sigbus_msg, sigbus_len);

	(void)sig;
	(void)n;	/* (nothing left to do about a failed write) */
	_exit(1);
}

void cmd_progress__attach(struct cmd_progress *p, struct perf_file *f, const char *path)
{
	const char *ms = getenv("SCHEDLENS_PROGRESS_MS");
	long after = 1000;
	int n;

	n = snprintf(sigbus_msg, sizeof(sigbus_msg), "\nschedlens: '%s' was cut short while it "
		     "was read (SIGBUS): read it again once it is whole\n", path);
	sigbus_len = n < 0 ? 0 : (size_t)n < sizeof(sigbus_msg) ? (size_t)n : sizeof(sigbus_msg) - 1;
	signal(SIGBUS, on_sigbus);
	*p = (struct cmd_progress){ .path = path };
	if (!isatty(STDERR_FILENO))
		return;
	if (ms && parse_long(ms, 0, 3600000, &after))
		after = 1000;
	p->after_ns = (uint64_t)after * 1000000ull;
	p->start_ns = now_ns();
	perf_file__set_progress(f, show, p);
}

void cmd_progress__end(struct cmd_progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}
