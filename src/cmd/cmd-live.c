// SPDX-License-Identifier: GPL-2.0
/* A live session for report, annotate and script: record it, analyse the file (cmd-int.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedlens/commands.h"
#include "cmd-int.h"

/*
 * The files to remove when a signal ends the command after the recording: written before the
 * handler is installed, read only by it (the one exception to "no mutable globals": a signal
 * handler has nothing else to reach them through).
 */
static char live_path[4096], live_kpath[4200], live_vpath[4200];

static void on_signal(int sig)
{
	unlink(live_path);
	unlink(live_kpath);
	unlink(live_vpath);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int live_at(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--live"))
			return i;
	return -1;
}

bool cmd_live__wanted(int argc, char **argv)
{
	return live_at(argc, argv) > 0;
}

/* -i FILE, --input FILE, -iFILE, --input=FILE before --live */
static bool has_input(int n, char **argv)
{
	int i;

	for (i = 1; i < n; i++)
		if (!strncmp(argv[i], "-i", 2) || !strncmp(argv[i], "--input", 7))
			return true;
	return false;
}

int cmd_live__run(int argc, char **argv, int (*cmd)(int argc, char **argv))
{
	const char *tmpdir = getenv("TMPDIR");
	int at = live_at(argc, argv), fd, code, rcode, i, n = 0;
	struct stat st;
	char **rargv = NULL, **cargv = NULL;

	if (has_input(at, argv)) {
		fprintf(stderr, "%s: --live records the input: no -i with it\n", argv[0]);
		return 2;
	}
	if (at == argc - 1) {
		fprintf(stderr, "%s: --live wants what to record: -- COMMAND, --bench NAME or -a "
				"(and record's options)\n", argv[0]);
		return 2;
	}
	snprintf(live_path, sizeof(live_path), "%s/schedlens-live-XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(live_path);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot create a file in '%s': %s\n", argv[0],
			tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
		return 1;
	}
	close(fd);
	snprintf(live_kpath, sizeof(live_kpath), "%s.kallsyms", live_path);
	snprintf(live_vpath, sizeof(live_vpath), "%s.vdso", live_path);
	rargv = calloc((size_t)(argc - at) + 5, sizeof(*rargv));
	cargv = calloc((size_t)at + 3, sizeof(*cargv));
	if (!rargv || !cargv) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		code = 1;
		goto out;
	}
	rargv[n++] = "record";
	rargv[n++] = "-q";
	rargv[n++] = "-o";
	rargv[n++] = live_path;
	for (i = at + 1; i < argc; i++)
		rargv[n++] = argv[i];
	rcode = cmd_record(n, rargv);
	if (rcode == 2 || stat(live_path, &st) || !st.st_size) {	/* nothing recorded */
		code = rcode ?: 1;
		goto out;
	}
	/* record exits with the workload's status: what the workload did is analysed anyway */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (i = 0; i < at; i++)
		cargv[i] = argv[i];
	cargv[at] = "-i";
	cargv[at + 1] = live_path;
	code = cmd(at + 2, cargv) ?: rcode;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
out:
	unlink(live_path);
	unlink(live_kpath);
	unlink(live_vpath);
	free(rargv);
	free(cargv);
	return code;
}
