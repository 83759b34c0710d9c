// SPDX-License-Identifier: GPL-2.0
#include "schedlens/commands.h"
int cmd_script(int argc, char **argv)
{
	return 2;
}
