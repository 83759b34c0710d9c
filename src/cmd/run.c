// SPDX-License-Identifier: GPL-2.0
/* schedlens run --suite NAME: placeholder until the suites land in this branch. */
#include <stdio.h>

#include "schedlens/commands.h"

int cmd_run(int argc, char **argv)
{
	fprintf(stderr, "schedlens run: not built yet\n");
	return 2;
}
