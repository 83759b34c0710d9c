// SPDX-License-Identifier: GPL-2.0
/*
 * calls tests/data/asmalias.S's stub for argv[1] seconds of CPU, through a function inlined
 * into main that an asm label names otherwise (DW_AT_linkage_name, as glibc's hidden aliases:
 * _IO_doallocbuf is __GI__IO_doallocbuf)
 */
#include <stdlib.h>
#include <time.h>

void spin_a(void);
extern long batch(long n);

long batch(long n) __asm__("labelled_batch");
__attribute__((always_inline)) inline long batch(long n)
{
	volatile long sum = 0;
	long i;

	for (i = 0; i < n; i++) {
		spin_a();
		sum += i;
	}
	return sum;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	clock_t end = clock() + (clock_t)(secs * CLOCKS_PER_SEC);

	while (clock() < end)
		batch(1000);
	return 0;
}
