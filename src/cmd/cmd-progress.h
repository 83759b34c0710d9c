/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A progress line for a command that reads a perf.data file: on a terminal (stderr), once the
 * reading has taken more than a second (SCHEDLENS_PROGRESS_MS sets another delay), redrawn
 * at most four times a second, and wiped when the reading ends, so that the output pasted from
 * a terminal does not hold it.
 */
#ifndef SCHEDLENS_CMD_PROGRESS_H
#define SCHEDLENS_CMD_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct perf_file;

struct cmd_progress {
	const char *path;
	uint64_t start_ns, after_ns, last_ns;
	bool shown;
};

/* show @f's reading on stderr when stderr is a terminal */
void cmd_progress__attach(struct cmd_progress *p, struct perf_file *f, const char *path);
/* wipe the line if it was shown */
void cmd_progress__end(struct cmd_progress *p);

#endif
