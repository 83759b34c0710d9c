/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measured phase: a workload tells whoever measures it when the part worth measuring
 * starts and ends, so counters, samples and tracepoints skip thread creation, warm-up and
 * teardown.
 *
 * Protocol (perf's --control convention, so `perf stat --control fd:C,A -D -1` works too):
 * the measuring side passes SCHEDLENS_CONTROL=fd:CTL,ACK in the environment; the workload
 * writes "enable\n" or "disable\n" to CTL and waits for "ack\n" on ACK before going on.
 * Without the variable every call is a no-op, so a workload runs the same stand-alone.
 */
#ifndef SCHEDLENS_PHASE_H
#define SCHEDLENS_PHASE_H

#define PHASE_ENV "SCHEDLENS_CONTROL"

struct phase;

/* The channel from the environment, or NULL when there is none (NULL is a valid no-op phase). */
struct phase *phase__from_env(void);
/* Start / end the measured phase; wait for the controller's ack. 0 or -errno. */
int phase__begin(struct phase *ph);
int phase__end(struct phase *ph);
void phase__delete(struct phase *ph);

/* Controller side: pipes whose far ends a child inherits. */
struct phase_ctl {
	int ctl_rd, ctl_wr; /* workload writes ctl_wr, controller reads ctl_rd */
	int ack_rd, ack_wr; /* controller writes ack_wr, workload reads ack_rd */
};

/* Create the pipes; 0 or -errno. */
int phase_ctl__init(struct phase_ctl *c);
/* In the child, before exec or the in-process workload: set PHASE_ENV, close our ends. */
int phase_ctl__child(struct phase_ctl *c);
/* In the parent after fork: close the child's ends. */
void phase_ctl__parent(struct phase_ctl *c);
/*
 * Read one command from the workload. Returns 1 for enable, 0 for disable, -EPIPE at EOF
 * (the workload closed its end or exited), -EAGAIN if nothing complete is there yet (ctl_rd is
 * non-blocking), or -EINVAL for an unknown command.
 */
int phase_ctl__read(struct phase_ctl *c);
int phase_ctl__ack(struct phase_ctl *c);
void phase_ctl__exit(struct phase_ctl *c);

#endif
