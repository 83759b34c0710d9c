/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm: run one command inside a real kernel in a QEMU guest (the kernel lab).
 *
 * The guest boots @kernel with an initramfs made here: busybox for the guest's architecture,
 * a static schedlens for it, schedlens's data folder and an /init that mounts proc, sysfs,
 * devtmpfs, tracefs and debugfs, opens perf to everyone (perf_event_paranoid -1, kptr_restrict
 * 0), brings up lo, runs the command in /work and powers off. Four virtio-serial ports carry
 * what comes back: the command's stdout and stderr (relayed while it runs), its exit status,
 * and a tar of the files it left in /work. The console goes to a log that is quoted when the
 * guest fails.
 *
 * Library code: nothing is printed; notes (KVM fell back to TCG, a kernel was fetched) go
 * through @note, errors through the error buffer.
 */
#ifndef SCHEDLENS_VM_H
#define SCHEDLENS_VM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "schedlens/util.h"

enum vm_arch { VM_ARCH_X86_64, VM_ARCH_ARM64 };
enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG };

/* exit statuses of vm itself, as timeout(1) and env(1) have them */
#define VM_EXIT_TIMEOUT 124
#define VM_EXIT_FAILED 125

struct vm_opts {
	enum vm_arch arch;
	const char *kernel;		/* a kernel image, or NULL with @debian */
	const char *debian;		/* "6.1", "6.12": Debian's cloud kernel, fetched once */
	const char *modules;		/* the kernel's modules (virtio's are loaded), NULL: none,
					 * or Debian's with @debian */
	const char *binary;		/* schedlens for the guest, NULL: found (vm__find_binary) */
	const char *cache_dir;		/* NULL: $XDG_CACHE_HOME/schedlens or ~/.cache/schedlens */
	const char *out_dir;		/* where the guest's files come back; NULL: none */
	const char *const *copy;	/* host files put in the guest's /work, NULL-terminated */
	unsigned int cpus;
	unsigned int memory_mb;
	unsigned int timeout_s;		/* 0: none */
	bool icount;			/* -icount shift=0: arm64 counts instructions (slower) */
	bool exec;			/* argv is a guest command, not a schedlens subcommand */
	enum vm_accel accel;
	char *const *argv;		/* the command, NULL-terminated */
	int out_fd, err_fd;		/* where the command's stdout and stderr go */
	const volatile sig_atomic_t *stop;	/* set by a signal: end the guest */
	void (*note)(const char *msg, void *arg);
	void *note_arg;
};

struct vm_result {
	int status;			/* the command's exit status */
	bool kvm;			/* ran under KVM */
	double wall_s;			/* boot, command and power-off */
	char kernel[4096];		/* the image that was booted */
};

const char *vm_arch__name(enum vm_arch a);
/* "x86_64", "amd64", "arm64", "aarch64" -> 0, else -EINVAL */
int vm_arch__parse(const char *s, enum vm_arch *out);
enum vm_arch vm_arch__host(void);

/* The cache folder (created): @o's, $XDG_CACHE_HOME/schedlens or ~/.cache/schedlens. */
int vm__cache_dir(const char *dir, char *buf, size_t len, struct errbuf *err);

/*
 * Debian's newest cloud kernel @version ("6.1", "6.12") for @arch: the image in the cache,
 * else fetched with apt-get download and dpkg-deb into @cache/kernels/PACKAGE. 0 or -errno.
 */
int vm__debian_kernel(const char *cache, const char *version, enum vm_arch arch, char *image,
		      size_t len, void (*note)(const char *, void *), void *arg,
		      struct errbuf *err);

/*
 * A static schedlens for @arch: this program when it is one, else schedlens-ARCH beside it,
 * else ../build-arm64/schedlens from its build folder. 0 or -ENOENT with advice.
 */
int vm__find_binary(enum vm_arch arch, char *path, size_t len, struct errbuf *err);

/* Boot, run, collect. 0 with @res filled (res->status the command's), or -errno. */
int vm__run(const struct vm_opts *o, struct vm_result *res, struct errbuf *err);

/*
 * initramfs: a newc cpio archive (the kernel's Documentation/driver-api/early-userspace/
 * buffer-format.rst), written entry by entry; the trailer is added by initramfs__close().
 */
struct initramfs;
struct initramfs *initramfs__new(const char *path, struct errbuf *err);
int initramfs__dir(struct initramfs *f, const char *name, unsigned int mode);
int initramfs__data(struct initramfs *f, const char *name, unsigned int mode, const void *buf,
		    size_t len);
int initramfs__symlink(struct initramfs *f, const char *name, const char *target);
/* a host file, or a host folder and everything under it, as @name */
int initramfs__copy(struct initramfs *f, const char *name, const char *host_path);
/* writes the trailer and closes; 0 or -errno (the archive is incomplete on error) */
int initramfs__close(struct initramfs *f);

#endif
