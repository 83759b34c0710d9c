// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens vm [OPTIONS] -- SUBCOMMAND ARGS...: run a schedlens command inside a real kernel
 * in a QEMU guest (Debian's 6.1 or 6.12 cloud kernel, or any image), x86-64 or arm64; its
 * output comes to the terminal, its files into -o DIR, its exit status is vm's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/vm.h"

#define MAX_COPY 32

static volatile sig_atomic_t vm_stop;

static void on_signal(int sig)
{
	vm_stop = 1;
}

static const char *const vm_usage[] = {
	"usage: schedlens vm [OPTIONS] -- SUBCOMMAND [ARGS...]",
	"       schedlens vm [OPTIONS] --exec -- COMMAND [ARGS...]",
	"",
	"Boot a kernel in QEMU and run 'schedlens SUBCOMMAND ARGS...' in it (or, with --exec,",
	"any command of the guest's busybox). The guest has tracefs, debugfs and perf open to",
	"all; the command runs in /work, and what it leaves there comes back into -o DIR.",
	NULL
};

static int parse_memory(const char *s, unsigned int *mb)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -EINVAL;
	if (*end == 'G' || *end == 'g')
		v *= 1024, end++;
	else if (*end == 'M' || *end == 'm')
		end++;
	if (*end || v < 64 || v > 1u << 20)
		return -EINVAL;
	*mb = v;
	return 0;
}

/* --memory SIZE */
static int opt_memory(const struct option *opt, const char *arg, struct errbuf *err)
{
	struct vm_opts *o = opt->data;

	if (parse_memory(arg, &o->memory_mb))
		return err__set(err, -EINVAL, "expected 64M to 1024G, as 512, 512M or 2G");
	return 0;
}

/* --debian VERSION */
static int opt_debian(const struct option *opt, const char *arg, struct errbuf *err)
{
	struct vm_opts *o = opt->data;

	if (strcmp(arg, "6.1") && strcmp(arg, "6.12"))
		return err__set(err, -EINVAL, "expected 6.1 or 6.12");
	o->debian = arg;
	return 0;
}

/* --arch ARCH */
static int opt_arch(const struct option *opt, const char *arg, struct errbuf *err)
{
	struct vm_opts *o = opt->data;

	if (vm_arch__parse(arg, &o->arch))
		return err__set(err, -EINVAL, "expected x86_64 or arm64");
	return 0;
}

/* --accel MODE */
static int opt_accel(const struct option *opt, const char *arg, struct errbuf *err)
{
	static const struct {
		const char *name;
		enum vm_accel accel;
	} modes[] = { { "auto", VM_ACCEL_AUTO }, { "kvm", VM_ACCEL_KVM }, { "tcg", VM_ACCEL_TCG } };
	struct vm_opts *o = opt->data;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		if (!strcmp(arg, modes[i].name)) {
			o->accel = modes[i].accel;
			return 0;
		}
	}
	return err__set(err, -EINVAL, "expected auto, kvm or tcg");
}

/* --copy FILE: readable now, at most MAX_COPY of them */
static int opt_copy(const struct option *opt, const char *arg, struct errbuf *err)
{
	const char **copy = opt->data;
	size_t n = 0;

	while (copy[n])
		n++;
	if (n == MAX_COPY)
		return err__set(err, -EINVAL, "at most %d --copy", MAX_COPY);
	if (access(arg, R_OK))
		return err__set(err, -EINVAL, "cannot read it: %s", strerror(errno));
	copy[n] = arg;
	return 0;
}

static void note(const char *msg, void *arg)
{
	fprintf(stderr, "schedlens vm: %s\n", msg);
}

