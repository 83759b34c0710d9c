// SPDX-License-Identifier: GPL-2.0
/*
 * vm: boot a kernel in QEMU with an initramfs made here, run one command in it, bring back
 * its output, exit status and files. See include/schedlens/vm.h for the guest's layout.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm-int.h"

/* the guest's virtio-serial ports, by name: /dev/port-NAME in the guest, NAME in the host folder */
static const char *const ports[] = { "out", "err", "status", "files" };

/*
 * /init: busybox's applets, the file systems perf needs, perf open to all, the ports by name,
 * the command, then its status and files back and power off. The console shows what failed.
 */
static const char init_script[] =
	"#!/bin/busybox sh\n"
	"/bin/busybox --install -s /bin\n"
	"export PATH=/bin HOME=/work LC_ALL=C SCHEDLENS_DATADIR=/usr/share/schedlens\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev\n"
	"mount -t tmpfs tmpfs /tmp\n"
	"mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null\n"
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"echo -1 > /proc/sys/kernel/perf_event_paranoid\n"
	"echo 0 > /proc/sys/kernel/kptr_restrict\n"
	"hostname schedlens-vm\n"
	"ip link set lo up 2>/dev/null\n"
	"for m in /mod/*.ko; do [ -e \"$m\" ] && insmod \"$m\" 2>/dev/null; done\n"
	"n=0\n"
	"while [ $(ls /sys/class/virtio-ports 2>/dev/null | wc -l) -lt 4 ] && [ $n -lt 200 ]; do\n"
	"	sleep 0.05; n=$((n + 1))\n"
	"done\n"
	"for d in /sys/class/virtio-ports/*; do\n"
	"	ln -s \"/dev/${d##*/}\" \"/dev/port-$(cat \"$d/name\")\"\n"
	"done\n"
	"if [ -e /dev/port-status ]; then\n"
	"	cd /work && sh /cmd > /dev/port-out 2> /dev/port-err\n"
	"	rc=$?\n"
	"	for f in /in/*; do [ -L \"/work/${f##*/}\" ] && rm \"/work/${f##*/}\"; done\n"
	"	cd /work && [ -n \"$(ls -A)\" ] && tar -cf /dev/port-files .\n"
	"	echo $rc > /dev/port-status\n"
	"else\n"
	"	echo 'schedlens-vm: no virtio-serial ports (CONFIG_VIRTIO_CONSOLE)'\n"
	"fi\n"
	"sync\n"
	"poweroff -f\n";

static const char *qemu_name(enum vm_arch a)
{
	return a == VM_ARCH_ARM64 ? "qemu-system-aarch64" : "qemu-system-x86_64";
}

/* the shell word for @s: single-quoted, with ' as '\'' */
static void shell_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* the virtio modules the ports need, in load order; a kernel that has them built in has none */
static const char *const virtio_modules[] = {
	"virtio_ring", "virtio", "virtio_pci_legacy_dev", "virtio_pci_modern_dev", "virtio_pci",
	"virtio_mmio", "virtio_console",
};

/* nftw has no argument for its callback: the name sought and the path found */
static struct {
	char want[64];
	char path[PATH_MAX];
} module_search;

static int match_module(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	if (flag != FTW_F || strcmp(path + ftw->base, module_search.want))
		return 0;
	snprintf(module_search.path, sizeof(module_search.path), "%s", path);
	return 1;
}

/* @dir's NAME.ko (uncompressed: busybox's insmod reads no .ko.xz) into @path; 0 or -ENOENT */
static int find_module(const char *dir, const char *name, char *path, size_t len)
{
	snprintf(module_search.want, sizeof(module_search.want), "%s.ko", name);
	if (nftw(dir, match_module, 16, FTW_PHYS) != 1)
		return -ENOENT;
	snprintf(path, len, "%s", module_search.path);
	return 0;
}

static void add_modules(struct initramfs *f, const char *dir)
{
	char path[PATH_MAX], name[64];
	size_t i;

	initramfs__dir(f, "mod", 0755);
	for (i = 0; dir && i < ARRAY_SIZE(virtio_modules); i++)
		if (!find_module(dir, virtio_modules[i], path, sizeof(path))) {
			snprintf(name, sizeof(name), "mod/%02zu-%s.ko", i, virtio_modules[i]);
			initramfs__copy(f, name, path);
		}
}

