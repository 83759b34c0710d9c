/* SPDX-License-Identifier: GPL-2.0 */
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
#ifndef SCHEDLENS_CMD_LIVE_H
#define SCHEDLENS_CMD_LIVE_H

#include <stdbool.h>

/* whether @argv asks for a live session: a "--live" before any "--" */
bool cmd_live__wanted(int argc, char **argv);

/* record the session, run @cmd (the command's own cmd_x()) on it, clean up; its exit code */
int cmd_live__run(int argc, char **argv, int (*cmd)(int argc, char **argv));

#endif
