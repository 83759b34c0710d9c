// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens list: the events this machine counts, each tested by opening it; or, with
 * --arch, another machine's map of native events and their encodings.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/events.h"

struct list_opts {
	const char *arch;
	bool all;		/* also unsupported events */
};

static const char *const tracepoint_systems[] = { "sched", "ipi" };

static const char *kind(const struct perf_event_attr *a)
{
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		return "hardware";
	case PERF_TYPE_SOFTWARE:
		return "software";
	case PERF_TYPE_HW_CACHE:
		return "hardware cache";
	default:
		return "other";
	}
}

static void list_tracepoints(void)
{
	char path[256];
	struct dirent **names;
	size_t s;
	int n, i;

	for (s = 0; s < ARRAY_SIZE(tracepoint_systems); s++) {
		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s", tracepoint_systems[s]);
		n = scandir(path, &names, NULL, alphasort);
		if (n < 0) {
			printf("  %s:*  <not available: tracefs not mounted at /sys/kernel/tracing>\n",
			       tracepoint_systems[s]);
			continue;
		}
		for (i = 0; i < n; i++) {
			if (names[i]->d_type == DT_DIR && names[i]->d_name[0] != '.')
				printf("  %s:%-40s [tracepoint]\n", tracepoint_systems[s],
				       names[i]->d_name);
			free(names[i]);
		}
		free(names);
	}
}

static int list_this_machine(const struct list_opts *o)
{
	struct errbuf err = { "" };
	struct event_desc ev;
	struct evmap m;
	char buf[64];
	const char *name;
	size_t i, supported = 0, total = 0;

	printf("Events on this machine (each tested by opening it):\n");
	for (i = 0; (name = events__known_name(i, buf, sizeof(buf))); i++) {
		int ret;

		if (events__parse(name, &ev, NULL))
			continue;
		ret = events__probe(&ev.attr);
		total++;
		if (!ret)
			supported++;
		if (ret && !o->all)
			continue;
		printf("  %-32s [%s]%s%s\n", name, kind(&ev.attr), ret ? "  <not supported>: " : "",
		       ret ? strerror(-ret) : "");
	}
	list_tracepoints();
	printf("\n%zu of %zu generic events open here%s\n", supported, total,
	       o->all ? "" : " ('schedlens list --all' shows the others)");
	if (!evmap__this_machine(&m, &err))
		printf("native event map: %s (%s): 'schedlens list --arch %s'\n", m.arch, m.desc,
		       m.arch);
	else
		printf("native event map: none for this CPU (libpfm4 sees no known core PMU; "
		       "'schedlens list --arch snb|clx|skx|icx|zen2|neoverse-n1|kunpeng920' shows "
		       "other machines' maps)\n");
	return fflush(stdout) ? 1 : 0;
}

static int list_arch(const struct list_opts *o)
{
	struct errbuf err = { "" };
	struct evmap m;
	const char *pmu;
	bool arm_table = false;
	size_t i;
	int bad = 0;

	if (evmap__load(o->arch, &m, &err)) {
		fprintf(stderr, "schedlens list: %s\n", err.msg);
		return 2;
	}
	/* libpfm4 reads LIBPFM_FORCE_PMU once, at its first use in this process; an Arm map is
	 * checked against the core's table where this libpfm4 (its arm64 build) has it */
	pmu = m.pfm ? m.pmu : m.libpfm;
	if (pmu[0])
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
	if (!m.pfm && m.libpfm[0])
		arm_table = evmap__pfm_has(m.libpfm);
	printf("%s: %s\n", m.arch, m.desc);
	printf("%-14s %-42s %-10s %s\n", "metric", "native event", "encoding",
	       m.pfm || arm_table ? "libpfm4 check" : "source");
	for (i = 0; i < m.nr; i++) {
		const struct evmap_entry *e = &m.entries[i];
		struct perf_event_attr a;
		char enc[24] = "-", check[96];

		if (e->has_config)
			snprintf(enc, sizeof(enc), "0x%llx", (unsigned long long)e->config);
		if (!m.pfm && !arm_table) {
			snprintf(check, sizeof(check), "Armv8 architectural event (raw r%llx)%s",
				 (unsigned long long)e->config,
				 m.libpfm[0] ? "; this libpfm4 has no Arm tables" : "");
		} else if (!e->has_config || e->native[0] == 'r') {
			snprintf(check, sizeof(check), "%s", e->note);
		} else {
			memset(&a, 0, sizeof(a));
			if (events__pfm_encode(e->native, &a, &err)) {
				snprintf(check, sizeof(check), "FAILS: %s", err.msg);
				bad = 1;
			} else if (a.config != e->config) {
				snprintf(check, sizeof(check), "MISMATCH: libpfm4 gives 0x%llx",
					 (unsigned long long)a.config);
				bad = 1;
			} else {
				snprintf(check, sizeof(check), "ok (%s)", pmu);
			}
		}
		printf("%-14s %-42s %-10s %s\n", e->metric, e->native, enc, check);
	}
	if (fflush(stdout))
		return 1;
	return bad;
}

static const char *const list_usage[] = {
	"usage: schedlens list [--all] [--arch snb|clx|skx|icx|zen2|neoverse-n1|kunpeng920]",
	NULL
};

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	const struct option opts[] = {
		OPT_FLAG(0, "all", &o.all, "also the events this machine cannot count"),
		OPT_STRING(0, "arch", &o.arch, "ARCH",
			   "another machine's map of native events and their encodings"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens list", list_usage, opts,
					 OPTIONS_NO_ARGUMENTS };
	int code;

	if (cmd_options__parse(&cmd, argc, argv, &code) < 0)
		return code;
	return o.arch ? list_arch(&o) : list_this_machine(&o);
}
