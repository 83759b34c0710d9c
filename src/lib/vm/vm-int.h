/* SPDX-License-Identifier: GPL-2.0 */
/* vm's internals shared by vm.c (the guest) and vm-image.c (what it boots). */
#ifndef SCHEDLENS_VM_INT_H
#define SCHEDLENS_VM_INT_H

#include <stddef.h>
#include <sys/types.h>

#include "schedlens/vm.h"

/*
 * Start @argv (PATH searched) in @cwd (NULL: here) with stdin from /dev/null, stdout to
 * @out_path and stderr to @err_path (NULL: /dev/null; the same path: both there). The pid,
 * or -errno.
 */
pid_t vm__spawn(char *const argv[], const char *cwd, const char *out_path,
		const char *err_path);
/* vm__spawn, then wait: the exit status (128+signal when killed), or -errno */
int vm__spawn_wait(char *const argv[], const char *cwd, const char *out_path,
		   const char *err_path);
/* The first line of a small text file, for error messages ("" when there is none). */
void vm__first_line(const char *path, char *buf, size_t len);
/* A static busybox for @arch: /bin/busybox when it is one, else fetched into the cache. */
int vm__busybox(const char *cache, enum vm_arch arch, char *path, size_t len,
		struct errbuf *err);
/* 0 when @path is a statically linked ELF executable for @arch, else -ENOEXEC */
int vm__check_elf(const char *path, enum vm_arch arch);

#endif
