/* SPDX-License-Identifier: GPL-2.0 */
/* The machine a measurement ran on, as results documents record it. */
#ifndef SCHEDLENS_MACHINE_H
#define SCHEDLENS_MACHINE_H

#include <jansson.h>

/*
 * A new JSON object: hostname, kernel release and version, arch, kernel command line, CPU
 * model, microcode, CPUs online/configured, SMT state, frequency governor, isolated CPUs,
 * memory. Fields this machine does not expose are omitted. Never NULL except on ENOMEM.
 */
json_t *machine__describe(void);

/* "model name" of /proc/cpuinfo (or the arm64 "CPU part"), into @buf; 0 or -errno. */
int machine__cpu_model(char *buf, size_t len);

/*
 * The running kernel's build-id (its GNU build-id note in /sys/kernel/notes) into @id, at
 * most @max bytes: the id's length, or -errno (-ENOENT when the kernel has none).
 */
int machine__kernel_build_id(unsigned char *id, size_t max);

/*
 * This process's vDSO, the image the kernel maps into every process of its ABI (the
 * [vdso] of a recording made on this boot): its ELF image in memory (*@image, *@len: its
 * [vdso] mapping) and its build-id into @id (at most @max bytes). The id's length, or -errno
 * (-ENOENT: no vDSO, or one without a build-id note).
 */
int machine__vdso(const void **image, size_t *len, unsigned char *id, size_t max);

/* The build-id of the ELF image at @image (@len bytes) into @id: its length, or -errno. */
int machine__elf_build_id(const void *image, size_t len, unsigned char *id, size_t max);

#endif
