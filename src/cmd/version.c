// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "schedlens/commands.h"

int cmd_version(int argc, char **argv)
{
	printf("schedlens %s\n", SCHEDLENS_VERSION);
	return fflush(stdout) ? 1 : 0;
}
