// SPDX-License-Identifier: GPL-2.0
/* Pinning two tasks to CPUs chosen by last-level-cache topology read from sysfs. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wl.h"

static const char *const pin_names[] = { "none", "same", "llc", "cross-llc" };

int wl_pin__parse(struct errbuf *err, const char *wl, const char *arg, enum wl_pin *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pin_names); i++) {
		if (!strcmp(arg, pin_names[i])) {
			*out = (enum wl_pin)i;
			return 0;
		}
	}
	return err__set(err, -EINVAL, "%s: unknown pin mode '%s': expected same, llc, cross-llc or none",
			wl, arg);
}

const char *wl_pin__name(enum wl_pin p)
{
	return pin_names[p];
}

/* "0-3,8,10-11" into @set; 0 or -EINVAL */
static int cpulist_parse(const char *s, cpu_set_t *set)
{
	long a, b;
	char *end;

	CPU_ZERO(set);
	while (*s) {
		a = strtol(s, &end, 10);
		if (end == s || a < 0)
			return -EINVAL;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -EINVAL;
		}
		if (b >= CPU_SETSIZE)
			return -EINVAL;
		for (; a <= b; a++)
			CPU_SET((int)a, set);
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -EINVAL;
	}
	return 0;
}

/* The CPUs sharing @cpu's level-3 cache; -ENOENT when sysfs does not describe it. */
static int llc_of(const char *sysfs_cpu, int cpu, cpu_set_t *set)
{
	char path[512], buf[4096];
	int idx;

	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/level", sysfs_cpu, cpu, idx);
		if (read_file_str(path, buf, sizeof(buf)))
			break;
		if (strcmp(buf, "3"))
			continue;
		snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/shared_cpu_list", sysfs_cpu, cpu,
			 idx);
		if (read_file_str(path, buf, sizeof(buf)))
			break;
		return cpulist_parse(buf, set);
	}
	return -ENOENT;
}

int wl_pin__choose(enum wl_pin mode, const char *sysfs_cpu, int cpus[2], struct errbuf *err)
{
	cpu_set_t allowed, llc;
	int a, b, first = -1, ret;

	cpus[0] = cpus[1] = -1;
	if (mode == WL_PIN_NONE)
		return 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return err__set(err, -errno, "cannot read the CPU affinity: %s", strerror(errno));
	for (a = 0; a < CPU_SETSIZE && first < 0; a++)
		if (CPU_ISSET(a, &allowed))
			first = a;
	if (first < 0)
		return err__set(err, -ENODEV, "no CPU to pin to");
	if (mode == WL_PIN_SAME) {
		cpus[0] = cpus[1] = first;
		return 0;
	}
	for (a = 0; a < CPU_SETSIZE; a++) {
		if (!CPU_ISSET(a, &allowed))
			continue;
		ret = llc_of(sysfs_cpu, a, &llc);
		if (ret == -ENOENT)
			return err__set(err, -ENODEV,
					"pin '%s': no last-level cache topology for cpu%d in "
					"'%s/cpu%d/cache' (no level-3 cache described)",
					wl_pin__name(mode), a, sysfs_cpu, a);
		if (ret)
			return err__set(err, -ENODEV, "pin '%s': cannot parse the LLC of cpu%d",
					wl_pin__name(mode), a);
		for (b = a + 1; b < CPU_SETSIZE; b++) {
			if (!CPU_ISSET(b, &allowed) || CPU_ISSET(b, &llc) != (mode == WL_PIN_LLC))
				continue;
			cpus[0] = a;
			cpus[1] = b;
			return 0;
		}
	}
	if (mode == WL_PIN_CROSS_LLC)
		return err__set(err, -ENODEV,
				"pin 'cross-llc' is unavailable: the CPUs this runs on share one LLC");
	return err__set(err, -ENODEV, "pin 'llc' is unavailable: no two CPUs share an LLC here");
}

int wl_pin__self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}
