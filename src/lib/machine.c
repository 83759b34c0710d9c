// SPDX-License-Identifier: GPL-2.0
#include "schedlens/machine.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "schedlens/util.h"

/* The value of the first "@key : value" line of /proc/cpuinfo. */
static int cpuinfo_field(const char *key, char *buf, size_t len)
{
	char line[512];
	size_t klen = strlen(key);
	int ret = -ENOENT;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, klen) || !colon || (line[klen] != ' ' && line[klen] != '\t'))
			continue;
		colon++;
		while (*colon == ' ')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

int machine__cpu_model(char *buf, size_t len)
{
	char impl[64], part[64];

	if (!cpuinfo_field("model name", buf, len))
		return 0;
	if (!cpuinfo_field("CPU implementer", impl, sizeof(impl)) &&
	    !cpuinfo_field("CPU part", part, sizeof(part))) {
		snprintf(buf, len, "implementer %s part %s", impl, part);
		return 0;
	}
	return -ENOENT;
}

static void set_file(json_t *o, const char *key, const char *path)
{
	char buf[4096];

	if (!read_file_str(path, buf, sizeof(buf)))
		json_object_set_new(o, key, json_string(buf));
}

json_t *machine__describe(void)
{
	json_t *m = json_object();
	struct utsname u;
	struct sysinfo si;
	char buf[512];

	if (!m)
		return NULL;
	if (!uname(&u)) {
		json_object_set_new(m, "hostname", json_string(u.nodename));
		json_object_set_new(m, "kernel_release", json_string(u.release));
		json_object_set_new(m, "kernel_version", json_string(u.version));
		json_object_set_new(m, "arch", json_string(u.machine));
	}
	set_file(m, "kernel_cmdline", "/proc/cmdline");
	if (!machine__cpu_model(buf, sizeof(buf)))
		json_object_set_new(m, "cpu_model", json_string(buf));
	if (!cpuinfo_field("microcode", buf, sizeof(buf)))
		json_object_set_new(m, "microcode", json_string(buf));
	json_object_set_new(m, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(m, "cpus_configured", json_integer(sysconf(_SC_NPROCESSORS_CONF)));
	set_file(m, "smt", "/sys/devices/system/cpu/smt/control");
	set_file(m, "cpufreq_governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	set_file(m, "isolated_cpus", "/sys/devices/system/cpu/isolated");
	if (!sysinfo(&si))
		json_object_set_new(m, "memory_bytes",
				    json_integer((json_int_t)si.totalram * (json_int_t)si.mem_unit));
	return m;
}

int machine__kernel_build_id(unsigned char *id, size_t max)
{
	unsigned char buf[4096];
	size_t off = 0, len;
	ssize_t n;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -errno;
	len = (size_t)n;
	/* Elf_Nhdr: namesz, descsz, type; name and desc each padded to 4 bytes */
	while (off + 12 <= len) {
		uint32_t nh[3];
		size_t name, desc;

		memcpy(nh, buf + off, sizeof(nh));
		name = (nh[0] + 3u) & ~3u;
		desc = (nh[1] + 3u) & ~3u;
		if (name > len || desc > len || off + 12 + name + desc > len)
			break;
		if (nh[2] == 3 && nh[0] == 4 && !memcmp(buf + off + 12, "GNU", 4)) {
			if (nh[1] > max || !nh[1])
				return -EINVAL;
			memcpy(id, buf + off + 12 + name, nh[1]);
			return (int)nh[1];
		}
		off += 12 + name + desc;
	}
	return -ENOENT;
}

int machine__elf_build_id(const void *image, size_t len, unsigned char *id, size_t max)
{
	Elf *elf;
	size_t n, i;
	int ret = -ENOENT;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)image, len);
	if (!elf)
		return -EINVAL;
	if (elf_getphdrnum(elf, &n))
		n = 0;
	for (i = 0; i < n && ret == -ENOENT; i++) {
		GElf_Phdr ph;
		GElf_Nhdr nh;
		size_t off = 0, name, desc;
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE ||
		    !(d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
					       ELF_T_NHDR)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name, &desc)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + name, "GNU", 4))
				continue;
			ret = nh.n_descsz && nh.n_descsz <= max ? (int)nh.n_descsz : -EINVAL;
			if (ret > 0)
				memcpy(id, (char *)d->d_buf + desc, nh.n_descsz);
			break;
		}
	}
	elf_end(elf);
	return ret;
}

int machine__vdso(const void **image, size_t *len, unsigned char *id, size_t max)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	char line[512];
	uint64_t lo, hi;
	FILE *f;

	*image = NULL;
	*len = 0;
	if (!base)
		return -ENOENT;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2 && lo == base &&
		    strstr(line, "[vdso]")) {
			*image = (const void *)base;
			*len = (size_t)(hi - lo);
			break;
		}
	fclose(f);
	if (!*image)
		return -ENOENT;
	return machine__elf_build_id(*image, *len, id, max);
}
