// SPDX-License-Identifier: GPL-2.0
/* The messages and exit codes of option parsing, shared by the commands (cmd-int.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "cmd-int.h"

int cmd_options__parse(const struct cmd_options *c, int argc, char **argv, int *code)
{
	struct errbuf err = { "" };
	int n = options__parse(argc, argv, c->opts, c->flags, &err);

	if (n >= 0)
		return n;
	if (n == OPTIONS_HELP) {
		options__usage(stdout, c->usage, c->opts);
		*code = fflush(stdout) ? 1 : 0;
	} else if (n == -EINVAL) {
		*code = cmd_options__error(c, "%s", err.msg);
	} else {
		fprintf(stderr, "%s: %s\n", c->prefix, err.msg);
		*code = 1;
	}
	return -1;
}

int cmd_options__error(const struct cmd_options *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prefix);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	options__usage(stderr, c->usage, c->opts);
	return 2;
}
