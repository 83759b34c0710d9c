/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a measurement runs: an external command, or a built-in workload run in-process in a
 * forked child. Either way the child waits until the measuring side has attached (opened its
 * counters or ring buffers on the child's pid), and its measured-phase messages (phase.h)
 * reach the hooks. Used by stat, record, sched and run alike.
 */
#ifndef SCHEDLENS_TARGET_H
#define SCHEDLENS_TARGET_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "schedlens/util.h"

struct workload;

struct target {
	char *const *argv;		/* an external command ... */
	const struct workload *wl;	/* ... or a built-in workload with its parsed config */
	const void *wl_cfg;
};

struct target_hooks {
	void *ctx;
	/* the child exists and waits: open what measures it. Non-zero aborts the run. */
	int (*attach)(void *ctx, pid_t pid);
	/* the workload entered (enable) or left its measured phase, at monotonic @t_ns */
	int (*phase)(void *ctx, bool enable, uint64_t t_ns);
	/* called every poll_ms while the child runs (drain ring buffers); may be NULL */
	int (*tick)(void *ctx);
	int poll_ms;	/* read before every wait: a tick may change it (the caller's struct) */
};

struct target_result {
	int status;			/* waitpid status of the child */
	bool exec_failed;		/* the command could not be run (status is 127) */
	bool interrupted;		/* *stop was set while it ran */
	uint64_t start_ns, end_ns;	/* release of the child .. its exit */
	uint64_t phase_ns;		/* total time inside the measured phase */
	unsigned int phases;		/* measured phases seen */
	json_t *metrics;		/* in-process workload: its metrics (caller puts), or NULL */
};

/*
 * True when @argv runs this very binary's `bench` (schedlens bench ...): its counters then
 * follow the workload's measured phase instead of exec..exit.
 */
bool target__is_own_bench(char *const *argv);

/*
 * Run @t once. @stop (may be NULL) is polled: when it becomes non-zero the child gets SIGINT
 * and the run ends when the child exits. Returns 0 when the child ran (see res->status), or
 * -errno with detail in @err (the command could not be started, a hook failed).
 */
int target__run(const struct target *t, const struct target_hooks *h,
		volatile sig_atomic_t *stop, struct target_result *res, struct errbuf *err);

/* The exit code a command like `schedlens stat` passes on: the child's, 128+signal, etc. */
int target__exit_code(const struct target_result *res);

#endif
