/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the commands (src/cmd/): the edge of options.h (cmd-options.c), live sessions for
 * the commands that read a perf.data (cmd-live.c), and the progress line of a file being read
 * (cmd-progress.c). A command's own private header is <command>-int.h.
 */
#ifndef SCHEDLENS_CMD_INT_H
#define SCHEDLENS_CMD_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "schedlens/options.h"

struct perf_file;

/* ---- cmd-options.c ---- */
/*
 * The edge of options.h for the commands: what options__parse() found, said to the user with
 * the exit codes every command shares (commands.h: 0 after --help, 2 for a usage error).
 */

/* how a command describes itself: "schedlens stat", the usage lines, the table, flags */
struct cmd_options {
	const char *prefix;
	const char *const *usage;
	const struct option *opts;
	unsigned int flags;
};

/*
 * Parse @argv with @c (options__parse()). Return the number of arguments left (at argv[1..n]),
 * or -1 with the command's exit code in *@code: 0 after -h/--help (the help on stdout), 2
 * after a usage error ("PREFIX: MESSAGE" and the help on stderr), 1 when an option failed
 * otherwise (out of memory: the message only).
 */
int cmd_options__parse(const struct cmd_options *c, int argc, char **argv, int *code);

/* perf's sample filters (sample-filter.h) in a table, the same in report and script */
#define CMD_SAMPLE_FILTER_OPTS(fo) \
	OPT_STRING(0, "time", &(fo)->time, "START,STOP", \
		   "samples of that time only (seconds as script prints\n" \
		   "them; either bound left out for none)"), \
	OPT_STRING('C', "cpu", &(fo)->cpus, "CPUS", "samples on these CPUs only (0-3,6)"), \
	OPT_STRING(0, "pid", &(fo)->pids, "PIDS", "samples of these processes only (1,2)"), \
	OPT_STRING(0, "tid", &(fo)->tids, "TIDS", "samples of these threads only"), \
	OPT_STRING(0, "comms", &(fo)->comms, "COMMS", \
		   "samples of threads of these names only (sh,ls)")

/* "PREFIX: MESSAGE" and the help on stderr; return 2, a usage error's exit code */
int cmd_options__error(const struct cmd_options *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- cmd-live.c ---- */
/*
 * report, annotate and script on a live session:
 *   schedlens report [REPORT OPTIONS] --live [RECORD OPTIONS] (-- COMMAND | --bench NAME | -a)
 * The words after --live are `schedlens record`'s own (-e, -c/-F, -g, --call-graph dwarf,
 * -a, -C, --bench, -- COMMAND). The session is recorded by record's code into a temporary
 * perf.data in $TMPDIR (and its .kallsyms), the command then runs on it as `-i FILE`, and
 * both files go: so its output is that of `schedlens record` followed by the command, by
 * construction. Ctrl-C while recording stops the workload and the command still runs on what
 * was recorded; Ctrl-C after it removes the files and exits 130.
 */

/* whether @argv asks for a live session: a "--live" before any "--" */
bool cmd_live__wanted(int argc, char **argv);

/* record the session, run @cmd (the command's own cmd_x()) on it, clean up; its exit code */
int cmd_live__run(int argc, char **argv, int (*cmd)(int argc, char **argv));

/* ---- cmd-progress.c ---- */
/*
 * A progress line for a command that reads a perf.data file: on a terminal (stderr), once the
 * reading has taken more than a second (SCHEDLENS_PROGRESS_MS sets another delay), redrawn
 * at most four times a second, and wiped when the reading ends, so that the output pasted from
 * a terminal does not hold it.
 */

struct cmd_progress {
	const char *path;
	uint64_t start_ns, after_ns, last_ns;
	bool shown;
};

/* show @f's reading on stderr when stderr is a terminal; a SIGBUS while it is read (the file
 * cut short under its mapping) ends the command with a message naming @path */
void cmd_progress__attach(struct cmd_progress *p, struct perf_file *f, const char *path);
/* wipe the line if it was shown */
void cmd_progress__end(struct cmd_progress *p);

#endif
