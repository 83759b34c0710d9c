// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for DWARF unwinding: main -> outer -> middle -> inner, built with
 * -O2 -fomit-frame-pointer, so only the CFI can walk from inner back to main.
 * Usage: deepstack [SECONDS] (default 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long inner(unsigned long x)
{
	unsigned long i;

	for (i = 0; i < 100000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
	return x;
}

__attribute__((noinline)) static unsigned long middle(unsigned long x)
{
	return inner(x ^ 0x5555) + sink;
}

__attribute__((noinline)) static unsigned long outer(unsigned long x)
{
	return middle(x + 3) * 3 + sink;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, end = seconds() + secs;
	unsigned long x = 1;

	while (seconds() < end)
		x += outer(x);
	printf("%lu\n", x & 1);
	return 0;
}
