// SPDX-License-Identifier: GPL-2.0
/*
 * Calls into libc through the PLT, for tests/shell/unwind-lazybind.sh: run with LD_BIND_NOT=1,
 * ld.so binds no call for good, so each goes through the lazy-binding trampoline
 * (_dl_runtime_resolve_*) and _dl_fixup, where DWARF unwinding of samples is put to the test.
 * Usage: lazybind [ROUNDS]   (1000 calls of each function a round; default 300)
 */
#include <stdio.h>
#include <stdlib.h>

static char buf[16] = "123";

__attribute__((noinline)) static long leaf(int i)
{
	buf[3] = (char)('0' + i % 10);
	return strtol(buf, NULL, 10) + (long)ferror(stdout);
}

__attribute__((noinline)) static long mid(int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 300, k;
	long s = 0;

	for (k = 0; k < rounds; k++)
		s += mid(1000);
	return (int)(s & 1);
}
