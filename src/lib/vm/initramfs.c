// SPDX-License-Identifier: GPL-2.0
/*
 * A newc cpio archive for the kernel to unpack as its initramfs. The format is the kernel's
 * (Documentation/driver-api/early-userspace/buffer-format.rst): per entry a 110-byte header of
 * "070701" and thirteen 8-digit hex fields, the NUL-terminated name padded to 4 bytes, the
 * data padded to 4 bytes; a "TRAILER!!!" entry ends it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedlens/vm.h"

struct initramfs {
	FILE *f;
	unsigned int ino;
	int error;
	struct errbuf *err;
};

struct initramfs *initramfs__new(const char *path, struct errbuf *err)
{
	struct initramfs *r = calloc(1, sizeof(*r));

	if (!r) {
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	r->f = fopen(path, "we");
	if (!r->f) {
		err__set(err, -errno, "cannot create '%s': %s", path, strerror(errno));
		free(r);
		return NULL;
	}
	r->ino = 721;
	r->err = err;
	return r;
}

static void pad4(struct initramfs *r)
{
	static const char zero[4];
	long off = ftell(r->f);

	if (off > 0 && off % 4)
		fwrite(zero, 1, 4 - off % 4, r->f);
}

static int entry(struct initramfs *r, const char *name, unsigned int mode, const void *data,
		 size_t len)
{
	size_t namesize = strlen(name) + 1;

	if (r->error)
		return r->error;
	fprintf(r->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		r->ino++, mode, 0u, 0u, 1u, 0u, len, 0u, 0u, 0u, 0u, namesize, 0u);
	fwrite(name, 1, namesize, r->f);
	pad4(r);
	if (len && fwrite(data, 1, len, r->f) != len)
		r->error = err__set(r->err, -EIO, "cannot write the initramfs: %s", strerror(errno));
	pad4(r);
	if (ferror(r->f) && !r->error)
		r->error = err__set(r->err, -EIO, "cannot write the initramfs: %s", strerror(errno));
	return r->error;
}

int initramfs__dir(struct initramfs *r, const char *name, unsigned int mode)
{
	return entry(r, name, S_IFDIR | (mode & 07777), NULL, 0);
}

int initramfs__data(struct initramfs *r, const char *name, unsigned int mode, const void *buf,
		    size_t len)
{
	return entry(r, name, S_IFREG | (mode & 07777), buf, len);
}

int initramfs__symlink(struct initramfs *r, const char *name, const char *target)
{
	return entry(r, name, S_IFLNK | 0777, target, strlen(target));
}

static int copy_file(struct initramfs *r, const char *name, const char *path, mode_t mode)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	ssize_t n;
	size_t got = 0;
	int ret;

	if (fd < 0 || fstat(fd, &st))
		return r->error = err__set(r->err, -errno, "cannot read '%s': %s", path,
					   strerror(errno));
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		ret = r->error = err__set(r->err, -ENOMEM, "out of memory");
		goto out_close;
	}
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, st.st_size - got)) > 0)
		got += n;
	if (got != (size_t)st.st_size) {
		ret = r->error = err__set(r->err, -EIO, "cannot read '%s': short read", path);
		goto out_free;
	}
	ret = initramfs__data(r, name, mode, buf, got);
out_free:
	free(buf);
out_close:
	close(fd);
	return ret;
}

int initramfs__copy(struct initramfs *r, const char *name, const char *path)
{
	struct stat st;
	struct dirent **ents;
	char sub_name[4096], sub_path[4096];
	int n, i, ret;

	if (stat(path, &st))
		return r->error = err__set(r->err, -errno, "cannot read '%s': %s", path,
					   strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return copy_file(r, name, path, st.st_mode);
	ret = initramfs__dir(r, name, st.st_mode);
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		return r->error = err__set(r->err, -errno, "cannot read '%s': %s", path,
					   strerror(errno));
	for (i = 0; i < n; i++) {
		if (!ret && strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
			snprintf(sub_name, sizeof(sub_name), "%s/%s", name, ents[i]->d_name);
			snprintf(sub_path, sizeof(sub_path), "%s/%s", path, ents[i]->d_name);
			ret = initramfs__copy(r, sub_name, sub_path);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int initramfs__close(struct initramfs *r)
{
	int ret;

	entry(r, "TRAILER!!!", 0, NULL, 0);
	ret = r->error;
	if (fclose(r->f) && !ret)
		ret = err__set(r->err, -errno, "cannot write the initramfs: %s", strerror(errno));
	free(r);
	return ret;
}
