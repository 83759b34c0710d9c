// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for script's symbols: a pointer chase whose hash step is inlined, called
 * from main after libc work (readdir, malloc), so that callchains go through the program,
 * libc, ld.so and the kernel. Built with -g -O2. Usage: chase [ITERATIONS] (default 2e7).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline unsigned long mix(unsigned long x)
{
	return x * 2654435761u ^ (x >> 7);
}

__attribute__((noinline)) unsigned long chase(const unsigned long *v, long iters)
{
	unsigned long i = 0, s = 0;

	while (iters--) {
		i = v[i];
		s += mix(i);
	}
	return s;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 20000000;
	size_t n = 1 << 20, i;
	unsigned long *v = malloc(n * sizeof(*v)), s = 0;
	struct dirent *e;
	DIR *d;
	int k;

	if (!v)
		return 1;
	for (i = 0; i < n; i++)
		v[i] = (i * 7919 + 13) % n;
	for (k = 0; k < 3; k++) {
		void *p = malloc(1 << 16);

		if (p)
			memset(p, k, 1 << 16);
		free(p);
		d = opendir("/usr/share");
		while (d && (e = readdir(d)))
			s += e->d_name[0];
		if (d)
			closedir(d);
	}
	s += chase(v, iters);
	printf("%lu\n", s);
	free(v);
	return 0;
}