static int build_initramfs(const struct vm_opts *o, const char *path, const char *busybox,
			   const char *binary, const char *modules, struct errbuf *err)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "tmp", "work", "in",
					    "usr", "usr/share" };
	const char *data = getenv("SCHEDLENS_DATADIR") ?: SCHEDLENS_DATADIR;
	struct initramfs *f = initramfs__new(path, err);
	char *cmd = NULL, name[PATH_MAX + 8];
	const char *base;
	size_t cmd_len = 0, i;
	struct stat st;
	FILE *c;
	int ret = 0;

	if (!f)
		return -errno ?: -EIO;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		initramfs__dir(f, dirs[i], 0755);
	initramfs__copy(f, "bin/busybox", busybox);
	initramfs__copy(f, "bin/schedlens", binary);
	if (!stat(data, &st) && S_ISDIR(st.st_mode))
		initramfs__copy(f, "usr/share/schedlens", data);
	initramfs__data(f, "init", 0755, init_script, sizeof(init_script) - 1);
	add_modules(f, modules);
	for (i = 0; o->copy && o->copy[i]; i++) {
		base = strrchr(o->copy[i], '/') ? strrchr(o->copy[i], '/') + 1 : o->copy[i];
		snprintf(name, sizeof(name), "in/%s", base);
		initramfs__copy(f, name, o->copy[i]);
		snprintf(name, sizeof(name), "work/%s", base);
		snprintf(name + strlen(name) + 1, sizeof(name) - strlen(name) - 1, "/in/%s", base);
		initramfs__symlink(f, name, name + strlen(name) + 1);
	}
	c = open_memstream(&cmd, &cmd_len);
	if (!c) {
		ret = err__set(err, -ENOMEM, "out of memory");
		goto out;
	}
	fputs(o->exec ? "exec" : "exec /bin/schedlens", c);
	for (i = 0; o->argv[i]; i++) {
		fputc(' ', c);
		shell_quote(c, o->argv[i]);
	}
	fputc('\n', c);
	fclose(c);
	initramfs__data(f, "cmd", 0644, cmd, cmd_len);
out:
	free(cmd);
	return initramfs__close(f) ?: ret;
}

/* QEMU's option syntax doubles a comma inside a value */
static char *qemu_path(const char *dir, const char *name)
{
	char *s, *p;
	size_t i, n = 0;

	if (asprintf(&s, "%s/%s", dir, name) < 0)
		return NULL;
	for (i = 0; s[i]; i++)
		n += s[i] == ',';
	p = malloc(strlen(s) + n + 1);
	if (p) {
		for (i = 0, n = 0; s[i]; i++) {
			p[n++] = s[i];
			if (s[i] == ',')
				p[n++] = ',';
		}
		p[n] = 0;
	}
	free(s);
	return p;
}

struct argv_buf {
	char *v[96];
	int n;
};

static void add(struct argv_buf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;

	if (a->n >= (int)ARRAY_SIZE(a->v) - 1)
		return;
	va_start(ap, fmt);
	if (vasprintf(&a->v[a->n], fmt, ap) >= 0)
		a->n++;
	va_end(ap);
	a->v[a->n] = NULL;
}

static void qemu_argv(const struct vm_opts *o, bool kvm, const char *kernel, const char *dir,
		      struct argv_buf *a)
{
	char *p;
	size_t i;

