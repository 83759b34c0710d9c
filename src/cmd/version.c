// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "cmd-int.h"
#include "schedlens/commands.h"

static const char *const version_usage[] = { "usage: schedlens version", NULL };

int cmd_version(int argc, char **argv)
{
	static const struct option opts[] = { OPT_END() };
	const struct cmd_options cmd = { "schedlens version", version_usage, opts,
					 OPTIONS_NO_ARGUMENTS };
	int code;

	if (cmd_options__parse(&cmd, argc, argv, &code) < 0)
		return code;
	printf("schedlens %s\n", SCHEDLENS_VERSION);
	return fflush(stdout) ? 1 : 0;
}
