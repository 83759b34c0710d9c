// SPDX-License-Identifier: GPL-2.0
/*
 * Reads the clock in a loop for ARGV[1] seconds (default 0.3) through tick() from spin(),
 * which keeps a pointer to its array in rbp (x86-64, -O2 -fomit-frame-pointer): a walk
 * from a vDSO sample that falls back to the frame pointer at libc's clock_gettime reads
 * the array as a frame and goes astray; only libc's CFI unwinds it into tick(), spin() and
 * main() (tests/shell/unwind.sh).
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long tick(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long)t.tv_sec * 1000000000ul + (unsigned long)t.tv_nsec;
}

__attribute__((noinline)) static unsigned long spin(unsigned long end)
{
	unsigned long buf[4] = { 0x2ae44fe2, 0x39af8845, 1, 2 }, *p = buf, now, n = 0;

	while ((now = tick()) < end) {
		p[n & 3] += now;
		n++;
	}
	return p[0] + p[1] + p[2] + p[3];
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? strtod(argv[1], NULL) : 0.3;

	sink = spin(tick() + (unsigned long)(secs * 1e9));
	return 0;
}
