/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The edge of options.h for the commands: what options__parse() found, said to the user with
 * the exit codes every command shares (commands.h: 0 after --help, 2 for a usage error).
 */
#ifndef SCHEDLENS_CMD_OPTIONS_H
#define SCHEDLENS_CMD_OPTIONS_H

#include "schedlens/options.h"

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

/* "PREFIX: MESSAGE" and the help on stderr; return 2, a usage error's exit code */
int cmd_options__error(const struct cmd_options *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
