// SPDX-License-Identifier: GPL-2.0
/*
 * What a vm guest boots: Debian's cloud kernels fetched from the package registry into the
 * cache (apt-get download, dpkg-deb; nothing is installed), a static busybox and a static
 * schedlens for the guest's architecture.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm-int.h"

extern char **environ;

static const struct {
	const char *name, *deb, *alias;
	unsigned int machine;
} arches[] = {
	[VM_ARCH_X86_64] = { "x86_64", "amd64", "x86-64", EM_X86_64 },
	[VM_ARCH_ARM64] = { "arm64", "arm64", "aarch64", EM_AARCH64 },
};

const char *vm_arch__name(enum vm_arch a)
{
	return arches[a].name;
}

int vm_arch__parse(const char *s, enum vm_arch *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (!strcmp(s, arches[i].name) || !strcmp(s, arches[i].deb) ||
		    !strcmp(s, arches[i].alias)) {
			*out = i;
			return 0;
		}
	return -EINVAL;
}

enum vm_arch vm_arch__host(void)
{
	struct utsname u;

	return !uname(&u) && !strcmp(u.machine, "aarch64") ? VM_ARCH_ARM64 : VM_ARCH_X86_64;
}

pid_t vm__spawn(char *const argv[], const char *cwd, const char *out_path,
		const char *err_path)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out_path ?: "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (err_path && out_path && !strcmp(err_path, out_path))
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
	else
		posix_spawn_file_actions_addopen(&fa, 2, err_path ?: "/dev/null",
						 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (cwd)
		posix_spawn_file_actions_addchdir_np(&fa, cwd);
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return ret ? -ret : pid;
}

int vm__spawn_wait(char *const argv[], const char *cwd, const char *out_path,
		   const char *err_path)
{
	pid_t pid = vm__spawn(argv, cwd, out_path, err_path);
	int st;

	if (pid < 0)
		return pid;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void vm__first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	if (!f)
		return;
	while (fgets(buf, len, f)) {
		buf[strcspn(buf, "\n")] = 0;
		if (buf[0] && strncmp(buf, "W: ", 3))	/* apt's warnings are not the reason */
			break;
		buf[0] = 0;
	}
	fclose(f);
}

int vm__check_elf(const char *path, enum vm_arch arch)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENOEXEC, i;

	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != arches[arch].machine ||
	    eh.e_type != ET_EXEC)
		goto out;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * eh.e_phentsize) != sizeof(ph))
			goto out;
		if (ph.p_type == PT_INTERP || ph.p_type == PT_DYNAMIC)
			goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

int vm__cache_dir(const char *dir, char *buf, size_t len, struct errbuf *err)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char parent[PATH_MAX];

	if (dir)
		snprintf(buf, len, "%s", dir);
	else if (xdg && *xdg)
		snprintf(buf, len, "%s/schedlens", xdg);
	else if (home && *home)
		snprintf(buf, len, "%s/.cache/schedlens", home);
	else
		return err__set(err, -ENOENT, "no cache folder: set HOME or XDG_CACHE_HOME, or "
				"give --cache DIR");
	snprintf(parent, sizeof(parent), "%s", buf);
	*(strrchr(parent, '/') ?: parent) = 0;
	if (parent[0])
		mkdir(parent, 0755);
	if (mkdir(buf, 0755) && errno != EEXIST)
		return err__set(err, -errno, "cannot create the cache '%s': %s", buf,
				strerror(errno));
	return 0;
}

/* linux-image-6.1.0-57-cloud-amd64, linux-image-6.12.117+deb12-cloud-arm64 for "6.1", "6.12" */
static bool kernel_package(const char *name, const char *version, enum vm_arch arch)
{
	size_t pre = strlen("linux-image-"), vl = strlen(version), nl = strlen(name);
	char tail[32];

	snprintf(tail, sizeof(tail), "-cloud-%s", arches[arch].deb);
	return !strncmp(name, "linux-image-", pre) && !strncmp(name + pre, version, vl) &&
	       name[pre + vl] == '.' && nl > strlen(tail) &&
	       !strcmp(name + nl - strlen(tail), tail);
}

