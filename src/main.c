// SPDX-License-Identifier: GPL-2.0
/* schedlens: the command table and dispatch, nothing else. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "schedlens/commands.h"
#include "schedlens/hugebuf.h"
#include "cmd/cmd-int.h"

/*
 * The malloc heap of a command that reads a perf.data: its first 64 MB in huge pages (only
 * what is touched is resident). With 8 MB, the tables past them (symbols, hash tables that
 * double, rows) took a 4 kB page fault each, ~10 us on this VM: report --sort sym of the
 * bench's system-wide file 4,497 faults -> 201 and 0.103 -> 0.074 s of CPU, at 2-21 MB
 * more peak RSS (a 2 MB page is resident whole).
 */
#define HEAP_PAD (64u << 20)

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	bool reads_files;	/* megabytes of small allocations; forks at most to exec */
	bool live;		/* takes --live [RECORD OPTIONS]: a session instead of -i FILE */
} commands[] = {
	{ "stat", cmd_stat, "count events over a workload, with repeats and dispersion", false, false },
	{ "record", cmd_record, "sample an event with callchains into perf.data", false, false },
	{ "report", cmd_report, "histograms, stats and header of a perf.data file (or --live)", true, true },
	{ "annotate", cmd_annotate, "share of a function's samples per source line", true, true },
	{ "script", cmd_script, "print the records of a perf.data file, one per line", true, true },
	{ "sched", cmd_sched, "wakeup latency and paths, IPIs, migrations from sched tracepoints", true, false },
	{ "bench", cmd_bench, "run a built-in scheduler workload", false, false },
	{ "run", cmd_run, "run a suite of workloads into a results document", false, false },
	{ "compare", cmd_compare, "compare results documents: tables, plots", false, false },
	{ "gate", cmd_gate, "pass or fail NEW against BASE (exit 0, 1 regression, 2 unusable)", false, false },
	{ "validate", cmd_validate, "judge a kernel-patches/ series on before/after results", false, false },
	{ "list", cmd_list, "list events this machine counts, or another machine's map", false, false },
	{ "vm", cmd_vm, "run a command inside a real kernel in a QEMU guest (x86-64, arm64)", false, false },
	{ "version", cmd_version, "print the version", false, false },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: schedlens COMMAND [OPTIONS]\n\n"
		   "Measure and compare Linux scheduler performance.\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'schedlens COMMAND --help' for a command's options\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc - 1, argv + 1);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			if (commands[i].reads_files)
				hugebuf__heap(HEAP_PAD);
			if (commands[i].live && cmd_live__wanted(argc - 1, argv + 1))
				return cmd_live__run(argc - 1, argv + 1, commands[i].fn);
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "schedlens: '%s' is not a command; see 'schedlens --help'\n", argv[1]);
	return 2;
}
