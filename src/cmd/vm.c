// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens vm [OPTIONS] -- SUBCOMMAND ARGS...: run a schedlens command inside a real kernel
 * in a QEMU guest (Debian's 6.1 or 6.12 cloud kernel, or any image), x86-64 or arm64; its
 * output comes to the terminal, its files into -o DIR, its exit status is vm's.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/commands.h"
#include "schedlens/vm.h"

#define MAX_COPY 32

static volatile sig_atomic_t vm_stop;

static void on_signal(int sig)
{
	vm_stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: schedlens vm [OPTIONS] -- SUBCOMMAND [ARGS...]\n"
		"       schedlens vm [OPTIONS] --exec -- COMMAND [ARGS...]\n\n"
		"Boot a kernel in QEMU and run 'schedlens SUBCOMMAND ARGS...' in it (or, with --exec,\n"
		"any command of the guest's busybox). The guest has tracefs, debugfs and perf open to\n"
		"all; the command runs in /work, and what it leaves there comes back into -o DIR.\n\n"
		"  --debian VERSION   Debian's cloud kernel 6.1 or 6.12, fetched once into the cache\n"
		"                     (default 6.1)\n"
		"  --kernel IMAGE     boot this kernel image instead\n"
		"  --modules DIR      its modules (lib/modules/RELEASE): virtio's are loaded where\n"
		"                     the kernel has them as modules\n"
		"  --arch ARCH        x86_64 or arm64 (default this machine's)\n"
		"  --cpus N           guest CPUs (default 2)\n"
		"  --memory SIZE      guest memory, MiB or with M/G (default 1024M)\n"
		"  -o, --output DIR   where the guest's files come back (default .)\n"
		"  --copy FILE        put FILE in the guest's /work (repeatable)\n"
		"  --timeout SECONDS  end the guest after this long (default 600, 0 none)\n"
		"  --accel MODE       auto (KVM when it works, else TCG), kvm or tcg (default auto)\n"
		"  --icount           count guest instructions exactly (arm64 'instructions'; slower)\n"
		"  --binary FILE      the static schedlens to put in the guest (default: found)\n"
		"  --cache DIR        kernels and busybox (default ~/.cache/schedlens)\n"
		"  --exec             the command is the guest's own, not a schedlens subcommand\n\n"
		"exit: the command's status; 124 the guest ran past --timeout, 125 vm failed,\n"
		"130 interrupted, 2 usage\n");
}

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

/* @arg of option @opt as a number in [min, max], or false after saying what it takes */
static bool opt_long(const char *opt, const char *arg, long min, long max, const char *takes,
		     long *v)
{
	if (!parse_long(arg, min, max, v))
		return true;
	fprintf(stderr, "schedlens vm: '%s %s': %s\n", opt, arg, takes);
	return false;
}

static void note(const char *msg, void *arg)
{
	fprintf(stderr, "schedlens vm: %s\n", msg);
}

int cmd_vm(int argc, char **argv)
{
	enum { O_DEBIAN = 256, O_KERNEL, O_MODULES, O_ARCH, O_CPUS, O_MEMORY, O_COPY, O_TIMEOUT, O_ACCEL,
	       O_ICOUNT, O_BINARY, O_CACHE, O_EXEC };
	static const struct option longopts[] = {
		{ "debian", required_argument, NULL, O_DEBIAN },
		{ "kernel", required_argument, NULL, O_KERNEL },
		{ "modules", required_argument, NULL, O_MODULES },
		{ "arch", required_argument, NULL, O_ARCH },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "memory", required_argument, NULL, O_MEMORY },
		{ "output", required_argument, NULL, 'o' },
		{ "copy", required_argument, NULL, O_COPY },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "accel", required_argument, NULL, O_ACCEL },
		{ "icount", no_argument, NULL, O_ICOUNT },
		{ "binary", required_argument, NULL, O_BINARY },
		{ "cache", required_argument, NULL, O_CACHE },
		{ "exec", no_argument, NULL, O_EXEC },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *copy[MAX_COPY + 1] = { NULL };
	struct vm_opts o = {
		.arch = vm_arch__host(), .cpus = 2, .memory_mb = 1024, .timeout_s = 600,
		.out_dir = ".", .copy = copy, .out_fd = STDOUT_FILENO, .err_fd = STDERR_FILENO,
		.stop = &vm_stop, .note = note,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	struct vm_result res;
	struct errbuf err = { "" };
	size_t ncopy = 0;
	long v;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+o:h", longopts, NULL)) != -1) {
		switch (c) {
		case O_DEBIAN:
			if (strcmp(optarg, "6.1") && strcmp(optarg, "6.12")) {
				fprintf(stderr, "schedlens vm: '--debian %s': 6.1 or 6.12\n", optarg);
				return 2;
			}
			o.debian = optarg;
			break;
		case O_KERNEL:
			o.kernel = optarg;
			break;
		case O_MODULES:
			o.modules = optarg;
			break;
		case O_ARCH:
			if (vm_arch__parse(optarg, &o.arch)) {
				fprintf(stderr, "schedlens vm: '--arch %s': x86_64 or arm64\n", optarg);
				return 2;
			}
			break;
		case O_CPUS:
			if (!opt_long("--cpus", optarg, 1, 64, "a number from 1 to 64", &v))
				return 2;
			o.cpus = v;
			break;
		case O_MEMORY:
			if (parse_memory(optarg, &o.memory_mb)) {
				fprintf(stderr, "schedlens vm: '--memory %s': 64M to 1024G, as 512, "
					"512M or 2G\n", optarg);
				return 2;
			}
			break;
		case 'o':
			o.out_dir = optarg;
			break;
		case O_COPY:
			if (ncopy == MAX_COPY) {
				fprintf(stderr, "schedlens vm: at most %d --copy\n", MAX_COPY);
				return 2;
			}
			if (access(optarg, R_OK)) {
				fprintf(stderr, "schedlens vm: cannot read '%s': %s\n", optarg,
					strerror(errno));
				return 2;
			}
			copy[ncopy++] = optarg;
			break;
		case O_TIMEOUT:
			if (!opt_long("--timeout", optarg, 0, 86400, "seconds, 0 to 86400", &v))
				return 2;
			o.timeout_s = v;
			break;
		case O_ACCEL:
			if (!strcmp(optarg, "auto"))
				o.accel = VM_ACCEL_AUTO;
			else if (!strcmp(optarg, "kvm"))
				o.accel = VM_ACCEL_KVM;
			else if (!strcmp(optarg, "tcg"))
				o.accel = VM_ACCEL_TCG;
			else {
				fprintf(stderr, "schedlens vm: '--accel %s': auto, kvm or tcg\n", optarg);
				return 2;
			}
			break;
		case O_ICOUNT:
			o.icount = true;
			break;
		case O_BINARY:
			o.binary = optarg;
			break;
		case O_CACHE:
			o.cache_dir = optarg;
			break;
		case O_EXEC:
			o.exec = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (o.kernel && o.debian) {
		fprintf(stderr, "schedlens vm: --kernel and --debian: give one\n");
		return 2;
	}
	if (optind >= argc) {
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
	o.argv = argv + optind;
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