	add(a, "%s", qemu_name(o->arch));
	if (o->arch == VM_ARCH_ARM64) {
		add(a, "-M");
		add(a, "virt");
		add(a, "-cpu");
		add(a, kvm ? "host" : "max,pauth-impdef=on");
	} else {
		add(a, "-cpu");
		add(a, kvm ? "host" : "max");
	}
	add(a, "-accel");
	/*
	 * An x86-64 guest under multi-threaded TCG (QEMU 7.2) sometimes runs a breakpoint that
	 * the kernel's text_poke_bp() has already taken out again: "Oops: int3" at a static key
	 * in __schedule, then a panic, when a perf event's close flips the key (seen in 1 of 3
	 * lab runs of Debian's 6.12). One TCG thread for all vCPUs does not: x86 guests get it.
	 * arm64 patches text under stop_machine and keeps a thread per vCPU.
	 */
	add(a, kvm ? "kvm" : o->icount || o->arch == VM_ARCH_X86_64 ? "tcg,thread=single" :
							      "tcg,thread=multi");
	if (o->icount && !kvm) {
		add(a, "-icount");
		add(a, "shift=0");
	}
	add(a, "-smp");
	/*
	 * x86: one socket of N cores, whatever the QEMU's default for a bare -smp N (N sockets
	 * before 6.2). QEMU's x86 CPUs report one L3 per socket (l3-cache, on by default), so
	 * the guest's CPUs share one LLC: cacheinfo's index3 lists them all and, with
	 * CONFIG_SCHED_MC, the kernel builds one MC domain over them (its sd_llc), which is
	 * what cpus_share_cache() and the wakelist decisions in ttwu_queue_cond() look at.
	 */
	if (o->arch == VM_ARCH_X86_64)
		add(a, "%u,sockets=1,cores=%u,threads=1", o->cpus, o->cpus);
	else
		add(a, "%u", o->cpus);
	add(a, "-m");
	add(a, "%u", o->memory_mb);
	add(a, "-nodefaults");
	add(a, "-display");
	add(a, "none");
	add(a, "-no-reboot");
	add(a, "-kernel");
	add(a, "%s", kernel);
	add(a, "-initrd");
	add(a, "%s/initrd", dir);
	add(a, "-append");
	/* schedlens.accel: ignored by the kernel (a parameter of no module), it tells the
	 * results documents made inside that timings come from an emulated CPU under TCG.
	 * no_timer_check (x86): the IO-APIC timer check counts ticks against a busy-wait, which
	 * a TCG guest on a loaded host can miss ("IO-APIC + timer doesn't work!", a panic in
	 * setup_IO_APIC seen in the lab) */
	add(a, "console=%s quiet loglevel=3 panic=-1 schedlens.accel=%s%s",
	    o->arch == VM_ARCH_ARM64 ? "ttyAMA0" : "ttyS0", kvm ? "kvm" : "tcg",
	    o->arch == VM_ARCH_ARM64 ? "" : " no_timer_check");
	p = qemu_path(dir, "console.log");
	add(a, "-serial");
	add(a, "file:%s", p);
	free(p);
	add(a, "-device");
	add(a, "virtio-serial-pci,id=vs");
	for (i = 0; i < ARRAY_SIZE(ports); i++) {
		p = qemu_path(dir, ports[i]);
		add(a, "-chardev");
		add(a, "file,id=%s,path=%s", ports[i], p);
		add(a, "-device");
		add(a, "virtserialport,bus=vs.0,chardev=%s,name=%s", ports[i], ports[i]);
		free(p);
	}
}

struct relay {
	int from, to;
	size_t got;
};

/* copy what the guest has written to a port's file since the last call */
static size_t relay(struct relay *r, const char *path)
{
	char buf[65536];
	ssize_t n;
	size_t total = 0;

	if (r->from < 0)
		r->from = open(path, O_RDONLY | O_CLOEXEC);
	if (r->from < 0)
		return 0;
	while ((n = pread(r->from, buf, sizeof(buf), r->got)) > 0) {
		if (r->to >= 0 && write(r->to, buf, n) != n)
			r->to = -1;	/* a closed pipe: the guest still runs to its end */
		r->got += n;
		total += n;
	}
	return total;
}

