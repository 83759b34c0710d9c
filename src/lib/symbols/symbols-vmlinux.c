// SPDX-License-Identifier: GPL-2.0
/*
 * The vmlinux for a recording's kernel, as perf finds one (symbol.c vmlinux_path,
 * dso__load_vmlinux_path(); build-id.c): the one given, checked against the build-id of the
 * recording's kernel (its BUILD_ID entry for [kernel.kallsyms]), else the first file of
 * perf's places, under the symfs, whose build-id is the recording's.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symbols-int.h"

int sym_elf_build_id(const char *path, uint8_t *id, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	Elf_Scn *scn = NULL;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		ret = -ENOEXEC;
		goto out_end;
	}
	while (!ret && (scn = elf_nextscn(elf, scn))) {
		size_t off = 0, noff, doff;
		Elf_Data *data;
		GElf_Shdr sh;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(data = elf_getdata(scn, NULL)))
			continue;
		while (!ret && (off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + noff, "GNU", 4) && nh.n_descsz) {
				ret = nh.n_descsz < max ? (int)nh.n_descsz : (int)max;
				memcpy(id, (char *)data->d_buf + doff, (size_t)ret);
			}
	}
out_end:
	elf_end(elf);
	close(fd);
	return ret;
}

static void hex(const uint8_t *id, size_t n, char *buf)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(buf + 2 * i, "%02x", id[i]);
	buf[2 * n] = '\0';
}

static bool same_id(const char *path, const uint8_t *kid, size_t kid_size)
{
	uint8_t id[20];
	int n = sym_elf_build_id(path, id, sizeof(id));

	return n > 0 && (size_t)n >= kid_size && !memcmp(id, kid, kid_size);
}

int sym_vmlinux__pick(const char *given, const char *symfs, const char *release,
		      const uint8_t *kid, size_t kid_size, char *buf, size_t len,
		      struct errbuf *err)
{
	/* perf's vmlinux_path (RELEASE between the two halves), after the build-id debug file */
	static const char *const places[][2] = {
		{ "/boot/vmlinux-", "" },		 { "/usr/lib/debug/boot/vmlinux-", "" },
		{ "/lib/modules/", "/build/vmlinux" },	 { "/usr/lib/debug/lib/modules/", "/vmlinux" },
		{ "/usr/lib/debug/boot/vmlinux-", ".debug" },
	};
	char want[41], have[41];
	uint8_t id[20];
	size_t i;
	int n;

	buf[0] = '\0';
	if (kid_size > 20)
		kid_size = 20;
	if (given) {
		snprintf(buf, len, "%s", given);
		n = kid_size ? sym_elf_build_id(given, id, sizeof(id)) : 0;
		if (n <= 0 || ((size_t)n >= kid_size && !memcmp(id, kid, kid_size)))
			return 0;	/* the file as given: unreadable ones are noted later */
		hex(kid, kid_size, want);
		hex(id, (size_t)n, have);
		return err__set(err, -EINVAL, "'%s' is not the recorded kernel's vmlinux: build-id "
				"%s, the recording's %s%s%s%s", given, have, want,
				release ? " (kernel " : "", release ?: "", release ? ")" : "");
	}
	if (!kid_size)
		return 0;	/* nothing to tell the right file by: kallsyms, as before */
	hex(kid, kid_size, want);
	snprintf(buf, len, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs ?: "", want, want + 2);
	if (same_id(buf, kid, kid_size))
		return 0;
	for (i = 0; release && i < ARRAY_SIZE(places); i++) {
		snprintf(buf, len, "%s%s%s%s", symfs ?: "", places[i][0], release, places[i][1]);
		if (same_id(buf, kid, kid_size))
			return 0;
	}
	buf[0] = '\0';
	return 0;
}
