/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Was this input recorded here, on the kernel that runs now?" decided once per input and
 * carried with it (stream_info.origin) to every consumer, so that report, annotate, script
 * and sched agree on when this machine's /proc/kallsyms, topology and files may stand in for
 * the recording machine's.
 *
 * What identifies a running kernel, strongest first:
 *   - its build-id (the GNU note in /sys/kernel/notes) against the input's BUILD_ID entry for
 *     [kernel.kallsyms] (perf record and schedlens record write it);
 *   - where the kernel text lies (the address of _text in /proc/kallsyms against the pgoff of
 *     the input's [kernel.kallsyms] map): a new boot moves it under KASLR, and only the same
 *     build at the same address lets /proc/kallsyms name the input's kernel addresses.
 *     perf.data carries no boot id; this is what a boot id would be used for here;
 *   - the release string (uname -r), only when the input has no build-id: two builds of one
 *     release are different kernels, so a match on it is a guess and said to be one.
 */
#ifndef SCHEDLENS_ORIGIN_H
#define SCHEDLENS_ORIGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum origin_kernel {
	ORIGIN_UNKNOWN,		/* the input names no kernel (a pipe, an old perf) */
	ORIGIN_OTHER,		/* another kernel: its build-id (or, without one, release) differs */
	ORIGIN_RELEASE,		/* the same release, no build-id to compare: maybe this kernel */
	ORIGIN_BUILD,		/* this kernel's build, its text elsewhere or not known where */
	ORIGIN_BOOT,		/* this kernel as it runs now (same build at the same address), or live */
};

/* What an input, or the running machine, says about its kernel; NULL or 0 where nothing. */
struct origin_facts {
	const char *hostname, *os_release;
	const uint8_t *build_id;
	size_t build_id_size;
	uint64_t kernel_text;	/* the address of _text */
};

struct origin {
	enum origin_kernel kernel;
	bool same_host;		/* the hostnames agree, or the input has none */
	char why[240];		/* what differs, for a warning: "recorded on kernel X (build-id ..)" */
};

/* Decide @o for an input described by @in against the machine described by @here. */
void origin__compare(struct origin *o, const struct origin_facts *in,
		     const struct origin_facts *here);

/* Decide @o for an input described by @in against the running machine. */
void origin__of_input(struct origin *o, const struct origin_facts *in);

/* A live session: this kernel, this boot. */
void origin__live(struct origin *o);

/* This machine's /proc/kallsyms names the input's kernel addresses. */
bool origin__kallsyms_apply(const struct origin *o);

/* The input was made on this machine as far as can be told: its topology and files apply. */
bool origin__same_machine(const struct origin *o);

/*
 * The one warning for an input whose kernel is not the running one: "@what not used: " plus
 * why, into @buf. Returns @buf, or NULL when kallsyms apply and there is nothing to say.
 */
const char *origin__warning(const struct origin *o, const char *what, char *buf, size_t len);

#endif