int cmd_vm(int argc, char **argv)
{
	const char *copy[MAX_COPY + 1] = { NULL };
	struct vm_opts o = {
		.arch = vm_arch__host(), .cpus = 2, .memory_mb = 1024, .timeout_s = 600,
		.out_dir = ".", .copy = copy, .out_fd = STDOUT_FILENO, .err_fd = STDERR_FILENO,
		.stop = &vm_stop, .note = note,
	};
	long cpus = o.cpus, timeout = o.timeout_s;
	const struct option opts[] = {
		OPT_CALLBACK(0, "debian", &o, opt_debian, "VERSION",
			     "Debian's cloud kernel 6.1 or 6.12, fetched once into the cache\n"
			     "(default 6.1)"),
		OPT_STRING(0, "kernel", &o.kernel, "IMAGE", "boot this kernel image instead"),
		OPT_STRING(0, "modules", &o.modules, "DIR",
			   "its modules (lib/modules/RELEASE): virtio's are loaded where\n"
			   "the kernel has them as modules"),
		OPT_CALLBACK(0, "arch", &o, opt_arch, "ARCH",
			     "x86_64 or arm64 (default this machine's)"),
		OPT_INT(0, "cpus", &cpus, 1, 64, "N", "guest CPUs (default 2)"),
		OPT_CALLBACK(0, "memory", &o, opt_memory, "SIZE",
			     "guest memory, MiB or with M/G (default 1024M)"),
		OPT_STRING('o', "output", &o.out_dir, "DIR",
			   "where the guest's files come back (default .)"),
		OPT_CALLBACK(0, "copy", copy, opt_copy, "FILE",
			     "put FILE in the guest's /work (repeatable)"),
		OPT_INT(0, "timeout", &timeout, 0, 86400, "SECONDS",
			"end the guest after this long (default 600, 0 none)"),
		OPT_CALLBACK(0, "accel", &o, opt_accel, "MODE",
			     "auto (KVM when it works, else TCG), kvm or tcg (default auto)"),
		OPT_FLAG(0, "icount", &o.icount,
			 "count guest instructions exactly (arm64 'instructions'; slower)"),
		OPT_STRING(0, "binary", &o.binary, "FILE",
			   "the static schedlens to put in the guest (default: found)"),
		OPT_STRING(0, "cache", &o.cache_dir, "DIR",
			   "kernels and busybox (default ~/.cache/schedlens)"),
		OPT_FLAG(0, "exec", &o.exec,
			 "the command is the guest's own, not a schedlens subcommand"),
		OPT_TEXT(""),
		OPT_TEXT("exit: the command's status; 124 the guest ran past --timeout, 125 vm failed,"),
		OPT_TEXT("130 interrupted, 2 usage"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens vm", vm_usage, opts,
					 OPTIONS_STOP_AT_NON_OPTION };
	struct sigaction sa = { .sa_handler = on_signal };
	struct vm_result res;
	struct errbuf err = { "" };
	int n, ret;

	n = cmd_options__parse(&cmd, argc, argv, &ret);
	if (n < 0)
		return ret;
	o.cpus = (unsigned int)cpus;
	o.timeout_s = (unsigned int)timeout;
	if (o.kernel && o.debian) {
		fprintf(stderr, "schedlens vm: --kernel and --debian: give one\n");
		return 2;
	}
	if (!n) {
		fprintf(stderr, "schedlens vm: no command: schedlens vm [OPTIONS] -- SUBCOMMAND "
			"[ARGS...]\n");
		return 2;
	}
	if (o.icount && o.accel == VM_ACCEL_KVM) {
		fprintf(stderr, "schedlens vm: --icount needs TCG: drop --accel kvm\n");
		return 2;
	}
	if (o.icount)
		o.accel = VM_ACCEL_TCG;
	o.argv = argv + 1;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = vm__run(&o, &res, &err);
	if (ret == -EINTR) {
		fprintf(stderr, "schedlens vm: %s\n", err.msg);
		return 130;
	}
	if (ret) {
		fprintf(stderr, "schedlens vm: %s\n", err.msg);
		return ret == -ETIME ? VM_EXIT_TIMEOUT : VM_EXIT_FAILED;
	}
	return res.status;
}