static void tail_of(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	buf[0] = 0;
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	if (ftell(f) > (long)len - 1)
		fseek(f, -(long)len + 1, SEEK_END);
	else
		fseek(f, 0, SEEK_SET);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

enum boot_end { BOOT_DONE, BOOT_KVM_FAILED, BOOT_TIMEOUT, BOOT_STOPPED };

/* "KVM internal error. Suberror: 1", "emulation failure": QEMU pauses such a guest for good */
static bool kvm_failed(const char *log, char *line, size_t len)
{
	char buf[4096], *p;

	tail_of(log, buf, sizeof(buf));
	p = strstr(buf, "KVM internal error") ?: strstr(buf, "KVM: entry failed");
	if (p)
		snprintf(line, len, "%.*s", (int)strcspn(p, "\n"), p);
	return p;
}

/* one boot: QEMU until it exits, the ports relayed while it runs */
static int boot(const struct vm_opts *o, bool kvm, const char *kernel, const char *dir,
		struct vm_result *res, bool *quiet, struct errbuf *err)
{
	struct relay out = { -1, o->out_fd, 0 }, errp = { -1, o->err_fd, 0 };
	char path[PATH_MAX + 16], log[PATH_MAX + 16], buf[256];
	struct argv_buf a = { .n = 0 };
	uint64_t start = now_ns();
	enum boot_end end = BOOT_DONE;
	pid_t pid;
	int st, i, ret = 0;
	bool exited = false;
	long code;

	for (i = 0; i < (int)ARRAY_SIZE(ports); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ports[i]);
		unlink(path);
	}
	qemu_argv(o, kvm, kernel, dir, &a);
	snprintf(log, sizeof(log), "%s/qemu.log", dir);
	pid = vm__spawn(a.v, NULL, log, log);
	for (i = 0; i < a.n; i++)
		free(a.v[i]);
	if (pid < 0)
		return err__set(err, pid, pid == -ENOENT ? "'%s' is not installed: apt-get install "
				"%s (scripts/deps.sh installs it)" : "cannot start '%s': %s",
				qemu_name(o->arch), pid == -ENOENT ?
				(o->arch == VM_ARCH_ARM64 ? "qemu-system-arm" : "qemu-system-x86") :
				strerror(-pid));
	while (!exited) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			exited = true;
		snprintf(path, sizeof(path), "%s/out", dir);
		relay(&out, path);
		snprintf(path, sizeof(path), "%s/err", dir);
		relay(&errp, path);
		if (exited)
			break;
		if (kvm && end == BOOT_DONE && kvm_failed(log, buf, sizeof(buf))) {
			end = BOOT_KVM_FAILED;	/* QEMU stops the guest and waits */
			kill(pid, SIGTERM);
		} else if (o->stop && *o->stop && end == BOOT_DONE) {
			end = BOOT_STOPPED;
			kill(pid, SIGTERM);
		} else if (o->timeout_s && end == BOOT_DONE &&
			   now_ns() - start > (uint64_t)o->timeout_s * 1000000000ull) {
			end = BOOT_TIMEOUT;
			kill(pid, SIGTERM);
		}
		poll(NULL, 0, 20);
	}
	if (out.from >= 0)
		close(out.from);
	if (errp.from >= 0)
		close(errp.from);
	res->wall_s = (now_ns() - start) / 1e9;
	*quiet = !out.got && !errp.got;
	snprintf(path, sizeof(path), "%s/status", dir);
	if (end == BOOT_DONE && read_file_str(path, buf, sizeof(buf)) == 0 &&
	    !parse_long(buf, 0, 255, &code)) {
		res->status = code;
		return 0;
	}
	if (end == BOOT_KVM_FAILED)
		return err__set(err, -ENXIO, "%s", buf);
	if (end == BOOT_STOPPED)
		return err__set(err, -EINTR, "interrupted: the guest was ended");
	if (end == BOOT_TIMEOUT)
		return err__set(err, -ETIME, "the guest ran past %u s and was ended (--timeout)",
				o->timeout_s);
	tail_of(log, path, 400);
	if (!path[0]) {
		snprintf(path, sizeof(path), "%s/console.log", dir);
		tail_of(path, log, 600);
		snprintf(path, sizeof(path), "%s", log);
	}
	ret = err__set(err, -EIO, "the guest ended without the command's status (%s %s); its last "
		       "words:\n%s", qemu_name(o->arch),
		       WIFEXITED(st) ? "exited" : "was killed", path);
	return ret;
}

