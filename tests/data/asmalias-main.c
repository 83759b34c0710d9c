// SPDX-License-Identifier: GPL-2.0
/* calls tests/data/asmalias.S's stub for argv[1] seconds of CPU */
#include <stdlib.h>
#include <time.h>

void spin_a(void);

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	clock_t end = clock() + (clock_t)(secs * CLOCKS_PER_SEC);
	long i;

	while (clock() < end)
		for (i = 0; i < 1000; i++)
			spin_a();
	return 0;
}
