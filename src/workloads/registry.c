// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "schedlens/workload.h"
#include "wl.h"

const struct workload *const workloads[] = {
	&workload_pipe,
	&workload_messaging,
	&workload_wakeup,
	&workload_pound_times,
	&workload_pound_clock_gettime,
	&workload_tcp,
	NULL,
};

const struct workload *workload__find(const char *name)
{
	size_t i;

	for (i = 0; name && workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}
