// SPDX-License-Identifier: GPL-2.0
/* Pinning two tasks to CPUs chosen by last-level-cache topology (topology.h). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/topology.h"
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

int wl_pin__choose(enum wl_pin mode, const struct topology *topo, const cpu_set_t *allowed,
		   int cpus[2], struct errbuf *err)
{
	int a, b, nr = topology__nr_cpus(topo);
	bool want_same = mode == WL_PIN_LLC;

	cpus[0] = cpus[1] = -1;
	if (mode == WL_PIN_NONE)
		return 0;
	for (a = 0; a < nr; a++) {
		if (!CPU_ISSET(a, allowed) || !topology__online(topo, a))
			continue;
		if (mode == WL_PIN_SAME) {
			cpus[0] = cpus[1] = a;
			return 0;
		}
		for (b = a + 1; b < nr; b++) {
			if (!CPU_ISSET(b, allowed) || !topology__online(topo, b) ||
			    (topology__llc(topo, a) == topology__llc(topo, b)) != want_same)
				continue;
			cpus[0] = a;
			cpus[1] = b;
			return 0;
		}
	}
	if (mode == WL_PIN_SAME)
		return err__set(err, -ENODEV, "pin 'same': no CPU to pin to");
	return err__set(err, -ENODEV, "pin '%s' is unavailable: %s%s", wl_pin__name(mode),
			mode == WL_PIN_CROSS_LLC ? "the CPUs this may run on share one LLC" :
						   "no two CPUs this may run on share an LLC",
			topology__llc_from_cache(topo) ?
				"" :
				" (sysfs describes no caches: LLCs are taken to be the packages)");
}

int wl_pin__choose_here(enum wl_pin mode, int cpus[2], struct errbuf *err)
{
	struct topology *topo;
	cpu_set_t allowed;
	int ret;

	cpus[0] = cpus[1] = -1;
	if (mode == WL_PIN_NONE)
		return 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return err__set(err, -errno, "cannot read the CPU affinity: %s", strerror(errno));
	topo = topology__read(NULL, err);
	if (!topo)
		return -ENODEV;
	ret = wl_pin__choose(mode, topo, &allowed, cpus, err);
	topology__delete(topo);
	return ret;
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
