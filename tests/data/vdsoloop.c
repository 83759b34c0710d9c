// SPDX-License-Identifier: GPL-2.0
/* Reads the clock in a loop for ARGV[1] seconds: most of its time in the vDSO. */
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? strtod(argv[1], NULL) : 0.3);

	while (now() < end)
		;
	return 0;
}