static bool kvm_usable(enum vm_arch arch)
{
	int fd;

	if (arch != vm_arch__host())
		return false;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* a guest that failed: its whole console (an oops, a panic) into the output folder, said */
static void keep_console(const struct vm_opts *o, const char *dir, struct errbuf *err)
{
	char from[PATH_MAX + 16], to[PATH_MAX + 16];
	size_t len = strlen(err->msg);

	if (!o->out_dir || (mkdir(o->out_dir, 0755) && errno != EEXIST))
		return;
	snprintf(from, sizeof(from), "%s/console.log", dir);
	snprintf(to, sizeof(to), "%s/vm-console.log", o->out_dir);
	if (!vm__spawn_wait((char *[]){ "cp", from, to, NULL }, NULL, NULL, NULL) &&
	    len < sizeof(err->msg))
		snprintf(err->msg + len, sizeof(err->msg) - len, "\n(the whole console in '%s')",
			 to);
}

/* a KVM that failed once fails again until the next boot of this machine */
static void boot_id(char *buf, size_t len)
{
	if (read_file_str("/proc/sys/kernel/random/boot_id", buf, len))
		buf[0] = 0;
}

static bool kvm_failed_before(const char *cache)
{
	char path[PATH_MAX + 16], was[64], now[64];

	snprintf(path, sizeof(path), "%s/kvm-failed", cache);
	boot_id(now, sizeof(now));
	return now[0] && !read_file_str(path, was, sizeof(was)) && !strcmp(was, now);
}

static void kvm_remember_failure(const char *cache)
{
	char path[PATH_MAX + 16], now[64];
	FILE *f;

	boot_id(now, sizeof(now));
	snprintf(path, sizeof(path), "%s/kvm-failed", cache);
	if (now[0] && (f = fopen(path, "we"))) {
		fprintf(f, "%s\n", now);
		fclose(f);
	}
}

static int bring_back(const struct vm_opts *o, const char *dir, struct errbuf *err)
{
	char tarf[PATH_MAX + 8], log[PATH_MAX + 8], reason[512];
	struct stat st;
	int ret;

	snprintf(tarf, sizeof(tarf), "%s/files", dir);
	if (!o->out_dir || stat(tarf, &st) || !st.st_size)
		return 0;
	if (mkdir(o->out_dir, 0755) && errno != EEXIST)
		return err__set(err, -errno, "cannot create '%s': %s", o->out_dir, strerror(errno));
	snprintf(log, sizeof(log), "%s/tar.log", dir);
	ret = vm__spawn_wait((char *[]){ "tar", "-x", "--no-same-owner", "--no-overwrite-dir",
					 "-f", tarf, "-C", (char *)o->out_dir, NULL },
			     NULL, log, log);
	if (ret) {
		vm__first_line(log, reason, sizeof(reason));
		return err__set(err, -EIO, "cannot unpack the guest's files into '%s': %s",
				o->out_dir, reason);
	}
	return 0;
}

int vm__run(const struct vm_opts *o, struct vm_result *res, struct errbuf *err)
{
	char cache[PATH_MAX], busybox[PATH_MAX], binary[PATH_MAX], dir[PATH_MAX], initrd[PATH_MAX + 8];
	char msg[1400], modules[PATH_MAX] = "";
	const char *tmp = getenv("TMPDIR");
	bool kvm, quiet;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = vm__cache_dir(o->cache_dir, cache, sizeof(cache), err);
	if (ret)
		return ret;
	if (o->kernel) {
		if (access(o->kernel, R_OK))
			return err__set(err, -errno, "cannot read the kernel '%s': %s", o->kernel,
					strerror(errno));
		snprintf(res->kernel, sizeof(res->kernel), "%s", o->kernel);
	} else {
		ret = vm__debian_kernel(cache, o->debian ?: "6.1", o->arch, res->kernel,
					sizeof(res->kernel), o->note, o->note_arg, err);
		if (ret)
			return ret;
	}
	if (o->binary) {
		if (vm__check_elf(o->binary, o->arch))
			return err__set(err, -ENOEXEC, "'%s' is not a static %s executable",
					o->binary, vm_arch__name(o->arch));
		snprintf(binary, sizeof(binary), "%s", o->binary);
	} else if ((ret = vm__find_binary(o->arch, binary, sizeof(binary), err))) {
		return ret;
	}
	ret = vm__busybox(cache, o->arch, busybox, sizeof(busybox), err);
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/schedlens-vm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return err__set(err, -errno, "cannot create a folder in '%s': %s",
				tmp && *tmp ? tmp : "/tmp", strerror(errno));
	snprintf(initrd, sizeof(initrd), "%s/initrd", dir);
	if (o->modules)
		snprintf(modules, sizeof(modules), "%s", o->modules);
	else if (!o->kernel)	/* Debian's: PACKAGE/boot/vmlinuz-R beside PACKAGE/lib/modules */
		snprintf(modules, sizeof(modules), "%.*s/../lib/modules",
			 (int)(strrchr(res->kernel, '/') - res->kernel), res->kernel);
	ret = build_initramfs(o, initrd, busybox, binary, modules[0] ? modules : NULL, err);
	if (ret)
		goto out;
	kvm = o->accel == VM_ACCEL_KVM ||
	      (o->accel == VM_ACCEL_AUTO && kvm_usable(o->arch) && !kvm_failed_before(cache));
	if (!kvm && o->accel == VM_ACCEL_AUTO && kvm_usable(o->arch) && o->note)
		o->note("KVM failed on this boot before: running under TCG (slower)", o->note_arg);
	ret = boot(o, kvm, res->kernel, dir, res, &quiet, err);
	if (ret == -EIO || ret == -ETIME)
		keep_console(o, dir, err);
	if ((ret == -ENXIO || (ret == -EIO && quiet)) && kvm && o->accel == VM_ACCEL_AUTO) {
		snprintf(msg, sizeof(msg), "KVM failed (%s): running under TCG (slower)", err->msg);
		*strchrnul(msg, '\n') = 0;
		if (o->note)
			o->note(msg, o->note_arg);
		kvm_remember_failure(cache);
		kvm = false;
		ret = boot(o, kvm, res->kernel, dir, res, &quiet, err);
	}
	res->kvm = kvm;
	if (!ret)
		ret = bring_back(o, dir, err);
out:
	vm__spawn_wait((char *[]){ "rm", "-rf", dir, NULL }, NULL, NULL, NULL);
	return ret;
}