/* @dir/boot/vmlinuz-* into @image; 0 or -ENOENT */
static int find_image(const char *dir, char *image, size_t len)
{
	char boot[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	int ret = -ENOENT;

	snprintf(boot, sizeof(boot), "%s/boot", dir);
	dp = opendir(boot);
	if (!dp)
		return -ENOENT;
	while ((d = readdir(dp)))
		if (!strncmp(d->d_name, "vmlinuz-", 8)) {
			snprintf(image, len, "%s/%s", boot, d->d_name);
			ret = 0;
			break;
		}
	closedir(dp);
	return ret;
}

/* the newest package in @names (one a line) or in the cache folder that is @version's */
static int newest(FILE *names, DIR *cached, const char *version, enum vm_arch arch, char *best,
		  size_t len)
{
	char line[256];
	struct dirent *d;

	best[0] = 0;
	while (names && fgets(line, sizeof(line), names)) {
		line[strcspn(line, "\n")] = 0;
		if (kernel_package(line, version, arch) && strverscmp(line, best) > 0)
			snprintf(best, len, "%s", line);
	}
	while (cached && (d = readdir(cached)))
		if (kernel_package(d->d_name, version, arch) && strverscmp(d->d_name, best) > 0)
			snprintf(best, len, "%s", d->d_name);
	return best[0] ? 0 : -ENOENT;
}

/* apt-get download @pkg (qualified with its architecture) and unpack the members matching
 * @what and @what2 (tar wildcards; NULL: @what alone) into @dest */
static int fetch_deb(const char *cache, const char *pkg, enum vm_arch arch, const char *what,
		     const char *what2, const char *dest, struct errbuf *err)
{
	char tmp[PATH_MAX], log[PATH_MAX + 8], qual[256], deb[PATH_MAX + 300], x[PATH_MAX + 4];
	char reason[512];
	struct dirent *d;
	DIR *dp;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/.fetch-XXXXXX", cache);
	if (!mkdtemp(tmp))
		return err__set(err, -errno, "cannot create a folder in '%s': %s", cache,
				strerror(errno));
	snprintf(log, sizeof(log), "%s/log", tmp);
	snprintf(qual, sizeof(qual), "%s:%s", pkg, arches[arch].deb);
	ret = vm__spawn_wait((char *[]){ "apt-get", "download", "-q", qual, NULL }, tmp, log, log);
	if (ret) {
		vm__first_line(log, reason, sizeof(reason));
		ret = err__set(err, ret < 0 ? ret : -EIO, "cannot fetch '%s' with apt-get download: %s",
			       qual, ret < 0 ? strerror(-ret) : reason);
		goto out;
	}
	deb[0] = 0;
	if ((dp = opendir(tmp))) {
		while ((d = readdir(dp)))
			if (strstr(d->d_name, ".deb"))
				snprintf(deb, sizeof(deb), "%s/%s", tmp, d->d_name);
		closedir(dp);
	}
	snprintf(x, sizeof(x), "%s/x", tmp);
	mkdir(x, 0755);
	ret = vm__spawn_wait((char *[]){ "sh", "-c",
					 "d=$1 x=$2; shift 2; dpkg-deb --fsys-tarfile \"$d\" | "
					 "tar -x --wildcards -C \"$x\" \"$@\"",
					 "sh", deb, x, (char *)what, (char *)what2, NULL },
			     NULL, log, log);
	if (ret || rename(x, dest)) {
		vm__first_line(log, reason, sizeof(reason));
		ret = err__set(err, -EIO, "cannot unpack '%s': %s", deb[0] ? deb : qual,
			       reason[0] ? reason : strerror(errno));
	}
out:
	vm__spawn_wait((char *[]){ "rm", "-rf", tmp, NULL }, NULL, NULL, NULL);
	return ret;
}

int vm__debian_kernel(const char *cache, const char *version, enum vm_arch arch, char *image,
		      size_t len, void (*note)(const char *, void *), void *arg,
		      struct errbuf *err)
{
	char kdir[PATH_MAX], pkg[256], dest[PATH_MAX + 260], names[PATH_MAX + 8], msg[512];
	FILE *f = NULL;
	DIR *dp;
	int ret;

	snprintf(kdir, sizeof(kdir), "%s/kernels", cache);
	mkdir(kdir, 0755);
	dp = opendir(kdir);
	ret = newest(NULL, dp, version, arch, pkg, sizeof(pkg));
	if (dp)
		closedir(dp);
	if (!ret) {
		snprintf(dest, sizeof(dest), "%s/%s", kdir, pkg);
		if (!find_image(dest, image, len))
			return 0;
	}
	snprintf(names, sizeof(names), "%s/.names", kdir);
	ret = vm__spawn_wait((char *[]){ "apt-cache", "pkgnames", "linux-image-", NULL }, NULL,
			     names, NULL);
	if (ret)
		return err__set(err, -ENOENT, "no Debian %s kernel for %s in the cache '%s' and "
				"apt-cache is not usable here: give --kernel IMAGE", version,
				arches[arch].name, kdir);
	f = fopen(names, "re");
	ret = newest(f, NULL, version, arch, pkg, sizeof(pkg));
	if (f)
		fclose(f);
	unlink(names);
	if (ret)
		return err__set(err, -ENOENT, "no Debian %s cloud kernel for %s in the package lists%s",
				version, arches[arch].name,
				arch == vm_arch__host() ? ": apt-get update, or give --kernel IMAGE" :
				": add the architecture (dpkg --add-architecture arm64 && apt-get "
				"update), or give --kernel IMAGE");
	snprintf(msg, sizeof(msg), "fetching %s into %s (once)", pkg, kdir);
	if (note)
		note(msg, arg);
	snprintf(dest, sizeof(dest), "%s/%s", kdir, pkg);
	/* the image, and the virtio modules a kernel without them built in needs for the ports */
	ret = fetch_deb(cache, pkg, arch, "./boot/*", "./lib/modules/*virtio*", dest, err);
	if (ret)
		return ret;
	if (find_image(dest, image, len))
		return err__set(err, -ENOENT, "'%s' has no boot/vmlinuz-*", pkg);
	return 0;
}

int vm__busybox(const char *cache, enum vm_arch arch, char *path, size_t len,
		struct errbuf *err)
{
	char dest[PATH_MAX];

	if (!vm__check_elf("/bin/busybox", arch)) {
		snprintf(path, len, "/bin/busybox");
		return 0;
	}
	snprintf(dest, sizeof(dest), "%s/busybox-static-%s", cache, arches[arch].deb);
	snprintf(path, len, "%s/bin/busybox", dest);
	if (!vm__check_elf(path, arch))
		return 0;
	return fetch_deb(cache, "busybox-static", arch, "./bin/*", NULL, dest, err) ?:
	       (vm__check_elf(path, arch) ? err__set(err, -ENOEXEC, "'%s' is not a static "
						      "busybox for %s", path, arches[arch].name) : 0);
}

int vm__find_binary(enum vm_arch arch, char *path, size_t len, struct errbuf *err)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int i;

	if (n <= 0)
		return err__set(err, -errno, "cannot find this program: %s", strerror(errno));
	self[n] = 0;
	if (!vm__check_elf(self, arch)) {
		snprintf(path, len, "%s", self);
		return 0;
	}
	slash = strrchr(self, '/');
	*slash = 0;
	for (i = 0; i < 2; i++) {
		if (i == 0)	/* schedlens-ARCH beside this program, or the build folder's */
			snprintf(path, len, "%s/schedlens-%s", self, arches[arch].name);
		else
			snprintf(path, len, "%s/%s/schedlens", self,
				 arch == VM_ARCH_ARM64 ? "../build-arm64" : "../build");
		if (!vm__check_elf(path, arch))
			return 0;
	}
	return err__set(err, -ENOENT, "no static schedlens for %s beside '%s': build one (%s), or "
			"give --binary FILE", arches[arch].name, self,
			arch == VM_ARCH_ARM64 ? "make ARCH=arm64" : "make");
}
