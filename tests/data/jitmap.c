// SPDX-License-Identifier: GPL-2.0
/*
 * A program that runs code it generated, as a JIT does: a count-down loop copied into an
 * anonymous executable mapping, named in /tmp/perf-PID.map (perf's JIT interface: "START
 * SIZE NAME" in hex) as jit_spin; prints its pid. x86-64 and arm64. Usage: jitmap [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
/* mov %rdi,%rax; 1: dec %rax; jnz 1b; ret */
static const unsigned char code[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8, 0x75, 0xfb, 0xc3 };
#elif defined(__aarch64__)
/* 1: subs x0, x0, #1; b.ne 1b; ret */
static const unsigned int code[] = { 0xf1000400, 0x54ffffe1, 0xd65f03c0 };
#else
#error "jitmap: x86-64 or arm64"
#endif

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000000ul;
	unsigned long (*fn)(unsigned long);
	char path[64];
	void *p;
	FILE *f;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		perror("jitmap: mmap");
		return 1;
	}
	memcpy(p, code, sizeof(code));
	__builtin___clear_cache((char *)p, (char *)p + sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f || fprintf(f, "%lx %zx jit_spin\n", (unsigned long)p, sizeof(code)) < 0 ||
	    fclose(f)) {
		perror("jitmap: /tmp/perf-PID.map");
		return 1;
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	fn = (unsigned long (*)(unsigned long))p;
	return (int)(fn(n) & 1);
}
