// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <string.h>

#include "schedlens/workload.h"

const struct workload *const workloads[] = {
	NULL,
};

const struct workload *workload__find(const char *name)
{
	size_t i;

	for (i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}
